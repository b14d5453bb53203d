//! The shape check every `joint_hist_batched` variant runs first.

use crate::column::Shape;
use crate::{Codes, Error};

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
