//! The `lookup` variant of `discretize`: a value's code read from a table indexed by
//! the top bits of its order-preserving key, as many bits as keep the table small.
//!
//! Every value of a bucket no edge falls in has one code (the number of edges in the
//! buckets below); a bucket with one edge has two, told apart by one compare. So where
//! no bucket holds two edges, a code costs a key, a shift, a load and a compare,
//! whatever the number of edges. Where some bucket does, every value is searched among
//! as many edges as the fullest bucket holds, from its bucket's first.
//!
//! The table covers only the buckets from the lowest edge's to the highest's, between
//! two sentinels that stand for every bucket below and above (codes 0 and the number
//! of edges), and its buckets are as fine as a table of at most [`MAX_ENTRIES`] allows:
//! the finest such buckets hold the fewest edges each. With the top 16 bits of the key
//! instead (a fixed 65 536-entry table, 16 buckets an octave), the 38 edges of 77
//! uniform bins in [0.5, 1) shared 16 buckets, every value took a three-edge search,
//! and `lookup` at 5 672 values × 77 bins ran 22.8 µs against `binary`'s 27.2 (`cargo
//! bench --bench discretize`).
//!
//! `-0.0` and `0.0` compare equal but have neighbouring keys, so they may fall in
//! different buckets: edges are stored with `-0.0` as `0.0`, and the two zeros'
//! buckets count as one for the search width, so a value `-0.0` in the bucket below
//! `0.0`'s is compared with the edges of both.

use super::cpu::binary_one;
use super::edges::{MAX_BINS, check};
use crate::Error;
use crate::floats::{Float, Floats, from_key};

/// The most entries of a table's span: 4 KB of codes, resident in L1 beside the edges.
const MAX_ENTRIES: u64 = 4096;

/// Values whose NaN check runs as one pass before they are binned: a pass the compiler
/// vectorises over values still in L1, where a check per value inside the binning loop
/// cost a quarter of `lookup`'s time at 8 bins (1.54 against 1.24 ns a value, 1 M
/// uniform values, probe not committed), and the serial variants' `for_groups` (eight
/// values widened into an array, checked, then binned) 1.6× (`cargo bench --bench
/// discretize`: 1 M × 27 bins 2.12 against 1.32 ms).
const NAN_CHUNK: usize = 512;

/// Bins `values` by the bucket table of `edges` (checked first, as by every variant).
pub(crate) fn lookup(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
    check(values, edges, codes)?;
    let table = Table::new(edges);
    match values {
        Floats::F32(v) => table.run(v, codes, 0),
        Floats::F64(v) => table.run(v, codes, 0),
    }
}

/// A checked edge list's bucket table: each bucket's code (see [`Table::entries`]) and
/// the edges its entries name.
pub(crate) struct Table {
    /// The code of every value below a bucket's edges: the number of edges in lower
    /// buckets, so also the index of the bucket's first edge. The first entry stands for
    /// every bucket below the span, the last for every bucket above it.
    entries: Vec<u8>,
    /// The bucket below the span's lowest (the first entry's), as a number that may
    /// wrap: a bucket's entry is its distance from this one.
    before: usize,
    /// The highest float of the bucket below the span (`-∞` where that bucket holds no
    /// number): lower values, and NaN, are clamped up to it.
    below: f64,
    /// The lowest float of the bucket above the span (`+∞` where that bucket holds no
    /// number): higher values are clamped down to it.
    beyond: f64,
    /// A key's bucket is `key >> shift`.
    shift: u32,
    /// The edges (`-0.0` as `0.0`), then NaN: the edges from a bucket's first that a
    /// value is compared with are in bounds, and past the bucket's own edges lie edges
    /// of higher buckets or NaN, none of them `≤` its values (not even `+∞`), so they
    /// never count.
    padded: [f64; 2 * MAX_BINS],
    /// The most edges in one bucket (at least 1): how many edges from its first each
    /// value is compared with.
    width: usize,
}

impl Table {
    /// The table of `edges`, already checked (sorted, at most 255, no NaN).
    pub(crate) fn new(edges: &[f64]) -> Table {
        let mut padded = [f64::NAN; 2 * MAX_BINS];
        let mut keys = [0u64; MAX_BINS];
        for ((p, k), &e) in padded.iter_mut().zip(&mut keys).zip(edges) {
            // `-0.0 + 0.0` is `0.0`; every other edge stays as it is.
            *p = e + 0.0;
            *k = p.key();
        }
        let keys = &keys[..edges.len()];
        let shift = finest_shift(keys);
        let (entries, low) = entries(keys, shift);
        let width = fullest(keys, shift);
        let (below, beyond) = bounds(low, entries.len() - 3, shift);
        Table { entries, before: low.wrapping_sub(1), below, beyond, shift, padded, width }
    }

    /// Bins `values` into `codes`, refusing a NaN (the lowest row's, reported at
    /// `offset + row`; `codes` is then partly written).
    ///
    /// Where no bucket holds two edges, a value costs a key, a load, one compare and
    /// one add. Otherwise every value is searched among the `width` edges from its
    /// bucket's first, in the same steps whatever its bucket: a branch between the one-
    /// and the several-edge buckets mispredicted wherever values fell in both, as
    /// uniform values do from 33 bins up (`lookup` at 64 bins ran 4.5× slower than at
    /// 16, 7.8 against 1.7 ns a value).
    pub(crate) fn run<F: Float>(&self, values: &[F], codes: &mut [u8], offset: usize) -> Result<(), Error> {
        let (padded, width) = (&self.padded, self.width);
        let nan = if width == 1 {
            self.each(values, codes, |first, v| first.wrapping_add(u8::from(v >= padded[usize::from(first)])))
        } else {
            self.each(values, codes, |first, v| {
                let from = usize::from(first);
                first.wrapping_add(binary_one(&padded[from..from + width], v))
            })
        };
        if !nan {
            return Ok(());
        }
        let row = values.iter().position(|x| x.wide().is_nan()).unwrap_or(0);
        Err(Error::NotANumber { column: 0, row: offset + row })
    }

    /// `code(entry, value)` for every value; whether one was NaN. A NaN reads the first
    /// entry and gets a code the caller drops.
    #[inline]
    fn each<F: Float>(&self, values: &[F], codes: &mut [u8], code: impl Fn(u8, f64) -> u8) -> bool {
        let mut nan = false;
        for (codes, values) in codes.chunks_mut(NAN_CHUNK).zip(values.chunks(NAN_CHUNK)) {
            nan |= values.iter().fold(false, |any, x| any | x.wide().is_nan());
            for (c, x) in codes.iter_mut().zip(values) {
                let v = x.wide();
                *c = code(self.entries[self.slot(v)], v);
            }
        }
        nan
    }

    /// The entry of `v`'s bucket: the first below the span (and for NaN), the last
    /// above it. `v` is clamped into the buckets next to the span first, as a float:
    /// clamping the bucket index instead (`saturating_sub`, `min`) compiled to branches
    /// that mispredicted wherever values fall below and above the span alike (`lookup`
    /// at 57 415 values × 6 bins ran 270 µs against 74 µs with a full table), and a
    /// float's `max` and `min` are one instruction each.
    #[inline(always)]
    fn slot(&self, v: f64) -> usize {
        // Written so that a NaN `v` takes the lower bound.
        let v = if v > self.below { v } else { self.below };
        let v = if v < self.beyond { v } else { self.beyond };
        ((v.key() >> self.shift) as usize).wrapping_sub(self.before)
    }
}

/// The floats next to the span of buckets `low ..= low + span` at `shift`: the highest
/// of the bucket below and the lowest of the bucket above; `∓∞` where those buckets
/// hold only NaN keys (or lie outside the keys), so the span reaches that infinity.
fn bounds(low: usize, span: usize, shift: u32) -> (f64, f64) {
    let (lowest, highest) = (f64::NEG_INFINITY.key(), f64::INFINITY.key());
    let below = match ((low as u64) << shift).checked_sub(1) {
        Some(k) if k >= lowest => from_key(k),
        _ => f64::NEG_INFINITY,
    };
    let after = (low + span) as u64 + 1;
    let beyond = match after.checked_shl(shift).filter(|&k| k >> shift == after) {
        Some(k) if k <= highest => from_key(k),
        _ => f64::INFINITY,
    };
    (below, beyond)
}

/// The smallest shift whose buckets between the lowest and the highest key number at
/// most [`MAX_ENTRIES`] (63 without keys): the finest buckets a small table allows.
/// Finer buckets never hold more edges, so these hold the fewest.
fn finest_shift(sorted_keys: &[u64]) -> u32 {
    let (Some(&lo), Some(&hi)) = (sorted_keys.first(), sorted_keys.last()) else { return 63 };
    (0..63).find(|&s| (hi >> s) - (lo >> s) < MAX_ENTRIES).unwrap_or(63)
}

/// The entries (see [`Table::entries`]) of the buckets at `shift` from the lowest
/// key's to the highest's, between the two sentinels, and the lowest bucket (without
/// keys: one bucket, 0, and every code 0).
fn entries(sorted_keys: &[u64], shift: u32) -> (Vec<u8>, usize) {
    let (Some(&lo), Some(&hi)) = (sorted_keys.first(), sorted_keys.last()) else { return (vec![0; 3], 0) };
    let (low, high) = ((lo >> shift) as usize, (hi >> shift) as usize);
    // Slot 0 is the sentinel below; bucket `b` is slot `b - low + 1`. The slots past
    // the previous edge's, up to an edge's own, have that edge's index: the edges
    // before it are in lower buckets.
    let mut entries = vec![0u8; high - low + 3];
    let mut from = 1;
    for (i, &k) in sorted_keys.iter().enumerate() {
        let own = (k >> shift) as usize - low + 1;
        if own >= from {
            entries[from..=own].fill(i as u8);
            from = own + 1;
        }
    }
    entries[from..].fill(sorted_keys.len() as u8);
    (entries, low)
}

/// The most edges in one bucket at `shift` (at least 1), the two zeros' buckets
/// counted as one: keys are sorted, so a bucket's edges are a run.
fn fullest(sorted_keys: &[u64], shift: u32) -> usize {
    let (minus, plus) = ((-0.0f64).key() >> shift, 0.0f64.key() >> shift);
    let bucket = |k: &u64| if k >> shift == minus { plus } else { k >> shift };
    let (mut most, mut run, mut last) = (1, 0, None);
    for b in sorted_keys.iter().map(bucket) {
        run = if last == Some(b) { run + 1 } else { 1 };
        most = most.max(run);
        last = Some(b);
    }
    most
}

#[cfg(test)]
#[path = "lookup_tests.rs"]
mod tests;
