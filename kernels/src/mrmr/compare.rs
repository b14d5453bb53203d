//! The same MRMR selection with the tuned dispatcher and with every fixed histogram
//! variant: what tuning buys on this host, and a check that every variant selects the
//! same features.

use std::time::{Duration, Instant};

use super::{Criterion, HistStrategy, Selection, select};
use crate::{Codes, Error};

/// One strategy's result.
#[derive(Clone, Debug)]
pub struct Timing {
    /// The strategy.
    pub strategy: HistStrategy,
    /// What happened.
    pub outcome: Outcome,
}

/// A timed run, or why there was none.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The fastest of the repetitions, and whether it selected what the dispatched run
    /// selected (it must: every variant computes the same exact counts).
    Ran {
        /// Fastest wall time of one whole selection.
        best: Duration,
        /// The same features, in the same order, as the dispatched selection.
        same_selection: bool,
    },
    /// The strategy cannot run here (a CUDA variant without a GPU).
    Skipped(String),
}

/// Runs [`select`] `repeats` times (at least once) with the dispatcher and with every
/// available fixed variant and block size. The first row is the dispatched run.
pub fn compare_strategies(
    target: &Codes,
    features: &Codes,
    k: usize,
    criterion: Criterion,
    repeats: usize,
) -> Result<Vec<Timing>, Error> {
    let (dispatched, best) = timed(target, features, k, criterion, HistStrategy::Dispatched, repeats)?;
    let mut rows = vec![Timing {
        strategy: HistStrategy::Dispatched,
        outcome: Outcome::Ran { best, same_selection: true },
    }];
    for strategy in HistStrategy::all_forced() {
        let outcome = match strategy.unavailable_reason() {
            Some(reason) => Outcome::Skipped(reason),
            None => {
                let (selection, best) = timed(target, features, k, criterion, strategy, repeats)?;
                Outcome::Ran { best, same_selection: selection.features() == dispatched.features() }
            }
        };
        rows.push(Timing { strategy, outcome });
    }
    Ok(rows)
}

/// The selection and the fastest of `repeats` runs.
fn timed(
    target: &Codes,
    features: &Codes,
    k: usize,
    criterion: Criterion,
    strategy: HistStrategy,
    repeats: usize,
) -> Result<(Selection, Duration), Error> {
    let mut best = Duration::MAX;
    let mut selection = None;
    for _ in 0..repeats.max(1) {
        let start = Instant::now();
        let s = select(target, features, k, criterion, strategy)?;
        best = best.min(start.elapsed());
        selection = Some(s);
    }
    // repeats.max(1) ≥ 1 iterations ran, so there is a selection.
    selection.map(|s| (s, best)).ok_or(Error::LengthMismatch { what: "repetitions", expected: 1, found: 0 })
}
