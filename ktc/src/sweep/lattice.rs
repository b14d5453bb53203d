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
mod tests {
    use super::*;

    fn cell(c: usize) -> Cell {
        Cell { acceptable: vec![c], near: vec![c], ..Cell::default() }
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
        let both = |a: Vec<usize>, near: Vec<usize>| Cell {
            acceptable: a,
            near,
            result: Some(0),
            ..Cell::default()
        };
        let (lo, hi) = (both(vec![0, 1], vec![0, 1]), both(vec![1], vec![1, 2]));
        assert_eq!(Cell::between(&lo, &hi).unwrap().acceptable, vec![1]);
        assert!(!Cell::crossover(&lo, &hi, Bracketing::Crossovers));
        // 0 wins below, 2 above; 0 is within 5% above: no crossover worth bracketing,
        // though the two disagree (2 is not near below).
        let (lo, hi) = (both(vec![0], vec![0]), both(vec![2], vec![2, 0]));
        assert!(Cell::between(&lo, &hi).is_none());
        assert!(!Cell::crossover(&lo, &hi, Bracketing::Crossovers));
        assert!(Cell::crossover(&lo, &hi, Bracketing::Disagreements));
        assert_eq!(Cell::inferred(&lo, &hi).acceptable, vec![0]);
        // Each within 5% at the other end: no disagreement either.
        let (lo, hi) = (both(vec![0], vec![0, 2]), both(vec![2], vec![2, 0]));
        assert!(!Cell::crossover(&lo, &hi, Bracketing::Disagreements));
        let (lo, hi) = (both(vec![0], vec![0]), both(vec![2], vec![2]));
        assert!(Cell::crossover(&lo, &hi, Bracketing::Crossovers));
    }

    #[test]
    fn a_near_tie_is_answerable_only_where_the_numeric_neighbours_accept_it_too() {
        // n_features ∈ {2, 5, 30} × loc ∈ {host, device}. At 2, 1 ties with the winner
        // 0; at 5 only 0 is acceptable; at 30 both are. On `loc` (categorical) the
        // device cells accept nothing but 2, and that does not count.
        let accept = |a: Vec<usize>| Cell { acceptable: a.clone(), near: a, ..Cell::default() };
        let lattice = Lattice {
            values: vec![
                vec![GridValue::Int(2), GridValue::Int(5), GridValue::Int(30)],
                vec![GridValue::Label("host"), GridValue::Label("device")],
            ],
            cells: vec![
                accept(vec![0, 1]),
                accept(vec![2]),
                accept(vec![0]),
                accept(vec![2]),
                accept(vec![0, 1]),
                accept(vec![2]),
            ],
        };
        let numeric = [true, false];
        let answerable = lattice.answerable(&numeric);
        assert_eq!(answerable[0], vec![0], "5 does not accept 1, so 2 may not answer it");
        assert_eq!(answerable[2], vec![0]);
        assert_eq!(answerable[4], vec![0], "30's neighbour 5 does not accept 1 either");
        assert_eq!(answerable[1], vec![2], "the winner always stays");
        let agreeing = Lattice { cells: vec![accept(vec![0, 1]); 6], ..lattice };
        assert!(agreeing.answerable(&numeric).iter().all(|a| *a == vec![0, 1]), "backed on every side");
    }

    #[test]
    fn an_inferred_cell_takes_only_what_both_ends_measured_near_the_fastest() {
        // n_features 1 and 30: `multiway` (0) wins at 1 and, 1.10× behind, is accepted
        // at 30 by the state margin; `par_pairs` (1) is within 4% at both.
        let measured = |acceptable: Vec<usize>, regrets: Vec<(usize, f64)>| Cell {
            near: regrets.iter().filter(|(_, r)| *r <= 1.05).map(|(c, _)| *c).collect(),
            acceptable,
            regrets,
            result: Some(0),
            ..Cell::default()
        };
        let one = measured(vec![0, 1], vec![(0, 1.0), (1, 1.04)]);
        let thirty = measured(vec![1, 0], vec![(1, 1.0), (0, 1.10)]);
        assert_eq!(Cell::inferred(&one, &thirty).acceptable, vec![1], "not `multiway`, 10% behind at 30");
        // Nothing near at both: the winner whose regret at the other end is smaller.
        let thirty = measured(vec![2, 0], vec![(2, 1.0), (0, 1.10), (1, 1.30)]);
        let one = measured(vec![0], vec![(0, 1.0), (2, 1.20)]);
        assert_eq!(Cell::inferred(&one, &thirty).acceptable, vec![0]);
        let one = measured(vec![0], vec![(0, 1.0), (2, 1.06)]);
        assert_eq!(Cell::inferred(&one, &thirty).acceptable, vec![2]);
    }

    #[test]
    fn a_cell_inferred_from_an_inferred_end_weighs_what_that_end_was_inferred_from() {
        // `multiway` (0) wins at 1 feature, `par_pairs` (1) 1.2× behind; at 30 features
        // `par_pairs` wins at both measured sizes, `multiway` 2.3× and 2.0× behind.
        let measured = |acceptable: Vec<usize>, regrets: Vec<(usize, f64)>| Cell {
            near: regrets.iter().filter(|(_, r)| *r <= 1.05).map(|(c, _)| *c).collect(),
            acceptable,
            regrets,
            result: Some(0),
            ..Cell::default()
        };
        let thirty_small = measured(vec![1], vec![(1, 1.0), (0, 2.3)]);
        let thirty_large = measured(vec![1], vec![(1, 1.0), (0, 2.0)]);
        let thirty_between = Cell::inferred(&thirty_small, &thirty_large);
        assert_eq!(thirty_between.acceptable, vec![1]);
        assert_eq!(thirty_between.regret_of(0), Some(2.3), "the dearer end's regret");
        let one = measured(vec![0], vec![(0, 1.0), (1, 1.2)]);
        let middle = Cell::inferred(&one, &thirty_between);
        assert_eq!(middle.acceptable, vec![1], "`par_pairs`: 1.2× behind at one end, not 2.3× at the other");
        // Where neither end knows a candidate's cost, the guess stays.
        let unknown = |c: usize| Cell { acceptable: vec![c], near: vec![c], ..Cell::default() };
        assert_eq!(Cell::inferred(&unknown(0), &unknown(1)).acceptable, vec![0], "the lower's on a tie");
        assert!(Cell::inferred(&unknown(0), &unknown(1)).regrets.is_empty());
    }

    #[test]
    fn inferring_again_follows_the_ends_final_decisions_oldest_cell_first() {
        // n ∈ {1, 4, 16}: 4 was inferred between 1 and 16, then 2 between 1 and 4.
        let at = |c: usize| Cell { acceptable: vec![c], near: vec![c], result: Some(c), ..Cell::default() };
        let from = |lo: u64, hi: u64, order: usize| Inference {
            axis: 0,
            lo: GridValue::Int(lo),
            hi: GridValue::Int(hi),
            order,
        };
        let inferred = |c: usize, f: Inference| Cell { inferred_from: Some(f), ..cell(c) };
        let mut lattice = Lattice {
            values: vec![[1, 2, 4, 16].map(GridValue::Int).to_vec()],
            cells: vec![at(0), inferred(0, from(1, 4, 3)), inferred(0, from(1, 16, 2)), at(0)],
        };
        // Further looks at 16 found 1 the winner and 0 far behind; at 1 they tie.
        lattice.cells[0] = Cell { acceptable: vec![0, 1], near: vec![0, 1], ..lattice.cells[0].clone() };
        lattice.cells[3] = Cell { acceptable: vec![1], near: vec![1], ..lattice.cells[3].clone() };
        lattice.infer_again();
        let firsts: Vec<usize> = lattice.cells.iter().map(|c| c.acceptable[0]).collect();
        assert_eq!(firsts, vec![0, 1, 1, 1], "4 from 1 and 16, then 2 from 1 and the new 4");
        assert_eq!(lattice.cells[1].inferred_from, Some(from(1, 4, 3)), "still inferred, from the same ends");
    }
}
