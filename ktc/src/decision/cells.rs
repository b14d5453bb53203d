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
    /// The first [`INLINE`] floors, padded with `u64::MAX`: an axis with at most that
    /// many bounds (the usual case) counts them here, without following a pointer.
    inline: [u64; INLINE],
    bounds: Box<[f64]>,
    floors: Box<[u64]>,
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

/// Bounds up to which a numeric axis counts integers from [`NumericAxis::inline`].
const INLINE: usize = 8;

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
        let mut inline = [u64::MAX; INLINE];
        let head = floors.len().min(INLINE);
        inline[..head].copy_from_slice(&floors[..head]);
        NumericAxis { inline, bounds: bounds.into(), floors: floors.into(), len, stride: 0 }
    }

    /// The bucket of an integer: the floors below it (the `u64::MAX` padding never is).
    #[inline(always)]
    fn int_bucket(&self, v: u64) -> usize {
        if self.len <= INLINE {
            // A short scan whose branches the predictor learns, since one call site
            // sees similar sizes call after call.
            self.inline.iter().take_while(|&&f| f < v).count()
        } else {
            count_below(&self.floors, |f| f < v)
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
    /// Whether the axis is numeric.
    #[inline(always)]
    pub(super) fn is_numeric(&self) -> bool {
        matches!(self, AxisIndex::Numeric(_))
    }

    /// The offset of integer `v`'s bucket in the flat grid, on a numeric axis (0 on a
    /// categorical one, which callers rule out first).
    #[inline(always)]
    pub(super) fn int_offset(&self, v: u64) -> usize {
        match self {
            AxisIndex::Numeric(axis) => axis.int_bucket(v) * axis.stride,
            AxisIndex::Categorical(_) => 0,
        }
    }

    /// The offset of `value`'s bucket in the flat grid. A value of the other kind, or
    /// none (`None`), lies in the last bucket.
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
