//! MRMR on a user's own data, in one call: float column slices, a [`Table`], a
//! [`Dataset`] of codes, or an Arrow `RecordBatch` (feature `parquet`). Each returns
//! a [`Report`]: the selected names with their scores, the time of each stage, and
//! warnings for requests that cannot mean what they ask (more features than there
//! are, a constant target, a single row).

use std::time::{Duration, Instant};

use super::{Criterion, HistStrategy, Selection, select};
use crate::data::{Column, DataError, Dataset, EncodeOptions, Table, encode};
use crate::{Codes, Floats};

/// What to select, and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Features to select (all of them where there are fewer; a warning says so).
    pub k: usize,
    /// MID or MIQ.
    pub criterion: Criterion,
    /// Quantile bins for numeric columns that are not codes already.
    pub bins: usize,
    /// Every numeric column must be integer codes already.
    pub discrete: bool,
    /// How the histograms are computed (the tuned dispatcher by default).
    pub strategy: HistStrategy,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 10,
            criterion: Criterion::Mid,
            bins: 8,
            discrete: false,
            strategy: HistStrategy::Dispatched,
        }
    }
}

/// Wall time of each stage; `read` is zero where the caller did the reading.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes {
    /// Reading the file into columns.
    pub read: Duration,
    /// Making the columns discrete (quantile edges and the `discretize` kernel).
    pub bin: Duration,
    /// The MRMR selection (the joint-histogram kernel and the scores).
    pub select: Duration,
}

impl StageTimes {
    /// All stages together.
    pub fn total(&self) -> Duration {
        self.read + self.bin + self.select
    }
}

/// What a selection found, by name.
#[derive(Clone, Debug)]
pub struct Report {
    /// The target's name.
    pub target: String,
    /// Every feature's name, by column.
    pub feature_names: Vec<String>,
    /// The selected features' names, in order of selection.
    pub names: Vec<String>,
    /// The picks (column, relevance, redundancy, score, margin) in the same order.
    pub selection: Selection,
    /// Time per stage.
    pub times: StageTimes,
    /// Requests that were adjusted or may not mean what they ask.
    pub warnings: Vec<String>,
}

impl Report {
    /// The selected features' scores (nats), in order of selection.
    pub fn scores(&self) -> Vec<f64> {
        self.selection.picks.iter().map(|p| p.score).collect()
    }
}

/// Selects among features that are codes already ([`Dataset`]: from [`encode`], a
/// reader, or built by hand).
pub fn select_dataset(data: &Dataset, options: &Options) -> Result<Report, DataError> {
    let start = Instant::now();
    let selection = select(&data.target, &data.features, options.k, options.criterion, options.strategy)?;
    let times = StageTimes { select: start.elapsed(), ..StageTimes::default() };
    Ok(Report {
        target: data.target_name.clone(),
        feature_names: data.feature_names.clone(),
        names: selection.picks.iter().map(|p| data.feature_names[p.feature].clone()).collect(),
        warnings: warnings(data, options.k),
        selection,
        times,
    })
}

/// Bins a [`Table`] (as a reader returns it) and selects with `target` as the target;
/// `times.read` is left for the caller to fill.
pub fn select_table(table: Table, target: &str, options: &Options) -> Result<Report, DataError> {
    let start = Instant::now();
    let data = encode(table, target, EncodeOptions { bins: options.bins, discrete: options.discrete })?;
    let bin = start.elapsed();
    let mut report = select_dataset(&data, options)?;
    report.times.bin = bin;
    Ok(report)
}

/// Selects among float columns given as slices (`names[j]` naming `columns[j]`), for
/// a target of class codes (`0..classes`, one per row).
///
/// ```
/// use ktc_kernels::mrmr::{Options, select_floats};
///
/// let class = [0u8, 0, 1, 1, 0, 0, 1, 1];
/// let signal = [0.1f64, 0.2, 0.9, 0.8, 0.15, 0.3, 0.7, 0.95];
/// let noise = [0.5f64, 0.1, 0.4, 0.2, 0.9, 0.3, 0.6, 0.8];
/// let report = select_floats(&["noise", "signal"], &[&noise, &signal], &class, &Options { k: 1, bins: 2, ..Options::default() })?;
/// assert_eq!(report.names, ["signal"]);
/// # Ok::<(), ktc_kernels::data::DataError>(())
/// ```
pub fn select_floats<T>(
    names: &[&str],
    columns: &[&[T]],
    target: &[u8],
    options: &Options,
) -> Result<Report, DataError>
where
    T: Copy,
    Floats: From<Vec<T>>,
{
    if names.len() != columns.len() {
        return Err(DataError::Invalid(format!("{} names for {} columns", names.len(), columns.len())));
    }
    let target_name = unused_name(names);
    let mut table = Table {
        names: names.iter().map(|s| s.to_string()).collect(),
        columns: columns.iter().map(|c| Column::Numbers(Floats::from(c.to_vec()))).collect(),
    };
    table.names.push(target_name.clone());
    let classes: Vec<f64> = target.iter().map(|&c| f64::from(c)).collect();
    table.columns.push(Column::Numbers(Floats::F64(std::sync::Arc::new(classes))));
    select_table(table, &target_name, options)
}

/// Selects among the columns of an Arrow record batch, `target` naming the target
/// (numbers and strings; see [`crate::data::parquet::table_from_batches`]).
#[cfg(feature = "parquet")]
pub fn select_record_batch(
    batch: &arrow_array::RecordBatch,
    target: &str,
    options: &Options,
) -> Result<Report, DataError> {
    let table = crate::data::parquet::table_from_batches(std::slice::from_ref(batch))?;
    select_table(table, target, options)
}

/// A target name no feature has.
fn unused_name(names: &[&str]) -> String {
    let mut name = "target".to_string();
    while names.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// What the caller should know before trusting the selection.
fn warnings(data: &Dataset, k: usize) -> Vec<String> {
    let (n, p) = (data.n_samples(), data.n_features());
    let mut out = Vec::new();
    if k > p {
        out.push(format!("asked for {k} features, but there are {p}: selecting all {p}"));
    }
    if n == 1 {
        out.push("a single row: every mutual information is 0, so the selection is arbitrary".into());
    } else if is_constant(&data.target) {
        out.push(format!(
            "the target `{}` has a single value: every relevance is 0, so the selection is arbitrary",
            data.target_name
        ));
    }
    out
}

fn is_constant(codes: &Codes) -> bool {
    match codes.host() {
        Some(crate::column::HostCodes::U8(d)) => d.windows(2).all(|w| w[0] == w[1]),
        Some(crate::column::HostCodes::U16(d)) => d.windows(2).all(|w| w[0] == w[1]),
        None => false,
    }
}
