//! The plain `ktc` binary against the adversarial run's entries (issue 13): gc keeps the
//! entry in use beside a newer copy it cannot judge, import refuses bad `created` and
//! forged `code_version` values with the reason, `show` of 1000 distinct series stays
//! small, and `plot` of extreme values finishes.

use ktc::{Axis, DecisionTable, Entry, KernelIdentity, KernelTuningCache, Measurement, Provenance, Region};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const FINGERPRINT: &str = "hostile-host";
const KERNEL: &str = "victim";

/// Runs the binary; a run still going after two minutes is killed and fails the test
/// (a liveness guard for the commands that used to loop, not a speed check).
fn ktc(store: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ktc"))
        .args(args)
        .env("KTC_CACHE_DIR", store)
        .env("KTC_FINGERPRINT", FINGERPRINT)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("`ktc {}` did not finish", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn cache(store: &Path) -> KernelTuningCache {
    KernelTuningCache::open(store).unwrap().with_fingerprint(FINGERPRINT)
}

fn entry(cache: &KernelTuningCache) -> Entry {
    let table = DecisionTable {
        axes: vec![Axis::numeric("n")],
        regions: vec![Region::new("serial").at_most("n", 1000.0), Region::new("parallel").block_size(256)],
    };
    cache.new_entry(KERNEL, &Provenance::current(&KernelIdentity::UNSPECIFIED), table)
}

fn measurement(n: f64, variant: String, median_ns: f64) -> Measurement {
    // Through serde, as a stored entry is read: fields added later with a default need
    // no change here.
    let m =
        json!({"point": {"n": n}, "variant": variant, "median_ns": median_ns, "spread_ns": 1.0, "runs": 5});
    serde_json::from_value(m).unwrap()
}

#[test]
fn gc_from_the_plain_binary_keeps_the_entry_in_use() {
    let store = tempfile::tempdir().unwrap();
    let cache = cache(store.path());
    let good = cache.write_entry(&entry(&cache)).unwrap();
    let copy: PathBuf = cache.write_entry(&entry(&cache)).unwrap();
    let mut value: Value = serde_json::from_slice(&std::fs::read(&copy).unwrap()).unwrap();
    value["regions"][0]["variant"] = "quantum".into();
    std::fs::write(&copy, serde_json::to_vec(&value).unwrap()).unwrap();

    let out = ktc(store.path(), &["gc"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        good.exists() && copy.exists(),
        "the binary cannot tell which one a dispatcher serves: {}",
        text(&out.stdout)
    );
}

#[test]
fn import_refuses_bad_created_and_forged_code_versions_with_the_reason() {
    let (from, to) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let cache = cache(from.path());
    let good = entry(&cache);
    let mut entries = vec![serde_json::to_value(&good).unwrap()];
    let mut expected = vec![];
    for (created, reason) in
        [("", "not a UTC time"), ("08:99:99", "not a UTC time"), ("2099-01-01T00:00:00.000000Z", "ahead")]
    {
        let mut e = serde_json::to_value(&good).unwrap();
        e["created"] = created.into();
        entries.push(e);
        expected.push(reason);
    }
    let mut forged = serde_json::to_value(&good).unwrap();
    forged["provenance"]["source_hash"] = "forged".into();
    entries.push(forged);
    expected.push("hash of its provenance");
    let bundle = from.path().join("bundle.json");
    std::fs::write(
        &bundle,
        serde_json::to_vec(&json!({"format": "ktc-bundle", "version": 1, "entries": entries})).unwrap(),
    )
    .unwrap();

    let out = ktc(to.path(), &["import", bundle.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["imported"].as_array().unwrap().len(), 1, "{report:#}");
    let rejected = report["rejected"].as_array().unwrap();
    for (i, reason) in expected.iter().enumerate() {
        let r =
            rejected.iter().find(|r| r["index"] == i + 1).unwrap_or_else(|| panic!("#{} accepted", i + 1));
        assert!(r["reason"].as_str().unwrap().contains(reason), "#{}: {r}", i + 1);
    }
}

#[test]
fn show_and_plot_of_hostile_measurements_finish_with_bounded_output() {
    let store = tempfile::tempdir().unwrap();
    let cache = cache(store.path());
    let mut wide = entry(&cache);
    wide.measurements =
        (0..1000).map(|i| measurement(f64::from(i + 1), format!("variant_{i}"), 1e3)).collect();
    wide.measurements.push(measurement(1e4, "serial".into(), 9e307));
    wide.measurements.push(measurement(5e-324, "serial".into(), 700.0));
    cache.write_entry(&wide).unwrap();

    let out = ktc(store.path(), &["show", KERNEL]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.len() < 64 << 10, "{} bytes", out.stdout.len());
    assert!(text(&out.stdout).contains("more series"));

    let svg = store.path().join("plot.svg");
    let out = ktc(store.path(), &["plot", KERNEL, "--out", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("left out: 2 measurement(s)"), "{}", text(&out.stdout));
    assert!(svg.exists());
}
