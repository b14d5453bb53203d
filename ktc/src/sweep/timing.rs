//! Timing statistics: median and spread of one candidate's runs, comparisons of
//! candidates by their mean cost with an uncertainty that shrinks as rounds accumulate,
//! and the rule that turns them into a winner.

/// Median and median absolute deviation of a non-empty sample, in nanoseconds.
pub(crate) fn median_and_mad(samples: &[f64]) -> (f64, f64) {
    let median = median_of(samples.to_vec());
    let deviations: Vec<f64> = samples.iter().map(|s| (s - median).abs()).collect();
    (median, median_of(deviations))
}

fn median_of(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    median_of_sorted(&v)
}

/// The median of values already in ascending order.
fn median_of_sorted(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
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
    /// What one run costs, as decisions compare it (see [`cost_and_spread`]): the mean
    /// of the runs but the slowest fifth.
    pub cost_ns: f64,
    /// Every run, in round order (round `k` of every candidate ran back to back, so
    /// the `k`-th samples of two candidates form a pair). Dropped candidates stop early.
    pub samples: Vec<f64>,
}

impl Timed {
    pub(crate) fn new(candidate: usize, samples: Vec<f64>) -> Timed {
        let (median_ns, mad_ns) = median_and_mad(&samples);
        let cost_ns = cost(&samples);
        Timed { candidate, median_ns, mad_ns, cost_ns, samples }
    }
}

/// One run in this many, the slowest, is left out of a candidate's cost: a run that
/// lost its core to another process says nothing about the kernel.
const TRIM: usize = 5;

/// What one run of a candidate costs, and how far that estimate may still move (log
/// units); `None` under three runs or with a run that took no time.
///
/// The cost is the mean of the runs left after the slowest fifth: what a call costs
/// on average, which is what a user pays. The uncertainty is two standard errors of
/// that mean (at least the gap between the two fastest runs, capped at 1%): it shrinks
/// as rounds accumulate, so more rounds settle a close race.
///
/// Why a mean and not the fastest run or the median (both tried on the 2-core
/// development VM, `cargo bench --bench tuning_quality`): runs there are bimodal for
/// reasons that are not the kernel's. Any run may land in a mode 1.25–1.3× slower (one
/// serial variant ran at 146 or 191 µs, nothing between). A parallel variant of a short
/// kernel is fast only in the rounds where the idle core woke at once (22 µs in one
/// round of forty, 35–51 µs in most), and a longer one runs at serial speed in every
/// round where the second core was taken away. The fastest run rewards the lucky
/// rounds; the median jumps from one mode to the other as their shares cross a half,
/// so two measurements of one point disagreed by up to 1.7×. The mean moves with the
/// shares, and its interval says when the rounds are too few to tell two candidates
/// apart.
pub(crate) fn cost_and_spread(samples: &[f64]) -> Option<(f64, f64)> {
    let m = samples.len();
    if m < 3 {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    if sorted[0] <= 0.0 {
        return None;
    }
    let kept = &sorted[..m - m / TRIM];
    let k = kept.len() as f64;
    let mean = kept.iter().sum::<f64>() / k;
    let variance = kept.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0);
    let standard_error = (variance / k).sqrt();
    // Identical runs (a timer's resolution) still leave some doubt.
    let floor = (sorted[1] / sorted[0]).ln().min(0.01);
    Some((mean, (2.0 * standard_error / mean).max(floor)))
}

/// What one run costs (see [`cost_and_spread`]); under three runs, the fastest.
pub(crate) fn cost(samples: &[f64]) -> f64 {
    cost_and_spread(samples).map_or_else(|| samples.iter().copied().fold(f64::INFINITY, f64::min), |(c, _)| c)
}

/// A ratio of two candidates' times: the log of the ratio of their costs (see
/// [`cost_and_spread`]), and a half-width of uncertainty, their spreads summed. The
/// spreads shrink as rounds accumulate, so more rounds settle a close race.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LogRatio {
    pub center: f64,
    pub half_width: f64,
}

impl LogRatio {
    /// `ln(a / b)`; with fewer than three runs on either side the interval is unbounded.
    pub(crate) fn of(a: &[f64], b: &[f64]) -> LogRatio {
        LogRatio::between(cost_and_spread(a), cost_and_spread(b))
    }

    /// `ln(a / b)` from the two sides' [`cost_and_spread`], computed once.
    pub(crate) fn between(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> LogRatio {
        match (a, b) {
            (Some((ca, sa)), Some((cb, sb))) => LogRatio { center: (ca / cb).ln(), half_width: sa + sb },
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

/// How a candidate compares with the fastest at a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Slower beyond the noise and beyond the tie: it cannot win this point.
    Slower,
    /// Within [`TIE`] of the fastest, or measured to within [`TIE`] and at most twice
    /// that slower.
    Tie,
    /// Not decided yet: the interval is wide and straddles the tie threshold. Wide is
    /// never a tie: on a noisy host a candidate 1.19× slower measured within 3% in a
    /// few rounds, and calling that a tie handed the point to the preferred candidate.
    Open,
}

/// The verdict on `r = ln(t(candidate) / t(fastest))`.
pub(crate) fn verdict(r: LogRatio) -> Verdict {
    let tie = (1.0 + TIE).ln();
    if r.center - r.half_width > tie {
        Verdict::Slower
    } else if r.center + r.half_width <= tie || r.half_width <= tie {
        Verdict::Tie
    } else {
        Verdict::Open
    }
}

/// The fastest candidate by its cost.
pub(crate) fn fastest(timed: &[Timed]) -> Option<&Timed> {
    timed.iter().min_by(|a, b| a.cost_ns.total_cmp(&b.cost_ns))
}

/// The point's decision: the winner first, then every other candidate whose regret is
/// at most [`TIE`] or the `state_margin` (by cost), each list in `preference` order.
///
/// The winner is the first candidate in `preference` order (the best fixed choice over
/// the points nearby first, see `super::nearby`; the grid's ranking, [`ranked_overall`],
/// breaks what those leave equal) that ties with the fastest, so two sweeps on one host
/// choose alike and a noise-level lead never displaces the preferred choice.
/// A candidate ties when its runs cannot tell it from the fastest (see [`verdict`]),
/// when its cost is within `state_margin` (log units) of the fastest's: a lead that
/// further looks at other times move by as much (see `sweep::state`), or when one of
/// the point's `looks` (see [`led_in_every_look`]) found it that close and its cost
/// over all looks is at most [`TIE`] further off.
///
/// That last bound keeps one slow look from handing a point to a candidate that is
/// slower in the others. On this project's 2-vCPU VM some looks ran every parallel
/// variant at serial speed (`par_split/4` at 205 352 samples × 1 feature: 72 µs in one
/// look, 148 µs in another), `par_pairs` (one pair, on the caller) then tied with the
/// fastest and won as the preferred choice: 20–32 of 139–187 measured points of each
/// of three sweeps served a choice 1.11–1.77× slower than the fastest by all their
/// runs; with the bound, 4–6 of 149–185, none over 1.12. `cargo bench --bench
/// tuning_quality` with `TQ_SEED` 1–8 (other sizes in every run), alternating: worst
/// regret over 1.15 in 3 of 8 runs without the bound, 2 of 8 with it.
pub(crate) fn decide(
    timed: &[Timed],
    looks: &[LookCosts],
    preference: &[usize],
    state_margin: f64,
) -> Option<Vec<usize>> {
    let best = fastest(timed)?;
    let rank = |c: usize| preference.iter().position(|&p| p == c).unwrap_or(usize::MAX);
    let log_regret = |t: &Timed| (t.cost_ns / best.cost_ns).ln();
    let within_state = |t: &Timed| log_regret(t) <= state_margin;
    let mut ties: Vec<&Timed> = timed
        .iter()
        .filter(|t| {
            t.candidate == best.candidate
                || within_state(t)
                || verdict(LogRatio::of(&t.samples, &best.samples)) == Verdict::Tie
                || (log_regret(t) <= state_margin + (1.0 + TIE).ln()
                    && !led_in_every_look(looks, best.candidate, t.candidate, state_margin))
        })
        .collect();
    ties.sort_by_key(|t| rank(t.candidate));
    let winner = ties.first().map_or(best.candidate, |t| t.candidate);
    let mut acceptable = vec![winner];
    let mut close: Vec<&Timed> = timed
        .iter()
        .filter(|t| t.candidate != winner && (t.cost_ns <= best.cost_ns * (1.0 + TIE) || within_state(t)))
        .collect();
    close.sort_by_key(|t| rank(t.candidate));
    acceptable.extend(close.iter().map(|t| t.candidate));
    Some(acceptable)
}

/// One look's cost (ns) of each candidate it timed.
pub(crate) type LookCosts = Vec<(usize, f64)>;

/// The costs of `timed`, as one look.
pub(crate) fn look_of(timed: &[Timed]) -> LookCosts {
    timed.iter().map(|t| (t.candidate, t.cost_ns)).collect()
}

/// Whether `leader` ran faster than `other` by more than `margin` (log units, at least
/// [`TIE`]) in every one of `looks` that timed both; true where there are no such looks.
///
/// Looks are taken seconds apart, and on a shared VM the host's state in between can
/// reverse a lead: serial `pairs` at 1 105 samples × 21 features ran 8.5 µs in some
/// stretches of one process and 15.6 µs in others (tens of milliseconds to seconds
/// each, a multiply chain timed beside it unchanged; probe not committed), which moved
/// `pairs` against `par_pairs` 0.73–1.45×. A lead that one look did not find is not
/// one a user's calls can count on, so it does not displace a preferred candidate: with
/// this rule `cargo bench --bench tuning_quality` met all four of issue 11's targets in
/// 10 of 10 runs (`joint_hist_batched`) and 5 of 8 (`discretize`), against 7 of 10 and
/// 3 of 8 without it (runs alternating in one block).
pub(crate) fn led_in_every_look(looks: &[LookCosts], leader: usize, other: usize, margin: f64) -> bool {
    let margin = margin.max((1.0 + TIE).ln());
    let cost = |look: &LookCosts, c: usize| look.iter().find(|(t, _)| *t == c).map(|&(_, ns)| ns);
    looks.iter().all(|look| match (cost(look, leader), cost(look, other)) {
        (Some(l), Some(o)) => (o / l).ln() > margin,
        _ => true,
    })
}

/// `preference` reordered by how each candidate does as a fixed choice over `points`
/// (each point's [`regrets`]): the candidates timed at every point first, by the
/// geometric mean of their regrets, smallest first; then the others. Exact ties, and
/// the others, keep their order in `preference`.
pub(crate) fn ranked_overall(points: &[Vec<(usize, f64)>], preference: &[usize]) -> Vec<usize> {
    // The sum of a candidate's log regrets; +∞ (last) where it was not timed everywhere.
    let log_regret = |c: usize| -> f64 {
        let logs: Option<f64> =
            points.iter().map(|p| p.iter().find(|(t, _)| *t == c).map(|(_, r)| r.ln())).sum();
        logs.unwrap_or(f64::INFINITY)
    };
    ranked_by(preference, log_regret)
}

/// `preference` sorted by `cost`, smallest first; equal costs keep their order in
/// `preference`. Both tie rankings, the grid's and a point's neighbourhood's (see
/// `super::nearby`), sort this way.
pub(crate) fn ranked_by(preference: &[usize], cost: impl Fn(usize) -> f64) -> Vec<usize> {
    let mut ranked: Vec<(usize, f64)> = preference.iter().map(|&c| (c, cost(c))).collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    ranked.into_iter().map(|(c, _)| c).collect()
}

/// The relative distance from the fastest within which a neighbour's winner needs no
/// crossover bracketed between the two (a 5% regret at the ends at most).
pub(crate) const NEAR: f64 = 0.05;

/// Each candidate's regret: its cost over the fastest's.
pub(crate) fn regrets(timed: &[Timed]) -> Vec<(usize, f64)> {
    let Some(best) = fastest(timed) else { return Vec::new() };
    timed.iter().map(|t| (t.candidate, t.cost_ns / best.cost_ns)).collect()
}

/// The candidates whose regret (see [`regrets`]) is within [`NEAR`].
pub(crate) fn near(regrets: &[(usize, f64)]) -> Vec<usize> {
    regrets.iter().filter(|(_, r)| *r <= 1.0 + NEAR).map(|(c, _)| *c).collect()
}

#[cfg(test)]
#[path = "timing_tests.rs"]
mod tests;
