//! Capabilities and the CUDA probe: the only module that touches cudarc.
//!
//! cudarc loads `libcuda` and `libnvrtc` at run time and **panics** (rather than
//! returning `Err`) from `CudaContext::new`, `CudaContext::device_count` and
//! `compile_ptx` when a library is missing. So each library is probed once with
//! `is_culib_present()`, the answer is kept for the life of the process, and nothing else
//! in cudarc is called unless the probe said yes. Whatever could still panic inside
//! cudarc (a symbol missing from an old `libcuda`, say) runs under
//! [`catch_unwind`](std::panic::catch_unwind) and counts as absent.
//!
//! The probe uses the driver API directly (`cuInit`, `cuDeviceGet*`) rather than
//! `CudaContext::new`: reading a device's name and attributes needs no context, and a
//! primary context costs time and device memory.

mod current;
mod unavailable;

use std::fmt;
use std::str::FromStr;

pub(crate) use current::{DeviceScope, other_device_selected};
pub use current::{cuda_device, with_cuda_device};
pub use unavailable::Unavailable;

/// A GPU's summary as recorded in provenance and used in fingerprints. It lives here,
/// with the probe that fills it, so that provenance (above) imports the probe and never
/// the reverse.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

impl fmt::Display for GpuSummary {
    /// `NAME cc X.Y, N SMs, M GiB`, e.g. `NVIDIA H200 cc 9.0, 132 SMs, 139.8 GiB`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gib = self.memory_bytes as f64 / f64::from(1u32 << 30);
        write!(f, "{} cc {}, {} SMs, {gib:.1} GiB", self.name, self.compute_capability, self.sm_count)
    }
}

/// A capability a variant may require; a variant whose capability is absent is skipped,
/// with the reason from [`capability_available`].
///
/// ```
/// use ktc::Capability;
///
/// let cap: Capability = "cuda".parse().unwrap();
/// assert_eq!(cap, Capability::Cuda);
/// assert_eq!(cap.name(), "cuda");
/// assert!("opencl".parse::<Capability>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capability {
    /// A CUDA driver, NVRTC and at least one device.
    Cuda,
}

impl Capability {
    /// Every capability, in declaration order.
    pub const ALL: &'static [Capability] = &[Capability::Cuda];

    /// The name used in `#[variant(requires = ...)]`, messages and [`FromStr`].
    pub const fn name(self) -> &'static str {
        match self {
            Capability::Cuda => "cuda",
        }
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing an unknown capability name; it names the valid ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCapability(pub String);

impl fmt::Display for UnknownCapability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown capability `{}`, expected one of:", self.0)?;
        for (i, cap) in Capability::ALL.iter().enumerate() {
            write!(f, "{} `{}`", if i == 0 { "" } else { "," }, cap.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownCapability {}

impl FromStr for Capability {
    type Err = UnknownCapability;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Capability::ALL
            .iter()
            .copied()
            .find(|cap| cap.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownCapability(s.to_owned()))
    }
}

/// `Ok(())` when `cap` is usable on this host, else why it is not ([`Unavailable`],
/// which prints as e.g. "CUDA driver library (libcuda.so) not found"). Never panics,
/// whatever is or is not installed; the probe runs once per process.
///
/// ```
/// use ktc::{Capability, capability_available};
///
/// match capability_available(Capability::Cuda) {
///     Ok(()) => println!("CUDA variants will be measured"),
///     Err(reason) => println!("CUDA variants skipped: {reason}"),
/// }
/// ```
pub fn capability_available(cap: Capability) -> Result<(), Unavailable> {
    match cap {
        Capability::Cuda => imp::cuda_available(),
    }
}

/// Visible CUDA devices (0 without a driver, without devices, or built without the
/// `cuda` feature).
pub fn cuda_device_count() -> usize {
    imp::device_count()
}

/// Whether the CUDA driver library can be loaded (probed once).
#[allow(dead_code)]
pub(crate) fn driver_present() -> bool {
    imp::driver_present()
}

/// Whether the NVRTC library can be loaded (probed once).
#[allow(dead_code)]
pub(crate) fn nvrtc_present() -> bool {
    imp::nvrtc_present()
}

/// Visible CUDA devices; 0 without a driver or when it fails to initialise.
pub(crate) fn device_count() -> usize {
    imp::device_count()
}

/// Name, compute capability, SM count and memory of device `ordinal`; `None` without a
/// driver or for an ordinal out of range. Cached per ordinal.
pub(crate) fn gpu_summary(ordinal: usize) -> Option<GpuSummary> {
    imp::gpu_summary(ordinal)
}

/// The CUDA driver's version, `"major.minor"` (e.g. `"12.8"`); `None` without a driver.
pub(crate) fn driver_version() -> Option<String> {
    imp::driver_version()
}

/// NVRTC's version, `"major.minor"`; `None` without NVRTC.
pub(crate) fn nvrtc_version() -> Option<String> {
    imp::nvrtc_version()
}

/// Formats a CUDA version integer (`1000 * major + 10 * minor`) as `"major.minor"`.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
fn format_cuda_version(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

#[cfg(feature = "cuda")]
mod imp {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::sync::{LazyLock, OnceLock};

    use cudarc::driver::{result, sys};
    use cudarc::nvrtc;

    use super::format_cuda_version;
    use super::{GpuSummary, Unavailable};

    /// Runs `f`, turning a panic inside cudarc into `None`.
    fn guarded<T>(f: impl FnOnce() -> T) -> Option<T> {
        catch_unwind(AssertUnwindSafe(f)).ok()
    }

    static DRIVER_PRESENT: LazyLock<bool> =
        // SAFETY: only tries to load the library; no symbol is resolved or called.
        LazyLock::new(|| guarded(|| unsafe { sys::is_culib_present() }).unwrap_or(false));

    static NVRTC_PRESENT: LazyLock<bool> =
        // SAFETY: as above, for libnvrtc.
        LazyLock::new(|| guarded(|| unsafe { nvrtc::sys::is_culib_present() }).unwrap_or(false));

    /// `cuInit(0)` once; the reason when the driver is absent or refuses.
    static INIT: LazyLock<Result<(), Unavailable>> = LazyLock::new(|| {
        if !*DRIVER_PRESENT {
            return Err(Unavailable::NoDriver);
        }
        match guarded(result::init) {
            Some(Ok(())) => Ok(()),
            Some(Err(e)) => Err(Unavailable::DriverInit(e.to_string())),
            None => Err(Unavailable::DriverPanicked),
        }
    });

    static DEVICE_COUNT: LazyLock<usize> = LazyLock::new(|| {
        if INIT.is_err() {
            return 0;
        }
        match guarded(result::device::get_count) {
            Some(Ok(n)) => usize::try_from(n).unwrap_or(0),
            _ => 0,
        }
    });

    /// One slot per visible device, filled on first request.
    static SUMMARIES: LazyLock<Vec<OnceLock<Option<GpuSummary>>>> =
        LazyLock::new(|| (0..*DEVICE_COUNT).map(|_| OnceLock::new()).collect());

    pub(super) fn driver_present() -> bool {
        *DRIVER_PRESENT
    }

    pub(super) fn nvrtc_present() -> bool {
        *NVRTC_PRESENT
    }

    pub(super) fn device_count() -> usize {
        *DEVICE_COUNT
    }

    pub(super) fn cuda_available() -> Result<(), Unavailable> {
        INIT.clone()?;
        if !*NVRTC_PRESENT {
            return Err(Unavailable::NoNvrtc);
        }
        if *DEVICE_COUNT == 0 {
            return Err(Unavailable::NoDevice);
        }
        Ok(())
    }

    pub(super) fn gpu_summary(ordinal: usize) -> Option<GpuSummary> {
        SUMMARIES.get(ordinal)?.get_or_init(|| guarded(|| query_summary(ordinal)).flatten()).clone()
    }

    fn query_summary(ordinal: usize) -> Option<GpuSummary> {
        use sys::CUdevice_attribute as A;
        let dev = result::device::get(i32::try_from(ordinal).ok()?).ok()?;
        let name = result::device::get_name(dev).ok()?;
        // SAFETY: `dev` came from `cuDeviceGet` after a successful `cuInit`.
        let attr = |a| unsafe { result::device::get_attribute(dev, a) }.ok();
        let major = attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
        let minor = attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
        let sm_count = attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        // SAFETY: as above.
        let memory = unsafe { result::device::total_mem(dev) }.ok()?;
        Some(GpuSummary {
            name: name.trim().to_owned(),
            compute_capability: format!("{major}.{minor}"),
            sm_count: u32::try_from(sm_count).ok()?,
            memory_bytes: memory as u64,
        })
    }

    pub(super) fn driver_version() -> Option<String> {
        static VERSION: LazyLock<Option<String>> = LazyLock::new(|| {
            if !*DRIVER_PRESENT {
                return None;
            }
            guarded(|| {
                let mut v = 0;
                // SAFETY: writes one int; needs no cuInit.
                unsafe { sys::cuDriverGetVersion(&mut v) }.result().ok().map(|()| format_cuda_version(v))
            })
            .flatten()
        });
        VERSION.clone()
    }

    pub(super) fn nvrtc_version() -> Option<String> {
        static VERSION: LazyLock<Option<String>> = LazyLock::new(|| {
            if !*NVRTC_PRESENT {
                return None;
            }
            guarded(|| {
                let (mut major, mut minor) = (0, 0);
                // SAFETY: writes two ints.
                unsafe { nvrtc::sys::nvrtcVersion(&mut major, &mut minor) }
                    .result()
                    .ok()
                    .map(|()| format!("{major}.{minor}"))
            })
            .flatten()
        });
        VERSION.clone()
    }
}

#[cfg(not(feature = "cuda"))]
mod imp {
    use super::{GpuSummary, Unavailable};

    pub(super) fn driver_present() -> bool {
        false
    }

    pub(super) fn nvrtc_present() -> bool {
        false
    }

    pub(super) fn device_count() -> usize {
        0
    }

    pub(super) fn cuda_available() -> Result<(), Unavailable> {
        Err(Unavailable::NotBuilt)
    }

    pub(super) fn gpu_summary(_ordinal: usize) -> Option<GpuSummary> {
        None
    }

    pub(super) fn driver_version() -> Option<String> {
        None
    }

    pub(super) fn nvrtc_version() -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_version_format() {
        assert_eq!(format_cuda_version(12080), "12.8");
        assert_eq!(format_cuda_version(11040), "11.4");
        assert_eq!(format_cuda_version(13000), "13.0");
    }

    #[test]
    fn capability_parse_roundtrip() {
        for &cap in Capability::ALL {
            assert_eq!(cap.name().parse::<Capability>(), Ok(cap));
            assert_eq!(cap.to_string(), cap.name());
        }
        assert_eq!("CUDA".parse::<Capability>(), Ok(Capability::Cuda));
        let err = "rocm".parse::<Capability>().unwrap_err();
        assert_eq!(err.to_string(), "unknown capability `rocm`, expected one of: `cuda`");
    }

    #[test]
    fn probe_never_panics_and_agrees_with_itself() {
        let available = capability_available(Capability::Cuda);
        if !driver_present() {
            assert_eq!(device_count(), 0);
            assert!(gpu_summary(0).is_none());
            assert!(driver_version().is_none());
            assert!(available.is_err());
        }
        if device_count() == 0 {
            assert!(available.is_err());
        }
        assert!(gpu_summary(usize::MAX).is_none());
        let _ = (nvrtc_present(), nvrtc_version());
    }
}
