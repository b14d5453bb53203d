//! Provenance: what can change a kernel's behaviour or speed, and the `code_version`
//! hash of it that keys the cache.

use serde::{Deserialize, Serialize};

/// The kernel's own identity, known at compile time (the `#[tunable]` macro fills it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelIdentity {
    /// The defining crate's name (`CARGO_PKG_NAME`).
    pub crate_name: &'static str,
    /// The defining crate's version (`CARGO_PKG_VERSION`).
    pub crate_version: &'static str,
    /// A hash of the kernel's source tokens.
    pub source_hash: &'static str,
}

/// A GPU's summary as recorded in provenance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuSummary {
    /// The device name as the driver reports it.
    pub name: String,
    /// Compute capability, `"major.minor"`.
    pub compute_capability: String,
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Global memory in bytes.
    pub memory_bytes: u64,
}

/// Everything that can change a kernel's behaviour or speed. Its hash is the
/// [`code_version`](Provenance::code_version) that keys the cache.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// ktc's version.
    pub ktc_version: String,
    /// The kernel crate's name.
    pub kernel_crate: String,
    /// The kernel crate's version.
    pub kernel_crate_version: String,
    /// Hash of the kernel's source.
    pub source_hash: String,
    /// The rustc that built ktc (captured at build time).
    pub rustc_version: String,
    /// CUDA driver version, `None` without CUDA.
    #[serde(default)]
    pub cuda_driver: Option<String>,
    /// NVRTC version, `None` without NVRTC.
    #[serde(default)]
    pub nvrtc: Option<String>,
    /// The GPU the tuning is for, `None` without one.
    #[serde(default)]
    pub gpu: Option<GpuSummary>,
}

/// One provenance field that differs between a stored entry and this build/host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldChange {
    /// The field name, as in [`Provenance`].
    pub field: String,
    /// The stored value (`none` where absent).
    pub old: String,
    /// The current value (`none` where absent).
    pub new: String,
}

impl std::fmt::Display for FieldChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} → {}", self.field, self.old, self.new)
    }
}
