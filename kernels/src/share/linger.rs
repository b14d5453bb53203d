//! One pool thread that has helped a call stays awake a while for the next one, so a
//! run of calls does not pay a wake-up each.
//!
//! Waking a sleeping pool thread costs the caller several microseconds on a 2-vCPU VM,
//! as long as the work of a call at about 1 000 samples, and the helper arrives late:
//! `par_pairs` ran at 0.64–0.75 of `pairs`' time where a worker was still awake when
//! the call began and at 0.92–1.85 where both had to be woken, and which of the two a
//! sweep or a user's process met changed from one stretch of a second to the next. A
//! lingering thread polls for the next call's offer, so it needs no wake-up; OpenMP
//! runtimes spin for the same reason before they sleep. With it, `par_pairs` at 1 000
//! samples × 30 features ran under 0.9 of `pairs` in 88–99% of a probe's windows,
//! against 58–89% without (calls back to back; probe not committed).

use super::gate::Gate;
use rayon::Yield;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a helper waits for the next call after its last. Calls of a batched
/// kernel, or of a sweep's interleaved rounds at small sizes, follow each other within
/// tens of microseconds; a user whose calls are further apart pays one wake-up a call,
/// as without lingering, and at most this long of one core's time after each.
const LINGER: Duration = Duration::from_micros(200);

/// Spin-loop pauses between two looks for pool work: looking less often takes less
/// from a core the caller may share (two vCPUs may be one core's two hyperthreads).
/// A call is looked for after every pause, not only between these waits: 64 pauses
/// take 1.7 µs on the development VM's Zen 4 cores, and a call posted at the start of
/// one was joined up to that late, half of a 2.4 µs `par_pairs` call at 1 063 samples ×
/// 4 features. Looking after every pause, `par_pairs` there ran at 0.72–0.75 of
/// `pairs`' time instead of 0.88–0.99 (medians of 20 alternating blocks of 100 calls
/// in each of three processes; 0.80–0.90 against 0.86–1.00 at 1 000 × 3; probe not
/// committed).
const PAUSES: usize = 64;

/// A call's work as a helper joins it.
#[derive(Clone)]
pub(super) struct Offer {
    pub gate: Arc<Gate>,
    /// The type-erased part a helper runs (see [`Gate::enter`]).
    pub run: unsafe fn(usize),
    pub address: usize,
}

impl Offer {
    fn take(self) {
        // SAFETY: `run` and `address` come from `share_out`, which keeps what
        // `address` points to alive while its gate is open (see `Gate::enter`).
        unsafe { self.gate.enter(self.run, self.address) };
    }
}

/// Where calls post their offers and a lingering thread looks for them.
pub(super) struct Hub {
    /// The latest call's offer; `None` once that call has finished.
    offer: Mutex<Option<Offer>>,
    /// How many offers have been posted: a lingering thread watches it, not the lock.
    posted: AtomicUsize,
    /// Whether a thread is lingering (one at most: on a 2-core host the caller and one
    /// helper keep both cores busy, and a second spinning thread would take the
    /// caller's).
    lingering: AtomicBool,
    /// How long a thread waits after its last call (see [`LINGER`]).
    linger: Duration,
}

/// The hub `share_out` uses.
pub(super) static HUB: Hub = Hub::new(LINGER);

thread_local! {
    /// Whether this thread is lingering (it may run a call itself, through the pool
    /// work it picks up while it waits).
    static IS_LINGERER: Cell<bool> = const { Cell::new(false) };
}

impl Hub {
    const fn new(linger: Duration) -> Hub {
        Hub {
            offer: Mutex::new(None),
            posted: AtomicUsize::new(0),
            lingering: AtomicBool::new(false),
            linger,
        }
    }

    /// Offers a call's work to the lingering thread; returns whether one is waiting
    /// for it, in which case it will join unless the call has finished first.
    ///
    /// Sequentially consistent with [`Hub::linger`]'s exit: either the caller sees the
    /// thread lingering and that thread sees the offer, or the caller sees it gone.
    pub(super) fn post(&self, offer: Offer) -> bool {
        *self.offer.lock().unwrap_or_else(PoisonError::into_inner) = Some(offer);
        self.posted.fetch_add(1, SeqCst);
        self.lingering.load(SeqCst) && !IS_LINGERER.get()
    }

    /// Withdraws `gate`'s offer once its call has finished, unless a later call's
    /// replaced it.
    pub(super) fn withdraw(&self, gate: &Arc<Gate>) {
        let mut offer = self.offer.lock().unwrap_or_else(PoisonError::into_inner);
        if offer.as_ref().is_some_and(|o| Arc::ptr_eq(&o.gate, gate)) {
            *offer = None;
        }
    }

    /// The current offer, if its call is still running.
    fn current(&self) -> Option<Offer> {
        self.offer.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Waits up to the hub's linger after the last call for the next one and joins
    /// it, unless another thread is lingering already. Pool work that turns up
    /// meanwhile is run (a lingering worker must not hold up the pool); on a thread
    /// outside a pool this returns at once.
    pub(super) fn linger(&self) {
        if rayon::current_thread_index().is_none() || IS_LINGERER.get() || self.lingering.swap(true, SeqCst) {
            return;
        }
        IS_LINGERER.set(true);
        let mut seen = self.posted.load(SeqCst);
        let mut since = Instant::now();
        loop {
            let posted = self.posted.load(SeqCst);
            if posted != seen {
                seen = posted;
                if let Some(offer) = self.current() {
                    offer.take();
                }
                since = Instant::now();
            } else if since.elapsed() >= self.linger {
                break;
            } else if rayon::yield_now() != Some(Yield::Executed) {
                // Pauses, each followed by a look for the next call (see `PAUSES`).
                for _ in 0..PAUSES {
                    std::hint::spin_loop();
                    if self.posted.load(SeqCst) != seen {
                        break;
                    }
                }
            }
        }
        self.lingering.store(false, SeqCst);
        // A call that saw this thread lingering just before it left asked no one else.
        if self.posted.load(SeqCst) != seen
            && let Some(offer) = self.current()
        {
            offer.take();
        }
        IS_LINGERER.set(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An offer's part in these tests: counts its runs in the `AtomicUsize` at `address`.
    unsafe fn count(address: usize) {
        // SAFETY: the tests pass the address of a leaked `AtomicUsize`.
        unsafe { &*(address as *const AtomicUsize) }.fetch_add(1, SeqCst);
    }

    fn counting_offer(gate: &Arc<Gate>) -> (Offer, &'static AtomicUsize) {
        let runs: &'static AtomicUsize = Box::leak(Box::new(AtomicUsize::new(0)));
        (Offer { gate: Arc::clone(gate), run: count, address: runs as *const AtomicUsize as usize }, runs)
    }

    /// Waits for `done`, failing after long enough for any scheduler to have run it.
    fn wait_for(what: &str, done: impl Fn() -> bool) {
        let started = Instant::now();
        while !done() {
            assert!(started.elapsed() < Duration::from_secs(60), "timed out waiting for {what}");
            std::thread::yield_now();
        }
    }

    #[test]
    fn a_lingering_thread_runs_pool_work_and_joins_the_next_call_then_leaves() {
        // One pool thread, lingering two seconds: whatever runs on the pool meanwhile
        // runs on the lingering thread itself.
        let hub: &'static Hub = Box::leak(Box::new(Hub::new(Duration::from_secs(2))));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        pool.spawn(|| hub.linger());
        wait_for("the pool thread to linger", || hub.lingering.load(SeqCst));

        let job_ran: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        pool.spawn(|| job_ran.store(true, SeqCst));
        wait_for("the pool job to run", || job_ran.load(SeqCst));
        assert!(hub.lingering.load(SeqCst), "the job ran while the only pool thread lingered");

        let gate = Arc::new(Gate::new());
        let (offer, runs) = counting_offer(&gate);
        assert!(hub.post(offer), "the call sees the thread lingering");
        wait_for("the lingering thread to join", || runs.load(SeqCst) == 1);
        hub.withdraw(&gate);
        drop(super::super::gate::Close { gate: &gate, spin: Duration::ZERO });

        wait_for("the thread to stop lingering", || !hub.lingering.load(SeqCst));
        let later = Arc::new(Gate::new());
        let (offer, _) = counting_offer(&later);
        assert!(!hub.post(offer), "no thread is waiting any more: the call must ask the pool");
    }

    #[test]
    fn a_thread_outside_a_pool_does_not_linger() {
        let hub = Hub::new(Duration::from_secs(60));
        let lingering_seen = std::thread::scope(|scope| {
            scope.spawn(|| hub.linger());
            (0..1000).any(|_| {
                std::thread::yield_now();
                hub.lingering.load(SeqCst)
            })
        });
        assert!(!lingering_seen);
    }

    #[test]
    fn a_finished_call_withdraws_its_own_offer_only() {
        let hub = Hub::new(LINGER);
        let (first, second) = (Arc::new(Gate::new()), Arc::new(Gate::new()));
        hub.post(counting_offer(&first).0);
        hub.post(counting_offer(&second).0);
        hub.withdraw(&first);
        assert!(hub.current().is_some_and(|o| Arc::ptr_eq(&o.gate, &second)), "a later call's offer stays");
        hub.withdraw(&second);
        assert!(hub.current().is_none());
    }
}
