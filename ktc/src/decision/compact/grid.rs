//! The checked grid the compaction works on, and the first split of it into drafts.

use super::GridValues;
use crate::decision::{Axis, AxisKind, Region, Winner};
use std::collections::HashMap;

/// A region under construction: per declared axis, the index of the grid value it is
/// bounded by (never the last), and the interned winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Draft {
    pub(super) when: Vec<Option<usize>>,
    pub(super) winner: usize,
}

/// The checked grid with winners interned, in row-major order.
pub(super) struct Grid<'a> {
    pub(super) axes: &'a [Axis],
    pub(super) values: &'a [GridValues],
    pub(super) sizes: Vec<usize>,
    /// Row-major strides of the flat winner index.
    pub(super) strides: Vec<usize>,
    pub(super) kinds: Vec<AxisKind>,
    pub(super) distinct: Vec<&'a Winner>,
    pub(super) winner_ids: Vec<usize>,
}

impl<'a> Grid<'a> {
    pub(super) fn new(axes: &'a [Axis], values: &'a [GridValues], winners: &'a [Winner]) -> Self {
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

    pub(super) fn point_count(&self) -> usize {
        self.winner_ids.len()
    }

    pub(super) fn point(&self, flat: usize) -> Vec<usize> {
        self.strides.iter().zip(&self.sizes).map(|(&s, &m)| flat / s % m).collect()
    }

    pub(super) fn flat(&self, point: &[usize]) -> usize {
        point.iter().zip(&self.strides).map(|(i, s)| i * s).sum()
    }

    /// Whether a draft contains the grid point `flat`.
    pub(super) fn contains(&self, draft: &Draft, flat: usize) -> bool {
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
    pub(super) fn split(&self, order: &[usize], fixed: &mut Vec<usize>) -> Vec<Draft> {
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

    pub(super) fn to_regions(&self, drafts: &[Draft]) -> Vec<Region> {
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
