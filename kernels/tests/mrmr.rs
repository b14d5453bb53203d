//! MRMR selection: the planted answer of the synthetic set, a small data set whose MID
//! and MIQ orders were worked out step by step, ties, and bad input.

use ktc_kernels::Codes;
use ktc_kernels::data::synthetic::{self, Role};
use ktc_kernels::mrmr::{Criterion, HistStrategy, MIQ_EPSILON, relevance, select};

/// Twelve samples, a binary class, five 3-level features (seed 1 of a search for a set
/// where MID and MIQ disagree with no near-tie at any step).
const CLASS: [u8; 12] = [1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0];
const FEATURES: [[u8; 12]; 5] = [
    [0, 2, 1, 1, 1, 2, 0, 1, 0, 1, 2, 2],
    [2, 2, 1, 2, 0, 0, 2, 0, 0, 0, 2, 2],
    [0, 1, 2, 1, 2, 1, 1, 1, 2, 2, 2, 2],
    [0, 1, 2, 2, 0, 2, 2, 0, 1, 0, 1, 1],
    [2, 2, 0, 2, 1, 1, 1, 1, 1, 0, 2, 2],
];

fn small_set() -> (Codes, Codes) {
    let c = Codes::column_u8(CLASS.to_vec(), 2).unwrap();
    let x = Codes::from_u8(FEATURES.concat(), 12, 5, 3).unwrap();
    (c, x)
}

/// Scores per step (nats), worked out with an independent implementation of the
/// formulas and confirmed by pymrmr (which prints bits: divide by ln 2):
///
/// relevance I(f;c): f1 0.1524, f2 0.0805, f4 0.0747, f3 0.0297, f0 0.0086 → f1 first.
/// MID step 2: f2 −0.0518, f0 −0.1673, f3 −0.1673, f4 −0.5197 → f2
/// MID step 3: f0 −0.1455, f3 −0.1673, f4 −0.3217            → f0
/// MID step 4: f3 −0.2204, f4 −0.2702                         → f3
/// MIQ step 2: f2 0.6082, f3 0.1505, f4 0.1257, f0 0.0488     → f2
/// MIQ step 3: f4 0.1885, f3 0.1505, f0 0.0557                → f4
/// MIQ step 4: f3 0.1642, f0 0.0468                           → f3
#[test]
fn mid_and_miq_orders_match_the_worked_example() {
    let (c, x) = small_set();
    let mid = select(&c, &x, 4, Criterion::Mid, HistStrategy::Dispatched).unwrap();
    assert_eq!(mid.features(), [1, 2, 0, 3]);
    let miq = select(&c, &x, 4, Criterion::Miq, HistStrategy::Dispatched).unwrap();
    assert_eq!(miq.features(), [1, 2, 4, 3]);

    let rel = [0.0086, 0.1524, 0.0805, 0.0297, 0.0747];
    for (got, want) in mid.relevance.iter().zip(rel) {
        assert!((got - want).abs() < 1e-4, "relevance {got} vs {want}");
    }
    let mid_scores = [0.1524, -0.0518, -0.1455, -0.2204];
    let miq_scores = [0.1524, 0.6082, 0.1885, 0.1642];
    for (pick, want) in mid.picks.iter().zip(mid_scores) {
        assert!((pick.score - want).abs() < 1e-4, "MID score {} vs {want}", pick.score);
    }
    for (pick, want) in miq.picks.iter().zip(miq_scores) {
        assert!((pick.score - want).abs() < 1e-4, "MIQ score {} vs {want}", pick.score);
        let expected = pick.relevance / (pick.redundancy + MIQ_EPSILON);
        assert!(pick.redundancy == 0.0 || (pick.score - expected).abs() < 1e-12);
    }
}

#[test]
fn synthetic_planted_features_come_before_their_copies() {
    let set = synthetic::generate(20_000, 30, 42).unwrap();
    let informative = set.informative();
    assert_eq!(informative.len(), 5);
    for criterion in [Criterion::Mid, Criterion::Miq] {
        let s =
            select(&set.data.target, &set.data.features, 10, criterion, HistStrategy::Dispatched).unwrap();
        let first: Vec<usize> = s.features()[..5].to_vec();
        let mut sorted = first.clone();
        sorted.sort_unstable();
        let mut want = informative.clone();
        want.sort_unstable();
        assert_eq!(
            sorted, want,
            "{criterion}: the first five picks {first:?} are the informative {informative:?}"
        );
        assert_eq!(s.features()[0], informative[0], "{criterion}: the strongest first");
    }
}

/// Why the synthetic set needs MRMR: by relevance alone, a copy of a strong feature
/// outranks the weakest informative one.
#[test]
fn synthetic_copies_outrank_weak_features_on_relevance_alone() {
    let set = synthetic::generate(20_000, 30, 42).unwrap();
    let rel = relevance(&set.data.target, &set.data.features, HistStrategy::Dispatched).unwrap();
    let weakest = *set.informative().last().unwrap();
    let best_copy = (set.roles.iter().enumerate())
        .filter(|(_, r)| matches!(r, Role::Copy { .. }))
        .map(|(j, _)| rel[j])
        .fold(f64::MIN, f64::max);
    assert!(best_copy > rel[weakest], "copy {best_copy} vs weakest informative {}", rel[weakest]);
}

#[test]
fn synthetic_set_is_fixed_by_its_seed() {
    let a = synthetic::generate(1_000, 12, 9).unwrap();
    let b = synthetic::generate(1_000, 12, 9).unwrap();
    let c = synthetic::generate(1_000, 12, 10).unwrap();
    assert_eq!(a.roles, b.roles);
    let host = |s: &synthetic::Synthetic| format!("{:?}", s.data.features.host());
    assert_eq!(host(&a), host(&b));
    assert_ne!(host(&a), host(&c));
    assert!(synthetic::generate(0, 5, 1).is_err());
    assert!(synthetic::generate(5, 0, 1).is_err());
}

#[test]
fn margins_are_the_lead_over_the_runner_up() {
    let (c, x) = small_set();
    let mid = select(&c, &x, 5, Criterion::Mid, HistStrategy::Dispatched).unwrap();
    // From the worked table: step 1 f1 0.1524 vs f2 0.0805; step 2 −0.0518 vs −0.1673.
    assert!((mid.picks[0].margin - (0.1524 - 0.0805)).abs() < 2e-4, "{:?}", mid.picks[0]);
    assert!((mid.picks[1].margin - (-0.0518 + 0.1673)).abs() < 2e-4, "{:?}", mid.picks[1]);
    assert_eq!(mid.picks[4].margin, f64::INFINITY, "the last candidate has no rival");
}

#[test]
fn ties_go_to_the_lower_column() {
    // Three identical features: equal relevance, and after the first, equal scores.
    let c = Codes::column_u8(vec![0, 1, 1, 0, 1, 0], 2).unwrap();
    let col = [0u8, 1, 1, 0, 1, 0];
    let x = Codes::from_u8([col, col, col].concat(), 6, 3, 2).unwrap();
    for criterion in [Criterion::Mid, Criterion::Miq] {
        let s = select(&c, &x, 3, criterion, HistStrategy::Dispatched).unwrap();
        assert_eq!(s.features(), [0, 1, 2]);
        assert_eq!(s.picks[0].margin, 0.0, "a tie has no margin");
    }
}

#[test]
fn k_is_capped_at_p_and_zero_selects_nothing() {
    let (c, x) = small_set();
    assert_eq!(select(&c, &x, 99, Criterion::Mid, HistStrategy::Dispatched).unwrap().picks.len(), 5);
    assert!(select(&c, &x, 0, Criterion::Mid, HistStrategy::Dispatched).unwrap().picks.is_empty());
}

#[test]
fn every_fixed_variant_selects_what_dispatch_selects() {
    let set = synthetic::generate(5_000, 12, 3).unwrap();
    let (c, x) = (&set.data.target, &set.data.features);
    let dispatched = select(c, x, 6, Criterion::Mid, HistStrategy::Dispatched).unwrap();
    for strategy in HistStrategy::all_forced() {
        if strategy.unavailable_reason().is_some() {
            continue;
        }
        let forced = select(c, x, 6, Criterion::Mid, strategy).unwrap();
        assert_eq!(forced, dispatched, "{strategy}");
    }
}

#[test]
fn a_target_of_another_length_is_an_error() {
    let (_, x) = small_set();
    let short = Codes::column_u8(vec![0, 1, 0], 2).unwrap();
    assert!(select(&short, &x, 2, Criterion::Mid, HistStrategy::Dispatched).is_err());
}

#[test]
fn criteria_parse_and_print() {
    assert_eq!("MIQ".parse::<Criterion>().unwrap(), Criterion::Miq);
    assert_eq!("mid".parse::<Criterion>().unwrap(), Criterion::Mid);
    assert!("mad".parse::<Criterion>().unwrap_err().to_string().contains("mid"));
    assert_eq!(Criterion::Miq.to_string(), "MIQ");
}

#[test]
fn comparison_runs_every_available_strategy_with_the_same_selection() {
    use ktc_kernels::mrmr::{Outcome, compare_strategies};
    let set = synthetic::generate(3_000, 12, 5).unwrap();
    let rows = compare_strategies(&set.data.target, &set.data.features, 4, Criterion::Miq, 2).unwrap();
    assert_eq!(rows[0].strategy, HistStrategy::Dispatched);
    assert_eq!(rows.len(), 1 + HistStrategy::all_forced().len());
    for row in &rows {
        match (&row.outcome, row.strategy.unavailable_reason()) {
            (Outcome::Ran { same_selection, .. }, None) => assert!(same_selection, "{}", row.strategy),
            (Outcome::Skipped(why), Some(reason)) => assert_eq!(why, &reason.to_string()),
            (outcome, reason) => panic!("{}: {outcome:?} but unavailable: {reason:?}", row.strategy),
        }
    }
}
