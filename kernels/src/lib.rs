//! Real kernels built with ktc, starting with what MRMR feature selection needs: joint
//! histograms of discrete columns (CPU and CUDA variants), quantile discretisation,
//! mutual information and greedy MRMR selection.

pub mod binning;
pub mod column;
#[cfg(feature = "cuda")]
mod cuda;
pub mod data;
mod error;
mod floats;
pub mod joint_hist;
pub mod mi;
pub mod mrmr;
// Below `data` and `binning` (and their tests), which both draw from it.
mod rng;
mod share;

pub use binning::{Floats, discretize, quantile_codes, quantile_edges};
pub use column::{Codes, Residency};
pub use error::Error;
pub use joint_hist::joint_hist_batched;
