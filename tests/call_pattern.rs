//! A sweep and a verify time calls the way the options say: in a loop, or one call
//! after each pause. The fixture's costs differ by construction between the two:
//! `warm` is cheap while the fixture is called back to back and pays a wake-up after
//! two idle milliseconds (a thread pool's sleeping workers); `steady` costs the same
//! always. Idle counts from the fixture's last call of either variant, so that in a
//! loop `warm` never pays, however long `steady`'s samples between its own take.

use ktc::sweep::{CallPattern, SweepMode, SweepOptions};
use ktc::verify::{VerifyOptions, verify};
use ktc::{AxisValue, DecisionTable};
use std::cell::Cell;
use std::time::{Duration, Instant};

#[path = "support/burn.rs"]
mod cost;
use cost::burn;

/// After this long without a call, `warm` pays [`WAKE_UP`].
const IDLE: Duration = Duration::from_millis(2);
/// What `warm` pays after an idle spell: 5× `steady`'s cost at the grid's largest n.
const WAKE_UP: usize = 400_000;

thread_local! {
    /// When a variant of the fixture last returned on this thread.
    static LAST_CALL: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// The fixture: `warm` wins in a loop by 20×, `steady` after a pause by 5× or more.
#[ktc::tunable(axes(n = data.len()), sweep(n = [1_000, 4_000]))]
pub mod woken {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>, Vec<u64>) {
        ((0..n as u64).collect(), vec![0; 1])
    }

    /// The reference: 20 units per item, however the calls come.
    #[variant(reference)]
    pub fn steady(data: &[u64], out: &mut [u64]) {
        super::burn(20 * data.len());
        out[0] = data.iter().sum();
        super::LAST_CALL.set(Some(std::time::Instant::now()));
    }

    /// One unit per item while called back to back; a wake-up first after a pause.
    #[variant]
    pub fn warm(data: &[u64], out: &mut [u64]) {
        let idle = super::LAST_CALL.get().is_none_or(|last| last.elapsed() > super::IDLE);
        super::burn(data.len() + if idle { super::WAKE_UP } else { 0 });
        out[0] = data.iter().sum();
        super::LAST_CALL.set(Some(std::time::Instant::now()));
    }
}

const TUNER: &ktc::KernelInfo = woken::Variant::kernel();

/// The same fixture, declared as called now and then: its sweeps time one call after
/// each 5 ms pause unless their options say otherwise.
#[ktc::tunable(axes(n = data.len()), sweep(n = [1_000, 4_000]), after_pause_ms = 5)]
pub mod declared {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>, Vec<u64>) {
        super::woken::inputs(n)
    }

    /// The reference, as `woken::steady`.
    #[variant(reference)]
    pub fn steady(data: &[u64], out: &mut [u64]) {
        super::woken::steady(data, out)
    }

    /// As `woken::warm`.
    #[variant]
    pub fn warm(data: &[u64], out: &mut [u64]) {
        super::woken::warm(data, out)
    }
}

fn options(dir: &std::path::Path, calls: impl Into<Option<CallPattern>>) -> SweepOptions {
    SweepOptions {
        mode: SweepMode::Quick,
        budget: Some(Duration::from_secs(4)),
        cache_dir: Some(dir.to_path_buf()),
        fingerprint: Some("pattern-host".into()),
        progress: false,
        skip_push: true,
        calls: calls.into(),
        ..SweepOptions::default()
    }
}

fn choice(table: &DecisionTable, n: u64) -> String {
    table.lookup(&[("n", AxisValue::Int(n))]).unwrap().1.variant.clone()
}

/// One test, so the two sweeps never time each other's runs.
#[test]
fn the_call_pattern_decides_the_choice_is_recorded_and_verify_judges_by_it() {
    let pause = CallPattern::AfterPause(Duration::from_millis(5));
    let loop_dir = tempfile::tempdir().unwrap();
    let in_a_loop = (TUNER.sweep)(&options(loop_dir.path(), CallPattern::InALoop)).unwrap();
    let pause_dir = tempfile::tempdir().unwrap();
    let after_pause = (TUNER.sweep)(&options(pause_dir.path(), pause)).unwrap();

    for n in [1_000, 2_000, 4_000] {
        assert_eq!(choice(&in_a_loop.entry.table(), n), "warm", "in a loop at n={n}");
        assert_eq!(choice(&after_pause.entry.table(), n), "steady", "after a pause at n={n}");
    }
    assert_eq!(in_a_loop.entry.after_pause_us, None);
    assert_eq!(after_pause.entry.after_pause_us, Some(5_000));
    let reproduce = after_pause.entry.reproduce.clone().unwrap();
    assert!(reproduce.contains("KTC_SWEEP_AFTER_PAUSE_MS=5 "), "{reproduce}");
    // After a pause every sample is one call, so `warm`'s paid the wake-up at every point.
    let median = |variant: &str, point: &std::collections::BTreeMap<String, serde_json::Value>| {
        let measured = after_pause.entry.measurements.iter();
        measured.filter(|m| m.variant == variant && &m.point == point).map(|m| m.median_ns).next()
    };
    for m in after_pause.entry.measurements.iter().filter(|m| m.variant == "steady") {
        let warm = median("warm", &m.point).unwrap();
        assert!(warm > 2.0 * m.median_ns, "{:?}: warm {warm} ns, steady {} ns", m.point, m.median_ns);
    }

    // A verify follows the entry's pattern unless told otherwise.
    let sampled = VerifyOptions { points: 4, looks: 1, ..VerifyOptions::default() };
    let own = verify(TUNER, &sampled, &options(pause_dir.path(), CallPattern::InALoop)).unwrap();
    assert_eq!((own.calls, own.entry_calls), (pause, pause));
    assert!(own.worst_regret < 1.5, "{own}");
    assert!(own.to_string().contains("one call after each 5 ms pause"), "{own}");

    // The loop-tuned entry, judged for calls after a pause, is flagged, and what it
    // flagged is not recorded for a refine that would re-sweep it in a loop.
    let judged = VerifyOptions { calls: Some(pause), ..sampled };
    let other = verify(TUNER, &judged, &options(loop_dir.path(), CallPattern::InALoop)).unwrap();
    assert_eq!((other.calls, other.entry_calls), (pause, CallPattern::InALoop));
    assert!(other.worst_regret > 3.0, "warm after a pause against steady: {other}");
    assert!(!other.is_within() && other.recorded.is_none(), "{other}");
    assert!(other.to_string().contains("entry: its sweep timed calls in a loop"), "{other}");
    let json = serde_json::to_value(&other).unwrap();
    assert_eq!((json["after_pause_ms"].as_f64(), json["entry_after_pause_ms"].as_f64()), (Some(5.0), None));

    // A kernel declared as called now and then is swept that way where the options
    // name no pattern, and in a loop where they say so.
    let declared = declared::Variant::kernel();
    assert_eq!(declared.calls, pause);
    let declared_dir = tempfile::tempdir().unwrap();
    let by_default = (declared.sweep)(&options(declared_dir.path(), None)).unwrap();
    assert_eq!(by_default.entry.after_pause_us, Some(5_000));
    assert_eq!(choice(&by_default.entry.table(), 2_000), "steady");
    let looped_dir = tempfile::tempdir().unwrap();
    let looped = (declared.sweep)(&options(looped_dir.path(), CallPattern::InALoop)).unwrap();
    assert_eq!(looped.entry.after_pause_us, None);
    assert_eq!(choice(&looped.entry.table(), 2_000), "warm");
}
