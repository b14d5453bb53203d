//! The harness side of `verify`: timing the stored entry's choices at sampled points
//! (`retune --refine` starts from it, see [`super::reseed`]).

use super::harness::Harness;
use super::measure::{Rounds, Timing};
use super::sample::{grid_range, named_point, sample_points, within_grid};
use super::sweeper::{Sweeper, open_cache, point_label, point_map};
use super::timing::{LookCosts, look_of};
use super::{CallPattern, SweepOptions, SweepReport};
use crate::job::{VerifiedPoint, VerifyOptions, VerifyReport};
use crate::provenance::summarize_changes;
use crate::registry::{GridValue, KernelInfo};
use crate::store::{LookupStatus, Point, record_flagged};
use crate::warn::warn_once;
use crate::{ChoiceSource, CpuTimes, Dispatch, Entry, Error, HostLoad, Provenance};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Rounds at a verified point: more than a quick sweep's, as the regret is the result.
const VERIFY_ROUNDS: Rounds = Rounds { min: 7, max: 41, floor: 5 };

/// The current entry of `tuner` in the options' store, or why there is none.
fn current_entry(tuner: &'static KernelInfo, options: &SweepOptions) -> Result<(PathBuf, Entry), Error> {
    let cache = open_cache(options)?;
    let provenance = Provenance::for_device(&tuner.identity, options.device);
    match cache.load_quiet(tuner.name, &provenance, Some(&tuner.schema())).status {
        LookupStatus::Found { path, entry, .. } => Ok((path, *entry)),
        LookupStatus::Stale { path, changes, .. } => Err(Error::Sweep {
            kernel: tuner.name.into(),
            reason: format!(
                "no current entry to verify (the newest, {}, is stale: {}); tune the kernel first",
                path.display(),
                summarize_changes(&changes)
            ),
        }),
        LookupStatus::Missing => Err(Error::Sweep {
            kernel: tuner.name.into(),
            reason: format!(
                "no current entry to verify in {}; tune the kernel first",
                cache.root().display()
            ),
        }),
    }
}

/// The current entry verified: the sweeper that timed it (its results are the sampled
/// points, in order), the entry's path, the entry and the report.
pub(super) fn verified<'a, H: Harness>(
    tuner: &'static KernelInfo,
    harness: &'a H,
    options: &SweepOptions,
    verify: &VerifyOptions,
) -> Result<(Sweeper<'a, H>, PathBuf, Entry, VerifyReport), Error> {
    let (path, entry) = current_entry(tuner, options)?;
    let mut sweeper = Sweeper::new(tuner, harness, options)?;
    let calls = verify.calls.unwrap_or(CallPattern::recorded(entry.after_pause_us));
    sweeper.timing = Timing { rounds: VERIFY_ROUNDS, calls };
    let report = verify_with(&mut sweeper, options, verify, &path, &entry)?;
    Ok((sweeper, path, entry, report))
}

/// Verifies the current entry: see [`crate::verify::verify`].
pub(super) fn verify<H: Harness>(
    tuner: &'static KernelInfo,
    harness: &H,
    options: &SweepOptions,
    verify: &VerifyOptions,
) -> Result<SweepReport, Error> {
    let (_, path, entry, mut report) = verified(tuner, harness, options, verify)?;
    // Points flagged for another call pattern than the entry's are not for its refine,
    // which re-sweeps them the entry's way.
    if !report.is_within() && report.calls == report.entry_calls {
        let points: Vec<Point> = report.flagged_points().map(|p| p.point.clone()).collect();
        match record_flagged(&path, &points) {
            Ok(recorded) => report.recorded = Some(recorded),
            Err(e) => {
                warn_once(format!("the flagged points of {} could not be recorded: {e}", path.display()));
            }
        }
    }
    Ok(SweepReport { kernel: tuner.name.into(), entry_path: path, entry, pushed: None, verify: Some(report) })
}

fn verify_with<H: Harness>(
    sweeper: &mut Sweeper<'_, H>,
    options: &SweepOptions,
    verify: &VerifyOptions,
    path: &std::path::Path,
    entry: &Entry,
) -> Result<VerifyReport, Error> {
    let tuner = sweeper.tuner;
    let dispatch = Arc::new(Dispatch::from_entry(tuner, path.to_path_buf(), entry));
    sweeper.judged = Some(Arc::clone(&dispatch));
    let given = given_points(tuner, &verify.at)?;
    let wanted = verify.point_count();
    let cap = point_cap(sweeper, options, wanted, verify.looks);
    let looks = verify.looks.max(1);
    let before = CpuTimes::now();
    let mut points = Vec::new();
    let mut skipped = Vec::new();
    // Points whose inputs cannot be built here (device data without a device) are
    // redrawn, a bounded number of times; given points are not.
    let candidates =
        if given.is_empty() { sample_points(tuner.axes, verify.points * 4, verify.seed) } else { given };
    for point in candidates {
        if points.len() == wanted {
            break;
        }
        match sweeper.measure(&point, cap) {
            Ok(i) => points.push(verified_point(sweeper, &dispatch, i)),
            Err(reason) => skipped.push(format!("{}: {reason}", point_label(tuner, &point))),
        }
    }
    // Every point gets its further looks in passes over all points, so its looks lie
    // seconds apart, and they are merged: the regret is what a call costs over them.
    // One look sees one state of a shared host, and such a state can outlast a point's
    // rounds: on the 2-core development VM, `pairs` at 1 063 samples × 4 features ran
    // 1.9–2.0 µs a call in 12 of 16 processes started 0.3 s apart and 2.7–3.4 µs in the
    // other four, where `par_pairs` (2.1–3.4 µs) was faster (probe, not committed).
    // With one look per point, and a second only at points above the threshold, one
    // entry verified three times in a row had a worst regret of 1.07, 1.06 and 1.38
    // (`TQ_REVERIFY=2 cargo bench --bench tuning_quality`).
    // `points[i]` is the sweeper's result `i`: a point is pushed exactly when its
    // measurement is.
    for _ in 1..looks {
        for (i, verified) in points.iter_mut().enumerate() {
            if sweeper.remeasure(i, cap).is_ok() {
                *verified = verified_point(sweeper, &dispatch, i);
            }
        }
    }
    if points.is_empty() {
        let reason = format!("no sampled point could be built: {}", skipped.join("; "));
        return Err(Error::Sweep { kernel: tuner.name.into(), reason });
    }
    // Unbuildable draws are expected (a `device` label here); name them only when they
    // left the sample short.
    if points.len() == wanted {
        skipped.clear();
    }
    let load = HostLoad::since(before);
    let regions: Vec<String> = entry.regions.iter().map(|r| r.to_string()).collect();
    let report =
        VerifyReport::new(tuner.name.into(), path.to_path_buf(), verify.threshold, points, &regions, skipped);
    Ok(VerifyReport {
        load,
        entry_load: entry.load,
        calls: sweeper.timing.calls,
        entry_calls: CallPattern::recorded(entry.after_pause_us),
        ..report
    })
}

/// The time one look at one verified point may take: the verify's budget shared out
/// over `points` points of `looks` looks. Its default is twice the mode's, and where
/// every sample follows a pause, each look's pauses at the minimum rounds on top (see
/// [`Sweeper::budget_of`]).
fn point_cap<H: Harness>(
    sweeper: &Sweeper<'_, H>,
    options: &SweepOptions,
    points: usize,
    looks: usize,
) -> Duration {
    let looks = points.max(1) * looks.max(1);
    sweeper.budget_of(options, 2, looks) / looks as u32
}

/// The points a verify was asked to measure ([`VerifyOptions::at`]) in the kernel's
/// terms; an error naming the first that is not a point of the kernel's axes within
/// the sweep's range, and the axes and range it needs.
fn given_points(
    tuner: &'static KernelInfo,
    at: &[BTreeMap<String, serde_json::Value>],
) -> Result<Vec<Vec<GridValue>>, Error> {
    at.iter()
        .map(|named| {
            named_point(tuner, named)
                .filter(|p| within_grid(tuner, p) && named.len() == tuner.axes.len())
                .ok_or_else(|| Error::Sweep {
                    kernel: tuner.name.into(),
                    reason: format!(
                        "{} is not a point of the sweep to verify at: give every axis once, {}",
                        serde_json::json!(named),
                        axes_and_ranges(tuner)
                    ),
                })
        })
        .collect()
}

/// Each axis with what it takes, for an error message: `n_samples 1000..=1000000,
/// loc host|device`.
fn axes_and_ranges(tuner: &KernelInfo) -> String {
    let axis = |a: &crate::registry::AxisInfo| match grid_range(a) {
        Some((low, high)) => format!("{} {low}..={high}", a.name),
        None => {
            let labels: Vec<String> = a.grid.iter().map(GridValue::to_string).collect();
            format!("{} {}", a.name, labels.join("|"))
        }
    };
    tuner.axes.iter().map(axis).collect::<Vec<_>>().join(", ")
}

/// Measures `point` as a verify does (the entry's choice in every round), once: its
/// index among the sweeper's results and the point as verified. `None` where its inputs
/// cannot be built here or nothing is judged.
pub(super) fn recheck<H: Harness>(
    sweeper: &mut Sweeper<'_, H>,
    point: &[GridValue],
    options: &SweepOptions,
    verify: &VerifyOptions,
) -> Option<(usize, VerifiedPoint)> {
    let dispatch = Arc::clone(sweeper.judged.as_ref()?);
    let index =
        sweeper.measure(point, point_cap(sweeper, options, verify.point_count(), verify.looks)).ok()?;
    Some((index, verified_point(sweeper, &dispatch, index)))
}

fn label<H: Harness>(sweeper: &Sweeper<'_, H>, candidate: usize) -> String {
    let c = sweeper.plan.candidates[candidate];
    let name = sweeper.tuner.variants[c.variant].name;
    c.block_size.map_or_else(|| name.to_string(), |b| format!("{name}/{b}"))
}

fn verified_point<H: Harness>(sweeper: &Sweeper<'_, H>, dispatch: &Dispatch, index: usize) -> VerifiedPoint {
    let (point, result) = &sweeper.results[index];
    let axes: Vec<crate::AxisValue<'_>> = point.iter().map(|v| v.axis_value()).collect();
    let choice = dispatch.explain(&axes);
    let region = match choice.source {
        ChoiceSource::Region { index, .. } => Some(index),
        ChoiceSource::Fallback { .. } => None,
    };
    let times_ns = times_by_label(sweeper, &look_of(&result.timed));
    let chosen = match choice.block_size {
        Some(b) => format!("{}/{b}", choice.variant),
        None => choice.variant.to_string(),
    };
    let (fastest, regret) = regret_among(&times_ns, &chosen);
    // Each look's own regret, where the point was looked at more than once.
    let look_regrets = if result.looks.is_empty() {
        vec![regret]
    } else {
        result.looks.iter().map(|look| regret_among(&times_by_label(sweeper, look), &chosen).1).collect()
    };
    VerifiedPoint {
        point: point_map(sweeper.tuner, point),
        chosen,
        region,
        fastest,
        regret,
        times_ns,
        look_regrets,
    }
}

/// Each live candidate's cost, by label, as the sweep compares them (see
/// `sweep::timing`): the mean of its runs but the slowest fifth.
fn times_by_label<H: Harness>(sweeper: &Sweeper<'_, H>, look: &LookCosts) -> BTreeMap<String, f64> {
    look.iter().filter(|(c, _)| sweeper.live[*c]).map(|&(c, ns)| (label(sweeper, c), ns)).collect()
}

/// The fastest candidate among `times_ns` and `chosen`'s regret against it. A choice
/// that was not timed (excluded, or unavailable here) counts as the slowest.
fn regret_among(times_ns: &BTreeMap<String, f64>, chosen: &str) -> (String, f64) {
    let (fastest, best) = times_ns
        .iter()
        .min_by(|a, b| a.1.total_cmp(b.1))
        .map_or((String::new(), f64::NAN), |(k, v)| (k.clone(), *v));
    let chosen_ns =
        times_ns.get(chosen).copied().unwrap_or_else(|| times_ns.values().copied().fold(f64::NAN, f64::max));
    (fastest, chosen_ns / best)
}
