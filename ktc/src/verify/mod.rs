//! `verify`: is the stored tuning still right? Samples problem sizes inside the sweep's
//! range but off its grid (log-uniform on numeric axes), times the entry's choice
//! against every candidate there, and reports the regret `t(chosen) / t(fastest)` per
//! point, its geometric mean and worst, the regions whose regret exceeds a threshold,
//! and how tuned dispatch compares with always running each single candidate. Times are
//! the candidates' costs over interleaved rounds, as the sweep compares them (see
//! [`VerifiedPoint::times_ns`]), over [`VerifyOptions::looks`] looks at every point,
//! taken in passes over all points so that they lie seconds apart.
//! [`VerifyOptions::at`] measures given sizes instead of sampled ones: the sizes a
//! user's own job runs at.
//!
//! The drift check to run after a driver, BIOS or hardware change; `refine` then
//! re-sweeps only around the flagged points and writes a new entry.
//!
//! ```no_run
//! # fn demo(kernel: &'static ktc::KernelInfo) -> Result<(), ktc::Error> {
//! use ktc::verify::{VerifyOptions, verify};
//! let report = verify(kernel, &VerifyOptions::default(), &ktc::sweep::SweepOptions::from_env())?;
//! println!("{report}");
//! assert!(report.geomean_regret < 1.10);
//! # Ok(()) }
//! ```

pub use crate::job::{
    CallPattern, FixedComparison, FlaggedRegion, VerifiedPoint, VerifyOptions, VerifyReport,
};

use crate::Error;
use crate::registry::KernelInfo;
use crate::sweep::{SweepOptions, SweepReport, SweepTask};

/// Verifies the stored entry of `kernel` (this host's, or `sweep.fingerprint`'s, in
/// `sweep.cache_dir`): see the [module docs](self). Writes nothing. An error when no
/// current entry exists or no sampled point could be built.
pub fn verify(
    kernel: &'static KernelInfo,
    options: &VerifyOptions,
    sweep: &SweepOptions,
) -> Result<VerifyReport, Error> {
    let sweep = SweepOptions { task: SweepTask::Verify(options.clone()), ..sweep.clone() };
    let report = (kernel.sweep)(&sweep)?;
    report
        .verify
        .ok_or_else(|| Error::Sweep { kernel: kernel.name.into(), reason: "the sweep did not verify".into() })
}

/// Verifies, then re-sweeps around the flagged points only (the entry's other
/// measurements reused) and writes the refined table as a new entry. The report's
/// `verify` is the verification that led to it; when nothing was flagged, no entry is
/// written and the report names the entry verified.
pub fn refine(
    kernel: &'static KernelInfo,
    options: &VerifyOptions,
    sweep: &SweepOptions,
) -> Result<SweepReport, Error> {
    let sweep = SweepOptions { task: SweepTask::Refine(options.clone()), ..sweep.clone() };
    (kernel.sweep)(&sweep)
}
