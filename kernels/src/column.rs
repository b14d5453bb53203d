//! Discrete columns for the histogram kernels: [`Codes`], `rows × columns` bin codes
//! (`u8` or `u16`, column-major) with a declared number of bins, on the host or on a
//! CUDA device.
//!
//! Every code is checked against the declared bins once, when the value is built, so
//! the kernels can index tables with the codes directly; a `Codes` value that exists is
//! valid. Clones are cheap (the data is shared), which also keeps the sweep's per-run
//! clone of its inputs out of the way.

use std::fmt;
use std::sync::Arc;

use crate::Error;

/// A bin code: `u8` (up to 256 bins) or `u16` (up to 65 536).
pub trait Code: Copy + Send + Sync + 'static {
    /// The code as a table index.
    fn index(self) -> usize;
}

impl Code for u8 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Code for u16 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

/// Borrowed host codes of either width.
#[derive(Clone, Copy, Debug)]
pub enum HostCodes<'a> {
    /// One byte per code.
    U8(&'a [u8]),
    /// Two bytes per code.
    U16(&'a [u16]),
}

#[cfg(feature = "cuda")]
/// Device-resident codes of either width (device 0's default stream).
pub(crate) enum DeviceCodes {
    /// One byte per code.
    U8(cudarc::driver::CudaSlice<u8>),
    /// Two bytes per code.
    U16(cudarc::driver::CudaSlice<u16>),
}

/// Where a [`Codes`] value keeps its data.
#[derive(Clone)]
pub(crate) enum Storage {
    /// Host memory, one byte per code. A `Vec` behind the `Arc`, so that the codes a
    /// binning pass wrote become a `Codes` without a copy (an `Arc<[u8]>` from a `Vec`
    /// copies: for 1M × 30 codes, 30 MB copied and faulted in, serially).
    HostU8(Arc<Vec<u8>>),
    /// Host memory, two bytes per code.
    HostU16(Arc<[u16]>),
    /// A CUDA device's memory.
    #[cfg(feature = "cuda")]
    Device(Arc<DeviceCodes>),
}

/// `n_rows × n_cols` bin codes, column-major (column `j` is rows `j·n_rows ..
/// (j+1)·n_rows`), every code below `bins`.
///
/// ```
/// use ktc_kernels::Codes;
///
/// // Two features of three samples each, 4 bins.
/// let x = Codes::from_u8(vec![0, 1, 3, 2, 2, 0], 3, 2, 4)?;
/// assert_eq!((x.n_rows(), x.n_cols(), x.bins()), (3, 2, 4));
/// assert!(Codes::from_u8(vec![4], 1, 1, 4).is_err(), "code 4 with 4 bins");
/// # Ok::<(), ktc_kernels::Error>(())
/// ```
#[derive(Clone)]
pub struct Codes {
    pub(crate) storage: Storage,
    n_rows: usize,
    n_cols: usize,
    bins: usize,
}

impl Codes {
    /// Host codes, one byte each: `data.len()` must be `n_rows · n_cols` and every
    /// code below `bins` (`1..=256`).
    pub fn from_u8(data: Vec<u8>, n_rows: usize, n_cols: usize, bins: usize) -> Result<Self, Error> {
        check(&data, n_rows, n_cols, bins)?;
        Ok(Codes { storage: Storage::HostU8(data.into()), n_rows, n_cols, bins })
    }

    /// Host codes, two bytes each; as [`from_u8`](Self::from_u8), `bins` up to 65 536.
    pub fn from_u16(data: Vec<u16>, n_rows: usize, n_cols: usize, bins: usize) -> Result<Self, Error> {
        check(&data, n_rows, n_cols, bins)?;
        Ok(Codes { storage: Storage::HostU16(data.into()), n_rows, n_cols, bins })
    }

    /// One host column of one-byte codes (the usual shape of a target `y`).
    pub fn column_u8(data: Vec<u8>, bins: usize) -> Result<Self, Error> {
        let n = data.len();
        Self::from_u8(data, n, 1, bins)
    }

    /// Samples per column.
    pub fn n_rows(&self) -> usize {
        self.n_rows
    }

    /// Number of columns.
    pub fn n_cols(&self) -> usize {
        self.n_cols
    }

    /// Declared number of bins; every code is below it.
    pub fn bins(&self) -> usize {
        self.bins
    }

    /// The codes, when they are on the host.
    pub fn host(&self) -> Option<HostCodes<'_>> {
        match &self.storage {
            Storage::HostU8(d) => Some(HostCodes::U8(d)),
            Storage::HostU16(d) => Some(HostCodes::U16(d)),
            #[cfg(feature = "cuda")]
            Storage::Device(_) => None,
        }
    }

    /// Column `j` as a one-column value of the same width, on the host (a copy of
    /// `n_rows` codes); `None` when `j` is out of range or the codes are on a device.
    pub fn host_column(&self, j: usize) -> Option<Codes> {
        if j >= self.n_cols {
            return None;
        }
        let rows = j * self.n_rows..(j + 1) * self.n_rows;
        let storage = match self.host()? {
            HostCodes::U8(d) => Storage::HostU8(d[rows].to_vec().into()),
            HostCodes::U16(d) => Storage::HostU16(d[rows].into()),
        };
        Some(Codes { storage, n_rows: self.n_rows, n_cols: 1, bins: self.bins })
    }

    /// Builds a value around storage whose codes are already known to be valid.
    pub(crate) fn from_parts(storage: Storage, n_rows: usize, n_cols: usize, bins: usize) -> Self {
        Codes { storage, n_rows, n_cols, bins }
    }
}

/// Without the `cuda` feature there is no device: moving codes there is an error value,
/// and host codes are already where they are. (With it, `crate::cuda` implements both.)
#[cfg(not(feature = "cuda"))]
impl Codes {
    /// The same codes on CUDA device 0: an [`Error::Cuda`] in a build without the
    /// `cuda` feature.
    pub fn to_device(&self) -> Result<Codes, Error> {
        Err(Error::Cuda("ktc-kernels built without the `cuda` feature".into()))
    }

    /// The same codes on the host (a cheap clone: without `cuda` they are always there).
    pub fn to_host(&self) -> Result<Codes, Error> {
        Ok(self.clone())
    }
}

/// The dimensions of one `joint_hist_batched` call, once validated: `kx, ky ≥ 1`
/// ([`Codes`] refuse zero bins).
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

    /// Counters of the two-feature table `pairs` counts into: `kx · kx · ky` (the
    /// kernel's `pair_table` axis).
    pub fn pair_table(&self) -> usize {
        self.kx * self.joint()
    }
}

impl ktc::Locate for Codes {
    fn location(&self) -> ktc::Location {
        match self.storage {
            Storage::HostU8(_) | Storage::HostU16(_) => ktc::Location::Host,
            #[cfg(feature = "cuda")]
            Storage::Device(_) => ktc::Location::Device,
        }
    }
}

impl fmt::Debug for Codes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Codes")
            .field("n_rows", &self.n_rows)
            .field("n_cols", &self.n_cols)
            .field("bins", &self.bins)
            .field("location", &ktc::location(self))
            .finish_non_exhaustive()
    }
}

/// Shape and range check, once per value; reports the first bad code.
fn check<T: Code + Into<u32>>(data: &[T], n_rows: usize, n_cols: usize, bins: usize) -> Result<(), Error> {
    if bins == 0 {
        return Err(Error::ZeroBins);
    }
    let expected = n_rows.checked_mul(n_cols).ok_or(Error::TooLarge {
        what: "rows × columns",
        size: usize::MAX,
        max: usize::MAX,
    })?;
    if data.len() != expected {
        return Err(Error::LengthMismatch { what: "codes (rows × columns)", expected, found: data.len() });
    }
    if let Some(i) = data.iter().position(|c| c.index() >= bins) {
        // A position exists only in non-empty data, so `n_rows ≥ 1` here.
        let (column, row) = (i / n_rows.max(1), i % n_rows.max(1));
        return Err(Error::CodeOutOfRange { column, row, code: data[i].into(), bins });
    }
    Ok(())
}

/// A residency grid label (`host` / `device`) for a sweep's `#[inputs]`: `device`
/// converts only where CUDA is usable, so a sweep on a host without one skips the
/// device points and records why, instead of measuring host data under a device
/// label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Residency(pub ktc::Location);

impl ktc::sweep::FromGridValue for Residency {
    fn from_grid_value(value: ktc::GridValue) -> Result<Self, ktc::sweep::GridValueError> {
        let loc = ktc::Location::from_grid_value(value)?;
        if loc == ktc::Location::Device {
            ktc::capability_available(ktc::Capability::Cuda)
                .map_err(ktc::sweep::GridValueError::DeviceUnavailable)?;
        }
        Ok(Residency(loc))
    }
}

impl Residency {
    /// `codes` moved to this residency. A failed upload (out of device memory, say)
    /// keeps the host copy with a warning: `#[inputs]` cannot fail, and the warning
    /// says which measurements are then of host data.
    pub fn place(self, codes: Codes) -> Codes {
        if self.0 == ktc::Location::Host {
            return codes;
        }
        match codes.to_device() {
            Ok(device) => device,
            Err(e) => {
                ktc::warn_once(format!("sweep inputs stay on the host: {e}"));
                codes
            }
        }
    }
}
