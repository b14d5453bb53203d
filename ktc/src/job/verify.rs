//! What a verification is asked ([`VerifyOptions`]) and what it found ([`VerifyReport`]),
//! and how that reads.

use super::CallPattern;
use crate::HostLoad;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// What `verify` samples and what it flags.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyOptions {
    /// Points to measure (points whose inputs cannot be built here are redrawn).
    pub points: usize,
    /// Regret above which a point, and its region, is flagged.
    pub threshold: f64,
    /// Seed of the sampled sizes: the same seed samples the same points.
    pub seed: u64,
    /// Looks at every point, each pass over all points taken after the previous pass
    /// (seconds apart), merged: the regret is what a call costs over them.
    pub looks: usize,
    /// Points to measure instead of sampled ones (then `points` and `seed` are unused),
    /// by axis name as [`VerifiedPoint::point`] gives them, labels as strings: the sizes
    /// a user's own job runs at. Each names every axis of the kernel and lies within the
    /// sweep's range, or the verify is an error naming it.
    pub at: Vec<BTreeMap<String, serde_json::Value>>,
    /// How the timed calls follow each other; `None`: as the entry's sweep timed them
    /// (its [`after_pause_us`](crate::Entry::after_pause_us)). Another pattern judges
    /// the entry for calls that come another way: a loop-tuned entry verified with
    /// [`CallPattern::AfterPause`] shows what a caller that calls now and then loses.
    /// A refine ignores it: its re-sweep keeps the entry's measurements, so it times
    /// calls the entry's way.
    pub calls: Option<CallPattern>,
}

impl VerifyOptions {
    /// How many points the verify measures: the given ones, else `points` sampled.
    pub(crate) fn point_count(&self) -> usize {
        if self.at.is_empty() { self.points } else { self.at.len() }
    }
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            points: 24,
            threshold: 1.10,
            seed: 0x6b74_635f_7665_7269,
            looks: 3,
            at: Vec::new(),
            calls: None,
        }
    }
}

/// One sampled point: what dispatch chose, what was fastest, every candidate's time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifiedPoint {
    /// The point, by axis name (labels as strings).
    pub point: BTreeMap<String, serde_json::Value>,
    /// The entry's choice here, `variant` or `variant/block`.
    pub chosen: String,
    /// The region of the entry that chose it; `None` where dispatch fell back.
    pub region: Option<usize>,
    /// The fastest candidate here.
    pub fastest: String,
    /// `t(chosen) / t(fastest)`: 1 is perfect.
    pub regret: f64,
    /// Every candidate's time in nanoseconds, `variant` or `variant/block`: its cost
    /// over the interleaved rounds, as the sweep compares candidates (the mean of the
    /// runs after the slowest fifth), over all the point's looks, merged.
    pub times_ns: BTreeMap<String, f64>,
    /// The regret each look alone measured, in order (`regret` is over the looks
    /// merged): how far one look's verdict moves. Where the looks straddle the
    /// threshold, the point is a close call that another verify may judge the other way.
    pub look_regrets: Vec<f64>,
}

/// Tuned dispatch against always running one candidate, over the sampled points.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FixedComparison {
    /// The candidate, `variant` or `variant/block`.
    pub candidate: String,
    /// Geometric mean of `t(candidate) / t(chosen)`: above 1, tuning wins.
    pub geomean_speedup: f64,
    /// The smallest `t(candidate) / t(chosen)`: the point where tuning did worst.
    pub worst_speedup: f64,
}

/// A region of the entry where some sampled point's regret exceeds the threshold.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlaggedRegion {
    /// The region's index in the entry; `None` for fallback choices.
    pub index: Option<usize>,
    /// The region as text.
    pub region: String,
    /// How many sampled points in it exceed the threshold.
    pub points: usize,
    /// The largest regret among them.
    pub worst_regret: f64,
}

/// The outcome of [`verify`](crate::verify::verify).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyReport {
    /// The kernel.
    pub kernel: String,
    /// The entry verified.
    pub entry: PathBuf,
    /// The regret threshold above which points are flagged.
    pub threshold: f64,
    /// The measured points.
    pub points: Vec<VerifiedPoint>,
    /// Geometric mean of the points' regret.
    pub geomean_regret: f64,
    /// The largest regret.
    pub worst_regret: f64,
    /// Regions with a point above the threshold, worst first.
    pub flagged: Vec<FlaggedRegion>,
    /// Tuned dispatch against each single candidate, best candidate first.
    pub fixed: Vec<FixedComparison>,
    /// Sampled points that were not measured, and why.
    pub skipped: Vec<String>,
    /// Where this verify recorded the points it flagged, beside the entry, so that the
    /// next `retune --refine` re-sweeps them whatever its own verify finds; `None` when
    /// it flagged none or could not write there (with a warning).
    pub recorded: Option<PathBuf>,
    /// In `retune --refine`: the points earlier verifies of the entry flagged and
    /// recorded, measured again; their regions are re-swept whatever their regret now.
    pub earlier: Vec<VerifiedPoint>,
    /// How busy the machine was while the points were measured (see [`HostLoad`]);
    /// `None` where the system keeps no count. Parallel candidates wait for stolen time
    /// and for cores other processes hold, so regrets measured under load may be the
    /// machine's rather than the entry's.
    pub load: Option<HostLoad>,
    /// How busy the machine was while the entry's sweep measured (the entry's
    /// [`load`](crate::Entry::load)); `None` for entries that do not say.
    pub entry_load: Option<HostLoad>,
    /// How the timed calls followed each other. In JSON `after_pause_ms`: the pause,
    /// `null` for calls in a loop.
    #[serde(rename = "after_pause_ms", serialize_with = "pause_ms")]
    pub calls: CallPattern,
    /// How the entry's sweep timed them. In JSON `entry_after_pause_ms`, as `calls`.
    #[serde(rename = "entry_after_pause_ms", serialize_with = "pause_ms")]
    pub entry_calls: CallPattern,
}

/// A call pattern in JSON: the pause in milliseconds, `null` for calls in a loop.
fn pause_ms<S: serde::Serializer>(calls: &CallPattern, serializer: S) -> Result<S::Ok, S::Error> {
    match calls.pause() {
        Some(pause) => serializer.serialize_f64(pause.as_secs_f64() * 1e3),
        None => serializer.serialize_none(),
    }
}

/// From this load on, the report says its regrets, or the entry's choices, may be the
/// machine's. In twenty benchmark runs during which the development VM's host stole
/// 4.5% of its CPU time, single looks of `verify` measured regrets up to 4.8 at points
/// where the other two looks measured 1.0–1.4 (`TQ_KERNELS=joint_hist_batched cargo
/// bench --bench tuning_quality`). Other processes count from the sweep's limit, 10%:
/// with nothing else started, the VM's own threads took up to 8.6% of the CPU time over
/// one-second spans.
const BUSY_NOTICE: HostLoad = HostLoad { stolen: 0.01, other: HostLoad::BUSY_SWEEP.other };

fn geomean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v.ln(), n + 1));
    if n == 0 { f64::NAN } else { (sum / n as f64).exp() }
}

impl VerifyReport {
    /// Summarises measured points; `regions[i]` is region `i` as text.
    pub(crate) fn new(
        kernel: String,
        entry: PathBuf,
        threshold: f64,
        points: Vec<VerifiedPoint>,
        regions: &[String],
        skipped: Vec<String>,
    ) -> VerifyReport {
        let geomean_regret = geomean(points.iter().map(|p| p.regret));
        let worst_regret = points.iter().map(|p| p.regret).fold(f64::NAN, f64::max);
        let mut flagged: BTreeMap<Option<usize>, FlaggedRegion> = BTreeMap::new();
        for p in points.iter().filter(|p| p.regret > threshold) {
            let region = p.region.and_then(|i| regions.get(i).cloned()).unwrap_or_else(|| "fallback".into());
            let f = flagged.entry(p.region).or_insert(FlaggedRegion {
                index: p.region,
                region,
                points: 0,
                worst_regret: 0.0,
            });
            f.points += 1;
            f.worst_regret = f.worst_regret.max(p.regret);
        }
        let mut flagged: Vec<FlaggedRegion> = flagged.into_values().collect();
        flagged.sort_by(|a, b| b.worst_regret.total_cmp(&a.worst_regret));
        let candidates: Vec<&String> =
            points.first().map(|p| p.times_ns.keys().collect()).unwrap_or_default();
        let mut fixed: Vec<FixedComparison> = candidates
            .into_iter()
            .filter(|c| points.iter().all(|p| p.times_ns.contains_key(*c)))
            .map(|c| {
                let ratios: Vec<f64> = points.iter().map(|p| p.times_ns[c] / p.times_ns[&p.chosen]).collect();
                FixedComparison {
                    candidate: c.clone(),
                    geomean_speedup: geomean(ratios.iter().copied()),
                    worst_speedup: ratios.iter().copied().fold(f64::INFINITY, f64::min),
                }
            })
            .collect();
        fixed.sort_by(|a, b| a.geomean_speedup.total_cmp(&b.geomean_speedup));
        VerifyReport {
            kernel,
            entry,
            threshold,
            points,
            geomean_regret,
            worst_regret,
            flagged,
            fixed,
            skipped,
            recorded: None,
            earlier: Vec::new(),
            load: None,
            entry_load: None,
            calls: CallPattern::InALoop,
            entry_calls: CallPattern::InALoop,
        }
    }

    /// Whether every point's regret is within the threshold.
    pub fn is_within(&self) -> bool {
        self.flagged.is_empty()
    }

    /// Whether `point`'s regret exceeds the threshold.
    pub fn flags(&self, point: &VerifiedPoint) -> bool {
        point.regret > self.threshold
    }

    /// The sampled points whose regret exceeds the threshold, in sample order.
    pub fn flagged_points(&self) -> impl Iterator<Item = &VerifiedPoint> {
        self.points.iter().filter(|p| self.flags(p))
    }
}

impl VerifiedPoint {
    /// The point as `axis=value` pairs, labels unquoted: `n_samples=1063, loc=host`.
    pub fn point_text(&self) -> String {
        let pairs: Vec<String> =
            self.point.iter().map(|(k, v)| format!("{k}={}", v.to_string().trim_matches('"'))).collect();
        pairs.join(", ")
    }
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "verify `{}` ({}) at {} off-grid points, {}",
            self.kernel,
            self.entry.display(),
            self.points.len(),
            self.calls
        )?;
        if self.entry_calls != self.calls {
            writeln!(
                f,
                "entry: its sweep timed {}; these timings judge it for another pattern",
                self.entry_calls
            )?;
        }
        for p in &self.points {
            let mark = if self.flags(p) { "  <-- flagged" } else { "" };
            let (low, high) =
                p.look_regrets.iter().fold((f64::INFINITY, 0.0_f64), |(l, h), &r| (l.min(r), h.max(r)));
            let looks = if p.look_regrets.len() > 1 {
                format!(" (looks {low:.3}–{high:.3})")
            } else {
                String::new()
            };
            writeln!(
                f,
                "  {:<44} chosen {:<22} fastest {:<22} regret {:.3}{looks}{mark}",
                p.point_text(),
                p.chosen,
                p.fastest,
                p.regret
            )?;
        }
        writeln!(
            f,
            "regret: geomean {:.3}, worst {:.3} (threshold {:.2})",
            self.geomean_regret, self.worst_regret, self.threshold
        )?;
        if let Some(load) = self.load {
            write!(f, "host: while measuring, {load}")?;
            if load.reaches(&BUSY_NOTICE) {
                write!(
                    f,
                    "; parallel candidates wait for it, so these regrets may be the host's: verify again later"
                )?;
            }
            writeln!(f)?;
        }
        // The same limit as the sweep's own warning, `show` and `list`.
        if let Some(load) = self.entry_load.filter(HostLoad::spoils_a_tuning) {
            writeln!(
                f,
                "entry: its sweep measured while {load}; its choices may not fit a quiet machine: \
                 `ktc retune {}` on one",
                self.kernel
            )?;
        }
        for r in &self.flagged {
            let index = r.index.map_or("-".to_string(), |i| i.to_string());
            writeln!(
                f,
                "flagged region {index}: {} ({} points, worst {:.3})",
                r.region, r.points, r.worst_regret
            )?;
        }
        writeln!(f, "tuned vs always one candidate (t(fixed)/t(tuned); above 1: tuning wins):")?;
        for c in &self.fixed {
            writeln!(
                f,
                "  {:<24} geomean {:.3}, worst point {:.3}",
                c.candidate, c.geomean_speedup, c.worst_speedup
            )?;
        }
        for s in &self.skipped {
            writeln!(f, "skipped: {s}")?;
        }
        if let Some(path) = &self.recorded {
            writeln!(
                f,
                "flagged points recorded in {}: the next `retune --refine` re-sweeps them even where its own \
                 verify does not flag them",
                path.display()
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;
