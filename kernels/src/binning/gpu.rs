//! The CUDA variant's entry point: checks, then the `cuda` module; an error value
//! when the crate is built without the `cuda` feature.

use super::edges::check;
use crate::Error;
use crate::floats::Floats;

/// See `discretize::cuda`. NaN is looked for on the host first (part of the measured
/// time), so the policy is the same as on the CPU.
pub(crate) fn cuda(values: &Floats, edges: &[f64], codes: &mut [u8], block: usize) -> Result<(), Error> {
    check(values, edges, codes)?;
    let nan = match values {
        Floats::F32(v) => v.iter().position(|x| x.is_nan()),
        Floats::F64(v) => v.iter().position(|x| x.is_nan()),
    };
    if let Some(row) = nan {
        return Err(Error::NotANumber { column: 0, row });
    }
    #[cfg(feature = "cuda")]
    return crate::cuda::discretize(values, edges, codes, block);
    #[cfg(not(feature = "cuda"))]
    {
        let _ = block;
        Err(Error::Cuda("ktc-kernels built without the `cuda` feature".into()))
    }
}
