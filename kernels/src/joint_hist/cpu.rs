//! CPU variants of `joint_hist_batched`.

use rayon::prelude::*;

use super::check::check;
use super::count::{column, count_column, count_into};
use super::pairs::count_columns;
use crate::column::HostCodes;
use crate::share::share_out;
use crate::{Codes, Error};

/// `y` and `x` on the host: cheap clones, or copies back from the device (part of
/// the measured time, as residency demands).
fn on_host(y: &Codes, x: &Codes) -> Result<(Codes, Codes), Error> {
    Ok((y.to_host()?, x.to_host()?))
}

/// Typed host views of values [`on_host`] returned.
fn views<'a>(y: &'a Codes, x: &'a Codes) -> Result<(HostCodes<'a>, HostCodes<'a>), Error> {
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

/// The reference: each feature in turn, one table each.
pub(crate) fn serial(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    counts.fill(0);
    if s.joint() == 0 {
        return Ok(());
    }
    let (y, x) = on_host(y, x)?;
    let (yh, xh) = views(&y, &x)?;
    with_slices!(yh, xh, |ys, xs| {
        for (j, table) in counts.chunks_exact_mut(s.joint()).enumerate() {
            count_column(ys, column(xs, s, j), s.ky, table);
        }
    });
    Ok(())
}

/// Serial, four-way privatised counting (see [`super::count`]).
pub(crate) fn multiway(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    counts.fill(0);
    let (y, x) = on_host(y, x)?;
    let (yh, xh) = views(&y, &x)?;
    let mut scratch = Vec::new();
    with_slices!(yh, xh, |ys, xs| {
        for (j, table) in counts.chunks_exact_mut(s.joint()).enumerate() {
            count_into(ys, column(xs, s, j), s.ky, table, &mut scratch);
        }
    });
    Ok(())
}

/// Features shared out (see [`share_out`]): each participant owns whole tables, so
/// nothing is merged. Wins when there are at least as many features as cores.
pub(crate) fn par_features(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    counts.fill(0);
    let (y, x) = on_host(y, x)?;
    let (yh, xh) = views(&y, &x)?;
    with_slices!(yh, xh, |ys, xs| {
        let tables: Vec<&mut [u32]> = counts.chunks_exact_mut(s.joint()).collect();
        share_out(tables, |j, table, scratch| count_into(ys, column(xs, s, j), s.ky, table, scratch));
    });
    Ok(())
}

/// Serial, two feature columns per pass (see [`super::pairs`]).
pub(crate) fn pairs(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    counts.fill(0);
    let (y, x) = on_host(y, x)?;
    let (yh, xh) = views(&y, &x)?;
    let mut scratch = Vec::new();
    with_slices!(yh, xh, |ys, xs| count_columns(ys, xs, s, 0, counts, &mut scratch));
    Ok(())
}

/// Pairs of features shared out (see [`share_out`]), two columns per pass (see
/// [`super::pairs`]).
pub(crate) fn par_pairs(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    counts.fill(0);
    let (y, x) = on_host(y, x)?;
    let (yh, xh) = views(&y, &x)?;
    with_slices!(yh, xh, |ys, xs| {
        let tables: Vec<&mut [u32]> = counts.chunks_mut(2 * s.joint()).collect();
        share_out(tables, |k, tables, scratch| count_columns(ys, xs, s, 2 * k, tables, scratch));
    });
    Ok(())
}

/// Rayon over blocks of `block` samples: each worker counts its blocks of every
/// feature into private tables, merged at the end. Wins with few features and many
/// samples, where [`par_features`] has too little to share out.
pub(crate) fn par_samples(y: &Codes, x: &Codes, counts: &mut [u32], block: usize) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    counts.fill(0);
    let (y, x) = on_host(y, x)?;
    let (yh, xh) = views(&y, &x)?;
    let block = block.max(1);
    let blocks = s.n.div_ceil(block);
    let len = counts.len();
    let merged = with_slices!(yh, xh, |ys, xs| {
        (0..blocks)
            .into_par_iter()
            .fold(
                || (vec![0u32; len], Vec::new()),
                |(mut acc, mut scratch), b| {
                    let rows = b * block..((b + 1) * block).min(s.n);
                    for (j, table) in acc.chunks_exact_mut(s.joint()).enumerate() {
                        let xs = &column(xs, s, j)[rows.clone()];
                        count_into(&ys[rows.clone()], xs, s.ky, table, &mut scratch);
                    }
                    (acc, scratch)
                },
            )
            .map(|(acc, _)| acc)
            .reduce_with(|mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            })
    });
    if let Some(merged) = merged {
        counts.copy_from_slice(&merged);
    }
    Ok(())
}

/// [`par_samples`] with `per_thread` equal blocks per rayon worker: the block size
/// follows `n` instead of being fixed.
pub(crate) fn par_split(y: &Codes, x: &Codes, counts: &mut [u32], per_thread: usize) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    let blocks = per_thread.max(1) * rayon::current_num_threads();
    par_samples(y, x, counts, s.n.div_ceil(blocks).max(1))
}
