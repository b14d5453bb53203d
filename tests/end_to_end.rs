//! Sweep → entry on disk → a separate process dispatches to the recorded winner on both
//! sides of the crossover, and its outputs equal the reference's.

use ktc::sweep::{SweepMode, SweepOptions};
use ktc::{AxisValue, ChoiceSource};
use ktc_workspace::demo::sum;
use std::time::Duration;

#[path = "support/child.rs"]
mod child;

/// Sizes below the grid, between grid points on both sides of any crossover, and above.
const SIZES: [usize; 6] = [10, 1_000, 20_000, 300_000, 2_000_000, 6_000_000];

#[test]
fn a_separate_process_dispatches_to_the_sweeps_winners() {
    if child::is_child() {
        return print_choices();
    }
    let store = tempfile::tempdir().unwrap();
    let options = SweepOptions {
        mode: SweepMode::Quick,
        budget: Some(Duration::from_secs(10)),
        cache_dir: Some(store.path().to_path_buf()),
        fingerprint: Some("e2e-host".into()),
        progress: false,
        // Test entries are for this temporary store only, never for a configured fleet.
        skip_push: true,
        ..SweepOptions::default()
    };
    let report = (sum::Variant::kernel().sweep)(&options).expect("sweep");
    assert!(report.entry_path.starts_with(store.path().join("e2e-host").join("sum")));
    assert!(report.entry_path.is_file());
    println!("regions:\n{}", report.entry.table());

    let output = child::spawn("a_separate_process_dispatches_to_the_sweeps_winners", |c| {
        c.env("KTC_CACHE_DIR", store.path()).env("KTC_FINGERPRINT", "e2e-host");
    });
    let stdout = String::from_utf8_lossy(&output.stdout);

    let table = report.entry.table();
    let mut seen = 0;
    for line in stdout.lines().filter_map(|l| l.split_once("CHOICE ").map(|(_, rest)| rest)) {
        let fields: Vec<&str> = line.split(' ').collect();
        let [n, variant, block, entry, equal] = fields[..] else { panic!("bad line {line}") };
        let n: usize = n.parse().unwrap();
        let (_, expected) = table.lookup(&[("n", AxisValue::from(n))]).unwrap();
        assert_eq!(variant, expected.variant, "n = {n}");
        assert_eq!(block, expected.block_size.map_or("-".into(), |b| b.to_string()), "n = {n}");
        assert_eq!(entry, report.entry_path.display().to_string(), "n = {n}");
        assert_eq!(equal, "equal", "n = {n}: dispatched output differs from the reference");
        seen += 1;
    }
    assert_eq!(seen, SIZES.len(), "child output:\n{stdout}");
}

/// The child's part of the test above: a fresh process with the store filled.
fn print_choices() {
    for n in SIZES {
        let (data,) = sum::inputs(n);
        let choice = sum::explain(&data);
        let ChoiceSource::Region { entry, .. } = &choice.source else {
            panic!("n = {n}: fell back: {choice}");
        };
        let equal = if sum::call(&data) == sum::serial(&data) { "equal" } else { "differs" };
        let block = choice.block_size.map_or("-".into(), |b| b.to_string());
        println!("CHOICE {n} {} {block} {} {equal}", choice.variant, entry.display());
    }
}
