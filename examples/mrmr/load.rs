//! The read stage: the synthetic set or a file into a table (Parquet: straight into
//! codes, binned as decoded), timed, with a progress bar for large files.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use ktc_kernels::data::synthetic::{self, Role};
use ktc_kernels::data::{Dataset, EncodeOptions, Table, csv};

use crate::args::{Args, Source};

/// Files larger than this get a progress bar while they are read.
const PROGRESS_BYTES: u64 = 100 << 20;

/// The data, its target's name, and how long reading took.
pub(crate) struct Loaded {
    pub(crate) data: Data,
    pub(crate) target: String,
    /// Each feature's planted role, for the synthetic set.
    pub(crate) roles: Option<Vec<Role>>,
    pub(crate) read: Duration,
}

/// The data as loaded.
pub(crate) enum Data {
    /// Columns as read, to bin.
    Table(Table),
    /// Parquet, binned column by column as decoded; the binning's share of the time.
    Encoded(Dataset, Duration),
}

impl Data {
    /// The data set (the table encoded with `options`).
    pub(crate) fn into_dataset(self, target: &str, options: EncodeOptions) -> Result<Dataset> {
        Ok(match self {
            Data::Table(table) => ktc_kernels::data::encode(table, target, options)?,
            Data::Encoded(data, _) => data,
        })
    }
}

pub(crate) fn load(args: &Args) -> Result<Loaded> {
    let start = Instant::now();
    let target = args.target.clone().unwrap_or_else(|| "class".into());
    let (data, roles) = match args.source() {
        Source::Synthetic { n, p, seed } => {
            let set = synthetic::continuous(n, p, seed)?;
            println!("data: synthetic, {n} samples × {p} continuous features (seed {seed}), target `class`");
            (Data::Table(set.table), Some(set.roles))
        }
        Source::Csv(path) => {
            let bar = bar(&path);
            let table = csv::read(&path, args.discrete, &|done, total| progress(&bar, done, total))
                .with_context(|| format!("reading {}", path.display()))?;
            bar.finish_and_clear();
            (Data::Table(table), None)
        }
        Source::Parquet(path) => {
            let options = EncodeOptions { bins: usize::from(args.bins), discrete: args.discrete };
            let (data, read) = parquet(&path, &target, options)?;
            let (rows, columns) = (data.n_samples(), data.n_features() + 1);
            println!("data: {rows} rows × {columns} columns, target `{target}` (binned as decoded)");
            return Ok(Loaded { data: Data::Encoded(data, read.1), target, roles: None, read: read.0 });
        }
    };
    let read = start.elapsed();
    if let (None, Data::Table(table)) = (&roles, &data) {
        println!("data: {} rows × {} columns, target `{target}`", table.n_rows(), table.names.len());
    }
    Ok(Loaded { data, target, roles, read })
}

/// The Parquet file made discrete column by column as it is decoded (its floats never
/// all in memory at once); the (read, bin) shares of the time.
#[cfg(feature = "parquet")]
fn parquet(path: &Path, target: &str, options: EncodeOptions) -> Result<(Dataset, (Duration, Duration))> {
    let bar = bar(path);
    let loaded = ktc_kernels::data::parquet::load_streamed(path, target, options, &|done, total| {
        progress(&bar, done, total)
    })
    .with_context(|| format!("reading {}", path.display()))?;
    bar.finish_and_clear();
    Ok((loaded.data, (loaded.read, loaded.bin)))
}

#[cfg(not(feature = "parquet"))]
fn parquet(path: &Path, _: &str, _: EncodeOptions) -> Result<(Dataset, (Duration, Duration))> {
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
