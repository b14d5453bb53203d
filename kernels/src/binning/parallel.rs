//! Parallel CPU variants of `discretize`: equal chunks shared between the caller and
//! rayon's workers, a serial variant's search inside each.

use std::sync::{Mutex, PoisonError};

use super::cpu::{run_binary, run_linear};
use super::edges::check;
use super::lookup::Table;
use crate::Error;
use crate::floats::{Float, Floats};
use crate::share::share_out;

/// The search a parallel variant runs inside each chunk.
#[derive(Clone, Copy)]
pub(crate) enum Search<'t> {
    /// [`linear`](super::cpu::linear)'s scan.
    Linear,
    /// [`binary`](super::cpu::binary)'s search.
    Binary,
    /// `lookup`'s table, built once by the caller.
    Lookup(&'t Table),
}

/// `per_thread` equal chunks per rayon worker, shared between the caller and the
/// workers (see [`share_out`]; a single chunk runs on the caller alone), `search`
/// inside: the chunk follows the number of values instead of being fixed. When no
/// worker joins in time, the caller runs every chunk, so a call costs about what the
/// serial `search` costs. The first NaN (lowest row) is reported.
pub(crate) fn par_split(
    values: &Floats,
    edges: &[f64],
    codes: &mut [u8],
    per_thread: usize,
    search: Search<'_>,
) -> Result<(), Error> {
    check(values, edges, codes)?;
    split_checked(values, edges, codes, per_thread, 1, search)
}

/// [`par_split`] on inputs already checked, in chunks of at least `min_chunk` values
/// (a column shorter than twice that is one chunk, binned by the caller alone).
fn split_checked(
    values: &Floats,
    edges: &[f64],
    codes: &mut [u8],
    per_thread: usize,
    min_chunk: usize,
    search: Search<'_>,
) -> Result<(), Error> {
    // As many equal chunks as asked for, but no more than fit `min_chunk` values each.
    let count = (per_thread.max(1) * rayon::current_num_threads()).min(codes.len() / min_chunk.max(1)).max(1);
    if count == 1 {
        // One chunk: binned here, as the serial search would, without the chunk list
        // and the error slot a shared call needs. With them `par_lookup/4` at 1 000
        // values × 27 bins took 1.75 µs against `lookup`'s 1.63 (`cargo bench --bench
        // discretize`), and tuned dispatch that chose it below 4 096 values trailed
        // always calling `lookup` by 3–6% there (`cargo bench --bench tuning_quality`).
        return with_values!(values, |v| run_search(search, v, edges, codes, 0));
    }
    let block = codes.len().div_ceil(count).max(1);
    let first_error: Mutex<Option<(usize, Error)>> = Mutex::new(None);
    with_values!(values, |v| {
        let chunks: Vec<_> = codes.chunks_mut(block).zip(v.chunks(block)).collect();
        share_out(chunks, |i, (c, v), (): &mut ()| {
            if let Err(e) = run_search(search, v, edges, c, i * block) {
                let mut first = first_error.lock().unwrap_or_else(PoisonError::into_inner);
                if first.as_ref().is_none_or(|(j, _)| i < *j) {
                    *first = Some((i, e));
                }
            }
        });
    });
    let first = first_error.into_inner().unwrap_or_else(PoisonError::into_inner);
    first.map_or(Ok(()), |(_, e)| Err(e))
}

/// `search` over one chunk, whose first value is row `offset` of the column.
fn run_search<F: Float>(
    search: Search<'_>,
    values: &[F],
    edges: &[f64],
    codes: &mut [u8],
    offset: usize,
) -> Result<(), Error> {
    match search {
        Search::Linear => run_linear(values, edges, codes, offset),
        Search::Binary => run_binary(values, edges, codes, offset),
        Search::Lookup(table) => table.run(values, codes, offset),
    }
}

/// The fewest values a `par_lookup` chunk holds: about 2.5 µs of `lookup`'s work at
/// 1.2 ns a value, enough to pay for sharing it out. With the table's buckets fine
/// enough that a value costs a load and a compare, `lookup` at 1 000 values × 27 bins
/// took 1.65 µs and `par_lookup/4` (eight chunks of 125) 2.37 µs (`cargo bench --bench
/// discretize`), and from one process to the next `verify` found `par_lookup/4`
/// 1.1–4.4× slower than `lookup` at 1 071–3 079 values after a sweep had seen it level:
/// what a chunk that small costs depends on whether a pool thread happens to be awake.
/// Chunks of at least this many, but up to twice as many (2 048 and 650 at 2 698
/// values), left `par_lookup/4` 1.2× behind `lookup` there in 15 of 20 verifies.
const LOOKUP_CHUNK: usize = 2048;

/// `lookup` in `per_thread` chunks per rayon worker (see [`par_split`]), each of at
/// least [`LOOKUP_CHUNK`] values: one table, built by the caller, read by every chunk.
/// When no worker joins in time the caller runs every chunk, so a call costs what
/// `lookup` costs, the fastest serial variant from a few thousand values up.
pub(crate) fn par_lookup(
    values: &Floats,
    edges: &[f64],
    codes: &mut [u8],
    per_thread: usize,
) -> Result<(), Error> {
    check(values, edges, codes)?;
    let table = Table::new(edges);
    split_checked(values, edges, codes, per_thread, LOOKUP_CHUNK, Search::Lookup(&table))
}
