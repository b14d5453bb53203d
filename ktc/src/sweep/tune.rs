//! A whole sweep: every grid point measured, crossovers refined, close calls looked at
//! again, winners picked, regions derived, one entry written.

use super::derive::{Measured, build_entry};
use super::harness::Harness;
use super::lattice::{Cell, Lattice};
use super::progress::Progress;
use super::rng::Rng;
use super::rounds::refine_in_rounds;
use super::sweeper::{Sweeper, open_cache, point_label, point_map};
use super::{SweepOptions, SweepReport};
use crate::entry::Exclusion;
use crate::registry::{AxisInfo, GridValue, KernelInfo};
use crate::warn::warn_once;
use crate::{CpuTimes, Error, HostLoad};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The share of the budget the grid may take when refinement follows.
const GRID_SHARE: f64 = 0.6;

/// The cell a point keeps, where refinement does not look (see
/// [`refine`](super::refine::refine)); `None`
/// where it does.
pub(super) type Kept<'f> = Box<dyn Fn(&[GridValue]) -> Option<Cell> + 'f>;

/// What `retune --refine` continues from: the sweeper with the points kept, the lattice
/// rebuilt from the entry, and the cells refinement leaves as they are.
pub(super) struct Seed<'a, 'f, H: Harness> {
    pub sweeper: Sweeper<'a, H>,
    pub lattice: Lattice,
    pub kept: Kept<'f>,
    /// What the entry's own sweep measured under, for the measurements it keeps.
    pub load: Option<HostLoad>,
    /// The entry's state margin (log units, see [`super::state`]): its kept
    /// measurements are decided again, and with the margin they were decided by they
    /// keep their decisions.
    pub state_margin: Option<f64>,
}

/// A sweep from scratch, or (`seed`) continuing from a lattice rebuilt from an entry.
pub(super) fn tune<H: Harness>(
    tuner: &'static KernelInfo,
    harness: &H,
    options: &SweepOptions,
    seed: Option<Seed<'_, '_, H>>,
) -> Result<SweepReport, Error> {
    let fail = |reason: String| Error::Sweep { kernel: tuner.name.to_string(), reason };
    let cache = open_cache(options)?;
    let started = Instant::now();
    let cpu = CpuTimes::now();
    let seeded = seed.is_some();
    let (mut sweeper, mut lattice, kept, kept_load, kept_margin, budget) = match seed {
        Some(Seed { sweeper, lattice, kept, load, state_margin }) => {
            let budget = sweeper.budget(options);
            (sweeper, lattice, kept, load, state_margin, budget)
        }
        None => {
            let mut sweeper = Sweeper::new(tuner, harness, options)?;
            let budget = sweeper.budget(options);
            let grid_budget = if options.grid_only { budget } else { budget.mul_f64(GRID_SHARE) };
            sweep_grid(&mut sweeper, options, grid_budget);
            // Over the grid alone: refined points gather at crossovers.
            sweeper.rank_by_grid();
            let lattice = grid_lattice(&sweeper).map_err(fail)?;
            let none: Kept<'_> = Box::new(|_| None);
            (sweeper, lattice, none, None, None, budget)
        }
    };
    if !options.grid_only {
        refine_in_rounds(&mut sweeper, &mut lattice, options, &*kept, (budget, started))?;
    }
    // Decisions from here on (every measured cell is decided again below) treat leads
    // the host's state can reverse as ties; refinement itself split brackets by the
    // looks' own noise.
    let margin = if seeded { kept_margin } else { super::state::margin_of(&sweeper.look_shifts) };
    sweeper.state_margin = margin.unwrap_or(0.0);
    let measured = Measured::new(&sweeper, lattice)?;
    let load = busier(HostLoad::since(cpu), kept_load);
    let entry = build_entry(
        &sweeper,
        &measured,
        options,
        cache.fingerprint(),
        super::reproduce::command(tuner, options, sweeper.timing.calls, cache.fingerprint()),
        load,
        margin,
    )?;
    let entry_path = cache.write_entry(&entry)?;
    if let Some(load) = load.filter(HostLoad::spoils_a_tuning) {
        warn_once(format!(
            "{}: tuned while {load}; its choices may not fit this machine once it is quiet: `ktc retune {}` then",
            tuner.name, tuner.name
        ));
    }
    let pushed = if options.skip_push { None } else { crate::remote::push_after_sweep(&entry_path, &entry) };
    Ok(SweepReport { kernel: tuner.name.to_string(), entry_path, entry, pushed, verify: None })
}

/// Each share the larger of the two loads; either where the other is missing.
fn busier(a: Option<HostLoad>, b: Option<HostLoad>) -> Option<HostLoad> {
    match (a, b) {
        (Some(a), Some(b)) => Some(HostLoad { stolen: a.stolen.max(b.stolen), other: a.other.max(b.other) }),
        (a, b) => a.or(b),
    }
}

/// Measures every grid point within `budget`, in [`grid_order`], recording unbuildable
/// ones.
fn sweep_grid<H: Harness>(sweeper: &mut Sweeper<'_, H>, options: &SweepOptions, budget: Duration) {
    let tuner = sweeper.tuner;
    let points = std::mem::take(&mut sweeper.plan.points);
    let progress = Progress::new(tuner.name, points.len() as u64, options);
    let started = Instant::now();
    for (i, point) in grid_order(points.len()).into_iter().map(|k| &points[k]).enumerate() {
        let cap = budget.saturating_sub(started.elapsed()) / (points.len() - i) as u32;
        // A point whose inputs cannot be built here (device-resident data on a host
        // without a device, say) is skipped with its reason; regions then come from
        // the points that were measured.
        if let Err(reason) = sweeper.measure(point, cap) {
            sweeper.excluded.push(unbuildable(tuner, point, reason.to_string()));
        }
        progress.point_done(&point_label(tuner, point));
    }
    progress.finish();
    sweeper.plan.points = points;
}

/// The order the grid's `len` points are measured in: shuffled, with a fixed seed.
///
/// A state of the host can last a while (at 1 000 samples × 30 features `par_pairs` ran
/// 1.35× slower than `pairs` in stretches, in 86 of one process's 160 five-round windows
/// of its first second, and at 0.73× of it otherwise), and in grid order, last axis
/// fastest, such a stretch fell on neighbouring points: they agreed on the wrong
/// winner, so no crossover showed between them and refinement never looked again.
/// Shuffled, a stretch falls on scattered points, each of which then disagrees
/// with its neighbours and gets its second look. Twelve alternating runs a side of
/// `cargo bench --bench tuning_quality`: all four targets of issue 11 met in 9 and 11
/// runs (`joint_hist_batched`, `discretize`) shuffled, 9 and 8 in grid order.
fn grid_order(len: usize) -> Vec<usize> {
    Rng(0x6B74_6772_6964_2121).shuffled(&(0..len).collect::<Vec<_>>())
}

/// The lattice of the measured grid points: numeric values ascending, labels in grid
/// order.
fn grid_lattice<H: Harness>(sweeper: &Sweeper<'_, H>) -> Result<Lattice, String> {
    let points: Vec<Vec<GridValue>> = sweeper.results.iter().map(|(p, _)| p.clone()).collect();
    let mut values = measured_grids(sweeper.tuner.axes, &points)?;
    for v in &mut values {
        v.sort_by_key(|x| match x {
            GridValue::Int(n) => (*n, 0),
            GridValue::Label(_) => (0, 0),
        });
    }
    let index: HashMap<&[GridValue], usize> =
        points.iter().enumerate().map(|(i, p)| (p.as_slice(), i)).collect();
    let mut lattice = Lattice { values, cells: Vec::new() };
    let total: usize = lattice.values.iter().map(Vec::len).product();
    for flat in 0..total {
        let i = index[lattice.point(flat).as_slice()];
        let cell = sweeper.cell(i).map_err(|e| e.to_string())?;
        lattice.cells.push(cell);
    }
    Ok(lattice)
}

/// Marks a grid point whose inputs could not be built: every variant (`*`) skips it.
fn unbuildable(tuner: &KernelInfo, point: &[GridValue], reason: String) -> Exclusion {
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
fn measured_grids(axes: &[AxisInfo], measured: &[Vec<GridValue>]) -> Result<Vec<Vec<GridValue>>, String> {
    if measured.is_empty() {
        return Err("no grid point's inputs could be built (see the excluded points)".into());
    }
    let sub: Vec<Vec<GridValue>> = (0..axes.len())
        .map(|a| {
            let mut values: Vec<GridValue> = Vec::new();
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
    Ok(sub)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_re_sweep_records_the_busier_of_its_own_load_and_its_entry_s() {
        let (a, b) = (HostLoad { stolen: 0.02, other: 0.30 }, HostLoad { stolen: 0.12, other: 0.01 });
        assert_eq!(busier(Some(a), Some(b)), Some(HostLoad { stolen: 0.12, other: 0.30 }));
        assert_eq!(busier(Some(a), None), Some(a));
        assert_eq!(busier(None, Some(b)), Some(b));
        assert_eq!(busier(None, None), None);
    }

    #[test]
    fn the_grid_is_measured_in_a_fixed_shuffled_order() {
        let order = grid_order(24);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, (0..24).collect::<Vec<_>>(), "every point once");
        assert_eq!(order, grid_order(24), "the same order every sweep");
        // Grid neighbours (last axis fastest) are mostly not measured one after another.
        let adjacent = order.windows(2).filter(|w| w[0].abs_diff(w[1]) == 1).count();
        assert!(adjacent <= 4, "{adjacent} grid neighbours back to back in {order:?}");
    }

    #[test]
    fn measured_grids_keep_whole_sub_grids_only() {
        let grid_n: &'static [GridValue] = &[GridValue::Int(1), GridValue::Int(2)];
        let grid_loc: &'static [GridValue] = &[GridValue::Label("host"), GridValue::Label("device")];
        let axes = [
            AxisInfo { name: "n", kind: crate::AxisKind::Numeric, grid: grid_n },
            AxisInfo { name: "loc", kind: crate::AxisKind::Categorical, grid: grid_loc },
        ];
        let point = |n, l| vec![GridValue::Int(n), GridValue::Label(l)];
        let host_only = [point(1, "host"), point(2, "host")];
        let grids = measured_grids(&axes, &host_only).unwrap();
        assert_eq!(grids[0], grid_n.to_vec());
        assert_eq!(grids[1], vec![GridValue::Label("host")]);
        let scattered = [point(1, "host"), point(2, "device")];
        assert!(measured_grids(&axes, &scattered).unwrap_err().contains("whole sub-grid"));
        assert!(measured_grids(&axes, &[]).unwrap_err().contains("no grid point"));
    }
}
