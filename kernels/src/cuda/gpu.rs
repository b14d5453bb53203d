//! The process-wide CUDA state, one per device: context, stream, compiled kernels,
//! device limits. Host-resident inputs run on `ktc::cuda_device()` (the device a sweep
//! tunes for), device-resident ones on the device that holds them.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};

use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream};
use cudarc::nvrtc::{CompileOptions, compile_ptx_with_opts};

use super::source::SOURCE;
use crate::Error;

/// One device, ready to launch the kernels of [`SOURCE`].
pub(crate) struct Gpu {
    /// The stream every copy and launch goes through (the context's default stream).
    pub(crate) stream: Arc<CudaStream>,
    /// Streaming multiprocessors, for sizing grids.
    pub(crate) sm_count: u32,
    /// Shared memory a block may use without opting in, in bytes.
    pub(crate) shared_bytes: usize,
    module: Arc<CudaModule>,
}

impl Gpu {
    /// A kernel of the compiled module by name.
    pub(crate) fn function(&self, name: &str) -> Result<CudaFunction, Error> {
        self.module.load_function(name).map_err(|e| Error::Cuda(format!("loading kernel `{name}`: {e}")))
    }
}

/// Devices beyond this ordinal are refused (no host has this many).
const MAX_DEVICES: usize = 64;

/// One slot per device ordinal, set up on first use.
static GPUS: [OnceLock<Result<Gpu, Error>>; MAX_DEVICES] = [const { OnceLock::new() }; MAX_DEVICES];

/// The GPU for host-resident inputs on this thread (`ktc::cuda_device()`).
pub(crate) fn gpu() -> Result<&'static Gpu, Error> {
    gpu_on(ktc::cuda_device())
}

/// Device `ordinal`'s GPU, set up on first use (a context, the module compiled for its
/// architecture); the reason when CUDA is unusable or the device does not exist. Never
/// panics: the capability probe runs before any cudarc call.
pub(crate) fn gpu_on(ordinal: usize) -> Result<&'static Gpu, Error> {
    ktc::capability_available(ktc::Capability::Cuda).map_err(|reason| Error::Cuda(reason.to_string()))?;
    let count = ktc::cuda_device_count();
    let slot = GPUS
        .get(ordinal)
        .filter(|_| ordinal < count)
        .ok_or_else(|| Error::Cuda(format!("CUDA device {ordinal} does not exist ({count} visible)")))?;
    let gpu = slot.get_or_init(|| {
        catch_unwind(AssertUnwindSafe(|| init(ordinal)))
            .unwrap_or_else(|_| Err(Error::Cuda("CUDA setup panicked inside cudarc".into())))
    });
    gpu.as_ref().map_err(Error::clone)
}

fn init(ordinal: usize) -> Result<Gpu, Error> {
    let ctx = CudaContext::new(ordinal)
        .map_err(|e| Error::Cuda(format!("creating a context on device {ordinal}: {e}")))?;
    let attr = |a| ctx.attribute(a).map_err(|e| Error::Cuda(format!("reading {a:?}: {e}")));
    let sm_count = u32::try_from(attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?).unwrap_or(1).max(1);
    let shared_bytes =
        usize::try_from(attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?).unwrap_or(0);
    let (major, minor) = (
        attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
    );
    // Compile for the device's own architecture; an NVRTC older than the device does
    // not know it, and then its default architecture's PTX (which the driver JITs
    // forward) does the job.
    let opts = |arch: Option<String>| CompileOptions {
        options: arch.into_iter().collect(),
        name: Some("ktc_kernels.cu".into()),
        ..CompileOptions::default()
    };
    let ptx = compile_ptx_with_opts(SOURCE, opts(Some(format!("--gpu-architecture=compute_{major}{minor}"))))
        .or_else(|_| compile_ptx_with_opts(SOURCE, opts(None)))
        .map_err(|e| Error::Cuda(format!("NVRTC compile: {e}")))?;
    let module =
        ctx.load_module(ptx).map_err(|e| Error::Cuda(format!("loading the compiled module: {e}")))?;
    Ok(Gpu { stream: ctx.default_stream(), sm_count, shared_bytes, module })
}
