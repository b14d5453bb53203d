//! The calling thread's CUDA device, as CUDA itself keeps one per thread: where kernels
//! run host-resident inputs, and which device's tuning a call dispatches with.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether any thread has ever selected a device other than 0: until one has, every
/// thread is on device 0 and dispatch skips the thread-local read.
static OTHER_DEVICE_SELECTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// This thread's CUDA device for host-resident inputs (see [`cuda_device`]).
    static DEVICE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The CUDA device ordinal that kernels run host-resident inputs on, on this thread:
/// `0` unless set by [`with_cuda_device`] (a sweep for device `d` sets `d`, so every
/// CUDA variant it times runs there). Inputs already on a device run on that device.
/// A thread-local read: no lock, no syscall.
///
/// ```
/// assert_eq!(ktc::cuda_device(), 0);
/// assert_eq!(ktc::with_cuda_device(1, ktc::cuda_device), 1);
/// assert_eq!(ktc::cuda_device(), 0);
/// ```
pub fn cuda_device() -> usize {
    DEVICE.with(std::cell::Cell::get)
}

/// `false` while every thread is on device 0 (no thread ever selected another): one
/// relaxed load, for dispatch's hot path. Relaxed suffices: only a thread that selected
/// a device itself can be on it, and it set this flag before, in its own program order.
#[inline(always)]
pub(crate) fn other_device_selected() -> bool {
    OTHER_DEVICE_SELECTED.load(Ordering::Relaxed)
}

/// Runs `f` with [`cuda_device`] returning `ordinal` on this thread, then restores the
/// previous device (also when `f` panics).
pub fn with_cuda_device<R>(ordinal: usize, f: impl FnOnce() -> R) -> R {
    let _scope = DeviceScope::enter(ordinal);
    f()
}

/// Sets this thread's [`cuda_device`] until dropped.
pub(crate) struct DeviceScope(usize);

impl DeviceScope {
    pub(crate) fn enter(ordinal: usize) -> DeviceScope {
        if ordinal != 0 {
            OTHER_DEVICE_SELECTED.store(true, Ordering::Relaxed);
        }
        DeviceScope(DEVICE.with(|d| d.replace(ordinal)))
    }
}

impl Drop for DeviceScope {
    fn drop(&mut self) {
        DEVICE.with(|d| d.set(self.0));
    }
}
