//! Greedy MRMR feature selection (minimum redundancy, maximum relevance; Peng, Long &
//! Ding, 2005) on top of the batched joint-histogram kernel.
//!
//! - Relevance `I(f;c)` of every feature `f` with the target `c`: one
//!   `joint_hist_batched` call with `y = c`.
//! - First pick: the largest relevance.
//! - Each later step: one `joint_hist_batched` call with `y =` the feature picked last
//!   gives `I(f;s)` for every candidate `f`; running sums give the mean redundancy
//!   `R(f) = mean_{s∈S} I(f;s)`, and the pick maximises
//!   - MID: `I(f;c) − R(f)`, or
//!   - MIQ: `I(f;c) / (R(f) + ε)`, `ε = 1e-4` bits (`1e-4 · ln 2` nats).
//!
//! Matching the reference (the original C++ mRMR, as wrapped by PyPI `pymrmr` 0.1.11):
//! the same criteria, the same mean over `S`, the same MIQ guard (the reference adds
//! `0.0001` to the denominator in bits; MI here is in nats, so the guard is scaled by
//! `ln 2` and every MIQ score equals the reference's exactly in real arithmetic; a
//! candidate with no redundancy scores `I(f;c) / ε` rather than dividing by zero), and the
//! same number of features (`k` is capped at `p`, as there). On the same discrete data
//! the picks and their order match. Deliberate differences:
//! - **Ties** go to the lower column index. The reference scans candidates in order of
//!   relevance, sorted with an unstable sort of `f32` values, and keeps the first
//!   maximum, so its tie order is that sort's accident; the two agree whenever the best
//!   score is unique (beyond `f32` rounding of relevance for the first pick).
//! - **Candidate pool**: every feature. The reference only considers the 5 000 most
//!   relevant; the same whenever `p ≤ 5 000`.
//! - Scores are reported in nats; the reference prints bits (divide by `ln 2`).

mod api;
mod compare;
mod strategy;
mod tuning;

#[cfg(feature = "parquet")]
pub use api::select_record_batch;
pub use api::{Options, Report, StageTimes, select_dataset, select_floats, select_table};
pub use compare::{Outcome, Timing, compare_strategies};
pub use strategy::HistStrategy;
pub use tuning::{TuningStatus, ensure_tuned};

use std::fmt;
use std::str::FromStr;

use crate::mi::mutual_information_batched;
use crate::{Codes, Error};

/// The MIQ denominator guard of the reference, `1e-4` bits, in nats.
pub const MIQ_EPSILON: f64 = 1e-4 * std::f64::consts::LN_2;

/// How a candidate's relevance and redundancy combine into its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Criterion {
    /// Mutual information difference: relevance − redundancy.
    #[default]
    Mid,
    /// Mutual information quotient: relevance / (redundancy + [`MIQ_EPSILON`]).
    Miq,
}

impl Criterion {
    /// The score of a candidate.
    pub fn score(self, relevance: f64, redundancy: f64) -> f64 {
        match self {
            Criterion::Mid => relevance - redundancy,
            Criterion::Miq => relevance / (redundancy + MIQ_EPSILON),
        }
    }
}

impl FromStr for Criterion {
    type Err = UnknownCriterion;

    fn from_str(s: &str) -> Result<Self, UnknownCriterion> {
        match s.to_ascii_lowercase().as_str() {
            "mid" => Ok(Criterion::Mid),
            "miq" => Ok(Criterion::Miq),
            _ => Err(UnknownCriterion(s.to_owned())),
        }
    }
}

/// A criterion name that is neither `mid` nor `miq` (as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCriterion(pub String);

impl fmt::Display for UnknownCriterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown criterion `{}`; expected `mid` or `miq`", self.0)
    }
}

impl std::error::Error for UnknownCriterion {}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Criterion::Mid => "MID",
            Criterion::Miq => "MIQ",
        })
    }
}

/// One selected feature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pick {
    /// The feature's column.
    pub feature: usize,
    /// `I(f;c)`, nats.
    pub relevance: f64,
    /// Mean `I(f;s)` over the features picked before it, nats (0 for the first).
    pub redundancy: f64,
    /// The criterion's score when it was picked (the relevance for the first).
    pub score: f64,
    /// How far the score is ahead of the best other candidate's (infinite when there
    /// was none): a margin near 0 is a near-tie, where implementations that break ties
    /// differently, or round differently, may pick differently.
    pub margin: f64,
}

/// What [`select`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    /// The picks, in order.
    pub picks: Vec<Pick>,
    /// `I(f;c)` of every feature, nats, by column.
    pub relevance: Vec<f64>,
}

impl Selection {
    /// The selected columns, in order.
    pub fn features(&self) -> Vec<usize> {
        self.picks.iter().map(|p| p.feature).collect()
    }
}

/// Selects `k` of the columns of `features` (at most all of them) for `target` by greedy
/// MRMR with `criterion`, computing each step's histograms with `strategy`.
///
/// ```
/// use ktc_kernels::Codes;
/// use ktc_kernels::mrmr::{Criterion, HistStrategy, select};
///
/// // Target: 4 classes, two bits. Column 0 is the high bit, column 1 a copy of it,
/// // column 2 the low bit.
/// let c = Codes::column_u8(vec![0, 1, 2, 3, 0, 1, 2, 3], 4)?;
/// let high = [0, 0, 1, 1, 0, 0, 1, 1];
/// let low = [0, 1, 0, 1, 0, 1, 0, 1];
/// let x = Codes::from_u8([high, high, low].concat(), 8, 3, 2)?;
/// let s = select(&c, &x, 2, Criterion::Mid, HistStrategy::Dispatched)?;
/// // All three are equally relevant (ln 2); the tie goes to column 0, and then the copy
/// // scores 0 while the low bit, independent of the high bit, keeps its ln 2.
/// assert_eq!(s.features(), [0, 2]);
/// # Ok::<(), ktc_kernels::Error>(())
/// ```
///
/// Errors: `target` is not one column of the features' length, or the kernel fails.
pub fn select(
    target: &Codes,
    features: &Codes,
    k: usize,
    criterion: Criterion,
    strategy: HistStrategy,
) -> Result<Selection, Error> {
    let (p, kx) = (features.n_cols(), features.bins());
    let relevance = relevance(target, features, strategy)?;
    let k = k.min(p);
    let mut picks: Vec<Pick> = Vec::with_capacity(k);
    let mut selected = vec![false; p];
    let mut redundancy_sum = vec![0.0f64; p];
    let mut counts = vec![0u32; p * kx * kx];
    while picks.len() < k {
        if let Some(last) = picks.last() {
            let y = selected_column(features, last.feature)?;
            strategy.joint_hist(&y, features, &mut counts)?;
            let mi = mutual_information_batched(&counts, p, kx, kx)?;
            redundancy_sum.iter_mut().zip(&mi).for_each(|(sum, i)| *sum += i);
        }
        let pick = best(&relevance, &redundancy_sum, &selected, picks.len(), criterion);
        selected[pick.feature] = true;
        picks.push(pick);
    }
    Ok(Selection { picks, relevance })
}

/// `I(f;c)` for every column of `features`: one batched histogram.
pub fn relevance(target: &Codes, features: &Codes, strategy: HistStrategy) -> Result<Vec<f64>, Error> {
    let (p, kx, ky) = (features.n_cols(), features.bins(), target.bins());
    let mut counts = vec![0u32; p * kx * ky];
    strategy.joint_hist(target, features, &mut counts)?;
    mutual_information_batched(&counts, p, kx, ky)
}

/// The best unselected candidate after `chosen` picks; ties to the lower index (the scan
/// is in column order and only a strictly larger score replaces the best).
fn best(
    relevance: &[f64],
    redundancy_sum: &[f64],
    selected: &[bool],
    chosen: usize,
    criterion: Criterion,
) -> Pick {
    let mut best: Option<Pick> = None;
    let mut runner_up = f64::NEG_INFINITY;
    for (feature, &rel) in relevance.iter().enumerate() {
        if selected[feature] {
            continue;
        }
        let (redundancy, score) = match chosen {
            0 => (0.0, rel),
            n => {
                let red = redundancy_sum[feature] / n as f64;
                (red, criterion.score(rel, red))
            }
        };
        match best {
            Some(b) if score <= b.score => runner_up = runner_up.max(score),
            _ => {
                runner_up = best.map_or(runner_up, |b| runner_up.max(b.score));
                best = Some(Pick { feature, relevance: rel, redundancy, score, margin: 0.0 });
            }
        }
    }
    // `select` asks for at most `p` picks, so a candidate is always left.
    let best =
        best.unwrap_or(Pick { feature: 0, relevance: 0.0, redundancy: 0.0, score: f64::NAN, margin: 0.0 });
    Pick { margin: best.score - runner_up, ..best }
}

/// The picked column as a one-column `y`, where the features live (host or device).
fn selected_column(features: &Codes, j: usize) -> Result<Codes, Error> {
    if let Some(col) = features.host_column(j) {
        return Ok(col);
    }
    let host = features.to_host()?;
    let col = host.host_column(j).ok_or(Error::LengthMismatch {
        what: "feature column",
        expected: j + 1,
        found: host.n_cols(),
    })?;
    col.to_device()
}
