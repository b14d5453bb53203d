//! How MRMR computes its histograms: through the tuned dispatcher, or with one variant
//! and block size forced (to compare the two, or to pin a choice).

use std::fmt;

use crate::joint_hist_batched::{self, Variant};
use crate::{Codes, Error};

/// The histogram kernel MRMR calls at each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HistStrategy {
    /// `joint_hist_batched::call`: the variant measured fastest on this host.
    #[default]
    Dispatched,
    /// `joint_hist_batched::call_with(variant, block_size, ..)`: a fixed choice;
    /// `None` takes the variant's first declared block size.
    Forced(Variant, Option<usize>),
}

impl HistStrategy {
    /// Every fixed choice there is: each variant with each of its block sizes (or none),
    /// in declaration order.
    pub fn all_forced() -> Vec<HistStrategy> {
        Variant::ALL
            .iter()
            .flat_map(|&v| match v.block_sizes() {
                [] => vec![HistStrategy::Forced(v, None)],
                sizes => sizes.iter().map(|&b| HistStrategy::Forced(v, Some(b))).collect(),
            })
            .collect()
    }

    /// Why this strategy cannot run on this host (a variant that needs CUDA where there
    /// is none); `None` when it can.
    pub fn unavailable_reason(self) -> Option<ktc::Unavailable> {
        match self {
            HistStrategy::Dispatched => None,
            HistStrategy::Forced(v, _) => {
                let tuner = joint_hist_batched::Variant::kernel();
                let index = Variant::ALL.iter().position(|&x| x == v)?;
                tuner.unavailable_reason(index)
            }
        }
    }

    /// Joint histograms of `y` against every column of `x` into `counts`
    /// (`counts[(j · kx + x) · ky + y]`, overwritten).
    pub fn joint_hist(self, y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
        match self {
            HistStrategy::Dispatched => joint_hist_batched::call(y, x, counts),
            HistStrategy::Forced(v, b) => joint_hist_batched::call_with(v, b, y, x, counts),
        }
    }
}

impl fmt::Display for HistStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistStrategy::Dispatched => f.write_str("dispatched (tuned)"),
            HistStrategy::Forced(v, None) => write!(f, "{}", v.name()),
            HistStrategy::Forced(v, Some(b)) => write!(f, "{} (block {b})", v.name()),
        }
    }
}
