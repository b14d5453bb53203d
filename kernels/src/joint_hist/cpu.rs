//! CPU variants of `joint_hist_batched`.

use super::check::{Shape, check};
use crate::column::{Code, HostCodes};
use crate::{Codes, Error};

/// Host views of `y` and `x`; device inputs are copied back first (part of the
/// measured time, as residency demands).
fn host_pair<'a>(y: &'a Codes, x: &'a Codes) -> Result<(HostCodes<'a>, HostCodes<'a>), Error> {
    match (y.host(), x.host()) {
        (Some(y), Some(x)) => Ok((y, x)),
        _ => Err(Error::ResidencyMismatch),
    }
}

/// Calls `f` with `y` and `x` as typed slices, for each of the four width pairs.
macro_rules! with_slices {
    ($y:expr, $x:expr, |$ys:ident, $xs:ident| $body:expr) => {
        match ($y, $x) {
            (HostCodes::U8($ys), HostCodes::U8($xs)) => $body,
            (HostCodes::U8($ys), HostCodes::U16($xs)) => $body,
            (HostCodes::U16($ys), HostCodes::U8($xs)) => $body,
            (HostCodes::U16($ys), HostCodes::U16($xs)) => $body,
        }
    };
}

/// Counts one feature column into `table` (`kx · ky` counters, already zeroed).
#[inline]
pub(crate) fn count_column<Y: Code, X: Code>(ys: &[Y], xs: &[X], ky: usize, table: &mut [u32]) {
    for (&y, &x) in ys.iter().zip(xs) {
        table[x.index() * ky + y.index()] += 1;
    }
}

/// The reference: each feature in turn, one table each.
pub(crate) fn serial(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    counts.fill(0);
    if s.joint() == 0 {
        return Ok(());
    }
    let (yh, xh) = host_pair(y, x)?;
    with_slices!(yh, xh, |ys, xs| {
        for (j, table) in counts.chunks_exact_mut(s.joint()).enumerate() {
            count_column(ys, column(xs, s, j), s.ky, table);
        }
    });
    Ok(())
}

/// Column `j` of a column-major buffer.
#[inline]
pub(crate) fn column<T>(xs: &[T], s: Shape, j: usize) -> &[T] {
    &xs[j * s.n..(j + 1) * s.n]
}
