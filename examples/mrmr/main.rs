//! MRMR feature selection with the tuned kernels, end to end: read (a synthetic set,
//! or a CSV / Parquet file), bin (quantile edges and the tuned `discretize` kernel),
//! select (the tuned joint-histogram kernel), with the time of each stage. Both
//! kernels are tuned on first use; `--compare` also times every fixed variant.
//!
//! `cargo run --release --example mrmr` (`-- --help` for the flags)

mod args;
mod load;
mod report;

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{CommandFactory, Parser};
use ktc::KernelTuningCache;
use ktc_kernels::data::EncodeOptions;
use ktc_kernels::mrmr::{self, Options, TuningStatus, ensure_tuned};
use ktc_kernels::{discretize, joint_hist_batched};

use self::args::{Args, Source};
use self::load::Data;

fn main() -> ExitCode {
    let args = Args::parse();
    if !matches!(args.source(), Source::Synthetic { .. }) && args.target.is_none() {
        Args::command()
            .error(clap::error::ErrorKind::MissingRequiredArgument, "a file needs --target COLUMN")
            .exit();
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<()> {
    let start = Instant::now();
    // Tune before the first dispatched calls: a dispatcher reads its table once.
    let cache = KernelTuningCache::load_or_create().context("opening the tuning cache")?;
    println!("fingerprint: {}", cache.fingerprint());
    tune(&cache, joint_hist_batched::Variant::kernel())?;
    tune(&cache, discretize::Variant::kernel())?;
    let tuning = start.elapsed();

    let loaded = load::load(args)?;
    let options = Options {
        k: args.select as usize,
        criterion: args.criterion,
        bins: usize::from(args.bins),
        discrete: args.discrete,
        ..Options::default()
    };
    let mut report = match loaded.data {
        Data::Table(table) => mrmr::select_table(table, &loaded.target, &options)?,
        Data::Encoded(data, bin) => {
            let mut report = mrmr::select_dataset(&data, &options)?;
            report.times.bin = bin;
            report
        }
    };
    report.times.read = loaded.read;
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    report::selection(&report, loaded.roles.as_deref(), args.criterion);
    report::times(&report.times, tuning, start.elapsed());

    if args.compare {
        let data = load::load(args)?;
        let encoding = EncodeOptions { bins: options.bins, discrete: options.discrete };
        let data = data.data.into_dataset(&data.target, encoding)?;
        println!(
            "relevance histograms:  {}",
            joint_hist_batched::explain(&data.target, &data.features, &mut [])
        );
        // The median of at least 3, and of more for a short job: a 1 ms selection varies
        // by ±30% from one run to the next on a 2-vCPU VM, more than variants differ.
        let repeats = if args.quick { 1 } else { compare_repeats(report.times.select) };
        let rows =
            mrmr::compare_strategies(&data.target, &data.features, options.k, options.criterion, repeats)?;
        report::comparison(&rows, repeats);
    }
    Ok(())
}

/// Repetitions of each strategy for `--compare`: about half a second of each, from 3
/// to 51 (the job took `select` once).
fn compare_repeats(select: std::time::Duration) -> usize {
    let fit = (0.5 / select.as_secs_f64().max(1e-6)) as usize;
    fit.clamp(3, 51)
}

fn tune(cache: &KernelTuningCache, tuner: &ktc::KernelInfo) -> Result<()> {
    match ensure_tuned(cache, tuner, true)? {
        TuningStatus::Found { path } => println!("tuning of `{}` found: {}", tuner.name, path.display()),
        TuningStatus::Tuned { reason, path, table } => {
            println!("{reason}: tuned `{}`\nentry written: {}\n{table}", tuner.name, path.display());
        }
    }
    Ok(())
}
