//! Mutual information and entropy from joint histograms (counts), in **nats** (natural
//! log).
//!
//! The original mRMR code reports bits (it divides by `ln 2`); MID's ranking is the same
//! in either unit, and MIQ's ranking is kept identical by scaling its small denominator
//! guard with the unit (see [`crate::mrmr`]).
//!
//! ```
//! use ktc_kernels::mi::{entropy, mutual_information};
//!
//! // x and y identical, two equally likely values: I(X;Y) = H(X) = ln 2.
//! let counts = [5, 0, 0, 5]; // counts[x * ky + y], kx = ky = 2
//! let mi = mutual_information(&counts, 2, 2)?;
//! assert!((mi - std::f64::consts::LN_2).abs() < 1e-12);
//! assert!((entropy(&[5, 5]) - std::f64::consts::LN_2).abs() < 1e-12);
//! # Ok::<(), ktc_kernels::Error>(())
//! ```

use crate::Error;

/// Shannon entropy, in nats, of the distribution given by `counts` (any layout: only the
/// cells matter). Empty or all-zero counts have entropy 0.
pub fn entropy(counts: &[u32]) -> f64 {
    let total: f64 = counts.iter().map(|&c| f64::from(c)).sum();
    if total == 0.0 {
        return 0.0;
    }
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / total;
            -p * p.ln()
        })
        .sum()
}

/// I(X;Y) in nats from one joint histogram laid out `counts[x * ky + y]` (the layout of
/// one feature's block in [`joint_hist_batched`](crate::joint_hist_batched)).
///
/// `Σ p(x,y) · ln(p(x,y) / (p(x) p(y)))` over the non-empty cells, with probabilities
/// taken as counts over the total; an all-zero table has I = 0. The result is clamped at
/// 0 from below, because rounding can leave `-1e-17` where the true value is 0.
///
/// Errors: `counts.len() != kx * ky`.
pub fn mutual_information(counts: &[u32], kx: usize, ky: usize) -> Result<f64, Error> {
    // Saturating: no slice is usize::MAX long, so an overflowing product is a mismatch.
    let expected = kx.saturating_mul(ky);
    if counts.len() != expected {
        return Err(Error::LengthMismatch {
            what: "joint histogram (kx · ky)",
            expected,
            found: counts.len(),
        });
    }
    Ok(mi_unchecked(counts, kx, ky))
}

/// I(X_j;Y) for every feature block of a batched histogram of `p` features, laid out
/// `counts[(j * kx + x) * ky + y]`.
///
/// Errors: `counts.len() != p * kx * ky`.
pub fn mutual_information_batched(counts: &[u32], p: usize, kx: usize, ky: usize) -> Result<Vec<f64>, Error> {
    let block = kx.saturating_mul(ky);
    let expected = block.saturating_mul(p);
    if counts.len() != expected || (block == 0 && p > 0) {
        return Err(Error::LengthMismatch {
            what: "batched joint histograms (p · kx · ky)",
            expected,
            found: counts.len(),
        });
    }
    if p == 0 {
        return Ok(Vec::new());
    }
    Ok(counts.chunks_exact(block).map(|c| mi_unchecked(c, kx, ky)).collect())
}

/// The formula, on a table whose length is known to be `kx * ky`.
fn mi_unchecked(counts: &[u32], kx: usize, ky: usize) -> f64 {
    // Marginals in u64: a table's total can exceed u32 only across features, but summing
    // in integers keeps the marginals exact whatever the count.
    let mut px = vec![0u64; kx];
    let mut py = vec![0u64; ky];
    for (x, row) in counts.chunks_exact(ky.max(1)).enumerate().take(kx) {
        for (y, &c) in row.iter().enumerate() {
            px[x] += u64::from(c);
            py[y] += u64::from(c);
        }
    }
    let total: u64 = px.iter().sum();
    if total == 0 {
        return 0.0;
    }
    let n = total as f64;
    let mut mi = 0.0;
    for (x, row) in counts.chunks_exact(ky.max(1)).enumerate().take(kx) {
        for (y, &c) in row.iter().enumerate() {
            if c > 0 {
                let c = f64::from(c);
                // p(x,y) / (p(x) p(y)) = c · n / (n_x · n_y)
                mi += c / n * (c * n / (px[x] as f64 * py[y] as f64)).ln();
            }
        }
    }
    mi.max(0.0)
}
