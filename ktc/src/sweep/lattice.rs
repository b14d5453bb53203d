//! The refined grid: per axis the values measured so far (the sweep's grid plus the
//! midpoints refinement added), and per cell of their cartesian product the decision
//! known there, measured or inferred from its neighbours.

use crate::registry::SweepValue;

/// What is known at one cell.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Cell {
    /// Candidates acceptable here, the preferred one (the winner) first.
    pub acceptable: Vec<usize>,
    /// Candidates within [`NEAR`](super::timing::NEAR) of the fastest here: a
    /// neighbour's winner among them is no crossover worth bracketing.
    pub near: Vec<usize>,
    /// The index of the cell's measurement in the sweep's results; `None` for a cell
    /// inferred from two neighbours that agree.
    pub result: Option<usize>,
}

impl Cell {
    /// A cell between two neighbours along an axis: the decisions both accept, in the
    /// lower neighbour's order; `None` when they share none (a crossover lies between).
    pub(crate) fn between(lo: &Cell, hi: &Cell) -> Option<Cell> {
        let shared: Vec<usize> =
            lo.acceptable.iter().copied().filter(|c| hi.acceptable.contains(c)).collect();
        let near: Vec<usize> = lo.near.iter().copied().filter(|c| hi.near.contains(c)).collect();
        (!shared.is_empty()).then_some(Cell { acceptable: shared, near, result: None })
    }

    /// Whether a crossover worth bracketing lies between two neighbours: neither's
    /// winner is near the fastest at the other.
    pub(crate) fn crossover(lo: &Cell, hi: &Cell) -> bool {
        !hi.near.contains(&lo.acceptable[0]) && !lo.near.contains(&hi.acceptable[0])
    }

    /// The cell between two neighbours that need no bracketing: what both accept, else
    /// the winner of one that is near the fastest at the other.
    pub(crate) fn inferred(lo: &Cell, hi: &Cell) -> Cell {
        Cell::between(lo, hi).unwrap_or_else(|| {
            let w = if hi.near.contains(&lo.acceptable[0]) { lo.acceptable[0] } else { hi.acceptable[0] };
            Cell { acceptable: vec![w], near: vec![w], result: None }
        })
    }
}

/// Axis values and cells in row-major order (last axis fastest).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Lattice {
    pub values: Vec<Vec<SweepValue>>,
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
    pub(crate) fn point(&self, flat: usize) -> Vec<SweepValue> {
        self.coords(flat).iter().zip(&self.values).map(|(&i, v)| v[i]).collect()
    }

    /// Inserts `value` on `axis` at position `pos` (between values `pos - 1` and
    /// `pos`), filling every new cell with `fill(point, lower neighbour, upper neighbour)`.
    pub(crate) fn insert(
        &mut self,
        axis: usize,
        pos: usize,
        value: SweepValue,
        mut fill: impl FnMut(&[SweepValue], &Cell, &Cell) -> Cell,
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
