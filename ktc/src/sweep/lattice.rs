//! The refined grid: per axis the values measured so far (the sweep's grid plus the
//! midpoints refinement added), and per cell of their cartesian product the decision
//! known there, measured or inferred from its neighbours.

use crate::registry::GridValue;

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
mod tests {
    use super::*;

    fn cell(c: usize) -> Cell {
        Cell { acceptable: vec![c], near: vec![c], result: None }
    }

    #[test]
    fn inserting_a_value_keeps_every_cell_at_its_point() {
        // 2 × 2: n ∈ {1, 9}, k ∈ {a, b}; cell value = 10·n-index + k-index.
        let mut lattice = Lattice {
            values: vec![
                vec![GridValue::Int(1), GridValue::Int(9)],
                vec![GridValue::Label("a"), GridValue::Label("b")],
            ],
            cells: vec![cell(0), cell(1), cell(10), cell(11)],
        };
        let mut filled = Vec::new();
        lattice.insert(0, 1, GridValue::Int(3), |point, lo, hi| {
            filled.push(point.to_vec());
            cell(100 + lo.acceptable[0] + hi.acceptable[0])
        });
        assert_eq!(
            filled,
            vec![
                vec![GridValue::Int(3), GridValue::Label("a")],
                vec![GridValue::Int(3), GridValue::Label("b")],
            ]
        );
        let firsts: Vec<usize> = lattice.cells.iter().map(|c| c.acceptable[0]).collect();
        assert_eq!(firsts, vec![0, 1, 110, 112, 10, 11]);
        assert_eq!(lattice.point(3), vec![GridValue::Int(3), GridValue::Label("b")]);
        assert_eq!(lattice.flat(&[2, 1]), 5);
    }

    #[test]
    fn neighbours_that_agree_infer_and_those_that_do_not_are_a_crossover() {
        let both = |a: Vec<usize>, near: Vec<usize>| Cell { acceptable: a, near, result: Some(0) };
        let (lo, hi) = (both(vec![0, 1], vec![0, 1]), both(vec![1], vec![1, 2]));
        assert_eq!(Cell::between(&lo, &hi).unwrap().acceptable, vec![1]);
        assert!(!Cell::crossover(&lo, &hi));
        // 0 wins below, 2 above; 0 is within 5% above: no crossover worth bracketing.
        let (lo, hi) = (both(vec![0], vec![0]), both(vec![2], vec![2, 0]));
        assert!(Cell::between(&lo, &hi).is_none());
        assert!(!Cell::crossover(&lo, &hi));
        assert_eq!(Cell::inferred(&lo, &hi).acceptable, vec![0]);
        let (lo, hi) = (both(vec![0], vec![0]), both(vec![2], vec![2]));
        assert!(Cell::crossover(&lo, &hi));
    }
}
