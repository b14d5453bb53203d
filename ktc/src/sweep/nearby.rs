//! Who wins a tie at a measured point: the candidate that does best as a fixed choice
//! over the points measured nearest to it, not over the whole grid.
//!
//! A tie is a lead the host's state can reverse (see `super::state`), so one point's
//! runs cannot break it; the grid-wide best fixed choice can (see
//! `Sweeper::rank_by_grid`), but where a kernel has a size range of its own it breaks
//! every tie there against the range. `joint_hist_batched`'s serial `pairs` leads
//! `par_pairs` by 5–13% at most points measured between 1 000 and 2 000 samples × 3–6
//! features: within the 10% margin at each, so each went to `par_pairs`, the best fixed
//! choice over the grid, and `verify` then found `pairs` 1.15–1.25× faster at 1 542 ×
//! 4 and 1 577 × 5. The points nearby were measured at other times, so their leads
//! together are evidence one point's are not. `cargo bench --bench tuning_quality`,
//! two release binaries alternating (`TQ_KERNELS=joint_hist_batched TQ_SEED=1`, 5 runs
//! a side): worst regret over 1.15 in 4 of 5 runs with the grid's ranking (1.141–1.254),
//! in none with this one (1.024–1.115). Over seeds 2–9 (both kernels, one run a side
//! each) both kept the worst regret under 1.15 everywhere; against always `par_pairs`
//! a point fell below 0.97 in 1 of 8 runs with the grid's ranking and in 3 of 8 with
//! this one: two of them at 2 features, where `pairs` and `par_pairs` run the same code
//! (0.958) and where neighbours at 1 feature ranked `par_split/4` first (0.891).
//!
//! Measured and not kept: also dropping from a point's acceptable decisions the
//! runners-up that do more than 5% worse than its winner over the same points (so a
//! table could not answer them there): worst regret over 1.15 in 6 of 6 runs of the
//! same `TQ_SEED=1` benchmark (1.170–1.272), sweeps ending at 12.4–14.0 s.

use super::timing::ranked_by;
use crate::registry::GridValue;

/// How many measured points, the point itself included, rank the candidates for a tie
/// there: the point and about one neighbour each way along three axes.
pub(super) const NEIGHBOURHOOD: usize = 7;

/// The indices of the (at most) `k` points nearest to `points[at]` among those with the
/// same labels on every categorical axis, `at` first. The distance is Euclidean in
/// log sizes, each numeric axis scaled to the span the points take on it, so that no
/// axis counts more for its units; equal distances keep the points' order.
pub(super) fn nearest(points: &[&[GridValue]], numeric: &[bool], at: usize, k: usize) -> Vec<usize> {
    let logs = |p: &[GridValue]| -> Vec<f64> {
        p.iter()
            .zip(numeric)
            .map(|(v, &n)| match (v, n) {
                (GridValue::Int(x), true) => (*x as f64 + 1.0).ln(),
                _ => 0.0,
            })
            .collect()
    };
    let all: Vec<Vec<f64>> = points.iter().map(|p| logs(p)).collect();
    let spans: Vec<f64> = (0..numeric.len())
        .map(|a| {
            let (lo, hi) = all
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p[a]), hi.max(p[a])));
            if hi > lo { hi - lo } else { 1.0 }
        })
        .collect();
    let same_labels = |p: &[GridValue]| p.iter().zip(points[at]).zip(numeric).all(|((a, b), &n)| n || a == b);
    let mut near: Vec<(f64, usize)> = (0..points.len())
        .filter(|&i| same_labels(points[i]))
        .map(|i| {
            let d: f64 = (0..numeric.len()).map(|a| ((all[i][a] - all[at][a]) / spans[a]).powi(2)).sum();
            (if i == at { -1.0 } else { d }, i)
        })
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near.into_iter().take(k).map(|(_, i)| i).collect()
}

/// `preference` reordered by how each candidate does as a fixed choice over `points`
/// (each point's regrets, see `timing::regrets`), best first by [`log_regret_over`];
/// equal sums keep their order in `preference`.
pub(super) fn ranked_nearby(points: &[Vec<(usize, f64)>], preference: &[usize]) -> Vec<usize> {
    ranked_by(preference, |c| log_regret_over(points, c))
}

/// `candidate`'s mean log regret over `points`, where a point that did not time it
/// (successive halving dropped it as clearly slower) counts the largest regret it timed.
fn log_regret_over(points: &[Vec<(usize, f64)>], candidate: usize) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|p| {
            let worst = p.iter().map(|(_, r)| *r).fold(1.0, f64::max);
            p.iter().find(|(t, _)| *t == candidate).map_or(worst, |(_, r)| *r).ln()
        })
        .sum();
    sum / points.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_points_share_the_labels_and_scale_each_axis_to_its_span() {
        let p = |n: u64, f: u64, loc: &'static str| {
            vec![GridValue::Int(n), GridValue::Int(f), GridValue::Label(loc)]
        };
        let points = [
            p(1_000, 4, "host"),
            p(1_000_000, 4, "host"),
            p(1_000, 30, "host"),
            p(1_300, 5, "host"),
            p(31_623, 4, "host"),
            p(1_000, 4, "device"),
        ];
        let refs: Vec<&[GridValue]> = points.iter().map(Vec::as_slice).collect();
        let numeric = [true, true, false];
        // 1 000 → 1 300 samples and 4 → 5 features is nearer than half the samples'
        // span, which is nearer than the whole span of either axis (equal: index order).
        assert_eq!(nearest(&refs, &numeric, 0, 3), vec![0, 3, 4]);
        assert_eq!(nearest(&refs, &numeric, 0, 9), vec![0, 3, 4, 1, 2]);
        assert_eq!(nearest(&refs, &numeric, 5, 3), vec![5]);
    }

    #[test]
    fn a_lead_held_over_the_neighbourhood_ranks_first_and_dropped_counts_as_worst() {
        // Candidate 1 is the grid's preferred one; 0 leads it at two points of three.
        let points = vec![vec![(0, 1.0), (1, 1.08)], vec![(0, 1.0), (1, 1.09)], vec![(1, 1.0), (0, 1.05)]];
        assert_eq!(ranked_nearby(&points, &[1, 0]), vec![0, 1]);
        // Dropped (untimed) at the first point: as slow as the slowest timed there, so
        // 1 ties 2 there and leads it at the second (as infinitely slow it would be last).
        let dropped = vec![vec![(0, 1.0), (2, 1.5)], vec![(1, 1.0), (0, 1.02), (2, 1.01)]];
        assert_eq!(ranked_nearby(&dropped, &[1, 2, 0]), vec![0, 1, 2]);
    }
}
