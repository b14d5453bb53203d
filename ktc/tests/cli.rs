//! The plain `ktc` binary (no kernels linked) against a store filled by a real sweep of
//! a two-axis test kernel: judging entries without the kernel, explain from the store
//! agreeing with the dispatcher, one plot panel per value of the second axis, and
//! `retune` refused.

use ktc::sweep::SweepOptions;
use ktc::{AxisValue, ChoiceSource, Dispatch, KernelTuningCache, Provenance};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

/// Counts of each of `bins` values: a plain loop, or with per-block partial counts.
#[ktc::tunable(axes(n = data.len(), bins = bins), sweep(n = [256, 65_536], bins = [4, 64]))]
pub mod histogram {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: usize, bins: usize) -> (Vec<u32>, usize, Vec<u32>) {
        ((0..n as u32).map(|i| i.wrapping_mul(2_654_435_761) % bins as u32).collect(), bins, vec![0; bins])
    }

    /// The reference.
    #[variant(reference)]
    pub fn serial(data: &[u32], bins: usize, out: &mut [u32]) {
        for &d in data {
            out[d as usize % bins] += 1;
        }
    }

    /// Counts `block_size` values at a time into a private array first.
    #[variant(block_size = [64, 1024])]
    pub fn blocked(data: &[u32], bins: usize, out: &mut [u32], block_size: usize) {
        let mut local = vec![0u32; bins];
        for chunk in data.chunks(block_size) {
            for &d in chunk {
                local[d as usize % bins] += 1;
            }
        }
        for (o, l) in out.iter_mut().zip(local) {
            *o += l;
        }
    }
}

const FINGERPRINT: &str = "plain-host";

fn ktc(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ktc"))
        .args(args)
        .env("KTC_CACHE_DIR", store)
        .env("KTC_FINGERPRINT", FINGERPRINT)
        .output()
        .unwrap()
}

fn json(store: &Path, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = ktc(store, &all);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A store with one real sweep of `histogram`.
fn tuned_store() -> (tempfile::TempDir, ktc::sweep::SweepReport) {
    let dir = tempfile::tempdir().unwrap();
    let options = SweepOptions {
        budget: Some(Duration::from_secs(3)),
        cache_dir: Some(dir.path().to_path_buf()),
        fingerprint: Some(FINGERPRINT.into()),
        // The grid the kernel declares, no refinement: exploring its 16× bracket of
        // bins would add a value, and a plot panel, the tests below do not name.
        grid_only: true,
        ..SweepOptions::default()
    };
    let report = (histogram::Variant::kernel().sweep)(&options).unwrap();
    (dir, report)
}

#[test]
fn retune_needs_linked_kernels() {
    let store = tempfile::tempdir().unwrap();
    let out = ktc(store.path(), &["retune"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("links no kernels"), "{stderr}");
}

#[test]
fn list_judges_current_stale_and_invalid_without_the_kernel() {
    let (store, report) = tuned_store();
    let cache = KernelTuningCache::open(store.path()).unwrap();
    // The same tuning as if built by another rustc: another code version, older.
    let mut old = report.entry.clone();
    old.provenance.rustc_version = "rustc 1.0.0".into();
    old.code_version = old.provenance.code_version();
    old.created = "2000-01-01T00:00:00.000000Z".into();
    cache.import_entry(&old).unwrap();
    let junk = report.entry_path.with_file_name("20261130T000000.000000Z-0123456789abcdef.json");
    std::fs::write(&junk, b"{\"schema\": 1, \"kern").unwrap();

    let value = json(store.path(), &["list"]);
    assert_eq!(value["judged_against"], "store");
    let entries = value["entries"].as_array().unwrap();
    let status = |path: &Path| {
        let e = entries.iter().find(|e| e["path"] == path.to_str().unwrap()).expect("listed");
        (e["status"].as_str().unwrap().to_owned(), e.clone())
    };
    assert_eq!(status(&report.entry_path).0, "current", "{value:#}");
    let (junk_status, junk_entry) = status(&junk);
    assert_eq!(junk_status, "invalid");
    assert!(junk_entry["reason"].as_str().unwrap().contains("not valid JSON"));
    let stale = entries.iter().find(|e| e["code_version"] == old.code_version.as_str()).unwrap();
    assert_eq!(stale["status"], "stale");
    assert_eq!(stale["changes"][0]["field"], "rustc_version");
    assert_eq!(stale["changes"][0]["old"], "rustc 1.0.0");

    // Without linked kernels gc keeps stale entries (it cannot be sure) and says so.
    let gc = ktc(store.path(), &["gc", "--dry-run"]);
    assert!(String::from_utf8_lossy(&gc.stdout).contains("stale entries are kept"));
}

#[test]
fn explain_from_the_store_agrees_with_the_dispatcher() {
    let (store, report) = tuned_store();
    let cache = KernelTuningCache::open(store.path()).unwrap().with_fingerprint(FINGERPRINT);
    let dispatch = Dispatch::load_from(histogram::Variant::kernel(), &cache);
    for (n, bins) in [(1u64, 1u64), (256, 4), (300, 4), (70_000, 64), (256, 5000)] {
        let args = ["explain", "histogram", "--axis", &format!("n={n}"), "--axis", &format!("bins={bins}")];
        let value = json(store.path(), &args);
        let choice = dispatch.explain(&[AxisValue::Int(n), AxisValue::Int(bins)]);
        let ChoiceSource::Region { entry, index, .. } = &choice.source else { panic!("fell back: {choice}") };
        assert_eq!(entry, &report.entry_path);
        assert_eq!(value["variant"], choice.variant, "n={n} bins={bins}");
        assert_eq!(value["block_size"].as_u64(), choice.block_size.map(|b| b as u64));
        assert_eq!(value["region_index"].as_u64(), Some(*index as u64));
    }
    let current = Provenance::current(&histogram::Variant::kernel().identity).code_version();
    assert_eq!(report.entry.code_version, current);
}

#[test]
fn plot_draws_one_panel_per_value_of_the_second_axis() {
    let (store, _) = tuned_store();
    let svg = store.path().join("histogram.svg");
    let value = json(store.path(), &["plot", "histogram", "--out", svg.to_str().unwrap()]);
    assert_eq!(value["panels"], 2);
    assert_eq!(value["series"], serde_json::json!(["serial", "blocked/64", "blocked/1024"]));
    let source = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&source).expect("well-formed SVG");
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).map(str::trim).collect();
    for label in ["serial", "blocked/64", "blocked/1024", "bins=4", "bins=64"] {
        assert!(texts.iter().any(|t| t.starts_with(label)), "`{label}` not drawn: {texts:?}");
    }
}

#[test]
fn a_missing_bundle_or_store_entry_is_an_error_with_advice() {
    let store = tempfile::tempdir().unwrap();
    let out = ktc(store.path(), &["import", "/nonexistent/bundle.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give a file written by `ktc export`"));
    let out = ktc(store.path(), &["plot", "histogram", "--out", "x.svg"]);
    assert_eq!(out.status.code(), Some(1));
    let listed = json(store.path(), &["list"]);
    assert_eq!(listed["entries"], serde_json::json!([]));
}

#[test]
fn plot_shades_each_region_in_its_variants_colour() {
    let (store, report) = tuned_store();
    // A newer entry of the same code version whose table switches at n = 1000.
    let mut entry = report.entry.clone();
    entry.regions =
        vec![ktc::Region::new("blocked").block_size(64).at_most("n", 1000.0), ktc::Region::new("serial")];
    entry.created = ktc::now_rfc3339();
    KernelTuningCache::open(store.path()).unwrap().write_entry(&entry).unwrap();
    let svg = store.path().join("regions.svg");
    json(store.path(), &["plot", "histogram", "--out", svg.to_str().unwrap()]);
    let source = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&source).unwrap();
    // Shading is the translucent rectangles; series 0 (serial) and 1 (blocked/64) colours.
    let shaded: Vec<(f64, &str)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("opacity") == Some("0.15"))
        .map(|n| (n.attribute("x").unwrap().parse().unwrap(), n.attribute("fill").unwrap()))
        .collect();
    assert_eq!(shaded.len(), 4, "two spans in each of two panels: {shaded:?}");
    for panel in shaded.chunks(2) {
        assert_eq!(panel[0].1, "#FF7F0E", "n ≤ 1000 is blocked/64's: {shaded:?}");
        assert_eq!(panel[1].1, "#1F77B4", "the rest is serial's: {shaded:?}");
        assert!(panel[0].0 < panel[1].0);
    }
}
