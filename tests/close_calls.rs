//! Close calls get further looks: after refinement, a point whose runner-up is within
//! 25% of the fastest without tying with it is measured again, at a later time, and a
//! clear decision is not. The fixture's `dear` costs 1.15× `cheap` at n = 10 and 3× at
//! n = 10 000, far beyond any noise either way.

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

    /// 1.15× `cheap` on short columns, 3× on long ones.
    #[variant]
    pub fn dear(data: &[u64], out: &mut [u64]) {
        super::burn(if data.len() < 100 { 115_000 } else { 300_000 });
        out[0] = data.iter().sum();
    }
}

thread_local! {
    /// Every `n` the fixture's inputs were built for on this thread, in order: one per
    /// look at a point (sweeps build on the caller).
    static BUILT: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How many looks each grid point got in one sweep of the fixture.
fn looks_per_point(grid_only: bool) -> (usize, usize) {
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
    (looks(10), looks(10_000))
}

#[test]
fn a_close_call_is_looked_at_again_and_a_clear_decision_is_not() {
    let (close, clear) = looks_per_point(false);
    assert!(close >= 2, "the close call at n = 10 had {close} look(s)");
    assert_eq!(clear, 1, "the clear decision at n = 10 000 had {clear} looks");
    // The grid-only sweep, the baseline refinement is compared with, looks once.
    assert_eq!(looks_per_point(true), (1, 1));
}
