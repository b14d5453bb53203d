//! [`Floats`]: a continuous column, `f32` or `f64`, shared cheaply.

use std::sync::Arc;

/// A continuous column of `f32` or `f64` values (cheap to clone: the data is shared).
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
    F32(Arc<[f32]>),
    /// Double precision.
    F64(Arc<[f64]>),
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
        Floats::F32(v.into())
    }
}

impl From<Vec<f64>> for Floats {
    fn from(v: Vec<f64>) -> Self {
        Floats::F64(v.into())
    }
}

/// A value the discretisation reads: compared with the edges as `f64` (exact for both).
pub(crate) trait Float: Copy + Send + Sync + 'static {
    /// The value widened to `f64`.
    fn wide(self) -> f64;
}

impl Float for f32 {
    #[inline(always)]
    fn wide(self) -> f64 {
        f64::from(self)
    }
}

impl Float for f64 {
    #[inline(always)]
    fn wide(self) -> f64 {
        self
    }
}
