//! Parquet straight to a [`Dataset`], a column at a time: each column is decoded and
//! at once made discrete (its codes, or its quantile bins), so its floats live only
//! while it is binned. Memory is the codes plus one column per worker, and a worker's
//! column buffer is reused from column to column: the pages of a 1M-row column are
//! faulted in once per worker, not once per column (materialising every column first
//! spent about a quarter of the job's CPU time in page faults).

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use arrow_array::Array;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};
use rayon::prelude::*;

use super::super::builder::Builder;
use super::super::encode::{EncodeOptions, assemble, check_shape, encode_column};
use super::super::table::Column;
use super::super::{ColumnKind, DataError, Dataset};
use super::{error, first_null, labels_into, metadata, numbers, open};
use crate::Floats;

/// A data set read by [`load_streamed`], with how the wall time splits between
/// decoding and binning (in proportion to the time the columns spent in each: the two
/// overlap).
#[derive(Debug)]
pub struct Streamed {
    /// The data set, as [`super::load`] makes it.
    pub data: Dataset,
    /// The share of the wall time spent decoding.
    pub read: Duration,
    /// The share spent making columns discrete.
    pub bin: Duration,
}

/// Reads and encodes the Parquet file at `path` with `target` as the target, as
/// [`super::load`] does (the same codes and kinds; for a file with one bad column, the
/// same error), a column at a time in parallel, calling
/// `progress(bytes_decoded, total_bytes)` (compressed sizes) as columns finish.
pub fn load_streamed(
    path: &Path,
    target: &str,
    options: EncodeOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Streamed, DataError> {
    let start = Instant::now();
    let (meta, mut names, kinds) = metadata(path)?;
    let groups = meta.metadata().row_groups();
    let n: usize = groups.iter().map(|g| g.num_rows().max(0) as usize).sum();
    let t = check_shape(&names, target, n, options)?;
    let mut target_codes = vec![0u8; n];
    let mut codes = vec![0u8; n * (names.len() - 1)];
    let mut outs: Vec<&mut [u8]> = codes.chunks_mut(n).collect();
    outs.insert(t, &mut target_codes);
    let total: u64 = groups.iter().map(|g| g.compressed_size().max(0) as u64).sum();
    let done = AtomicU64::new(0);
    let mut results: Vec<Result<(ColumnKind, Duration, Duration), DataError>> = outs
        .into_par_iter()
        .enumerate()
        .map_init(Vec::new, |buffer, (j, out)| {
            let started = Instant::now();
            // A corrupt file must be an error, never a panic, whatever the decoder does.
            let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                decode(path, &meta, j, kinds[j], std::mem::take(buffer))
            }))
            .unwrap_or_else(|_| {
                Err(error(Some(names[j].clone()), None, "the decoder failed on corrupt data"))
            })?;
            if decoded.len() != out.len() {
                let message = format!("{} rows where the metadata says {}", decoded.len(), out.len());
                return Err(error(Some(names[j].clone()), None, message));
            }
            let decoding = started.elapsed();
            let kind = encode_column(&names[j], &decoded, options, out)?;
            // The buffer back for the next column (no other owner holds it).
            if let Column::Numbers(Floats::F64(values)) = decoded
                && let Ok(values) = std::sync::Arc::try_unwrap(values)
            {
                *buffer = values;
            }
            let size: u64 = groups.iter().map(|g| g.column(j).compressed_size().max(0) as u64).sum();
            progress(done.fetch_add(size, Ordering::Relaxed) + size, total);
            Ok((kind, decoding, started.elapsed() - decoding))
        })
        .collect();
    // The target's error first, then the features' in column order, as `encode`.
    let (target_kind, mut decoding, mut binning) = results.remove(t)?;
    let mut kinds = Vec::with_capacity(results.len());
    for result in results {
        let (kind, d, b) = result?;
        kinds.push(kind);
        decoding += d;
        binning += b;
    }
    let target_name = names.remove(t);
    let data = assemble((target_name, target_codes, target_kind), names, codes, kinds, n)?;
    let wall = start.elapsed();
    let share = decoding.as_secs_f64() / (decoding + binning).as_secs_f64().max(f64::MIN_POSITIVE);
    let read = wall.mul_f64(share.clamp(0.0, 1.0));
    Ok(Streamed { data, read, bin: wall - read })
}

/// Column `j` of every row group, into `buffer` (cleared; its memory reused) for a
/// numeric column, into labels otherwise.
fn decode(
    path: &Path,
    meta: &ArrowReaderMetadata,
    j: usize,
    numeric: bool,
    mut buffer: Vec<f64>,
) -> Result<Column, DataError> {
    let name = || Some(meta.schema().field(j).name().clone());
    let mut labels = Builder::new(false);
    buffer.clear();
    let mut offset = 0;
    for group in 0..meta.metadata().num_row_groups() {
        let fail = |message: String| DataError::Parquet { column: name(), row_group: Some(group), message };
        let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(open(path)?, meta.clone())
            .with_row_groups(vec![group])
            .with_projection(ProjectionMask::roots(meta.parquet_schema(), [j]))
            .with_batch_size(64 * 1024)
            .build()
            .map_err(|e| error(None, Some(group), e))?;
        for batch in reader {
            let batch = batch.map_err(|e| error(None, Some(group), e))?;
            let array = batch.column(0);
            if let Some(row) = first_null(array.as_ref()) {
                return Err(fail(format!("null at row {} (MRMR needs every value)", offset + row)));
            }
            if numeric {
                numbers(array.as_ref(), &mut buffer).map_err(fail)?;
            } else {
                labels_into(array.as_ref(), &mut labels).map_err(fail)?;
            }
            offset += array.len();
        }
    }
    Ok(if numeric { Column::Numbers(Floats::from(buffer)) } else { labels.finish() })
}
