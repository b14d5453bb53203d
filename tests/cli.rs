//! The command line as a kernel crate ships it (`ktc-demo`: `ktc::cli::main()` with the
//! demo kernels linked) against a store filled by its own `retune`: every subcommand,
//! `--json` parsed back, `explain` against the dispatcher, gc, export/import, plot.

use ktc::{AxisValue, ChoiceSource, Dispatch, KernelTuningCache, Provenance};
use ktc_workspace::demo::sum;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::LazyLock;

const FINGERPRINT: &str = "cli-demo-host";

/// One store per test process, tuned once by `ktc-demo retune` (a real sweep).
static STORE: LazyLock<PathBuf> = LazyLock::new(|| {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap().keep();
    let out = ktc(&dir, &["retune", "sum", "--budget", "6"]);
    assert!(out.status.success(), "retune failed: {}", text(&out.stderr));
    dir
});

fn ktc(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ktc-demo"))
        .args(args)
        .env("KTC_CACHE_DIR", store)
        .env("KTC_FINGERPRINT", FINGERPRINT)
        .env_remove("KTC_TUNE_ON_MISS")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a `--json` command that must succeed and parses its output.
fn json(store: &Path, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = ktc(store, &all);
    assert!(out.status.success(), "{args:?} failed: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", text(&out.stdout)))
}

/// A private copy of the tuned store, for tests that change it.
fn copy_of_store() -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    copy(&STORE, dir.path());
    dir
}

fn entry_files(store: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() { walk(&path, out) } else { out.push(path) }
        }
    }
    let mut files = Vec::new();
    walk(store, &mut files);
    files.sort();
    files
}

#[test]
fn retune_reports_the_entry_it_wrote() {
    let store = tempfile::tempdir().unwrap();
    let report = json(store.path(), &["retune", "--budget", "4"]);
    let outcomes = report["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 1, "only `sum` is linked: {report:#}");
    let sum = &outcomes[0];
    assert_eq!((sum["kernel"].as_str(), sum["device"].as_str()), (Some("sum"), Some("cpu")));
    assert_eq!(sum["fingerprint"], FINGERPRINT);
    assert!(sum["error"].is_null(), "{sum:#}");
    assert!(Path::new(sum["entry"].as_str().unwrap()).is_file());
    assert!(!sum["regions"].as_array().unwrap().is_empty());
}

#[test]
fn retune_of_an_unknown_kernel_is_bad_usage() {
    let store = tempfile::tempdir().unwrap();
    let out = ktc(store.path(), &["retune", "no_such_kernel"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("linked kernels are: sum"), "{}", text(&out.stderr));
}

#[test]
fn fingerprint_names_the_linked_kernels_code_version() {
    let value = json(&STORE, &["fingerprint"]);
    assert_eq!(value["fingerprint"], FINGERPRINT);
    assert_eq!(value["devices"][0]["device"], "cpu");
    let expected = Provenance::current(&sum::Variant::kernel().identity).code_version();
    let kernels = value["kernels"].as_array().unwrap();
    assert!(
        kernels.iter().any(|k| k["kernel"] == "sum" && k["code_version"] == expected.as_str()),
        "{value:#}"
    );
    assert_eq!(value["provenance"]["ktc_version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn list_marks_the_tuned_entry_current() {
    let value = json(&STORE, &["list"]);
    assert_eq!(value["judged_against"], "linked kernels");
    let entries = value["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{value:#}");
    let e = &entries[0];
    assert_eq!((e["kernel"].as_str(), e["status"].as_str()), (Some("sum"), Some("current")));
    assert_eq!(e["fingerprint"], FINGERPRINT);
    assert!(e["regions"].as_u64().unwrap() >= 1);
    let plain = text(&ktc(&STORE, &["list"]).stdout);
    // `current`, or `current, tuned under load` where other tests' processes kept the
    // machine busy while the store's sweep measured.
    assert!(plain.lines().any(|l| l.contains("sum") && l.contains(" current")), "{plain}");
}

#[test]
fn show_prints_the_table_and_every_measured_variant() {
    let out = ktc(&STORE, &["show", "sum"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("decision table"), "{shown}");
    for variant in sum::Variant::ALL {
        assert!(shown.contains(variant.name()), "{} missing:\n{shown}", variant.name());
    }
    let value = json(&STORE, &["show", "sum"]);
    let on_disk: ktc::Entry =
        serde_json::from_slice(&std::fs::read(value["path"].as_str().unwrap()).unwrap()).unwrap();
    let shown: ktc::Entry = serde_json::from_value(value["entry"].clone()).unwrap();
    assert_eq!(shown, on_disk);
}

#[test]
fn show_of_an_untuned_kernel_says_what_to_do() {
    let out = ktc(&STORE, &["show", "nothing_here"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("retune nothing_here"), "{}", text(&out.stderr));
}

#[test]
fn explain_agrees_with_the_dispatcher() {
    let cache = KernelTuningCache::open(&*STORE).unwrap().with_fingerprint(FINGERPRINT);
    let dispatch = Dispatch::load_from(sum::Variant::kernel(), &cache);
    for n in [0u64, 10, 1_000, 20_000, 300_000, 2_000_000, 6_000_000] {
        let value = json(&STORE, &["explain", "sum", "--axis", &format!("n={n}")]);
        let choice = dispatch.explain(&[AxisValue::Int(n)]);
        assert_eq!(value["variant"], choice.variant, "n = {n}");
        assert_eq!(value["block_size"].as_u64(), choice.block_size.map(|b| b as u64), "n = {n}");
        let ChoiceSource::Region { entry, index, region } = &choice.source else {
            panic!("n = {n}: the dispatcher fell back: {choice}");
        };
        assert_eq!(value["source"], "region");
        assert_eq!(value["region_index"].as_u64(), Some(*index as u64), "n = {n}");
        assert_eq!(value["region"].as_str(), Some(region.as_str()));
        assert_eq!(value["entry"].as_str(), Some(entry.to_str().unwrap()));
    }
}

#[test]
fn explain_without_tuning_reports_the_fallback() {
    let empty = tempfile::tempdir().unwrap();
    let value = json(empty.path(), &["explain", "sum", "--axis", "n=5"]);
    assert_eq!(value["source"], "fallback");
    assert_eq!(value["variant"], "serial");
    assert!(value["reason"].as_str().unwrap().contains("no tuning for `sum`"), "{value:#}");
}

#[test]
fn bad_usage_exits_2_and_says_what_to_give() {
    for args in [
        &["explain", "sum", "--axis", "m=5"][..],
        &["explain", "sum"],
        &["explain", "sum", "--axis", "n=lots"],
        &["explain", "sum", "--axis", "n"],
        &["frobnicate"],
        &["gc", "--keep", "-1"],
    ] {
        let out = ktc(&STORE, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(!out.stderr.is_empty(), "{args:?} printed no reason");
    }
    let out = ktc(&STORE, &["explain", "sum", "--axis", "m=5"]);
    assert!(text(&out.stderr).contains("--axis n=VALUE"), "{}", text(&out.stderr));
}

#[test]
fn gc_dry_run_changes_nothing_and_gc_removes_the_superseded() {
    let store = copy_of_store();
    let current = entry_files(store.path());
    assert_eq!(current.len(), 1);
    // An older copy of the entry: valid, and superseded by the sweep's.
    let older = current[0].with_file_name("20000101T000000.000000Z-0123456789abcdef.json");
    std::fs::copy(&current[0], &older).unwrap();
    let before = entry_files(store.path());

    let dry = json(store.path(), &["gc", "--dry-run"]);
    assert_eq!(dry["dry_run"], true);
    assert_eq!(dry["removed"], serde_json::json!([older]));
    assert_eq!(entry_files(store.path()), before, "a dry run removed something");
    let listed = json(store.path(), &["list"]);
    let statuses: Vec<&str> =
        listed["entries"].as_array().unwrap().iter().map(|e| e["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["superseded", "current"]);

    let done = json(store.path(), &["gc"]);
    assert_eq!(done["removed"], serde_json::json!([older]));
    assert_eq!(entry_files(store.path()), current);
}

#[test]
fn import_takes_the_good_entries_and_reports_the_hostile_ones() {
    let work = tempfile::tempdir().unwrap();
    let bundle_path = work.path().join("bundle.json");
    let exported = json(&STORE, &["export", "--out", bundle_path.to_str().unwrap()]);
    assert_eq!(exported["exported"], 1);
    let mut bundle: Value = serde_json::from_slice(&std::fs::read(&bundle_path).unwrap()).unwrap();
    let good = bundle["entries"][0].clone();
    let mut escaping = good.clone();
    escaping["fingerprint"] = "../../escaped".into();
    let mut unknown_variant = good.clone();
    unknown_variant["regions"] = serde_json::json!([{"variant": "warp_speed"}]);
    let entries = bundle["entries"].as_array_mut().unwrap();
    entries.extend([escaping, serde_json::json!("not an entry"), unknown_variant]);
    std::fs::write(&bundle_path, serde_json::to_vec(&bundle).unwrap()).unwrap();

    let target = work.path().join("store");
    let out = ktc(&target, &["import", bundle_path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1), "rejections are an error: {}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["imported"].as_array().unwrap().len(), 1, "{report:#}");
    let rejected = report["rejected"].as_array().unwrap();
    let reasons: Vec<(u64, &str)> =
        rejected.iter().map(|r| (r["index"].as_u64().unwrap(), r["reason"].as_str().unwrap())).collect();
    assert_eq!(reasons.len(), 3, "{report:#}");
    assert!(reasons[0].0 == 1 && reasons[0].1.contains("not a safe folder name"), "{reasons:?}");
    assert!(reasons[1].0 == 2 && reasons[1].1.contains("not a valid entry"), "{reasons:?}");
    assert!(reasons[2].0 == 3 && reasons[2].1.contains("warp_speed"), "{reasons:?}");
    assert!(!work.path().join("escaped").exists() && !target.join("escaped").exists());
    assert_eq!(entry_files(&target).len(), 1);

    // The imported entry keeps its measurement time and is served; importing again adds nothing.
    let listed = json(&target, &["list"]);
    assert_eq!(listed["entries"][0]["status"], "current");
    assert_eq!(listed["entries"][0]["created"], good["created"]);
    let again = ktc(&target, &["import", bundle_path.to_str().unwrap(), "--json"]);
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["present"].as_array().unwrap().len(), 1, "{again:#}");
    assert!(again["imported"].as_array().unwrap().is_empty());
    assert_eq!(entry_files(&target).len(), 1, "import never adds a duplicate");
}

#[test]
fn plot_writes_well_formed_svg_naming_every_variant() {
    let work = tempfile::tempdir().unwrap();
    let svg = work.path().join("sum.svg");
    let value = json(&STORE, &["plot", "sum", "--out", svg.to_str().unwrap()]);
    assert_eq!(value["panels"], 1);
    let source = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&source).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).map(str::trim).collect();
    for variant in sum::Variant::ALL {
        assert!(texts.iter().any(|t| t.starts_with(variant.name())), "{} not in the legend", variant.name());
    }
}

#[test]
fn push_pull_and_remote_ls_through_a_shared_folder() {
    let shared = tempfile::tempdir().unwrap();
    let remote = format!("file://{}", shared.path().display());
    let pushed = json(&STORE, &["push", "--remote", &remote]);
    let uploaded = pushed["transferred"].as_array().unwrap();
    assert!(!uploaded.is_empty(), "{pushed}");
    assert_eq!(pushed["rejected"].as_array().unwrap().len(), 0, "{pushed}");
    // A second push finds everything there: nothing is overwritten.
    let again = json(&STORE, &["push", "--remote", &remote]);
    assert_eq!(again["transferred"].as_array().unwrap().len(), 0);
    assert_eq!(again["already_present"].as_array().unwrap().len(), uploaded.len());

    let listed = json(&STORE, &["remote", "ls", "--remote", &remote]);
    assert_eq!(listed["entries"].as_array().unwrap().len(), uploaded.len(), "{listed}");

    let fresh = tempfile::tempdir().unwrap();
    let pulled = json(fresh.path(), &["pull", "--remote", &remote]);
    assert_eq!(pulled["transferred"].as_array().unwrap().len(), uploaded.len(), "{pulled}");
    let entries = json(fresh.path(), &["list"]);
    assert!(entries.to_string().contains("\"sum\""), "{entries}");

    let no_remote = ktc(fresh.path(), &["pull"]);
    assert_eq!(no_remote.status.code(), Some(2), "no remote configured is bad usage");
    assert!(text(&no_remote.stderr).contains("KTC_REMOTE"));
}
