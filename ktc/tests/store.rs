//! The cache store: round trips, concurrent writers in separate processes, stale code
//! versions and gc (`store_hostile.rs`: hostile files). Every test works in its own temp folder.

use ktc::{Axis, AxisValue, Entry, FieldChange, GcOptions, KernelTuningCache, LookupStatus, Region};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, SystemTime};

#[path = "../../tests/support/child.rs"]
mod child;

mod store_support;
use store_support::*;

#[test]
fn round_trip_returns_the_written_entry() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    let mut entry = cache.new_entry(KERNEL, &p, table());
    entry.reproduce = Some("cargo test -p kernels".into());
    entry.noise = Some(0.03);
    let path = cache.write_entry(&entry).unwrap();
    assert_eq!(path.parent().unwrap(), key_dir(&cache, &p));

    let found = cache.load(KERNEL, &p, Some(&schema()));
    assert!(found.skipped.is_empty(), "{:?}", found.skipped);
    assert_eq!(found_path(&found.status), path);
    assert_eq!(found.entry(), Some(&entry));
    assert_eq!(found.decision(), None, "load() matches no query");

    let small = cache.lookup_with(KERNEL, &p, None, &[("n", AxisValue::from(10))]);
    assert_eq!(small.decision().map(|r| r.variant.as_str()), Some("serial"));
    let large = cache.lookup_with(KERNEL, &p, None, &[("n", AxisValue::from(1_000_000))]);
    assert_eq!(large.decision(), Some(&Region::new("parallel").block_size(256)));
}

#[test]
fn newest_entry_wins_and_names_sort_by_time() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    let first = cache.write_table_with(KERNEL, &p, table()).unwrap();
    std::thread::sleep(Duration::from_millis(2));
    let mut second_table = table();
    second_table.regions[0].variant = "parallel".into();
    second_table.regions[0].block_size = Some(128);
    let second = cache.write_table_with(KERNEL, &p, second_table.clone()).unwrap();

    let (a, b) =
        (first.file_name().unwrap().to_str().unwrap(), second.file_name().unwrap().to_str().unwrap());
    assert!(a < b, "{a} should sort before {b}");
    for name in [a, b] {
        // 20261130T032516.123456Z-9f2c41d07a3b55e8.json
        assert_eq!(name.len(), 45, "{name}");
        assert_eq!((&name[8..9], &name[15..16], &name[22..24]), ("T", ".", "Z-"), "{name}");
        assert!(name.ends_with(".json"));
    }
    let today = ktc::now_rfc3339()[..10].replace('-', "");
    assert!(a.starts_with(&today) || b.starts_with(&today), "{a} is not dated {today}");

    let found = cache.load(KERNEL, &p, Some(&schema()));
    assert_eq!(found_path(&found.status), second);
    assert_eq!(found.entry().unwrap().table(), second_table);
}

#[test]
fn now_rfc3339_has_microseconds() {
    let now = ktc::now_rfc3339();
    // 2026-11-30T03:25:16.123456Z
    assert_eq!(now.len(), 27, "{now}");
    assert_eq!((&now[4..5], &now[10..11], &now[19..20], &now[26..]), ("-", "T", ".", "Z"), "{now}");
}

#[test]
fn seed_api_update_then_lookup() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let regions = vec![
        Region::new("cuda_shared").block_size(256).equals("residency", "device").at_most("n", 1e5),
        Region::new("serial").at_most("n", 1e5),
        Region::new("parallel").block_size(8192),
    ];
    let path = cache.write_table(KERNEL, &["n", "residency"], regions).unwrap();
    let hit = cache.lookup(KERNEL, &[("n", AxisValue::from(10)), ("residency", AxisValue::from("device"))]);
    assert_eq!(found_path(&hit.status), path);
    assert_eq!(hit.decision().unwrap().variant, "cuda_shared");
    let axes = &hit.entry().unwrap().axes;
    assert_eq!(axes, &vec![Axis::numeric("n"), Axis::categorical("residency")]);
    let host = cache.lookup(KERNEL, &[("n", AxisValue::from(10)), ("residency", AxisValue::from("host"))]);
    assert_eq!(host.decision().unwrap().variant, "serial");
    assert!(matches!(&host.status, LookupStatus::Found { region: Some(1), .. }));
}

#[test]
fn invalid_tables_and_unsafe_names_are_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let no_catch_all = vec![Region::new("serial").at_most("n", 10.0)];
    assert!(matches!(cache.write_table(KERNEL, &["n"], no_catch_all), Err(ktc::Error::InvalidTable(_))));
    for kernel in ["", ".", "..", "../evil", "a/b", "a b", "é"] {
        assert!(
            cache.write_table_with(kernel, &prov("a"), table()).is_err(),
            "kernel {kernel:?} was written"
        );
        assert!(matches!(cache.load(kernel, &prov("a"), None).status, LookupStatus::Missing));
    }
    let bad_fp = open(dir.path()).with_fingerprint("../up");
    assert!(bad_fp.write_table_with(KERNEL, &prov("a"), table()).is_err());
    assert!(matches!(bad_fp.load(KERNEL, &prov("a"), None).status, LookupStatus::Missing));
    assert!(cache.list().is_empty(), "{:?}", cache.list());
}

const CHILD_STORE: &str = "KTC_STORE_TEST_CHILD_STORE";
const CHILD_WRITER: &str = "KTC_STORE_TEST_CHILD_WRITER";
const WRITERS: usize = 6;
const WRITES: usize = 20;

/// The child part of `concurrent_processes_lose_no_write`: one writer's writes.
fn write_as_child() {
    let store = std::env::var_os(CHILD_STORE).expect("the store folder");
    let writer = std::env::var(CHILD_WRITER).expect("the writer's id");
    let cache = open(Path::new(&store));
    let p = prov("a");
    for i in 0..WRITES {
        let mut entry = cache.new_entry(KERNEL, &p, table());
        entry.reproduce = Some(format!("writer {writer} write {i}"));
        cache.write_entry(&entry).unwrap();
    }
}

#[test]
fn concurrent_processes_lose_no_write() {
    const NAME: &str = "concurrent_processes_lose_no_write";
    if child::is_child() {
        return write_as_child();
    }
    let dir = tempfile::tempdir().unwrap();
    let children: Vec<_> = (0..WRITERS)
        .map(|id| {
            child::command(NAME)
                .env(CHILD_STORE, dir.path())
                .env(CHILD_WRITER, id.to_string())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for running in children {
        child::check(NAME, &running.wait_with_output().unwrap());
    }

    let cache = open(dir.path());
    let p = prov("a");
    let key = key_dir(&cache, &p);
    let files = names(&key);
    assert!(files.iter().all(|n| !n.starts_with(".tmp-")), "temp file left: {files:?}");
    assert_eq!(files.len(), WRITERS * WRITES, "{files:?}");
    for name in &files {
        let entry: Entry = serde_json::from_slice(&fs::read(key.join(name)).unwrap()).unwrap();
        entry.table().validate(Some(&schema())).unwrap();
    }
    let mut writes: Vec<_> = cache.list().into_iter().map(|l| l.entry.unwrap().reproduce.unwrap()).collect();
    writes.sort();
    writes.dedup();
    assert_eq!(writes.len(), WRITERS * WRITES, "every write is a distinct file");

    let found = cache.load(KERNEL, &p, Some(&schema()));
    assert_eq!(found_path(&found.status), key.join(files.last().unwrap()));
}

const CHILD_EXPECT: &str = "KTC_STORE_TEST_CHILD_EXPECT";

/// The child part of `load_or_create_honours_ktc_cache_dir`, where the environment can
/// be set without racing other tests' threads.
fn load_or_create_as_child() {
    let expect = std::env::var(CHILD_EXPECT).expect("what the child expects");
    let result = KernelTuningCache::load_or_create();
    match expect.as_str() {
        "err" => assert!(result.is_err(), "{result:?}"),
        _ => assert_eq!(result.unwrap().root(), Path::new(&std::env::var_os("KTC_CACHE_DIR").unwrap())),
    }
}

#[test]
fn load_or_create_honours_ktc_cache_dir() {
    if child::is_child() {
        return load_or_create_as_child();
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    fs::write(&file, b"x").unwrap();
    let cases = [(file.clone(), "err"), (file.join("under"), "err"), (dir.path().join("new/cache"), "ok")];
    for (root, expect) in cases {
        // `spawn` asserts the child succeeded, i.e. saw what `expect` says.
        child::spawn("load_or_create_honours_ktc_cache_dir", |c| {
            c.env("KTC_CACHE_DIR", &root).env(CHILD_EXPECT, expect);
        });
    }
    assert!(dir.path().join("new/cache").is_dir());
}

#[test]
fn stale_entry_is_reported_not_served() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let (old, new) = (prov("a"), prov("b"));
    let stale = cache.write_table_with(KERNEL, &old, table()).unwrap();

    let found = cache.lookup_with(KERNEL, &new, Some(&schema()), &[("n", AxisValue::from(1))]);
    let LookupStatus::Stale { path, entry, changes } = &found.status else {
        panic!("expected Stale, got {found:?}");
    };
    assert_eq!(path, &stale);
    assert_eq!(entry.provenance, old);
    let expected = FieldChange { field: "source_hash".into(), old: "a".into(), new: "b".into() };
    assert_eq!(changes, &vec![expected]);
    assert_eq!(found.entry(), None);
    assert_eq!(found.decision(), None);

    // Once the new code version has an entry, it is served.
    let fresh = cache.write_table_with(KERNEL, &new, table()).unwrap();
    assert_eq!(found_path(&cache.load(KERNEL, &new, None).status), fresh);
}

#[test]
fn list_covers_every_key() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    cache.write_table_with(KERNEL, &prov("a"), table()).unwrap();
    cache.write_table_with("other_kernel", &prov("a"), table()).unwrap();
    open(dir.path()).with_fingerprint("fp-2").write_table_with(KERNEL, &prov("b"), table()).unwrap();
    fs::write(key_dir(&cache, &prov("a")).join(FUTURE), b"garbage").unwrap();

    let listed = cache.list();
    assert_eq!(listed.len(), 4);
    assert!(listed.windows(2).all(|w| w[0].path < w[1].path), "sorted");
    let bad: Vec<_> = listed.iter().filter(|l| l.entry.is_err()).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].path.file_name().unwrap(), FUTURE);
    let l = listed.iter().find(|l| l.fingerprint == "fp-2").unwrap();
    assert_eq!((l.kernel.as_str(), l.code_version.clone()), (KERNEL, prov("b").code_version()));
}

#[test]
fn gc_keeps_the_newest_and_dry_run_removes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    let written: Vec<PathBuf> =
        (0..5).map(|_| cache.write_table_with(KERNEL, &p, table()).unwrap()).collect();
    let key = key_dir(&cache, &p);
    fs::write(key.join("20000101T000000.000000Z-0000000000000000.json"), b"old garbage").unwrap();

    let options = GcOptions { keep: 2, dry_run: true, ..GcOptions::default() };
    let dry = cache.gc(&options).unwrap();
    let mut superseded = written[..3].to_vec();
    superseded.sort();
    assert_eq!(dry.removed, superseded);
    assert_eq!(dry.kept, 2);
    assert_eq!(dry.invalid.len(), 1, "{:?}", dry.invalid);
    assert_eq!(names(&key).len(), 6, "a dry run removes nothing");

    let real = cache.gc(&GcOptions { dry_run: false, ..options }).unwrap();
    assert_eq!(real.removed, dry.removed);
    assert_eq!(real.invalid, dry.invalid);
    let mut left: Vec<PathBuf> = names(&key).iter().map(|n| key.join(n)).collect();
    left.retain(|p| p.file_name().unwrap() != "20000101T000000.000000Z-0000000000000000.json");
    assert_eq!(left, written[3..].to_vec(), "the invalid file stays; the two newest stay");

    let default = cache.gc(&GcOptions::default()).unwrap();
    assert_eq!(default.removed, vec![written[3].clone()]);
    let purge = cache.gc(&GcOptions { remove_invalid: true, ..GcOptions::default() }).unwrap();
    assert_eq!(purge.removed.len(), 1);
    assert_eq!(names(&key), vec![written[4].file_name().unwrap().to_str().unwrap().to_owned()]);
}

#[test]
fn gc_removes_old_temp_files_only() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    cache.write_table_with(KERNEL, &p, table()).unwrap();
    let key = key_dir(&cache, &p);
    let (old, fresh) = (key.join(".tmp-old"), key.join(".tmp-fresh"));
    for path in [&old, &fresh] {
        fs::write(path, b"partial").unwrap();
    }
    let eleven_minutes_ago = SystemTime::now() - Duration::from_secs(11 * 60);
    fs::File::options().write(true).open(&old).unwrap().set_modified(eleven_minutes_ago).unwrap();

    let report = cache.gc(&GcOptions::default()).unwrap();
    assert_eq!(report.removed, vec![old.clone()]);
    assert_eq!(report.kept, 1);
    assert!(!old.exists());
    assert!(fresh.exists(), "a young temp file may belong to a writer in flight");
}

#[test]
fn gc_drops_other_code_versions_when_told_the_current_one() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let stale = cache.write_table_with(KERNEL, &prov("a"), table()).unwrap();
    let current = cache.write_table_with(KERNEL, &prov("b"), table()).unwrap();
    let elsewhere =
        open(dir.path()).with_fingerprint("fp-2").write_table_with(KERNEL, &prov("a"), table()).unwrap();

    let mut options = GcOptions::default();
    options.current_code_versions.insert(KERNEL.into(), prov("b").code_version());
    let report = cache.gc(&options).unwrap();
    assert_eq!(report.removed, vec![stale]);
    assert!(current.exists() && elsewhere.exists(), "other fingerprints are not touched");
}

#[test]
fn gc_removes_the_flagged_points_recorded_beside_an_entry_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    let old = cache.write_table_with(KERNEL, &p, table()).unwrap();
    let new = cache.write_table_with(KERNEL, &p, table()).unwrap();
    let key = key_dir(&cache, &p);
    // What `verify` writes beside an entry it flagged points of (see `ktc::verify`).
    let record = |entry: &PathBuf| {
        let stem = entry.file_stem().unwrap().to_str().unwrap().to_owned();
        key.join(format!("{stem}.flagged-0123456789abcdef"))
    };
    for entry in [&old, &new] {
        fs::write(record(entry), b"{}").unwrap();
    }
    assert_eq!(cache.list().len(), 2, "records are not entries");
    let report = cache.gc(&GcOptions { keep: 1, ..GcOptions::default() }).unwrap();
    let mut removed = vec![old.clone(), record(&old)];
    removed.sort();
    assert_eq!(report.removed, removed);
    assert!(record(&new).exists() && new.exists());
}
