//! A sweep job: what a kernel's sweep entry point ([`KernelInfo::sweep`](crate::KernelInfo::sweep))
//! is asked to do ([`SweepOptions`], [`SweepTask`], [`VerifyOptions`], [`CallPattern`]) and what it
//! returns ([`SweepReport`], [`VerifyReport`], [`PutOutcome`]).
//!
//! These types sit below both the registry, whose [`KernelInfo`](crate::KernelInfo) names them, and
//! the modules that run or read a job (`sweep`, `verify`, `remote`, `retune`, `cli`), so
//! every dependency runs one way. Their public paths are the re-exports in
//! [`ktc::sweep`](crate::sweep), [`ktc::verify`](crate::verify) and
//! [`ktc::remote`](crate::remote).

mod calls;
mod options;
mod progress;
mod verify;

pub use calls::CallPattern;
pub(crate) use calls::millis;
pub use options::{SweepMode, SweepOptions, SweepReport, SweepTask};
pub use progress::ProgressGroup;
pub use verify::{FixedComparison, FlaggedRegion, VerifiedPoint, VerifyOptions, VerifyReport};

/// What a create-only write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PutOutcome {
    /// This call created the object.
    Created,
    /// An object with that key was already there; it was left untouched.
    AlreadyPresent,
}
