//! The sweep harness end to end: a wrong variant is excluded and reported, never
//! chosen; `KTC_TUNE_ON_MISS=1` tunes on the first call; measurements and the
//! reproduce command are recorded.

use ktc::ChoiceSource;
use ktc::sweep::{SweepMode, SweepOptions};
use std::time::Duration;

/// A fixture with one deliberately wrong variant.
#[ktc::tunable(axes(n = data.len()), sweep(n = [100, 10_000]))]
pub mod prefix_sum {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>, Vec<u64>) {
        ((0..n as u64).collect(), vec![0; n])
    }

    /// The reference.
    #[variant(reference)]
    pub fn serial(data: &[u64], out: &mut [u64]) {
        let mut acc = 0;
        for (o, d) in out.iter_mut().zip(data) {
            acc += d;
            *o = acc;
        }
    }

    /// Exclusive instead of inclusive: wrong, and fast — it must never be chosen.
    #[variant]
    pub fn off_by_one(data: &[u64], out: &mut [u64]) {
        let mut acc = 0;
        for (o, d) in out.iter_mut().zip(data) {
            *o = acc;
            acc += d;
        }
    }
}

fn options(dir: &std::path::Path) -> SweepOptions {
    SweepOptions {
        mode: SweepMode::Quick,
        budget: Some(Duration::from_secs(5)),
        cache_dir: Some(dir.to_path_buf()),
        fingerprint: Some("sweep-host".into()),
        progress: false,
        // Test entries are for this temporary store only, never for a configured fleet.
        skip_push: true,
        ..SweepOptions::default()
    }
}

#[test]
fn a_wrong_variant_is_excluded_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let report = (prefix_sum::Variant::kernel().sweep)(&options(dir.path())).unwrap();
    let excluded: Vec<_> = report.entry.excluded.iter().filter(|e| e.variant == "off_by_one").collect();
    assert_eq!(excluded.len(), 1, "{:#?}", report.entry.excluded);
    assert!(excluded[0].reason.contains("differs from the reference"), "{}", excluded[0].reason);
    assert!(excluded[0].point.is_some(), "the grid point is reported");
    assert!(report.entry.regions.iter().all(|r| r.variant == "serial"), "{}", report.entry.table());
    assert!(report.entry.measurements.iter().all(|m| m.variant == "serial"));
}

#[test]
fn the_entry_records_measurements_noise_and_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let report = (prefix_sum::Variant::kernel().sweep)(&options(dir.path())).unwrap();
    let entry = &report.entry;
    assert_eq!(entry.measurements.len(), 2, "one timed candidate × two grid points");
    assert!(entry.measurements.iter().all(|m| m.median_ns > 0.0 && m.runs >= 3));
    assert!(entry.noise.is_some_and(|n| n.is_finite() && n >= 0.0));
    let command = entry.reproduce.as_deref().unwrap();
    assert!(command.contains("prefix_sum::ktc_sweep"), "{command}");
    let on_disk: ktc::Entry = serde_json::from_slice(&std::fs::read(&report.entry_path).unwrap()).unwrap();
    assert_eq!(&on_disk, entry);
}

#[path = "support/child.rs"]
mod child;

#[test]
fn tune_on_miss_sweeps_on_the_first_call() {
    if child::is_child() {
        return call_once();
    }
    let dir = tempfile::tempdir().unwrap();
    let output = child::spawn("tune_on_miss_sweeps_on_the_first_call", |c| {
        c.env("KTC_CACHE_DIR", dir.path())
            .env("KTC_FINGERPRINT", "sweep-host")
            .env("KTC_TUNE_ON_MISS", "1")
            .env("KTC_SWEEP_BUDGET_S", "3");
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("SOURCE region"), "{stdout}");
    let entries = std::fs::read_dir(dir.path().join("sweep-host").join("prefix_sum")).unwrap().count();
    assert_eq!(entries, 1, "one code-version folder written by the first call");
}

/// The child's part of the test above: its first call tunes.
fn call_once() {
    let (data, mut out) = prefix_sum::inputs(50);
    prefix_sum::call(&data, &mut out);
    let choice = prefix_sum::explain(&data, &mut out);
    let source = if matches!(choice.source, ChoiceSource::Region { .. }) { "region" } else { "fallback" };
    println!("SOURCE {source}: {choice}");
}
