//! First-call cost of large decision tables: reading, validating and compiling an
//! entry of 5k, 20k and 50k regions (`Dispatch::load_from`, what a kernel's first call
//! runs), one numeric axis with a bound per region and a square grid over two axes.
//! Compilation is linear in regions plus cells, so the times grow about linearly.
//!
//! `cargo bench --bench table_compile`

use ktc::{Axis, ChoiceSource, DecisionTable, Dispatch, KernelTuningCache, Provenance, Region};
use std::time::Instant;

/// Two variants over two numeric axes.
#[ktc::tunable(axes(n = x, k = y), sweep(n = [1, 2], k = [1, 2]))]
pub mod big {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: u64, k: u64) -> (u64, u64) {
        (n, k)
    }
    /// The reference.
    #[variant(reference)]
    pub fn mul(x: u64, y: u64) -> u64 {
        x.wrapping_mul(y)
    }
    /// The same product by another route.
    #[variant]
    pub fn mul_alt(x: u64, y: u64) -> u64 {
        y.wrapping_mul(x)
    }
}

fn variant(i: usize) -> &'static str {
    if i.is_multiple_of(2) { "mul" } else { "mul_alt" }
}

/// `regions` regions, each bounding `n` at its own value; the last is the catch-all.
fn one_axis(regions: usize) -> DecisionTable {
    let mut r: Vec<Region> =
        (0..regions - 1).map(|i| Region::new(variant(i)).at_most("n", (i * 10) as f64)).collect();
    r.push(Region::new("mul"));
    DecisionTable { axes: vec![Axis::numeric("n"), Axis::numeric("k")], regions: r }
}

/// A `side × side` grid of regions over (n, k), as a sweep's grid writes them.
fn grid(side: usize) -> DecisionTable {
    let mut regions = Vec::with_capacity(side * side);
    for i in 0..side {
        for j in 0..side {
            let mut region = Region::new(variant(i + j));
            if i + 1 < side {
                region = region.at_most("n", (i * 10) as f64);
            }
            if j + 1 < side {
                region = region.at_most("k", (j * 10) as f64);
            }
            regions.push(region);
        }
    }
    DecisionTable { axes: vec![Axis::numeric("n"), Axis::numeric("k")], regions }
}

fn first_call_seconds(table: DecisionTable) -> f64 {
    let dir = tempfile::tempdir().expect("temporary store");
    let cache = KernelTuningCache::open(dir.path()).expect("store").with_fingerprint(ktc::hw_fingerprint());
    let tuner = big::Variant::kernel();
    let provenance = Provenance::current(&tuner.identity);
    cache.write_entry(&cache.new_entry(tuner.name, &provenance, table)).expect("write entry");
    let start = Instant::now();
    let dispatch = Dispatch::load_from(tuner, &cache);
    let seconds = start.elapsed().as_secs_f64();
    let choice = dispatch.explain(&[ktc::AxisValue::Int(5), ktc::AxisValue::Int(5)]);
    assert!(matches!(choice.source, ChoiceSource::Region { .. }), "{choice}");
    seconds
}

fn main() {
    println!("{:<10} {:>16} {:>16}", "regions", "one axis (s)", "grid (s)");
    for (regions, side) in [(5_000, 71), (20_000, 141), (50_000, 224)] {
        let one = first_call_seconds(one_axis(regions));
        let square = first_call_seconds(grid(side));
        println!("{regions:<10} {one:>16.4} {square:>16.4}");
    }
}
