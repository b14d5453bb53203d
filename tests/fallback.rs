//! Dispatch never breaks on a bad store: no entry, a corrupt entry, an entry naming an
//! unknown variant or a block size outside the declared list, a stale entry, or an
//! entry choosing a variant whose capability is missing here → the reference runs, one
//! warning, correct output. Each case runs in a fresh child process (the dispatcher
//! loads once per process).

use ktc::{ChoiceSource, KernelTuningCache, Provenance, Region};
use std::path::Path;

#[path = "support/child.rs"]
mod child;

#[path = "fixtures/scale.rs"]
pub mod fixture;
use fixture::scale;

const FINGERPRINT: &str = "fallback-host";

fn cache(dir: &Path) -> KernelTuningCache {
    KernelTuningCache::open(dir).unwrap().with_fingerprint(FINGERPRINT)
}

fn current() -> Provenance {
    Provenance::current(&scale::Variant::kernel().identity)
}

fn write_regions(dir: &Path, provenance: &Provenance, regions: Vec<Region>) {
    let cache = cache(dir);
    let table = ktc::DecisionTable { axes: vec![ktc::Axis::numeric("n")], regions };
    cache.write_entry(&cache.new_entry("scale", provenance, table)).unwrap();
}

/// Runs test `test` as a child with store `dir`; returns its stdout and ktc warnings.
fn run_child(test: &str, dir: &Path) -> (String, Vec<String>) {
    let output = child::spawn(test, |c| {
        c.env("KTC_CACHE_DIR", dir).env("KTC_FINGERPRINT", FINGERPRINT);
    });
    (String::from_utf8_lossy(&output.stdout).into_owned(), child::warnings(&output))
}

/// Asserts the child of `test` fell back to the reference with correct output and
/// exactly one warning containing `cause`.
fn assert_fell_back(test: &str, dir: &Path, cause: &str) {
    let (stdout, warnings) = run_child(test, dir);
    assert!(stdout.contains("VARIANT serial FALLBACK"), "{stdout}");
    assert!(stdout.contains("OUTPUT equal"), "{stdout}");
    assert_eq!(warnings.len(), 1, "expected one warning, got {warnings:#?}");
    assert!(warnings[0].contains(cause), "warning {:?} does not mention {cause:?}", warnings[0]);
}

/// The child's part: dispatch three times, print the choice and whether the output
/// equals the reference's.
fn dispatch_and_print() {
    for _ in 0..3 {
        let (data, mut out) = scale::inputs(1000);
        let choice = scale::explain(&data, &mut out);
        scale::call(&data, &mut out);
        let mut expected = vec![0.0; data.len()];
        scale::serial(&data, &mut expected);
        let kind = if matches!(choice.source, ChoiceSource::Fallback { .. }) { "FALLBACK" } else { "REGION" };
        println!("VARIANT {} {kind}", choice.variant);
        println!("OUTPUT {}", if out == expected { "equal" } else { "differs" });
    }
}

#[test]
fn no_entry_falls_back() {
    if child::is_child() {
        return dispatch_and_print();
    }
    let dir = tempfile::tempdir().unwrap();
    assert_fell_back("no_entry_falls_back", dir.path(), "no tuning for `scale`");
}

#[test]
fn corrupt_entry_falls_back() {
    if child::is_child() {
        return dispatch_and_print();
    }
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join(FINGERPRINT).join("scale").join(current().code_version());
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("20261130T000000.000000Z-0123456789abcdef.json");
    std::fs::write(&file, b"{\"schema\": 1, \"kernel\": \"sca").unwrap();
    assert_fell_back("corrupt_entry_falls_back", dir.path(), "20261130T000000.000000Z-0123456789abcdef.json");
}

#[test]
fn unknown_variant_falls_back() {
    if child::is_child() {
        return dispatch_and_print();
    }
    let dir = tempfile::tempdir().unwrap();
    write_regions(dir.path(), &current(), vec![Region::new("warp_speed")]);
    assert_fell_back("unknown_variant_falls_back", dir.path(), "warp_speed");
}

#[test]
fn block_size_outside_the_declared_list_falls_back() {
    if child::is_child() {
        return dispatch_and_print();
    }
    let dir = tempfile::tempdir().unwrap();
    write_regions(dir.path(), &current(), vec![Region::new("chunked").block_size(999)]);
    assert_fell_back("block_size_outside_the_declared_list_falls_back", dir.path(), "999");
}

#[test]
fn stale_entry_is_reported_and_not_served() {
    if child::is_child() {
        return dispatch_and_print();
    }
    let dir = tempfile::tempdir().unwrap();
    let mut old = current();
    old.source_hash = "0000000000000000".into();
    write_regions(dir.path(), &old, vec![Region::new("chunked").block_size(16)]);
    assert_fell_back("stale_entry_is_reported_and_not_served", dir.path(), "source_hash");
}

#[test]
fn variant_with_missing_capability_falls_back() {
    if child::is_child() {
        return dispatch_and_print();
    }
    if ktc::capability_available(ktc::Capability::Cuda).is_ok() {
        return child::skip("CUDA is present here, so the `gpu` variant is available", false);
    }
    let dir = tempfile::tempdir().unwrap();
    write_regions(dir.path(), &current(), vec![Region::new("gpu")]);
    assert_fell_back("variant_with_missing_capability_falls_back", dir.path(), "`gpu` is unavailable");
}

#[test]
fn a_valid_entry_is_served() {
    if child::is_child() {
        return dispatch_and_print();
    }
    let dir = tempfile::tempdir().unwrap();
    write_regions(dir.path(), &current(), vec![Region::new("chunked").block_size(256)]);
    let (stdout, warnings) = run_child("a_valid_entry_is_served", dir.path());
    assert!(stdout.contains("VARIANT chunked REGION"), "{stdout}");
    assert!(stdout.contains("OUTPUT equal"), "{stdout}");
    assert!(warnings.is_empty(), "{warnings:#?}");
}
