//! Compaction with a tolerance: each grid point names every decision it accepts (the
//! measured winner first, then those within the sweep's regret tolerance), and the
//! table may answer any of them there.

use super::{GridValues, Winner, compact_regions};
use crate::decision::{Axis, Region};
use std::collections::HashMap;

/// The shortest table found whose answer at every grid point is one that point
/// accepts: the exact compaction of the preferred winners, or of a relabelling that
/// gives each point the decision acceptable at the most points overall, or of that
/// relabelling smoothed towards each point's neighbours (so runs of near-equal
/// decisions merge). Ties keep the preferred winners.
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
    let covered = relabel_by_coverage(acceptable);
    let sizes: Vec<usize> = values.iter().map(GridValues::len).collect();
    let smoothed = smooth(acceptable, &sizes, covered.clone());
    for labels in [covered, smoothed] {
        if labels != preferred {
            let other = compact_regions(axes, values, &labels);
            if other.len() < best.len() {
                best = other;
            }
        }
    }
    best
}

/// Moves each point, a few times over, to the accepted decision most of its grid
/// neighbours (one step along any axis) hold, so that scattered near-ties join the
/// runs around them.
fn smooth(acceptable: &[Vec<Winner>], sizes: &[usize], mut labels: Vec<Winner>) -> Vec<Winner> {
    let mut strides = vec![1; sizes.len()];
    for a in (0..sizes.len().saturating_sub(1)).rev() {
        strides[a] = strides[a + 1] * sizes[a + 1];
    }
    for _ in 0..4 {
        let mut changed = false;
        for p in 0..labels.len() {
            let neighbours: Vec<usize> = (0..sizes.len())
                .flat_map(|a| {
                    let i = p / strides[a] % sizes[a];
                    let down = (i > 0).then(|| p - strides[a]);
                    let up = (i + 1 < sizes[a]).then(|| p + strides[a]);
                    [down, up].into_iter().flatten()
                })
                .collect();
            let votes = |w: &Winner| neighbours.iter().filter(|&&q| labels[q] == *w).count();
            let current = votes(&labels[p]);
            if let Some(better) = acceptable[p].iter().filter(|w| votes(w) > current).max_by_key(|w| votes(w))
            {
                labels[p] = better.clone();
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    labels
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

    #[test]
    fn smoothing_follows_the_neighbours_within_what_each_point_accepts() {
        let (a, b) = (Winner::new("a"), Winner::new("b"));
        // 1 × 5 grid: b everywhere is acceptable except at the ends, which insist.
        let acceptable = vec![
            vec![a.clone()],
            vec![a.clone(), b.clone()],
            vec![b.clone(), a.clone()],
            vec![b.clone(), a.clone()],
            vec![b.clone()],
        ];
        let start: Vec<Winner> = acceptable.iter().map(|l| l[0].clone()).collect();
        let labels = smooth(&acceptable, &[5], start);
        assert!(labels.iter().zip(&acceptable).all(|(l, acc)| acc.contains(l)));
        assert_eq!(labels[0], a);
        assert_eq!(labels[4], b);
    }
}
