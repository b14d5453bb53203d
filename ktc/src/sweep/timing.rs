//! Timing statistics: median and spread of one candidate's runs, comparisons of
//! candidates by their best runs with an uncertainty that shrinks as rounds accumulate,
//! and the rule that turns them into a winner.

/// Median and median absolute deviation of a non-empty sample, in nanoseconds.
pub(crate) fn median_and_mad(samples: &[f64]) -> (f64, f64) {
    let median = median_of(samples.to_vec());
    let deviations: Vec<f64> = samples.iter().map(|s| (s - median).abs()).collect();
    (median, median_of(deviations))
}

fn median_of(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 { v[mid] } else { (v[mid - 1] + v[mid]) / 2.0 }
}

/// One candidate's runs at one point.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Timed {
    /// Index into the sweep's candidate list.
    pub candidate: usize,
    pub median_ns: f64,
    pub mad_ns: f64,
    /// The fastest run: what decisions compare (see [`LogRatio`]).
    pub best_ns: f64,
    /// Every run, in round order (round `k` of every candidate ran back to back, so
    /// the `k`-th samples of two candidates form a pair). Dropped candidates stop early.
    pub samples: Vec<f64>,
}

impl Timed {
    pub(crate) fn new(candidate: usize, samples: Vec<f64>) -> Timed {
        let (median_ns, mad_ns) = median_and_mad(&samples);
        let best_ns = samples.iter().copied().fold(f64::INFINITY, f64::min);
        Timed { candidate, median_ns, mad_ns, best_ns, samples }
    }
}

/// A ratio of two candidates' times, from their best runs: the log of the ratio of their
/// fastest runs, and a half-width of uncertainty — for each, the gap from its fastest to
/// its second-fastest run (how far the best-of estimate may still move), summed.
///
/// Best-of, not the median: on a shared host most runs of a millisecond kernel can be
/// preempted, which inflates a median by whatever else ran, while the fastest runs keep
/// what the kernel costs. The gap shrinks as rounds accumulate, so more rounds settle a
/// close race.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LogRatio {
    pub center: f64,
    pub half_width: f64,
}

/// The fastest and second-fastest of at least three runs.
fn best_two(samples: &[f64]) -> Option<(f64, f64)> {
    if samples.len() < 3 {
        return None;
    }
    let (mut first, mut second) = (f64::INFINITY, f64::INFINITY);
    for &s in samples {
        if s < first {
            second = first;
            first = s;
        } else if s < second {
            second = s;
        }
    }
    (first > 0.0).then_some((first, second))
}

impl LogRatio {
    /// `ln(a / b)`; with fewer than three runs on either side the interval is unbounded.
    pub(crate) fn of(a: &[f64], b: &[f64]) -> LogRatio {
        match (best_two(a), best_two(b)) {
            (Some((a1, a2)), Some((b1, b2))) => {
                LogRatio { center: (a1 / b1).ln(), half_width: (a2 / a1).ln() + (b2 / b1).ln() }
            }
            _ => LogRatio { center: 0.0, half_width: f64::INFINITY },
        }
    }

    /// The ratio `a / b` itself.
    #[cfg(test)]
    pub(crate) fn ratio(self) -> f64 {
        self.center.exp()
    }
}

/// Relative regret below which two candidates are interchangeable: a point may take
/// any candidate within 2% of the fastest (the compaction's tolerance too).
pub(crate) const TIE: f64 = 0.02;

/// The largest lead the noise may hide: a candidate slower than the fastest by more
/// than this is never a tie, however noisy the point.
const NOISE_CAP: f64 = 0.04;

/// How a candidate compares with the fastest at a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Slower beyond the noise and beyond the tie: it cannot win this point.
    Slower,
    /// Within [`TIE`] of the fastest, or within the noise (up to [`NOISE_CAP`]).
    Tie,
    /// Not decided yet: the interval straddles the tie threshold.
    Open,
}

/// The verdict on `r = ln(t(candidate) / t(fastest))`.
pub(crate) fn verdict(r: LogRatio) -> Verdict {
    let tie = (1.0 + TIE).ln();
    if r.center - r.half_width > tie {
        Verdict::Slower
    } else if r.center + r.half_width <= tie
        || r.half_width <= tie
        || (r.center - r.half_width <= 0.0 && r.center <= (1.0 + NOISE_CAP).ln())
    {
        Verdict::Tie
    } else {
        Verdict::Open
    }
}

/// The fastest candidate by its best run.
pub(crate) fn fastest(timed: &[Timed]) -> Option<&Timed> {
    timed.iter().min_by(|a, b| a.best_ns.total_cmp(&b.best_ns))
}

/// The point's decision: the winner first, then every other candidate whose regret is
/// at most [`TIE`] (by best runs), each list in `preference` order.
///
/// The winner is the first candidate in `preference` order (stable default, reference,
/// then declaration order) that ties with the fastest, so two sweeps on one host choose
/// alike and a noise-level lead never displaces the default.
pub(crate) fn decide(timed: &[Timed], preference: &[usize]) -> Option<Vec<usize>> {
    let best = fastest(timed)?;
    let rank = |c: usize| preference.iter().position(|&p| p == c).unwrap_or(usize::MAX);
    let mut ties: Vec<&Timed> = timed
        .iter()
        .filter(|t| {
            t.candidate == best.candidate || verdict(LogRatio::of(&t.samples, &best.samples)) == Verdict::Tie
        })
        .collect();
    ties.sort_by_key(|t| rank(t.candidate));
    let winner = ties.first().map_or(best.candidate, |t| t.candidate);
    let mut acceptable = vec![winner];
    let mut close: Vec<&Timed> =
        timed.iter().filter(|t| t.candidate != winner && t.best_ns <= best.best_ns * (1.0 + TIE)).collect();
    close.sort_by_key(|t| rank(t.candidate));
    acceptable.extend(close.iter().map(|t| t.candidate));
    Some(acceptable)
}

/// The relative distance from the fastest within which a neighbour's winner needs no
/// crossover bracketed between the two (a 5% regret at the ends at most).
pub(crate) const NEAR: f64 = 0.05;

/// The candidates whose best run is within [`NEAR`] of the fastest's.
pub(crate) fn near(timed: &[Timed]) -> Vec<usize> {
    let Some(best) = fastest(timed) else { return Vec::new() };
    timed.iter().filter(|t| t.best_ns <= best.best_ns * (1.0 + NEAR)).map(|t| t.candidate).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_mad_of_odd_and_even_samples() {
        assert_eq!(median_and_mad(&[3.0, 1.0, 2.0]), (2.0, 1.0));
        assert_eq!(median_and_mad(&[1.0, 2.0, 3.0, 10.0]), (2.5, 1.0));
    }

    #[test]
    fn best_runs_ignore_preempted_rounds() {
        // Round 2 ran under load; the best runs keep the kernels' own ratio.
        let a = [200.0, 202.0, 600.0, 198.0, 200.0];
        let b = [100.0, 101.0, 300.0, 99.0, 100.0];
        let r = LogRatio::of(&a, &b);
        assert!((r.ratio() - 2.0).abs() < 1e-9);
        assert_eq!(verdict(r), Verdict::Slower);
        assert_eq!(LogRatio::of(&a[..2], &b[..2]).half_width, f64::INFINITY);
    }

    #[test]
    fn verdicts_follow_the_interval() {
        let lr = |center: f64, half_width: f64| LogRatio { center, half_width };
        assert_eq!(verdict(lr(0.3, 0.05)), Verdict::Slower);
        assert_eq!(verdict(lr(0.01, 0.005)), Verdict::Tie);
        assert_eq!(verdict(lr(0.03, 0.05)), Verdict::Tie); // noise hides a 3% lead
        assert_eq!(verdict(lr(0.08, 0.1)), Verdict::Open); // too far to call a tie
    }

    fn timed(candidate: usize, median: f64, jitter: f64) -> Timed {
        let samples = (0..9).map(|k| median * (1.0 + jitter * ((k % 3) as f64 - 1.0))).collect();
        Timed::new(candidate, samples)
    }

    #[test]
    fn preferred_candidate_wins_ties_and_loses_clear_races() {
        let close = [timed(0, 101.0, 0.001), timed(1, 100.0, 0.001)];
        assert_eq!(decide(&close, &[0, 1]).unwrap(), vec![0, 1]);
        assert_eq!(decide(&close, &[1, 0]).unwrap(), vec![1, 0]);
        let far = [timed(0, 150.0, 0.001), timed(1, 100.0, 0.001), timed(2, 101.5, 0.001)];
        assert_eq!(decide(&far, &[0, 1, 2]).unwrap(), vec![1, 2]);
        assert!(decide(&[], &[0]).is_none());
    }
}
