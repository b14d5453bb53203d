//! One CSV column on its way to codes: typed while read (numbers or labels), then
//! encoded as discrete codes, labels or quantile bins.

use super::csv::CsvOptions;
use super::{ColumnKind, DataError};
use crate::{Floats, discretize, quantile_edges};

/// The most levels a one-byte code holds.
const MAX_LEVELS: usize = 256;

/// A column's values as read, typed by its first value.
pub(super) struct Column {
    pub(super) name: String,
    /// 1-based position in the header, for messages.
    index: usize,
    values: Values,
}

enum Values {
    /// Nothing read yet.
    Untyped,
    Numbers(Vec<f64>),
    Labels(Vec<String>),
}

impl Column {
    pub(super) fn new(name: String, index: usize) -> Self {
        Column { name, index, values: Values::Untyped }
    }

    pub(super) fn len(&self) -> usize {
        match &self.values {
            Values::Untyped => 0,
            Values::Numbers(v) => v.len(),
            Values::Labels(v) => v.len(),
        }
    }

    /// Adds the field read at `line`. The first value types the column: a number makes a
    /// numeric column, where a later non-number is an error; anything else, labels.
    pub(super) fn push(&mut self, field: String, line: usize, discrete: bool) -> Result<(), DataError> {
        if field.is_empty() {
            return Err(self.error(line, "empty value".into()));
        }
        let number = field.parse::<f64>().ok();
        if matches!(self.values, Values::Untyped) {
            self.values =
                if number.is_some() { Values::Numbers(Vec::new()) } else { Values::Labels(Vec::new()) };
        }
        match (&mut self.values, number) {
            (Values::Labels(v), _) => v.push(field),
            (Values::Numbers(v), Some(x)) if x.is_finite() => {
                if discrete && !is_integer(x) {
                    return Err(self.error(line, format!("`{field}` is not an integer code (--discrete)")));
                }
                v.push(x);
            }
            _ => {
                return Err(
                    self.error(line, format!("`{field}` is not a finite number, as the values above are"))
                );
            }
        }
        Ok(())
    }

    fn error(&self, line: usize, message: String) -> DataError {
        DataError::Csv { line, column: self.index, name: Some(self.name.clone()), message }
    }
}

/// The column's codes and how they were made.
pub(super) fn encode(col: Column, options: &CsvOptions) -> Result<(Vec<u8>, ColumnKind), DataError> {
    match col.values {
        Values::Untyped => Ok((Vec::new(), ColumnKind::Discrete { levels: 1 })),
        Values::Labels(labels) => {
            let mut distinct: Vec<&str> = labels.iter().map(String::as_str).collect();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() > MAX_LEVELS {
                return Err(DataError::TooManyLevels { column: col.name, levels: distinct.len() });
            }
            let codes =
                labels.iter().map(|l| distinct.binary_search(&l.as_str()).unwrap_or(0) as u8).collect();
            Ok((codes, ColumnKind::Labels { levels: distinct.len() }))
        }
        Values::Numbers(values) => match small_integer_levels(&values) {
            Some(distinct) => {
                let codes = values.iter().map(|v| distinct.partition_point(|d| d < v) as u8).collect();
                Ok((codes, ColumnKind::Discrete { levels: distinct.len() }))
            }
            None if options.discrete => {
                Err(DataError::TooManyLevels { column: col.name, levels: count_distinct(&values) })
            }
            None => quantile_codes(values, options.bins),
        },
    }
}

/// The sorted distinct values when every value is an integer and there are at most 256
/// of them: such a column already holds codes.
fn small_integer_levels(values: &[f64]) -> Option<Vec<f64>> {
    let mut distinct: Vec<f64> = Vec::new();
    for &v in values {
        if !is_integer(v) {
            return None;
        }
        if let Err(at) = distinct.binary_search_by(|d| d.total_cmp(&v)) {
            if distinct.len() == MAX_LEVELS {
                return None;
            }
            distinct.insert(at, v);
        }
    }
    Some(distinct)
}

fn count_distinct(values: &[f64]) -> usize {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    sorted.dedup();
    sorted.len()
}

fn is_integer(x: f64) -> bool {
    x.fract() == 0.0 && x.abs() < 9.0e15
}

/// Quantile bins with the `discretize` kernel: edges at the `k/bins` quantiles
/// ([`quantile_edges`]), a value's code the number of edges at or below it. Equal values
/// always share a bin, so heavy repetition leaves some bins empty (harmless to MI).
fn quantile_codes(values: Vec<f64>, bins: usize) -> Result<(Vec<u8>, ColumnKind), DataError> {
    let values = Floats::from(values);
    let edges = quantile_edges(&values, bins)?;
    let mut codes = vec![0u8; values.len()];
    discretize::call(&values, &edges, &mut codes)?;
    Ok((codes, ColumnKind::Binned { bins }))
}
