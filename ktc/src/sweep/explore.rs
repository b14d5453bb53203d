//! Exploring wide brackets whose ends agree, with the budget refinement left.
//!
//! Two measured neighbours that pick the same winner say nothing of the sizes far
//! between them: `discretize`'s grid has 1 000 and 100 000 samples, `par_lookup/4`
//! won at both with every bin count, refinement found nothing to bracket, and the sweep
//! used 0.7 s of its 14, while `par_linear/4` ran 1.13–1.25× faster at 2 900–4 000
//! samples × 5–8 bins: such a miss in 3 of 12 seeded runs of `cargo bench --bench
//! tuning_quality` (seeds 31–42), in none of 12 with exploration (a later block of 8
//! runs, while the host mostly gave two threads one core, still had two such points).

use super::lattice::{Cell, Lattice};
use super::look::{Look, midpoint, new_point_cost, split};
use crate::registry::GridValue;
use std::collections::HashSet;
use std::time::Duration;

/// A bracket is explored while its ends are more than this factor apart: every size
/// then lies within a factor of 2 of a measured one.
pub(crate) const EXPLORE_FACTOR: f64 = 4.0;

/// Measures the geometric midpoint of the widest bracket along a numeric axis
/// (`numeric[a]`) wider than [`EXPLORE_FACTOR`] that the budget affords (`afford`, as
/// refinement's) and the cell cap (`max_cells`) has room for, whatever its ends decide:
/// on every line across it whose two ends were measured here (not `kept`); the other
/// new cells are inferred. Returns how many points it measured; zero once no bracket
/// is left, or none fits. Brackets that did not fit go into `unexplorable`.
///
/// One bracket a call: what its new cells show may open crossovers, which refinement
/// brackets before the next wide one is explored.
pub(crate) fn explore_widest(
    lattice: &mut Lattice,
    (numeric, max_cells): (&[bool], usize),
    kept: &dyn Fn(&[GridValue]) -> Option<Cell>,
    unexplorable: &mut HashSet<(usize, GridValue, GridValue)>,
    measure: &mut dyn FnMut(Look<'_>) -> Option<Cell>,
    afford: &mut dyn FnMut(&[Option<Duration>]) -> bool,
) -> usize {
    let mut brackets = wide_brackets(lattice, numeric, unexplorable);
    brackets.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, axis, i, mid) in brackets {
        let bracket = (axis, lattice.values[axis][i], lattice.values[axis][i + 1]);
        let lines = measured_lines(lattice, axis, i, kept);
        let costs: Vec<Option<Duration>> = lines
            .iter()
            .map(|coords| {
                let (lo, hi) = lattice.neighbours(axis, coords, i);
                new_point_cost(lo.took, hi.took)
            })
            .collect();
        if lines.is_empty() || !lattice.has_room_on(axis, max_cells) || !afford(&costs) {
            unexplorable.insert(bracket);
            continue;
        }
        let unmeasured_end = |lo: &Cell, hi: &Cell| lo.result.is_none() || hi.result.is_none();
        return split(lattice, (axis, i, mid), kept, &unmeasured_end, measure);
    }
    0
}

/// The brackets along numeric axes wider than [`EXPLORE_FACTOR`], not `unexplorable`,
/// each as (the log of its ratio, axis, lower value index, geometric midpoint).
fn wide_brackets(
    lattice: &Lattice,
    numeric: &[bool],
    unexplorable: &HashSet<(usize, GridValue, GridValue)>,
) -> Vec<(f64, usize, usize, u64)> {
    let mut wide = Vec::new();
    for (axis, values) in lattice.values.iter().enumerate().filter(|(a, _)| numeric[*a]) {
        for (i, pair) in values.windows(2).enumerate() {
            let [GridValue::Int(lo), GridValue::Int(hi)] = *pair else { continue };
            // A bracket from 0 has no ratio to be wide by.
            if lo == 0 || unexplorable.contains(&(axis, pair[0], pair[1])) {
                continue;
            }
            if let Some(mid) = midpoint(lo, hi, EXPLORE_FACTOR) {
                wide.push(((hi as f64 / lo as f64).ln(), axis, i, mid));
            }
        }
    }
    wide
}

/// The lines across the bracket between value indices `i` and `i + 1` of `axis` whose
/// two ends were measured by this sweep (neither `kept`), one of them timing more than
/// one candidate, each as its cell's coordinates at `i`.
fn measured_lines(
    lattice: &Lattice,
    axis: usize,
    i: usize,
    kept: &dyn Fn(&[GridValue]) -> Option<Cell>,
) -> Vec<Vec<usize>> {
    (0..lattice.cells.len())
        .map(|flat| lattice.coords(flat))
        .filter(|coords| {
            coords[axis] == i && {
                let (lo, hi) = lattice.neighbours(axis, coords, i);
                let mut end = coords.clone();
                let kept_end = [i, i + 1].into_iter().any(|e| {
                    end[axis] = e;
                    kept(&lattice.point(lattice.flat(&end))).is_some()
                });
                // One candidate timed at both ends: nothing to choose between.
                let choice = lo.regrets.len() > 1 || hi.regrets.len() > 1;
                lo.result.is_some() && hi.result.is_some() && !kept_end && choice
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A measured cell where `winner` wins over the one other candidate, 1.5× behind.
    pub(crate) fn measured(winner: usize, result: usize, took_ms: u64) -> Cell {
        Cell {
            acceptable: vec![winner],
            near: vec![winner],
            result: Some(result),
            took: Duration::from_millis(took_ms),
            regrets: vec![(winner, 1.0), (1 - winner, 1.5)],
            ..Cell::default()
        }
    }

    /// n ∈ {1 000, 100 000} × k ∈ {4, 16}, winner 0 everywhere.
    fn agreeing() -> Lattice {
        Lattice {
            values: vec![
                vec![GridValue::Int(1_000), GridValue::Int(100_000)],
                vec![GridValue::Int(4), GridValue::Int(16)],
            ],
            cells: (0..4).map(|k| measured(0, k, 10)).collect(),
        }
    }

    #[test]
    fn the_widest_agreeing_bracket_is_measured_at_its_middle_on_every_measured_line() {
        let mut lattice = agreeing();
        let mut seen = Vec::new();
        let mut measure = |look: Look<'_>| {
            let Look::New(point) = look else { panic!("exploring measures new points") };
            seen.push(point.to_vec());
            Some(measured(1, 10 + seen.len(), 10))
        };
        let mut unexplorable = HashSet::new();
        let mut afford = |_: &[Option<Duration>]| true;
        let explored = explore_widest(
            &mut lattice,
            (&[true, true], 100),
            &|_| None,
            &mut unexplorable,
            &mut measure,
            &mut afford,
        );
        assert_eq!(explored, 2);
        let ten_thousand = GridValue::Int(10_000);
        assert_eq!(seen, vec![vec![ten_thousand, GridValue::Int(4)], vec![ten_thousand, GridValue::Int(16)]]);
        assert_eq!(lattice.values[0], [1_000, 10_000, 100_000].map(GridValue::Int));
        assert_eq!(lattice.cells[2].acceptable, vec![1], "what the middle measured is kept");
        // 4..16 is within the factor; 1 000..10 000 is still wider than it.
        let mut afford_nothing = |_: &[Option<Duration>]| false;
        let mut never = |_: Look<'_>| -> Option<Cell> { panic!("nothing was afforded") };
        assert_eq!(
            explore_widest(
                &mut lattice,
                (&[true, true], 100),
                &|_| None,
                &mut unexplorable,
                &mut never,
                &mut afford_nothing
            ),
            0
        );
        assert!(unexplorable.contains(&(0, GridValue::Int(1_000), ten_thousand)));
        assert!(
            !unexplorable.iter().any(|&(axis, _, _)| axis == 1),
            "a bracket within the factor is not explored"
        );
    }

    #[test]
    fn kept_points_and_the_cell_cap_leave_brackets_unexplored() {
        let mut never = |_: Look<'_>| -> Option<Cell> { panic!("no bracket may be explored") };
        let mut afford = |_: &[Option<Duration>]| true;
        let mut lattice = agreeing();
        let keep_all = |_: &[GridValue]| Some(Cell::default());
        let mut unexplorable = HashSet::new();
        assert_eq!(
            explore_widest(
                &mut lattice,
                (&[true, true], 100),
                &keep_all,
                &mut unexplorable,
                &mut never,
                &mut afford
            ),
            0
        );
        let mut unexplorable = HashSet::new();
        assert_eq!(
            explore_widest(
                &mut lattice,
                (&[true, true], 5),
                &|_| None,
                &mut unexplorable,
                &mut never,
                &mut afford
            ),
            0
        );
        assert_eq!(lattice, agreeing(), "nothing inserted");
    }
}
