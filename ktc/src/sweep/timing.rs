//! Timing statistics: median and spread of one candidate's runs, and the rule that
//! turns them into a winner.

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

/// One candidate's summary at one grid point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Timed {
    /// Index into the sweep's candidate list.
    pub candidate: usize,
    pub median_ns: f64,
    pub mad_ns: f64,
}

/// Relative difference below which two medians are never told apart, whatever the
/// measured spread: timer resolution and frequency scaling make smaller gaps
/// unrepeatable.
const MIN_RELATIVE_GAP: f64 = 0.03;

/// The winner among `timed`: the fastest median, except that the stable candidate
/// (the fallback variant, if it was timed) keeps the point when it is within the noise
/// of the fastest — so two sweeps on the same host choose the same.
pub(crate) fn pick_winner(timed: &[Timed], stable: Option<usize>) -> Option<Timed> {
    let fastest = *timed.iter().min_by(|a, b| a.median_ns.total_cmp(&b.median_ns))?;
    let Some(stable) = stable.and_then(|s| timed.iter().find(|t| t.candidate == s)) else {
        return Some(fastest);
    };
    let noise = (2.0 * fastest.mad_ns.max(stable.mad_ns)).max(MIN_RELATIVE_GAP * fastest.median_ns);
    if stable.median_ns - fastest.median_ns <= noise { Some(*stable) } else { Some(fastest) }
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
    fn stable_candidate_wins_within_noise_and_loses_outside() {
        let t = |candidate, median_ns, mad_ns| Timed { candidate, median_ns, mad_ns };
        let close = [t(0, 102.0, 1.0), t(1, 100.0, 1.0)];
        assert_eq!(pick_winner(&close, Some(0)).unwrap().candidate, 0);
        let far = [t(0, 150.0, 1.0), t(1, 100.0, 1.0)];
        assert_eq!(pick_winner(&far, Some(0)).unwrap().candidate, 1);
        let noisy = [t(0, 150.0, 30.0), t(1, 100.0, 1.0)];
        assert_eq!(pick_winner(&noisy, Some(0)).unwrap().candidate, 0);
        assert_eq!(pick_winner(&far, None).unwrap().candidate, 1);
        assert!(pick_winner(&[], Some(0)).is_none());
    }
}
