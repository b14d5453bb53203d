//! Measuring one grid point: verify every candidate against the reference, then time
//! them interleaved, round-robin, so background load falls on all of them alike.

use super::harness::Harness;
use super::plan::{Candidate, Plan};
use super::timing::{Timed, median_and_mad};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Limits on the timed rounds at one point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rounds {
    /// Rounds always run (unless the point's time is spent after `floor` rounds).
    pub min: u32,
    /// Rounds never exceeded.
    pub max: u32,
    /// Rounds always run, however slow.
    pub floor: u32,
    /// Stop once every candidate's spread / median is below this.
    pub target_spread: f64,
}

/// What one point produced.
pub(crate) struct PointResult {
    /// Timed candidates that passed verification.
    pub timed: Vec<Timed>,
    pub runs: u32,
    /// Candidates whose output differed from the reference's, with the difference.
    pub failed: Vec<(usize, String)>,
}

/// Verifies and times every live candidate at one point within `time_cap`.
pub(crate) fn measure_point<H: Harness>(
    harness: &H,
    plan: &Plan,
    live: &[bool],
    inputs: &H::Inputs,
    rounds: Rounds,
    time_cap: Duration,
) -> PointResult {
    let reference = plan.candidates[plan.reference];
    let reference_output = run_once(harness, reference, inputs);
    let mut failed = Vec::new();
    let mut timing: Vec<usize> = Vec::new();
    for (i, candidate) in plan.candidates.iter().enumerate() {
        if !live[i] {
            continue;
        }
        // The verification run doubles as the candidate's warm-up.
        let output = run_once(harness, *candidate, inputs);
        match harness.verify(&reference_output, &output) {
            Ok(()) => timing.push(i),
            Err(reason) => failed.push((i, reason)),
        }
    }
    let (samples, runs) = time_round_robin(harness, plan, &timing, inputs, rounds, time_cap);
    let timed = timing
        .iter()
        .zip(&samples)
        .map(|(&candidate, s)| {
            let (median_ns, mad_ns) = median_and_mad(s);
            Timed { candidate, median_ns, mad_ns }
        })
        .collect();
    PointResult { timed, runs, failed }
}

fn run_once<H: Harness>(harness: &H, c: Candidate, inputs: &H::Inputs) -> H::Output {
    let mut args = inputs.clone();
    let ret = harness.run(c.variant, c.block_size, &mut args);
    harness.output(args, ret)
}

/// Interleaved timing: each round runs every candidate once, starting at a rotating
/// offset, on a fresh clone of the inputs made outside the timed region.
fn time_round_robin<H: Harness>(
    harness: &H,
    plan: &Plan,
    timing: &[usize],
    inputs: &H::Inputs,
    rounds: Rounds,
    time_cap: Duration,
) -> (Vec<Vec<f64>>, u32) {
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); timing.len()];
    let start = Instant::now();
    let mut round = 0u32;
    while !timing.is_empty() && keep_going(round, rounds, start.elapsed() >= time_cap, &samples) {
        for k in 0..timing.len() {
            let slot = (k + round as usize) % timing.len();
            let c = plan.candidates[timing[slot]];
            let mut args = inputs.clone();
            let t0 = Instant::now();
            let ret = harness.run(c.variant, c.block_size, black_box(&mut args));
            let elapsed = t0.elapsed();
            black_box(&ret);
            drop(ret);
            drop(args);
            samples[slot].push(elapsed.as_nanos() as f64);
        }
        round += 1;
    }
    (samples, round)
}

fn keep_going(round: u32, rounds: Rounds, out_of_time: bool, samples: &[Vec<f64>]) -> bool {
    if round < rounds.floor {
        return true;
    }
    if round >= rounds.max || out_of_time {
        return false;
    }
    if round < rounds.min {
        return true;
    }
    !samples.iter().all(|s| {
        let (median, mad) = median_and_mad(s);
        median > 0.0 && mad / median <= rounds.target_spread
    })
}
