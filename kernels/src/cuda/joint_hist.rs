//! The CUDA variants of `joint_hist_batched`: launches and their grids.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, DeviceRepr, LaunchConfig, PushKernelArg};

use super::codes::{gpu_for, upload};
use super::gpu::Gpu;
use crate::column::{DeviceCodes, Shape, Storage};
use crate::{Codes, Error};

/// Grid rows per launch: CUDA's limit on `gridDim.y`.
const MAX_GRID_Y: usize = 65_535;

/// `y` and `x` on the device: borrowed when already there, uploaded otherwise (the
/// upload is part of the measured time of a host-resident call).
fn on_device(gpu: &Gpu, codes: &Codes) -> Result<Arc<DeviceCodes>, Error> {
    match &codes.storage {
        Storage::Device(d) => Ok(d.clone()),
        _ => Ok(Arc::new(upload(gpu, codes.host().ok_or(Error::ResidencyMismatch)?)?)),
    }
}

fn driver(what: &'static str) -> impl Fn(cudarc::driver::DriverError) -> Error {
    move |e| Error::Cuda(format!("{what}: {e}"))
}

/// Global atomics: one thread per (sample, feature) pair, grid-stride, grid sized to
/// fill every SM.
pub(crate) fn joint_hist_global(
    y: &Codes,
    x: &Codes,
    s: Shape,
    counts: &mut [u32],
    block: usize,
) -> Result<(), Error> {
    let gpu = gpu_for(&[y, x])?;
    if nothing_to_count(s, counts) {
        return Ok(());
    }
    let (yd, xd) = (on_device(gpu, y)?, on_device(gpu, x)?);
    let mut dev = gpu.stream.alloc_zeros::<u32>(counts.len()).map_err(driver("allocating counts"))?;
    let f = gpu.function(&name("jh_global", &yd, &xd))?;
    let cfg = config(gpu, block, s.n * s.p, 1, 0);
    let (n, p, ky, joint) = (s.n as u32, s.p as u32, s.ky as u32, s.joint() as u32);
    launch(gpu, &f, &yd, &xd, [n, p, ky, joint], &mut dev, cfg)?;
    finish(gpu, &dev, counts)
}

/// Shared-memory privatised tables, merged into global memory. Where the table does
/// not fit the device's shared memory it falls back to [`joint_hist_global`] (a
/// warning says so once): the result is the same, and the sweep then simply measures
/// the global kernel under this variant's name.
pub(crate) fn joint_hist_shared(
    y: &Codes,
    x: &Codes,
    s: Shape,
    counts: &mut [u32],
    block: usize,
) -> Result<(), Error> {
    let gpu = gpu_for(&[y, x])?;
    let table_bytes = s.joint() * size_of::<u32>();
    if table_bytes > gpu.shared_bytes {
        ktc::warn_once(format!(
            "joint_hist_batched: a {}-counter table ({table_bytes} B) exceeds the {} B of shared memory \
                 per block; the shared variant uses global atomics instead",
            s.joint(),
            gpu.shared_bytes
        ));
        return joint_hist_global(y, x, s, counts, block);
    }
    if nothing_to_count(s, counts) {
        return Ok(());
    }
    let (yd, xd) = (on_device(gpu, y)?, on_device(gpu, x)?);
    let mut dev = gpu.stream.alloc_zeros::<u32>(counts.len()).map_err(driver("allocating counts"))?;
    let f = gpu.function(&name("jh_shared", &yd, &xd))?;
    for j0 in (0..s.p).step_by(MAX_GRID_Y) {
        let rows = (s.p - j0).min(MAX_GRID_Y);
        let cfg = config(gpu, block, s.n, rows, table_bytes as u32);
        let (n, ky, joint) = (s.n as u32, s.ky as u32, s.joint() as u32);
        launch(gpu, &f, &yd, &xd, [n, j0 as u32, ky, joint], &mut dev, cfg)?;
    }
    finish(gpu, &dev, counts)
}

/// No samples or no features: the counts are all zero, and the device is not asked
/// for zero-byte buffers (which it refuses) or empty grids.
fn nothing_to_count(s: Shape, counts: &mut [u32]) -> bool {
    if s.n > 0 && s.p > 0 {
        return false;
    }
    counts.fill(0);
    true
}

/// `<kernel>_<y width>_<x width>`, as the source names its instantiations.
fn name(kernel: &str, y: &DeviceCodes, x: &DeviceCodes) -> String {
    let width = |c: &DeviceCodes| match c {
        DeviceCodes::U8(_) => "u8",
        DeviceCodes::U16(_) => "u16",
    };
    format!("{kernel}_{}_{}", width(y), width(x))
}

/// `rows` grid rows of blocks of `block` threads; per row enough blocks to cover
/// `work` items once, but no more than keep every SM at full occupancy across rows
/// (the kernels are grid-stride loops, so fewer blocks still cover everything).
fn config(gpu: &Gpu, block: usize, work: usize, rows: usize, shared: u32) -> LaunchConfig {
    let block = block.clamp(32, 1024);
    let resident = gpu.sm_count as usize * (2048 / block).max(1);
    let per_row = resident.div_ceil(rows).max(1);
    let blocks = work.div_ceil(block).clamp(1, per_row);
    LaunchConfig {
        grid_dim: (blocks as u32, rows as u32, 1),
        block_dim: (block as u32, 1, 1),
        shared_mem_bytes: shared,
    }
}

/// Launches `f(y, x, a, b, c, d, counts)` for each pair of widths.
fn launch(
    gpu: &Gpu,
    f: &cudarc::driver::CudaFunction,
    y: &DeviceCodes,
    x: &DeviceCodes,
    scalars: [u32; 4],
    counts: &mut CudaSlice<u32>,
    cfg: LaunchConfig,
) -> Result<(), Error> {
    fn go<Y: DeviceRepr, X: DeviceRepr>(
        gpu: &Gpu,
        f: &cudarc::driver::CudaFunction,
        y: &CudaSlice<Y>,
        x: &CudaSlice<X>,
        s: &[u32; 4],
        counts: &mut CudaSlice<u32>,
        cfg: LaunchConfig,
    ) -> Result<(), Error> {
        let mut b = gpu.stream.launch_builder(f);
        b.arg(y).arg(x).arg(&s[0]).arg(&s[1]).arg(&s[2]).arg(&s[3]).arg(counts);
        // SAFETY: the argument list matches the kernel's signature in `SOURCE`
        // (y, x, four u32, counts), every code is below its table's bound (checked when
        // the `Codes` were built), and `counts` holds p · joint counters.
        unsafe { b.launch(cfg) }.map(drop).map_err(driver("launching the histogram kernel"))
    }
    match (y, x) {
        (DeviceCodes::U8(y), DeviceCodes::U8(x)) => go(gpu, f, y, x, &scalars, counts, cfg),
        (DeviceCodes::U8(y), DeviceCodes::U16(x)) => go(gpu, f, y, x, &scalars, counts, cfg),
        (DeviceCodes::U16(y), DeviceCodes::U8(x)) => go(gpu, f, y, x, &scalars, counts, cfg),
        (DeviceCodes::U16(y), DeviceCodes::U16(x)) => go(gpu, f, y, x, &scalars, counts, cfg),
    }
}

/// Copies the counts back and waits for the stream, so the measured time is complete.
fn finish(gpu: &Gpu, dev: &CudaSlice<u32>, counts: &mut [u32]) -> Result<(), Error> {
    gpu.stream.memcpy_dtoh(dev, counts).map_err(driver("copying counts to the host"))?;
    gpu.stream.synchronize().map_err(driver("waiting for the histogram kernel"))
}
