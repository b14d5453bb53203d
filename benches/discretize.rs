//! `discretize`'s CPU variants called directly, each timed by criterion at a short, a
//! middling and a long column (27 bins), and middling ones at 6 and 64 bins (uniform
//! values, the sweep's inputs): what one call of each costs, in the same run, so their
//! ratios can be read off. `lookup` builds a bucket table per call; it once cost
//! 28–62 µs whatever the column, and this shows what it costs now at 1 000 values next
//! to the searches that build nothing.
//!
//! `cargo bench --bench discretize -- --warm-up-time 1 --measurement-time 2`

use criterion::Criterion;
use ktc_kernels::discretize::{self, Variant};
use std::hint::black_box;

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let candidates: [(&str, Variant, Option<usize>); 6] = [
        ("linear", Variant::Linear, None),
        ("binary", Variant::Binary, None),
        ("lookup", Variant::Lookup, None),
        ("par_split/4", Variant::ParSplit, Some(4)),
        ("par_linear/4", Variant::ParLinear, Some(4)),
        ("par_lookup/4", Variant::ParLookup, Some(4)),
    ];
    // Then few bins, where `lookup` and `par_linear` were near ties, 64 bins, where
    // uniform values fall in buckets with one and with two edges alike, and 77 bins at
    // 5 672 values, where `par_lookup` and `par_split` traded places from one tuning
    // to the next (`cargo bench --bench tuning_quality`).
    for (n, bins) in [(1_000, 27), (25_652, 27), (1_000_000, 27), (57_415, 6), (100_000, 64), (5_672, 77)] {
        let (values, edges, codes) = discretize::inputs(n, bins);
        let mut group = c.benchmark_group(format!("{n} values × {bins} bins"));
        for &(name, variant, block) in &candidates {
            let mut out = codes.clone();
            group.bench_function(name, |b| {
                b.iter(|| discretize::call_with(variant, block, black_box(&values), &edges, &mut out))
            });
        }
        group.finish();
    }
    c.final_summary();
}
