//! Two feature columns per pass: each sample's `(xa, xb, y)` triple is counted once
//! into a `kx · kx · ky` table, and both columns' `kx · ky` tables are its marginals.
//! One increment then serves two features, which halves the counting, the cost that
//! bounds a histogram loop. The triple table grows as `kx² · ky` (MRMR's 8 × 8 tables
//! make 512 counters); up to 65 536 counters (256 KB, L2) pairs still win (at 100 000
//! samples: 2.1× at 16 × 16, 1.6× at 32 × 32, 1.35× at 40 × 40), and since indices are
//! `u16`, beyond that each column is counted alone. The kernel's `pair_table` axis is
//! this table's size: pairing's cost follows `kx² · ky`, not `kx · ky`, so a tuning
//! keyed on the joint size would give 14 × 14 (2 744 counters) the decision measured
//! at 181 × 1 (32 761).

use super::count::{column, count_into, fold_four, four_tables};
use crate::column::{Code, Shape};

/// The largest triple table counted in one pass: 256 KB of counters, indices `< 2¹⁶`.
const MAX_TRIPLES: usize = 1 << 16;

/// Triple tables up to this size are counted four-way (`4 ×` the table, ≤ 16 KB):
/// small tables are where consecutive samples hit the same counter.
const MAX_FOUR_WAY: usize = 1024;

/// Samples whose table indices are computed at once.
const CHUNK: usize = 2048;

/// Counts columns `first, first + 1, …` of `xs` against `ys` into `tables` (their
/// `kx · ky` tables back to back, zeroed), two columns per pass where the triple table
/// fits, the odd one out (or every one, where it does not fit) alone.
pub(super) fn count_columns<Y: Code, X: Code>(
    ys: &[Y],
    xs: &[X],
    s: Shape,
    first: usize,
    tables: &mut [u32],
    scratch: &mut Vec<u32>,
) {
    let joint = s.joint();
    let fits = s.pair_table() <= MAX_TRIPLES;
    let mut j = first;
    let mut pairs = tables.chunks_exact_mut(2 * joint);
    if fits {
        for pair in &mut pairs {
            let (ta, tb) = pair.split_at_mut(joint);
            count_pair(ys, column(xs, s, j), column(xs, s, j + 1), s, ta, tb, scratch);
            j += 2;
        }
    }
    let rest = if fits { pairs.into_remainder() } else { tables };
    for table in rest.chunks_exact_mut(joint) {
        count_into(ys, column(xs, s, j), s.ky, table, scratch);
        j += 1;
    }
}

/// Adds the counts of columns `xa` and `xb` against `ys` to `ta` and `tb`.
fn count_pair<Y: Code, X: Code>(
    ys: &[Y],
    xa: &[X],
    xb: &[X],
    s: Shape,
    ta: &mut [u32],
    tb: &mut [u32],
    scratch: &mut Vec<u32>,
) {
    let (kx, ky) = (s.kx, s.ky);
    let len = s.pair_table();
    // Four tables only pay where the column is long next to them (zeroing and summing
    // them is `O(len)`).
    let ways = if len <= MAX_FOUR_WAY && ys.len() >= 64 * len { 4 } else { 1 };
    scratch.clear();
    scratch.resize(ways * len, 0);
    // Two phases per chunk: the chunk's table indices first, in a loop the compiler
    // vectorises, then the increments, which then load one index each instead of
    // three codes (loads, not arithmetic, bound the counting loop).
    let (kxky, ky16) = ((kx * ky) as u16, ky as u16);
    let mut index = [0u16; CHUNK];
    let n = ys.len().min(xa.len()).min(xb.len());
    for start in (0..n).step_by(CHUNK) {
        let end = (start + CHUNK).min(n);
        let index = &mut index[..end - start];
        for (((i, &y), &a), &b) in
            index.iter_mut().zip(&ys[start..end]).zip(&xa[start..end]).zip(&xb[start..end])
        {
            *i = a.index() as u16 * kxky + b.index() as u16 * ky16 + y.index() as u16;
        }
        if ways == 4 {
            let [t0, t1, t2, t3] = four_tables(scratch, len);
            let quads = index.chunks_exact(4);
            for &i in quads.remainder() {
                t0[usize::from(i)] += 1;
            }
            for q in quads {
                t0[usize::from(q[0])] += 1;
                t1[usize::from(q[1])] += 1;
                t2[usize::from(q[2])] += 1;
                t3[usize::from(q[3])] += 1;
            }
        } else {
            for &i in index.iter() {
                scratch[usize::from(i)] += 1;
            }
        }
    }
    if ways == 4 {
        fold_four(scratch, len);
    }
    // The marginals: `(a, b, y)` counts towards `ta[a, y]` and `tb[b, y]`.
    for (a, block) in scratch[..len].chunks_exact(kx * ky).enumerate() {
        for (b, row) in block.chunks_exact(ky).enumerate() {
            for (y, &c) in row.iter().enumerate() {
                ta[a * ky + y] += c;
                tb[b * ky + y] += c;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joint_hist::count::count_column;
    use crate::joint_hist::inputs::Lcg;

    /// Every column counted alone, the reference's way.
    fn one_by_one(ys: &[u8], xs: &[u8], s: Shape) -> Vec<u32> {
        let mut counts = vec![0u32; s.p * s.joint()];
        for (j, table) in counts.chunks_exact_mut(s.joint()).enumerate() {
            count_column(ys, column(xs, s, j), s.ky, table);
        }
        counts
    }

    #[test]
    fn pairs_count_what_single_columns_count() {
        let mut rng = Lcg::new(7);
        // Four-way and plain triple tables, an odd column out, the largest tables that
        // pair, tables too big to pair, a column shorter than four samples.
        for (n, p, kx, ky) in [
            (5000, 5, 2, 2),
            (5000, 4, 8, 8),
            (300, 3, 8, 8),
            (2000, 3, 40, 40),
            (2000, 3, 256, 2),
            (3, 2, 3, 2),
        ] {
            let ys: Vec<u8> = (0..n).map(|_| rng.below(ky) as u8).collect();
            let xs: Vec<u8> = (0..n * p).map(|_| rng.below(kx) as u8).collect();
            let s = Shape { n, p, kx, ky };
            let mut counts = vec![0u32; p * s.joint()];
            count_columns(&ys, &xs, s, 0, &mut counts, &mut Vec::new());
            assert_eq!(counts, one_by_one(&ys, &xs, s), "n={n} p={p} kx={kx} ky={ky}");
        }
    }
}
