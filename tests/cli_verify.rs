//! `ktc verify` and `ktc retune --refine` as a kernel crate's binary (`ktc-demo`) runs
//! them, against a store its own `retune` filled.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn ktc(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ktc-demo"))
        .args(args)
        .env("KTC_CACHE_DIR", store)
        .env("KTC_FINGERPRINT", "cli-verify-host")
        .env_remove("KTC_TUNE_ON_MISS")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn verify_reports_regret_and_refine_writes_an_entry_when_needed() {
    let store = tempfile::tempdir().unwrap();
    let untuned = ktc(store.path(), &["verify", "sum", "--points", "3"]);
    assert_eq!(untuned.status.code(), Some(1), "nothing to verify yet");
    assert!(text(&untuned.stderr).contains("tune the kernel first"), "{}", text(&untuned.stderr));

    let tuned = ktc(store.path(), &["retune", "sum", "--budget", "3"]);
    assert!(tuned.status.success(), "{}", text(&tuned.stderr));
    let out =
        ktc(store.path(), &["verify", "sum", "--points", "4", "--seed", "7", "--json", "--budget", "3"]);
    // 0: every point within the threshold; 1: a region flagged (a drift, or noise on a
    // busy host). Either way the report is on stdout.
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", text(&out.stderr));
    let report: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
    let points = report["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    assert!(points.iter().all(|p| p["regret"].as_f64().is_some_and(|r| r >= 1.0)));
    assert_eq!(out.status.code() == Some(1), !report["flagged"].as_array().unwrap().is_empty());
    assert!(report["fixed"].as_array().unwrap().len() >= 2);

    // The seed picks the points: the same seed the same ones, another seed others.
    let sampled = |seed: &str| {
        let out =
            ktc(store.path(), &["verify", "sum", "--points", "4", "--looks", "1", "--seed", seed, "--json"]);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
        let points: Vec<Value> =
            report["points"].as_array().unwrap().iter().map(|p| p["point"].clone()).collect();
        points
    };
    let seven: Vec<Value> = points.iter().map(|p| p["point"].clone()).collect();
    assert_eq!(sampled("7"), seven);
    assert_ne!(sampled("8"), seven);
    let bad = ktc(store.path(), &["verify", "sum", "--looks", "0"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));

    let refined = ktc(store.path(), &["retune", "--refine", "sum", "--budget", "3", "--json"]);
    assert!(refined.status.success(), "{}", text(&refined.stderr));
    let outcomes: Value = serde_json::from_slice(&refined.stdout).unwrap();
    assert!(outcomes["outcomes"][0]["entry"].is_string(), "{outcomes}");
    assert_eq!(outcomes["outcomes"][0]["verify"]["points"].as_array().unwrap().len(), 24, "{outcomes}");
}

#[test]
fn retune_refine_verifies_as_told_and_says_what_it_found() {
    let store = tempfile::tempdir().unwrap();
    let tuned = ktc(store.path(), &["retune", "sum", "--budget", "3"]);
    assert!(tuned.status.success(), "{}", text(&tuned.stderr));
    // The verify's settings, as `verify` takes them, only with `--refine`.
    let args = ["retune", "--refine", "sum", "--points", "3", "--looks", "1", "--threshold", "1.5"];
    let refined = ktc(store.path(), &[&args[..], &["--seed", "7", "--json"]].concat());
    assert!(refined.status.success(), "{}", text(&refined.stderr));
    let outcomes: Value = serde_json::from_slice(&refined.stdout).unwrap();
    let outcome = &outcomes["outcomes"][0];
    assert_eq!(outcome["verify"]["points"].as_array().unwrap().len(), 3, "{outcomes}");
    assert_eq!(outcome["verify"]["threshold"], 1.5);
    // Kept exactly when nothing was flagged, and the text says which.
    let kept = outcome["verify"]["flagged"].as_array().unwrap().is_empty();
    assert_eq!(outcome["entry"] == outcome["verify"]["entry"], kept, "{outcomes}");
    let again = ktc(store.path(), &[&args[..], &["--seed", "7"]].concat());
    let said = text(&again.stdout);
    assert!(said.contains("verified at 3 points: regret geomean"), "{said}");
    assert!(said.contains("the entry is kept") || said.contains("re-swept around"), "{said}");

    let without = ktc(store.path(), &["retune", "sum", "--points", "3"]);
    assert_eq!(without.status.code(), Some(2), "{}", text(&without.stderr));
    assert!(text(&without.stderr).contains("with `--refine`"), "{}", text(&without.stderr));
    let below_one = ktc(store.path(), &["verify", "sum", "--threshold", "0.9"]);
    assert_eq!(below_one.status.code(), Some(2), "{}", text(&below_one.stderr));
    assert!(text(&below_one.stderr).contains("not a regret threshold"), "{}", text(&below_one.stderr));
}

#[test]
fn verify_records_what_it_flags_and_the_next_refine_re_sweeps_it() {
    let store = tempfile::tempdir().unwrap();
    let tuned = ktc(store.path(), &["retune", "sum", "--budget", "3"]);
    assert!(tuned.status.success(), "{}", text(&tuned.stderr));
    // Threshold 1: any point whose choice is not the fastest there is flagged.
    let verified =
        ktc(store.path(), &["--json", "verify", "sum", "--points", "6", "--looks", "1", "--threshold", "1"]);
    let report: Value = serde_json::from_slice(&verified.stdout).unwrap();
    let flagged = !report["flagged"].as_array().unwrap().is_empty();
    assert_eq!(report["recorded"].is_string(), flagged, "recorded exactly when flagged: {report}");
    assert_eq!(report["earlier"], serde_json::json!([]), "{report}");
    // A refine whose own verify flags nothing re-sweeps what the verify recorded.
    let lenient = ["retune", "--refine", "sum", "--points", "6", "--looks", "1", "--threshold", "1000"];
    let refined = ktc(store.path(), &lenient);
    assert!(refined.status.success(), "{}", text(&refined.stderr));
    let said = text(&refined.stdout);
    if flagged {
        assert!(said.contains("flagged by an earlier verify: n="), "{said}");
        assert!(said.contains("re-swept around"), "{said}");
    } else {
        assert!(said.contains("the entry is kept"), "{said}");
    }
    // The new entry (or the kept one, with nothing recorded) has no record: kept now.
    let again = ktc(store.path(), &lenient);
    assert!(text(&again.stdout).contains("the entry is kept"), "{}", text(&again.stdout));
}

#[test]
fn verify_at_given_sizes_measures_those_and_names_what_a_bad_point_lacks() {
    let store = tempfile::tempdir().unwrap();
    let tuned = ktc(store.path(), &["retune", "sum", "--budget", "3"]);
    assert!(tuned.status.success(), "{}", text(&tuned.stderr));
    let given = ["verify", "sum", "--at", "n=2_500", "--at", "n=700000", "--looks", "1", "--json"];
    let out = ktc(store.path(), &given);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    let sizes: Vec<&Value> = report["points"].as_array().unwrap().iter().map(|p| &p["point"]["n"]).collect();
    assert_eq!(sizes, [2_500, 700_000]);
    // A flagged verify names the flags that re-sweep what it measured.
    let flagged = ktc(store.path(), &["verify", "sum", "--at", "n=2500", "--looks", "1", "--threshold", "1"]);
    if flagged.status.code() == Some(1) {
        assert!(text(&flagged.stderr).contains("--at n=2500"), "{}", text(&flagged.stderr));
    }
    // Off the sweep's range, or another kernel's axis: an error, not a panic, that
    // says what `sum` takes.
    for bad in ["n=50", "m=2500", "n=2500,loc=host"] {
        let out = ktc(store.path(), &["verify", "sum", "--at", bad]);
        assert_eq!(out.status.code(), Some(1), "{bad}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("n 1000..=4000000"), "{bad}: {}", text(&out.stderr));
    }
    let malformed = ktc(store.path(), &["verify", "sum", "--at", "n"]);
    assert_eq!(malformed.status.code(), Some(2), "{}", text(&malformed.stderr));
}

#[test]
fn verify_of_an_unlinked_kernel_is_bad_usage() {
    let store = tempfile::tempdir().unwrap();
    let out = ktc(store.path(), &["verify", "no_such_kernel"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no linked kernel is named `no_such_kernel`"),
        "{}",
        text(&out.stderr)
    );
}
