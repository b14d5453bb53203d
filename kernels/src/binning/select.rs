//! Exact order statistics without a sort: the values at a few ranks of a column, found
//! by one counting pass over the top bits of an order-preserving key and a
//! `select_nth_unstable` inside the few buckets that hold the ranks.
//!
//! A full sort of 1M doubles takes about 60 ms; the counting pass and the selections in
//! the (typically ~1/1000 of the column) candidate buckets take a few. The answer is
//! exactly `sorted[rank]` whatever the distribution: a skewed column only makes the
//! candidate buckets larger, never the result different.

use crate::floats::Float;

/// Bits of the key that pick a bucket: 65 536 counters (256 KB, cache resident).
const BUCKET_BITS: u32 = 16;

/// `sorted[r]` for every rank `r` in `ranks` (each `< values.len()`), where `sorted` is
/// `values` in `f64::total_cmp` order, widened to `f64`. `values` must hold no NaN (the
/// caller checks: NaN has no rank that means anything).
pub(crate) fn values_at_ranks<F: Float>(values: &[F], ranks: &[usize]) -> Vec<f64> {
    let mut counts = vec![0u32; 1 << BUCKET_BITS];
    for v in values {
        counts[bucket(v.key())] += 1;
    }
    // Each rank's bucket, and its rank among that bucket's values.
    let mut starts = Vec::with_capacity(counts.len());
    let mut below = 0usize;
    for &c in &counts {
        starts.push(below);
        below += c as usize;
    }
    let located: Vec<(usize, usize)> = ranks
        .iter()
        .map(|&r| {
            let b = starts.partition_point(|&s| s <= r) - 1;
            (b, r - starts[b])
        })
        .collect();
    let mut wanted: Vec<usize> = located.iter().map(|&(b, _)| b).collect();
    wanted.sort_unstable();
    wanted.dedup();
    // Gather the candidate buckets' values in one pass.
    let mut slot_of = vec![u32::MAX; counts.len()];
    let mut gathered: Vec<Vec<F>> = Vec::with_capacity(wanted.len());
    for (slot, &b) in wanted.iter().enumerate() {
        slot_of[b] = slot as u32;
        gathered.push(Vec::with_capacity(counts[b] as usize));
    }
    for &v in values {
        let slot = slot_of[bucket(v.key())];
        if slot != u32::MAX {
            gathered[slot as usize].push(v);
        }
    }
    located
        .iter()
        .map(|&(b, r)| {
            let bucket = &mut gathered[slot_of[b] as usize];
            let (_, nth, _) = bucket.select_nth_unstable_by(r, |a, b| a.wide().total_cmp(&b.wide()));
            nth.wide()
        })
        .collect()
}

fn bucket(key: u64) -> usize {
    (key >> (64 - BUCKET_BITS)) as usize
}
