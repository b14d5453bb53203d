//! The gate a call's helpers pass through: open while the call runs, closed (and every
//! helper inside waited for) before the call's frame is gone.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::time::{Duration, Instant};

/// Whether helpers may still join, and how many are inside.
pub(super) struct Gate {
    closed: AtomicBool,
    active: AtomicUsize,
}

impl Gate {
    pub(super) fn new() -> Gate {
        Gate { closed: AtomicBool::new(false), active: AtomicUsize::new(0) }
    }

    /// Runs `run(address)` unless the gate has closed.
    ///
    /// # Safety
    /// `address` must be what `run` expects, alive until the gate's [`Close`] has
    /// dropped (the call that opened the gate waits there for every helper inside).
    pub(super) unsafe fn enter(&self, run: unsafe fn(usize), address: usize) {
        self.active.fetch_add(1, SeqCst);
        if !self.closed.load(SeqCst) {
            // SAFETY: the gate was open after this helper became active, so the call
            // is still waiting (in `Close::drop`) for `active` to fall to zero: what
            // `address` points to is alive until the decrement below.
            unsafe { run(address) };
        }
        self.active.fetch_sub(1, SeqCst);
    }
}

/// Closes its gate on drop and waits for the helpers inside to leave. Sequentially
/// consistent: a helper that saw the gate open counted itself in before this read the
/// count, so it is waited for; one that counts itself in later sees the gate closed.
pub(super) struct Close<'a> {
    pub gate: &'a Gate,
    /// How long to spin before yielding (see `spin_budget`); zero while unwinding.
    pub spin: Duration,
}

impl Drop for Close<'_> {
    fn drop(&mut self) {
        self.gate.closed.store(true, SeqCst);
        let started = Instant::now();
        while self.gate.active.load(SeqCst) != 0 && started.elapsed() < self.spin {
            std::hint::spin_loop();
        }
        while self.gate.active.load(SeqCst) != 0 {
            std::thread::yield_now();
        }
    }
}
