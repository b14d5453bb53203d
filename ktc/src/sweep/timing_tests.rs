//! Timing statistics and decisions on hand-made runs: medians, trimmed rounds,
//! verdicts, ties, state margins and looks.

use super::*;

#[test]
fn candidates_rank_by_geomean_regret_over_the_points_where_they_all_ran() {
    // 1 wins one point by 5%, 2 loses it by 5% and wins the other by 30%.
    let points = vec![vec![(0, 1.5), (1, 1.0), (2, 1.05)], vec![(0, 1.6), (1, 1.3), (2, 1.0)]];
    assert_eq!(ranked_overall(&points, &[0, 1, 2]), vec![2, 1, 0]);
    // A candidate missing at one point is no fixed choice: it goes last.
    let missing = vec![vec![(0, 1.2), (1, 1.0)], vec![(0, 1.0)]];
    assert_eq!(ranked_overall(&missing, &[1, 0]), vec![0, 1]);
    // Exact ties keep the preference order; without points nothing moves.
    let tied = vec![vec![(0, 1.0), (1, 1.0)]];
    assert_eq!(ranked_overall(&tied, &[1, 0]), vec![1, 0]);
    assert_eq!(ranked_overall(&[], &[2, 0, 1]), vec![2, 0, 1]);
}

#[test]
fn median_and_mad_of_odd_and_even_samples() {
    assert_eq!(median_and_mad(&[3.0, 1.0, 2.0]), (2.0, 1.0));
    assert_eq!(median_and_mad(&[1.0, 2.0, 3.0, 10.0]), (2.5, 1.0));
}

#[test]
fn a_preempted_round_is_trimmed() {
    // Round 2 ran under load; trimmed, it leaves the kernels' own ratio.
    let a = [200.0, 202.0, 600.0, 198.0, 200.0];
    let b = [100.0, 101.0, 300.0, 99.0, 100.0];
    let r = LogRatio::of(&a, &b);
    assert!((r.ratio() - 2.0).abs() < 1e-9);
    assert_eq!(verdict(r), Verdict::Slower);
    assert_eq!(LogRatio::of(&a[..2], &b[..2]).half_width, f64::INFINITY);
}

#[test]
fn a_lucky_fast_run_does_not_win_a_race() {
    // A parallel variant that is fast only when the idle core wakes at once: its
    // best run beats the serial variant's, its mean run does not.
    let parallel = [22.0, 50.0, 51.0, 36.0, 52.0, 49.0, 41.0, 58.0, 51.0];
    let serial = [28.0, 28.1, 28.0, 28.2, 27.9, 28.0, 28.1, 28.3, 28.0];
    let timed = [Timed::new(0, parallel.to_vec()), Timed::new(1, serial.to_vec())];
    assert_eq!(fastest(&timed).map(|t| t.candidate), Some(1));
    assert_eq!(verdict(LogRatio::of(&parallel, &serial)), Verdict::Slower);
    assert_eq!(decide(&timed, &[], &[0, 1], 0.0).unwrap(), vec![1]);
}

#[test]
fn a_slow_mode_in_a_few_rounds_keeps_the_race_open_until_more_rounds_settle_it() {
    // Every run lands at one of two speeds 1.3× apart; in six rounds the slow mode
    // hit `b` four times and `a` twice: `b`, 1.19× faster, cannot be told apart yet.
    let a = [173.6, 226.4, 173.6, 173.6, 173.7, 226.4];
    let b = [190.8, 190.8, 146.5, 146.5, 190.8, 213.0];
    assert_eq!(verdict(LogRatio::of(&a, &b)), Verdict::Open);
    // Over 24 rounds each mode took half of each candidate's runs.
    let a: Vec<f64> = (0..24).map(|k| if k % 2 == 0 { 173.6 } else { 226.4 }).collect();
    let b: Vec<f64> = (0..24).map(|k| if k % 2 == 1 { 146.5 } else { 190.8 }).collect();
    let timed = [Timed::new(0, a.clone()), Timed::new(1, b.clone())];
    assert_eq!(fastest(&timed).map(|t| t.candidate), Some(1));
    assert_eq!(verdict(LogRatio::of(&a, &b)), Verdict::Slower);
}

#[test]
fn verdicts_follow_the_interval() {
    let lr = |center: f64, half_width: f64| LogRatio { center, half_width };
    assert_eq!(verdict(lr(0.3, 0.05)), Verdict::Slower);
    assert_eq!(verdict(lr(0.01, 0.005)), Verdict::Tie);
    assert_eq!(verdict(lr(0.015, 0.05)), Verdict::Open); // wide: more rounds must tell
    assert_eq!(verdict(lr(0.03, 0.015)), Verdict::Tie); // narrow and close
    assert_eq!(verdict(lr(0.08, 0.1)), Verdict::Open); // too far to call a tie
}

fn timed(candidate: usize, median: f64, jitter: f64) -> Timed {
    let samples = (0..9).map(|k| median * (1.0 + jitter * ((k % 3) as f64 - 1.0))).collect();
    Timed::new(candidate, samples)
}

#[test]
fn preferred_candidate_wins_ties_and_loses_clear_races() {
    let close = [timed(0, 101.0, 0.001), timed(1, 100.0, 0.001)];
    assert_eq!(decide(&close, &[], &[0, 1], 0.0).unwrap(), vec![0, 1]);
    assert_eq!(decide(&close, &[], &[1, 0], 0.0).unwrap(), vec![1, 0]);
    let far = [timed(0, 150.0, 0.001), timed(1, 100.0, 0.001), timed(2, 101.5, 0.001)];
    assert_eq!(decide(&far, &[], &[0, 1, 2], 0.0).unwrap(), vec![1, 2]);
    assert!(decide(&[], &[], &[0], 0.0).is_none());
}

#[test]
fn a_lead_within_the_state_margin_is_a_tie_the_preferred_candidate_wins() {
    // 1 is measured clearly 10% ahead of the preferred 0, and 2 is 30% behind.
    let timed = [timed(0, 110.0, 0.001), timed(1, 100.0, 0.001), timed(2, 130.0, 0.001)];
    assert_eq!(decide(&timed, &[], &[0, 1, 2], 0.0).unwrap(), vec![1], "a quiet host: the lead holds");
    let margin = 1.15f64.ln();
    assert_eq!(
        decide(&timed, &[], &[0, 1, 2], margin).unwrap(),
        vec![0, 1],
        "a host whose further looks move leads by 15%: a 10% lead is a tie, and both are acceptable"
    );
    assert_eq!(
        decide(&timed, &[], &[2, 0, 1], margin).unwrap(),
        vec![0, 1],
        "beyond the margin no preference wins"
    );
}

#[test]
fn a_lead_is_one_where_every_look_that_timed_both_found_it_beyond_the_margin() {
    let looks = [vec![(0, 100.0), (1, 115.0)], vec![(0, 100.0)]];
    assert!(led_in_every_look(&looks, 0, 1, 1.10f64.ln()), "15% beyond 10%; look 2 did not time 1");
    assert!(!led_in_every_look(&looks, 0, 1, 1.20f64.ln()), "15% is within 20%");
    assert!(!led_in_every_look(&looks, 1, 0, 0.0), "the other way round");
    assert!(!led_in_every_look(&[vec![(0, 100.0), (1, 101.5)]], 0, 1, 0.0), "within the tie");
    assert!(led_in_every_look(&[], 1, 0, 0.0), "one look: the merged runs decide");
}

#[test]
fn a_lead_one_look_did_not_find_does_not_displace_the_preferred_candidate() {
    // Merged, 1 is 20% ahead of the preferred 0.
    let ahead = [timed(0, 120.0, 0.001), timed(1, 100.0, 0.001)];
    let agreeing = [vec![(0, 125.0), (1, 100.0)], vec![(0, 116.0), (1, 100.0)]];
    assert_eq!(decide(&ahead, &agreeing, &[0, 1], 0.0).unwrap(), vec![1], "every look found it");
    let split = [vec![(0, 140.0), (1, 100.0)], vec![(0, 101.0), (1, 100.0)]];
    assert_eq!(
        decide(&ahead, &split, &[0, 1], 0.0).unwrap(),
        vec![1],
        "one level look does not hand over a point where all runs put 0 20% behind"
    );
    // Merged, 1 is 5% ahead: beyond a 4% state margin, within it and the tie.
    let close = [timed(0, 105.0, 0.001), timed(1, 100.0, 0.001)];
    let margin = 1.04f64.ln();
    let split = [vec![(0, 110.0), (1, 100.0)], vec![(0, 101.0), (1, 100.0)]];
    assert_eq!(decide(&close, &[], &[0, 1], margin).unwrap(), vec![1], "no look found them level");
    assert_eq!(decide(&close, &split, &[0, 1], margin).unwrap(), vec![0, 1], "one look found them level");
    assert_eq!(
        decide(&close, &split, &[1, 0], margin).unwrap(),
        vec![1],
        "the faster one wins where it is preferred"
    );
}
