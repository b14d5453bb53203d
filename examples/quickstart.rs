//! The quick start: this host's fingerprint, a kernel tuned on first use, dispatch at
//! sizes on both sides of its crossover, and the store's own `write_table` + `lookup` API.
//!
//! `cargo run --release --example quickstart`

use ktc::sweep::SweepOptions;
use ktc::{AxisValue, KernelTuningCache, LookupStatus, Provenance, Region};
use ktc_workspace::demo::sum;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache = KernelTuningCache::load_or_create()?;
    println!("fingerprint: {}", cache.fingerprint());
    println!("store:       {}", cache.root().display());

    tune_if_missing(&cache)?;
    println!("\ndispatch of `sum` (the serial result is the reference):");
    for n in [1_000, 100_000, 10_000_000] {
        let (data,) = sum::inputs(n);
        let start = Instant::now();
        let total = sum::call(&data);
        let took = start.elapsed();
        assert_eq!(total, sum::serial(&data), "dispatched result differs from the reference");
        println!("  n = {n:>10}: {took:>10.2?}  {}", sum::explain(&data));
    }

    println!("\nthe store's API, as the seed design has it:");
    let regions = vec![
        Region::new("shared").block_size(256).at_most("n_samples", 200_000.0).at_most("joint_size", 25.0),
        Region::new("global").block_size(512),
    ];
    let path = cache.write_table("joint_hist_batched", &["n_samples", "joint_size"], regions)?;
    println!("  write_table → {}", path.display());
    let found = cache.lookup(
        "joint_hist_batched",
        &[("n_samples", AxisValue::from(1_000_000)), ("joint_size", AxisValue::from(100))],
    );
    match found.decision() {
        Some(region) => println!("  lookup(n_samples = 1000000, joint_size = 100) → {region}"),
        None => println!("  lookup found nothing: {:?}", found.status),
    }
    Ok(())
}

/// Sweeps `sum` when this host has no current tuning for it, with a progress bar.
fn tune_if_missing(cache: &KernelTuningCache) -> Result<(), ktc::Error> {
    let tuner = sum::Variant::kernel();
    let provenance = Provenance::current(&tuner.identity);
    match cache.load(tuner.name, &provenance, Some(&tuner.schema())).status {
        LookupStatus::Found { path, .. } => {
            println!("\ntuning of `sum` found: {}", path.display());
            return Ok(());
        }
        LookupStatus::Stale { changes, .. } => {
            let changes: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
            println!("\nthe tuning of `sum` is stale ({}); tuning again", changes.join("; "));
        }
        LookupStatus::Missing => println!("\nno tuning of `sum` for this host yet; tuning now"),
    }
    let options = SweepOptions {
        cache_dir: Some(cache.root().to_path_buf()),
        fingerprint: Some(cache.fingerprint().to_string()),
        ..SweepOptions::from_env()
    };
    let report = (tuner.sweep)(&options)?;
    println!("entry written: {}", report.entry_path.display());
    println!("{}", report.entry.table());
    Ok(())
}
