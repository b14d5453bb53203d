//! # ktc — a kernel tuning cache
//!
//! A crate that ships several variants of one hot kernel (CPU serial, CPU parallel,
//! CUDA shared-memory, CUDA global-atomic, each with block sizes) needs the fastest one
//! for the live hardware and problem size. ktc measures the variants, stores the
//! decision per hardware fingerprint and code version as immutable JSON files, and looks
//! it up at run time.
//!
//! This crate is the runtime: [`hw_fingerprint`], [`Provenance`] and its
//! [`code_version`](Provenance::code_version), [`DecisionTable`]s, the immutable
//! [`KernelTuningCache`] store, residency ([`location`]) and the kernel registry
//! ([`KERNELS`], [`discover_kernels`]).
//!
//! ```no_run
//! use ktc::{AxisValue, KernelTuningCache, Region};
//!
//! let cache = KernelTuningCache::load_or_create()?;
//! let regions = vec![
//!     Region::new("shared").block_size(256).at_most("n_samples", 200_000.0).at_most("joint_size", 25.0),
//!     Region::new("global").block_size(512),
//! ];
//! cache.write_table("joint_hist_batched", &["n_samples", "joint_size"], regions)?;
//! let found = cache.lookup(
//!     "joint_hist_batched",
//!     &[("n_samples", AxisValue::from(1_000_000)), ("joint_size", AxisValue::from(100))],
//! );
//! println!("{:?}", found.decision());
//! # Ok::<(), ktc::Error>(())
//! ```

// Lets `::ktc::...` paths (as generated code writes them) resolve inside this crate too.
extern crate self as ktc;

#[cfg(feature = "cli")]
pub mod cli;
mod cuda;
mod decision;
mod dispatch;
mod entry;
mod error;
mod fingerprint;
pub mod guide;
mod host_load;
mod job;
mod provenance;
mod registry;
pub mod remote;
mod residency;
pub mod resolve;
mod retune;
mod store;
pub mod sweep;
pub mod verify;
mod warn;

pub use cuda::{
    Capability, Unavailable, UnknownCapability, capability_available, cuda_device, cuda_device_count,
    with_cuda_device,
};
pub use decision::{
    Axis, AxisKind, AxisValue, CompiledTable, Condition, DecisionTable, GridValues, InvalidTable,
    KernelSchema, Region, Winner, compact_regions, grid_regions,
};
pub use dispatch::{Choice, ChoiceSource, Dispatch};
pub use entry::{Entry, Exclusion, Measurement, SCHEMA};
pub use error::Error;
pub use fingerprint::{hw_fingerprint, hw_fingerprint_for, normalize_cpu_model};
pub use host_load::{CpuTimes, HostLoad};
/// Turns a module of kernel variants into a tuned kernel (see the `ktc-macros` crate).
#[doc(inline)]
pub use ktc_macros::tunable;
pub use provenance::{BuildInfo, FieldChange, GpuSummary, KernelIdentity, Provenance, build_profile};
pub use registry::{AxisInfo, GridValue, KERNELS, KernelInfo, VariantInfo, discover_kernels};
pub use residency::{Locate, Location, location};
pub use retune::{Device, RetuneOptions, RetuneOutcome, RetuneSummary, devices_for, retune_all};
pub use store::{
    Ahead, EntryError, GcOptions, GcReport, KernelTuningCache, Listed, Lookup, LookupStatus, Skipped,
    now_rfc3339,
};
pub use warn::warn_once;

/// What generated code needs from ktc, under absolute paths. Not a public API: the
/// public modules can be reshaped without touching code `#[tunable]` generated, which
/// names only this module and the types in the user's own signatures ([`Choice`],
/// [`KernelInfo`]).
#[doc(hidden)]
pub mod __private {
    pub use crate::cuda::Capability;
    pub use crate::decision::{AxisKind, AxisValue};
    pub use crate::dispatch::Dispatch;
    pub use crate::error::Error;
    pub use crate::job::CallPattern;
    pub use crate::provenance::KernelIdentity;
    pub use crate::registry::{AxisInfo, GridValue, KERNELS, KernelInfo, VariantInfo};
    pub use crate::sweep::{
        Approx, FromGridValue, Harness, InputsError, SweepOptions, SweepReport, run as sweep, tune_in_test,
    };
    pub use crate::{build_info, test_build};
    pub use linkme;
    pub use std::sync::OnceLock;
}
