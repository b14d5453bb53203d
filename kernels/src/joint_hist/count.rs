//! Counting one feature column against the target: the loops every CPU variant of
//! `joint_hist_batched` is built from (the pair-at-a-time ones in `pairs` too).

use crate::column::{Code, Shape};

/// Counts one feature column into `table` (`kx · ky` counters, already zeroed).
#[inline]
pub(crate) fn count_column<Y: Code, X: Code>(ys: &[Y], xs: &[X], ky: usize, table: &mut [u32]) {
    for (&y, &x) in ys.iter().zip(xs) {
        table[x.index() * ky + y.index()] += 1;
    }
}

/// Counts one column into four interleaved tables (`scratch`: `4 · kx · ky` counters,
/// zeroed), then adds them to `table`. Consecutive samples that hit the same counter
/// then update different memory, so the increments do not wait on each other's
/// stores — the bottleneck of the plain loop when tables are small and hits repeat.
#[inline]
fn count_column_4way<Y: Code, X: Code>(
    ys: &[Y],
    xs: &[X],
    ky: usize,
    table: &mut [u32],
    scratch: &mut [u32],
) {
    let [t0, t1, t2, t3] = four_tables(scratch, table.len());
    let (yc, xc) = (ys.chunks_exact(4), xs.chunks_exact(4));
    let (ytail, xtail) = (yc.remainder(), xc.remainder());
    for (y, x) in yc.zip(xc) {
        t0[x[0].index() * ky + y[0].index()] += 1;
        t1[x[1].index() * ky + y[1].index()] += 1;
        t2[x[2].index() * ky + y[2].index()] += 1;
        t3[x[3].index() * ky + y[3].index()] += 1;
    }
    count_column(ytail, xtail, ky, t0);
    let len = table.len();
    fold_four(scratch, len);
    table.iter_mut().zip(&scratch[..len]).for_each(|(out, c)| *out += c);
}

/// `scratch` (at least `4 · len` counters) as four tables of `len`, for samples
/// `4k .. 4k + 3` to count into: consecutive samples that hit the same counter then
/// update different memory.
#[inline]
pub(super) fn four_tables(scratch: &mut [u32], len: usize) -> [&mut [u32]; 4] {
    let (t0, rest) = scratch.split_at_mut(len);
    let (t1, rest) = rest.split_at_mut(len);
    let (t2, rest) = rest.split_at_mut(len);
    [t0, t1, t2, &mut rest[..len]]
}

/// Adds the second, third and fourth of [`four_tables`] into the first.
#[inline]
pub(super) fn fold_four(scratch: &mut [u32], len: usize) {
    let [t0, t1, t2, t3] = four_tables(scratch, len);
    for (i, c) in t0.iter_mut().enumerate() {
        *c += t1[i] + t2[i] + t3[i];
    }
}

/// Adds one column's counts to `table`: four-way when the column is long next to the
/// table (zeroing and summing four tables costs `O(joint)`), plainly otherwise.
#[inline]
pub(super) fn count_into<Y: Code, X: Code>(
    ys: &[Y],
    xs: &[X],
    ky: usize,
    table: &mut [u32],
    scratch: &mut Vec<u32>,
) {
    if ys.len() < 16 * table.len() {
        count_column(ys, xs, ky, table);
        return;
    }
    scratch.clear();
    scratch.resize(4 * table.len(), 0);
    count_column_4way(ys, xs, ky, table, scratch);
}

/// Column `j` of a column-major buffer.
#[inline]
pub(crate) fn column<T>(xs: &[T], s: Shape, j: usize) -> &[T] {
    &xs[j * s.n..(j + 1) * s.n]
}
