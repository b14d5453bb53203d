//! CPU variants of `joint_hist_batched`.

use std::ops::Range;
use std::sync::{Mutex, PoisonError};

use super::check::check;
use super::count::{column, count_column, count_into};
use super::pairs::count_columns;
use crate::column::HostCodes;
use crate::share::{share_out, share_out_then};
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

/// Blocks of `block` samples shared out (see [`share_out_then`]): each participant
/// counts its blocks of every feature into one private set of tables, merged into
/// `counts` as it finishes. Wins with few features and many samples, where
/// [`par_features`] has too little to share out.
///
/// Shared out, not a parallel iterator: one started from outside rayon's pool leaves
/// the caller waiting for workers that may first have to be woken. At 100 000
/// samples × 1 feature, `par_split/4` ran at 1.00–1.04 of the fastest candidate in
/// some sweeps and at 1.40–1.90 in others (8 sweeps of `cargo bench --bench
/// tuning_quality`, each its own process), and which of the two a process met decided
/// whether its table was right.
pub(crate) fn par_samples(y: &Codes, x: &Codes, counts: &mut [u32], block: usize) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    counts.fill(0);
    if s.joint() == 0 {
        return Ok(());
    }
    let (y, x) = on_host(y, x)?;
    let (yh, xh) = views(&y, &x)?;
    let block = block.max(1);
    let blocks: Vec<Range<usize>> =
        (0..s.n.div_ceil(block)).map(|b| b * block..((b + 1) * block).min(s.n)).collect();
    let len = counts.len();
    let merged = Mutex::new(counts);
    with_slices!(yh, xh, |ys, xs| {
        share_out_then(
            blocks,
            |_, rows, (acc, scratch): &mut (Vec<u32>, Vec<u32>)| {
                // Allocated by the participant's first block only.
                acc.resize(len, 0);
                for (j, table) in acc.chunks_exact_mut(s.joint()).enumerate() {
                    let xs = &column(xs, s, j)[rows.clone()];
                    count_into(&ys[rows.clone()], xs, s.ky, table, scratch);
                }
            },
            |(acc, _)| {
                let mut counts = merged.lock().unwrap_or_else(PoisonError::into_inner);
                counts.iter_mut().zip(&acc).for_each(|(c, a)| *c += a);
            },
        );
    });
    Ok(())
}

/// [`par_samples`] with `per_thread` equal blocks per rayon worker: the block size
/// follows `n` instead of being fixed.
pub(crate) fn par_split(y: &Codes, x: &Codes, counts: &mut [u32], per_thread: usize) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    let blocks = per_thread.max(1) * rayon::current_num_threads();
    par_samples(y, x, counts, s.n.div_ceil(blocks).max(1))
}
