//! The plain `ktc` binary (no kernels linked) against a store filled by a real sweep.

use std::process::Command;

fn ktc(store: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ktc"))
        .args(args)
        .env("KTC_CACHE_DIR", store)
        .env("KTC_FINGERPRINT", "cli-host")
        .output()
        .unwrap()
}

#[test]
fn retune_needs_linked_kernels() {
    let store = tempfile::tempdir().unwrap();
    let out = ktc(store.path(), &["retune"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("links no kernels"), "{stderr}");
}
