//! A whole sweep: every grid point measured, winners picked, regions derived, one
//! entry written.

use super::harness::Harness;
use super::measure::{PointResult, Rounds, measure_point};
use super::options::{SweepMode, SweepOptions, SweepReport};
use super::plan::Plan;
use super::progress::Progress;
use super::timing::pick_winner;
use crate::decision::{GridValues, Winner, compact_regions};
use crate::entry::{Entry, Exclusion, Measurement, SCHEMA};
use crate::registry::{SweepValue, Tuner, TunerAxis};
use crate::{Error, KernelTuningCache, Provenance};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Sweeps `tuner`'s kernel through `harness` and writes one entry to the store.
///
/// For each grid point: build the inputs, verify every available (variant, block
/// size) against the reference, time them interleaved, keep median and spread. A
/// candidate whose output ever differs from the reference's is excluded everywhere
/// and reported with the grid point. Winners per point (the fallback keeps a point
/// within the noise of the fastest) are compacted into regions.
///
/// A point whose inputs cannot be built here (`harness.build` says why: e.g. a
/// `device` label on a host without a device) is skipped and recorded in
/// [`Entry::excluded`] with variant `*`, the point and the reason; regions are derived
/// on the sub-grid of measured points. The table may then extend the measured winners
/// to a skipped label, as it extends them beyond a numeric grid's top; such inputs
/// cannot exist on this host anyway. A sweep where no point can be built fails.
pub fn run<H: Harness>(
    tuner: &'static Tuner,
    harness: &H,
    options: &SweepOptions,
) -> Result<SweepReport, Error> {
    let fail = |reason: String| Error::Sweep { kernel: tuner.name.to_string(), reason };
    // Every CUDA variant measured here runs on the device the entry is for.
    let _device = crate::cuda::DeviceScope::enter(options.device);
    let plan = Plan::new(tuner).map_err(fail)?;
    let cache = open_cache(options)?;
    let (rounds, budget) = limits(options);
    let started = Instant::now();
    let progress = Progress::new(tuner.name, plan.points.len() as u64, options);
    let mut live = vec![true; plan.candidates.len()];
    let mut excluded = plan.unavailable.clone();
    let mut results = Vec::with_capacity(plan.points.len());
    let mut measured = Vec::with_capacity(plan.points.len());
    for (i, point) in plan.points.iter().enumerate() {
        // A point whose inputs cannot be built here (device-resident data on a host
        // without a device, say) is skipped with its reason; regions then come from
        // the points that were measured.
        let inputs = match harness.build(point) {
            Ok(inputs) => inputs,
            Err(reason) => {
                excluded.push(unbuildable(tuner, point, reason));
                progress.point_done(&point_label(tuner, point));
                continue;
            }
        };
        let remaining = budget.saturating_sub(started.elapsed());
        let cap = remaining / (plan.points.len() - i) as u32;
        let result = measure_point(harness, &plan, &live, &inputs, rounds, cap);
        for (candidate, reason) in &result.failed {
            live[*candidate] = false;
            excluded.push(verification_failure(tuner, &plan, *candidate, point, reason));
        }
        progress.point_done(&point_label(tuner, point));
        results.push(result);
        measured.push(point.clone());
    }
    progress.finish();
    let grids = measured_grids(tuner.axes, &measured).map_err(fail)?;
    let measured = Measured { points: measured, grids, results };
    let entry = build_entry(tuner, &plan, &measured, &live, excluded, options, cache.fingerprint())?;
    let entry_path = cache.write_entry(&entry)?;
    let pushed = if options.skip_push { None } else { crate::remote::push_after_sweep(&entry_path, &entry) };
    Ok(SweepReport { kernel: tuner.name.to_string(), entry_path, entry, pushed })
}

pub(super) fn open_cache(options: &SweepOptions) -> Result<KernelTuningCache, Error> {
    let cache = match &options.cache_dir {
        Some(dir) => KernelTuningCache::open(dir)?,
        None => KernelTuningCache::load_or_create()?,
    };
    Ok(match &options.fingerprint {
        Some(fp) => cache.with_fingerprint(fp.clone()),
        None => cache,
    })
}

/// Rounds per point and the kernel's time budget for a mode.
fn limits(options: &SweepOptions) -> (Rounds, Duration) {
    let (rounds, default_budget) = match options.mode {
        SweepMode::Quick => {
            (Rounds { min: 5, max: 21, floor: 3, target_spread: 0.03 }, Duration::from_secs(20))
        }
        SweepMode::Full => {
            (Rounds { min: 15, max: 301, floor: 5, target_spread: 0.01 }, Duration::from_secs(600))
        }
    };
    (rounds, options.budget.unwrap_or(default_budget))
}

fn verification_failure(
    tuner: &Tuner,
    plan: &Plan,
    candidate: usize,
    point: &[SweepValue],
    reason: &str,
) -> Exclusion {
    let c = plan.candidates[candidate];
    Exclusion {
        variant: tuner.variants[c.variant].name.to_string(),
        block_size: c.block_size,
        point: Some(point_map(tuner, point)),
        reason: format!(
            "output differs from the reference `{}`: {reason}",
            tuner.variants[tuner.reference_index()].name
        ),
    }
}

/// Marks a grid point whose inputs could not be built: every variant (`*`) skips it.
fn unbuildable(tuner: &Tuner, point: &[SweepValue], reason: String) -> Exclusion {
    Exclusion {
        variant: "*".into(),
        block_size: None,
        point: Some(point_map(tuner, point)),
        reason: format!("inputs could not be built, point skipped: {reason}"),
    }
}

/// The grid the measured points cover: per axis, the values some measured point has.
/// Regions are derived on that sub-grid, so it must be whole: the measured points
/// must be exactly its cartesian product (dropping a label such as `device` keeps it
/// whole; skipping scattered points does not, and is an error).
fn measured_grids(axes: &[TunerAxis], measured: &[Vec<SweepValue>]) -> Result<Vec<GridValues>, String> {
    if measured.is_empty() {
        return Err("no grid point's inputs could be built (see the excluded points)".into());
    }
    let sub: Vec<Vec<SweepValue>> = (0..axes.len())
        .map(|a| {
            let mut values: Vec<SweepValue> = Vec::new();
            for v in axes[a].grid {
                if !values.contains(v) && measured.iter().any(|p| p[a] == *v) {
                    values.push(*v);
                }
            }
            values
        })
        .collect();
    if sub.iter().map(Vec::len).product::<usize>() != measured.len() {
        return Err("the points whose inputs could be built do not form a whole sub-grid".into());
    }
    Ok(sub.iter().map(|g| grid_values(g)).collect())
}

/// The points measured (grid order), their sub-grid and their results.
struct Measured {
    points: Vec<Vec<SweepValue>>,
    grids: Vec<GridValues>,
    results: Vec<PointResult>,
}

fn build_entry(
    tuner: &'static Tuner,
    plan: &Plan,
    measured: &Measured,
    live: &[bool],
    excluded: Vec<Exclusion>,
    options: &SweepOptions,
    fingerprint: &str,
) -> Result<Entry, Error> {
    let mut winners = Vec::with_capacity(measured.results.len());
    let mut measurements = Vec::new();
    let mut noise: f64 = 0.0;
    for (point, result) in measured.points.iter().zip(&measured.results) {
        let eligible: Vec<_> = result.timed.iter().copied().filter(|t| live[t.candidate]).collect();
        let winner = pick_winner(&eligible, plan.stable).ok_or_else(|| Error::Sweep {
            kernel: tuner.name.into(),
            reason: format!("no candidate passed verification at {}", point_label(tuner, point)),
        })?;
        if winner.median_ns > 0.0 {
            noise = noise.max(winner.mad_ns / winner.median_ns);
        }
        let c = plan.candidates[winner.candidate];
        winners
            .push(Winner { variant: tuner.variants[c.variant].name.to_string(), block_size: c.block_size });
        for t in &result.timed {
            let c = plan.candidates[t.candidate];
            measurements.push(Measurement {
                point: point_map(tuner, point),
                variant: tuner.variants[c.variant].name.to_string(),
                block_size: c.block_size,
                median_ns: t.median_ns,
                spread_ns: t.mad_ns,
                runs: result.runs,
            });
        }
    }
    let schema = tuner.schema();
    let regions = compact_regions(&schema.axes, &measured.grids, &winners);
    let provenance = Provenance::for_device(&tuner.identity, options.device);
    let entry = Entry {
        schema: SCHEMA,
        kernel: tuner.name.to_string(),
        fingerprint: fingerprint.to_string(),
        code_version: provenance.code_version(),
        provenance,
        created: crate::store::now_rfc3339(),
        axes: schema.axes.clone(),
        regions,
        measurements,
        excluded,
        noise: Some(noise),
        reproduce: Some(super::reproduce::command(tuner, options, fingerprint)),
    };
    entry.table().validate(Some(&schema))?;
    Ok(entry)
}

fn grid_values(grid: &[SweepValue]) -> GridValues {
    let labels: Vec<String> = grid
        .iter()
        .filter_map(|v| match v {
            SweepValue::Label(l) => Some(l.to_string()),
            SweepValue::Num(_) => None,
        })
        .collect();
    if !labels.is_empty() {
        return GridValues::Categorical(labels);
    }
    let mut nums: Vec<f64> =
        grid.iter().filter_map(|v| if let SweepValue::Num(n) = v { Some(*n as f64) } else { None }).collect();
    nums.sort_by(f64::total_cmp);
    nums.dedup();
    GridValues::Numeric(nums)
}

fn point_map(tuner: &Tuner, point: &[SweepValue]) -> BTreeMap<String, serde_json::Value> {
    tuner
        .axes
        .iter()
        .zip(point)
        .map(|(axis, v)| {
            let value = match v {
                SweepValue::Num(n) => serde_json::Value::from(*n),
                SweepValue::Label(l) => serde_json::Value::from(*l),
            };
            (axis.name.to_string(), value)
        })
        .collect()
}

fn point_label(tuner: &Tuner, point: &[SweepValue]) -> String {
    let parts: Vec<String> = tuner
        .axes
        .iter()
        .zip(point)
        .map(|(axis, v)| match v {
            SweepValue::Num(n) => format!("{}={n}", axis.name),
            SweepValue::Label(l) => format!("{}={l}", axis.name),
        })
        .collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_grids_keep_whole_sub_grids_only() {
        let grid_n: &'static [SweepValue] = &[SweepValue::Num(1), SweepValue::Num(2)];
        let grid_loc: &'static [SweepValue] = &[SweepValue::Label("host"), SweepValue::Label("device")];
        let axes = [
            TunerAxis { name: "n", kind: crate::AxisKind::Numeric, grid: grid_n },
            TunerAxis { name: "loc", kind: crate::AxisKind::Categorical, grid: grid_loc },
        ];
        let point = |n, l| vec![SweepValue::Num(n), SweepValue::Label(l)];
        let host_only = [point(1, "host"), point(2, "host")];
        let grids = measured_grids(&axes, &host_only).unwrap();
        assert_eq!(grids[0], GridValues::Numeric(vec![1.0, 2.0]));
        assert_eq!(grids[1], GridValues::Categorical(vec!["host".into()]));
        let scattered = [point(1, "host"), point(2, "device")];
        assert!(measured_grids(&axes, &scattered).unwrap_err().contains("whole sub-grid"));
        assert!(measured_grids(&axes, &[]).unwrap_err().contains("no grid point"));
    }
}
