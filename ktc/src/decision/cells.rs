//! The grid of cells behind [`CompiledTable`](super::CompiledTable): how a query finds
//! its cell (the one lookup both dispatch and `explain` run), and how each cell's
//! first-match region is computed in time linear in regions plus cells.
//!
//! The distinct bounds of a numeric axis cut it into buckets (bucket `k`: exactly `k`
//! bounds lie below the value; NaN, a missing value and a value of the other kind go to
//! the last bucket, since they satisfy no bound). The labels of a categorical axis give
//! one bucket each, plus one for every other label. Inside one cell of the product of
//! buckets every region either contains every query or none, so the first match is a
//! constant per cell.

use super::{AxisKind, AxisValue, Condition, DecisionTable, InvalidTable, int_floor};

/// How one axis maps a query value to its bucket, and its stride in the flat grid.
#[derive(Clone, Debug)]
pub(super) enum AxisIndex {
    Numeric(NumericAxis),
    Categorical(CategoricalAxis),
}

/// A numeric axis' sorted distinct bounds, twice: as floats for float queries, and as
/// their integer floors for integer queries (`v ≤ b` ⟺ `v ≤ ⌊b⌋` for an integer `v`).
/// Both are padded to a power of two, with values no query lies above (`+∞`,
/// `u64::MAX`), so the search is a fixed number of halvings without a length check.
#[derive(Clone, Debug)]
pub(super) struct NumericAxis {
    bounds: Box<[f64]>,
    floors: Box<[u64]>,
    /// For 8 to 64 padded floors: the last floor of each block of 8 (`u64::MAX` past
    /// the end), so an integer finds its block, then its bucket, with two short scans
    /// instead of up to six dependent halvings (a refined sweep's table has 10–30
    /// bounds per axis). `None` for other sizes.
    blocks: Option<[u64; 8]>,
    /// The number of real bounds: the index of the last bucket.
    len: usize,
    stride: usize,
}

/// A categorical axis' distinct labels. Bucket `labels.len()` is every other label;
/// slot `labels.len() + 1` holds, while the grid is built, the regions that do not
/// bound this axis (no query ever lands there).
#[derive(Clone, Debug)]
pub(super) struct CategoricalAxis {
    labels: Box<[Box<str>]>,
    stride: usize,
}

/// Most axes of a table the [`SmallIndex`] serves.
const SMALL_AXES: usize = 4;
/// Most bounds per axis of a table the [`SmallIndex`] serves: one less than its
/// arrays hold, so that the last entry is always padding and a count fits 3 bits.
const SMALL_BOUNDS: usize = 7;

/// The usual table — a few numeric axes with a few bounds each — for integer queries
/// (sizes), held inline so the hot path follows no pointer: per axis, the integer
/// floors padded with `u64::MAX` (which no query exceeds) and the stride. Its buckets
/// are [`NumericAxis::int_bucket`]'s, from the same floors.
#[derive(Clone, Debug)]
pub(super) struct SmallIndex {
    floors: [[u64; SMALL_BOUNDS + 1]; SMALL_AXES],
    strides: [usize; SMALL_AXES],
    /// The table's axis count, or `usize::MAX` when it is not of this shape (so no
    /// query's length equals it).
    axes: usize,
}

impl SmallIndex {
    pub(super) fn new(axes: &[AxisIndex]) -> SmallIndex {
        let mut small = SmallIndex {
            floors: [[u64::MAX; SMALL_BOUNDS + 1]; SMALL_AXES],
            strides: [0; SMALL_AXES],
            axes: usize::MAX,
        };
        if axes.len() > SMALL_AXES {
            return small;
        }
        for (i, axis) in axes.iter().enumerate() {
            match axis {
                AxisIndex::Numeric(a) if a.len <= SMALL_BOUNDS => {
                    small.floors[i][..a.len].copy_from_slice(&a.floors[..a.len]);
                    small.strides[i] = a.stride;
                }
                _ => return small,
            }
        }
        small.axes = axes.len();
        small
    }

    /// The cell of `query` when it is one integer per axis of a table of this shape,
    /// else `None`.
    #[inline(always)]
    pub(super) fn cell(&self, query: &[AxisValue<'_>]) -> Option<usize> {
        if query.len() != self.axes {
            return None;
        }
        let mut cell = 0;
        // Over the query: a dispatcher's is an array, so once inlined this unrolls.
        for (i, value) in query.iter().enumerate() {
            let &AxisValue::Int(v) = value else { return None };
            cell += count_below_8(&self.floors[i], v) * self.strides[i];
        }
        Some(cell)
    }
}

/// How many of the sorted `a` satisfy `below`, which holds for a prefix of `a`; at most
/// `a.len() - 1` (`a.len()` is a power of two). A branch-free binary search: its
/// step count depends on the table only, so the loop branch is always predicted.
#[inline(always)]
fn count_below<T: Copy>(a: &[T], below: impl Fn(T) -> bool) -> usize {
    let mut base = 0;
    let mut half = a.len() / 2;
    while half > 0 {
        if below(a[base + half - 1]) {
            base += half;
        }
        half /= 2;
    }
    base
}

/// How many of the sorted `f` lie below `v` (at most 7: the last is padding): one
/// compare picks a half, a short scan finds the bucket in it. Branches, not data
/// dependencies (as in a branch-free search), are what the predictor learns from one
/// call site seeing similar sizes call after call; and a scan that stops early yields
/// its bucket as a constant, so the cell's address does not wait for the compares.
#[inline(always)]
fn count_below_8(f: &[u64; 8], v: u64) -> usize {
    if f[3] < v {
        // From the top: a value above every bound (the largest sizes) stops at once.
        7 - f[4..7].iter().rev().take_while(|&&x| x >= v).count()
    } else {
        f[..3].iter().take_while(|&&x| x < v).count()
    }
}

impl NumericAxis {
    fn new(mut bounds: Vec<f64>) -> Self {
        bounds.sort_by(f64::total_cmp);
        bounds.dedup();
        let len = bounds.len();
        let padded = (len + 1).next_power_of_two();
        // Bounds are finite and ≥ 0 (checked before compiling), so each has a floor.
        let mut floors: Vec<u64> = bounds.iter().map(|&b| int_floor(b).unwrap_or(0)).collect();
        bounds.resize(padded, f64::INFINITY);
        floors.resize(padded, u64::MAX);
        let blocks = (8..=64).contains(&padded).then(|| {
            let mut blocks = [u64::MAX; 8];
            for (b, block) in floors.chunks_exact(8).enumerate() {
                blocks[b] = block[7];
            }
            blocks
        });
        NumericAxis { bounds: bounds.into(), floors: floors.into(), blocks, len, stride: 0 }
    }

    /// The bucket of an integer: the floors below it (the `u64::MAX` padding never is).
    #[inline(always)]
    fn int_bucket(&self, v: u64) -> usize {
        match &self.blocks {
            // The first block whose last floor is not below `v` holds the bucket; that
            // last floor (or the `u64::MAX` past the end) is the scan's padding.
            Some(blocks) => {
                let b = count_below_8(blocks, v);
                let block: &[u64; 8] = self.floors[8 * b..8 * b + 8].try_into().expect("blocks of 8");
                8 * b + count_below_8(block, v)
            }
            None => count_below(&self.floors, |f| f < v),
        }
    }

    /// The bucket of a float: the bounds below it. NaN is above the `+∞` padding too,
    /// hence the clamp to the last bucket.
    #[allow(clippy::neg_cmp_op_on_partial_ord, reason = "`!(v <= b)` is what puts NaN above every bound")]
    fn num_bucket(&self, v: f64) -> usize {
        count_below(&self.bounds, |b| !(v <= b)).min(self.len)
    }

    /// The bucket whose upper end is `bound`, one of this axis' bounds.
    fn bucket_of_bound(&self, bound: f64) -> usize {
        self.bounds[..self.len].partition_point(|&b| b < bound)
    }
}

impl CategoricalAxis {
    fn bucket(&self, v: &str) -> usize {
        self.labels.iter().position(|l| **l == *v).unwrap_or(self.labels.len())
    }

    fn slot_of_label(&self, label: &str) -> usize {
        self.labels.iter().position(|l| **l == *label).unwrap_or(self.labels.len())
    }

    /// The build-time slot of regions that do not bound this axis.
    fn any_slot(&self) -> usize {
        self.labels.len() + 1
    }
}

impl AxisIndex {
    /// The offset of `value`'s bucket in the flat grid. A value of the other kind, or
    /// none (`None`), lies in the last bucket.
    #[inline(always)]
    pub(super) fn offset(&self, value: Option<AxisValue<'_>>) -> usize {
        match (self, value) {
            (AxisIndex::Numeric(axis), Some(AxisValue::Int(v))) => axis.int_bucket(v) * axis.stride,
            (AxisIndex::Numeric(axis), Some(AxisValue::Num(v))) => axis.num_bucket(v) * axis.stride,
            (AxisIndex::Numeric(axis), _) => axis.len * axis.stride,
            (AxisIndex::Categorical(axis), Some(AxisValue::Cat(v))) => axis.bucket(v) * axis.stride,
            (AxisIndex::Categorical(axis), _) => axis.labels.len() * axis.stride,
        }
    }

    /// Slots along this axis in the flat grid.
    fn slots(&self) -> usize {
        match self {
            AxisIndex::Numeric(axis) => axis.len + 1,
            AxisIndex::Categorical(axis) => axis.labels.len() + 2,
        }
    }

    fn stride(&self) -> usize {
        match self {
            AxisIndex::Numeric(axis) => axis.stride,
            AxisIndex::Categorical(axis) => axis.stride,
        }
    }

    fn set_stride(&mut self, stride: usize) {
        match self {
            AxisIndex::Numeric(axis) => axis.stride = stride,
            AxisIndex::Categorical(axis) => axis.stride = stride,
        }
    }

    /// The slot of the corner of a region's box: the bucket of its bound or label, or
    /// the top bucket (numeric) or the "any" slot (categorical) when it has none.
    fn corner(&self, condition: Option<&Condition>) -> usize {
        match (self, condition) {
            (AxisIndex::Numeric(axis), Some(Condition::Le(b))) => axis.bucket_of_bound(*b),
            (AxisIndex::Numeric(axis), _) => axis.len,
            (AxisIndex::Categorical(axis), Some(Condition::Eq(l))) => axis.slot_of_label(l),
            (AxisIndex::Categorical(axis), _) => axis.any_slot(),
        }
    }
}

/// The axes' indices, strides set, and the number of slots of the flat grid, or
/// [`InvalidTable::TooManyCells`] when that exceeds `max_cells`.
pub(super) fn axis_indices(
    table: &DecisionTable,
    max_cells: usize,
) -> Result<(Vec<AxisIndex>, usize), InvalidTable> {
    let mut axes: Vec<AxisIndex> = table
        .axes
        .iter()
        .map(|axis| {
            let conditions = table.regions.iter().filter_map(|r| r.when.get(&axis.name));
            match axis.kind {
                AxisKind::Numeric => AxisIndex::Numeric(NumericAxis::new(
                    conditions
                        .filter_map(|c| if let Condition::Le(b) = c { Some(*b) } else { None })
                        .collect(),
                )),
                AxisKind::Categorical => {
                    let mut labels: Vec<Box<str>> = Vec::new();
                    for c in conditions {
                        if let Condition::Eq(l) = c
                            && !labels.iter().any(|x| **x == **l)
                        {
                            labels.push(l.as_str().into());
                        }
                    }
                    AxisIndex::Categorical(CategoricalAxis { labels: labels.into(), stride: 0 })
                }
            }
        })
        .collect();
    let mut cells = 1usize;
    for axis in axes.iter_mut().rev() {
        axis.set_stride(cells);
        cells = cells
            .checked_mul(axis.slots())
            .filter(|&n| n <= max_cells)
            .ok_or(InvalidTable::TooManyCells { max: max_cells })?;
    }
    Ok((axes, cells))
}

/// Each slot's first-match region (`none` where no region contains it).
///
/// A region is a box anchored at the grid's low corner on numeric axes (`v ≤ b` holds
/// for every bucket up to `b`'s) and one label or all of them on categorical axes. So a
/// cell's first match is the smallest region index whose corner dominates the cell:
/// each region writes its index at its corner (the earliest wins a shared corner), then
/// one pass per axis carries minima down the numeric axes and from the "any" slot to
/// every label. Regions plus axes × cells steps, instead of regions × cells.
pub(super) fn first_matches(
    table: &DecisionTable,
    axes: &[AxisIndex],
    cells: usize,
    none: u16,
) -> Box<[u16]> {
    let mut slots = vec![none; cells];
    for (index, region) in table.regions.iter().enumerate() {
        let corner: usize = table
            .axes
            .iter()
            .zip(axes)
            .map(|(a, ix)| ix.corner(region.when.get(&a.name)) * ix.stride())
            .sum();
        // Region counts are checked to fit `u16` before compiling.
        let index = index as u16;
        slots[corner] = slots[corner].min(index);
    }
    for axis in axes {
        let (stride, last) = (axis.stride(), axis.slots() - 1);
        match axis {
            AxisIndex::Numeric(_) => {
                for cell in (0..cells).rev() {
                    if (cell / stride) % (last + 1) < last {
                        slots[cell] = slots[cell].min(slots[cell + stride]);
                    }
                }
            }
            AxisIndex::Categorical(_) => {
                for cell in 0..cells {
                    let slot = (cell / stride) % (last + 1);
                    if slot < last {
                        let any = cell + (last - slot) * stride;
                        slots[cell] = slots[cell].min(slots[any]);
                    }
                }
            }
        }
    }
    slots.into()
}
