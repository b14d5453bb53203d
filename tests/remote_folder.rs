//! Fleet sharing through a shared folder: push from one store and pull into another,
//! dispatch from a remote entry on a local miss, 16 racing pushers of one key, and a
//! remote that is missing, holds garbage or a FIFO — dispatch falls back within the
//! timeout, warns once, never panics.

pub mod remote_common;

use ktc::remote::{FolderBackend, PutOutcome, RemoteBackend, SyncFilter, pull, push};
use remote_common::*;
use std::time::Instant;

fn file_url(dir: &std::path::Path) -> String {
    format!("file://{}", dir.display())
}

#[test]
fn push_then_pull_round_trip_serves_a_fresh_process() {
    if child::is_child() {
        return child_body();
    }
    let (a, shared, b) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let written = write_entry(a.path());
    let remote = FolderBackend::new(shared.path());
    let filter = SyncFilter::this_host(&cache(a.path()));

    let started = Instant::now();
    let pushed = push(&cache(a.path()), &remote, &filter).unwrap();
    let push_time = started.elapsed();
    assert_eq!((pushed.transferred.len(), pushed.already_present.len(), pushed.rejected.len()), (1, 0, 0));
    let again = push(&cache(a.path()), &remote, &filter).unwrap();
    assert_eq!((again.transferred.len(), again.already_present.len()), (0, 1), "{again}");

    let started = Instant::now();
    let pulled = pull(&cache(b.path()), &remote, &filter).unwrap();
    let pull_time = started.elapsed();
    assert_eq!((pulled.transferred.len(), pulled.rejected.len()), (1, 0), "{pulled}");
    let again = pull(&cache(b.path()), &remote, &filter).unwrap();
    assert_eq!((again.transferred.len(), again.already_present.len()), (0, 1), "{again}");
    println!("folder round trip: push {push_time:?}, pull {pull_time:?}");

    // The copy is byte-identical, under the same name.
    let copy = b.path().join(written.strip_prefix(a.path()).unwrap());
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&written).unwrap());
    assert_tuned(&run_child("push_then_pull_round_trip_serves_a_fresh_process", b.path(), &[]));
}

#[test]
fn a_local_miss_is_served_from_the_remote_and_kept() {
    if child::is_child() {
        return child_body();
    }
    let (a, shared, empty) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let written = write_entry(a.path());
    push(&cache(a.path()), &FolderBackend::new(shared.path()), &SyncFilter::default()).unwrap();
    let run = run_child(
        "a_local_miss_is_served_from_the_remote_and_kept",
        empty.path(),
        &remote_env(&file_url(shared.path())),
    );
    assert_tuned(&run);
    assert!(empty.path().join(written.strip_prefix(a.path()).unwrap()).is_file(), "stored locally");
    // Now local: a process with the remote gone still gets the tuning.
    assert_tuned(&run_child(
        "a_local_miss_is_served_from_the_remote_and_kept",
        empty.path(),
        &remote_env("file:///nonexistent/ktc-remote"),
    ));
}

#[test]
fn sixteen_racing_pushers_create_one_object() {
    let shared = tempfile::tempdir().unwrap();
    let key = fresh_key();
    let bytes = b"{\"the same bytes\": true}\n".to_vec();
    let outcomes = race_pushers(16, || FolderBackend::new(shared.path()), &key, &bytes);
    let created = outcomes.iter().filter(|o| **o == PutOutcome::Created).count();
    assert_eq!(created, 1, "{outcomes:?}");
    assert_eq!(outcomes.iter().filter(|o| **o == PutOutcome::AlreadyPresent).count(), 15);
    assert_eq!(FolderBackend::new(shared.path()).get(&key).unwrap(), bytes);
    let dir = shared.path().join(key.folder());
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [std::ffi::OsString::from(&key.name)], "no temp file is left behind");
}

#[test]
fn a_missing_folder_falls_back_within_the_timeout() {
    if child::is_child() {
        return child_body();
    }
    let empty = tempfile::tempdir().unwrap();
    let run = run_child(
        "a_missing_folder_falls_back_within_the_timeout",
        empty.path(),
        &remote_env("file:///nonexistent/ktc-remote"),
    );
    assert_bounded_fallback(&run, "not a folder");
}

#[test]
fn a_garbage_object_falls_back_and_is_not_stored() {
    if child::is_child() {
        return child_body();
    }
    let (shared, empty) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let key = fresh_key();
    FolderBackend::new(shared.path()).put_if_absent(&key, b"\x00{not json").unwrap();
    let run = run_child(
        "a_garbage_object_falls_back_and_is_not_stored",
        empty.path(),
        &remote_env(&file_url(shared.path())),
    );
    assert_bounded_fallback(&run, "not valid JSON");
    assert!(!empty.path().join(FINGERPRINT).exists(), "nothing invalid is stored locally");
}

#[test]
fn a_fifo_in_place_of_an_entry_does_not_hang() {
    if child::is_child() {
        return child_body();
    }
    let (shared, empty) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let key = fresh_key();
    let dir = shared.path().join(key.folder());
    std::fs::create_dir_all(&dir).unwrap();
    let made = std::process::Command::new("mkfifo").arg(dir.join(&key.name)).status();
    if !made.is_ok_and(|s| s.success()) {
        return child::skip("mkfifo is not available here", false);
    }
    let run = run_child(
        "a_fifo_in_place_of_an_entry_does_not_hang",
        empty.path(),
        &remote_env(&file_url(shared.path())),
    );
    assert_bounded_fallback(&run, "not a regular file");
}

#[test]
fn pull_and_push_reject_what_is_not_a_valid_entry() {
    let (a, shared, b) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let remote = FolderBackend::new(shared.path());
    // A valid entry filed under another fingerprint's folder: its content disagrees.
    let written = write_entry(a.path());
    let moved = format!(
        "other-host/scale/{}/{}",
        current().code_version(),
        written.file_name().unwrap().to_str().unwrap()
    );
    let key = ktc::remote::RemoteKey::parse(&moved).unwrap();
    remote.put_if_absent(&key, &std::fs::read(&written).unwrap()).unwrap();
    remote.put_if_absent(&fresh_key(), b"[]").unwrap();
    std::fs::write(shared.path().join(FINGERPRINT).join("stray.txt"), b"x").unwrap_or_default();
    let report = pull(&cache(b.path()), &remote, &SyncFilter::default()).unwrap();
    assert_eq!(report.transferred.len(), 0, "{report}");
    let reasons: Vec<&str> = report.rejected.iter().map(|r| r.reason.as_str()).collect();
    assert!(reasons.iter().any(|r| r.contains("does not match its folder")), "{report}");
    assert!(reasons.iter().any(|r| r.contains("no schema") || r.contains("not a valid entry")), "{report}");

    // A corrupt local entry is never uploaded.
    let local = cache(a.path());
    let bad = written.with_file_name("20261130T000001.000000Z-0123456789abcdef.json");
    std::fs::write(&bad, b"{\"schema\": 1").unwrap();
    let report = push(&local, &remote, &SyncFilter::default()).unwrap();
    assert_eq!(report.rejected.len(), 1, "{report}");
    assert!(report.rejected[0].key.ends_with("0123456789abcdef.json"), "{report}");
    assert_eq!(report.transferred.len(), 1, "{report}");
}

/// The child's part of `a_sweep_pushes_its_entry_unless_opted_out`: sweeps the
/// fixture into `KTC_CACHE_DIR` with pushing left on, and prints what the push did.
fn sweep_and_print() {
    let options = ktc::sweep::SweepOptions {
        mode: ktc::sweep::SweepMode::Quick,
        budget: Some(std::time::Duration::from_secs(5)),
        cache_dir: std::env::var_os("KTC_CACHE_DIR").map(Into::into),
        fingerprint: Some(FINGERPRINT.into()),
        progress: false,
        skip_push: false,
        ..Default::default()
    };
    let report = (scale::Variant::kernel().sweep)(&options).unwrap();
    println!("PUSHED {:?}", report.pushed);
}

/// Runs the child of `a_sweep_pushes_its_entry_unless_opted_out` with `env`; returns
/// its stdout.
fn sweep_child(store: &std::path::Path, env: &[(&str, String)]) -> String {
    let output = child::spawn("a_sweep_pushes_its_entry_unless_opted_out", |command| {
        command.env("KTC_CACHE_DIR", store).env_remove("KTC_REMOTE_PUSH");
        for (k, v) in env {
            command.env(k, v);
        }
    });
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_sweep_pushes_its_entry_unless_opted_out() {
    if child::is_child() {
        return sweep_and_print();
    }
    let (store, shared) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let remote = FolderBackend::new(shared.path());
    let url = file_url(shared.path());

    let stdout = sweep_child(store.path(), &[("KTC_REMOTE", url.clone()), ("KTC_REMOTE_PUSH", "0".into())]);
    assert!(stdout.contains("PUSHED None"), "{stdout}");
    assert!(remote.list("").unwrap().is_empty(), "KTC_REMOTE_PUSH=0 pushes nothing");

    let stdout = sweep_child(store.path(), &[("KTC_REMOTE", url)]);
    assert!(stdout.contains("PUSHED Some(Ok(Created))"), "{stdout}");
    let keys = remote.list("").unwrap();
    assert_eq!(keys.len(), 1, "{keys:?}");
    // The pushed object is the newest local entry, byte for byte.
    let local = cache(store.path()).list();
    let newest = local.iter().map(|l| &l.path).max().unwrap();
    assert!(keys[0].ends_with(newest.file_name().unwrap().to_str().unwrap()), "{keys:?}");
    let key = ktc::remote::RemoteKey::parse(&keys[0]).unwrap();
    assert_eq!(remote.get(&key).unwrap(), std::fs::read(newest).unwrap());
}
