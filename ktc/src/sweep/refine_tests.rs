//! Refinement on small hand-made lattices: crossovers bracketed per line, second
//! looks, the budget, and which bracket goes first.

use super::*;
use std::time::Duration;

/// The cell of measured point `result`, where `winner` wins.
fn measured(winner: usize, result: usize) -> Cell {
    Cell { acceptable: vec![winner], near: vec![winner], result: Some(result), ..Cell::default() }
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
    let looks = refine(&mut lattice, &[true, false], 1.25, 1_000, &|_| None, &mut measure, &mut |_| true);
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
    // The first look at n = 4 was taken while the host was busy (a bracket of 4, not
    // wide enough to be explored).
    let mut lattice = Lattice {
        values: vec![vec![GridValue::Int(1), GridValue::Int(4)]],
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
    assert_eq!(refine(&mut lattice, &[true], 1.25, 1_000, &|_| None, &mut measure, &mut |_| true), 2);
    assert_eq!(new_points, 0);
    assert_eq!(lattice.values[0].len(), 2);
}

#[test]
fn a_bracket_too_costly_for_the_budget_leaves_narrower_ones_open() {
    // n (wide: 1..1024) crosses on both k lines; k (narrow: 1..4) crosses only at
    // n = 1024. The budget affords one point at a time: the n bracket (two lines)
    // is left open, the k bracket is bisected.
    let winner = |n: u64, k: u64| usize::from(n > 100) + 2 * usize::from(k > 2 && n > 100);
    let mut points: Vec<(u64, u64)> = vec![(1, 1), (1, 4), (1024, 1), (1024, 4)];
    let mut lattice = Lattice {
        values: vec![
            vec![GridValue::Int(1), GridValue::Int(1024)],
            vec![GridValue::Int(1), GridValue::Int(4)],
        ],
        cells: points.iter().enumerate().map(|(r, &(n, k))| measured(winner(n, k), r)).collect(),
    };
    let mut measure = |look: Look<'_>| {
        let index = match look {
            Look::New(p) => {
                let (GridValue::Int(n), GridValue::Int(k)) = (p[0], p[1]) else { panic!("{p:?}") };
                points.push((n, k));
                points.len() - 1
            }
            Look::Again(r) => r,
        };
        let (n, k) = points[index];
        Some(measured(winner(n, k), index))
    };
    refine(&mut lattice, &[true, true], 1.25, 1_000, &|_| None, &mut measure, &mut |costs| costs.len() == 1);
    assert_eq!(lattice.values[0].len(), 2, "the n bracket stays open");
    assert!(lattice.values[1].len() > 2, "the k bracket was bisected: {:?}", lattice.values[1]);
}

#[test]
fn the_bracket_with_most_at_stake_is_split_first() {
    // n (1..2^20) is wide but its winners are within 3% of each other; k (1..5) is
    // narrow, and the wrong winner there costs 3×.
    let cell = |winner: usize, result: usize, regrets: Vec<(usize, f64)>| Cell {
        acceptable: vec![winner],
        near: vec![winner],
        result: Some(result),
        regrets,
        ..Cell::default()
    };
    let cells = vec![
        cell(0, 0, vec![(0, 1.0), (1, 1.03), (2, 3.0)]), // n = 1, k = 1
        cell(2, 1, vec![(0, 3.0), (2, 1.0)]),            // n = 1, k = 5
        cell(1, 2, vec![(0, 1.03), (1, 1.0)]),           // n = 2^20, k = 1
        cell(1, 3, vec![(1, 1.0)]),                      // n = 2^20, k = 5
    ];
    let mut lattice = Lattice {
        values: vec![
            vec![GridValue::Int(1), GridValue::Int(1 << 20)],
            vec![GridValue::Int(1), GridValue::Int(5)],
        ],
        cells: cells.clone(),
    };
    let mut new_points = Vec::new();
    let mut measure = |look: Look<'_>| match look {
        Look::New(p) => {
            new_points.push(p.to_vec());
            Some(cell(0, 4, vec![]))
        }
        Look::Again(r) => Some(cells.get(r).cloned().unwrap_or_else(|| cell(0, r, vec![]))),
    };
    // Room for one more k value only.
    refine(&mut lattice, &[true, true], 1.25, 6, &|_| None, &mut measure, &mut |_| true);
    assert_eq!(new_points.first(), Some(&vec![GridValue::Int(1), GridValue::Int(2)]));
    assert_eq!(lattice.values[0].len(), 2, "the wide, cheap-to-miss n bracket waits");
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
    let looks = refine(&mut lattice, &[true], 1.25, 1_000, &|_| None, &mut measure, &mut |_| {
        calls += 1;
        calls <= 4
    });
    assert_eq!(looks, 4);
    assert_eq!(lattice.values[0].len(), 3);
    // The cell cap stops it too: 2 cells, room for 3 values.
    let values = vec![vec![GridValue::Int(1), GridValue::Int(1 << 20)]];
    let mut lattice = Lattice { values, cells: vec![measured(0, 0), measured(1, 1)] };
    refine(&mut lattice, &[true], 1.25, 3, &|_| None, &mut measure, &mut |_| true);
    assert_eq!(lattice.values[0].len(), 3);
}

#[test]
fn a_bracket_is_priced_by_what_its_ends_took() {
    // n crosses from 0 to 1 at 50 and back at 5 000. Points up to 10 000 take 2 ms a
    // look, larger ones 200 ms; each check affords 10 ms. The dear bracket (100..10^6,
    // the widest, first) is left open; the cheap one is bisected down to 1.25×, which
    // the mean over all points (68 ms) would not have afforded.
    let winner = |n: u64| usize::from((50..5_000).contains(&n));
    let took = |n: u64| Duration::from_millis(if n > 10_000 { 200 } else { 2 });
    let mut points: Vec<(u64, u32)> = vec![(1, 1), (100, 1), (1_000_000, 1)];
    let cell = |n: u64, looks: u32, result: usize| Cell {
        acceptable: vec![winner(n)],
        near: vec![winner(n)],
        result: Some(result),
        took: took(n) * looks,
        ..Cell::default()
    };
    let mut lattice = Lattice {
        values: vec![points.iter().map(|&(n, _)| GridValue::Int(n)).collect()],
        cells: points.iter().enumerate().map(|(r, &(n, l))| cell(n, l, r)).collect(),
    };
    let mut measure = |look: Look<'_>| {
        let index = match look {
            Look::New(p) => {
                let GridValue::Int(n) = p[0] else { panic!("{p:?}") };
                points.push((n, 1));
                points.len() - 1
            }
            Look::Again(r) => {
                points[r].1 += 1;
                r
            }
        };
        let (n, looks) = points[index];
        Some(cell(n, looks, index))
    };
    let mut afford = |costs: &[Option<Duration>]| {
        costs.iter().map(|c| c.expect("every end was measured")).sum::<Duration>()
            <= Duration::from_millis(10)
    };
    refine(&mut lattice, &[true], 1.25, 1_000, &|_| None, &mut measure, &mut afford);
    let ns: Vec<u64> =
        lattice.values[0].iter().map(|v| if let GridValue::Int(n) = v { *n } else { 0 }).collect();
    assert!(ns.iter().filter(|&&n| n > 1 && n < 100).count() >= 3, "the cheap bracket was bisected: {ns:?}");
    assert!(!ns.iter().any(|&n| n > 100 && n < 1_000_000), "the dear bracket stayed open: {ns:?}");
}

#[test]
fn a_new_point_costs_the_geometric_mean_of_one_look_at_each_end() {
    let ms = Duration::from_millis;
    assert_eq!(new_point_cost(ms(10), ms(1_000)), Some(ms(100)));
    assert_eq!(new_point_cost(ms(0), ms(40)), Some(ms(40)));
    assert_eq!(new_point_cost(ms(0), ms(0)), None);
    let took = |ms: u64, result| Cell { took: Duration::from_millis(ms), result, ..Cell::default() };
    assert_eq!(look_cost(&took(0, None)), None);
    assert_eq!(look_cost(&took(7, None)), Some(ms(7)));
    // A cell looked at twice took two looks' time.
    let twice = HashSet::from([3]);
    assert_eq!(one_look(&took(80, Some(3)), &twice), ms(40));
    assert_eq!(one_look(&took(80, Some(4)), &twice), ms(80));
}

#[test]
fn second_looks_leave_room_for_the_split_and_the_dear_ones_go_first() {
    // n crosses from 0 to 1 at 100 on both lines; a look takes 1 ms on the `cheap`
    // line, 100 ms on the `dear` one, and 150 ms are left. All four second looks (202
    // ms) would leave nothing for the split (101 ms); the cheap ones and the split fit.
    let per_look = |line: &str| Duration::from_millis(if line == "cheap" { 1 } else { 100 });
    let mut points: Vec<(u64, &str, u32)> =
        vec![(1, "cheap", 1), (1, "dear", 1), (1024, "cheap", 1), (1024, "dear", 1)];
    let cell = |(n, line, looks): (u64, &str, u32), result: usize| Cell {
        acceptable: vec![usize::from(n > 100)],
        near: vec![usize::from(n > 100)],
        result: Some(result),
        took: per_look(line) * looks,
        ..Cell::default()
    };
    let mut lattice = Lattice {
        values: vec![
            vec![GridValue::Int(1), GridValue::Int(1024)],
            vec![GridValue::Label("cheap"), GridValue::Label("dear")],
        ],
        cells: points.iter().enumerate().map(|(r, &p)| cell(p, r)).collect(),
    };
    let spent = std::cell::Cell::new(Duration::ZERO);
    let mut again = Vec::new();
    let mut measure = |look: Look<'_>| {
        let index = match look {
            Look::New(p) => {
                let (GridValue::Int(n), GridValue::Label(line)) = (p[0], p[1]) else { panic!("{p:?}") };
                points.push((n, line, 1));
                points.len() - 1
            }
            Look::Again(r) => {
                again.push(r);
                points[r].2 += 1;
                r
            }
        };
        spent.set(spent.get() + per_look(points[index].1));
        Some(cell(points[index], index))
    };
    let mut afford = |costs: &[Option<Duration>]| {
        costs.iter().map(|c| c.expect("every end was measured")).sum::<Duration>()
            <= Duration::from_millis(150).saturating_sub(spent.get())
    };
    refine(&mut lattice, &[true, false], 1.25, 1_000, &|_| None, &mut measure, &mut afford);
    assert_eq!(&again[..2], &[0, 2], "the cheap line's ends were looked at again first");
    assert!(!again.contains(&1) || !again.contains(&3), "a dear end kept one look: {again:?}");
    assert!(lattice.values[0].len() > 2, "the bracket was split: {:?}", lattice.values[0]);
}

#[test]
fn a_disagreement_the_budget_cannot_split_is_split_by_inference() {
    // At n = 2, 0 wins with 1 near it; at n = 5, 1 wins and 0 is far behind. Nothing is
    // afforded: the bracket gets a value between anyway, inferred as 1, so the lower
    // end's 0 answers no further than its own bracket's middle.
    let cell = |acceptable: Vec<usize>, result| Cell {
        near: acceptable.clone(),
        acceptable,
        result,
        ..Cell::default()
    };
    let values = vec![vec![GridValue::Int(2), GridValue::Int(5)]];
    let mut lattice =
        Lattice { values: values.clone(), cells: vec![cell(vec![0, 1], Some(0)), cell(vec![1], Some(1))] };
    let mut measure =
        |look: Look<'_>| panic!("nothing was afforded, yet {:?} was measured", matches!(look, Look::New(_)));
    assert_eq!(refine(&mut lattice, &[true], 1.25, 1_000, &|_| None, &mut measure, &mut |_| false), 0);
    assert_eq!(lattice.values[0], vec![GridValue::Int(2), GridValue::Int(3), GridValue::Int(5)]);
    assert_eq!(lattice.cells[1].acceptable, vec![1]);
    assert!(lattice.cells[1].inferred_from.is_some(), "inferred again once the ends are final");
    // A true crossover (neither winner near at the other end) is not guessed at.
    let mut lattice = Lattice { values, cells: vec![cell(vec![0], Some(0)), cell(vec![1], Some(1))] };
    refine(&mut lattice, &[true], 1.25, 1_000, &|_| None, &mut measure, &mut |_| false);
    assert_eq!(lattice.values[0].len(), 2, "left open: {:?}", lattice.values[0]);
}

#[test]
fn a_winner_changed_after_refinement_opens_a_bracket_the_next_round_splits() {
    // Both grid ends first take 0, so refinement measures nothing (their bracket, 4×,
    // is not wide enough to be explored); a further look then finds 1 ahead at
    // n = 1 000, as it is below the crossover at 2 000.
    let winner = |n: u64| usize::from(n < 2_000);
    let mut points = vec![1_000, 4_000];
    let mut measure = |look: Look<'_>| {
        let index = match look {
            Look::New(p) => {
                let GridValue::Int(n) = p[0] else { panic!("{p:?}") };
                points.push(n);
                points.len() - 1
            }
            Look::Again(k) => k,
        };
        Some(measured(winner(points[index]), index))
    };
    let mut lattice = Lattice {
        values: vec![vec![GridValue::Int(1_000), GridValue::Int(4_000)]],
        cells: vec![measured(0, 0), measured(0, 1)],
    };
    let first = refine(&mut lattice, &[true], 1.25, 1_000, &|_| None, &mut measure, &mut |_| true);
    assert_eq!(first, 0, "no crossover shows");
    let changed = lattice.decide_measured_again(|i| Ok::<_, ()>(measured(usize::from(i == 0), i)));
    assert_eq!(changed, Ok(true));
    let second = refine(&mut lattice, &[true], 1.25, 1_000, &|_| None, &mut measure, &mut |_| true);
    assert!(second > 0);
    let ns: Vec<u64> =
        lattice.values[0].iter().map(|v| if let GridValue::Int(n) = v { *n } else { 0 }).collect();
    let i = ns.iter().position(|&n| n >= 2_000).unwrap();
    assert!(ns[i] as f64 / ns[i - 1] as f64 <= 1.25, "bracketed: {ns:?}");
    assert_eq!(lattice.cells[i - 1].acceptable, vec![1]);
    assert_eq!(lattice.cells[i].acceptable, vec![0]);
}
