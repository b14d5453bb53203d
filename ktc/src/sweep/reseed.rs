//! The harness side of `retune --refine`: the entry verified, then re-swept in the
//! regions where verify flagged a point, its other decisions kept as they are.

use super::harness::Harness;
use super::lattice::{Cell, Lattice};
use super::measure::PointResult;
use super::plan::{Candidate, candidate_named};
use super::sample::{named_point, within_grid};
use super::sweeper::{Sweeper, limits};
use super::timing::Timed;
use super::tune::{Kept, Seed, tune};
use super::verify::{recheck, verified};
use super::{SweepOptions, SweepReport};
use crate::job::{VerifiedPoint, VerifyOptions, VerifyReport};
use crate::registry::{GridValue, KernelInfo};
use crate::store::recorded_flagged;
use crate::warn::warn_once;
use crate::{AxisKind, Entry, Error};
use std::collections::HashMap;
use std::path::Path;

/// Verifies, then re-sweeps around the flagged points: see [`crate::verify::refine`].
pub(super) fn refine_flagged<H: Harness>(
    tuner: &'static KernelInfo,
    harness: &H,
    options: &SweepOptions,
    verify: &VerifyOptions,
) -> Result<SweepReport, Error> {
    // The re-sweep keeps the entry's other measurements, so it times calls as they were
    // timed: the entry's pattern, whatever the options ask a verify for.
    let verify = &VerifyOptions { calls: None, ..verify.clone() };
    let (mut sweeper, path, entry, mut report) = verified(tuner, harness, options, verify)?;
    let mut flagged: Vec<usize> =
        (0..sweeper.results.len()).filter(|&i| report.flags(&report.points[i])).collect();
    let mut regions: Vec<Option<usize>> = report.flagged.iter().map(|r| r.index).collect();
    for (index, point) in earlier_flags(&mut sweeper, &path, &report, options, verify) {
        if !flagged.contains(&index) {
            flagged.push(index);
        }
        if !regions.contains(&point.region) {
            regions.push(point.region);
        }
        report.earlier.push(point);
    }
    if flagged.is_empty() {
        return Ok(SweepReport {
            kernel: tuner.name.into(),
            entry_path: path,
            entry,
            pushed: None,
            verify: Some(report),
        });
    }
    // From here on it sweeps: no candidate is kept in a race for the old entry's sake.
    sweeper.judged = None;
    sweeper.timing.rounds = limits(options).0;
    // Keep the flagged points' results, drop the others', then add the entry's own.
    let kept: Vec<_> = std::mem::take(&mut sweeper.results)
        .into_iter()
        .enumerate()
        .filter_map(|(i, r)| flagged.contains(&i).then_some(r))
        .collect();
    sweeper.results = kept;
    sweeper.results.extend(stored_results(&sweeper, &entry));
    // An entry that kept no measurements (written by hand, or before sweeps kept
    // them) is re-measured on the grid: inferring from its table alone would let the
    // flagged points' decision spread unchecked.
    let cap = sweeper.budget(options) / sweeper.plan.points.len().max(1) as u32;
    for point in sweeper.plan.points.clone() {
        if !sweeper.results.iter().any(|(p, _)| *p == point) {
            let _ = sweeper.measure(&point, cap);
        }
    }
    sweeper.rank_by_grid();
    let table = TableCells::new(&sweeper, &entry);
    let lattice = seeded_lattice(&sweeper, &table)?;
    // Outside the flagged regions the entry's decisions stand as measured: refining
    // every disagreement of the rebuilt lattice added four times the entry's measurements
    // and grew `joint_hist_batched`'s table from 111 to 624 regions for two flagged
    // points.
    let kept: Kept<'_> = Box::new(move |point| {
        let (region, cell) = table.at(point);
        (!regions.contains(&region)).then_some(cell)
    });
    let mut refined = tune(
        tuner,
        harness,
        options,
        Some(Seed {
            sweeper,
            lattice,
            kept,
            load: entry.load,
            state_margin: super::state::recorded(entry.state_margin),
        }),
    )?;
    refined.verify = Some(report);
    Ok(refined)
}

/// The points earlier verifies of the entry at `path` flagged and recorded beside it,
/// each with its index among the sweeper's results: the sampled point's where this
/// verify sampled it too, else measured now. A recorded point that is not a point of
/// the kernel's axes, or lies outside the sweep's range (where verify never samples; a
/// hostile record could ask for inputs no memory holds), is skipped with a warning.
fn earlier_flags<H: Harness>(
    sweeper: &mut Sweeper<'_, H>,
    path: &Path,
    report: &VerifyReport,
    options: &SweepOptions,
    verify: &VerifyOptions,
) -> Vec<(usize, VerifiedPoint)> {
    let mut earlier = Vec::new();
    for recorded in recorded_flagged(path) {
        let Some(point) = named_point(sweeper.tuner, &recorded).filter(|p| within_grid(sweeper.tuner, p))
        else {
            warn_once(format!(
                "ignoring a point recorded beside {} that is not a point of `{}`'s sweep: {recorded:?}",
                path.display(),
                sweeper.tuner.name
            ));
            continue;
        };
        let sampled = report.points.iter().position(|p| p.point == recorded);
        let found = match sampled {
            Some(i) => Some((i, report.points[i].clone())),
            None => recheck(sweeper, &point, options, verify),
        };
        earlier.extend(found);
    }
    earlier
}

/// The entry's measurements as point results (runs as stored; an old entry without
/// them gives its median thrice).
fn stored_results<H: Harness>(sweeper: &Sweeper<'_, H>, entry: &Entry) -> Vec<(Vec<GridValue>, PointResult)> {
    let mut by_point: Vec<(Vec<GridValue>, PointResult)> = Vec::new();
    for m in &entry.measurements {
        let Some(point) = named_point(sweeper.tuner, &m.point) else { continue };
        let Some(candidate) =
            candidate_named(&sweeper.plan.candidates, sweeper.tuner, &m.variant, m.block_size)
        else {
            continue;
        };
        let samples: Vec<f64> = if m.samples_ns.is_empty() {
            vec![m.median_ns; 3]
        } else {
            m.samples_ns.iter().map(|&s| s as f64).collect()
        };
        let timed = Timed::new(candidate, samples);
        match by_point.iter_mut().find(|(p, _)| *p == point) {
            Some((_, r)) => r.timed.push(timed),
            None => {
                by_point.push((point, PointResult::first_look(vec![timed], Vec::new(), Default::default())))
            }
        }
    }
    by_point
}

/// An entry's decisions as lattice cells: what dispatch answers at a point now.
struct TableCells {
    tuner: &'static KernelInfo,
    table: crate::DecisionTable,
    candidates: Vec<Candidate>,
    reference: usize,
}

impl TableCells {
    fn new<H: Harness>(sweeper: &Sweeper<'_, H>, entry: &Entry) -> TableCells {
        TableCells {
            tuner: sweeper.tuner,
            table: entry.table(),
            candidates: sweeper.plan.candidates.clone(),
            reference: sweeper.plan.reference,
        }
    }

    /// The region matching `point` (`None`: the fallback) and its decision as a cell
    /// (the reference candidate where the region's choice is no candidate here).
    fn at(&self, point: &[GridValue]) -> (Option<usize>, Cell) {
        let tuner = self.tuner;
        let query: Vec<(&str, crate::AxisValue<'_>)> =
            tuner.axes.iter().map(|a| a.name).zip(point.iter().map(|v| v.axis_value())).collect();
        let found = self.table.lookup(&query);
        let candidate =
            found.and_then(|(_, r)| candidate_named(&self.candidates, tuner, &r.variant, r.block_size));
        let c = candidate.unwrap_or(self.reference);
        (found.map(|(i, _)| i), Cell { acceptable: vec![c], near: vec![c], ..Cell::default() })
    }
}

/// The lattice over every value the results cover: measured cells from the results,
/// the others inferred from the entry's table (what dispatch answers there now).
fn seeded_lattice<H: Harness>(sweeper: &Sweeper<'_, H>, table: &TableCells) -> Result<Lattice, Error> {
    let tuner = sweeper.tuner;
    let mut values: Vec<Vec<GridValue>> = vec![Vec::new(); tuner.axes.len()];
    for (point, _) in &sweeper.results {
        for (a, v) in point.iter().enumerate() {
            if !values[a].contains(v) {
                values[a].push(*v);
            }
        }
    }
    for (a, v) in values.iter_mut().enumerate() {
        if tuner.axes[a].kind == AxisKind::Numeric {
            v.sort_by_key(|x| if let GridValue::Int(n) = x { *n } else { 0 });
        }
    }
    let index: HashMap<&[GridValue], usize> =
        sweeper.results.iter().enumerate().map(|(i, (p, _))| (p.as_slice(), i)).collect();
    let mut lattice = Lattice { values, cells: Vec::new() };
    let total: usize = lattice.values.iter().map(Vec::len).product();
    for flat in 0..total {
        let point = lattice.point(flat);
        let cell = match index.get(point.as_slice()) {
            Some(&i) => sweeper.cell(i)?,
            None => table.at(&point).1,
        };
        lattice.cells.push(cell);
    }
    Ok(lattice)
}
