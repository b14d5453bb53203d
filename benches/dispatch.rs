//! Dispatch overhead: the generated `call` against a direct call of the variant it
//! picks, for decision tables of 1, 8, 32 and 128 regions (a refined sweep of a
//! three-axis kernel derives about 80–140), with the query in the first
//! region and in the last. Criterion prints each time; the summary at the end gives
//! the per-call difference in ns and the ratio, measured in this same run.
//!
//! `cargo bench --bench dispatch`

use criterion::Criterion;
use ktc::{Axis, DecisionTable, KernelInfo, KernelTuningCache, Provenance, Region};
use std::hint::black_box;
use std::time::Instant;

macro_rules! tiny_kernel {
    ($name:ident) => {
        /// Two variants of a trivially small kernel over two numeric axes.
        #[ktc::tunable(axes(n = x, k = y), sweep(n = [1, 2], k = [1, 2]))]
        pub mod $name {
            /// A grid point's inputs.
            #[inputs]
            pub fn inputs(n: u64, k: u64) -> (u64, u64) {
                (n, k)
            }
            /// The reference.
            #[variant(reference)]
            #[inline(never)]
            pub fn mul(x: u64, y: u64) -> u64 {
                x.wrapping_mul(y)
            }
            /// The same product by another route.
            #[variant]
            #[inline(never)]
            pub fn mul_alt(x: u64, y: u64) -> u64 {
                y.wrapping_mul(x)
            }
        }
    };
}
tiny_kernel!(t1);
tiny_kernel!(t8);
tiny_kernel!(t32);
tiny_kernel!(t128);

/// `regions` regions over (n, k): a grid of `n_bounds × k_bounds` cells with
/// alternating winners so nothing merges; the last is the catch-all.
fn table(n_bounds: u64, k_bounds: u64) -> DecisionTable {
    let mut regions = Vec::new();
    for i in 0..n_bounds {
        for j in 0..k_bounds {
            let variant = if (i + j) % 2 == 0 { "mul" } else { "mul_alt" };
            let mut region = Region::new(variant);
            if i + 1 < n_bounds {
                region = region.at_most("n", ((i + 1) * 10) as f64);
            }
            if j + 1 < k_bounds {
                region = region.at_most("k", ((j + 1) * 10) as f64);
            }
            regions.push(region);
        }
    }
    DecisionTable { axes: vec![Axis::numeric("n"), Axis::numeric("k")], regions }
}

fn store_tables(dir: &std::path::Path) {
    let cache = KernelTuningCache::open(dir).expect("store").with_fingerprint(ktc::hw_fingerprint());
    let kernels: [(&'static KernelInfo, DecisionTable); 4] = [
        (t1::Variant::kernel(), table(1, 1)),
        (t8::Variant::kernel(), table(4, 2)),
        (t32::Variant::kernel(), table(8, 4)),
        (t128::Variant::kernel(), table(16, 8)),
    ];
    for (tuner, table) in kernels {
        let provenance = Provenance::current(&tuner.identity);
        cache.write_entry(&cache.new_entry(tuner.name, &provenance, table)).expect("write entry");
    }
}

type Kernel = fn(u64, u64) -> u64;

/// (label, dispatched call, direct call of the variant that region picks, n, k).
fn cases() -> Vec<(&'static str, Kernel, Kernel, u64, u64)> {
    vec![
        ("1 region", t1::call, t1::mul, 5, 5),
        ("8 regions, first", t8::call, t8::mul, 5, 5),
        ("8 regions, last", t8::call, t8::mul_alt, 1000, 1000),
        ("32 regions, first", t32::call, t32::mul, 5, 5),
        ("32 regions, last", t32::call, t32::mul_alt, 1000, 1000),
        ("128 regions, first", t128::call, t128::mul, 5, 5),
        ("128 regions, last", t128::call, t128::mul_alt, 1000, 1000),
    ]
}

/// Best of several interleaved rounds of `iters` calls, in ns per call.
fn ns_per_call(f: Kernel, n: u64, k: u64) -> f64 {
    const ITERS: u32 = 2_000_000;
    let start = Instant::now();
    let mut acc = 0u64;
    for _ in 0..ITERS {
        acc = acc.wrapping_add(f(black_box(n), black_box(k)));
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / f64::from(ITERS)
}

fn summary() {
    println!("\ndispatch overhead (best of 15 interleaved rounds):");
    println!("{:<20} {:>10} {:>10} {:>10} {:>7}", "table", "call ns", "direct ns", "diff ns", "ratio");
    for (label, call, direct, n, k) in cases() {
        let (mut best_call, mut best_direct) = (f64::MAX, f64::MAX);
        for _ in 0..15 {
            best_call = best_call.min(ns_per_call(call, n, k));
            best_direct = best_direct.min(ns_per_call(direct, n, k));
        }
        println!(
            "{label:<20} {best_call:>10.2} {best_direct:>10.2} {:>10.2} {:>7.2}",
            best_call - best_direct,
            best_call / best_direct
        );
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary store");
    // SAFETY: set before any thread starts and before the first dispatch reads it.
    unsafe { std::env::set_var("KTC_CACHE_DIR", dir.path()) };
    store_tables(dir.path());
    for (label, call, _, n, k) in cases() {
        assert_eq!(call(n, k), n.wrapping_mul(k));
        let choice = match label {
            l if l.starts_with("1 ") => t1::explain(n, k),
            l if l.starts_with("8 ") => t8::explain(n, k),
            l if l.starts_with("128 ") => t128::explain(n, k),
            _ => t32::explain(n, k),
        };
        assert!(matches!(choice.source, ktc::ChoiceSource::Region { .. }), "{label}: {choice}");
    }
    let mut c = Criterion::default().configure_from_args();
    for (label, call, direct, n, k) in cases() {
        let mut group = c.benchmark_group(label);
        group.bench_function("call", |b| b.iter(|| call(black_box(n), black_box(k))));
        group.bench_function("direct", |b| b.iter(|| direct(black_box(n), black_box(k))));
        group.finish();
    }
    c.final_summary();
    summary();
}
