//! Many columns to quantile-bin codes at once: edges by selection and the tuned
//! `discretize` kernel, in parallel across columns.

use rayon::prelude::*;

use super::edges::quantile_edges;
use crate::Error;
use crate::floats::Floats;

/// Bins every column of `columns` (all of one length `n`) into `bins` quantile bins:
/// the codes column-major (`n · columns.len()` bytes, column `j` at `j·n..(j+1)·n`).
/// Each column gets its own [`quantile_edges`], and `discretize::call` (the variant
/// tuned for this host) places the values.
///
/// ```
/// use ktc_kernels::{Floats, quantile_codes};
///
/// let a = Floats::from(vec![0.5f64, 0.1, 0.9, 0.3]);
/// let b = Floats::from(vec![4.0f32, 3.0, 2.0, 1.0]);
/// assert_eq!(quantile_codes(&[a, b], 2)?, [1, 0, 1, 0, 1, 1, 0, 0]);
/// # Ok::<(), ktc_kernels::Error>(())
/// ```
///
/// Errors as [`quantile_edges`] and `discretize`, with `column` set to the column's
/// index: NaN, `bins` outside `1..=256`, columns of different lengths or none with
/// values.
pub fn quantile_codes(columns: &[Floats], bins: usize) -> Result<Vec<u8>, Error> {
    let n = columns.first().map_or(0, Floats::len);
    if let Some(bad) = columns.iter().find(|c| c.len() != n) {
        return Err(Error::LengthMismatch { what: "columns to bin", expected: n, found: bad.len() });
    }
    let mut codes = vec![0u8; n * columns.len()];
    if n == 0 {
        return Ok(codes);
    }
    let results: Vec<Result<(), Error>> = codes
        .par_chunks_mut(n)
        .zip(columns.par_iter())
        .enumerate()
        .map(|(j, (out, values))| bin_column(values, bins, out).map_err(|e| in_column(e, j)))
        .collect();
    results.into_iter().collect::<Result<(), Error>>()?;
    Ok(codes)
}

/// One column of [`quantile_codes`], into `out` (one code per value): its
/// [`quantile_edges`], then the tuned `discretize`.
///
/// Called inside a parallel loop over columns, the tuned variant at n = 1M and 8 bins
/// is a serial one (`lookup`); where the table picks a parallel one for a shape, its
/// chunks join the outer loop's in rayon's pool, which keeps both levels busy.
pub(crate) fn bin_column(values: &Floats, bins: usize, out: &mut [u8]) -> Result<(), Error> {
    let edges = quantile_edges(values, bins)?;
    super::discretize::call(values, &edges, out)
}

/// Names the column in an error the per-column kernels report as column 0.
fn in_column(e: Error, j: usize) -> Error {
    match e {
        Error::NotANumber { row, .. } => Error::NotANumber { column: j, row },
        other => other,
    }
}
