//! The cache store against hostile files: each is skipped with a reason and the
//! previous valid entry is served; misnamed, oversized and misplaced files never break a
//! lookup. Every test works in its own temp folder.

use ktc::{Entry, KernelTuningCache, LookupStatus};
use std::fs;
use std::path::Path;

mod store_support;
use store_support::*;

/// A hostile file, written by hand under a name newer than the good entry.
enum Hostile {
    Bytes(Vec<u8>),
    /// The good entry's JSON, edited.
    Json(fn(&mut serde_json::Value)),
    /// The good entry's JSON text, edited.
    Text(fn(String) -> String),
    Sparse(u64),
    Dir,
    Symlink(&'static str),
}

fn write_hostile(path: &Path, good: &Path, hostile: &Hostile) {
    let good_text = fs::read_to_string(good).unwrap();
    match hostile {
        Hostile::Bytes(bytes) => fs::write(path, bytes).unwrap(),
        Hostile::Json(edit) => {
            let mut value: serde_json::Value = serde_json::from_str(&good_text).unwrap();
            edit(&mut value);
            fs::write(path, serde_json::to_string(&value).unwrap()).unwrap();
        }
        Hostile::Text(edit) => fs::write(path, edit(good_text)).unwrap(),
        Hostile::Sparse(len) => fs::File::create(path).unwrap().set_len(*len).unwrap(),
        Hostile::Dir => fs::create_dir(path).unwrap(),
        Hostile::Symlink("huge") => {
            let target = path.with_file_name("..").join("huge-target");
            fs::File::create(&target).unwrap().set_len(20 << 20).unwrap();
            symlink(&target, path);
        }
        Hostile::Symlink(target) => symlink(Path::new(target), path),
    }
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[cfg(not(unix))]
fn symlink(_: &Path, link: &Path) {
    fs::create_dir(link).unwrap(); // still not a regular file
}

fn hostile_cases() -> Vec<(&'static str, Hostile, &'static str)> {
    use Hostile::*;
    vec![
        ("garbage bytes", Bytes(vec![0xff, 0xfe, 0x00, 0x9c, 0x80, b'{']), "not UTF-8"),
        ("zero bytes", Bytes(Vec::new()), "empty file"),
        ("truncated JSON", Text(|t| t[..t.len() / 2].to_owned()), "not valid JSON"),
        ("20 MiB", Sparse(20 << 20), "larger than"),
        ("wrong schema", Json(|v| v["schema"] = 2.into()), "schema 2 is not"),
        ("no schema", Json(|v| v["schema"] = "one".into()), "no schema number"),
        ("wrong kernel", Json(|v| v["kernel"] = "other".into()), "kernel `other`"),
        ("wrong fingerprint", Json(|v| v["fingerprint"] = "other-fp".into()), "fingerprint `other-fp`"),
        ("wrong code version", Json(|v| v["code_version"] = "0123456789abcdef".into()), "code_version"),
        ("not an entry", Json(|v| v["regions"] = "many".into()), "not a valid entry"),
        ("unknown variant", Json(|v| v["regions"][0]["variant"] = "nope".into()), "unknown variant `nope`"),
        ("block size 0", Json(|v| v["regions"][1]["block_size"] = 0.into()), "block size Some(0)"),
        (
            "block size not allowed",
            Json(|v| v["regions"][1]["block_size"] = 300.into()),
            "block size Some(300)",
        ),
        ("infinite bound", Text(|t| t.replacen("1000.0", "1e999", 1)), "JSON"),
        (
            "negative bound",
            Json(|v| v["regions"][0]["when"]["n"]["le"] = (-5.0).into()),
            "not a finite number",
        ),
        ("missing catch-all", Json(|v| drop(v["regions"].as_array_mut().unwrap().pop())), "catch-all"),
        (
            "too many measurements",
            Json(|v| {
                let one = serde_json::json!({"point": {"n": 1}, "variant": "serial", "median_ns": 1.0, "spread_ns": 0.0, "runs": 3});
                v["measurements"] = vec![one; Entry::MAX_MEASUREMENTS + 1].into();
            }),
            "100001 measurements, more than the 100000",
        ),
        (
            "too many exclusions",
            Json(|v| {
                let one = serde_json::json!({"variant": "serial", "reason": "x"});
                v["excluded"] = vec![one; Entry::MAX_MEASUREMENTS + 1].into();
            }),
            "100001 exclusions, more than the 100000",
        ),
        ("directory", Dir, "a directory"),
        ("symlink to /dev/zero", Symlink("/dev/zero"), "symbolic link"),
        ("symlink to a huge file", Symlink("huge"), "symbolic link"),
    ]
}

#[test]
fn hostile_files_are_skipped_and_the_previous_entry_served() {
    let p = prov("a");
    for (what, hostile, reason) in hostile_cases() {
        let dir = tempfile::tempdir().unwrap();
        let cache = open(dir.path());
        let good = cache.write_table_with(KERNEL, &p, table()).unwrap();
        let bad = key_dir(&cache, &p).join(FUTURE);
        write_hostile(&bad, &good, &hostile);

        let found = cache.load(KERNEL, &p, Some(&schema()));
        assert_eq!(found_path(&found.status), good, "{what}");
        assert_eq!(found.skipped.len(), 1, "{what}: {:?}", found.skipped);
        assert_eq!(found.skipped[0].path, bad, "{what}");
        assert!(found.skipped[0].reason.contains(reason), "{what}: {}", found.skipped[0]);
        assert!(found.skipped[0].to_string().starts_with(&format!("{}: ", bad.display())));
    }
}

/// The measurement limit holds on write too, with the count in the error; an entry
/// at the limit is written and served.
#[test]
fn an_entry_over_the_measurement_limit_is_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    let mut entry = cache.new_entry(KERNEL, &p, table());
    let one = serde_json::json!({"point": {"n": 1}, "variant": "serial", "median_ns": 1.0, "spread_ns": 0.0, "runs": 3});
    entry.measurements = vec![serde_json::from_value(one).unwrap(); Entry::MAX_MEASUREMENTS + 1];
    let err = cache.write_entry(&entry).unwrap_err().to_string();
    assert!(err.contains("100001 measurements, more than the 100000"), "{err}");
    assert!(cache.list().is_empty());

    entry.measurements.pop();
    let written = cache.write_entry(&entry).unwrap();
    let found = cache.load(KERNEL, &p, Some(&schema()));
    assert_eq!(found_path(&found.status), written);
}

#[test]
fn hostile_file_alone_leaves_the_key_missing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    fs::create_dir_all(key_dir(&cache, &p)).unwrap();
    fs::write(key_dir(&cache, &p).join(FUTURE), b"{").unwrap();
    let found = cache.load(KERNEL, &p, None);
    assert!(matches!(found.status, LookupStatus::Missing), "{found:?}");
    assert_eq!(found.skipped.len(), 1);
}

#[test]
fn misnamed_entries_are_skipped_and_temp_files_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    let good = cache.write_table_with(KERNEL, &p, table()).unwrap();
    let key = key_dir(&cache, &p);
    fs::copy(&good, key.join("zzz-my-copy.json")).unwrap();
    fs::write(key.join(".tmp-0123456789abcdef"), b"half a").unwrap();
    fs::write(key.join("notes.txt"), b"not an entry").unwrap();
    let found = cache.load(KERNEL, &p, None);
    assert_eq!(found_path(&found.status), good);
    assert_eq!(found.skipped.len(), 1, "{:?}", found.skipped);
    assert!(found.skipped[0].reason.contains("file name"), "{}", found.skipped[0]);
}

#[test]
fn key_folder_that_is_a_file_is_missing_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    let p = prov("a");
    let key = key_dir(&cache, &p);
    fs::create_dir_all(key.parent().unwrap()).unwrap();
    fs::write(&key, b"not a folder").unwrap();
    let found = cache.load(KERNEL, &p, None);
    assert!(matches!(found.status, LookupStatus::Missing));
    assert_eq!(found.skipped.len(), 1, "{:?}", found.skipped);
    assert_eq!(found.skipped[0].path, key);
}

#[test]
fn open_on_a_file_or_under_a_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    fs::write(&file, b"x").unwrap();
    let err = KernelTuningCache::open(&file).unwrap_err();
    assert!(err.to_string().contains("file"), "{err}");
    assert!(KernelTuningCache::open(file.join("below")).is_err());
    let made = dir.path().join("a/b/c");
    assert_eq!(KernelTuningCache::open(&made).unwrap().root(), made);
    assert!(made.is_dir());
}
