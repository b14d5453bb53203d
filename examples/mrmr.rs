//! MRMR feature selection with the tuned joint-histogram kernel: tunes the kernel on
//! first use, selects features on a synthetic set with planted informative and redundant
//! features (or a CSV), and compares tuned dispatch with every fixed variant.
//!
//! `cargo run --release --example mrmr` (`-- --help` for the flags)

use std::error::Error;
use std::process::ExitCode;
use std::time::Instant;

use ktc::KernelTuningCache;
use ktc_kernels::data::csv::{self, CsvOptions};
use ktc_kernels::data::synthetic::{self, Role};
use ktc_kernels::data::{DataError, Dataset};
use ktc_kernels::mrmr::{
    Args, Command, HistStrategy, Outcome, Selection, Source, TuningStatus, USAGE, compare_strategies,
    ensure_tuned, parse_args, select,
};
use ktc_kernels::{discretize, joint_hist_batched};

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Command::Run(args)) => args,
        Ok(Command::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), Box<dyn Error>> {
    // Tune before the first dispatched calls: a dispatcher reads its table once.
    let cache = KernelTuningCache::load_or_create()?;
    println!("fingerprint: {}", cache.fingerprint());
    tune(&cache, joint_hist_batched::Variant::kernel())?;
    if matches!(args.source, Source::Csv { .. }) {
        tune(&cache, discretize::Variant::kernel())?;
    }

    let (data, roles) = load(args)?;
    println!(
        "data: {} samples × {} features (codes < {}), target `{}` ({} classes)",
        data.n_samples(),
        data.n_features(),
        data.features.bins(),
        data.target_name,
        data.target.bins()
    );
    println!("relevance histograms:  {}", joint_hist_batched::explain(&data.target, &data.features, &mut []));
    if let Some(y) = data.features.host_column(0) {
        println!("redundancy histograms: {}", joint_hist_batched::explain(&y, &data.features, &mut []));
    }

    let start = Instant::now();
    let selection =
        select(&data.target, &data.features, args.select, args.criterion, HistStrategy::Dispatched)?;
    let took = start.elapsed();
    print_selection(&data, roles.as_deref(), &selection, args);
    println!("wall time: {took:.2?}\n");

    let repeats = if args.quick { 1 } else { 3 };
    let rows = compare_strategies(&data.target, &data.features, args.select, args.criterion, repeats)?;
    print_comparison(&rows, repeats);
    Ok(())
}

fn tune(cache: &KernelTuningCache, tuner: &ktc::Tuner) -> Result<(), ktc::Error> {
    match ensure_tuned(cache, tuner, true)? {
        TuningStatus::Found { path } => println!("tuning of `{}` found: {}", tuner.name, path.display()),
        TuningStatus::Tuned { reason, path, table } => {
            println!("{reason}: tuned `{}`\nentry written: {}\n{table}", tuner.name, path.display());
        }
    }
    Ok(())
}

/// The data set, and each feature's planted role when it is the synthetic one.
fn load(args: &Args) -> Result<(Dataset, Option<Vec<Role>>), DataError> {
    match &args.source {
        Source::Synthetic { n, p, seed } => {
            let set = synthetic::generate(*n, *p, *seed)?;
            Ok((set.data, Some(set.roles)))
        }
        Source::Csv { path, target } => {
            let options = CsvOptions { target: target.clone(), bins: args.bins, discrete: args.discrete };
            Ok((csv::load(path, &options)?, None))
        }
    }
}

fn print_selection(data: &Dataset, roles: Option<&[Role]>, selection: &Selection, args: &Args) {
    println!("\n{} features selected by MRMR ({}), scores in nats:", selection.picks.len(), args.criterion);
    println!(
        "  {:>4}  {:<16} {:>10} {:>10} {:>10}  planted role",
        "rank", "feature", "relevance", "redundancy", "score"
    );
    for (rank, pick) in selection.picks.iter().enumerate() {
        let role = match roles.map(|r| r[pick.feature]) {
            Some(Role::Informative { rank }) => format!("informative #{}", rank + 1),
            Some(Role::Copy { of, keep }) => {
                format!("copy of {} (keeps {:.0}%)", data.feature_names[of], keep * 100.0)
            }
            Some(Role::Noise) => "noise".to_string(),
            None => String::new(),
        };
        println!(
            "  {:>4}  {:<16} {:>10.4} {:>10.4} {:>10.4}  {role}",
            rank + 1,
            data.feature_names[pick.feature],
            pick.relevance,
            pick.redundancy,
            pick.score
        );
    }
}

fn print_comparison(rows: &[ktc_kernels::mrmr::Timing], repeats: usize) {
    println!("the same selection per histogram strategy (best of {repeats}):");
    println!("  {:<34} {:>12} {:>22}", "strategy", "time", "tuned dispatch speedup");
    let dispatched = match rows.first().map(|r| &r.outcome) {
        Some(Outcome::Ran { best, .. }) => best.as_secs_f64(),
        _ => return,
    };
    for row in rows {
        match &row.outcome {
            Outcome::Ran { best, same_selection } => {
                let speedup = best.as_secs_f64() / dispatched;
                let check = if *same_selection { "" } else { "  (DIFFERENT SELECTION)" };
                println!("  {:<34} {:>12.2?} {:>21.2}×{check}", row.strategy.to_string(), best, speedup);
            }
            Outcome::Skipped(reason) => {
                println!("  {:<34} {:>12} {reason}", row.strategy.to_string(), "skipped")
            }
        }
    }
}
