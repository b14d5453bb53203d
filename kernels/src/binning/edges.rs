//! Quantile edges, and the checks every discretisation variant makes.

use super::select::values_at_ranks;
use crate::Error;
use crate::floats::{Float, Floats};

/// The most bins a code (`u8`) can name.
pub const MAX_BINS: usize = 256;

/// The `k − 1` edges that cut `values` into `k` bins of (as near as ties allow) equal
/// counts: edge `i` (1 ≤ i < k) is the sorted value at position `⌊i·n/k⌋`, so
/// `#{v < edge_i} ≤ ⌊i·n/k⌋ < #{v ≤ edge_i}`. A value's bin is the number of edges
/// `≤` it ([`crate::discretize`]). Ties can repeat an edge; the bins between equal
/// edges stay empty.
///
/// NaN anywhere is [`Error::NotANumber`] (a NaN has no place in an order); `k = 0` is
/// [`Error::ZeroBins`], `k > 256` [`Error::TooLarge`] (codes are `u8`); no values is a
/// [`Error::LengthMismatch`] (there is nothing to take quantiles of).
///
/// ```
/// let edges = ktc_kernels::quantile_edges(&[4.0f64, 1.0, 3.0, 2.0].to_vec().into(), 2)?;
/// assert_eq!(edges, [3.0]); // {1, 2} | {3, 4}
/// # Ok::<(), ktc_kernels::Error>(())
/// ```
pub fn quantile_edges(values: &Floats, k: usize) -> Result<Vec<f64>, Error> {
    check_k(k)?;
    match values {
        Floats::F32(v) => edges_of(v, k),
        Floats::F64(v) => edges_of(v, k),
    }
}

/// The edges by selection ([`values_at_ranks`], which also finds a NaN), after the
/// emptiness check.
fn edges_of<F: Float>(values: &[F], k: usize) -> Result<Vec<f64>, Error> {
    if values.is_empty() {
        return Err(Error::LengthMismatch { what: "values to take quantiles of", expected: 1, found: 0 });
    }
    let n = values.len();
    let ranks: Vec<usize> = (1..k).map(|i| i * n / k).collect();
    values_at_ranks(values, &ranks).map_err(|row| Error::NotANumber { column: 0, row })
}

fn check_k(k: usize) -> Result<(), Error> {
    if k == 0 {
        return Err(Error::ZeroBins);
    }
    if k > MAX_BINS {
        return Err(Error::TooLarge { what: "bins", size: k, max: MAX_BINS });
    }
    Ok(())
}

/// What every variant checks first (O(k)): at most 255 edges, none NaN, sorted; one
/// output code per value.
pub(crate) fn check(values: &Floats, edges: &[f64], codes: &[u8]) -> Result<(), Error> {
    check_k(edges.len() + 1)?;
    if let Some(row) = edges.iter().position(|e| e.is_nan()) {
        return Err(Error::NotANumber { column: 0, row });
    }
    if let Some(i) = edges.windows(2).position(|w| w[0] > w[1]) {
        return Err(Error::Unsorted { what: "edges", index: i + 1 });
    }
    if codes.len() != values.len() {
        return Err(Error::LengthMismatch {
            what: "codes (one per value)",
            expected: values.len(),
            found: codes.len(),
        });
    }
    Ok(())
}
