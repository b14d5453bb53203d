//! CSV loading: a header line, then one sample per line, comma-separated; fields may be
//! double-quoted (`""` inside quotes is a quote; no line breaks inside fields).
//!
//! Each column becomes discrete one of three ways (see [`ColumnKind`]):
//! - integer values with at most 256 distinct values are used as codes as they are
//!   (pixel intensities, categories coded as numbers) — detected, or forced for every
//!   numeric column with [`CsvOptions::discrete`];
//! - text labels (a column whose first value is not a number) get one code per label;
//! - other numbers are binned at quantiles into [`CsvOptions::bins`] bins.
//!
//! Every error says where: line (the header is line 1) and column.

use std::path::Path;

use super::encode::{Column, encode};
use super::{ColumnKind, DataError, Dataset};
use crate::Codes;

/// How to read a CSV.
#[derive(Clone, Debug)]
pub struct CsvOptions {
    /// The target column's header name.
    pub target: String,
    /// Bins for columns that are binned (`1..=256`).
    pub bins: usize,
    /// Treat every numeric column as discrete codes (an error where one is not).
    pub discrete: bool,
}

/// Reads and encodes the CSV at `path`.
pub fn load(path: &Path, options: &CsvOptions) -> Result<Dataset, DataError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| DataError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    parse(&text, options)
}

/// Parses and encodes CSV text.
///
/// ```
/// use ktc_kernels::data::csv::{CsvOptions, parse};
///
/// let text = "pixel,weight,label\n0,1.5,cat\n255,2.25,dog\n0,0.5,cat\n";
/// let options = CsvOptions { target: "label".into(), bins: 2, discrete: false };
/// let data = parse(text, &options)?;
/// assert_eq!(data.feature_names, ["pixel", "weight"]);
/// assert_eq!((data.n_samples(), data.target.bins()), (3, 2));
/// # Ok::<(), ktc_kernels::data::DataError>(())
/// ```
pub fn parse(text: &str, options: &CsvOptions) -> Result<Dataset, DataError> {
    if options.bins == 0 || options.bins > 256 {
        return Err(DataError::Invalid(format!("--bins must be in 1..=256, got {}", options.bins)));
    }
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim().is_empty());
    let (_, header) =
        lines.next().ok_or_else(|| DataError::Empty("the CSV is empty: no header line".into()))?;
    let names = split(header, 1)?;
    if names.len() < 2 {
        return Err(DataError::Empty(format!(
            "the CSV has {} column(s); MRMR needs a target and a feature",
            names.len()
        )));
    }
    let target = (names.iter().position(|n| *n == options.target)).ok_or_else(|| {
        DataError::UnknownTarget { target: options.target.clone(), available: names.clone() }
    })?;
    let mut columns: Vec<Column> =
        names.iter().enumerate().map(|(i, n)| Column::new(n.clone(), i + 1)).collect();
    for (line, text) in lines {
        let fields = split(text, line)?;
        if fields.len() != names.len() {
            let message = format!("expected {} fields like the header, found {}", names.len(), fields.len());
            return Err(DataError::Csv { line, column: 0, name: None, message });
        }
        for (col, field) in columns.iter_mut().zip(fields) {
            col.push(field, line, options.discrete)?;
        }
    }
    let n = columns[0].len();
    if n == 0 {
        return Err(DataError::Empty("the CSV has a header but no data rows".into()));
    }
    let target_col = columns.remove(target);
    let (target_codes, target_kind) = encode(target_col, options)?;
    let mut feature_names = Vec::with_capacity(columns.len());
    let mut encoded = Vec::with_capacity(columns.len());
    for col in columns {
        feature_names.push(col.name.clone());
        encoded.push(encode(col, options)?);
    }
    dataset(names[target].clone(), target_codes, target_kind, feature_names, encoded)
}

/// Packs encoded columns into [`Codes`]: the features share one `bins`, the largest.
fn dataset(
    target_name: String,
    target: Vec<u8>,
    target_kind: ColumnKind,
    feature_names: Vec<String>,
    features: Vec<(Vec<u8>, ColumnKind)>,
) -> Result<Dataset, DataError> {
    let n = target.len();
    let kx = features.iter().map(|(_, k)| levels(k)).max().unwrap_or(1).max(1);
    let p = features.len();
    let mut codes = Vec::with_capacity(n * p);
    let mut feature_kinds = Vec::with_capacity(p);
    for (c, kind) in features {
        codes.extend_from_slice(&c);
        feature_kinds.push(kind);
    }
    Ok(Dataset {
        target_name,
        target: Codes::column_u8(target, levels(&target_kind).max(1))?,
        feature_names,
        features: Codes::from_u8(codes, n, p, kx)?,
        feature_kinds,
    })
}

/// The number of codes a column of this kind uses.
fn levels(kind: &ColumnKind) -> usize {
    match *kind {
        ColumnKind::Discrete { levels }
        | ColumnKind::Labels { levels }
        | ColumnKind::Generated { levels } => levels,
        ColumnKind::Binned { bins } => bins,
    }
}

/// Splits one line into fields; quotes as in the module docs.
fn split(line: &str, line_no: usize) -> Result<Vec<String>, DataError> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut in_quotes = false;
    while let Some(c) = chars.next() {
        match (c, in_quotes) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', true) => in_quotes = false,
            ('"', false) if field.trim().is_empty() => {
                field.clear();
                in_quotes = true;
            }
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    if in_quotes {
        let column = fields.len() + 1;
        return Err(DataError::Csv {
            line: line_no,
            column,
            name: None,
            message: "unterminated quoted field".into(),
        });
    }
    fields.push(field);
    Ok(fields.into_iter().map(|f| f.trim().to_string()).collect())
}
