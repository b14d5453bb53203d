//! Refinement where no crossover shows at first: exploring wide brackets.

use super::*;
use crate::sweep::explore::EXPLORE_FACTOR;
use crate::sweep::explore::tests::measured;

#[test]
fn refinement_brackets_a_crossover_hidden_between_agreeing_ends() {
    // 0 wins at 1 000 and at 100 000; 1 wins between 2 000 and 20 000.
    let winner = |n: u64| usize::from(n > 2_000 && n < 20_000);
    let mut points = vec![1_000, 100_000];
    let mut measure = |look: Look<'_>| {
        let index = match look {
            Look::New(p) => {
                let GridValue::Int(n) = p[0] else { panic!("{p:?}") };
                points.push(n);
                points.len() - 1
            }
            Look::Again(k) => k,
        };
        Some(measured(winner(points[index]), index, 1))
    };
    let mut lattice = Lattice {
        values: vec![vec![GridValue::Int(1_000), GridValue::Int(100_000)]],
        cells: vec![measured(0, 0, 1), measured(0, 1, 1)],
    };
    assert!(refine(&mut lattice, &[true], 1.25, 1_000, &|_| None, &mut measure, &mut |_| true) > 0);
    let ns: Vec<u64> =
        lattice.values[0].iter().map(|v| if let GridValue::Int(n) = v { *n } else { 0 }).collect();
    for crossover in [2_000, 20_000] {
        let i = ns.iter().position(|&n| n > crossover).unwrap();
        assert!(ns[i] as f64 / ns[i - 1] as f64 <= 1.25, "{crossover} bracketed: {ns:?}");
    }
    let winners: Vec<usize> = lattice.cells.iter().map(|c| c.acceptable[0]).collect();
    let expected: Vec<usize> = ns.iter().map(|&n| winner(n)).collect();
    assert_eq!(winners, expected);
    assert!(ns.windows(2).all(|w| w[1] as f64 / w[0] as f64 <= EXPLORE_FACTOR), "explored: {ns:?}");
}
