//! A [`Table`] to a [`Dataset`]: every column made discrete, in parallel across
//! columns. Integer columns with at most 256 distinct values are codes as they are,
//! text labels get one code per label, other numbers are binned at quantiles
//! ([`quantile_codes`]: edges by selection, the tuned `discretize` kernel).

use rayon::prelude::*;

use super::table::{Column, Table};
use super::{ColumnKind, DataError, Dataset};
use crate::binning::bin_column;
use crate::{Codes, Floats, quantile_codes};

/// The most levels a one-byte code holds.
const MAX_LEVELS: usize = 256;

/// How columns become discrete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Bins for columns that are binned (`1..=256`).
    pub bins: usize,
    /// Every numeric column must already be integer codes (at most 256 values).
    pub discrete: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions { bins: 8, discrete: false }
    }
}

/// Makes `table` discrete with the column `target` as the target.
///
/// ```
/// use ktc_kernels::Floats;
/// use ktc_kernels::data::{Column, EncodeOptions, Table, encode};
///
/// let table = Table {
///     names: vec!["x".into(), "y".into()],
///     columns: vec![
///         Column::Numbers(Floats::from(vec![0.5f64, 0.1, 0.9, 0.3])),
///         Column::Numbers(Floats::from(vec![1.0f64, 0.0, 1.0, 0.0])),
///     ],
/// };
/// let data = encode(table, "y", EncodeOptions { bins: 2, discrete: false })?;
/// assert_eq!((data.n_samples(), data.feature_names.as_slice()), (4, &["x".to_string()][..]));
/// # Ok::<(), ktc_kernels::data::DataError>(())
/// ```
pub fn encode(table: Table, target: &str, options: EncodeOptions) -> Result<Dataset, DataError> {
    let Table { mut names, mut columns } = table;
    let n = columns.first().map_or(0, Column::len);
    let t = check_shape(&names, target, n, options)?;
    if let Some(j) = columns.iter().position(|c| c.len() != n) {
        let message = format!("{} rows where the first column has {n}", columns[j].len());
        return Err(DataError::Invalid(format!("column `{}`: {message}", names[j])));
    }
    let target_name = names.remove(t);
    let target_col = columns.remove(t);
    let (target_codes, target_kind) = match as_codes(&target_name, &target_col, options.discrete)? {
        Some(coded) => coded,
        None => {
            (binned(&[column_values(target_col)], options.bins)?, ColumnKind::Binned { bins: options.bins })
        }
    };
    let (codes, kinds) = features(&names, columns, options)?;
    assemble((target_name, target_codes, target_kind), names, codes, kinds, n)
}

/// What [`encode`] checks before any column: `bins` in range, a target and a feature,
/// `target` among `names`, rows. The target's index.
pub(super) fn check_shape(
    names: &[String],
    target: &str,
    n: usize,
    options: EncodeOptions,
) -> Result<usize, DataError> {
    if options.bins == 0 || options.bins > MAX_LEVELS {
        return Err(DataError::Invalid(format!("--bins must be in 1..=256, got {}", options.bins)));
    }
    if names.len() < 2 {
        return Err(DataError::Empty(format!(
            "the table has {} column(s); MRMR needs a target and a feature",
            names.len()
        )));
    }
    let t = names
        .iter()
        .position(|n| n == target)
        .ok_or_else(|| DataError::UnknownTarget { target: target.to_string(), available: names.to_vec() })?;
    if n == 0 {
        return Err(DataError::Empty("the table has a header but no data rows".into()));
    }
    Ok(t)
}

/// The data set from the target's codes and kind and the features' codes
/// (column-major, `n` rows each) and kinds.
pub(super) fn assemble(
    (target_name, target_codes, target_kind): (String, Vec<u8>, ColumnKind),
    names: Vec<String>,
    codes: Vec<u8>,
    kinds: Vec<ColumnKind>,
    n: usize,
) -> Result<Dataset, DataError> {
    let kx = kinds.iter().map(ColumnKind::levels).max().unwrap_or(1).max(1);
    Ok(Dataset {
        target: Codes::column_u8(target_codes, target_kind.levels().max(1))?,
        target_name,
        features: Codes::from_u8(codes, n, names.len(), kx)?,
        feature_names: names,
        feature_kinds: kinds,
    })
}

/// The features' codes, column-major, written straight into the one buffer they end
/// in: each column (in parallel) copies its codes in if it has them (labels, small
/// integers) or is binned into its place ([`bin_column`]: quantile edges by selection,
/// the tuned `discretize`). An error is the first column's, in column order.
fn features(
    names: &[String],
    columns: Vec<Column>,
    options: EncodeOptions,
) -> Result<(Vec<u8>, Vec<ColumnKind>), DataError> {
    let n = columns.first().map_or(0, Column::len);
    let mut codes = vec![0u8; n * columns.len()];
    if n == 0 {
        return Ok((codes, columns.iter().map(|_| ColumnKind::Binned { bins: options.bins }).collect()));
    }
    let kinds: Vec<Result<ColumnKind, DataError>> = (codes.par_chunks_mut(n).zip(&columns).zip(names))
        .map(|((out, col), name)| encode_column(name, col, options, out))
        .collect();
    Ok((codes, kinds.into_iter().collect::<Result<_, _>>()?))
}

/// One feature column's codes into `out` (its length): its own codes (labels, small
/// integers) copied, or its quantile bins ([`bin_column`]); its kind.
pub(super) fn encode_column(
    name: &str,
    col: &Column,
    options: EncodeOptions,
    out: &mut [u8],
) -> Result<ColumnKind, DataError> {
    match (as_codes(name, col, options.discrete)?, col) {
        (Some((c, kind)), _) => {
            out.copy_from_slice(&c);
            Ok(kind)
        }
        // `as_codes` codes every labels column.
        (None, Column::Labels { .. }) => {
            Err(DataError::Invalid(format!("column `{name}`: labels without codes")))
        }
        (None, Column::Numbers(values)) => {
            bin_column(values, options.bins, out).map_err(|e| match e {
                crate::Error::NotANumber { row, .. } => {
                    DataError::Invalid(format!("column `{name}`: NaN at row {}", row + 1))
                }
                other => other.into(),
            })?;
            Ok(ColumnKind::Binned { bins: options.bins })
        }
    }
}

/// A column's codes and kind, or `None` where it is to be binned.
type Coded = Option<(Vec<u8>, ColumnKind)>;

/// A column that is codes already (labels, or integers with at most 256 values) as
/// codes; `None` for numbers to bin.
fn as_codes(name: &str, col: &Column, discrete: bool) -> Result<Coded, DataError> {
    match col {
        Column::Labels { codes, labels } => label_codes(name, codes, labels).map(Some),
        Column::Numbers(values) => match small_integer_levels(values) {
            Some(distinct) => {
                let codes = with_wide(values, |v| distinct.partition_point(|d| *d < v) as u8);
                Ok(Some((codes, ColumnKind::Discrete { levels: distinct.len() })))
            }
            None if discrete => Err(DataError::TooManyLevels {
                column: name.to_string(),
                levels: count_distinct(values),
                labels: false,
            }),
            None => Ok(None),
        },
    }
}

/// The numbers of a column [`as_codes`] left to bin (labels never are).
fn column_values(col: Column) -> Floats {
    match col {
        Column::Numbers(v) => v,
        Column::Labels { .. } => Floats::from(Vec::<f64>::new()),
    }
}

fn binned(columns: &[Floats], bins: usize) -> Result<Vec<u8>, DataError> {
    Ok(quantile_codes(columns, bins)?)
}

/// Codes in the labels' sorted order.
fn label_codes(name: &str, codes: &[u32], labels: &[String]) -> Result<(Vec<u8>, ColumnKind), DataError> {
    if labels.len() > MAX_LEVELS {
        return Err(DataError::TooManyLevels {
            column: name.to_string(),
            levels: labels.len(),
            labels: true,
        });
    }
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_unstable_by(|&a, &b| labels[a].cmp(&labels[b]));
    let mut rank = vec![0u8; labels.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r as u8;
    }
    let codes = codes.iter().map(|&c| rank[c as usize]).collect();
    Ok((codes, ColumnKind::Labels { levels: labels.len() }))
}

/// `f` over the values widened to `f64`.
fn with_wide(values: &Floats, f: impl Fn(f64) -> u8) -> Vec<u8> {
    match values {
        Floats::F32(v) => v.iter().map(|&x| f(f64::from(x))).collect(),
        Floats::F64(v) => v.iter().map(|&x| f(x)).collect(),
    }
}

/// The sorted distinct values when every value is an integer and there are at most 256
/// of them: such a column already holds codes. A column of reals fails at its first
/// value with a fraction, so the check costs little where it does not apply.
fn small_integer_levels(values: &Floats) -> Option<Vec<f64>> {
    let mut distinct: Vec<f64> = Vec::new();
    let mut add = |v: f64| {
        if !is_integer(v) {
            return false;
        }
        if let Err(at) = distinct.binary_search_by(|d| d.total_cmp(&v)) {
            if distinct.len() == MAX_LEVELS {
                return false;
            }
            distinct.insert(at, v);
        }
        true
    };
    let all = match values {
        Floats::F32(v) => v.iter().all(|&x| add(f64::from(x))),
        Floats::F64(v) => v.iter().all(|&x| add(x)),
    };
    all.then_some(distinct)
}

fn count_distinct(values: &Floats) -> usize {
    let mut sorted: Vec<f64> = match values {
        Floats::F32(v) => v.iter().map(|&x| f64::from(x)).collect(),
        Floats::F64(v) => v.to_vec(),
    };
    sorted.sort_unstable_by(f64::total_cmp);
    sorted.dedup();
    sorted.len()
}

/// Whether `x` is a whole number that a `f64` holds exactly.
pub(super) fn is_integer(x: f64) -> bool {
    x.fract() == 0.0 && x.abs() < 9.0e15
}
