//! The adversarial run against the store as a suite, scaled to fit CI (a few tens of
//! seconds on two cores): writers, readers and a gc loop in separate processes, `kill -9`
//! in the middle of writes, and full or read-only stores. `KTC_STRESS=full` runs the
//! long mode (8 writers × 200 entries, 100 kills).
//!
//! Children are the calling test re-run by itself (the shared `child` helper) with a role
//! in the environment: `writer`, `reader`, `gc`, `overfill` or `endless`.

use ktc::{
    Axis, DecisionTable, GcOptions, KernelSchema, KernelTuningCache, LookupStatus, Provenance, Region,
};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const FP: &str = "attack-fp";
const KERNEL: &str = "attacked";
#[path = "../../tests/support/child.rs"]
mod child;
mod store_support;

const ROLE: &str = "KTC_ATTACK_ROLE";
const STORE: &str = "KTC_ATTACK_STORE";
const ID: &str = "KTC_ATTACK_ID";
const COUNT: &str = "KTC_ATTACK_COUNT";

/// Writers, entries per writer, readers, kills.
struct Scale {
    writers: usize,
    writes: usize,
    readers: usize,
    kills: usize,
}

fn scale() -> Scale {
    if std::env::var("KTC_STRESS").is_ok_and(|v| v == "full") {
        Scale { writers: 8, writes: 200, readers: 8, kills: 100 }
    } else {
        Scale { writers: 4, writes: 100, readers: 2, kills: 20 }
    }
}

/// The provenance every entry of these tests is written under.
fn prov() -> Provenance {
    store_support::prov("a")
}

fn schema() -> KernelSchema {
    KernelSchema {
        axes: vec![Axis::numeric("n")],
        variants: vec![("serial".into(), vec![]), ("parallel".into(), vec![128, 256, 512])],
    }
}

fn table() -> DecisionTable {
    DecisionTable {
        axes: vec![Axis::numeric("n")],
        regions: vec![Region::new("serial").at_most("n", 1000.0), Region::new("parallel").block_size(256)],
    }
}

fn open(dir: &Path) -> KernelTuningCache {
    KernelTuningCache::open(dir).expect("open store").with_fingerprint(FP)
}

fn key_dir(root: &Path) -> PathBuf {
    root.join(FP).join(KERNEL).join(prov().code_version())
}

/// Starts the calling test `test` again as a child in `role`.
fn spawn(test: &str, role: &str, store: &Path, id: usize, count: usize) -> Child {
    child::command(test)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env(ROLE, role)
        .env(STORE, store)
        .env(ID, id.to_string())
        .env(COUNT, count.to_string())
        .spawn()
        .unwrap()
}

fn env_usize(name: &str) -> usize {
    std::env::var(name).unwrap().parse().unwrap()
}

/// The child part of the tests below: plays the role its environment names.
fn play_role() {
    let role = std::env::var(ROLE).expect("the child's role");
    let store = PathBuf::from(std::env::var_os(STORE).expect("the store folder"));
    let cache = open(&store);
    let stop = store.join("stop");
    match role.as_str() {
        "writer" => {
            for i in 0..env_usize(COUNT) {
                let mut entry = cache.new_entry(KERNEL, &prov(), table());
                entry.reproduce = Some(format!("writer {} write {i}", env_usize(ID)));
                cache.write_entry(&entry).unwrap();
            }
        }
        "reader" => reader(&cache, &stop),
        "gc" => {
            let mut options = GcOptions::default();
            options.schemas.insert(KERNEL.into(), schema());
            while !stop.exists() {
                cache.gc(&options).unwrap();
            }
        }
        "overfill" => overfill(&store, Path::new(&std::env::var_os("KTC_ATTACK_FIRST").unwrap())),
        "endless" => {
            // Big entries widen the window a kill can land in.
            let mut entry = cache.new_entry(KERNEL, &prov(), table());
            entry.reproduce = Some("x".repeat(256 << 10));
            loop {
                cache.write_entry(&entry).unwrap();
            }
        }
        other => panic!("unknown role {other}"),
    }
}

/// Looks the kernel up until told to stop: never Missing (an entry exists from the
/// start), never torn, and the newest never goes backwards.
fn reader(cache: &KernelTuningCache, stop: &Path) {
    let mut last: Option<PathBuf> = None;
    let mut reads = 0;
    while !stop.exists() {
        let lookup = cache.load_quiet(KERNEL, &prov(), Some(&schema()));
        let LookupStatus::Found { path, entry, .. } = lookup.status else {
            panic!(
                "read {reads}: {:?} while a valid entry exists; skipped {:?}",
                lookup.status, lookup.skipped
            );
        };
        assert_eq!(entry.regions, table().regions, "torn read at {}", path.display());
        assert!(lookup.skipped.is_empty(), "read {reads}: skipped {:?}", lookup.skipped);
        if let Some(last) = &last {
            assert!(path.file_name() >= last.file_name(), "went back from {last:?} to {path:?}");
        }
        last = Some(path);
        reads += 1;
    }
    println!("reader: {reads} reads");
}

#[test]
fn writers_readers_and_gc_race_without_a_miss_or_a_torn_read() {
    const NAME: &str = "writers_readers_and_gc_race_without_a_miss_or_a_torn_read";
    if child::is_child() {
        return play_role();
    }
    let s = scale();
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    cache.write_table_with(KERNEL, &prov(), table()).unwrap();
    let mut others: Vec<Child> = (0..s.readers).map(|id| spawn(NAME, "reader", dir.path(), id, 0)).collect();
    others.push(spawn(NAME, "gc", dir.path(), 0, 0));
    let writers: Vec<Child> =
        (0..s.writers).map(|id| spawn(NAME, "writer", dir.path(), id, s.writes)).collect();
    let finished = |children: Vec<Child>| -> Vec<Output> {
        children.into_iter().map(|c| c.wait_with_output().unwrap()).collect()
    };
    let written = finished(writers);
    // Stop the readers and gc before checking, so that a failed writer ends the test.
    fs::write(dir.path().join("stop"), b"").unwrap();
    for output in written.iter().chain(&finished(others)) {
        child::check(NAME, output);
    }

    // The newest written entry survived every gc and is what a reader gets now.
    let newest = fs::read_dir(key_dir(dir.path()))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .max()
        .unwrap();
    match cache.load(KERNEL, &prov(), Some(&schema())).status {
        LookupStatus::Found { path, .. } => assert_eq!(path, newest),
        other => panic!("{other:?}"),
    }
}

#[test]
fn kill_9_mid_write_never_leaves_a_partial_entry() {
    if child::is_child() {
        return play_role();
    }
    let s = scale();
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    // A fixed sequence of kill delays (2..40 ms) from a seeded generator.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for kill in 0..s.kills {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut endless =
            spawn("kill_9_mid_write_never_leaves_a_partial_entry", "endless", dir.path(), kill, 0);
        std::thread::sleep(Duration::from_millis(2 + seed % 38));
        endless.kill().unwrap(); // SIGKILL on Unix
        endless.wait().unwrap();
        for listed in cache.list() {
            if let Err(reason) = &listed.entry {
                panic!("kill {kill}: {} visible but invalid: {reason}", listed.path.display());
            }
        }
    }
    let files = fs::read_dir(key_dir(dir.path())).map(|d| d.count()).unwrap_or(0);
    println!("{} kills, {files} files (entries and temp files) left", s.kills);
}

/// A tiny tmpfs mounted for the test, unmounted on drop; `None` where mounting is not
/// allowed (not root, no mount(8), a container without the capability).
struct TinyTmpfs(PathBuf);

impl TinyTmpfs {
    fn mount(at: &Path, size: &str) -> Result<TinyTmpfs, String> {
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .stderr(std::process::Stdio::piped())
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !status.status.success() {
            return Err(format!("mount -t tmpfs failed: {}", String::from_utf8_lossy(&status.stderr).trim()));
        }
        Ok(TinyTmpfs(at.to_owned()))
    }

    fn remount_read_only(&self) -> Result<(), String> {
        let out = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .output()
            .map_err(|e| e.to_string())?;
        out.status.success().then_some(()).ok_or_else(|| String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

impl Drop for TinyTmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Writes an entry too big for the store, then checks the write failed naming the
/// folder, the earlier entry is still served and nothing partial is visible.
fn overfill(store: &Path, first: &Path) {
    let cache = open(store);
    let mut entry = cache.new_entry(KERNEL, &prov(), table());
    entry.reproduce = Some("x".repeat(128 << 10)); // larger than the file system or the file limit
    let err = cache.write_entry(&entry).unwrap_err().to_string();
    assert!(err.contains(&key_dir(store).display().to_string()), "{err}");
    match cache.load(KERNEL, &prov(), Some(&schema())).status {
        LookupStatus::Found { path, .. } => assert_eq!(path, first),
        other => panic!("{other:?}"),
    }
    assert!(cache.list().iter().all(|l| l.entry.is_ok()), "no partial entry visible");
}

#[test]
fn a_full_store_fails_the_write_with_the_path_and_keeps_serving() {
    const NAME: &str = "a_full_store_fails_the_write_with_the_path_and_keeps_serving";
    if child::is_child() {
        return play_role();
    }
    let dir = tempfile::tempdir().unwrap();
    match TinyTmpfs::mount(dir.path(), "64k") {
        Ok(mount) => {
            let first = open(&mount.0).write_table_with(KERNEL, &prov(), table()).unwrap();
            overfill(&mount.0, &first);
        }
        Err(why) => {
            // No tmpfs: a file size limit (RLIMIT_FSIZE, which binds root too) makes the
            // write fail the same way. SIGXFSZ is ignored so the write returns EFBIG.
            println!("no tiny tmpfs ({why}); filling the store through a 64-block file size limit");
            let first = open(dir.path()).write_table_with(KERNEL, &prov(), table()).unwrap();
            let exe = std::env::current_exe().unwrap();
            let output = Command::new("sh")
                .args(["-c", "trap '' XFSZ; ulimit -f 64 && exec \"$0\" \"$@\""])
                .arg(&exe)
                .args(["--exact", NAME, "--nocapture", "--test-threads", "1"])
                .env(child::ROLE, NAME)
                .env(ROLE, "overfill")
                .env(STORE, dir.path())
                .env(ID, "0")
                .env(COUNT, "0")
                .env("KTC_ATTACK_FIRST", &first)
                .output();
            match output {
                Ok(output) => child::check(NAME, &output),
                Err(e) => child::skip(&format!("the full-store check: cannot run sh: {e}"), false),
            }
        }
    }
}

/// Checks a store made read-only after `first` was written: writes fail naming the
/// folder, the entry is still served, gc reports but cannot remove.
fn check_read_only(store: &Path, first: &Path) {
    let cache = open(store);
    let err = cache.write_table_with(KERNEL, &prov(), table()).unwrap_err().to_string();
    assert!(err.contains(&store.display().to_string()), "{err}");
    match cache.load(KERNEL, &prov(), Some(&schema())).status {
        LookupStatus::Found { path, .. } => assert_eq!(path, first),
        other => panic!("{other:?}"),
    }
    let report = cache.gc(&GcOptions { keep: 0, dry_run: true, ..GcOptions::default() }).unwrap();
    assert_eq!(report.removed, vec![first.to_owned()], "a dry run only reports");
    assert!(cache.gc(&GcOptions { keep: 0, ..GcOptions::default() }).is_err(), "gc says it could not remove");
    assert!(first.exists());
}

#[test]
fn a_read_only_store_serves_and_refuses_writes_with_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let why_no_mount = match TinyTmpfs::mount(dir.path(), "1m") {
        Ok(mount) => {
            let first = open(&mount.0).write_table_with(KERNEL, &prov(), table()).unwrap();
            match mount.remount_read_only() {
                Ok(()) => return check_read_only(&mount.0, &first),
                Err(why) => format!("remount read-only failed: {why}"),
            }
        }
        Err(why) => why,
    };
    // Without a read-only mount, permission bits: they stop anyone but root.
    let store = dir.path().join("store");
    let first = open(&store).write_table_with(KERNEL, &prov(), table()).unwrap();
    let key = key_dir(&store);
    set_mode(&key, 0o555);
    let probe = fs::write(key.join(".probe"), b"");
    if probe.is_ok() {
        set_mode(&key, 0o755);
        return child::skip(
            &format!(
                "the read-only-store check: no read-only mount ({why_no_mount}), and permission bits do not stop this user (root)"
            ),
            false,
        );
    }
    check_read_only(&store, &first);
    set_mode(&key, 0o755);
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(not(unix))]
fn set_mode(path: &Path, mode: u32) {
    let mut permissions = fs::metadata(path).unwrap().permissions();
    permissions.set_readonly(mode & 0o200 == 0);
    fs::set_permissions(path, permissions).unwrap();
}
