//! Serial CPU variants of `discretize`: linear scan, branch-free binary search.

use super::edges::check;
use crate::Error;
use crate::floats::{Float, Floats};

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
/// `offset + row`).
pub(super) fn run_linear<F: Float>(
    values: &[F],
    edges: &[f64],
    codes: &mut [u8],
    offset: usize,
) -> Result<(), Error> {
    for_groups(values, codes, offset, |wide, c| linear_group(edges, wide, c))
}

/// Runs `group` on `values` widened `LANES` at a time, with each group's codes; refuses
/// NaN (reported at `offset + row`). A group's NaN check is a branch-free `or` over its
/// values.
#[inline]
fn for_groups<F: Float>(
    values: &[F],
    codes: &mut [u8],
    offset: usize,
    mut group: impl FnMut(&[f64; LANES], &mut [u8]),
) -> Result<(), Error> {
    for (g, (c, v)) in codes.chunks_mut(LANES).zip(values.chunks(LANES)).enumerate() {
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
            return Err(Error::NotANumber { column: 0, row: offset + g * LANES + row });
        }
        group(&wide, c);
    }
    Ok(())
}

/// Bins by a binary search whose steps are selects, not branches: the step count
/// depends only on the number of edges, so random values cost no mispredictions.
/// `select_unpredictable` because a plain `if` compiled to a branch (a compare and a
/// jump per step): on random values half its steps mispredicted, and the same search
/// ran 2–3× slower or faster from call to call as the predictor's state went.
#[inline]
pub(super) fn binary_one(edges: &[f64], v: f64) -> u8 {
    if edges.is_empty() {
        return 0;
    }
    let (mut base, mut size) = (0usize, edges.len());
    while size > 1 {
        let half = size / 2;
        let mid = base + half;
        base = std::hint::select_unpredictable(edges[mid] <= v, mid, base);
        size -= half;
    }
    (base + usize::from(edges[base] <= v)) as u8
}

/// [`binary_one`] for `LANES` values in lockstep: every value takes the same number of
/// steps (it depends on the edges only), so the group's searches are independent chains
/// the core overlaps, where one search waits on each step's load before the next.
#[inline]
fn binary_group(edges: &[f64], values: &[f64; LANES], codes: &mut [u8]) {
    let mut base = [0usize; LANES];
    let mut size = edges.len();
    while size > 1 {
        let half = size / 2;
        for (b, &v) in base.iter_mut().zip(values) {
            let mid = *b + half;
            *b = std::hint::select_unpredictable(edges[mid] <= v, mid, *b);
        }
        size -= half;
    }
    for ((c, b), &v) in codes.iter_mut().zip(base).zip(values) {
        *c = (b + usize::from(edges[b] <= v)) as u8;
    }
}

/// The binary search over `values`, `LANES` at a time, refusing NaN (reported at
/// `offset + row`).
pub(super) fn run_binary<F: Float>(
    values: &[F],
    edges: &[f64],
    codes: &mut [u8],
    offset: usize,
) -> Result<(), Error> {
    if edges.is_empty() {
        // Every code is 0; NaN is still refused.
        return run_linear(values, edges, codes, offset);
    }
    for_groups(values, codes, offset, |wide, c| binary_group(edges, wide, c))
}

/// The reference: a linear scan per value.
pub(crate) fn linear(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
    check(values, edges, codes)?;
    with_values!(values, |v| run_linear(v, edges, codes, 0))
}

/// A branch-free binary search per value.
pub(crate) fn binary(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
    check(values, edges, codes)?;
    with_values!(values, |v| run_binary(v, edges, codes, 0))
}
