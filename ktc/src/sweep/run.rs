//! A sweep's entry point: the generated `ktc_sweep` test calls [`run`], which tunes,
//! verifies or refines as the options ask.

use super::harness::Harness;
use super::{SweepOptions, SweepReport, SweepTask};
use crate::Error;
use crate::registry::KernelInfo;

/// Sweeps `kernel` through `harness` and writes one entry to the store (or,
/// as `options.task` asks, verifies the stored entry, or refines it).
///
/// For each grid point: build the inputs, verify every available (variant, block
/// size) against the reference, time them in interleaved rounds until the winner's
/// lead is outside the noise (dropping clearly slower candidates early). A candidate
/// whose output ever differs from the reference's is excluded everywhere and reported
/// with the grid point. Then, unless `options.grid_only`, wherever neighbouring points
/// along a numeric axis accept no common decision, the geometric midpoint is measured,
/// recursively, until the crossover is bracketed within a factor of 1.25 or the budget
/// ends; the region bound goes at the bracket's geometric middle. Brackets wider than
/// 4× are measured at their middle even where their ends agree, and any crossover that
/// shows is bracketed in turn. With the budget left,
/// points whose decision is a close call get up to two further looks, merged with the
/// first. Each point's winner is the preferred candidate (the best fixed choice over
/// the grid; then fallback, reference, declaration order) among those tied with the
/// fastest; regions merge only where every covered measured point keeps a decision
/// within 2% of its fastest.
///
/// A point whose inputs cannot be built here (`harness.build` says why: e.g. a
/// `device` label on a host without a device) is skipped and recorded in
/// [`Entry::excluded`](crate::Entry::excluded) with variant `*`, the point and the
/// reason; regions are derived on the sub-grid of measured points. The table may then
/// extend the measured winners to a skipped label, as it extends them beyond a numeric
/// grid's top; such inputs cannot exist on this host anyway. A sweep where no point can
/// be built fails.
pub fn run<H: Harness>(
    kernel: &'static KernelInfo,
    harness: &H,
    options: &SweepOptions,
) -> Result<SweepReport, Error> {
    // Every CUDA variant measured here runs on the device the entry is for.
    let _device = crate::cuda::DeviceScope::enter(options.device);
    match &options.task {
        SweepTask::Tune => super::tune::tune(kernel, harness, options, None),
        SweepTask::Verify(verify) => super::verify::verify(kernel, harness, options, verify),
        SweepTask::Refine(verify) => super::reseed::refine_flagged(kernel, harness, options, verify),
    }
}
