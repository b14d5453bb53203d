//! Exact order statistics without a sort: the values at a few ranks of a column, found
//! in (usually) one pass over the column.
//!
//! Every value's bucket is the top 16 bits of an order-preserving key. A strided
//! sample predicts which buckets hold the wanted ranks (with a margin of three
//! standard deviations of a sample quantile); the one pass then counts every bucket
//! exactly, gathers the values of the predicted buckets, and notes whether a NaN may be
//! present, all at once. The exact counts name each rank's bucket; a
//! `select_nth_unstable` among that bucket's values gives the answer. A rank whose
//! bucket the sample missed (rare; a column too small to sample has every rank
//! "missed") gets one more gathering pass: the answer is exactly `sorted[rank]`
//! whatever the distribution, the sample only decides how many passes it takes.
//!
//! A full sort of 1M doubles takes about 60 ms; this takes about one pass.

use crate::floats::Float;

/// Bits of the key that pick a bucket: 65 536 counters (256 KB, cache resident).
const BUCKET_BITS: u32 = 16;
pub(super) const BUCKETS: usize = 1 << BUCKET_BITS;

/// Values sampled to predict the ranks' buckets: enough that three standard deviations
/// of a sample quantile are under 1 % of the column, few enough to cost ~0.1 ms.
const SAMPLE: usize = 1 << 15;

/// Columns shorter than this are not sampled (two passes over a short column cost
/// less than a sample worth having).
const SAMPLE_FROM: usize = 4 * SAMPLE;

/// Buckets that can hold a NaN, for `f64` and `f32` keys alike: a NaN's exponent bits
/// are all ones, so its key lies above `+∞`'s (bucket `0xFFF0` for `f64`, `0xFF80`
/// for `f32`) or below `−∞`'s. Finite values land here only beyond ±2¹⁰¹⁶ (`f64`): a
/// count here costs one NaN scan, never a wrong answer.
const NAN_LOW: usize = 0x007F;
const NAN_HIGH: usize = 0xFF80;

/// `sorted[r]` for every rank `r` in `ranks` (each `< values.len()`), where `sorted` is
/// `values` in `f64::total_cmp` order, widened to `f64`; or `Err(row)`, the first row
/// holding a NaN (a NaN has no rank that means anything).
pub(crate) fn values_at_ranks<F: Float>(values: &[F], ranks: &[usize]) -> Result<Vec<f64>, usize> {
    let mut counts = vec![0u32; BUCKETS];
    let mut predicted = predict(values, ranks, &mut counts);
    let gathered = match &predicted {
        Some(p) => match count_and_gather(values, &p.marked, p.capacity, &mut counts) {
            Some(gathered) => gathered,
            // The sample's buckets held more than it said: every rank is missed.
            None => {
                predicted = None;
                Vec::new()
            }
        },
        None => {
            values.iter().for_each(|v| counts[bucket(v.key())] += 1);
            Vec::new()
        }
    };
    let maybe_nan = counts[..=NAN_LOW].iter().chain(&counts[NAN_HIGH..]).any(|&c| c != 0);
    if maybe_nan && let Some(row) = values.iter().position(|v| v.wide().is_nan()) {
        return Err(row);
    }
    let starts = exclusive_prefix(&counts);
    // Each rank's bucket, and its rank among that bucket's values.
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
    let marked = |b: usize| predicted.as_ref().is_some_and(|p| p.marked[b] != 0);
    let (found, missed): (Vec<usize>, Vec<usize>) = (0..wanted.len()).partition(|&i| marked(wanted[i]));
    // The wanted buckets' values, one after another (`offsets[i]..offsets[i + 1]`),
    // then one slot that takes every value of no wanted bucket.
    let mut offsets = Vec::with_capacity(wanted.len() + 1);
    let mut total = 0;
    for &b in &wanted {
        offsets.push(total);
        total += counts[b] as usize;
    }
    offsets.push(total);
    let mut members = match values.first() {
        Some(&v) => vec![v; total + 1],
        None => Vec::new(),
    };
    // A wanted bucket the sample marked: its values are among the gathered ones; one
    // the sample missed: one more pass over the column.
    if !found.is_empty() {
        scatter(&gathered, &wanted, &found, &offsets, &mut members);
    }
    drop(gathered);
    if !missed.is_empty() {
        scatter(values, &wanted, &missed, &offsets, &mut members);
    }
    Ok(located
        .iter()
        .map(|&(b, r)| {
            let i = wanted.partition_point(|&w| w < b);
            let bucket = &mut members[offsets[i]..offsets[i + 1]];
            let (_, nth, _) = bucket.select_nth_unstable_by(r, |a, b| a.wide().total_cmp(&b.wide()));
            nth.wide()
        })
        .collect())
}

/// Copies the values of `from` that lie in the buckets `wanted[i]`, `i` in `these`,
/// to their places in `members` (bucket `i` at `offsets[i]..offsets[i + 1]`, sized by
/// the exact counts). Every value is stored: one of no such bucket goes to the spare
/// last slot and its cursor does not move, so the loop has no data-dependent branch.
fn scatter<F: Float>(from: &[F], wanted: &[usize], these: &[usize], offsets: &[usize], members: &mut [F]) {
    let spare = members.len() - 1;
    // Cursor 0 is the spare slot's; bucket `i`'s is `i + 1`.
    let mut cursor: Vec<usize> =
        std::iter::once(spare).chain(offsets[..wanted.len()].iter().copied()).collect();
    let mut index_of = vec![0u32; BUCKETS];
    for &i in these {
        index_of[wanted[i]] = i as u32 + 1;
    }
    for &v in from {
        let i = index_of[bucket(v.key())] as usize;
        let at = cursor[i];
        members[at] = v;
        cursor[i] = at + usize::from(i != 0);
    }
}

/// The pass: every value's bucket counted, the values of the `marked` buckets gathered
/// (all together, at most `capacity`; `None` if they are more). The store is
/// unconditional and only the length depends on the mark, so the pass has no branch a
/// random column mispredicts.
fn count_and_gather<F: Float>(
    values: &[F],
    marked: &[u8],
    capacity: usize,
    counts: &mut [u32],
) -> Option<Vec<F>> {
    let first = *values.first()?;
    let mut gathered = vec![first; capacity.max(1)];
    let mut len = 0;
    for (row, &v) in values.iter().enumerate() {
        let b = bucket(v.key());
        counts[b] += 1;
        gathered[len] = v;
        len += usize::from(marked[b]);
        if len == gathered.len() {
            // Full: count the rest; the caller falls back to a pass per missed bucket.
            values[row + 1..].iter().for_each(|v| counts[bucket(v.key())] += 1);
            return None;
        }
    }
    gathered.truncate(len);
    Some(gathered)
}

/// The buckets a sample predicts for the ranks: `marked[b]` is 1 for a bucket in one
/// rank's range, else 0; `capacity` bounds the values in them, with room for the
/// sample's error.
struct Prediction {
    marked: Vec<u8>,
    capacity: usize,
}

/// Samples `values` (`SAMPLE` rows, evenly spaced) into `counts` (left zeroed again) and
/// turns each rank's sample positions, ± three standard deviations, into a range of
/// buckets. `None` where sampling does not pay: a short column, or ranges that would
/// gather over half the column (heavy ties, many ranks).
fn predict<F: Float>(values: &[F], ranks: &[usize], counts: &mut [u32]) -> Option<Prediction> {
    let n = values.len();
    if n < SAMPLE_FROM || ranks.is_empty() {
        return None;
    }
    for i in 0..SAMPLE {
        // Row ⌊i·n / SAMPLE⌋, without overflow: the sample spans the whole column.
        counts[bucket(values[i * (n / SAMPLE) + i * (n % SAMPLE) / SAMPLE].key())] += 1;
    }
    let starts = exclusive_prefix(counts);
    let bucket_at = |position: usize| starts.partition_point(|&s| s <= position) - 1;
    let mut marked = vec![0u8; BUCKETS];
    for &r in ranks {
        let q = r as f64 / n as f64;
        let at = q * SAMPLE as f64;
        // A sample quantile's standard deviation is √(s·q·(1 − q)) positions.
        let margin = 3.0 * (at * (1.0 - q)).sqrt() + 2.0;
        let lo = (at - margin).floor().max(0.0) as usize;
        let hi = ((at + margin).ceil() as usize).min(SAMPLE - 1);
        marked[bucket_at(lo)..=bucket_at(hi)].fill(1);
    }
    let sampled: usize = counts.iter().zip(&marked).map(|(&c, &m)| c as usize * usize::from(m)).sum();
    counts.fill(0);
    if sampled > SAMPLE / 2 {
        return None;
    }
    let expected = sampled * (n / SAMPLE + 1);
    let capacity = (expected + expected / 4).min(n) + 1024;
    Some(Prediction { marked, capacity })
}

/// Where each bucket's values start in sorted order.
fn exclusive_prefix(counts: &[u32]) -> Vec<usize> {
    let mut below = 0usize;
    counts
        .iter()
        .map(|&c| {
            let start = below;
            below += c as usize;
            start
        })
        .collect()
}

pub(super) fn bucket(key: u64) -> usize {
    (key >> (64 - BUCKET_BITS)) as usize
}

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
