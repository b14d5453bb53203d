//! Why a capability is absent on this host: the answer of the one-time probe, kept as
//! a value so callers can match on it (skip, warn, fall back) and print it as is.

/// Why [`capability_available`](crate::capability_available) said no. The probe runs
/// once per process; the same answer is returned every time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unavailable {
    /// ktc was compiled without its `cuda` feature.
    #[error("ktc built without the `cuda` feature")]
    NotBuilt,
    /// `libcuda` could not be loaded.
    #[error("CUDA driver library (libcuda.so) not found")]
    NoDriver,
    /// `cuInit` returned an error.
    #[error("CUDA driver failed to initialise: {0}")]
    DriverInit(String),
    /// `cuInit` panicked inside cudarc (an unusable or mismatched library).
    #[error("CUDA driver library is unusable (cuInit panicked)")]
    DriverPanicked,
    /// `libnvrtc` could not be loaded.
    #[error("NVRTC library (libnvrtc.so) not found")]
    NoNvrtc,
    /// The driver works but lists no device.
    #[error("no CUDA device visible (no GPU, or CUDA_VISIBLE_DEVICES hides them)")]
    NoDevice,
}
