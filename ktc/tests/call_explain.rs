//! `call` runs exactly what `explain` names, in every region of a table: each variant
//! records that it ran (and with which block size), and every region's corner, plus a
//! sweep of queries across the axes, is called and explained.
//!
//! A test without the libtest harness (`harness = false`): `call` loads its table once
//! per process from `KTC_CACHE_DIR`, which `main` sets before anything reads it, and no
//! generated `#[test]` sweeps into that store meanwhile.

use ktc::{Axis, ChoiceSource, DecisionTable, KernelTuningCache, Provenance, Region};
use std::cell::Cell;

thread_local! {
    static RAN: Cell<(&'static str, usize)> = const { Cell::new(("none", 0)) };
}

fn ran(variant: &'static str, block_size: usize) {
    RAN.with(|r| r.set((variant, block_size)));
}

/// Three variants that only record that they ran.
#[ktc::tunable(axes(n = n, k = k, r = r), sweep(n = [1, 2], k = [1, 2], r = [host, device]))]
pub mod recorded {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: u64, k: u64, r: &'static str) -> (u64, u64, &'static str) {
        (n, k, r)
    }
    /// The reference.
    #[variant(reference)]
    pub fn a(n: u64, k: u64, r: &str) {
        let _ = (n, k, r);
        super::ran("a", 0);
    }
    /// Takes a block size.
    #[variant(block_size = [2, 4, 8])]
    pub fn b(n: u64, k: u64, r: &str, block_size: usize) {
        let _ = (n, k, r);
        super::ran("b", block_size);
    }
    /// A third.
    #[variant]
    pub fn c(n: u64, k: u64, r: &str) {
        let _ = (n, k, r);
        super::ran("c", 0);
    }
}

const N_BOUNDS: u64 = 8;
const K_BOUNDS: u64 = 4;
const LABELS: [Option<&str>; 3] = [Some("device"), Some("host"), None];

/// Row-major over (n, k, label): each region is the first match at its own corner.
fn table() -> DecisionTable {
    let mut regions = Vec::new();
    for i in 0..N_BOUNDS {
        for j in 0..K_BOUNDS {
            for (l, label) in LABELS.iter().enumerate() {
                let mut region = match (i + j + l as u64) % 4 {
                    0 => Region::new("a"),
                    1 => Region::new("b").block_size(2),
                    2 => Region::new("c"),
                    _ => Region::new("b").block_size(8),
                };
                if i + 1 < N_BOUNDS {
                    region = region.at_most("n", ((i + 1) * 100) as f64 + 0.5);
                }
                if j + 1 < K_BOUNDS {
                    region = region.at_most("k", ((j + 1) * 10) as f64);
                }
                if let Some(label) = label {
                    region = region.equals("r", *label);
                }
                regions.push(region);
            }
        }
    }
    DecisionTable { axes: vec![Axis::numeric("n"), Axis::numeric("k"), Axis::categorical("r")], regions }
}

/// Calls and explains one query; returns the explained region index.
fn check(n: u64, k: u64, r: &str) -> Option<usize> {
    RAN.with(|c| c.set(("none", 0)));
    recorded::call(n, k, r);
    let choice = recorded::explain(n, k, r);
    let (variant, block) = RAN.with(Cell::get);
    assert_eq!(variant, choice.variant, "at n={n} k={k} r={r}: call ran {variant}, explain says {choice}");
    assert_eq!(choice.block_size.unwrap_or(0), block, "at n={n} k={k} r={r}: {choice}");
    match choice.source {
        ChoiceSource::Region { index, .. } => Some(index),
        ChoiceSource::Fallback { .. } => None,
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary store");
    // SAFETY: the only thread, before any ktc code reads the environment.
    unsafe {
        std::env::set_var("KTC_CACHE_DIR", dir.path());
        std::env::set_var("KTC_FINGERPRINT", "call-explain-host");
        std::env::remove_var("KTC_REMOTE");
        std::env::remove_var("KTC_TUNE_ON_MISS");
    }
    let cache = KernelTuningCache::open(dir.path()).unwrap().with_fingerprint("call-explain-host");
    let tuner = recorded::Variant::kernel();
    let table = table();
    let regions = table.regions.len();
    cache.write_entry(&cache.new_entry(tuner.name, &Provenance::current(&tuner.identity), table)).unwrap();

    // Every region, at its corner.
    let mut index = 0;
    for i in 0..N_BOUNDS {
        for j in 0..K_BOUNDS {
            for label in LABELS {
                let n = if i + 1 < N_BOUNDS { (i + 1) * 100 } else { u64::MAX };
                let k = if j + 1 < K_BOUNDS { (j + 1) * 10 } else { 1 << 40 };
                assert_eq!(check(n, k, label.unwrap_or("tpu")), Some(index), "region {index}");
                index += 1;
            }
        }
    }
    assert_eq!(index, regions);
    // And everywhere between.
    for n in (0..=900).step_by(7) {
        for k in 0..=45 {
            for r in ["device", "host", "", "tpu"] {
                assert!(check(n, k, r).is_some());
            }
        }
    }
    println!("call_explain: `call` ran what `explain` named in all {regions} regions");
}
