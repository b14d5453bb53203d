//! The `lookup` variant of `discretize`: a value's code read from a table indexed by
//! the top 16 bits of its order-preserving key (the buckets of quantile selection).
//!
//! Every value of a bucket no edge falls in has one code (the number of edges in the
//! buckets below); a bucket with one edge has two, told apart by one compare. So where
//! no bucket holds two edges, a code costs a key, a shift, a load and a compare,
//! whatever the number of edges. Where some bucket does, every value is searched among
//! as many edges as the fullest bucket holds, from its bucket's first. The buckets of
//! ±0 (IEEE `0.0 <= -0.0` holds, the key order puts `-0.0` first) and those that may
//! hold a NaN (refused, as everywhere) take the binary search over every edge.

use super::cpu::binary_one;
use super::edges::{MAX_BINS, check};
use super::select::{BUCKETS, bucket};
use crate::Error;
use crate::floats::{Float, Floats};

/// A table entry's flag: the bucket's values need the binary search over every edge
/// (±0's buckets, or one that may hold a NaN).
const SEARCH: u32 = 1 << 16;

/// Bins `values` by the bucket table of `edges` (checked first, as by every variant).
pub(crate) fn lookup(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
    check(values, edges, codes)?;
    let table = Table::new(edges);
    match values {
        Floats::F32(v) => table.run(v, edges, codes, 0),
        Floats::F64(v) => table.run(v, edges, codes, 0),
    }
}

/// A checked edge list's bucket table (see [`table`]) and the edges its entries name.
pub(crate) struct Table {
    entries: Vec<u32>,
    /// The edges, then `+∞`: an entry's code is the index of the first edge not below
    /// its bucket, and the edges from there that a value is compared with are in
    /// bounds. Past a bucket's own edges lie edges of higher buckets, or `+∞`, all
    /// above its values, so they never count.
    padded: [f64; 2 * MAX_BINS],
    /// The most edges in one bucket (at least 1): how many edges from its first each
    /// value is compared with.
    width: usize,
}

impl Table {
    /// The table of `edges`, already checked (sorted, at most 255, no NaN).
    pub(crate) fn new(edges: &[f64]) -> Table {
        let mut padded = [f64::INFINITY; 2 * MAX_BINS];
        padded[..edges.len()].copy_from_slice(edges);
        let (entries, width) = table(edges);
        Table { entries, padded, width }
    }

    /// Bins `values` into `codes`, refusing a NaN (reported at `offset + row`).
    ///
    /// Where no bucket holds two edges, a value costs a key, a load, one compare and
    /// one add. Otherwise every value is searched among the `width` edges from its
    /// bucket's first, in the same steps whatever its bucket: a branch between the one-
    /// and the several-edge buckets mispredicted wherever values fell in both, as
    /// uniform values do from 33 bins up (`lookup` at 64 bins ran 4.5× slower than at
    /// 16, 7.8 against 1.7 ns a value).
    pub(crate) fn run<F: Float>(
        &self,
        values: &[F],
        edges: &[f64],
        codes: &mut [u8],
        offset: usize,
    ) -> Result<(), Error> {
        let (padded, width) = (&self.padded, self.width);
        if width == 1 {
            return self.each(values, edges, codes, offset, |first, v| {
                first.wrapping_add(u8::from(v >= padded[usize::from(first)]))
            });
        }
        self.each(values, edges, codes, offset, |first, v| {
            let from = usize::from(first);
            first.wrapping_add(binary_one(&padded[from..from + width], v))
        })
    }

    /// `code(entry, value)` for every value outside the [`SEARCH`] buckets (the entry
    /// is then the index of the bucket's first edge); those take the binary search over
    /// every edge, after the NaN check.
    #[inline]
    fn each<F: Float>(
        &self,
        values: &[F],
        edges: &[f64],
        codes: &mut [u8],
        offset: usize,
        code: impl Fn(u8, f64) -> u8,
    ) -> Result<(), Error> {
        for (row, (c, x)) in codes.iter_mut().zip(values).enumerate() {
            let v = x.wide();
            let entry = self.entries[bucket(v.key())];
            *c = if entry & SEARCH == 0 {
                code(entry as u8, v)
            } else if v.is_nan() {
                return Err(Error::NotANumber { column: 0, row: offset + row });
            } else {
                binary_one(edges, v)
            };
        }
        Ok(())
    }
}

/// Each bucket's entry, and the most edges in one bucket (at least 1). An entry is the
/// code of its values below its edges (the number of edges in lower buckets, so also
/// the index of its first edge), or the [`SEARCH`] flag.
///
/// Only the buckets from the lowest edge's to the highest's are counted; those below
/// are filled with code 0 and those above with the number of edges, each in one pass of
/// stores. Zeroing the whole table, then a prefix pass over all 65 536 entries, took
/// 28 µs a call on the 2-core development VM (a call at 1 000 values cost 28.5 µs, at
/// 25 000 values 58 µs); edges in (0, 1) span under a hundred buckets.
fn table(edges: &[f64]) -> (Vec<u32>, usize) {
    let (low, high) = span(edges);
    let mut table = Vec::with_capacity(BUCKETS);
    table.resize(high + 1, 0);
    count_edges(&mut table, edges);
    let width = table[low..].iter().copied().max().unwrap_or(0).max(1) as usize;
    let below = encode_prefix(&mut table[low..]);
    // Above the highest edge's bucket every edge is below.
    table.resize(BUCKETS, below);
    mark_search(&mut table);
    (table, width)
}

/// Counts each edge into its bucket's entry (`table` reaches the highest edge's bucket).
fn count_edges(table: &mut [u32], edges: &[f64]) {
    for e in edges {
        table[bucket(e.key())] += 1;
    }
}

/// Turns consecutive buckets' edge counts into their entries (see [`table`]), the first
/// with no edge below it; returns the number of edges counted.
fn encode_prefix(entries: &mut [u32]) -> u32 {
    let mut below = 0u32;
    for entry in entries {
        let here = *entry;
        *entry = below;
        below += here;
    }
    below
}

/// Flags the buckets whose values take the binary search: NaN keys lie above +∞'s
/// (bucket 0xFFF0) and below −∞'s (0x000F), and ±0 compare equal in different buckets.
fn mark_search(table: &mut [u32]) {
    for b in (0..=bucket(f64::NEG_INFINITY.key())).chain(bucket(f64::INFINITY.key())..BUCKETS) {
        table[b] = SEARCH;
    }
    table[bucket((-0.0f64).key())] = SEARCH;
    table[bucket(0.0f64.key())] = SEARCH;
}

/// The lowest and the highest bucket of an edge (`(0, 0)` without edges): below and
/// above them a bucket's code is the same for every value.
fn span(edges: &[f64]) -> (usize, usize) {
    let buckets = edges.iter().map(|e| bucket(e.key()));
    let low = buckets.clone().min().unwrap_or(0);
    let high = buckets.max().unwrap_or(0);
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table as it was built before: every entry zeroed, then one prefix pass over
    /// all of them.
    fn whole_prefix(edges: &[f64]) -> Vec<u32> {
        let mut table = vec![0u32; BUCKETS];
        count_edges(&mut table, edges);
        encode_prefix(&mut table);
        mark_search(&mut table);
        table
    }

    #[test]
    fn the_span_built_table_equals_the_whole_prefix() {
        let edge_sets: [&[f64]; 7] = [
            &[],
            &[0.25, 0.5, 0.75],
            &[-3.0, -1e-300, 0.0, 2.0],
            &[-0.0, 0.0],
            &[f64::NEG_INFINITY, 1.0, f64::INFINITY],
            &[1.0, 1.0, 1.0000001, 7.5],
            &[-5.0, -4.0],
        ];
        for edges in edge_sets {
            assert_eq!(table(edges).0, whole_prefix(edges), "edges {edges:?}");
        }
    }
}
