//! From what a sweep measured to the entry: decisions per cell of the refined grid,
//! regions compacted within the regret tolerance, bounds at the brackets' middles, and
//! every measurement with each of its runs.

use super::SweepOptions;
use super::harness::Harness;
use super::lattice::{Cell, Lattice};
use super::refine::bound_between;
use super::sweeper::{Sweeper, numeric_axes, point_map};
use crate::decision::{GridValues, Winner, compact_regions_within};
use crate::entry::{Entry, Measurement, SCHEMA};
use crate::registry::GridValue;
use crate::{Condition, Error, HostLoad, Provenance, Region};

/// The refined grid with every cell's decision final (after every exclusion).
pub(super) struct Measured {
    lattice: Lattice,
}

impl Measured {
    /// Recomputes measured cells now that every exclusion and look is known, and infers
    /// the inferred ones again from them (see [`Lattice::infer_again`]); every other cell
    /// keeps the decisions still live.
    pub(super) fn new<H: Harness>(sweeper: &Sweeper<'_, H>, mut lattice: Lattice) -> Result<Measured, Error> {
        for cell in lattice.cells.iter_mut().filter(|c| c.result.is_none()) {
            keep_live(sweeper, cell);
        }
        // After the ends are final and live: what a cell infers from them is live too.
        lattice.decide_measured_again(|i| sweeper.cell(i))?;
        Ok(Measured { lattice })
    }
}

/// Drops from an unmeasured cell the decisions that failed verification somewhere;
/// where none is left, the preferred live one.
fn keep_live<H: Harness>(sweeper: &Sweeper<'_, H>, cell: &mut Cell) {
    let live: Vec<usize> = cell.acceptable.iter().copied().filter(|&c| sweeper.live[c]).collect();
    cell.acceptable = if live.is_empty() {
        sweeper.plan.preference.iter().copied().filter(|&c| sweeper.live[c]).take(1).collect()
    } else {
        live
    };
}

/// The entry for what `sweeper` measured on `measured`'s grid.
pub(super) fn build_entry<H: Harness>(
    sweeper: &Sweeper<'_, H>,
    measured: &Measured,
    options: &SweepOptions,
    fingerprint: &str,
    reproduce: String,
    load: Option<HostLoad>,
    state_margin: Option<f64>,
) -> Result<Entry, Error> {
    let tuner = sweeper.tuner;
    let lattice = &measured.lattice;
    let winner = |c: usize| {
        let candidate = sweeper.plan.candidates[c];
        Winner {
            variant: tuner.variants[candidate.variant].name.to_string(),
            block_size: candidate.block_size,
        }
    };
    let acceptable: Vec<Vec<Winner>> = lattice
        .answerable(&numeric_axes(tuner))
        .iter()
        .map(|a| a.iter().map(|&c| winner(c)).collect())
        .collect();
    let schema = tuner.schema();
    let grids: Vec<GridValues> = lattice.values.iter().map(|v| grid_values(v)).collect();
    let mut regions = compact_regions_within(&schema.axes, &grids, &acceptable);
    if !options.grid_only {
        place_bounds_between(&mut regions, &grids, &schema.axes);
    }
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
        measurements: measurements(sweeper),
        excluded: sweeper.excluded.clone(),
        noise: Some(noise(sweeper, &lattice.cells)),
        reproduce: Some(reproduce),
        load,
        state_margin: state_margin.map(f64::exp),
        after_pause_us: sweeper.timing.calls.to_recorded(),
    };
    entry.table().validate(Some(&schema))?;
    Ok(entry)
}

/// Every candidate timed at every point, with each run in nanoseconds.
fn measurements<H: Harness>(sweeper: &Sweeper<'_, H>) -> Vec<Measurement> {
    let tuner = sweeper.tuner;
    let mut out = Vec::new();
    for (point, result) in &sweeper.results {
        for t in &result.timed {
            let c = sweeper.plan.candidates[t.candidate];
            out.push(Measurement {
                point: point_map(tuner, point),
                variant: tuner.variants[c.variant].name.to_string(),
                block_size: c.block_size,
                median_ns: t.median_ns,
                spread_ns: t.mad_ns,
                runs: t.samples.len() as u32,
                samples_ns: t.samples.iter().map(|s| s.round() as u64).collect(),
            });
        }
    }
    out
}

/// The largest spread / median of a measured cell's winner.
fn noise<H: Harness>(sweeper: &Sweeper<'_, H>, cells: &[Cell]) -> f64 {
    let mut noise: f64 = 0.0;
    for cell in cells {
        let Some(i) = cell.result else { continue };
        let winner = cell.acceptable[0];
        if let Some(t) = sweeper.results[i].1.timed.iter().find(|t| t.candidate == winner)
            && t.median_ns > 0.0
        {
            noise = noise.max(t.mad_ns / t.median_ns);
        }
    }
    noise
}

/// Moves every numeric bound from a measured value to the middle (geometric) of the
/// bracket it closes: a query between two measured values takes the nearer one's
/// decision on the log scale, not always the upper one's.
fn place_bounds_between(regions: &mut [Region], grids: &[GridValues], axes: &[crate::Axis]) {
    for region in regions {
        for (name, condition) in region.when.iter_mut() {
            let Some(a) = axes.iter().position(|x| &x.name == name) else { continue };
            let (Condition::Le(bound), GridValues::Numeric(values)) = (&*condition, &grids[a]) else {
                continue;
            };
            if let Some(i) = values.iter().position(|v| v == bound)
                && i + 1 < values.len()
            {
                *condition = Condition::Le(bound_between(values[i], values[i + 1]));
            }
        }
    }
}

pub(super) fn grid_values(grid: &[GridValue]) -> GridValues {
    let labels: Vec<String> = grid
        .iter()
        .filter_map(|v| match v {
            GridValue::Label(l) => Some(l.to_string()),
            GridValue::Int(_) => None,
        })
        .collect();
    if !labels.is_empty() {
        return GridValues::Categorical(labels);
    }
    let mut nums: Vec<f64> =
        grid.iter().filter_map(|v| if let GridValue::Int(n) = v { Some(*n as f64) } else { None }).collect();
    nums.sort_by(f64::total_cmp);
    nums.dedup();
    GridValues::Numeric(nums)
}
