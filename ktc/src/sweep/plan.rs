//! What a sweep will measure: the grid points and the (variant, block size)
//! candidates that can run here.

use crate::Error;
use crate::entry::Exclusion;
use crate::registry::{GridValue, KernelInfo};

/// One (variant, block size) the sweep times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub variant: usize,
    pub block_size: Option<usize>,
}

/// The index in `candidates` of the one running `variant` (by name) with `block_size`:
/// how a stored entry's choices and measurements map back onto a sweep's candidates.
pub(crate) fn candidate_named(
    candidates: &[Candidate],
    tuner: &KernelInfo,
    variant: &str,
    block_size: Option<usize>,
) -> Option<usize> {
    candidates.iter().position(|c| tuner.variants[c.variant].name == variant && c.block_size == block_size)
}

/// The grid in row-major order (last axis fastest) and the candidates.
pub(crate) struct Plan {
    pub points: Vec<Vec<GridValue>>,
    pub candidates: Vec<Candidate>,
    /// The order in which candidates tied with the fastest win a point: the fallback
    /// variant's, the reference's, then the others in declaration order — so two sweeps
    /// on one host choose alike and a noise-level lead never displaces the default.
    /// Once the grid is measured, it is reordered by how each candidate does over the
    /// grid as a fixed choice (see `Sweeper::rank_by_grid`).
    pub preference: Vec<usize>,
    pub reference: usize,
    pub unavailable: Vec<Exclusion>,
}

impl Plan {
    pub(super) fn new(tuner: &KernelInfo) -> Result<Plan, Error> {
        if tuner.axes.iter().any(|a| a.grid.is_empty()) {
            let reason = "an axis has an empty sweep grid".into();
            return Err(Error::Sweep { kernel: tuner.name.to_string(), reason });
        }
        let mut candidates = Vec::new();
        let mut unavailable = Vec::new();
        for (index, variant) in tuner.variants.iter().enumerate() {
            if let Some(reason) = tuner.unavailable_reason(index) {
                unavailable.push(Exclusion {
                    variant: variant.name.into(),
                    block_size: None,
                    point: None,
                    reason: reason.to_string(),
                });
                continue;
            }
            if variant.block_sizes.is_empty() {
                candidates.push(Candidate { variant: index, block_size: None });
            }
            for &b in variant.block_sizes {
                candidates.push(Candidate { variant: index, block_size: Some(b) });
            }
        }
        let reference_variant = tuner.reference_index();
        let reference = candidates.iter().position(|c| c.variant == reference_variant).ok_or_else(|| {
            let reason =
                format!("the reference variant `{}` cannot run here", tuner.variants[reference_variant].name);
            Error::Sweep { kernel: tuner.name.to_string(), reason }
        })?;
        let fallback = tuner.fallback_index();
        let mut preference: Vec<usize> = (0..candidates.len()).collect();
        preference.sort_by_key(|&i| {
            (candidates[i].variant != fallback, candidates[i].variant != reference_variant)
        });
        Ok(Plan { points: grid_points(tuner), candidates, preference, reference, unavailable })
    }
}

/// Every point of the cartesian product of the axes' grids, last axis fastest.
fn grid_points(tuner: &KernelInfo) -> Vec<Vec<GridValue>> {
    let mut points = vec![Vec::new()];
    for axis in tuner.axes {
        points = points
            .into_iter()
            .flat_map(|prefix| {
                axis.grid.iter().map(move |v| {
                    let mut p = prefix.clone();
                    p.push(*v);
                    p
                })
            })
            .collect();
    }
    points
}
