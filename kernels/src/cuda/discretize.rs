//! The CUDA variant of `discretize`.

use cudarc::driver::{DeviceRepr, LaunchConfig, PushKernelArg};

use super::gpu::gpu;
use crate::Error;
use crate::floats::Floats;

fn driver(what: &'static str) -> impl Fn(cudarc::driver::DriverError) -> Error {
    move |e| Error::Cuda(format!("{what}: {e}"))
}

/// Copies values and edges to the device, bins them there, copies the codes back and
/// waits (the whole round trip is what the sweep measures).
pub(crate) fn discretize(
    values: &Floats,
    edges: &[f64],
    codes: &mut [u8],
    block: usize,
) -> Result<(), Error> {
    match values {
        Floats::F32(v) => run(v, "disc_f32", edges, codes, block),
        Floats::F64(v) => run(v, "disc_f64", edges, codes, block),
    }
}

fn run<F: DeviceRepr>(
    values: &[F],
    kernel: &str,
    edges: &[f64],
    codes: &mut [u8],
    block: usize,
) -> Result<(), Error> {
    let n = values.len();
    let gpu = gpu()?;
    if n == 0 {
        return Ok(());
    }
    let stream = &gpu.stream;
    let dv = stream.clone_htod(values).map_err(driver("copying values to the device"))?;
    // A one-element buffer stands in for no edges: a zero-length allocation is refused.
    let de = stream
        .clone_htod(if edges.is_empty() { &[0.0][..] } else { edges })
        .map_err(driver("copying edges"))?;
    let mut dc = stream.alloc_zeros::<u8>(n).map_err(driver("allocating codes"))?;
    let f = gpu.function(kernel)?;
    let block = block.clamp(32, 1024);
    let resident = gpu.sm_count as usize * (2048 / block).max(1);
    let cfg = LaunchConfig {
        grid_dim: (n.div_ceil(block).clamp(1, resident) as u32, 1, 1),
        block_dim: (block as u32, 1, 1),
        shared_mem_bytes: 0,
    };
    let (n32, m32) = (n as u32, edges.len() as u32);
    let mut b = stream.launch_builder(&f);
    b.arg(&dv).arg(&n32).arg(&de).arg(&m32).arg(&mut dc);
    // SAFETY: the arguments match `disc_f32`/`disc_f64` in `SOURCE` (values, n, edges,
    // m, codes); `codes` holds n bytes and the kernel reads `m` edges only when m ≥ 1.
    unsafe { b.launch(cfg) }.map_err(driver("launching the discretize kernel"))?;
    stream.memcpy_dtoh(&dc, codes).map_err(driver("copying codes to the host"))?;
    stream.synchronize().map_err(driver("waiting for the discretize kernel"))
}
