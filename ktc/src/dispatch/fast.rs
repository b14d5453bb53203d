//! The dispatcher's fast path for the common shape: up to [`FAST_AXES`] numeric axes,
//! each with at most [`FAST_BOUNDS`] bounds, queried with integers (sizes, counts).
//!
//! Per axis, a short scan over the bounds' integer floors (`v ≤ b` ⟺ `v ≤ ⌊b⌋` for
//! an integer `v`) finds the bucket; the buckets index a flat array holding the packed
//! (variant, block size) directly. The scan's branches are learnt by the predictor,
//! since one call site sees similar sizes call after call. Anything else — a float or
//! a label in the query, a larger table — takes [`CompiledTable`](crate::CompiledTable).

use crate::AxisValue;
use crate::decision::{AxisKind, DecisionTable, int_floor};

/// Most axes the fast path handles.
pub(crate) const FAST_AXES: usize = 4;
/// Most distinct bounds per axis the fast path handles.
pub(crate) const FAST_BOUNDS: usize = 8;

#[derive(Clone, Copy, Debug)]
struct FastAxis {
    /// Distinct integer floors of the axis' bounds, ascending, padded with `u64::MAX`,
    /// which no query exceeds: the scan needs no length check.
    floors: [u64; FAST_BOUNDS + 1],
    stride: usize,
}

/// A decision table compiled for integer queries, cells holding (variant, block).
#[derive(Clone, Debug)]
pub(crate) struct FastTable {
    axes: [FastAxis; FAST_AXES],
    cells: Box<[(usize, usize)]>,
}

impl FastTable {
    /// Compiles `table` with `choice(region)` giving each region's (variant, block),
    /// or `None` when the table is not of the fast shape.
    pub(crate) fn build(
        table: &DecisionTable,
        choice: impl Fn(usize) -> (usize, usize),
    ) -> Option<FastTable> {
        if table.axes.len() > FAST_AXES || table.axes.iter().any(|a| a.kind != AxisKind::Numeric) {
            return None;
        }
        let mut floors_per_axis = Vec::with_capacity(table.axes.len());
        for axis in &table.axes {
            let mut floors: Vec<u64> = table
                .regions
                .iter()
                .filter_map(|r| match r.when.get(&axis.name) {
                    Some(crate::Condition::Le(b)) => Some(int_floor(*b)),
                    _ => None,
                })
                .collect::<Option<_>>()?; // a negative or NaN bound: not the fast shape
            floors.sort_unstable();
            floors.dedup();
            if floors.len() > FAST_BOUNDS {
                return None;
            }
            floors_per_axis.push(floors);
        }
        let mut axes = [FastAxis { floors: [u64::MAX; FAST_BOUNDS + 1], stride: 0 }; FAST_AXES];
        let mut len = 1usize;
        for (axis, floors) in axes.iter_mut().zip(&floors_per_axis).rev() {
            axis.floors[..floors.len()].copy_from_slice(floors);
            axis.stride = len;
            len *= floors.len() + 1;
        }
        let mut cells = Vec::with_capacity(len);
        for cell in 0..len {
            let query: Vec<(&str, AxisValue<'_>)> = table
                .axes
                .iter()
                .zip(&axes)
                .zip(&floors_per_axis)
                .map(|((a, fa), floors)| {
                    (
                        a.name.as_str(),
                        AxisValue::Int(representative(floors, cell / fa.stride % (floors.len() + 1))),
                    )
                })
                .collect();
            let region = table.lookup(&query).map(|(i, _)| i)?;
            cells.push(choice(region));
        }
        Some(FastTable { axes, cells: cells.into_boxed_slice() })
    }

    /// The (variant, block) for `query`, or `None` when a value is not an integer.
    #[inline(always)]
    pub(crate) fn find<const N: usize>(&self, query: &[AxisValue<'_>; N]) -> Option<(usize, usize)> {
        let mut cell = 0;
        for (value, axis) in query.iter().zip(&self.axes) {
            let AxisValue::Int(v) = *value else { return None };
            let mut k = 0;
            while v > axis.floors[k] {
                k += 1;
            }
            cell += k * axis.stride;
        }
        self.cells.get(cell).copied()
    }
}

/// An integer in bucket `bucket` of an axis with these floors: the bucket's own floor,
/// or one above the last.
fn representative(floors: &[u64], bucket: usize) -> u64 {
    match floors.get(bucket) {
        Some(&f) => f,
        None => floors.last().map_or(0, |f| f.saturating_add(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Axis, Region};
    use proptest::prelude::*;

    fn table(regions: Vec<Region>) -> DecisionTable {
        DecisionTable { axes: vec![Axis::numeric("n"), Axis::numeric("k")], regions }
    }

    proptest! {
        /// Equals the first-match lookup for every integer query, whatever the bounds
        /// (fractional ones included) and however the regions overlap.
        #[test]
        fn answers_as_the_first_match_lookup(
            bounds in prop::collection::vec((prop::option::of(0u32..40), prop::option::of(0u32..40)), 0..10),
            queries in prop::collection::vec((0u64..50, 0u64..50), 1..50),
        ) {
            let mut regions: Vec<Region> = bounds.iter().enumerate().map(|(i, (n, k))| {
                let mut r = Region::new(format!("v{i}"));
                if let Some(n) = n { r = r.at_most("n", f64::from(*n) * 1.25); }
                if let Some(k) = k { r = r.at_most("k", f64::from(*k)); }
                r
            }).collect();
            regions.push(Region::new("last"));
            let t = table(regions);
            let Some(fast) = FastTable::build(&t, |r| (r, 0)) else {
                // Only tables with more than FAST_BOUNDS distinct bounds on an axis.
                return Ok(());
            };
            for (n, k) in queries {
                let expected = t.lookup(&[("n", AxisValue::Int(n)), ("k", AxisValue::Int(k))]).map(|(i, _)| (i, 0));
                prop_assert_eq!(fast.find(&[AxisValue::Int(n), AxisValue::Int(k)]), expected, "n={} k={}", n, k);
            }
        }
    }

    #[test]
    fn floats_labels_and_other_shapes_are_not_fast() {
        let t = table(vec![Region::new("a").at_most("n", 10.0), Region::new("b")]);
        let fast = FastTable::build(&t, |r| (r, 0)).unwrap();
        assert_eq!(fast.find(&[AxisValue::Num(5.0), AxisValue::Int(1)]), None);
        assert_eq!(fast.find(&[AxisValue::Int(10), AxisValue::Int(1)]), Some((0, 0)));
        assert_eq!(fast.find(&[AxisValue::Int(11), AxisValue::Int(1)]), Some((1, 0)));
        let categorical =
            DecisionTable { axes: vec![Axis::categorical("loc")], regions: vec![Region::new("a")] };
        assert!(FastTable::build(&categorical, |r| (r, 0)).is_none());
    }
}
