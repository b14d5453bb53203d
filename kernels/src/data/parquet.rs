//! Parquet files and Arrow record batches as [`Table`]s: row groups decoded in
//! parallel (rayon, one reader per row group), numeric columns into `f64`, strings
//! into label codes. Every error names the column and, for a file, the row group.

/// The Arrow array crate this reader builds on, for batches of matching versions.
pub use ::arrow_array;
/// The Parquet crate this reader builds on (writers, properties).
pub use ::parquet;

use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type,
    UInt64Type,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use rayon::prelude::*;

use super::builder::Builder;
use super::table::Table;
use super::{DataError, Dataset, EncodeOptions, encode};

/// Reads the Parquet file at `path` into a [`Table`], calling
/// `progress(bytes_decoded, total_bytes)` (compressed sizes) as row groups finish.
pub fn read(path: &Path, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Table, DataError> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(open(path)?).map_err(|e| error(None, None, e))?;
    let metadata = builder.metadata().clone();
    let names: Vec<String> = builder.schema().fields().iter().map(|f| f.name().clone()).collect();
    let groups = metadata.num_row_groups();
    let total: u64 = metadata.row_groups().iter().map(|g| g.compressed_size().max(0) as u64).sum();
    let done = std::sync::atomic::AtomicU64::new(0);
    let parts: Vec<Result<Vec<Builder>, DataError>> = (0..groups)
        .into_par_iter()
        .map(|g| {
            let parts = read_group(path, g);
            let size = metadata.row_group(g).compressed_size().max(0) as u64;
            progress(done.fetch_add(size, std::sync::atomic::Ordering::Relaxed) + size, total);
            parts
        })
        .collect();
    let mut columns: Option<Vec<Builder>> = None;
    for group in parts {
        let group = group?;
        match columns.as_mut() {
            None => columns = Some(group),
            Some(columns) => columns.iter_mut().zip(group).for_each(|(c, part)| c.append(part)),
        }
    }
    let columns = match columns {
        Some(c) => c.into_iter().map(Builder::finish).collect(),
        None => names.iter().map(|_| Builder::new(true).finish()).collect(),
    };
    Ok(Table { names, columns })
}

/// Reads and encodes the Parquet file at `path` with `target` as the target.
pub fn load(path: &Path, target: &str, options: EncodeOptions) -> Result<Dataset, DataError> {
    encode(read(path, &|_, _| {})?, target, options)
}

/// Record batches of one schema (e.g. from a Parquet, Arrow IPC or Flight reader) as a
/// [`Table`]: integer and floating-point columns as numbers, strings as labels.
/// Errors: a null value, or a column of another type, named with its column.
pub fn table_from_batches(batches: &[RecordBatch]) -> Result<Table, DataError> {
    let Some(first) = batches.first() else {
        return Err(DataError::Empty("no record batches".into()));
    };
    let names: Vec<String> = first.schema().fields().iter().map(|f| f.name().clone()).collect();
    let mut columns = builders(first, None)?;
    for batch in batches {
        if batch.num_columns() != names.len() {
            let message = format!("a batch of {} columns after one of {}", batch.num_columns(), names.len());
            return Err(DataError::Parquet { column: None, row_group: None, message });
        }
        append(&mut columns, batch, &names, None)?;
    }
    Ok(Table { names, columns: columns.into_iter().map(Builder::finish).collect() })
}

fn open(path: &Path) -> Result<File, DataError> {
    File::open(path).map_err(|e| DataError::Io { path: path.to_path_buf(), message: e.to_string() })
}

/// One row group's columns, with its own reader (so groups decode in parallel).
fn read_group(path: &Path, group: usize) -> Result<Vec<Builder>, DataError> {
    let at = |e| error(None, Some(group), e);
    let builder = ParquetRecordBatchReaderBuilder::try_new(open(path)?).map_err(at)?;
    let rows = builder.metadata().row_group(group).num_rows().max(1) as usize;
    let names: Vec<String> = builder.schema().fields().iter().map(|f| f.name().clone()).collect();
    let reader =
        builder.with_row_groups(vec![group]).with_batch_size(rows.min(1 << 20)).build().map_err(at)?;
    let mut columns: Option<Vec<Builder>> = None;
    for batch in reader {
        let batch = batch.map_err(|e| error(None, Some(group), e))?;
        let columns = match columns.as_mut() {
            Some(c) => c,
            None => columns.insert(builders(&batch, Some(group))?),
        };
        append(columns, &batch, &names, Some(group))?;
    }
    match columns {
        Some(c) => Ok(c),
        None => Ok(names.iter().map(|_| Builder::new(true)).collect()),
    }
}

/// An empty builder per column of `batch`, by its type.
fn builders(batch: &RecordBatch, group: Option<usize>) -> Result<Vec<Builder>, DataError> {
    (batch.schema().fields().iter())
        .map(|f| match f.data_type() {
            t if is_number(t) => Ok(Builder::new(true)),
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Ok(Builder::new(false)),
            other => Err(DataError::Parquet {
                column: Some(f.name().clone()),
                row_group: group,
                message: format!("type {other} is neither a number nor a string"),
            }),
        })
        .collect()
}

fn is_number(t: &DataType) -> bool {
    t.is_numeric() && !matches!(t, DataType::Float16) || *t == DataType::Boolean
}

/// Appends every column of `batch`; nulls are errors.
fn append(
    columns: &mut [Builder],
    batch: &RecordBatch,
    names: &[String],
    group: Option<usize>,
) -> Result<(), DataError> {
    for (j, (column, array)) in columns.iter_mut().zip(batch.columns()).enumerate() {
        let fail = |message: String| DataError::Parquet {
            column: Some(names[j].clone()),
            row_group: group,
            message,
        };
        if array.null_count() > 0 {
            let row = (0..array.len()).find(|&i| array.is_null(i)).unwrap_or(0);
            return Err(fail(format!("null at row {row} of the batch (MRMR needs every value)")));
        }
        match column {
            Builder::Numbers(v) => numbers(array.as_ref(), v).map_err(fail)?,
            Builder::Labels { .. } => labels(array.as_ref(), column).map_err(fail)?,
        }
    }
    Ok(())
}

/// Appends a numeric array's values as `f64`.
fn numbers(array: &dyn Array, out: &mut Vec<f64>) -> Result<(), String> {
    macro_rules! widen {
        ($($t:ty),*) => {
            match array.data_type() {
                $(t if *t == <$t as arrow_array::types::ArrowPrimitiveType>::DATA_TYPE => {
                    out.extend(array.as_primitive::<$t>().values().iter().map(|&x| x as f64));
                })*
                DataType::Boolean => out.extend(array.as_boolean().iter().map(|b| f64::from(u8::from(b == Some(true))))),
                other => return Err(format!("type {other} changed within the column")),
            }
        };
    }
    widen!(
        Float64Type,
        Float32Type,
        Int8Type,
        Int16Type,
        Int32Type,
        Int64Type,
        UInt8Type,
        UInt16Type,
        UInt32Type,
        UInt64Type
    );
    Ok(())
}

/// Appends a string array's values as labels.
fn labels(array: &dyn Array, out: &mut Builder) -> Result<(), String> {
    match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().iter().for_each(|s| out.push_label(s.unwrap_or_default())),
        DataType::LargeUtf8 => {
            array.as_string::<i64>().iter().for_each(|s| out.push_label(s.unwrap_or_default()))
        }
        DataType::Utf8View => {
            array.as_string_view().iter().for_each(|s| out.push_label(s.unwrap_or_default()))
        }
        other => return Err(format!("type {other} changed within the column")),
    }
    Ok(())
}

fn error(column: Option<String>, row_group: Option<usize>, e: impl std::fmt::Display) -> DataError {
    DataError::Parquet { column, row_group, message: e.to_string() }
}
