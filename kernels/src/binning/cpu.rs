//! CPU variants of `discretize`: linear scan, branch-free binary search, parallel
//! chunks.

use std::sync::{Mutex, PoisonError};

use super::edges::check;
use crate::Error;
use crate::floats::{Float, Floats};
use crate::share::share_out;

/// Runs `f` on the values as a typed slice.
macro_rules! with_values {
    ($values:expr, |$v:ident| $body:expr) => {
        match $values {
            Floats::F32($v) => $body,
            Floats::F64($v) => $body,
        }
    };
}

/// Values the linear scan bins together: a group's values and counts fit in registers
/// while every edge passes over them, so each edge costs a few vector compares and
/// subtractions per group (a loop over the edges per value does not vectorise).
const LANES: usize = 8;

/// Bins by comparing with every edge and counting: cheap for a handful of edges, and
/// without branches (edges are sorted, so the count of edges `≤ v` is the bin), so
/// random values cost no mispredictions. `LANES` values at a time, edges inside.
#[inline]
fn linear_group(edges: &[f64], values: &[f64; LANES], codes: &mut [u8]) {
    let mut counts = [0u64; LANES];
    for &e in edges {
        for (count, &v) in counts.iter_mut().zip(values) {
            *count += u64::from(e <= v);
        }
    }
    for (c, count) in codes.iter_mut().zip(counts) {
        *c = count as u8;
    }
}

/// The linear scan over `values`, `LANES` at a time, refusing NaN (reported at
/// `offset + row`). A group's NaN check is a branch-free `or` over its values.
fn run_linear<F: Float>(values: &[F], edges: &[f64], codes: &mut [u8], offset: usize) -> Result<(), Error> {
    for (group, (c, v)) in codes.chunks_mut(LANES).zip(values.chunks(LANES)).enumerate() {
        // A short last group is padded with a value no edge is above; its codes are
        // cut off by `c`'s length.
        let mut wide = [f64::INFINITY; LANES];
        let mut nan = false;
        for (w, x) in wide.iter_mut().zip(v) {
            *w = x.wide();
            nan |= w.is_nan();
        }
        if nan {
            let row = wide.iter().position(|w| w.is_nan()).unwrap_or(0);
            return Err(Error::NotANumber { column: 0, row: offset + group * LANES + row });
        }
        linear_group(edges, &wide, c);
    }
    Ok(())
}

/// Bins by a binary search whose steps are selects, not branches: the step count
/// depends only on the number of edges, so random values cost no mispredictions.
#[inline]
pub(super) fn binary_one(edges: &[f64], v: f64) -> u8 {
    if edges.is_empty() {
        return 0;
    }
    let (mut base, mut size) = (0usize, edges.len());
    while size > 1 {
        let half = size / 2;
        let mid = base + half;
        base = if edges[mid] <= v { mid } else { base };
        size -= half;
    }
    (base + usize::from(edges[base] <= v)) as u8
}

/// Bins `values` into `codes` with `one`, refusing NaN (reported at `offset + row`).
#[inline]
fn run<F: Float>(
    values: &[F],
    edges: &[f64],
    codes: &mut [u8],
    offset: usize,
    one: impl Fn(&[f64], f64) -> u8,
) -> Result<(), Error> {
    for (row, (c, v)) in codes.iter_mut().zip(values).enumerate() {
        let v = v.wide();
        if v.is_nan() {
            return Err(Error::NotANumber { column: 0, row: offset + row });
        }
        *c = one(edges, v);
    }
    Ok(())
}

/// The reference: a linear scan per value.
pub(crate) fn linear(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
    check(values, edges, codes)?;
    with_values!(values, |v| run_linear(v, edges, codes, 0))
}

/// A branch-free binary search per value.
pub(crate) fn binary(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
    check(values, edges, codes)?;
    with_values!(values, |v| run(v, edges, codes, 0, binary_one))
}

/// Chunks of `block` values shared between the caller and rayon's workers (see
/// [`share_out`]; one chunk runs on the caller alone), binary search inside; the first
/// NaN (lowest row) is reported.
pub(crate) fn par_chunks(
    values: &Floats,
    edges: &[f64],
    codes: &mut [u8],
    block: usize,
) -> Result<(), Error> {
    check(values, edges, codes)?;
    let block = block.max(1);
    let first_error: Mutex<Option<(usize, Error)>> = Mutex::new(None);
    with_values!(values, |v| {
        let chunks: Vec<_> = codes.chunks_mut(block).zip(v.chunks(block)).collect();
        share_out(chunks, |i, (c, v), (): &mut ()| {
            if let Err(e) = run(v, edges, c, i * block, binary_one) {
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

/// [`par_chunks`] with `per_thread` equal chunks per rayon worker: the chunk follows
/// the number of values instead of being fixed.
pub(crate) fn par_split(
    values: &Floats,
    edges: &[f64],
    codes: &mut [u8],
    per_thread: usize,
) -> Result<(), Error> {
    let chunks = per_thread.max(1) * rayon::current_num_threads();
    par_chunks(values, edges, codes, codes.len().div_ceil(chunks).max(1))
}
