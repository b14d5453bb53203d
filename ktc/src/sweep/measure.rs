//! Measuring one grid point: verify every candidate against the reference, then time
//! them interleaved, in shuffled rounds, so background load falls on all of them alike.

use super::CallPattern;
use super::harness::Harness;
use super::plan::{Candidate, Plan};
use super::rng::Rng;
use super::stack;
use super::timing::{LogRatio, LookCosts, Timed, Verdict, cost, cost_and_spread, verdict};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Limits on the timed rounds at one point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rounds {
    /// Rounds before candidates may be dropped or the point stop early.
    pub min: u32,
    /// Rounds never exceeded.
    pub max: u32,
    /// Rounds always run, however slow.
    pub floor: u32,
}

/// How one point's candidates are timed: the rounds and how the calls follow each other.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timing {
    pub rounds: Rounds,
    pub calls: CallPattern,
}

/// What one point produced.
pub(crate) struct PointResult {
    /// Timed candidates that passed verification, each with every run.
    pub timed: Vec<Timed>,
    /// Candidates whose output differed from the reference's, with the difference.
    pub failed: Vec<(usize, String)>,
    /// Wall time the point took, verification included: what a refinement point costs.
    pub elapsed: Duration,
    /// Each look's costs by candidate, where the point was looked at more than once
    /// (empty after one look): `timed` merges the looks' runs.
    pub looks: Vec<LookCosts>,
}

impl PointResult {
    /// One look's results, not yet looked at again.
    pub(crate) fn first_look(
        timed: Vec<Timed>,
        failed: Vec<(usize, String)>,
        elapsed: Duration,
    ) -> PointResult {
        PointResult { timed, failed, elapsed, looks: Vec::new() }
    }
}

/// Verifies and times every live candidate at one point within `time_cap`. Candidate
/// `kept` (an index into the plan's candidates), if any, stays in the race to its end
/// however slow it is: see [`race`].
pub(crate) fn measure_point<H: Harness>(
    harness: &H,
    plan: &Plan,
    live: &[bool],
    inputs: &H::Inputs,
    timing: Timing,
    time_cap: Duration,
    kept: Option<usize>,
) -> PointResult {
    let started = Instant::now();
    let reference = plan.candidates[plan.reference];
    let reference_output = run_once(harness, reference, inputs);
    let mut failed = Vec::new();
    // Each verified candidate, and how it is sampled.
    let mut entrants: Vec<(usize, Sampling)> = Vec::new();
    for (i, candidate) in plan.candidates.iter().enumerate() {
        if !live[i] {
            continue;
        }
        // The verification run doubles as the candidate's warm-up, and its time sets
        // how the candidate is sampled.
        let t0 = Instant::now();
        let output = run_once(harness, *candidate, inputs);
        let took = t0.elapsed();
        match harness.verify(&reference_output, &output) {
            Ok(()) => {
                entrants.push((i, Sampling::for_call(took, timing.calls)));
            }
            Err(reason) => failed.push((i, reason)),
        }
    }
    let kept = kept.and_then(|k| entrants.iter().position(|&(c, _)| c == k));
    let samples = race(harness, plan, &entrants, inputs, timing.rounds, time_cap, kept);
    let timed = entrants.iter().zip(samples).map(|(&(candidate, _), s)| Timed::new(candidate, s)).collect();
    PointResult::first_look(timed, failed, started.elapsed())
}

/// A timed sample of a short call covers at least this long: a few microseconds of
/// work is as long as the host's jitter, and as long as waking a thread pool, so one
/// call alone decides nothing.
const MIN_SAMPLE: Duration = Duration::from_micros(50);

/// The most back-to-back calls one sample takes.
const MAX_BATCH: usize = 64;

/// Calls shorter than this are preceded by an untimed call of the same candidate: up to
/// here, waking a sleeping thread pool (20–150 µs on a 2-vCPU VM) is a visible share
/// of a call. Not beyond: a warm-up doubles a sample's cost, and at 5 ms it took so
/// much of `joint_hist_batched`'s 12 s budget that refinement stopped early (16–25
/// regions instead of 80–100, regret geomean 1.2).
const WARM_UP_BELOW: Duration = Duration::from_millis(1);

/// How one candidate's samples are taken at a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sampling {
    /// Back-to-back calls per timed sample, whose mean is the sample.
    batch: usize,
    /// Whether an untimed call of the same candidate runs right before the batch.
    warm_up: bool,
    /// How long the thread sleeps right before the batch (a batch of one call then):
    /// [`CallPattern::AfterPause`].
    pause: Option<Duration>,
}

impl Sampling {
    /// For a candidate whose call took `took`: enough calls to cover [`MIN_SAMPLE`],
    /// from 1 to [`MAX_BATCH`], and a warm-up below [`WARM_UP_BELOW`].
    ///
    /// Every sample is thereby a call in a loop of its own calls, as timeit and
    /// criterion measure it, whatever ran before it. Without the warm-up, a sample of a
    /// parallel variant found the pool awake after another parallel candidate and
    /// asleep after a serial one: `discretize`'s `par_split/4` at 5 623 values averaged
    /// 37 µs in one process and 83 µs in the next (40 and 42 µs warmed up), and five
    /// benchmark runs without it gave regret geomeans of 1.05–1.09 (1.01–1.03 with).
    ///
    /// After a pause ([`CallPattern::AfterPause`]) a sample is one call, unwarmed,
    /// right after the thread slept: what a kernel called now and then pays per call,
    /// waking its pool's workers included.
    fn for_call(took: Duration, calls: CallPattern) -> Sampling {
        if let CallPattern::AfterPause(pause) = calls {
            return Sampling { batch: 1, warm_up: false, pause: Some(pause) };
        }
        let calls = MIN_SAMPLE.as_nanos().div_ceil(took.as_nanos().max(1));
        Sampling { batch: (calls as usize).clamp(1, MAX_BATCH), warm_up: took < WARM_UP_BELOW, pause: None }
    }
}

fn run_once<H: Harness>(harness: &H, c: Candidate, inputs: &H::Inputs) -> H::Output {
    let mut args = inputs.clone();
    let ret = harness.run(c.variant, c.block_size, &mut args);
    harness.output(args, ret)
}

/// Interleaved timing: each round runs every candidate still in the race once, in a
/// fresh shuffled order, on fresh clones of the inputs made outside the timed region.
/// Shuffled because a rotating start kept every candidate's predecessor the same in
/// every round, which biased the race: a parallel variant timed right after another
/// one finds the thread pool's workers still awake, while after a serial one it pays
/// for waking them (20–60 µs on a 2-vCPU VM, as long as a small call's work);
/// shuffled, every candidate follows every other alike, and `verify`, racing the same
/// candidates, sees the same mix. Each sample follows a warm-up call of its own
/// candidate and, for a short call, is the mean of a batch of back-to-back calls (see
/// [`Sampling`]): the time a call takes in a loop, as timeit and criterion measure it.
/// Warm-up and batch run at a random depth of the stack (see [`stack`]), so a
/// candidate's cost is its mean over stack addresses, not its cost at one. After
/// `rounds.min`, a candidate clearly slower than the fastest leaves the race
/// (successive halving), and the point ends once no comparison with the fastest is
/// still open. Slot `kept` is never dropped: where the result is one candidate's cost
/// over the fastest's (`verify`'s regret of the chosen one), both need every round.
fn race<H: Harness>(
    harness: &H,
    plan: &Plan,
    entrants: &[(usize, Sampling)],
    inputs: &H::Inputs,
    rounds: Rounds,
    time_cap: Duration,
    kept: Option<usize>,
) -> Vec<Vec<f64>> {
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); entrants.len()];
    let mut racing: Vec<usize> = (0..entrants.len()).collect();
    let start = Instant::now();
    let mut round = 0u32;
    let mut order = Rng(0x6B74_6372_6163_6521);
    // Each sample runs at a depth of the stack drawn anew (see `stack`).
    let mut depths = Rng(0x6B74_6373_7461_636B);
    while !racing.is_empty()
        && keep_going(round, rounds, start.elapsed() >= time_cap, &samples, &mut racing, kept)
    {
        for slot in order.shuffled(&racing) {
            let (candidate, Sampling { batch, warm_up, pause }) = entrants[slot];
            let c = plan.candidates[candidate];
            let mut args: Vec<H::Inputs> = (0..batch).map(|_| inputs.clone()).collect();
            let mut rets = Vec::with_capacity(args.len());
            // Inputs cloned first, so that nothing runs between the warm-up and the
            // batch: a pool left idle for more than a few tens of microseconds sleeps.
            let mut warm = warm_up.then(|| inputs.clone());
            if let Some(pause) = pause {
                std::thread::sleep(pause);
            }
            let elapsed = stack::at_depth(depths.next() % stack::DEPTHS, &mut || {
                if let Some(warm) = &mut warm {
                    black_box(harness.run(c.variant, c.block_size, black_box(warm)));
                }
                let t0 = Instant::now();
                for args in &mut args {
                    rets.push(harness.run(c.variant, c.block_size, black_box(args)));
                }
                t0.elapsed()
            });
            black_box(&rets);
            drop(rets);
            drop(args);
            samples[slot].push(elapsed.as_nanos() as f64 / batch as f64);
        }
        round += 1;
    }
    samples
}

/// Whether to run another round; drops the candidates that cannot win any more, but
/// never slot `kept`.
fn keep_going(
    round: u32,
    rounds: Rounds,
    out_of_time: bool,
    samples: &[Vec<f64>],
    racing: &mut Vec<usize>,
    kept: Option<usize>,
) -> bool {
    if round < rounds.floor {
        return true;
    }
    if round >= rounds.max || out_of_time {
        return false;
    }
    if round < rounds.min {
        return true;
    }
    // Each racing candidate's cost and spread, once per round: both sort its runs.
    let mut stats = vec![None; samples.len()];
    for &s in racing.iter() {
        stats[s] = cost_and_spread(&samples[s]);
    }
    let cost_of = |s: usize| stats[s].map_or_else(|| cost(&samples[s]), |(c, _)| c);
    let Some(best) = racing.iter().copied().min_by(|&a, &b| cost_of(a).total_cmp(&cost_of(b))) else {
        return false;
    };
    let mut open = false;
    racing.retain(|&s| {
        if s == best {
            return true;
        }
        match verdict(LogRatio::between(stats[s], stats[best])) {
            Verdict::Slower => Some(s) == kept,
            Verdict::Tie => true,
            Verdict::Open => {
                open = true;
                true
            }
        }
    });
    open
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_calls_are_batched_to_cover_the_minimum_sample_and_warmed_up() {
        let loop_of = |took: Duration| Sampling::for_call(took, CallPattern::InALoop);
        let batch = |us: u64| loop_of(Duration::from_micros(us)).batch;
        assert_eq!(batch(1), 50);
        assert_eq!(batch(7), 8);
        assert_eq!(batch(50), 1);
        assert_eq!(batch(3_000), 1);
        assert_eq!(loop_of(Duration::ZERO), Sampling { batch: MAX_BATCH, warm_up: true, pause: None });
        assert!(loop_of(Duration::from_micros(300)).warm_up);
        assert!(!loop_of(Duration::from_millis(2)).warm_up);
    }

    #[test]
    fn after_a_pause_every_sample_is_one_unwarmed_call_after_the_sleep() {
        let pause = Duration::from_millis(5);
        for took in [Duration::ZERO, Duration::from_micros(7), Duration::from_millis(3)] {
            let sampling = Sampling::for_call(took, CallPattern::AfterPause(pause));
            assert_eq!(sampling, Sampling { batch: 1, warm_up: false, pause: Some(pause) });
        }
    }

    #[test]
    fn a_clearly_slower_candidate_leaves_the_race_unless_it_is_kept() {
        let rounds = Rounds { min: 7, max: 41, floor: 5 };
        // Slot 0 runs 100 ns, slot 1 twice that, slot 2 three times: both clearly slower.
        let samples: Vec<Vec<f64>> =
            (1..=3).map(|k| (0..9).map(|r| 100.0 * k as f64 + r as f64).collect()).collect();
        let mut racing = vec![0, 1, 2];
        assert!(!keep_going(9, rounds, false, &samples, &mut racing, None));
        assert_eq!(racing, [0]);
        let mut racing = vec![0, 1, 2];
        assert!(!keep_going(9, rounds, false, &samples, &mut racing, Some(2)));
        assert_eq!(racing, [0, 2], "the kept slot stays, however slow; the others still leave");
    }
}
