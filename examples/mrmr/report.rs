//! What the example prints: the selection, the stage times, the comparison.

use std::time::Duration;

use ktc_kernels::data::synthetic::Role;
use ktc_kernels::mrmr::{Criterion, Outcome, Report, StageTimes, Timing};

pub(crate) fn selection(report: &Report, roles: Option<&[Role]>, criterion: Criterion) {
    let names = &report.feature_names;
    println!(
        "\n{} features selected by MRMR ({criterion}) for `{}`, scores in nats:",
        report.names.len(),
        report.target
    );
    println!(
        "  {:>4}  {:<16} {:>10} {:>10} {:>10}  {}",
        "rank",
        "feature",
        "relevance",
        "redundancy",
        "score",
        if roles.is_some() { "planted role" } else { "" }
    );
    for (rank, pick) in report.selection.picks.iter().enumerate() {
        let role = match roles.map(|r| r[pick.feature]) {
            Some(Role::Informative { rank }) => format!("informative #{}", rank + 1),
            Some(Role::Copy { of, keep }) => format!("copy of {} (keeps {:.0}%)", names[of], keep * 100.0),
            Some(Role::Noise) => "noise".to_string(),
            None => String::new(),
        };
        println!(
            "  {:>4}  {:<16} {:>10.4} {:>10.4} {:>10.4}  {role}",
            rank + 1,
            names[pick.feature],
            pick.relevance,
            pick.redundancy,
            pick.score
        );
    }
}

pub(crate) fn times(t: &StageTimes, tuning: Duration, whole: Duration) {
    println!(
        "\ntime: read {:.2?}, bin {:.2?}, select {:.2?}; total {:.2?}",
        t.read,
        t.bin,
        t.select,
        t.total()
    );
    println!("      (tuning lookup {tuning:.2?}; whole run {whole:.2?})");
}

pub(crate) fn comparison(rows: &[Timing], repeats: usize) {
    println!("\nthe same selection per histogram strategy (median of {repeats}):");
    println!("  {:<34} {:>12} {:>22}", "strategy", "time", "tuned dispatch speedup");
    let dispatched = match rows.first().map(|r| &r.outcome) {
        Some(Outcome::Ran { median, .. }) => median.as_secs_f64(),
        _ => return,
    };
    for row in rows {
        match &row.outcome {
            Outcome::Ran { median, same_selection } => {
                let speedup = median.as_secs_f64() / dispatched;
                let check = if *same_selection { "" } else { "  (DIFFERENT SELECTION)" };
                println!("  {:<34} {:>12.2?} {:>21.2}×{check}", row.strategy.to_string(), median, speedup);
            }
            Outcome::Skipped(reason) => {
                println!("  {:<34} {:>12} {reason}", row.strategy.to_string(), "skipped")
            }
        }
    }
}
