//! Everything that touches cudarc, behind the `cuda` feature.
//!
//! cudarc panics (instead of returning `Err`) when `libcuda` or `libnvrtc` is missing,
//! so [`gpu`] asks `ktc::capability_available(Cuda)` first and reaches cudarc only
//! when it says yes; even then, setup runs under `catch_unwind`. The CUDA source is
//! compiled with NVRTC once per device, for its architecture, and kept with its
//! context, default stream and limits in a static slot per device. Host-resident inputs
//! run on `ktc::cuda_device()` (the device a sweep tunes for; 0 by default),
//! device-resident ones on their own device.

mod codes;
mod discretize;
mod gpu;
mod joint_hist;
mod source;

pub(crate) use discretize::discretize;
pub(crate) use joint_hist::{joint_hist_global, joint_hist_shared};
