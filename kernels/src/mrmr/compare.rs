//! The same MRMR selection with the tuned dispatcher and with every fixed histogram
//! variant: what tuning buys on this host, and a check that every variant selects the
//! same features.

use std::time::{Duration, Instant};

use super::{Criterion, HistStrategy, Selection, select};
use crate::rng::SplitMix64;
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
    /// The median of the repetitions, and whether it selected what the dispatched run
    /// selected (it must: every variant computes the same exact counts).
    Ran {
        /// Median wall time of one whole selection. Not the fastest: a parallel
        /// variant's fastest run is the one that found the thread pool awake, which
        /// over 51 repetitions it nearly always does once.
        median: Duration,
        /// The same features, in the same order, as the dispatched selection.
        same_selection: bool,
    },
    /// The strategy cannot run here (a CUDA variant without a GPU).
    Skipped(String),
}

/// Runs [`select`] `repeats` times (at least once) with the dispatcher and with every
/// available fixed variant and block size. The first row is the dispatched run.
///
/// The repetitions are interleaved (every strategy once, then every strategy again, in
/// a fresh shuffled order each time), so a change in the host's load during the
/// comparison hits all strategies alike instead of whichever happened to run then.
pub fn compare_strategies(
    target: &Codes,
    features: &Codes,
    k: usize,
    criterion: Criterion,
    repeats: usize,
) -> Result<Vec<Timing>, Error> {
    let strategies: Vec<HistStrategy> =
        std::iter::once(HistStrategy::Dispatched).chain(HistStrategy::all_forced()).collect();
    let runnable: Vec<bool> = strategies.iter().map(|s| s.unavailable_reason().is_none()).collect();
    let mut runs: Vec<Vec<Duration>> = vec![Vec::new(); strategies.len()];
    let mut selections: Vec<Option<Selection>> = vec![None; strategies.len()];
    // A fixed order gives every strategy the same predecessor each time; a parallel
    // one run after another parallel one finds rayon's workers awake.
    let mut order: Vec<usize> = (0..strategies.len()).collect();
    let mut rng = SplitMix64::new(0x6B74_6321);
    for _ in 0..repeats.max(1) {
        rng.shuffle(&mut order);
        for &i in &order {
            let strategy = strategies[i];
            if runnable[i] {
                let start = Instant::now();
                let s = select(target, features, k, criterion, strategy)?;
                runs[i].push(start.elapsed());
                selections[i] = Some(s);
            }
        }
    }
    let dispatched = selections[0].as_ref().map(Selection::features);
    Ok(strategies
        .iter()
        .zip(selections)
        .zip(runs)
        .map(|((&strategy, selection), mut runs)| {
            let outcome = match selection {
                Some(s) => {
                    runs.sort();
                    let median = runs[runs.len() / 2];
                    Outcome::Ran { median, same_selection: Some(s.features()) == dispatched }
                }
                None => {
                    Outcome::Skipped(strategy.unavailable_reason().map(|r| r.to_string()).unwrap_or_default())
                }
            };
            Timing { strategy, outcome }
        })
        .collect())
}
