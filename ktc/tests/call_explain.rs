//! `call` runs exactly what `explain` names, in every region of a table: each variant
//! records that it ran (and with which block size), and every region's corner, plus a
//! sweep of queries across the axes, is called and explained. Two tables: sizes and a
//! label (the general index), and sizes alone (the inline index of the usual shape).
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

/// The same three variants over two sizes only.
#[ktc::tunable(axes(n = n, k = k), sweep(n = [1, 2], k = [1, 2]))]
pub mod sizes {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: u64, k: u64) -> (u64, u64) {
        (n, k)
    }
    /// The reference.
    #[variant(reference)]
    pub fn a(n: u64, k: u64) {
        let _ = (n, k);
        super::ran("a", 0);
    }
    /// Takes a block size.
    #[variant(block_size = [2, 4, 8])]
    pub fn b(n: u64, k: u64, block_size: usize) {
        let _ = (n, k);
        super::ran("b", block_size);
    }
    /// A third.
    #[variant]
    pub fn c(n: u64, k: u64) {
        let _ = (n, k);
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

/// The table over (n, k) alone: the labelled table's regions for any other label.
fn sizes_table() -> DecisionTable {
    let mut t = table();
    t.axes.pop();
    t.regions.retain(|r| !r.when.contains_key("r"));
    t
}

/// Calls and explains one query (`r: None`: on the sizes-only kernel); returns the
/// explained region index.
fn check(n: u64, k: u64, r: Option<&str>) -> Option<usize> {
    RAN.with(|c| c.set(("none", 0)));
    let choice = match r {
        Some(r) => {
            recorded::call(n, k, r);
            recorded::explain(n, k, r)
        }
        None => {
            sizes::call(n, k);
            sizes::explain(n, k)
        }
    };
    let r = r.unwrap_or("-");
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
    let table = table();
    let regions = table.regions.len();
    for (tuner, table) in [(recorded::Variant::kernel(), table), (sizes::Variant::kernel(), sizes_table())] {
        cache
            .write_entry(&cache.new_entry(tuner.name, &Provenance::current(&tuner.identity), table))
            .unwrap();
    }

    // Every region, at its corner.
    let mut index = 0;
    for i in 0..N_BOUNDS {
        for j in 0..K_BOUNDS {
            for label in LABELS {
                let n = if i + 1 < N_BOUNDS { (i + 1) * 100 } else { u64::MAX };
                let k = if j + 1 < K_BOUNDS { (j + 1) * 10 } else { 1 << 40 };
                assert_eq!(check(n, k, Some(label.unwrap_or("tpu"))), Some(index), "region {index}");
                if label.is_none() {
                    // The sizes-only table keeps the regions without a label, in order.
                    assert_eq!(check(n, k, None), Some(index / 3), "sizes region {}", index / 3);
                }
                index += 1;
            }
        }
    }
    assert_eq!(index, regions);
    // And everywhere between.
    for n in (0..=900).step_by(7) {
        for k in 0..=45 {
            for r in [Some("device"), Some("host"), Some(""), Some("tpu"), None] {
                assert!(check(n, k, r).is_some());
            }
        }
    }
    println!("call_explain: `call` ran what `explain` named in all {regions} + {} regions", regions / 3);
}
