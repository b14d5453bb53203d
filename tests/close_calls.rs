//! Close calls get further looks: after refinement, a point whose runner-up is within
//! 25% of the fastest without tying with it is measured again, at a later time, and a
//! clear decision is not. The fixture's `dear` burns 1.22× `cheap`'s units at n = 10
//! and 3× at n = 10 000. Each call's fixed cost dilutes the first: in the debug build
//! the workspace's tests run in, `dear` measures about 1.12× `cheap` there, the middle
//! (in log) of a close call, between a 2% tie and 1.25×. With 1.15× the units it
//! measured 1.055×, and the sweep, sharing two cores with the generated sweep test of
//! the same binary, did not count it a close call in 4 of 8 runs.

use ktc::sweep::{SweepMode, SweepOptions};
use std::time::Duration;

#[path = "support/burn.rs"]
mod cost;
use cost::burn;

/// The fixture: two variants with the same output, close at n = 10, far apart at 10 000.
#[ktc::tunable(axes(n = data.len()), sweep(n = [10, 10_000]))]
pub mod close {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>, Vec<u64>) {
        super::BUILT.with_borrow_mut(|built| built.push(n));
        ((0..n as u64).collect(), vec![0; 1])
    }

    /// The reference, and the fastest everywhere.
    #[variant(reference)]
    pub fn cheap(data: &[u64], out: &mut [u64]) {
        super::burn(100_000);
        out[0] = data.iter().sum();
    }

    /// 1.22× `cheap`'s units on short columns, 3× on long ones.
    #[variant]
    pub fn dear(data: &[u64], out: &mut [u64]) {
        super::burn(if data.len() < 100 { 122_000 } else { 300_000 });
        out[0] = data.iter().sum();
    }
}

thread_local! {
    /// Every `n` the fixture's inputs were built for on this thread, in order: one per
    /// look at a point (sweeps build on the caller).
    static BUILT: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How many looks each grid point got in one sweep of the fixture, and `dear`'s
/// measured cost over `cheap`'s at n = 10.
fn looks_per_point(grid_only: bool) -> (usize, usize, f64) {
    let dir = tempfile::tempdir().unwrap();
    let options = SweepOptions {
        mode: SweepMode::Quick,
        budget: Some(Duration::from_secs(8)),
        cache_dir: Some(dir.path().to_path_buf()),
        fingerprint: Some("close-host".into()),
        progress: false,
        skip_push: true,
        grid_only,
        ..SweepOptions::default()
    };
    BUILT.with_borrow_mut(Vec::clear);
    let report = (close::Variant::kernel().sweep)(&options).unwrap();
    assert!(report.entry.regions.iter().all(|r| r.variant == "cheap"), "{}", report.entry.table());
    let built = BUILT.with_borrow(Vec::clone);
    let looks = |n: usize| built.iter().filter(|&&b| b == n).count();
    let at_10 = |variant: &str| {
        let m = report.entry.measurements.iter().find(|m| m.variant == variant && m.point["n"] == 10);
        m.map_or(f64::NAN, |m| m.median_ns)
    };
    (looks(10), looks(10_000), at_10("dear") / at_10("cheap"))
}

#[test]
fn a_close_call_is_looked_at_again_and_a_clear_decision_is_not() {
    // The generated sweep test of this binary runs beside this one, and a stretch of
    // the host can move the fixture's n = 10 ratio out of a close call's window (1.25×
    // measured in one run). Only a sweep that measured a close call says whether close
    // calls get another look; a few sweeps give the host its chances to let one do so.
    let mut ratios = Vec::new();
    for _ in 0..4 {
        let (close, clear, ratio) = looks_per_point(false);
        assert_eq!(clear, 1, "the clear decision at n = 10 000 had {clear} looks");
        if close >= 2 {
            // The grid-only sweep, the baseline refinement is compared with, looks once.
            let (close, clear, _) = looks_per_point(true);
            assert_eq!((close, clear), (1, 1));
            return;
        }
        assert!(
            !(1.03..1.24).contains(&ratio),
            "the close call at n = 10 ({ratio:.3}× between the variants) had {close} look(s)"
        );
        ratios.push(ratio);
    }
    panic!("no sweep measured the fixture as a close call at n = 10: {ratios:.3?}");
}
