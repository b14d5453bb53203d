//! `joint_hist_batched` is tuned on the size of `pairs`' table, `kx · kx · ky`, not on
//! the joint size `kx · ky`: two calls with the same joint size (196) but tables of
//! 2 744 (14 × 14) and 38 416 (196 × 1) counters take the decisions stored for their
//! own table sizes. Keyed on the joint size, both took one decision, and the sweep's
//! 14 × 14 got the one measured at 181 × 1, where `pairs` was 2.9× slower.

use ktc::{Axis, ChoiceSource, DecisionTable, KernelTuningCache, Provenance, Region};
use ktc_kernels::{Codes, joint_hist_batched};

#[path = "support/child.rs"]
mod child;

const FINGERPRINT: &str = "joint-hist-key-host";

/// Codes of `n` samples, `p` columns, `bins` bins (`i mod bins`).
fn codes(n: usize, p: usize, bins: usize) -> Codes {
    Codes::from_u8((0..n * p).map(|i| (i % bins) as u8).collect(), n, p, bins).unwrap()
}

/// The child's part: which variant and region each shape gets.
fn explain_and_print() {
    for (kx, ky) in [(14, 14), (196, 1)] {
        let (y, x) = (codes(1_000, 1, ky), codes(1_000, 4, kx));
        let mut counts = vec![0; 4 * kx * ky];
        let choice = joint_hist_batched::explain(&y, &x, &mut counts);
        let from_entry = matches!(choice.source, ChoiceSource::Region { .. });
        println!("SHAPE {kx}x{ky} VARIANT {} FROM_ENTRY {from_entry}", choice.variant);
    }
}

#[test]
fn calls_of_one_joint_size_take_their_pair_tables_decisions() {
    if child::is_child() {
        return explain_and_print();
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = KernelTuningCache::open(dir.path()).unwrap().with_fingerprint(FINGERPRINT);
    let kernel = joint_hist_batched::Variant::kernel();
    let axes = ["n_samples", "pair_table", "n_features"].map(Axis::numeric);
    let table = DecisionTable {
        axes: axes.into_iter().chain([Axis::categorical("loc")]).collect(),
        regions: vec![Region::new("pairs").at_most("pair_table", 8_192.0), Region::new("multiway")],
    };
    let provenance = Provenance::current(&kernel.identity);
    cache.write_entry(&cache.new_entry(kernel.name, &provenance, table)).unwrap();
    let output = child::spawn("calls_of_one_joint_size_take_their_pair_tables_decisions", |c| {
        c.env("KTC_CACHE_DIR", dir.path()).env("KTC_FINGERPRINT", FINGERPRINT);
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("SHAPE 14x14 VARIANT pairs FROM_ENTRY true"), "{stdout}");
    assert!(stdout.contains("SHAPE 196x1 VARIANT multiway FROM_ENTRY true"), "{stdout}");
}
