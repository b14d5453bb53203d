//! The calling thread's CUDA device, as CUDA itself keeps one per thread: where kernels
//! run host-resident inputs, and which device's tuning a call dispatches with.

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
        DeviceScope(DEVICE.with(|d| d.replace(ordinal)))
    }
}

impl Drop for DeviceScope {
    fn drop(&mut self) {
        DEVICE.with(|d| d.set(self.0));
    }
}
