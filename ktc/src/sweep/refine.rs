//! Adaptive refinement: where two neighbouring cells along a numeric axis share no
//! acceptable decision, a crossover lies between them; measure at the geometric
//! midpoint and repeat until every crossover is bracketed within a factor.

use super::lattice::{Cell, Lattice};
use crate::registry::GridValue;
use std::collections::HashSet;

/// What refinement asks its measurer for.
pub(crate) enum Look<'a> {
    /// A new point's cell.
    New(&'a [GridValue]),
    /// The cell of the measured point with this result index, measured again and
    /// merged with the first look.
    Again(usize),
}

/// The integer strictly between `lo` and `hi` at their geometric mean, or `None` once
/// the bracket is within `factor` (or holds no integer).
pub(crate) fn midpoint(lo: u64, hi: u64, factor: f64) -> Option<u64> {
    if hi <= lo + 1 || (lo > 0 && hi as f64 / lo as f64 <= factor) {
        return None;
    }
    let m = if lo == 0 { hi / 2 } else { ((lo as f64) * (hi as f64)).sqrt().round() as u64 };
    Some(m.clamp(lo + 1, hi - 1))
}

/// The value a region bound takes between two neighbouring axis values: their
/// geometric mean (the middle of the bracket on the log scale sizes live on), rounded
/// down to an integer — sweep values are integers, and `n ≤ ⌊b⌋` answers every integer
/// query as `n ≤ b` does while reading better.
pub(crate) fn bound_between(lo: f64, hi: f64) -> f64 {
    let middle = if lo > 0.0 { (lo * hi).sqrt() } else { (lo + hi) / 2.0 };
    middle.floor().max(lo)
}

/// Refines `lattice` along its numeric axes (`numeric[a]`), widest bracket first, so
/// the budget is spread over all crossovers. `measure` times one new point (`None`:
/// it could not be built); `afford(k)` says whether `k` more points fit the budget and
/// stops the refinement when not. Cells of a new value on lines whose neighbours agree
/// are inferred, not measured; refinement also stops before the lattice would exceed
/// `max_cells` (noise can make neighbours disagree anywhere; the table must stay
/// small).
///
/// Before a bracket is split, each measured cell at its ends gets one second look
/// ([`Look::Again`]): a crossover seen once may be one point measured while the host
/// was busy, and bisecting towards it would carve a wrong region out of the right one.
/// Returns the number of points measured, second looks included.
pub(crate) fn refine(
    lattice: &mut Lattice,
    numeric: &[bool],
    factor: f64,
    max_cells: usize,
    measure: &mut dyn FnMut(Look<'_>) -> Option<Cell>,
    afford: &mut dyn FnMut(usize) -> bool,
) -> usize {
    let mut measured = 0;
    let mut looked_again = HashSet::new();
    while let Some((axis, i, mid, lines)) = widest_open_bracket(lattice, numeric, factor) {
        match confirm_ends(lattice, axis, i, &mut looked_again, measure, afford) {
            None => break,
            Some(0) => {}
            Some(looked) => {
                // The ends may agree now: find the widest open bracket again.
                measured += looked;
                continue;
            }
        }
        if !afford(lines) {
            break;
        }
        let per_line = lattice.cells.len() / lattice.values[axis].len();
        if lattice.cells.len() + per_line > max_cells {
            break;
        }
        lattice.insert(axis, i + 1, GridValue::Int(mid), |point, lo, hi| {
            if !Cell::crossover(lo, hi) {
                return Cell::inferred(lo, hi);
            }
            measured += 1;
            measure(Look::New(point)).unwrap_or_else(|| either(lo, hi))
        });
    }
    measured
}

/// Gives every measured cell at the ends of a crossover between value indices `i` and
/// `i + 1` of `axis` its second look: how many were looked at again, or `None` once
/// the budget cannot afford one more.
fn confirm_ends(
    lattice: &mut Lattice,
    axis: usize,
    i: usize,
    looked_again: &mut HashSet<usize>,
    measure: &mut dyn FnMut(Look<'_>) -> Option<Cell>,
    afford: &mut dyn FnMut(usize) -> bool,
) -> Option<usize> {
    let mut looked = 0;
    for mut coords in crossing_lines(lattice, axis, i) {
        for end in [i, i + 1] {
            coords[axis] = end;
            let at = lattice.flat(&coords);
            let Some(result) = lattice.cells[at].result else { continue };
            if looked_again.contains(&result) {
                continue;
            }
            if !afford(1) {
                return None;
            }
            looked_again.insert(result);
            looked += 1;
            if let Some(cell) = measure(Look::Again(result)) {
                lattice.cells[at] = cell;
            }
        }
    }
    Some(looked)
}

/// A cell that could not be measured: it accepts what either neighbour accepts, so no
/// further split is attempted next to it.
fn either(lo: &Cell, hi: &Cell) -> Cell {
    let mut acceptable = lo.acceptable.clone();
    acceptable.extend(hi.acceptable.iter().filter(|c| !lo.acceptable.contains(c)));
    Cell { near: acceptable.clone(), acceptable, result: None }
}

/// The open bracket with the largest ratio: (axis, lower value index, midpoint, the
/// number of lines across it that disagree).
fn widest_open_bracket(
    lattice: &Lattice,
    numeric: &[bool],
    factor: f64,
) -> Option<(usize, usize, u64, usize)> {
    let mut best: Option<(f64, (usize, usize, u64, usize))> = None;
    for (axis, values) in lattice.values.iter().enumerate() {
        if !numeric[axis] {
            continue;
        }
        for i in 0..values.len().saturating_sub(1) {
            let (GridValue::Int(lo), GridValue::Int(hi)) = (values[i], values[i + 1]) else { continue };
            let Some(mid) = midpoint(lo, hi, factor) else { continue };
            let width = if lo == 0 { f64::INFINITY } else { (hi as f64 / lo as f64).ln() };
            if best.as_ref().is_some_and(|(w, _)| *w >= width) {
                continue;
            }
            let lines = crossing_lines(lattice, axis, i).len();
            if lines > 0 {
                best = Some((width, (axis, i, mid, lines)));
            }
        }
    }
    best.map(|(_, b)| b)
}

/// The lines along `axis` with a crossover (see [`Cell::crossover`]) between value
/// indices `i` and `i + 1`, each as the coordinates of its cell at `i`.
fn crossing_lines(lattice: &Lattice, axis: usize, i: usize) -> Vec<Vec<usize>> {
    (0..lattice.cells.len())
        .map(|flat| lattice.coords(flat))
        .filter(|coords| {
            coords[axis] == i && {
                let (lo, hi) = lattice.neighbours(axis, coords, i);
                Cell::crossover(lo, hi)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cell of measured point `result`, where `winner` wins.
    fn measured(winner: usize, result: usize) -> Cell {
        Cell { acceptable: vec![winner], near: vec![winner], result: Some(result) }
    }

    #[test]
    fn midpoints_are_geometric_integers_until_the_bracket_is_narrow() {
        assert_eq!(midpoint(1_000, 100_000, 1.25), Some(10_000));
        assert_eq!(midpoint(1, 3, 1.25), Some(2));
        assert_eq!(midpoint(1, 2, 1.25), None);
        assert_eq!(midpoint(1_000, 1_200, 1.25), None);
        assert_eq!(midpoint(0, 8, 1.25), Some(4));
        assert_eq!(bound_between(100.0, 400.0), 200.0);
        assert_eq!(bound_between(1_000.0, 3_162.0), 1_778.0);
        assert_eq!(bound_between(1.0, 2.0), 1.0);
    }

    #[test]
    fn crossovers_are_bracketed_per_label_and_agreeing_lines_are_not_measured() {
        // n crosses from 0 to 1 at 12 345 for `host`, at 50 000 for `gpu`; `other`
        // always takes 0.
        let crossover = |label: &str| match label {
            "host" => Some(12_345),
            "gpu" => Some(50_000),
            _ => None,
        };
        let winner = |n: u64, label: &str| crossover(label).map_or(0, |c| usize::from(n > c));
        let labels = ["host", "gpu", "other"];
        // Result `k` is the `k`-th measured point.
        let mut points: Vec<(u64, &str)> =
            [1_000, 1_000_000].iter().flat_map(|&n| labels.iter().map(move |&l| (n, l))).collect();
        let mut lattice = Lattice {
            values: vec![
                vec![GridValue::Int(1_000), GridValue::Int(1_000_000)],
                labels.iter().map(|l| GridValue::Label(l)).collect(),
            ],
            cells: points.iter().enumerate().map(|(k, &(n, l))| measured(winner(n, l), k)).collect(),
        };
        let (mut seen, mut again) = (Vec::new(), Vec::new());
        let mut measure = |look: Look<'_>| {
            let (n, l) = match look {
                Look::New(p) => {
                    let (GridValue::Int(n), GridValue::Label(l)) = (p[0], p[1]) else { panic!("{p:?}") };
                    seen.push(l);
                    points.push((n, l));
                    (n, l)
                }
                Look::Again(k) => {
                    again.push(k);
                    points[k]
                }
            };
            let index = match look {
                Look::New(_) => points.len() - 1,
                Look::Again(k) => k,
            };
            Some(measured(winner(n, l), index))
        };
        let looks = refine(&mut lattice, &[true, false], 1.25, 1_000, &mut measure, &mut |_| true);
        assert!(!seen.contains(&"other"), "a line whose ends agree is never measured");
        assert_eq!(looks, seen.len() + again.len());
        let mut unique = again.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), again.len(), "one second look per point");
        for (li, label) in labels.iter().enumerate().take(2) {
            let c = crossover(label).unwrap();
            let ns: Vec<u64> =
                lattice.values[0].iter().map(|v| if let GridValue::Int(n) = v { *n } else { 0 }).collect();
            let i = ns.iter().position(|&n| n > c).unwrap();
            let (lo, hi) = (ns[i - 1], ns[i]);
            assert!(hi as f64 / lo as f64 <= 1.25, "{label}: bracket {lo}..{hi}");
            assert_eq!(lattice.cells[lattice.flat(&[i - 1, li])].acceptable, vec![0]);
            assert_eq!(lattice.cells[lattice.flat(&[i, li])].acceptable, vec![1]);
            // The grid points whose crossover was bisected had a second look first.
            assert!(again.contains(&li) && again.contains(&(li + 3)), "{label}: {again:?}");
        }
        assert!(!again.contains(&2) && !again.contains(&5), "`other` had no crossover");
    }

    #[test]
    fn a_crossover_gone_at_the_second_look_is_not_bisected() {
        // The first look at n = 2^20 was taken while the host was busy.
        let mut lattice = Lattice {
            values: vec![vec![GridValue::Int(1), GridValue::Int(1 << 20)]],
            cells: vec![measured(0, 0), measured(1, 1)],
        };
        let mut new_points = 0;
        let mut measure = |look: Look<'_>| match look {
            Look::New(_) => {
                new_points += 1;
                None
            }
            Look::Again(k) => Some(measured(0, k)),
        };
        assert_eq!(refine(&mut lattice, &[true], 1.25, 1_000, &mut measure, &mut |_| true), 2);
        assert_eq!(new_points, 0);
        assert_eq!(lattice.values[0].len(), 2);
    }

    #[test]
    fn the_budget_stops_refinement() {
        // 0 wins at n = 1, 1 at n = 2^20, both at a second look; new points take 0.
        let mut results = 2;
        let mut measure = |look: Look<'_>| match look {
            Look::New(_) => {
                results += 1;
                Some(measured(0, results - 1))
            }
            Look::Again(k) => Some(measured(usize::from(k == 1), k)),
        };
        let mut lattice = Lattice {
            values: vec![vec![GridValue::Int(1), GridValue::Int(1 << 20)]],
            cells: vec![measured(0, 0), measured(1, 1)],
        };
        let mut calls = 0;
        // Afforded: both ends' second looks, one new point, the new point's second look.
        let looks = refine(&mut lattice, &[true], 1.25, 1_000, &mut measure, &mut |_| {
            calls += 1;
            calls <= 4
        });
        assert_eq!(looks, 4);
        assert_eq!(lattice.values[0].len(), 3);
        // The cell cap stops it too: 2 cells, room for 3 values.
        let values = vec![vec![GridValue::Int(1), GridValue::Int(1 << 20)]];
        let mut lattice = Lattice { values, cells: vec![measured(0, 0), measured(1, 1)] };
        refine(&mut lattice, &[true], 1.25, 3, &mut measure, &mut |_| true);
        assert_eq!(lattice.values[0].len(), 3);
    }
}
