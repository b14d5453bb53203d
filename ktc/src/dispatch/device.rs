//! Per-device dispatch. A call's CUDA variants run on the calling thread's device,
//! [`cuda_device`](crate::cuda_device) (0 unless set with
//! [`with_cuda_device`](crate::with_cuda_device); kernels run device-resident inputs on
//! their own device, which is the device their caller works on), so the call
//! dispatches with that device's tuning: device 0's is the host fingerprint's entry,
//! and another GPU's is the entry filed under its own fingerprint. A device identical to
//! device 0 shares device 0's tuning; nothing is loaded for it.
//!
//! The hot path pays one relaxed load of a global flag while no thread has selected a
//! device other than 0 (the common case: one GPU, or none, or only device 0 used), and a
//! thread-local read after: the other devices' tables are loaded on their first call,
//! each into a slot of its own.

use std::sync::OnceLock;

use super::Dispatch;

/// Loads device `d`'s dispatch; `None` where device 0's serves it. Built by
/// [`resolve`](crate::resolve), which knows where each device's table comes from.
pub(crate) type Loader = Box<dyn Fn(usize) -> Option<Dispatch> + Send + Sync>;

/// The other devices' dispatch, by ordinal (slot 0 unused), each loaded on first use.
pub(super) struct Devices {
    slots: Box<[OnceLock<Option<Box<Dispatch>>>]>,
    load: Loader,
}

impl std::fmt::Debug for Devices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Devices").field("count", &self.slots.len()).finish_non_exhaustive()
    }
}

impl Devices {
    /// `count` devices, device `d > 0` loaded by `load(d)` on first use.
    pub(super) fn new(count: usize, load: Loader) -> Devices {
        Devices { slots: (0..count).map(|_| OnceLock::new()).collect(), load }
    }

    /// Device `d`'s dispatch, or `None` where device 0's serves it (or there is no
    /// such device).
    #[cold]
    fn get(&self, d: usize) -> Option<&Dispatch> {
        self.slots.get(d)?.get_or_init(|| (self.load)(d).map(Box::new)).as_deref()
    }
}

impl Dispatch {
    /// The dispatch for the calling thread's device: `self` on device 0, on a device
    /// identical to it, and where there is no other device.
    #[inline(always)]
    pub(super) fn on_current_device(&self) -> &Dispatch {
        if !crate::cuda::other_device_selected() {
            return self;
        }
        match &self.devices {
            None => self,
            Some(devices) => match crate::cuda_device() {
                0 => self,
                d => devices.get(d).unwrap_or(self),
            },
        }
    }

    /// Gives this dispatch (loaded for device 0) the host's other GPUs: of `count`
    /// devices, device `d > 0` is loaded by `load(d)` on its first call. Nothing with
    /// fewer than two.
    pub(crate) fn with_devices(mut self, count: usize, load: Loader) -> Dispatch {
        if count >= 2 {
            self.devices = Some(Box::new(Devices::new(count, load)));
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ChoiceSource, KernelIdentity, KernelInfo, VariantInfo};

    static TUNER: KernelInfo = KernelInfo {
        name: "two_devices",
        module_path: "k::two_devices",
        identity: KernelIdentity::UNSPECIFIED,
        axes: &[],
        variants: &[VariantInfo {
            name: "serial",
            block_sizes: &[],
            requires: &[],
            reference: true,
            default: false,
        }],
        sweep: |_| unreachable!(),
        calls: crate::job::CallPattern::InALoop,
    };

    fn reason(dispatch: &Dispatch) -> String {
        match dispatch.explain(&[]).source {
            ChoiceSource::Fallback { reason } => reason,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn each_simulated_device_dispatches_with_its_own_tuning() {
        // A simulated host with three GPUs: device 1 differs from device 0, device 2 is
        // identical to it (its loader says so with `None`).
        let mut dispatch = Dispatch::fallback(&TUNER, "device 0's table".into());
        let loads = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = loads.clone();
        dispatch.devices = Some(Box::new(Devices::new(
            3,
            Box::new(move |d| {
                counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                (d == 1).then(|| Dispatch::fallback(&TUNER, "device 1's table".into()))
            }),
        )));
        assert_eq!(reason(&dispatch), "device 0's table");
        assert_eq!(crate::with_cuda_device(1, || reason(&dispatch)), "device 1's table");
        assert_eq!(crate::with_cuda_device(2, || reason(&dispatch)), "device 0's table");
        // No such device: device 0's, as the kernel will report the device missing.
        assert_eq!(crate::with_cuda_device(7, || reason(&dispatch)), "device 0's table");
        assert_eq!(crate::with_cuda_device(1, || dispatch.choose(&[])), (0, 0));
        // Once a thread has selected another device, the inline path answers nothing
        // (`call` then runs `choose`, which reads the thread's device), on any thread.
        assert_eq!(crate::with_cuda_device(1, || dispatch.choose_inline(&[])), None);
        assert_eq!(dispatch.choose_inline(&[]), None);
        // Each device loads once, however many calls.
        assert_eq!(crate::with_cuda_device(1, || reason(&dispatch)), "device 1's table");
        assert_eq!(loads.load(std::sync::atomic::Ordering::Relaxed), 2);
    }

    #[test]
    fn a_single_device_host_has_no_device_slots() {
        let dispatch = Dispatch::fallback(&TUNER, "only".into()).with_devices(1, Box::new(|_| None));
        assert!(dispatch.devices.is_none());
    }
}
