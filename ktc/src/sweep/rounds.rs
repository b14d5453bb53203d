//! Refinement in rounds: crossovers bracketed, close calls settled, the measured cells
//! decided again; where a winner changed, another round with what is left of the budget.

use super::SweepOptions;
use super::harness::Harness;
use super::lattice::{Cell, Lattice};
use super::look::Look;
use super::progress::Progress;
use super::refine::refine;
use super::settle::settle;
use super::sweeper::{Sweeper, numeric_axes, point_label};
use crate::Error;
use crate::registry::GridValue;
use std::time::{Duration, Instant};

/// The share of the budget refinement leaves to [`settle`], the further looks at close
/// calls. Refinement fills whatever it is given (its second pass chases every
/// disagreement between neighbours), so settling only ever had what was left: with
/// `joint_hist_batched`'s 14 s, nothing, and 93 close calls out of 107 points kept one
/// look. In 24 alternating runs a side of `cargo bench --bench tuning_quality`, all
/// four targets in 15 against 14: no gain the benchmark can resolve, and no loss.
const SETTLE_SHARE: f64 = 0.15;

/// Refinement stops once every crossover is bracketed within this factor.
const REFINE_FACTOR: f64 = 1.25;

/// Refinement may grow the lattice to this many times the measured grid's cells, or to
/// [`MIN_MAX_CELLS`], whichever is more. Only cells next to a crossover are measured,
/// so the cap bounds the table, not the time. 2048 lets a 3-axis kernel bracket its
/// crossovers on every axis (about 17 × 12 × 10 values for `joint_hist_batched`);
/// the old 256 stopped refinement with brackets of 3× still open, which cost up to
/// 1.66× regret between them. Much more (8192) only chases noise: more regions, no
/// better choices (`cargo bench --bench tuning_quality`).
const MAX_CELLS_PER_GRID_CELL: usize = 8;
const MIN_MAX_CELLS: usize = 2048;

/// The most rounds of refinement and settling one sweep runs (see [`refine_in_rounds`]).
const ROUNDS: usize = 3;

/// Refines `lattice` (see [`refine_lattice`]), settles its close calls (see [`settle`])
/// and decides its measured cells again with the further looks; while that changes
/// some cell's winner and the budget and the cell cap have room, in up to [`ROUNDS`]
/// rounds. The sweep's `budget` counts from `started`.
///
/// Refinement brackets the crossovers the cells show when it runs; settling's further
/// looks can then move a winner where no bracket is open. `discretize`'s grid
/// chose `par_lookup/4` at every point in 5 of 8 seeded runs, so refinement measured
/// nothing; settling then gave 4 bins × 1 000 samples 19 rounds instead of 7, `linear`
/// came out 1.10× ahead there, and with nothing measured between the grid points the bounds
/// went to their middles: `n_bins ≤ 8 and n_samples ≤ 10000 → linear`, where
/// `par_lookup/4` ran 1.4–2.4× faster at 5–8 bins × 2 000–9 600 samples (`cargo bench
/// --bench tuning_quality`: tuned dispatch 0.49–0.79× always `par_lookup/4` in 4 of 8
/// runs). The sweep used 0.7 s of its 14. With the rounds, the next round's second
/// looks at such a point's ends settle it, or its bracket is split: in 8 seeded runs
/// (seeds 17–24) against the build before, every point at ≥ 0.97 of always
/// `par_lookup/4` in 8 runs against 5 (0.799, 0.446, 0.871 in the others).
pub(super) fn refine_in_rounds<H: Harness>(
    sweeper: &mut Sweeper<'_, H>,
    lattice: &mut Lattice,
    options: &SweepOptions,
    kept: &dyn Fn(&[GridValue]) -> Option<Cell>,
    (budget, started): (Duration, Instant),
) -> Result<(), Error> {
    // Room for a few refined values per axis, whatever the grid; counted once, from the
    // lattice refinement starts with: counted per round, the cap grew eightfold each
    // round (`joint_hist_batched`: 2 016 cells after the first, 16 128 after the
    // second, 1.8 s to derive its regions, the sweep 14.4–17.9 s).
    let max_cells = (lattice.cells.len() * MAX_CELLS_PER_GRID_CELL).max(MIN_MAX_CELLS);
    let numeric = numeric_axes(sweeper.tuner);
    for _ in 0..ROUNDS {
        let left = refinement_budget(budget, started.elapsed());
        refine_lattice(sweeper, lattice, (&numeric, max_cells), options, kept, left)?;
        settle(sweeper, lattice, budget.saturating_sub(started.elapsed()));
        // Decided as refinement decides, by the looks' own noise: under the state
        // margin every near-tie would move to the preferred candidate and open
        // brackets between ties (`joint_hist_batched` met all four targets in 11 of 16
        // seeded runs so, against 15 of 16 before the rounds).
        let changed = lattice.decide_measured_again(|i| sweeper.cell(i))?;
        // A lattice at its cap takes no new value: another round would only settle
        // again, and settling more gained nothing the benchmark resolves (see
        // [`SETTLE_SHARE`]) while it took `joint_hist_batched`'s sweep from 8 s to 13.
        let room = numeric.iter().enumerate().any(|(a, &n)| n && lattice.has_room_on(a, max_cells));
        if !changed || !room || refinement_budget(budget, started.elapsed()).is_zero() {
            break;
        }
    }
    Ok(())
}

/// What refinement may spend of the kernel's `budget` once `elapsed` has gone: all but
/// [`SETTLE_SHARE`] of it, so the close calls it leaves get their further looks.
fn refinement_budget(budget: Duration, elapsed: Duration) -> Duration {
    budget.mul_f64(1.0 - SETTLE_SHARE).saturating_sub(elapsed)
}

/// Refines the lattice's crossovers along its `numeric` axes within `budget` and
/// `max_cells`, leaving the `kept` cells as they are.
fn refine_lattice<H: Harness>(
    sweeper: &mut Sweeper<'_, H>,
    lattice: &mut Lattice,
    (numeric, max_cells): (&[bool], usize),
    options: &SweepOptions,
    kept: &dyn Fn(&[GridValue]) -> Option<Cell>,
    budget: Duration,
) -> Result<(), Error> {
    let spent: Duration = sweeper.results.iter().map(|(_, r)| r.elapsed).sum();
    // What a point costs: the mean so far (refined points lie between measured ones).
    let per_point = spent / sweeper.results.len().max(1) as u32;
    let started = Instant::now();
    let progress = Progress::new(sweeper.tuner.name, 0, options);
    let mut failure = None;
    let remaining = || budget.saturating_sub(started.elapsed());
    let mut afford = |costs: &[Option<Duration>]| {
        // A point of unknown cost is priced at half the mean (refinement points end
        // early more often: fewer contenders), none above the mean, the cap each
        // point's race runs under.
        let cost: Duration = costs.iter().map(|c| c.unwrap_or(per_point / 2).min(per_point)).sum();
        let left = remaining();
        !left.is_zero() && left >= cost
    };
    let mut measure = |look: Look<'_>| {
        // Counted here, not where afforded: refinement asks what fits before it
        // decides what to measure.
        progress.add_points(1);
        let cap = per_point.min(remaining());
        let (label, measured) = match look {
            Look::New(point) => (point_label(sweeper.tuner, point), sweeper.measure(point, cap)),
            Look::Again(index) => (
                point_label(sweeper.tuner, &sweeper.results[index].0),
                sweeper.remeasure(index, cap).map(|_| index),
            ),
        };
        progress.point_done(&label);
        let cell = measured.ok().map(|i| sweeper.cell(i));
        match cell {
            Some(Ok(cell)) => Some(cell),
            Some(Err(e)) => {
                failure = Some(e);
                None
            }
            None => None,
        }
    };
    refine(lattice, numeric, REFINE_FACTOR, max_cells, kept, &mut measure, &mut afford);
    progress.finish();
    failure.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refinement_leaves_settling_its_share_of_the_budget() {
        let s = Duration::from_secs;
        // The grid took 4 s of 14: refinement gets 7.9 s, settling at least 2.1.
        assert_eq!(refinement_budget(s(14), s(4)), Duration::from_millis(7_900));
        // A grid that overran the refinement's share leaves refinement nothing.
        assert_eq!(refinement_budget(s(14), s(12)), Duration::ZERO);
        assert_eq!(refinement_budget(s(14), s(20)), Duration::ZERO);
    }
}
