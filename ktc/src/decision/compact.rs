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

use super::{Axis, AxisKind, Condition, Region};
use std::collections::HashMap;

/// The values one axis took in a sweep.
#[derive(Clone, Debug, PartialEq)]
pub enum GridValues {
    /// Sizes of a numeric axis: finite, sorted ascending, distinct.
    Numeric(Vec<f64>),
    /// Labels of a categorical axis, distinct. The last also answers for unseen labels.
    Categorical(Vec<String>),
}

impl GridValues {
    fn len(&self) -> usize {
        match self {
            GridValues::Numeric(v) => v.len(),
            GridValues::Categorical(v) => v.len(),
        }
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The condition "at most / equal to value `i`".
    fn condition(&self, i: usize) -> Condition {
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

/// A region under construction: per declared axis, the index of the grid value it is
/// bounded by (never the last), and the interned winner.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Draft {
    when: Vec<Option<usize>>,
    winner: usize,
}

/// The checked grid with winners interned, in row-major order.
struct Grid<'a> {
    axes: &'a [Axis],
    values: &'a [GridValues],
    sizes: Vec<usize>,
    /// Row-major strides of the flat winner index.
    strides: Vec<usize>,
    kinds: Vec<AxisKind>,
    distinct: Vec<&'a Winner>,
    winner_ids: Vec<usize>,
}

impl<'a> Grid<'a> {
    fn new(axes: &'a [Axis], values: &'a [GridValues], winners: &'a [Winner]) -> Self {
        assert_eq!(axes.len(), values.len(), "one list of grid values per axis");
        for (axis, v) in axes.iter().zip(values) {
            check_axis(axis, v);
        }
        let sizes: Vec<usize> = values.iter().map(GridValues::len).collect();
        let mut strides = vec![1; sizes.len()];
        for a in (0..sizes.len().saturating_sub(1)).rev() {
            strides[a] = strides[a + 1] * sizes[a + 1];
        }
        let points: usize = sizes.iter().product();
        assert_eq!(winners.len(), points, "one winner per grid point, in row-major order");
        let mut ids = HashMap::new();
        let mut distinct = Vec::new();
        let winner_ids = winners
            .iter()
            .map(|w| {
                *ids.entry(w).or_insert_with(|| {
                    distinct.push(w);
                    distinct.len() - 1
                })
            })
            .collect();
        let kinds = axes.iter().map(|a| a.kind).collect();
        Grid { axes, values, sizes, strides, kinds, distinct, winner_ids }
    }

    fn point_count(&self) -> usize {
        self.winner_ids.len()
    }

    fn point(&self, flat: usize) -> Vec<usize> {
        self.strides.iter().zip(&self.sizes).map(|(&s, &m)| flat / s % m).collect()
    }

    fn flat(&self, point: &[usize]) -> usize {
        point.iter().zip(&self.strides).map(|(i, s)| i * s).sum()
    }

    /// Whether a draft contains the grid point `flat`.
    fn contains(&self, draft: &Draft, flat: usize) -> bool {
        draft.when.iter().enumerate().all(|(a, bound)| match *bound {
            None => true,
            Some(b) => {
                let i = flat / self.strides[a] % self.sizes[a];
                match self.kinds[a] {
                    AxisKind::Numeric => i <= b,
                    AxisKind::Categorical => i == b,
                }
            }
        })
    }

    /// A first-match table for the sub-grid where the axes `order[..]` vary and the
    /// others are fixed at `fixed`; conditions only on the varying axes.
    fn split(&self, order: &[usize], fixed: &mut Vec<usize>) -> Vec<Draft> {
        let Some((&axis, rest)) = order.split_first() else {
            let winner = self.winner_ids[self.flat(fixed)];
            return vec![Draft { when: vec![None; self.sizes.len()], winner }];
        };
        let subs: Vec<Vec<Draft>> = (0..self.sizes[axis])
            .map(|i| {
                fixed[axis] = i;
                self.split(rest, fixed)
            })
            .collect();
        fixed[axis] = 0;
        match self.kinds[axis] {
            AxisKind::Numeric => split_numeric(axis, subs),
            AxisKind::Categorical => split_categorical(axis, subs),
        }
    }

    /// Drops regions and conditions that do not change any grid point's answer, until
    /// none can go. The last region stays (it is, and remains, the catch-all).
    fn simplify(&self, drafts: &mut Vec<Draft>) {
        let mut first: Vec<usize> = (0..self.point_count()).map(|p| self.first_match(drafts, p, 0)).collect();
        loop {
            let mut changed = false;
            let mut r = 0;
            while r + 1 < drafts.len() {
                if self.try_remove(drafts, &mut first, r) {
                    changed = true;
                } else {
                    r += 1;
                }
            }
            for r in 0..drafts.len() {
                for a in 0..self.sizes.len() {
                    changed |= self.try_drop_condition(drafts, &mut first, r, a);
                }
            }
            if !changed {
                break;
            }
        }
        // Regions after a catch-all answer nothing (the ones before the last are already
        // gone); the last would stay without this.
        if let Some(i) = drafts.iter().position(|d| d.when.iter().all(Option::is_none)) {
            drafts.truncate(i + 1);
        }
    }

    fn first_match(&self, drafts: &[Draft], flat: usize, from: usize) -> usize {
        (from..drafts.len()).find(|&r| self.contains(&drafts[r], flat)).unwrap_or(drafts.len())
    }

    /// Removes region `r` when every point it answers falls to a later region with the
    /// same winner.
    fn try_remove(&self, drafts: &mut Vec<Draft>, first: &mut [usize], r: usize) -> bool {
        let winner = drafts[r].winner;
        let mut moved = Vec::new();
        for (p, &f) in first.iter().enumerate() {
            if f == r {
                let next = self.first_match(drafts, p, r + 1);
                if drafts.get(next).is_none_or(|d| d.winner != winner) {
                    return false;
                }
                moved.push((p, next));
            }
        }
        for (p, next) in moved {
            first[p] = next;
        }
        drafts.remove(r);
        for f in first.iter_mut().filter(|f| **f > r) {
            *f -= 1;
        }
        true
    }

    /// Drops region `r`'s condition on axis `a` when every point it would newly take
    /// already has the region's winner.
    fn try_drop_condition(&self, drafts: &mut [Draft], first: &mut [usize], r: usize, a: usize) -> bool {
        if drafts[r].when[a].is_none() {
            return false;
        }
        let mut wider = drafts[r].clone();
        wider.when[a] = None;
        let mut taken = Vec::new();
        for (p, &f) in first.iter().enumerate() {
            if f > r && self.contains(&wider, p) {
                if drafts.get(f).map(|d| d.winner) != Some(wider.winner) {
                    return false;
                }
                taken.push(p);
            }
        }
        for p in taken {
            first[p] = r;
        }
        drafts[r] = wider;
        true
    }

    fn to_regions(&self, drafts: &[Draft]) -> Vec<Region> {
        drafts
            .iter()
            .map(|d| {
                let winner = self.distinct[d.winner];
                let when = d
                    .when
                    .iter()
                    .enumerate()
                    .filter_map(|(a, b)| b.map(|i| (self.axes[a].name.clone(), self.values[a].condition(i))))
                    .collect();
                Region { when, variant: winner.variant.clone(), block_size: winner.block_size }
            })
            .collect()
    }
}

fn check_axis(axis: &Axis, values: &GridValues) {
    assert!(!values.is_empty(), "axis `{}` has no grid value", axis.name);
    match (axis.kind, values) {
        (AxisKind::Numeric, GridValues::Numeric(v)) => assert!(
            v.iter().all(|x| x.is_finite()) && v.windows(2).all(|w| w[0] < w[1]),
            "grid values of `{}` must be finite, ascending and distinct: {v:?}",
            axis.name
        ),
        (AxisKind::Categorical, GridValues::Categorical(v)) => assert!(
            v.iter().enumerate().all(|(i, l)| !v[..i].contains(l)),
            "labels of `{}` must be distinct: {v:?}",
            axis.name
        ),
        _ => panic!("grid values of `{}` do not match its kind {:?}", axis.name, axis.kind),
    }
}

/// Runs of equal consecutive sub-tables; each but the last is bounded by its top value.
fn split_numeric(axis: usize, subs: Vec<Vec<Draft>>) -> Vec<Draft> {
    let last = subs.len() - 1;
    let mut out = Vec::new();
    for (i, sub) in subs.iter().enumerate() {
        if i < last && subs[i + 1] == *sub {
            continue;
        }
        out.extend(sub.iter().cloned().map(|mut d| {
            d.when[axis] = (i < last).then_some(i);
            d
        }));
    }
    out
}

/// Each label whose sub-table differs from the last label's gets its own regions; the
/// others fall through to the last label's, which come last without a condition.
fn split_categorical(axis: usize, mut subs: Vec<Vec<Draft>>) -> Vec<Draft> {
    let fallback = subs.pop().unwrap_or_default();
    let mut out = Vec::new();
    for (i, sub) in subs.into_iter().enumerate() {
        if sub != fallback {
            out.extend(sub.into_iter().map(|mut d| {
                d.when[axis] = Some(i);
                d
            }));
        }
    }
    out.extend(fallback);
    out
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
