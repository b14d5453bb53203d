//! The shape check every `joint_hist_batched` variant runs first.

use crate::{Codes, Error};

/// The dimensions of one `joint_hist_batched` call, once validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Samples per column.
    pub n: usize,
    /// Feature columns.
    pub p: usize,
    /// Bins of the features.
    pub kx: usize,
    /// Bins of the target.
    pub ky: usize,
}

impl Shape {
    /// Counters per feature: `kx · ky`.
    pub fn joint(&self) -> usize {
        self.kx * self.ky
    }
}

/// Checks that `y` is one column as long as `x`'s, that both reside in the same
/// place, that `counts` holds `p · kx · ky` counters and that `n` fits the `u32`
/// counters.
pub fn check(y: &Codes, x: &Codes, counts: &[u32]) -> Result<Shape, Error> {
    if y.n_cols() != 1 {
        return Err(Error::LengthMismatch { what: "target columns", expected: 1, found: y.n_cols() });
    }
    if y.n_rows() != x.n_rows() {
        return Err(Error::LengthMismatch {
            what: "feature column length (must equal the target's)",
            expected: y.n_rows(),
            found: x.n_rows(),
        });
    }
    if ktc::location(y) != ktc::location(x) {
        return Err(Error::ResidencyMismatch);
    }
    let max = u32::MAX as usize;
    if y.n_rows() > max {
        return Err(Error::TooLarge { what: "samples", size: y.n_rows(), max });
    }
    let shape = Shape { n: y.n_rows(), p: x.n_cols(), kx: x.bins(), ky: y.bins() };
    let expected = shape.joint().checked_mul(shape.p).ok_or(Error::TooLarge {
        what: "counters",
        size: usize::MAX,
        max: usize::MAX,
    })?;
    if counts.len() != expected {
        return Err(Error::LengthMismatch {
            what: "counts (features × kx × ky)",
            expected,
            found: counts.len(),
        });
    }
    Ok(shape)
}
