//! From a sweep's winners on a grid to a decision table.
//!
//! [`grid_regions`] defines the semantics: one region per grid point, first match in
//! row-major order. A query snaps, per axis, to the first grid value at or above it (the
//! top value catches everything above the grid, NaN and a missing value; the last label
//! catches unseen labels), and takes that point's winner. [`compact_regions`] answers
//! exactly the same for every query, in as few regions as it finds.
//!
//! Every condition either function writes is `Le(g)` or `Eq(l)` for a grid value that is
//! not its axis' last, so a table's answer depends only on the grid point a query snaps
//! to: two such tables are equal everywhere when they are equal on the grid points. The
//! compaction relies on this to check its simplifications on the grid alone.

mod grid;
mod simplify;
mod tolerant;

pub(crate) use tolerant::compact_regions_within;

use super::{Axis, Condition, Region};
use grid::{Draft, Grid};

/// The values one axis took in a sweep.
#[derive(Clone, Debug, PartialEq)]
pub enum GridValues {
    /// Sizes of a numeric axis: finite, sorted ascending, distinct.
    Numeric(Vec<f64>),
    /// Labels of a categorical axis, distinct. The last also answers for unseen labels.
    Categorical(Vec<String>),
}

impl GridValues {
    pub(super) fn len(&self) -> usize {
        match self {
            GridValues::Numeric(v) => v.len(),
            GridValues::Categorical(v) => v.len(),
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The condition "at most / equal to value `i`".
    pub(super) fn condition(&self, i: usize) -> Condition {
        match self {
            GridValues::Numeric(v) => Condition::Le(v[i]),
            GridValues::Categorical(v) => Condition::Eq(v[i].clone()),
        }
    }
}

/// What won at one grid point.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Winner {
    /// The variant's name.
    pub variant: String,
    /// Its block size, for variants that take one.
    pub block_size: Option<usize>,
}

impl Winner {
    /// A winner without a block size.
    pub fn new(variant: impl Into<String>) -> Self {
        Winner { variant: variant.into(), block_size: None }
    }
    /// Sets the block size.
    pub fn block_size(mut self, block_size: usize) -> Self {
        self.block_size = Some(block_size);
        self
    }
}

/// The reference table: one region per grid point, in row-major order of the grid
/// indices (the last axis varies fastest), `winners` in that same order.
///
/// Each region bounds every axis by its grid value (`Le` numeric, `Eq` categorical),
/// except that an axis' last value gets no condition: the top numeric value is unbounded
/// above and the last label also takes unseen labels. The last point is the catch-all.
///
/// # Panics
///
/// When `values` does not match `axes` (count or kind), an axis has no value, numeric
/// values are not finite, ascending and distinct, labels repeat, or `winners` does not
/// hold one winner per grid point.
pub fn grid_regions(axes: &[Axis], values: &[GridValues], winners: &[Winner]) -> Vec<Region> {
    let grid = Grid::new(axes, values, winners);
    let drafts: Vec<Draft> = (0..winners.len())
        .map(|flat| {
            let point = grid.point(flat);
            let when = point.iter().zip(&grid.sizes).map(|(&i, &m)| (i + 1 < m).then_some(i)).collect();
            Draft { when, winner: grid.winner_ids[flat] }
        })
        .collect();
    grid.to_regions(&drafts)
}

/// A first-match table answering exactly like [`grid_regions`] for every query, with
/// neighbouring grid points of the same winner merged.
///
/// For each order of the axes, the grid is split on the first axis into runs of values
/// whose sub-table over the remaining axes is the same (any labels sharing the last
/// label's sub-table fold into the fallback), recursively; then regions that later
/// regions make redundant, and conditions that earlier regions make redundant, are
/// dropped. The shortest result wins, ties going to the declared order (every order is
/// tried up to 5 axes; beyond, the declared one only). The last region is a catch-all.
///
/// ```
/// use ktc::{Axis, GridValues, Winner, compact_regions};
///
/// let axes = [Axis::numeric("n"), Axis::numeric("k")];
/// let values = [GridValues::Numeric(vec![1e3, 1e5, 1e7]), GridValues::Numeric(vec![4.0, 64.0])];
/// let (serial, parallel) = (Winner::new("serial"), Winner::new("parallel"));
/// let winners = [&serial, &serial, &parallel, &parallel, &parallel, &parallel].map(Clone::clone);
/// let regions = compact_regions(&axes, &values, &winners);
/// assert_eq!(regions.len(), 2); // n ≤ 1000 → serial, else → parallel
/// ```
///
/// # Panics
///
/// As [`grid_regions`].
pub fn compact_regions(axes: &[Axis], values: &[GridValues], winners: &[Winner]) -> Vec<Region> {
    let grid = Grid::new(axes, values, winners);
    let mut best: Option<Vec<Draft>> = None;
    // Every order up to 5 axes (120 orders); beyond, the declared order only.
    let orders = if axes.len() <= 5 { permutations(axes.len()) } else { vec![(0..axes.len()).collect()] };
    for order in orders {
        let mut drafts = grid.split(&order, &mut vec![0; axes.len()]);
        grid.simplify(&mut drafts);
        if best.as_ref().is_none_or(|b| drafts.len() < b.len()) {
            best = Some(drafts);
        }
    }
    grid.to_regions(&best.unwrap_or_default())
}

/// All orders of `0..n`, the identity first.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn go(prefix: &mut Vec<usize>, n: usize, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        for i in 0..n {
            if !prefix.contains(&i) {
                prefix.push(i);
                go(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), n, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_start_with_identity() {
        let p = permutations(3);
        assert_eq!(p.len(), 6);
        assert_eq!(p[0], vec![0, 1, 2]);
        assert_eq!(permutations(0), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn no_axis_is_one_catch_all() {
        let w = [Winner::new("only")];
        assert_eq!(grid_regions(&[], &[], &w), vec![Region::new("only")]);
        assert_eq!(compact_regions(&[], &[], &w), vec![Region::new("only")]);
    }
}
