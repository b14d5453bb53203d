//! The read stage: the synthetic set or a file into a table, timed, with a progress
//! bar for large files.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use ktc_kernels::data::synthetic::{self, Role};
use ktc_kernels::data::{Table, csv};

use crate::args::{Args, Source};

/// Files larger than this get a progress bar while they are read.
const PROGRESS_BYTES: u64 = 100 << 20;

/// A table ready to bin, its target's name, and how long reading took.
pub(crate) struct Loaded {
    pub(crate) table: Table,
    pub(crate) target: String,
    /// Each feature's planted role, for the synthetic set.
    pub(crate) roles: Option<Vec<Role>>,
    pub(crate) read: Duration,
}

pub(crate) fn load(args: &Args) -> Result<Loaded> {
    let start = Instant::now();
    let target = args.target.clone().unwrap_or_else(|| "class".into());
    let (table, roles) = match args.source() {
        Source::Synthetic { n, p, seed } => {
            let set = synthetic::continuous(n, p, seed)?;
            println!("data: synthetic, {n} samples × {p} continuous features (seed {seed}), target `class`");
            (set.table, Some(set.roles))
        }
        Source::Csv(path) => {
            let bar = bar(&path);
            let table = csv::read(&path, args.discrete, &|done, total| progress(&bar, done, total))
                .with_context(|| format!("reading {}", path.display()))?;
            bar.finish_and_clear();
            (table, None)
        }
        Source::Parquet(path) => (parquet(&path)?, None),
    };
    let read = start.elapsed();
    if roles.is_none() {
        println!("data: {} rows × {} columns, target `{target}`", table.n_rows(), table.names.len());
    }
    Ok(Loaded { table, target, roles, read })
}

#[cfg(feature = "parquet")]
fn parquet(path: &Path) -> Result<Table> {
    let bar = bar(path);
    let table = ktc_kernels::data::parquet::read(path, &|done, total| progress(&bar, done, total))
        .with_context(|| format!("reading {}", path.display()))?;
    bar.finish_and_clear();
    Ok(table)
}

#[cfg(not(feature = "parquet"))]
fn parquet(path: &Path) -> Result<Table> {
    anyhow::bail!(
        "{}: this build reads no Parquet (the root package's `parquet` feature is off)",
        path.display()
    )
}

/// A byte progress bar for a file over [`PROGRESS_BYTES`]; hidden otherwise (and where
/// stderr is not a terminal).
fn bar(path: &Path) -> ProgressBar {
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    if size < PROGRESS_BYTES {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(size);
    let style = ProgressStyle::with_template("reading {bar:40} {bytes}/{total_bytes} ({eta})");
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}

fn progress(bar: &ProgressBar, done: u64, total: u64) {
    bar.set_length(total.max(done));
    bar.set_position(done);
}
