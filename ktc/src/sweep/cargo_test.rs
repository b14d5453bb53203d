//! The body of the `#[test]` that `#[tunable]` generates: `cargo test` tunes the host.

use super::options::SweepOptions;
use super::run::open_cache;
use crate::Dispatch;
use crate::registry::Tuner;
use crate::store::LookupStatus;

/// Sweeps `tuner` (options from the environment: `KTC_SWEEP`, `KTC_SWEEP_BUDGET_S`,
/// `KTC_CACHE_DIR`), then loads the store afresh and checks that dispatch takes the
/// sweep's winner at every grid point. Panics (fails the test) on any error.
///
/// `scratch` is `CARGO_TARGET_TMPDIR` where the kernel was compiled, which cargo sets
/// only for integration tests and benches: a kernel defined there is a test fixture no
/// release build dispatches, so without `KTC_CACHE_DIR` its entry goes under that
/// folder, never into the user's store.
pub fn cargo_test(tuner: &'static Tuner, scratch: Option<&'static str>) {
    let mut options = SweepOptions::from_env();
    if let Some(scratch) = scratch
        && std::env::var_os("KTC_CACHE_DIR").is_none_or(|v| v.is_empty())
    {
        options.cache_dir = Some(std::path::Path::new(scratch).join("ktc-cache"));
    }
    let report = match (tuner.sweep)(&options) {
        Ok(report) => report,
        Err(e) => panic!("sweep of `{}` failed: {e}", tuner.name),
    };
    println!("ktc: tuned `{}` → {}", tuner.name, report.entry_path.display());
    println!("{}", report.entry.table());
    for excluded in &report.entry.excluded {
        println!("ktc: excluded `{}`: {}", excluded.variant, excluded.reason);
    }
    // The same store and fingerprint the sweep wrote to, opened afresh.
    let cache = match open_cache(&options) {
        Ok(cache) => cache,
        Err(e) => panic!("reopening the store after the sweep: {e}"),
    };
    // The local store only: what a dispatcher would serve, without the remote or a
    // tuning on miss (`resolve`'s policy, which sits above the sweep).
    let provenance = crate::Provenance::current(&tuner.identity);
    let lookup = cache.load(tuner.name, &provenance, Some(&tuner.schema()));
    let LookupStatus::Found { path: loaded, entry: found, .. } = lookup.status else {
        panic!("a fresh load did not find the entry just written: {:?}", lookup.status);
    };
    let dispatch = Dispatch::from_entry(tuner, loaded.clone(), &found);
    // Another process may have written a newer entry for the same key meanwhile; the
    // check is only meaningful against the entry this sweep wrote.
    if loaded != report.entry_path {
        println!("ktc: a newer entry {} superseded this sweep's; skipping the check", loaded.display());
        return;
    }
    let table = report.entry.table();
    for m in &report.entry.measurements {
        let point: Vec<crate::AxisValue<'_>> = tuner
            .axes
            .iter()
            .map(|a| match &m.point[a.name] {
                serde_json::Value::String(s) => crate::AxisValue::Cat(s.as_str()),
                v => crate::AxisValue::Num(v.as_f64().unwrap_or(f64::NAN)),
            })
            .collect();
        let named: Vec<(&str, crate::AxisValue<'_>)> =
            tuner.axes.iter().map(|a| a.name).zip(point.iter().copied()).collect();
        let expected = table.lookup(&named).map(|(_, r)| r);
        let choice = dispatch.explain(&point);
        let matches =
            expected.is_some_and(|r| r.variant == choice.variant && r.block_size == choice.block_size);
        assert!(matches, "at {:?} dispatch chose {choice} but the entry says {expected:?}", m.point);
    }
}
