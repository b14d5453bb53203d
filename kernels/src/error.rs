//! The one error type of the kernels: bad input and device failures are values, never
//! panics.

use std::fmt;

/// Why a kernel call (or building its input) was refused or failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A column type was declared with zero bins: no code can be valid.
    ZeroBins,
    /// A code is not below its column's declared number of bins.
    CodeOutOfRange {
        /// The column (0-based) holding the code.
        column: usize,
        /// The row (sample) of the code.
        row: usize,
        /// The code found.
        code: u32,
        /// The declared number of bins.
        bins: usize,
    },
    /// Two lengths that must agree do not (columns of different lengths, an output of
    /// the wrong size, a buffer that is not `rows × columns`).
    LengthMismatch {
        /// What was being compared.
        what: &'static str,
        /// The length required.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// A value the kernel cannot place (e.g. NaN in `discretize`).
    NotANumber {
        /// The column of the value.
        column: usize,
        /// The row of the value.
        row: usize,
    },
    /// A sequence that must be sorted is not (the first element out of order).
    Unsorted {
        /// Which sequence.
        what: &'static str,
        /// The first index whose element is below its predecessor.
        index: usize,
    },
    /// Inputs in different places (one on the host, one on a device, or two devices).
    ResidencyMismatch,
    /// A problem too large for the kernel's counters (counts are `u32`).
    TooLarge {
        /// What is too large.
        what: &'static str,
        /// Its size.
        size: usize,
        /// The largest size supported.
        max: usize,
    },
    /// The CUDA driver, NVRTC or a launch failed; the message says which.
    Cuda(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ZeroBins => f.write_str("a column was declared with 0 bins"),
            Error::CodeOutOfRange { column, row, code, bins } => {
                write!(f, "code {code} at column {column}, row {row} is not below the {bins} declared bins")
            }
            Error::LengthMismatch { what, expected, found } => {
                write!(f, "{what}: expected length {expected}, found {found}")
            }
            Error::NotANumber { column, row } => write!(f, "NaN at column {column}, row {row}"),
            Error::Unsorted { what, index } => write!(f, "{what} are not sorted (at index {index})"),
            Error::ResidencyMismatch => f.write_str("inputs reside in different places (host/device)"),
            Error::TooLarge { what, size, max } => write!(f, "{what} of {size} exceeds the supported {max}"),
            Error::Cuda(msg) => write!(f, "CUDA: {msg}"),
        }
    }
}

impl std::error::Error for Error {}
