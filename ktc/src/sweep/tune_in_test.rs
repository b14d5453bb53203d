//! The body of the `#[test]` that `#[tunable]` generates: `cargo test` tunes the host,
//! for the release build ([`release`](super::release)).

use super::SweepOptions;
use super::release::{self, TestBuild, Where};
use super::sweeper::open_cache;
use crate::provenance::summarize_changes;
use crate::registry::KernelInfo;
use crate::store::LookupStatus;
use crate::{Dispatch, Provenance};

/// Sweeps `kernel` (options from the environment: `KTC_SWEEP`, `KTC_SWEEP_BUDGET_S`,
/// `KTC_CACHE_DIR`, `KTC_FINGERPRINT`), then loads the store afresh and checks that
/// dispatch takes the sweep's winner at every grid point. In a debug build the sweep
/// runs in a child optimised build of the same test instead (unless
/// `KTC_SWEEP_RELEASE=0`), whose entry the release build serves. Panics (fails the
/// test) on any error.
pub fn tune_in_test(kernel: &'static KernelInfo, build: TestBuild) {
    // A kernel defined in an integration test or bench is a fixture: without
    // `KTC_CACHE_DIR`, its entries go under the target's scratch folder, never into the
    // user's store.
    let store = build
        .scratch
        .filter(|_| std::env::var_os("KTC_CACHE_DIR").is_none_or(|v| v.is_empty()))
        .map(|scratch| std::path::Path::new(scratch).join("ktc-cache"));
    match release::decide(kernel, &build) {
        Where::Release(mut cmd) => {
            if let Some(store) = &store {
                cmd.env("KTC_CACHE_DIR", store);
            }
            in_release(kernel, cmd, store)
        }
        Where::Here(note) => {
            if let Some(note) = note {
                say(&note);
            }
            here(kernel, store);
        }
    }
}

/// One line to stderr, past the test harness's capture (which takes `print!` and
/// `eprint!` only): the user sees where the tuning went without `--nocapture`.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Runs the child release build's sweep test, streaming its output, then checks that
/// the store holds an entry for this crate's release build.
fn in_release(
    kernel: &'static KernelInfo,
    mut cmd: std::process::Command,
    store: Option<std::path::PathBuf>,
) {
    let shown = release::display(&cmd);
    say(&format!(
        "ktc: tuning `{}` in an optimised build (set {}=0 to tune this debug build instead): {shown}",
        kernel.name,
        release::RELEASE_VAR
    ));
    match cmd.status() {
        Ok(status) if status.success() => {}
        Ok(status) => panic!("the release sweep of `{}` failed ({status}): {shown}", kernel.name),
        Err(e) => panic!("could not run the release sweep of `{}`: {e}: {shown}", kernel.name),
    }
    // This build's provenance but for its profile: what a release build will look up.
    let mut identity = kernel.identity;
    identity.build.profile = "release";
    let options = SweepOptions { cache_dir: store, ..SweepOptions::from_env() };
    let cache = open_cache(&options).unwrap_or_else(|e| panic!("opening the store after the sweep: {e}"));
    let provenance = Provenance::for_device(&identity, options.device);
    match cache.load_quiet(kernel.name, &provenance, Some(&kernel.schema())).status {
        LookupStatus::Found { path, .. } => {
            say(&format!("ktc: release builds of `{}` use {}", kernel.name, path.display()))
        }
        LookupStatus::Stale { path, changes, .. } => {
            panic!(
                "the release sweep's entry {} does not match this crate's release build ({})",
                path.display(),
                summarize_changes(&changes)
            )
        }
        LookupStatus::Missing => {
            panic!("the release sweep of `{}` left no entry in {}", kernel.name, cache.root().display())
        }
    }
}

/// Sweeps in this process and checks dispatch against the entry written.
fn here(kernel: &'static KernelInfo, store: Option<std::path::PathBuf>) {
    let options = SweepOptions { cache_dir: store, ..SweepOptions::from_env() };
    let report = match (kernel.sweep)(&options) {
        Ok(report) => report,
        Err(e) => panic!("sweep of `{}` failed: {e}", kernel.name),
    };
    println!(
        "ktc: tuned `{}` ({} build) → {}",
        kernel.name,
        kernel.identity.build.profile,
        report.entry_path.display()
    );
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
    let provenance = Provenance::for_device(&kernel.identity, options.device);
    let lookup = cache.load(kernel.name, &provenance, Some(&kernel.schema()));
    let LookupStatus::Found { path: loaded, entry: found, .. } = lookup.status else {
        panic!("a fresh load did not find the entry just written: {:?}", lookup.status);
    };
    let dispatch = Dispatch::from_entry(kernel, loaded.clone(), &found);
    // Another process may have written a newer entry for the same key meanwhile; the
    // check is only meaningful against the entry this sweep wrote.
    if loaded != report.entry_path {
        println!("ktc: a newer entry {} superseded this sweep's; skipping the check", loaded.display());
        return;
    }
    let table = report.entry.table();
    for m in &report.entry.measurements {
        let point: Vec<crate::AxisValue<'_>> = kernel
            .axes
            .iter()
            .map(|a| match &m.point[a.name] {
                serde_json::Value::String(s) => crate::AxisValue::Cat(s.as_str()),
                v => crate::AxisValue::Num(v.as_f64().unwrap_or(f64::NAN)),
            })
            .collect();
        let named: Vec<(&str, crate::AxisValue<'_>)> =
            kernel.axes.iter().map(|a| a.name).zip(point.iter().copied()).collect();
        let expected = table.lookup(&named).map(|(_, r)| r);
        let choice = dispatch.explain(&point);
        let matches =
            expected.is_some_and(|r| r.variant == choice.variant && r.block_size == choice.block_size);
        assert!(matches, "at {:?} dispatch chose {choice} but the entry says {expected:?}", m.point);
    }
}
