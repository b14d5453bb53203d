//! The CUDA variants' entry points: shape check, then the `cuda` module; an error
//! value when the crate is built without the `cuda` feature.

use super::check::check;
use crate::{Codes, Error};

/// See `joint_hist_batched::cuda_shared`.
pub(crate) fn shared(y: &Codes, x: &Codes, counts: &mut [u32], block: usize) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    #[cfg(feature = "cuda")]
    return crate::cuda::joint_hist_shared(y, x, s, counts, block);
    #[cfg(not(feature = "cuda"))]
    {
        let _ = (s, block);
        Err(Error::Cuda("ktc-kernels built without the `cuda` feature".into()))
    }
}

/// See `joint_hist_batched::cuda_global`.
pub(crate) fn global(y: &Codes, x: &Codes, counts: &mut [u32], block: usize) -> Result<(), Error> {
    let s = check(y, x, counts)?;
    #[cfg(feature = "cuda")]
    return crate::cuda::joint_hist_global(y, x, s, counts, block);
    #[cfg(not(feature = "cuda"))]
    {
        let _ = (s, block);
        Err(Error::Cuda("ktc-kernels built without the `cuda` feature".into()))
    }
}
