//! [`Floats`]: a continuous column, `f32` or `f64`, shared cheaply. Below both the
//! binning kernels and their CUDA variant, which share it.

use std::sync::Arc;

/// A continuous column of `f32` or `f64` values (cheap to clone: the data is shared).
/// An `Arc<Vec<_>>` rather than an `Arc<[_]>`, so a column read into a `Vec` becomes
/// one without copying it.
///
/// ```
/// use ktc_kernels::Floats;
///
/// let a = Floats::from(vec![0.5f32, 1.5]);
/// let b = Floats::from(vec![0.5f64, 1.5]);
/// assert_eq!((a.len(), b.len()), (2, 2));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Floats {
    /// Single precision.
    F32(Arc<Vec<f32>>),
    /// Double precision.
    F64(Arc<Vec<f64>>),
}

impl Floats {
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Floats::F32(v) => v.len(),
            Floats::F64(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl From<Vec<f32>> for Floats {
    fn from(v: Vec<f32>) -> Self {
        Floats::F32(Arc::new(v))
    }
}

impl From<Vec<f64>> for Floats {
    fn from(v: Vec<f64>) -> Self {
        Floats::F64(Arc::new(v))
    }
}

/// A value the discretisation reads: compared with the edges as `f64` (exact for both).
pub(crate) trait Float: Copy + Send + Sync + 'static {
    /// The value widened to `f64`.
    fn wide(self) -> f64;

    /// A key whose unsigned order is the value's `total_cmp` order, left-aligned in
    /// 64 bits (so its top bits are the sign, the exponent and the leading mantissa).
    fn key(self) -> u64;
}

/// Flips a float's bits into unsigned order: negative values (sign set) are all
/// inverted, so larger magnitudes sort lower; positive ones only get the sign set.
#[inline(always)]
fn ordered(bits: u64) -> u64 {
    if bits >> 63 == 1 { !bits } else { bits | 1 << 63 }
}

/// The `f64` whose [`Float::key`] is `key` (`ordered`'s inverse).
pub(crate) fn from_key(key: u64) -> f64 {
    f64::from_bits(if key >> 63 == 1 { key & !(1 << 63) } else { !key })
}

impl Float for f32 {
    #[inline(always)]
    fn wide(self) -> f64 {
        f64::from(self)
    }

    #[inline(always)]
    fn key(self) -> u64 {
        ordered(u64::from(self.to_bits()) << 32)
    }
}

impl Float for f64 {
    #[inline(always)]
    fn wide(self) -> f64 {
        self
    }

    #[inline(always)]
    fn key(self) -> u64 {
        ordered(self.to_bits())
    }
}
