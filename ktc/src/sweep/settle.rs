//! Settling close calls: after refinement, the measured points whose decision hangs on
//! a margin the host's moods can reverse get further looks, at later times, merged
//! with the earlier ones.

use super::harness::Harness;
use super::lattice::Lattice;
use super::rng::Rng;
use super::sweeper::Sweeper;
use super::timing::{LogRatio, Timed, Verdict, fastest, verdict};
use std::time::{Duration, Instant};

/// A runner-up within this factor of the fastest, and not tied with it, makes a point's
/// decision a close call: the margin by which `par_pairs` and `pairs` swap places at
/// 1 000 samples as the pool's state changes (0.73× in one stretch of a process, 1.35×
/// in the next).
const CLOSE: f64 = 1.25;

/// The most further looks one point gets, one per pass over the close calls.
const PASSES: usize = 2;

/// Gives every point of `lattice` this sweep measured whose decision is a close call (see
/// [`close_call`]) further looks within `budget`, one per pass, up to [`PASSES`].
///
/// A point's rounds last milliseconds, and a state of the host lasts up to a second: a
/// parallel variant of a 5 µs call ran 1.35× slower than its serial twin in stretches
/// of one process and 0.73× of it otherwise, so one look at such a point measures the
/// stretch it fell in. Looks at other times, merged, weigh the stretches as a user's
/// calls meet them. Points are visited in a fixed shuffled order, so that one stretch
/// does not fall on neighbours, and a look that does not fit what is left of the budget
/// is skipped.
pub(super) fn settle<H: Harness>(sweeper: &mut Sweeper<'_, H>, lattice: &Lattice, budget: Duration) {
    let started = Instant::now();
    // Points this sweep measured: a stored entry's (`retune --refine` seeds with them)
    // cost nothing known here, so no look at them could be kept within the budget.
    let mut measured: Vec<usize> = lattice
        .cells
        .iter()
        .filter_map(|c| c.result)
        .filter(|&i| !sweeper.results[i].1.elapsed.is_zero())
        .collect();
    measured.sort_unstable();
    measured.dedup();
    let mut order = Rng(0x6B74_7365_7474_6C65);
    for _ in 0..PASSES {
        let close: Vec<usize> = measured.iter().copied().filter(|&i| close_call(sweeper, i)).collect();
        if close.is_empty() {
            break;
        }
        for i in order.shuffled(&close) {
            // What the point has cost so far: an upper bound on one more look.
            let cost = sweeper.results[i].1.elapsed;
            let left = budget.saturating_sub(started.elapsed());
            if cost > left {
                continue;
            }
            // A point whose inputs cannot be built now keeps its first look.
            let _ = sweeper.remeasure(i, cost);
        }
    }
}

/// Whether the decision at measured point `index` is a close call: a live runner-up
/// within [`CLOSE`] of the fastest that does not tie with it.
fn close_call<H: Harness>(sweeper: &Sweeper<'_, H>, index: usize) -> bool {
    let timed = sweeper.eligible(index);
    let Some(best) = fastest(&timed) else { return false };
    timed.iter().any(|t| t.candidate != best.candidate && is_close(t, best))
}

/// Whether `t` is within [`CLOSE`] of `best` without tying with it.
fn is_close(t: &Timed, best: &Timed) -> bool {
    t.cost_ns <= best.cost_ns * CLOSE && verdict(LogRatio::of(&t.samples, &best.samples)) != Verdict::Tie
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(candidate: usize, ns: f64, jitter: f64) -> Timed {
        Timed::new(candidate, (0..12).map(|k| ns * (1.0 + jitter * ((k % 3) as f64 - 1.0))).collect())
    }

    #[test]
    fn a_runner_up_is_close_within_the_factor_unless_it_ties() {
        let best = timed(0, 100.0, 0.001);
        assert!(is_close(&timed(1, 110.0, 0.001), &best), "10% slower, measured clearly");
        assert!(is_close(&timed(1, 101.0, 0.3), &best), "level but too noisy to call a tie");
        assert!(!is_close(&timed(1, 101.0, 0.001), &best), "a tie: either will do");
        assert!(!is_close(&timed(1, 140.0, 0.001), &best), "far behind: no close call");
    }
}
