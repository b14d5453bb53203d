//! Adaptive refinement: where two neighbouring cells along a numeric axis share no
//! acceptable decision, a crossover lies between them; measure at the geometric
//! midpoint and repeat until every crossover is bracketed within a factor.

use super::explore::explore_widest;
use super::lattice::{Bracketing, Cell, Lattice};
use super::look::{Look, look_cost, midpoint, new_point_cost, split};
use crate::registry::GridValue;
use std::collections::HashSet;
use std::time::Duration;

/// The value a region bound takes between two neighbouring axis values: their
/// geometric mean (the middle of the bracket on the log scale sizes live on), rounded
/// down to an integer — sweep values are integers, and `n ≤ ⌊b⌋` answers every integer
/// query as `n ≤ b` does while reading better.
pub(crate) fn bound_between(lo: f64, hi: f64) -> f64 {
    let middle = if lo > 0.0 { (lo * hi).sqrt() } else { (lo + hi) / 2.0 };
    middle.floor().max(lo)
}

/// Refines `lattice` along its numeric axes (`numeric[a]`), the bracket with the most
/// at stake first (see [`weightiest_open_bracket`]), so the budget is spread over all
/// crossovers and goes first where a wrong region would cost the most. `measure` times
/// one new point (`None`: it could not be built); `afford(costs)` says whether more
/// points, one per expected time in `costs` (see [`look_cost`] and [`new_point_cost`];
/// `None`: not known), fit the budget; it is asked about looks not taken, so it only
/// answers. A bracket whose split does not fit, or whose new
/// value would grow the lattice past `max_cells` (noise can make neighbours disagree
/// anywhere; the table must stay small), is left open and others are tried;
/// refinement stops when none is left. Cells of a new value on lines whose neighbours
/// agree are inferred, not measured.
///
/// Two passes: true crossovers first ([`Bracketing::Crossovers`]), then, with the
/// budget left, every neighbour pair whose winners disagree
/// ([`Bracketing::Disagreements`]). A kernel with few axes affords both; on a wide
/// lattice the crossovers, which cost the most where missed, get the budget first.
///
/// A point where `kept` gives a cell is not refined: its cell is that one, whether the
/// lattice had it or refinement inserts it, and only brackets with an end where `kept`
/// gives none are split. A sweep keeps no point; `retune --refine` keeps every point
/// outside the regions verify flagged, so it re-sweeps those and leaves the rest of the
/// entry's decisions as they were.
///
/// A bracket of the second pass whose split does not fit, but across which no line is
/// a true crossover (one end's winner is near the fastest at the other end), gets its
/// new value anyway, every cell inferred (see [`Cell::inferred`]): the sizes between
/// the ends then take what both ends measured near the fastest, not the lower end's
/// winner up to the bracket's middle. At 2 features `joint_hist_batched`'s `pairs` won
/// by 1–5% with `par_pairs` near it, and `par_pairs` won at 5; left open, the bracket
/// answered `pairs` up to 3 features, where `par_pairs` ran 1.25–1.68× faster (2 of 8
/// seeded runs of `cargo bench --bench tuning_quality`).
///
/// Before a bracket is split, the measured cells at its ends get one second look
/// ([`Look::Again`]) each, as far as the budget affords them with the split (see
/// [`confirm_ends`]): a crossover seen once may be one point measured while the host
/// was busy, and bisecting towards it would carve a wrong region out of the right one.
///
/// Once no bracket is left open, the widest bracket wider than 4× is measured at its
/// middle whatever its ends decide (see [`explore_widest`]), and the two passes run
/// again on what that showed, until nothing is left to explore or the budget is gone.
/// Returns the number of points measured, second looks included.
pub(crate) fn refine(
    lattice: &mut Lattice,
    numeric: &[bool],
    factor: f64,
    max_cells: usize,
    kept: &dyn Fn(&[GridValue]) -> Option<Cell>,
    measure: &mut dyn FnMut(Look<'_>) -> Option<Cell>,
    afford: &mut dyn FnMut(&[Option<Duration>]) -> bool,
) -> usize {
    let mut measured = 0;
    let mut looked_again = HashSet::new();
    // Brackets too costly for what is left (their values on the axis): narrower ones,
    // crossing fewer lines, may still fit. Stopping at the first that did not fit
    // left `joint_hist_batched` with 17–25 regions in half the runs, its widest
    // bracket crossing 36 lines when the grid had taken most of the budget.
    let mut too_costly: HashSet<(usize, GridValue, GridValue)> = HashSet::new();
    let mut unexplorable = HashSet::new();
    loop {
        for bracketing in [Bracketing::Crossovers, Bracketing::Disagreements] {
            while let Some(Bracket { axis, i, mid, lines }) =
                weightiest_open_bracket(lattice, numeric, factor, bracketing, kept, &too_costly)
            {
                let bracket = (axis, lattice.values[axis][i], lattice.values[axis][i + 1]);
                if !lattice.has_room_on(axis, max_cells) {
                    too_costly.insert(bracket);
                    continue;
                }
                // Where no line across the bracket is a true crossover, a new value's cells
                // can all be inferred: the split costs nothing.
                let inferable = bracketing == Bracketing::Disagreements
                    && lines.iter().all(|coords| {
                        let (lo, hi) = lattice.neighbours(axis, coords, i);
                        !Cell::crossover(lo, hi, Bracketing::Crossovers)
                    });
                let infer_all =
                    match confirm_ends(lattice, axis, i, &lines, &mut looked_again, measure, afford) {
                        Some(0) => false,
                        Some(looked) => {
                            // The ends may agree now: find the weightiest open bracket again.
                            measured += looked;
                            continue;
                        }
                        None if inferable => true,
                        None => {
                            too_costly.insert(bracket);
                            continue;
                        }
                    };
                let infer = |lo: &Cell, hi: &Cell| infer_all || !Cell::crossover(lo, hi, bracketing);
                measured += split(lattice, (axis, i, mid), kept, &infer, measure);
            }
        }
        match explore_widest(lattice, (numeric, max_cells), kept, &mut unexplorable, measure, afford) {
            0 => break,
            explored => measured += explored,
        }
    }
    measured
}

/// Gives the measured cells at the ends of the crossing `lines` (see
/// [`crossing_lines`]) between value indices `i` and `i + 1` of `axis` their second
/// looks, cheapest first, while the budget affords each look with the bracket's
/// split (see [`split_costs`]) still after it: how many were looked at again, or
/// `None` when not even the split fits.
///
/// Looks and split are priced together because looks alone could spend what the split
/// needed: `joint_hist_batched`'s bracket from 1 to 5 features crosses 18–31 lines,
/// and their 36–62 second looks left too little for its split in 3 of 6 traced
/// sweeps, so every size up to 2 features took the one-feature decision (`par_samples`
/// or `par_split`, where `pairs` ran 1.6–2.3× faster). The dear looks are the ones
/// skipped: a long measurement is the one a busy moment spoils least.
fn confirm_ends(
    lattice: &mut Lattice,
    axis: usize,
    i: usize,
    lines: &[Vec<usize>],
    looked_again: &mut HashSet<usize>,
    measure: &mut dyn FnMut(Look<'_>) -> Option<Cell>,
    afford: &mut dyn FnMut(&[Option<Duration>]) -> bool,
) -> Option<usize> {
    let split = split_costs(lattice, axis, i, lines, looked_again);
    let mut ends: Vec<(usize, usize)> = Vec::new();
    for coords in lines {
        let mut coords = coords.clone();
        for end in [i, i + 1] {
            coords[axis] = end;
            let at = lattice.flat(&coords);
            match lattice.cells[at].result {
                Some(result)
                    if !looked_again.contains(&result) && !ends.iter().any(|&(_, r)| r == result) =>
                {
                    ends.push((at, result));
                }
                _ => {}
            }
        }
    }
    // A stored entry's cell (cost unknown) goes last, as the dearest.
    ends.sort_by_key(|&(at, _)| look_cost(&lattice.cells[at]).unwrap_or(Duration::MAX));
    let mut looked = 0;
    for (at, result) in ends {
        let costs: Vec<Option<Duration>> =
            std::iter::once(look_cost(&lattice.cells[at])).chain(split.iter().copied()).collect();
        if !afford(&costs) {
            break;
        }
        looked_again.insert(result);
        looked += 1;
        if let Some(cell) = measure(Look::Again(result)) {
            lattice.cells[at] = cell;
        }
    }
    (looked > 0 || afford(&split)).then_some(looked)
}

/// What splitting the bracket between value indices `i` and `i + 1` of `axis` is
/// expected to take: one new point per crossing line (see [`new_point_cost`]).
fn split_costs(
    lattice: &Lattice,
    axis: usize,
    i: usize,
    lines: &[Vec<usize>],
    looked_again: &HashSet<usize>,
) -> Vec<Option<Duration>> {
    lines
        .iter()
        .map(|coords| {
            let (lo, hi) = lattice.neighbours(axis, coords, i);
            new_point_cost(one_look(lo, looked_again), one_look(hi, looked_again))
        })
        .collect()
}

/// What one of `cell`'s looks took: its second look, if it had one, doubled its `took`.
fn one_look(cell: &Cell, looked_again: &HashSet<usize>) -> Duration {
    let twice = cell.result.is_some_and(|r| looked_again.contains(&r));
    if twice { cell.took / 2 } else { cell.took }
}

/// An open bracket along `axis`, between value indices `i` and `i + 1`.
struct Bracket {
    axis: usize,
    i: usize,
    /// The value refinement measures at.
    mid: u64,
    /// The lines across it that disagree (see [`crossing_lines`]).
    lines: Vec<Vec<usize>>,
}

/// The open bracket with the most at stake.
///
/// A bracket weighs its width (the log of its ratio) times the log of the largest
/// stake across it (see [`Cell::stake`]) on any line whose winners disagree: the area
/// of regret a wrong region could cover. Only its crossing lines are measured; the
/// others' new cells are inferred, so the split repairs them too. Weighed by the
/// crossing lines alone, `joint_hist_batched`'s bracket from 2 to 5 features (two
/// crossing lines of 18, stake 1.4; `par_pairs` 1.4–1.7× faster than the 2-feature
/// winner `pairs` at 5 on the others) waited behind brackets of smaller stakes until
/// the budget was gone, and 3 features took `pairs` (5 of 8 seeded runs of `cargo
/// bench --bench tuning_quality`).
///
/// Width alone let `joint_hist_batched` spend its budget halving `n_samples`
/// brackets between near-tied variants while `n_features` 1..5, where `pairs` is 2.5–3×
/// faster than the one-feature winner from two features on, stayed open; by the time
/// it was the widest it crossed 48 lines, more than the budget had left.
fn weightiest_open_bracket(
    lattice: &Lattice,
    numeric: &[bool],
    factor: f64,
    bracketing: Bracketing,
    kept: &dyn Fn(&[GridValue]) -> Option<Cell>,
    too_costly: &HashSet<(usize, GridValue, GridValue)>,
) -> Option<Bracket> {
    let mut best: Option<(f64, Bracket)> = None;
    for (axis, values) in lattice.values.iter().enumerate() {
        if !numeric[axis] {
            continue;
        }
        for i in 0..values.len().saturating_sub(1) {
            let (GridValue::Int(lo), GridValue::Int(hi)) = (values[i], values[i + 1]) else { continue };
            let Some(mid) = midpoint(lo, hi, factor) else { continue };
            if too_costly.contains(&(axis, values[i], values[i + 1])) {
                continue;
            }
            let lines = crossing_lines(lattice, axis, i, bracketing, kept);
            if lines.is_empty() {
                continue;
            }
            // The stake over every line that disagrees, not only the crossing ones: a
            // split infers the new cells of the others from what both their ends
            // measured near the fastest, so it repairs them too.
            let disagreeing = match bracketing {
                Bracketing::Crossovers => crossing_lines(lattice, axis, i, Bracketing::Disagreements, kept),
                Bracketing::Disagreements => lines.clone(),
            };
            let Some(stake) = disagreeing
                .iter()
                .map(|coords| {
                    let (lo, hi) = lattice.neighbours(axis, coords, i);
                    Cell::stake(lo, hi)
                })
                .reduce(f64::max)
            else {
                continue;
            };
            // `lo = 0` is a bracket of unbounded ratio; a stake of 1 still counts a little.
            let width = if lo == 0 { f64::MAX } else { (hi as f64 / lo as f64).ln() };
            let weight = width * stake.ln().max(1e-3);
            if best.as_ref().is_none_or(|(w, _)| weight > *w) {
                best = Some((weight, Bracket { axis, i, mid, lines }));
            }
        }
    }
    best.map(|(_, b)| b)
}

/// The lines along `axis` with a crossover (see [`Cell::crossover`]) between value
/// indices `i` and `i + 1` and an end that is not `kept`, each as the coordinates of
/// its cell at `i`.
fn crossing_lines(
    lattice: &Lattice,
    axis: usize,
    i: usize,
    bracketing: Bracketing,
    kept: &dyn Fn(&[GridValue]) -> Option<Cell>,
) -> Vec<Vec<usize>> {
    let is_kept = |end: usize, coords: &[usize]| {
        let mut at = coords.to_vec();
        at[axis] = end;
        kept(&lattice.point(lattice.flat(&at))).is_some()
    };
    (0..lattice.cells.len())
        .map(|flat| lattice.coords(flat))
        .filter(|coords| {
            coords[axis] == i && {
                let (lo, hi) = lattice.neighbours(axis, coords, i);
                Cell::crossover(lo, hi, bracketing) && [i, i + 1].into_iter().any(|end| !is_kept(end, coords))
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "refine_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "refine_explore_tests.rs"]
mod explore_tests;
