//! The refined grid: per axis the values measured so far (the sweep's grid plus the
//! midpoints refinement added), and per cell of their cartesian product the decision
//! known there, measured or inferred from its neighbours.

use crate::registry::GridValue;
use std::time::Duration;

/// What is known at one cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Cell {
    /// Candidates acceptable here, the preferred one (the winner) first.
    pub acceptable: Vec<usize>,
    /// Candidates within [`NEAR`](super::timing::NEAR) of the fastest here: a
    /// neighbour's winner among them is no crossover worth bracketing.
    pub near: Vec<usize>,
    /// The index of the cell's measurement in the sweep's results; `None` for a cell
    /// inferred from two neighbours that agree.
    pub result: Option<usize>,
    /// Each timed candidate's cost over the fastest's, for a measured cell; for an
    /// inferred one, what its ends say of it (see [`Cell::inferred`]).
    pub regrets: Vec<(usize, f64)>,
    /// The wall time the cell's measurement took, every look included; zero for an
    /// inferred cell and for one a stored entry measured.
    pub took: Duration,
    /// For a cell inferred from two neighbours, which ones (see [`Lattice::infer_again`]).
    pub inferred_from: Option<Inference>,
}

/// The two neighbours an inferred cell lay between when refinement inserted it: the
/// cells at its point but for `axis`, which takes the values `lo` and `hi` there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Inference {
    pub axis: usize,
    pub lo: GridValue,
    pub hi: GridValue,
    /// How many axis values the lattice had before the cell's value was inserted: its
    /// ends are older cells, so inferring again in this order meets every end final.
    pub order: usize,
}

/// What a wrong choice is assumed to cost between two neighbours when neither end
/// measured the other's winner (inferred cells): the `verify` threshold.
const UNKNOWN_STAKE: f64 = 1.10;

impl Cell {
    /// A cell between two neighbours along an axis: the decisions both accept and both
    /// measured near the fastest, in the lower neighbour's order; `None` when they share
    /// none.
    ///
    /// Near at both ends, not only acceptable: the state margin accepts a candidate up to
    /// 10% behind the fastest, and a candidate that far behind at one end can be much
    /// further behind between the ends. `joint_hist_batched`'s `multiway` won at 1 000
    /// samples × 512 × 1 feature and, 1.10× behind, was accepted at 30 features; the
    /// cells at 2 and 5 features inferred from those two answered `multiway`, and
    /// `par_pairs` ran 1.29–1.31× faster there (a fresh entry of the README's main
    /// command, `ktc verify`: 0.990 / 0.777 against always `par_pairs`).
    pub(crate) fn between(lo: &Cell, hi: &Cell) -> Option<Cell> {
        let near: Vec<usize> = lo.near.iter().copied().filter(|c| hi.near.contains(c)).collect();
        let shared: Vec<usize> =
            lo.acceptable.iter().copied().filter(|c| hi.acceptable.contains(c) && near.contains(c)).collect();
        (!shared.is_empty()).then_some(Cell { acceptable: shared, near, ..Cell::default() })
    }

    /// The regret of `candidate` here: measured, or for an inferred cell the larger of
    /// its ends'.
    fn regret_of(&self, candidate: usize) -> Option<f64> {
        self.regrets.iter().find(|(c, _)| *c == candidate).map(|(_, r)| *r)
    }

    /// The regret of `candidate` here: measured, else at most [`NEAR`](super::timing::NEAR)
    /// (taken as none) where the cell counts it near, else [`UNKNOWN_STAKE`].
    fn regret_or_guess(&self, candidate: usize) -> f64 {
        self.regret_of(candidate).unwrap_or(if self.near.contains(&candidate) { 1.0 } else { UNKNOWN_STAKE })
    }

    /// What the wrong one of two neighbours' winners costs at the other end: the larger
    /// of the two known regrets (each winner at the other end), at least 1.
    pub(crate) fn stake(lo: &Cell, hi: &Cell) -> f64 {
        let known = [hi.regret_of(lo.acceptable[0]), lo.regret_of(hi.acceptable[0])];
        known.into_iter().flatten().reduce(f64::max).unwrap_or(UNKNOWN_STAKE).max(1.0)
    }

    /// Whether a crossover worth bracketing lies between two neighbours.
    ///
    /// Loosely ([`Bracketing::Crossovers`]): neither's winner is near the fastest at the
    /// other. Strictly ([`Bracketing::Disagreements`]): one's winner is not near the
    /// fastest at the other. One winner near at both ends does not make it near between
    /// them: a parallel variant with a fixed chunk ties with the serial ones at small
    /// sizes (one chunk) and with the parallel ones at large sizes, but between them it
    /// is serial where the others split the work (`discretize`'s `par_chunks/16384`,
    /// inferred across 1 000..100 000 values, ran 1.8× slower than `par_split` at
    /// 5 000–15 000).
    pub(crate) fn crossover(lo: &Cell, hi: &Cell, bracketing: Bracketing) -> bool {
        let lo_near_hi = hi.near.contains(&lo.acceptable[0]);
        let hi_near_lo = lo.near.contains(&hi.acceptable[0]);
        match bracketing {
            Bracketing::Crossovers => !lo_near_hi && !hi_near_lo,
            Bracketing::Disagreements => !lo_near_hi || !hi_near_lo,
        }
    }

    /// The cell between two neighbours that need no bracketing: what both accept near
    /// the fastest (see [`Cell::between`]), else the one of their winners whose regret
    /// at the other end is smaller (the lower's on a tie).
    ///
    /// The cell keeps, for every candidate either end knows, the larger of its regrets
    /// at the two ends (see [`Cell::regrets_between`]), so a cell inferred from it in
    /// turn weighs what was measured, not a guess. Without them an inferred end guessed
    /// every other winner at 1.10: `joint_hist_batched`'s `multiway`, measured the
    /// winner at 56 234 samples × 1 feature with `par_pairs` 1.2× behind, beat the
    /// `par_pairs` of an end inferred from cells at 30 features where `multiway` was
    /// 2.3× behind, and the cells between 2 and 18 features answered `multiway`:
    /// 3.29× slower than `par_pairs` at 69 268 samples × 17 features (`cargo bench
    /// --bench tuning_quality`, 1 of 16 seeded runs).
    pub(crate) fn inferred(lo: &Cell, hi: &Cell) -> Cell {
        let decided = Cell::between(lo, hi).unwrap_or_else(|| {
            let (l, h) = (lo.acceptable[0], hi.acceptable[0]);
            let w = if hi.regret_or_guess(l) <= lo.regret_or_guess(h) { l } else { h };
            Cell { acceptable: vec![w], near: vec![w], ..Cell::default() }
        });
        Cell { regrets: Cell::regrets_between(lo, hi), ..decided }
    }

    /// Each candidate's regret between two neighbours, for those at least one of them
    /// knows: the larger of its regrets at the two ends (see [`Cell::regret_or_guess`])
    /// — a size between the ends is taken to cost as much as the dearer end.
    fn regrets_between(lo: &Cell, hi: &Cell) -> Vec<(usize, f64)> {
        let mut known: Vec<usize> = Vec::new();
        for &(c, _) in lo.regrets.iter().chain(&hi.regrets) {
            if !known.contains(&c) {
                known.push(c);
            }
        }
        known.into_iter().map(|c| (c, lo.regret_or_guess(c).max(hi.regret_or_guess(c)))).collect()
    }
}

/// Which neighbours refinement measures between (see [`Cell::crossover`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bracketing {
    /// Neighbours whose winners are each far from the fastest at the other end.
    Crossovers,
    /// Neighbours where either winner is far from the fastest at the other end.
    Disagreements,
}

/// Axis values and cells in row-major order (last axis fastest).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Lattice {
    pub values: Vec<Vec<GridValue>>,
    pub cells: Vec<Cell>,
}

impl Lattice {
    fn strides(&self) -> Vec<usize> {
        let mut strides = vec![1; self.values.len()];
        for a in (0..self.values.len().saturating_sub(1)).rev() {
            strides[a] = strides[a + 1] * self.values[a + 1].len();
        }
        strides
    }

    /// The per-axis value indices of cell `flat`.
    pub(crate) fn coords(&self, flat: usize) -> Vec<usize> {
        self.strides().iter().zip(&self.values).map(|(&s, v)| flat / s % v.len()).collect()
    }

    /// The cell at per-axis value indices `coords`.
    pub(crate) fn flat(&self, coords: &[usize]) -> usize {
        coords.iter().zip(self.strides()).map(|(i, s)| i * s).sum()
    }

    /// The axis values of cell `flat`.
    pub(crate) fn point(&self, flat: usize) -> Vec<GridValue> {
        self.coords(flat).iter().zip(&self.values).map(|(&i, v)| v[i]).collect()
    }

    /// Whether one more value on `axis` keeps the lattice within `max_cells`.
    pub(crate) fn has_room_on(&self, axis: usize, max_cells: usize) -> bool {
        self.cells.len() + self.cells.len() / self.values[axis].len() <= max_cells
    }

    /// Inserts `value` on `axis` at position `pos` (between values `pos - 1` and
    /// `pos`), filling every new cell with `fill(point, lower neighbour, upper neighbour)`.
    pub(crate) fn insert(
        &mut self,
        axis: usize,
        pos: usize,
        value: GridValue,
        mut fill: impl FnMut(&[GridValue], &Cell, &Cell) -> Cell,
    ) {
        let old = self.clone();
        self.values[axis].insert(pos, value);
        let total: usize = self.values.iter().map(Vec::len).product();
        let mut cells = Vec::with_capacity(total);
        for flat in 0..total {
            let mut c = self.coords(flat);
            let cell = match c[axis].cmp(&pos) {
                std::cmp::Ordering::Less => old.cells[old.flat(&c)].clone(),
                std::cmp::Ordering::Greater => {
                    c[axis] -= 1;
                    old.cells[old.flat(&c)].clone()
                }
                std::cmp::Ordering::Equal => {
                    let point = self.point(flat);
                    let hi = old.cells[old.flat(&c)].clone();
                    c[axis] -= 1;
                    fill(&point, &old.cells[old.flat(&c)], &hi)
                }
            };
            cells.push(cell);
        }
        self.cells = cells;
    }

    /// Each cell's decisions as a table may answer them: its winner, then the others it
    /// accepts that every neighbour along a numeric axis (`numeric[a]`) accepts too.
    ///
    /// A cell's decision answers up to the middle of the bracket to each neighbour (see
    /// `derive::place_bounds_between`), and a near-tie measured at the cell says nothing
    /// about the sizes towards a neighbour that does not accept it. With 2 features,
    /// `joint_hist_batched`'s `pairs` and `par_pairs` run the same code (one pair, on
    /// the caller) and tie; a table that answered `pairs` there answered it up to 3
    /// features, the middle of 2..5, where `par_pairs` has two tasks: at 152 377
    /// samples × 3 features it ran 1.37× and 1.80× faster than the `pairs` such tables
    /// chose (2 of 24 runs of `cargo bench --bench tuning_quality`).
    pub(crate) fn answerable(&self, numeric: &[bool]) -> Vec<Vec<usize>> {
        (0..self.cells.len())
            .map(|flat| {
                let Some((&winner, others)) = self.cells[flat].acceptable.split_first() else {
                    return Vec::new();
                };
                let coords = self.coords(flat);
                let mut neighbours = Vec::new();
                for axis in (0..coords.len()).filter(|&a| numeric[a]) {
                    let mut c = coords.clone();
                    for i in [coords[axis].checked_sub(1), Some(coords[axis] + 1)].into_iter().flatten() {
                        if i < self.values[axis].len() {
                            c[axis] = i;
                            neighbours.push(&self.cells[self.flat(&c)]);
                        }
                    }
                }
                let backed = |c: &usize| neighbours.iter().all(|n| n.acceptable.contains(c));
                std::iter::once(winner).chain(others.iter().copied().filter(backed)).collect()
            })
            .collect()
    }

    /// Decides every measured cell again with `decide` (given the cell's result index),
    /// then infers the inferred cells again from them (see [`Lattice::infer_again`]);
    /// whether some measured cell's winner changed.
    ///
    /// Further looks (and, for the entry, the state margin) decide a measured cell after
    /// refinement has bracketed the crossovers its first decision showed, so a winner
    /// that changes opens a bracket refinement has not seen (see
    /// `rounds::refine_in_rounds`).
    pub(crate) fn decide_measured_again<E>(
        &mut self,
        mut decide: impl FnMut(usize) -> Result<Cell, E>,
    ) -> Result<bool, E> {
        let mut changed = false;
        for cell in &mut self.cells {
            if let Some(i) = cell.result {
                let again = decide(i)?;
                changed |= again.acceptable.first() != cell.acceptable.first();
                *cell = again;
            }
        }
        self.infer_again();
        Ok(changed)
    }

    /// Infers every inferred cell again from its two neighbours (see [`Inference`]), the
    /// oldest first, once their measurements are final.
    ///
    /// A cell inferred during refinement took its neighbours' decisions as they were
    /// then; further looks at them, and the state margin that decides them at the end,
    /// can change what they accept. Kept as inserted, such a cell could answer what
    /// neither neighbour accepts any longer.
    pub(crate) fn infer_again(&mut self) {
        let mut inferred: Vec<(usize, Inference)> =
            self.cells.iter().enumerate().filter_map(|(flat, c)| Some((flat, c.inferred_from?))).collect();
        inferred.sort_by_key(|(_, from)| from.order);
        for (flat, from) in inferred {
            let end = |value: GridValue| {
                let i = self.values[from.axis].iter().position(|v| *v == value)?;
                let mut coords = self.coords(flat);
                coords[from.axis] = i;
                Some(self.flat(&coords))
            };
            let (Some(lo), Some(hi)) = (end(from.lo), end(from.hi)) else { continue };
            if self.cells[lo].acceptable.is_empty() || self.cells[hi].acceptable.is_empty() {
                continue;
            }
            self.cells[flat] =
                Cell { inferred_from: Some(from), ..Cell::inferred(&self.cells[lo], &self.cells[hi]) };
        }
    }

    /// The cells of the line through `coords` along `axis`, at value indices `i` and
    /// `i + 1`.
    pub(crate) fn neighbours(&self, axis: usize, coords: &[usize], i: usize) -> (&Cell, &Cell) {
        let mut c = coords.to_vec();
        c[axis] = i;
        let lo = &self.cells[self.flat(&c)];
        c[axis] = i + 1;
        (lo, &self.cells[self.flat(&c)])
    }
}

#[cfg(test)]
#[path = "lattice_tests.rs"]
mod tests;
