//! Regressions of the adversarial run (issue 13): gc and the kernel schema, future-dated
//! entries, a writer whose clock stepped back, `created` and `code_version` checked the
//! same way everywhere, and a pull that refuses what a local read would skip.

use ktc::remote::{FolderBackend, SyncFilter, pull};
use ktc::{GcOptions, KernelTuningCache, LookupStatus, Provenance};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod store_support;
use store_support::{KERNEL, open, schema, table};

/// The provenance every entry of these tests is written under.
fn prov() -> Provenance {
    store_support::prov("a")
}

fn found(cache: &KernelTuningCache) -> PathBuf {
    match cache.load(KERNEL, &prov(), Some(&schema())).status {
        LookupStatus::Found { path, .. } => path,
        other => panic!("expected Found, got {other:?}"),
    }
}

/// An entry file name for `t` (`20261130T032516.123456Z-<nonce>.json`).
fn name_at(t: SystemTime, nonce: &str) -> String {
    let micros = t.duration_since(UNIX_EPOCH).unwrap().as_micros() as u64;
    let (secs, frac) = (micros / 1_000_000, micros % 1_000_000);
    let (days, in_day) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days as i64);
    let (hh, mm, ss) = (in_day / 3600, in_day / 60 % 60, in_day % 60);
    format!("{y:04}{m:02}{d:02}T{hh:02}{mm:02}{ss:02}.{frac:06}Z-{nonce}.json")
}

fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// A copy of the entry at `good`, edited, under `name` in the same folder.
fn copy_edited(good: &Path, name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let mut value: serde_json::Value = serde_json::from_slice(&fs::read(good).unwrap()).unwrap();
    edit(&mut value);
    let path = good.with_file_name(name);
    fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
    path
}

fn soon() -> SystemTime {
    SystemTime::now() + Duration::from_secs(1)
}

#[test]
fn gc_with_the_kernel_schema_keeps_what_dispatch_serves() {
    for (what, edit) in [
        (
            "unknown variant",
            (|v: &mut serde_json::Value| v["regions"][0]["variant"] = "quantum".into()) as fn(&mut _),
        ),
        ("block 2^31", |v| v["regions"][1]["block_size"] = (1u64 << 31).into()),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let cache = open(dir.path());
        let good = cache.write_table_with(KERNEL, &prov(), table()).unwrap();
        let bad = copy_edited(&good, &name_at(soon(), "00000000000000ff"), edit);

        let mut options = GcOptions::default();
        options.schemas.insert(KERNEL.into(), schema());
        let report = cache.gc(&options).unwrap();
        assert!(report.removed.is_empty(), "{what}: {:?}", report.removed);
        assert!(report.invalid.iter().any(|s| s.path == bad), "{what}: the bad copy is reported");
        assert_eq!(found(&cache), good, "{what}: still served after gc");
        let listed = cache.list_with(&options.schemas);
        let bad_listed = listed.iter().find(|l| l.path == bad).unwrap();
        assert!(bad_listed.entry.is_err(), "{what}: judged with the schema, the copy is invalid");
    }
}

#[test]
fn gc_without_the_schema_never_removes_what_could_be_served() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let good = cache.write_table_with(KERNEL, &prov(), table()).unwrap();
    copy_edited(&good, &name_at(soon(), "00000000000000ff"), |v| {
        v["regions"][0]["variant"] = "quantum".into()
    });

    let report = cache.gc(&GcOptions::default()).unwrap();
    assert!(report.removed.is_empty(), "{:?}", report.removed);
    assert_eq!(found(&cache), good);

    // A later entry with the same variants vouches for both older ones: gc may go.
    let newest = cache.write_table_with(KERNEL, &prov(), table()).unwrap();
    let report = cache.gc(&GcOptions::default()).unwrap();
    assert_eq!(report.removed, vec![good], "the older valid entry is superseded");
    assert_eq!(found(&cache), newest);
}

#[test]
fn a_future_dated_entry_never_shadows_a_newer_one() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let good = cache.write_table_with(KERNEL, &prov(), table()).unwrap();
    let future = copy_edited(&good, "20991231T235959.999999Z-00000000000000ff.json", |_| {});
    let newer = cache.write_table_with(KERNEL, &prov(), table()).unwrap();

    let lookup = cache.load(KERNEL, &prov(), Some(&schema()));
    assert_eq!(found(&cache), newer);
    let skipped = lookup.skipped.iter().find(|s| s.path == future).expect("the future entry is skipped");
    assert!(skipped.reason.contains("ahead of this host's clock"), "{}", skipped.reason);
    let report = cache.gc(&GcOptions::default()).unwrap();
    assert!(!report.removed.contains(&newer), "{:?}", report.removed);
    assert!(newer.exists());
}

#[test]
fn a_write_after_the_clock_stepped_back_still_wins() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let good = cache.write_table_with(KERNEL, &prov(), table()).unwrap();
    // Written two minutes ahead (within the allowed skew), then the clock stepped back.
    let ahead = copy_edited(
        &good,
        &name_at(SystemTime::now() + Duration::from_secs(120), "00000000000000aa"),
        |_| {},
    );
    assert_eq!(found(&cache), ahead);
    let fresh = cache.write_table_with(KERNEL, &prov(), table()).unwrap();
    assert!(fresh.file_name() > ahead.file_name(), "{fresh:?} sorts after {ahead:?}");
    assert_eq!(found(&cache), fresh);
}

#[test]
fn created_is_checked_strictly_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let good = cache.write_table_with(KERNEL, &prov(), table()).unwrap();
    for bad in [
        "",
        "08:99:99",
        "2026-11-30T08:99:99.000000Z",
        "2026-02-30T00:00:00.000000Z",
        "2099-01-01T00:00:00.000000Z",
    ] {
        let mut entry = cache.new_entry(KERNEL, &prov(), table());
        entry.created = bad.into();
        assert!(cache.import_entry(&entry).is_err(), "import of created {bad:?}");
        assert!(cache.write_entry(&entry).is_err(), "write of created {bad:?}");
        let path = copy_edited(&good, &name_at(soon(), "00000000000000cc"), |v| v["created"] = bad.into());
        let lookup = cache.load(KERNEL, &prov(), None);
        assert!(lookup.skipped.iter().any(|s| s.path == path && s.reason.contains("created")), "{lookup:?}");
        fs::remove_file(path).unwrap();
    }
}

#[test]
fn code_version_must_be_the_hash_of_the_provenance_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let good = cache.write_table_with(KERNEL, &prov(), table()).unwrap();
    let forged = copy_edited(&good, &name_at(soon(), "00000000000000dd"), |v| {
        v["provenance"]["source_hash"] = "forged".into();
    });
    let lookup = cache.load(KERNEL, &prov(), None);
    assert_eq!(found(&cache), good);
    assert!(lookup.skipped.iter().any(|s| s.path == forged && s.reason.contains("hash of its provenance")));
    assert!(
        cache.list().iter().any(|l| l.path == forged && l.entry.is_err()),
        "listed (and exported) as invalid"
    );
    let mut entry = cache.new_entry(KERNEL, &prov(), table());
    entry.provenance.source_hash = "forged".into();
    assert!(cache.write_entry(&entry).is_err());
}

#[test]
fn pull_refuses_future_dated_entries() {
    let (remote_dir, local_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let remote_store = open(remote_dir.path());
    let good = remote_store.write_table_with(KERNEL, &prov(), table()).unwrap();
    copy_edited(&good, "20991231T235959.999999Z-00000000000000ff.json", |_| {});

    let local = open(local_dir.path());
    let report =
        pull(&local, &FolderBackend::new(remote_dir.path()), &SyncFilter::this_host(&local)).unwrap();
    assert_eq!(report.transferred.len(), 1, "{report}");
    assert_eq!(report.rejected.len(), 1, "{report}");
    assert!(report.rejected[0].reason.contains("ahead of this host's clock"), "{report}");
    assert_eq!(found(&local).file_name(), good.file_name());
}
