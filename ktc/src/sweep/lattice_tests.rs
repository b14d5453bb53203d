//! Tests of the refined grid: cells, inference and insertion.

use super::*;

fn cell(c: usize) -> Cell {
    Cell { acceptable: vec![c], near: vec![c], ..Cell::default() }
}

/// A measured cell with these decisions and regrets; near: the candidates within 5%.
fn measured(acceptable: Vec<usize>, regrets: Vec<(usize, f64)>) -> Cell {
    Cell {
        near: regrets.iter().filter(|(_, r)| *r <= 1.05).map(|(c, _)| *c).collect(),
        acceptable,
        regrets,
        result: Some(0),
        ..Cell::default()
    }
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
        vec![vec![GridValue::Int(3), GridValue::Label("a")], vec![GridValue::Int(3), GridValue::Label("b")],]
    );
    let firsts: Vec<usize> = lattice.cells.iter().map(|c| c.acceptable[0]).collect();
    assert_eq!(firsts, vec![0, 1, 110, 112, 10, 11]);
    assert_eq!(lattice.point(3), vec![GridValue::Int(3), GridValue::Label("b")]);
    assert_eq!(lattice.flat(&[2, 1]), 5);
}

#[test]
fn neighbours_that_agree_infer_and_those_that_do_not_are_a_crossover() {
    let both =
        |a: Vec<usize>, near: Vec<usize>| Cell { acceptable: a, near, result: Some(0), ..Cell::default() };
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

#[test]
fn measured_cells_decided_again_say_whether_a_winner_changed_and_carry_their_inferred_cells() {
    let at = |winner: usize, result: usize| Cell { result: Some(result), ..cell(winner) };
    let from = Inference { axis: 0, lo: GridValue::Int(1), hi: GridValue::Int(16), order: 2 };
    // n ∈ {1, 4, 16}: 1 and 16 measured (results 0 and 1), 4 inferred between them.
    let mut lattice = Lattice {
        values: vec![vec![GridValue::Int(1), GridValue::Int(4), GridValue::Int(16)]],
        cells: vec![at(0, 0), Cell { inferred_from: Some(from), ..cell(0) }, at(0, 1)],
    };
    assert_eq!(lattice.decide_measured_again(|i| Ok::<_, ()>(at(0, i))), Ok(false), "same winners");
    // A further look moves result 0 to candidate 1; the inferred cell, with no regrets
    // known at either end, takes its lower end's winner.
    let moved = |i: usize| Ok::<_, ()>(at(usize::from(i == 0), i));
    assert_eq!(lattice.decide_measured_again(moved), Ok(true));
    let winners: Vec<usize> = lattice.cells.iter().map(|c| c.acceptable[0]).collect();
    assert_eq!(winners, vec![1, 1, 0]);
    assert_eq!(lattice.cells[1].inferred_from, Some(from), "still inferred, from the same ends");
    assert_eq!(lattice.decide_measured_again(|_| Err::<Cell, _>("gone")), Err("gone"));
}

#[test]
fn a_value_fits_on_an_axis_while_its_new_line_stays_within_the_cap() {
    // 2 × 3 cells: a value on axis 0 adds 3 cells, one on axis 1 adds 2.
    let lattice = Lattice {
        values: vec![vec![GridValue::Int(1), GridValue::Int(9)], (1..=3).map(GridValue::Int).collect()],
        cells: vec![cell(0); 6],
    };
    assert!(lattice.has_room_on(0, 9) && lattice.has_room_on(1, 9));
    assert!(!lattice.has_room_on(0, 8) && lattice.has_room_on(1, 8));
    assert!(!lattice.has_room_on(1, 7));
}
