//! Parquet files and Arrow record batches as [`Table`]s: row groups decoded in
//! parallel (rayon, one reader per row group), numeric columns into `f64`, strings
//! into label codes. Every error names the column and, for a file, the row group.

/// The Arrow array crate this reader builds on, for batches of matching versions.
pub use ::arrow_array;
/// The Parquet crate this reader builds on (writers, properties).
pub use ::parquet;

mod stream;

pub use stream::{Streamed, load_streamed};

use std::fs::File;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};
use rayon::prelude::*;

use super::builder::Builder;
use super::table::{Column, Table};
use super::{DataError, Dataset, EncodeOptions, encode};
use crate::Floats;

/// Reads the Parquet file at `path` into a [`Table`], calling
/// `progress(bytes_decoded, total_bytes)` (compressed sizes) as parts finish.
///
/// Work is split into (row group × column set) tasks, decoded in parallel, each with
/// its own reader over the file's metadata (read once). Numeric columns are allocated
/// whole, once, and each task copies its decoded values straight into its rows: the
/// peak is the columns plus the batches in flight.
pub fn read(path: &Path, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Table, DataError> {
    let (meta, names, kinds) = metadata(path)?;
    let groups = meta.metadata().row_groups();
    let rows: Vec<usize> = groups.iter().map(|g| g.num_rows().max(0) as usize).collect();
    let n: usize = rows.iter().sum();
    // Zeroed allocations come as untouched pages: each task's copy is the first write.
    let mut numbers: Vec<Option<Arc<Vec<f64>>>> =
        kinds.iter().map(|&numeric| numeric.then(|| Arc::new(vec![0.0; n]))).collect();
    let tasks = tasks(&mut numbers, &rows, rayon::current_num_threads() * 2)?;
    let total: u64 = groups.iter().map(|g| g.compressed_size().max(0) as u64).sum();
    let done = AtomicU64::new(0);
    let parts: Vec<Result<Vec<(usize, Builder)>, DataError>> = tasks
        .into_par_iter()
        .map(|task| {
            let group = task.group;
            let size = task
                .targets
                .iter()
                .map(|(j, _)| groups[group].column(*j).compressed_size().max(0) as u64)
                .sum::<u64>();
            // A corrupt file must be an error, never a panic, whatever the decoder does.
            let labels =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_task(path, &meta, task)))
                    .unwrap_or_else(|_| Err(error(None, Some(group), "the decoder failed on corrupt data")));
            progress(done.fetch_add(size, Ordering::Relaxed) + size, total);
            labels
        })
        .collect();
    let mut labels: Vec<Option<Builder>> =
        kinds.iter().map(|&numeric| (!numeric).then(|| Builder::new(false))).collect();
    for part in parts {
        for (j, mut builder) in part? {
            if let Some(column) = labels[j].as_mut() {
                column.append_from(&mut builder);
            }
        }
    }
    let columns = (numbers.into_iter().zip(labels))
        .map(|(numbers, labels)| match (numbers, labels) {
            (Some(v), _) => Column::Numbers(Floats::F64(v)),
            (None, Some(b)) => b.finish(),
            (None, None) => Column::Numbers(Floats::from(Vec::<f64>::new())),
        })
        .collect();
    Ok(Table { names, columns })
}

/// The file's metadata, its column names, and which columns are numbers (the others
/// are text); a column of another type is an error.
fn metadata(path: &Path) -> Result<(ArrowReaderMetadata, Vec<String>, Vec<bool>), DataError> {
    let file = open(path)?;
    let meta = std::panic::catch_unwind(|| ArrowReaderMetadata::load(&file, Default::default()))
        .unwrap_or_else(|_| Err(parquet::errors::ParquetError::General("corrupt metadata".into())))
        .map_err(|e| error(None, None, e))?;
    let names: Vec<String> = meta.schema().fields().iter().map(|f| f.name().clone()).collect();
    let kinds: Vec<bool> = (meta.schema().fields().iter())
        .map(|f| match f.data_type() {
            t if is_number(t) => Ok(true),
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Ok(false),
            other => Err(unusable(f.name(), other, None)),
        })
        .collect::<Result<_, _>>()?;
    Ok((meta, names, kinds))
}

/// Where one column's values of one task go.
enum Target<'a> {
    /// Its rows of a numeric column.
    Numbers(&'a mut [f64]),
    /// A labels column: built by the task, merged afterwards.
    Labels,
}

/// One row group's decoding for a set of columns.
struct Task<'a> {
    group: usize,
    targets: Vec<(usize, Target<'a>)>,
}

/// The (row group × column set) tasks, each holding its rows of its numeric columns.
fn tasks<'a>(
    numbers: &'a mut [Option<Arc<Vec<f64>>>],
    rows: &[usize],
    sets: usize,
) -> Result<Vec<Task<'a>>, DataError> {
    let n_cols = numbers.len();
    let mut grid: Vec<Vec<(usize, Target<'a>)>> = rows.iter().map(|_| Vec::with_capacity(n_cols)).collect();
    for (j, column) in numbers.iter_mut().enumerate() {
        match column {
            Some(values) => {
                let shared = || DataError::Invalid("a shared column".into());
                let mut rest: &mut [f64] = Arc::get_mut(values).ok_or_else(shared)?.as_mut_slice();
                for (g, &r) in rows.iter().enumerate() {
                    let (mine, tail) = std::mem::take(&mut rest).split_at_mut(r);
                    grid[g].push((j, Target::Numbers(mine)));
                    rest = tail;
                }
            }
            None => grid.iter_mut().for_each(|g| g.push((j, Target::Labels))),
        }
    }
    let per_set = n_cols.div_ceil(sets.max(1)).max(1);
    let mut tasks = Vec::new();
    for (group, row) in grid.into_iter().enumerate() {
        let mut columns = row.into_iter().peekable();
        while columns.peek().is_some() {
            tasks.push(Task { group, targets: columns.by_ref().take(per_set).collect() });
        }
    }
    Ok(tasks)
}

/// Decodes one task: numbers into their rows, labels into builders (returned).
fn read_task(
    path: &Path,
    meta: &ArrowReaderMetadata,
    task: Task<'_>,
) -> Result<Vec<(usize, Builder)>, DataError> {
    let group = task.group;
    let at = |e| error(None, Some(group), e);
    let projection = ProjectionMask::roots(meta.parquet_schema(), task.targets.iter().map(|(j, _)| *j));
    let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(open(path)?, meta.clone())
        .with_row_groups(vec![group])
        .with_projection(projection)
        .with_batch_size(64 * 1024)
        .build()
        .map_err(at)?;
    let names = meta.schema().fields();
    let mut targets = task.targets;
    let mut labels: Vec<(usize, Builder)> = (targets.iter())
        .filter(|(_, t)| matches!(t, Target::Labels))
        .map(|(j, _)| (*j, Builder::new(false)))
        .collect();
    let mut offset = 0;
    for batch in reader {
        let batch = batch.map_err(|e| error(None, Some(group), e))?;
        let len = batch.num_rows();
        let mut label_slot = labels.iter_mut();
        for ((j, target), array) in targets.iter_mut().zip(batch.columns()) {
            let fail = |message: String| DataError::Parquet {
                column: Some(names[*j].name().clone()),
                row_group: Some(group),
                message,
            };
            if let Some(row) = first_null(array.as_ref()) {
                return Err(fail(format!("null at row {} (MRMR needs every value)", offset + row)));
            }
            match target {
                Target::Numbers(rows) => {
                    let out = rows
                        .get_mut(offset..offset + len)
                        .ok_or_else(|| fail("more rows than the metadata says".into()))?;
                    copy_numbers(array.as_ref(), out).map_err(fail)?;
                }
                Target::Labels => {
                    if let Some((_, builder)) = label_slot.next() {
                        labels_into(array.as_ref(), builder).map_err(fail)?;
                    }
                }
            }
        }
        offset += len;
    }
    Ok(labels)
}

/// Copies a numeric array's values, as `f64`, into `out` (of the array's length).
fn copy_numbers(array: &dyn Array, out: &mut [f64]) -> Result<(), String> {
    macro_rules! widen {
        ($($t:ty),*) => {
            match array.data_type() {
                DataType::Float64 => out.copy_from_slice(array.as_primitive::<Float64Type>().values()),
                $(t if *t == <$t as ArrowPrimitiveType>::DATA_TYPE => {
                    let values = array.as_primitive::<$t>().values();
                    out.iter_mut().zip(values.iter()).for_each(|(o, &x)| *o = x as f64);
                })*
                DataType::Boolean => (out.iter_mut().zip(array.as_boolean().values().iter()))
                    .for_each(|(o, b)| *o = f64::from(u8::from(b))),
                other => return Err(format!("type {other} changed within the column")),
            }
        };
    }
    widen!(
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

fn unusable(name: &str, t: &DataType, group: Option<usize>) -> DataError {
    DataError::Parquet {
        column: Some(name.to_string()),
        row_group: group,
        message: format!("type {t} is neither a number nor a string"),
    }
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

/// An empty builder per column of `batch`, by its type.
fn builders(batch: &RecordBatch, group: Option<usize>) -> Result<Vec<Builder>, DataError> {
    (batch.schema().fields().iter())
        .map(|f| match f.data_type() {
            t if is_number(t) => Ok(Builder::new(true)),
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Ok(Builder::new(false)),
            other => Err(unusable(f.name(), other, group)),
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
        if let Some(row) = first_null(array.as_ref()) {
            return Err(fail(format!("null at row {row} of the batch (MRMR needs every value)")));
        }
        match column {
            Builder::Numbers(v) => numbers(array.as_ref(), v).map_err(fail)?,
            Builder::Labels { .. } => labels_into(array.as_ref(), column).map_err(fail)?,
        }
    }
    Ok(())
}

/// The first null's row in `array`, if it holds any.
fn first_null(array: &dyn Array) -> Option<usize> {
    (array.null_count() > 0).then(|| (0..array.len()).find(|&i| array.is_null(i)).unwrap_or(0))
}

/// Appends a numeric array's values as `f64` (through [`copy_numbers`]; nothing is
/// appended on an error). `f64`, the usual type, is appended as it is, without the
/// zeroing a copy into new room would cost first.
fn numbers(array: &dyn Array, out: &mut Vec<f64>) -> Result<(), String> {
    if *array.data_type() == DataType::Float64 {
        out.extend_from_slice(array.as_primitive::<Float64Type>().values());
        return Ok(());
    }
    let start = out.len();
    out.resize(start + array.len(), 0.0);
    copy_numbers(array, &mut out[start..]).inspect_err(|_| out.truncate(start))
}

/// Appends a string array's values as labels.
fn labels_into(array: &dyn Array, out: &mut Builder) -> Result<(), String> {
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
