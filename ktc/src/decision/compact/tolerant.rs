//! Compaction with a tolerance: each grid point names every decision it accepts (the
//! measured winner first, then those within the sweep's regret tolerance), and the
//! table may answer any of them there.

use super::{GridValues, Winner, compact_regions};
use crate::decision::{Axis, Region};
use std::collections::HashMap;

/// The shortest table found whose answer at every grid point is one that point
/// accepts: the exact compaction of the preferred winners, or of a relabelling that
/// gives each point the decision acceptable at the most points overall (so runs of
/// near-equal decisions merge). Ties keep the preferred winners.
///
/// # Panics
///
/// As [`compact_regions`]; also when a point accepts nothing.
pub(crate) fn compact_regions_within(
    axes: &[Axis],
    values: &[GridValues],
    acceptable: &[Vec<Winner>],
) -> Vec<Region> {
    assert!(acceptable.iter().all(|a| !a.is_empty()), "every grid point accepts a decision");
    let preferred: Vec<Winner> = acceptable.iter().map(|a| a[0].clone()).collect();
    let mut best = compact_regions(axes, values, &preferred);
    let relabelled = relabel_by_coverage(acceptable);
    if relabelled != preferred {
        let other = compact_regions(axes, values, &relabelled);
        if other.len() < best.len() {
            best = other;
        }
    }
    best
}

/// Each point's decision becomes the one, among those it accepts, that the most points
/// accept (earlier-seen decisions first on equal counts, the point's own preferred one
/// before any other).
fn relabel_by_coverage(acceptable: &[Vec<Winner>]) -> Vec<Winner> {
    let mut coverage: HashMap<&Winner, (usize, usize)> = HashMap::new();
    for list in acceptable {
        for w in list {
            let seen = coverage.len();
            coverage.entry(w).or_insert((0, seen)).0 += 1;
        }
    }
    acceptable
        .iter()
        .map(|list| {
            let key = |w: &&Winner| {
                let (count, seen) = coverage[*w];
                (std::cmp::Reverse(count), *w != &list[0], seen)
            };
            (*list.iter().min_by_key(key).unwrap_or(&list[0])).clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_equal_decisions_merge_only_where_accepted() {
        let axes = [Axis::numeric("n")];
        let values = [GridValues::Numeric(vec![1.0, 2.0, 3.0, 4.0])];
        let (a, b) = (Winner::new("a"), Winner::new("b"));
        // b wins narrowly at 2 (a within tolerance), clearly at 4: a, a, b up to 3.
        let acceptable = vec![vec![a.clone()], vec![b.clone(), a.clone()], vec![a.clone()], vec![b.clone()]];
        let regions = compact_regions_within(&axes, &values, &acceptable);
        assert_eq!(regions, vec![Region::new("a").at_most("n", 3.0), Region::new("b")]);
        // Without the tolerance at 2 the table must keep b there.
        let strict = vec![vec![a.clone()], vec![b.clone()], vec![a.clone()], vec![b.clone()]];
        assert_eq!(compact_regions_within(&axes, &values, &strict).len(), 4);
    }
}
