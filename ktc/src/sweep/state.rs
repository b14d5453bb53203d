//! The host's state margin: how far a lead measured at one time moves when the same
//! point is measured again, so that a lead within it counts as a tie.
//!
//! A point's rounds last milliseconds; on a shared VM the host's state lasts up to
//! seconds and reorders candidates. On the 2-vCPU development VM, 277 further looks in
//! one `joint_hist_batched` sweep moved a close runner-up's cost against its point's
//! winner by a median 7.6%, by 21% or more in one look of four and by 52% or more in one
//! of ten; at 1 121 samples × 10 features `pairs / par_pairs` ran 0.73–1.45 from one
//! stretch of a process to the next. A sweep that lets a lead of 8% measured in one
//! stretch displace the best fixed choice hands that point to the stretch: `verify` in
//! another stretch then finds the fixed choice faster. A lead within the margin is no
//! evidence on such a host, so it is a tie, and ties go to the candidate that does
//! best over the grid as a fixed choice (see [`super::timing::decide`]). On a quiet host
//! further looks agree and the margin falls to the within-look noise.

use super::timing::{Timed, fastest};

/// Runners-up within this factor of a point's winner count towards the shifts: the
/// close calls whose order a state change can reverse (as `settle`'s `CLOSE`).
const CLOSE: f64 = 1.25;

/// Which quantile of the shifts is the margin: a lead that one further look in ten
/// moves by as much is no lead. With the upper quartile instead (21% on the development
/// VM, where this quantile reaches the cap), `cargo bench --bench tuning_quality` met
/// all four of issue 11's targets for `joint_hist_batched` in 2 of 6 runs, against 4 of
/// 6 with this one and 1 of 6 with no margin (runs alternating in one block).
const QUANTILE: f64 = 0.9;

/// The margin's cap, as a ratio: a lead of 10% holds whatever the host. A tie hands
/// the point to the best fixed choice, so the cap bounds the regret a tie may cost:
/// with 25%, the margin sat at the cap in every `joint_hist_batched` sweep, and
/// 1 063 samples × 4 features went to `par_pairs` in every run where `pairs` ran
/// 1.14–1.26× faster. On a quiet 2-vCPU VM (under 3.1% stolen), `TQ_KERNELS=
/// joint_hist_batched cargo bench --bench tuning_quality` met all four of issue 11's
/// targets in 9 of 16 runs with 10% against 6 of 16 with 25% and 2 of 8 with 15%
/// (arms alternating, two blocks); the worst regret stayed ≤ 1.15 in 14 of 16 against
/// 8 of 16, at the price of tuned dispatch against always `par_pairs` falling below a
/// geomean of 1.00 in 6 of 16 (lowest 0.996) against 1 of 16.
pub(crate) const MAX_MARGIN: f64 = 1.10;

/// Fewer shifts than this say nothing about the host: the margin is then unknown.
const MIN_SHIFTS: usize = 8;

/// How a further look at a point moved each close runner-up against the earlier
/// look's winner `w`: `|ln(later_c / later_w) - ln(earlier_c / earlier_w)|`, for every
/// candidate `c` within [`CLOSE`] of `w` in `earlier` and timed in both looks.
pub(crate) fn look_shifts(earlier: &[Timed], later: &[Timed]) -> Vec<f64> {
    let Some(w) = fastest(earlier) else { return Vec::new() };
    let Some(w_later) = later.iter().find(|t| t.candidate == w.candidate) else { return Vec::new() };
    earlier
        .iter()
        .filter(|c| c.candidate != w.candidate && c.cost_ns <= w.cost_ns * CLOSE)
        .filter_map(|c| {
            let c_later = later.iter().find(|t| t.candidate == c.candidate)?;
            let shift = (c_later.cost_ns / w_later.cost_ns).ln() - (c.cost_ns / w.cost_ns).ln();
            shift.is_finite().then_some(shift.abs())
        })
        .collect()
}

/// The state margin (log units) from a sweep's look shifts: their [`QUANTILE`], at most
/// `ln(`[`MAX_MARGIN`]`)`; `None` with fewer than [`MIN_SHIFTS`] (too few looks to
/// tell, as in a grid-only sweep).
pub(crate) fn margin_of(shifts: &[f64]) -> Option<f64> {
    if shifts.len() < MIN_SHIFTS {
        return None;
    }
    let mut sorted = shifts.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = ((sorted.len() - 1) as f64 * QUANTILE).round() as usize;
    Some(sorted[at].clamp(0.0, MAX_MARGIN.ln()))
}

/// An entry's recorded margin (a ratio) in log units, within what a sweep records;
/// `None` where it records none or a value no sweep writes.
pub(crate) fn recorded(ratio: Option<f64>) -> Option<f64> {
    // `exp(ln(MAX_MARGIN))` may round a hair above the cap.
    ratio.filter(|r| (1.0..=MAX_MARGIN * (1.0 + 1e-9)).contains(r)).map(|r| r.ln().min(MAX_MARGIN.ln()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(candidate: usize, ns: f64) -> Timed {
        Timed::new(candidate, vec![ns; 5])
    }

    #[test]
    fn a_look_shift_is_how_far_a_close_runner_up_moved_against_the_winner() {
        // Earlier: 0 wins, 1 is 10% behind, 2 is 1.5× (not close). Later: all slower,
        // 1 now 20% ahead of 0.
        let earlier = [timed(0, 100.0), timed(1, 110.0), timed(2, 150.0)];
        let later = [timed(0, 200.0), timed(1, 160.0), timed(2, 300.0)];
        let shifts = look_shifts(&earlier, &later);
        assert_eq!(shifts.len(), 1, "only the close runner-up counts: {shifts:?}");
        assert!((shifts[0] - ((0.8f64).ln() - (1.1f64).ln()).abs()).abs() < 1e-12);
        // A host that slows every candidate alike shifts nothing.
        let slower = [timed(0, 300.0), timed(1, 330.0), timed(2, 450.0)];
        assert!(look_shifts(&earlier, &slower).iter().all(|&s| s < 1e-12));
    }

    #[test]
    fn candidates_missing_from_a_look_give_no_shift() {
        let earlier = [timed(0, 100.0), timed(1, 105.0)];
        assert!(look_shifts(&earlier, &[timed(1, 100.0)]).is_empty(), "the winner was not timed again");
        assert!(look_shifts(&earlier, &[timed(0, 100.0)]).is_empty(), "the runner-up was not");
        assert!(look_shifts(&[], &earlier).is_empty());
    }

    #[test]
    fn the_margin_is_the_ninetieth_percentile_of_enough_shifts_capped() {
        assert_eq!(margin_of(&[0.2; MIN_SHIFTS - 1]), None, "too few to tell");
        let shifts: Vec<f64> = (0..11).rev().map(|k| k as f64 * 0.01).collect();
        let m = margin_of(&shifts).unwrap();
        assert!((m - 0.09).abs() < 1e-12, "{m}");
        assert_eq!(
            margin_of(&[1.0; 20]),
            Some(MAX_MARGIN.ln()),
            "a host that moves everything still keeps real leads"
        );
        assert_eq!(margin_of(&[0.0; 20]), Some(0.0), "a quiet host: only the within-look noise decides");
    }

    #[test]
    fn a_recorded_margin_is_used_only_where_a_sweep_could_have_written_it() {
        assert_eq!(recorded(None), None);
        assert!((recorded(Some(1.05)).unwrap() - 1.05f64.ln()).abs() < 1e-12);
        assert_eq!(recorded(Some(1.0)), Some(0.0));
        assert_eq!(
            recorded(Some(MAX_MARGIN.ln().exp())),
            Some(MAX_MARGIN.ln()),
            "what a capped sweep writes"
        );
        for hostile in [f64::NAN, f64::INFINITY, 0.5, -1.0, 1e300, MAX_MARGIN * 1.01] {
            assert_eq!(recorded(Some(hostile)), None, "{hostile}");
        }
    }
}
