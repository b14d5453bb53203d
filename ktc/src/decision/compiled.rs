//! A decision table compiled for the dispatcher's hot path.
//!
//! The distinct bounds of each numeric axis cut it into buckets (bucket `k`: exactly `k`
//! bounds lie below the value; NaN and a missing value go to the last bucket, since they
//! satisfy no bound), and the labels of each categorical axis give one bucket each plus
//! one for every other label. Inside one cell of the product of buckets every region
//! either contains every query or none, so the first match is a constant per cell. Each
//! cell's answer is taken, once, from [`DecisionTable::lookup`] on a representative
//! query: the compiled answer equals the linear scan's by construction.

use super::{Axis, AxisKind, AxisValue, Condition, DecisionTable, int_floor};

/// A [`DecisionTable`] indexed for lookups that cost a few comparisons per axis,
/// whatever the number of regions.
///
/// Queries are positional, one value per axis in the table's order. Answers equal
/// [`DecisionTable::lookup`]'s on the same values, for every query.
///
/// ```
/// use ktc::{Axis, AxisValue, CompiledTable, DecisionTable, Region};
///
/// let table = DecisionTable {
///     axes: vec![Axis::numeric("n"), Axis::categorical("residency")],
///     regions: vec![
///         Region::new("serial").at_most("n", 1000.0),
///         Region::new("cuda").equals("residency", "device"),
///         Region::new("parallel"),
///     ],
/// };
/// let compiled = CompiledTable::compile(&table);
/// assert_eq!(compiled.find(&[AxisValue::Num(500.0), AxisValue::Cat("device")]), 0);
/// assert_eq!(compiled.find(&[AxisValue::Num(5e6), AxisValue::Cat("device")]), 1);
/// assert_eq!(compiled.find(&[AxisValue::Num(5e6), AxisValue::Cat("host")]), 2);
/// ```
#[derive(Clone, Debug)]
pub struct CompiledTable {
    axes: Vec<Axis>,
    region_count: usize,
    index: Index,
}

#[derive(Clone, Debug)]
enum Index {
    /// Every axis numeric with at most [`SCAN_BOUNDS`] bounds: the usual shape (problem
    /// sizes), looked up without a branch that depends on the query.
    Small(SmallCells),
    Cells(Cells),
    /// Tables whose cells would not fit, or with conditions of the wrong kind for their
    /// axis (which a valid table never has).
    Linear(Box<[LinearRegion]>),
}

impl CompiledTable {
    /// The most cells an index may have (8 MiB of `u32`s, or 2 MiB of `u16`s); a table
    /// needing more keeps the linear scan.
    pub const MAX_CELLS: usize = 1 << 20;

    /// Compiles `table`, which should be valid (see [`DecisionTable::validate`]).
    ///
    /// All allocation happens here; [`find`](Self::find) allocates nothing.
    pub fn compile(table: &DecisionTable) -> Self {
        let index = match Cells::build(table) {
            Some(cells) => SmallCells::new(&cells).map_or(Index::Cells(cells), Index::Small),
            None => Index::Linear(table.regions.iter().map(|r| LinearRegion::new(table, r)).collect()),
        };
        CompiledTable { axes: table.axes.clone(), region_count: table.regions.len(), index }
    }

    /// The index of the first region containing `query` (one value per axis, in the
    /// table's axis order), as [`DecisionTable::lookup`] would find it.
    ///
    /// A missing value (a short query) contains no region that bounds its axis, as a
    /// value of the wrong kind. Extra values are ignored. Returns
    /// [`region_count`](Self::region_count) when no region matches, which cannot happen
    /// in a valid table (it ends with a catch-all).
    #[inline]
    pub fn find(&self, query: &[AxisValue<'_>]) -> usize {
        match &self.index {
            Index::Small(cells) => cells.find(query),
            Index::Cells(cells) => cells.find(query),
            Index::Linear(regions) => find_linear(regions, query),
        }
    }

    /// The number of regions of the compiled table.
    pub fn region_count(&self) -> usize {
        self.region_count
    }

    /// The table's axes, in query order.
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// The number of cells of the index, or `None` when lookups scan the regions
    /// (the index would exceed [`MAX_CELLS`](Self::MAX_CELLS), or the table had a
    /// condition of the wrong kind for its axis).
    pub fn cell_count(&self) -> Option<usize> {
        match &self.index {
            Index::Small(cells) => Some(cells.answers.len()),
            Index::Cells(cells) => Some(cells.len()),
            Index::Linear(_) => None,
        }
    }
}

/// The flat grid of first-match answers, row-major over the axes' buckets.
#[derive(Clone, Debug)]
struct Cells {
    axes: Box<[AxisIndex]>,
    answers: Answers,
    /// The answer for "no region", also returned for an out-of-range cell (never).
    none: usize,
}

/// The buckets of one axis and its stride in the flat grid.
#[derive(Clone, Debug)]
enum AxisIndex {
    /// Sorted distinct bounds, NaN excluded (`Le(NaN)` contains nothing).
    Numeric { bounds: Box<[f64]>, stride: usize },
    /// Distinct labels; bucket `labels.len()` is every other label.
    Categorical { labels: Box<[Box<str>]>, stride: usize },
}

/// Region indices, in the narrowest type that holds them and the "none" answer.
#[derive(Clone, Debug)]
enum Answers {
    U16(Box<[u16]>),
    U32(Box<[u32]>),
}

/// Up to this many bounds, a branch-free count beats a binary search.
const SCAN_BOUNDS: usize = 8;

/// [`Cells`] when every axis is numeric with at most [`SCAN_BOUNDS`] bounds and region
/// indices fit in `u16`.
#[derive(Clone, Debug)]
struct SmallCells {
    axes: Box<[SmallAxis]>,
    answers: Box<[u16]>,
    none: usize,
}

/// A numeric axis' bounds padded to [`SCAN_BOUNDS`] with `+∞`, which no finite value
/// exceeds, so the count needs no loop bound: `!(v <= b)` is true for the `len` real
/// bounds below `v`, and for all `SCAN_BOUNDS` when `v` is NaN, hence the `min`.
#[derive(Clone, Copy, Debug)]
struct SmallAxis {
    bounds: [f64; SCAN_BOUNDS],
    /// For integer queries: the bounds that some `u64` can satisfy, as their floors
    /// (`v ≤ b` ⟺ `v ≤ ⌊b⌋`), padded with `u64::MAX` — which no query exceeds, so the
    /// scan stops without a length check.
    int_bounds: [u64; SCAN_BOUNDS + 1],
    /// Bounds no `u64` satisfies (negative): every integer query lies above them.
    int_below: usize,
    len: usize,
    stride: usize,
}

impl SmallCells {
    fn new(cells: &Cells) -> Option<Self> {
        let axes = cells
            .axes
            .iter()
            .map(|axis| match axis {
                AxisIndex::Numeric { bounds, stride } if bounds.len() <= SCAN_BOUNDS => {
                    let mut padded = [f64::INFINITY; SCAN_BOUNDS];
                    padded[..bounds.len()].copy_from_slice(bounds);
                    let floors: Vec<u64> = bounds.iter().filter_map(|&b| int_floor(b)).collect();
                    let mut int_bounds = [u64::MAX; SCAN_BOUNDS + 1];
                    int_bounds[..floors.len()].copy_from_slice(&floors);
                    let int_below = bounds.len() - floors.len();
                    Some(SmallAxis {
                        bounds: padded,
                        int_bounds,
                        int_below,
                        len: bounds.len(),
                        stride: *stride,
                    })
                }
                _ => None,
            })
            .collect::<Option<_>>()?;
        let answers = match &cells.answers {
            Answers::U16(a) => a.clone(),
            Answers::U32(_) => return None,
        };
        Some(SmallCells { axes, answers, none: cells.none })
    }

    #[inline(always)]
    #[allow(clippy::neg_cmp_op_on_partial_ord, reason = "`!(v <= b)` is what puts NaN above every bound")]
    fn find(&self, query: &[AxisValue<'_>]) -> usize {
        let mut cell = 0;
        for (i, axis) in self.axes.iter().enumerate() {
            let below = match query.get(i) {
                // Sizes: a short scan whose branches the predictor learns, since one call
                // site sees similar sizes call after call.
                Some(&AxisValue::Int(v)) => {
                    let mut k = 0;
                    while v > axis.int_bounds[k] {
                        k += 1;
                    }
                    axis.int_below + k
                }
                Some(&AxisValue::Num(v)) => axis.bounds.iter().map(|&b| usize::from(!(v <= b))).sum(),
                _ => SCAN_BOUNDS,
            };
            cell += below.min(axis.len) * axis.stride;
        }
        // In range by construction; the check is one predictable branch.
        self.answers.get(cell).map_or(self.none, |&r| usize::from(r))
    }
}

impl AxisIndex {
    #[inline(always)]
    fn offset(&self, value: Option<&AxisValue<'_>>) -> usize {
        match self {
            AxisIndex::Numeric { bounds, stride } => {
                let bucket = match value {
                    Some(AxisValue::Num(v)) => numeric_bucket(bounds, *v),
                    Some(AxisValue::Int(v)) => {
                        bounds.partition_point(|&b| int_floor(b).is_none_or(|b| *v > b))
                    }
                    _ => bounds.len(),
                };
                bucket * stride
            }
            AxisIndex::Categorical { labels, stride } => {
                let bucket = match value {
                    Some(AxisValue::Cat(v)) => labels.iter().position(|l| **l == **v).unwrap_or(labels.len()),
                    _ => labels.len(),
                };
                bucket * stride
            }
        }
    }

    fn buckets(&self) -> usize {
        match self {
            AxisIndex::Numeric { bounds, .. } => bounds.len() + 1,
            AxisIndex::Categorical { labels, .. } => labels.len() + 1,
        }
    }

    /// A value whose bucket is `bucket`: the bucket's own bound or label, or, for the
    /// last bucket, NaN (it satisfies no `Le` and, being a number, no `Eq`).
    fn representative(&self, bucket: usize) -> AxisValue<'_> {
        match self {
            AxisIndex::Numeric { bounds, .. } => {
                AxisValue::Num(bounds.get(bucket).copied().unwrap_or(f64::NAN))
            }
            AxisIndex::Categorical { labels, .. } => {
                labels.get(bucket).map_or(AxisValue::Num(f64::NAN), |l| AxisValue::Cat(l))
            }
        }
    }

    fn set_stride(&mut self, new: usize) {
        match self {
            AxisIndex::Numeric { stride, .. } | AxisIndex::Categorical { stride, .. } => *stride = new,
        }
    }
}

/// How many bounds lie below `v`, NaN counting as above them all (`NaN ≤ b` is false,
/// as in [`Condition::contains`]).
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord, reason = "`!(v <= b)` is what puts NaN above every bound")]
fn numeric_bucket(bounds: &[f64], v: f64) -> usize {
    if bounds.len() <= SCAN_BOUNDS {
        bounds.iter().map(|&b| usize::from(!(v <= b))).sum()
    } else {
        bounds.partition_point(|&b| !(v <= b))
    }
}

impl Cells {
    fn build(table: &DecisionTable) -> Option<Cells> {
        if has_kind_mismatch(table) {
            return None;
        }
        let mut axes: Vec<AxisIndex> = table.axes.iter().map(|a| axis_index(table, a)).collect();
        let mut len = 1usize;
        for axis in axes.iter_mut().rev() {
            axis.set_stride(len);
            len = len.checked_mul(axis.buckets()).filter(|&n| n <= CompiledTable::MAX_CELLS)?;
        }
        let none = table.regions.len();
        let mut query: Vec<(&str, AxisValue<'_>)> =
            table.axes.iter().map(|a| (a.name.as_str(), AxisValue::Num(f64::NAN))).collect();
        let answers = (0..len).map(|cell| {
            let mut rest = cell;
            for (q, axis) in query.iter_mut().zip(&axes).rev() {
                q.1 = axis.representative(rest % axis.buckets());
                rest /= axis.buckets();
            }
            table.lookup(&query).map_or(none, |(i, _)| i)
        });
        let answers = if u16::try_from(none).is_ok() {
            Answers::U16(answers.map(|i| i as u16).collect())
        } else {
            Answers::U32(answers.map(|i| i as u32).collect())
        };
        Some(Cells { axes: axes.into(), answers, none })
    }

    fn len(&self) -> usize {
        match &self.answers {
            Answers::U16(a) => a.len(),
            Answers::U32(a) => a.len(),
        }
    }

    // Out of line: label comparisons call `memcmp`, whose register saving would
    // otherwise burden the inlined all-numeric path too.
    #[inline(never)]
    fn find(&self, query: &[AxisValue<'_>]) -> usize {
        let mut cell = 0;
        for (i, axis) in self.axes.iter().enumerate() {
            cell += axis.offset(query.get(i));
        }
        match &self.answers {
            Answers::U16(a) => a.get(cell).map_or(self.none, |&r| usize::from(r)),
            Answers::U32(a) => a.get(cell).map_or(self.none, |&r| r as usize),
        }
    }
}

/// Whether some region bounds an axis with a condition of the other kind. Such a
/// condition can match a query of the other kind, which the buckets do not model.
fn has_kind_mismatch(table: &DecisionTable) -> bool {
    table.regions.iter().flat_map(|r| &r.when).any(|(name, cond)| {
        table.axes.iter().find(|a| a.name == *name).is_some_and(|a| {
            !matches!(
                (cond, a.kind),
                (Condition::Le(_), AxisKind::Numeric) | (Condition::Eq(_), AxisKind::Categorical)
            )
        })
    })
}

fn axis_index(table: &DecisionTable, axis: &Axis) -> AxisIndex {
    let conditions = table.regions.iter().filter_map(|r| r.when.get(&axis.name));
    match axis.kind {
        AxisKind::Numeric => {
            let mut bounds: Vec<f64> = conditions
                .filter_map(|c| match c {
                    Condition::Le(b) if !b.is_nan() => Some(*b),
                    _ => None,
                })
                .collect();
            bounds.sort_by(f64::total_cmp);
            bounds.dedup_by(|a, b| a == b);
            AxisIndex::Numeric { bounds: bounds.into(), stride: 0 }
        }
        AxisKind::Categorical => {
            let mut labels: Vec<Box<str>> = Vec::new();
            for c in conditions {
                if let Condition::Eq(l) = c
                    && !labels.iter().any(|x| **x == **l)
                {
                    labels.push(l.as_str().into());
                }
            }
            AxisIndex::Categorical { labels: labels.into(), stride: 0 }
        }
    }
}

/// A region for the linear scan: its conditions by axis position.
#[derive(Clone, Debug)]
struct LinearRegion {
    conditions: Box<[(usize, Condition)]>,
    /// It names an axis the table lacks, so no query (holding only the table's axes)
    /// is in it.
    unreachable: bool,
}

impl LinearRegion {
    fn new(table: &DecisionTable, region: &super::Region) -> Self {
        let mut unreachable = false;
        let conditions = region
            .when
            .iter()
            .filter_map(|(name, cond)| {
                let position = table.axes.iter().position(|a| a.name == *name);
                unreachable |= position.is_none();
                Some((position?, cond.clone()))
            })
            .collect();
        LinearRegion { conditions, unreachable }
    }
}

#[inline(never)]
fn find_linear(regions: &[LinearRegion], query: &[AxisValue<'_>]) -> usize {
    regions
        .iter()
        .position(|r| {
            !r.unreachable && r.conditions.iter().all(|(i, c)| query.get(*i).is_some_and(|v| c.contains(*v)))
        })
        .unwrap_or(regions.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::Region;

    fn table(regions: Vec<Region>) -> DecisionTable {
        DecisionTable { axes: vec![Axis::numeric("n"), Axis::categorical("r")], regions }
    }

    #[test]
    fn nan_and_missing_values_fall_in_the_last_bucket() {
        let regions = vec![Region::new("a").at_most("n", 10.0), Region::new("b")];
        let with_labels = table(regions.clone());
        let numeric_only = DecisionTable { axes: vec![Axis::numeric("n")], regions };
        for t in [&with_labels, &numeric_only] {
            let c = CompiledTable::compile(t);
            assert_eq!(c.cell_count(), Some(2));
            assert_eq!(c.find(&[AxisValue::Num(10.0)]), 0);
            assert_eq!(c.find(&[AxisValue::Num(-0.0)]), 0);
            assert_eq!(c.find(&[AxisValue::Num(10.5)]), 1);
            assert_eq!(c.find(&[AxisValue::Num(f64::NAN)]), 1);
            assert_eq!(c.find(&[AxisValue::Num(f64::INFINITY)]), 1);
            assert_eq!(c.find(&[]), 1);
            assert_eq!(c.find(&[AxisValue::Cat("10")]), 1);
        }
        assert!(matches!(CompiledTable::compile(&numeric_only).index, Index::Small(_)));
        assert!(matches!(CompiledTable::compile(&with_labels).index, Index::Cells(_)));
    }

    #[test]
    fn many_bounds_use_binary_search() {
        let mut regions: Vec<Region> =
            (0..20).map(|i| Region::new("a").at_most("n", f64::from(i * 10))).collect();
        regions.push(Region::new("z"));
        let t = table(regions);
        let c = CompiledTable::compile(&t);
        for v in [-1.0, 0.0, 5.0, 10.0, 11.0, 190.0, 191.0, f64::NAN, f64::INFINITY] {
            let expected = t.lookup(&[("n", AxisValue::Num(v))]).map(|(i, _)| i);
            assert_eq!(Some(c.find(&[AxisValue::Num(v)])), expected, "{v}");
        }
    }

    #[test]
    fn kind_mismatch_and_huge_tables_scan() {
        let t = table(vec![Region::new("a").equals("n", "x"), Region::new("b")]);
        let c = CompiledTable::compile(&t);
        assert_eq!(c.cell_count(), None);
        assert_eq!(c.find(&[AxisValue::Cat("x")]), 0);
        assert_eq!(c.find(&[AxisValue::Num(1.0)]), 1);

        let axes: Vec<Axis> = (0..3).map(|i| Axis::numeric(format!("a{i}"))).collect();
        let mut regions: Vec<Region> = (0..200)
            .map(|i| {
                let b = f64::from(i);
                Region::new("v").at_most("a0", b).at_most("a1", b).at_most("a2", b)
            })
            .collect();
        regions.push(Region::new("w"));
        let t = DecisionTable { axes, regions };
        let c = CompiledTable::compile(&t);
        assert_eq!(c.cell_count(), None);
        let q = [AxisValue::Num(3.5), AxisValue::Num(1.0), AxisValue::Num(0.0)];
        assert_eq!(c.find(&q), 4);
    }

    #[test]
    fn unknown_axis_region_never_matches() {
        let t = table(vec![Region::new("a").at_most("m", 10.0), Region::new("b")]);
        let c = CompiledTable::compile(&t);
        assert_eq!(c.find(&[AxisValue::Num(1.0), AxisValue::Cat("host")]), 1);
    }
}
