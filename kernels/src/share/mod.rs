//! Sharing a list of independent tasks between the calling thread and rayon's pool,
//! each participant taking the next task until none is left.
//!
//! A parallel iterator started from outside the pool hands all of its work to the
//! pool's workers and leaves the caller waiting; where the workers have gone to sleep,
//! waking them costs 20–150 µs on a 2-vCPU VM, as long as the work of a small call.
//! Here the caller starts on the tasks at once and never waits for a worker that has
//! not started: a worker that wakes after the caller has taken the last task leaves
//! without touching the data. The caller still pays for asking: where calls are far
//! apart and the workers asleep, `par_pairs` at 1 000 samples × 30 features took 32–34
//! µs against `pairs`' 14–19 µs (calls 300 µs apart, two processes each). One helper
//! stays awake a while after each call (see the `linger` module), so back-to-back
//! calls ask no one to wake; a call that follows a pause of over a millisecond asks
//! only once its first item shows the rest to be long (see the `pace` module), since
//! a helper woken then would start too late to help a short call.

mod gate;
mod linger;
mod pace;

use gate::{Close, Gate};
use linger::{HUB, Offer};
use pace::{PACE, worth_waking};
use std::any::Any;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Runs `task(index, item, scratch)` once for every item of `items`, on the calling
/// thread and on up to one pool thread per item (see [`other_pool_threads`]) that join
/// while items are left (none for a single item); each participant owns one `scratch`
/// value for all the tasks it takes. A task's panic is resumed on the caller once
/// every other task has run.
pub(crate) fn share_out<T: Send, S: Default, F: Fn(usize, T, &mut S) + Sync>(items: Vec<T>, task: F) {
    share_out_then(items, task, |_: S| {});
}

/// As [`share_out`], and each participant that ran a task hands its `scratch` to
/// `done` once no item is left: tasks fold into a participant's private accumulator,
/// and `done` merges it. A panic of `done` is resumed on the caller as a task's is.
pub(crate) fn share_out_then<T, S, F, D>(items: Vec<T>, task: F, done: D)
where
    T: Send,
    S: Default,
    F: Fn(usize, T, &mut S) + Sync,
    D: Fn(S) + Sync,
{
    if items.len() <= 1 {
        // Nothing to share: the caller runs the item as a serial variant would, without
        // the slots, the gate and the clock reads a shared call pays for. At 1 121
        // samples × 2 features, where `par_pairs` has one item and a call takes about
        // 1 µs, they made it 1.24–1.30× slower than `pairs` (median of 30 alternating
        // blocks, two processes); without them 1.02–1.04× (probe not committed).
        let mut scratch = S::default();
        if let Some(item) = items.into_iter().next() {
            task(0, item, &mut scratch);
            done(scratch);
        }
        return;
    }
    // As many helpers as items, not one fewer: the caller takes an item itself, but a
    // helper woken on the caller's own core cannot start until the caller yields, so
    // one spare keeps an item from waiting on it.
    let helpers = other_pool_threads().min(items.len());
    let shared = Shared {
        slots: items.into_iter().map(|item| Mutex::new(Some(item))).collect(),
        next: AtomicUsize::new(0),
        panic: Mutex::new(None),
        task,
        done,
        scratch: std::marker::PhantomData,
    };
    let gate = Arc::new(Gate::new());
    let offered = helpers > 0;
    let ended = {
        // Closes the gate and waits for the helpers inside (on unwinding too, though
        // tasks' panics are caught): no helper may touch `shared` once this frame is
        // gone.
        let mut close = Close { gate: &gate, spin: Duration::ZERO };
        let run: unsafe fn(usize) = help::<T, S, F, D>;
        let address = &raw const shared as usize;
        // A thread lingering after the last call (see the `linger` module) is running
        // already, on another core than the caller's: it stands for the spare helper
        // too, and on a 2-thread pool the call wakes no one.
        let lingering = offered && HUB.post(Offer { gate: Arc::clone(&gate), run, address });
        let spawned = if lingering { helpers.saturating_sub(2) } else { helpers };
        let wake = || {
            for _ in 0..spawned {
                let gate = Arc::clone(&gate);
                rayon::spawn(move || {
                    // SAFETY: `address` is `shared`'s, alive until `close` has dropped.
                    unsafe { gate.enter(run, address) };
                    HUB.linger();
                });
            }
        };
        let started = Instant::now();
        // After a pause, the helpers are asked for only where the first item shows the
        // rest to be long (see the `pace` module).
        let left = shared.slots.len() - 1;
        let ran = if lingering || PACE.in_a_run(started) {
            wake();
            shared.work(None)
        } else {
            shared.work(Some(&mut |first| {
                if worth_waking(first, left) {
                    wake();
                }
            }))
        };
        // The caller's last item has run: the call's end as the next call's pace
        // sees it, without another read of the clock.
        let worked = started.elapsed();
        close.spin = spin_budget(worked, ran);
        started + worked
    };
    PACE.ended(ended);
    if offered {
        // The gate is closed: a lingering thread would find nothing to do, but the
        // offer would keep the gate alive until the next call replaced it.
        HUB.withdraw(&gate);
    }
    let panic = shared.panic.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(payload) = panic {
        std::panic::resume_unwind(payload);
    }
}

/// The pool's threads other than the caller: every one of them when the caller is
/// outside the pool. Asking all of them, not one fewer, matters on a small host: with
/// one helper asked of a 2-thread pool, the worker woken was often the one on the
/// caller's own core, which cannot run until the caller yields, so the call paid for
/// the wake-up and got no help. Measured on a 2-vCPU VM, medians of 21 samples in
/// three timed blocks per process (probe not committed):
/// - `joint_hist_batched`'s `par_pairs` against `pairs` at 1 100 samples × 10
///   features (pair tables 16 and 128, two processes each): 1.24–1.62× slower in all
///   12 blocks with one helper; 0.82–1.05× in 8 of 12 with both, 1.20–1.36× in 4;
/// - `discretize`'s `par_split/4` at 5 623 values × 108 bins: 38–46 µs with one, 17–22
///   µs with both.
///
/// At large sizes the caller and both workers share two cores at no measured cost
/// (`par_pairs` at 1 000 000 × 30 and 200 000 × 12): tasks are taken one at a time,
/// so a participant that is descheduled takes fewer.
fn other_pool_threads() -> usize {
    rayon::current_num_threads() - usize::from(rayon::current_thread_index().is_some())
}

/// What the participants share: the items not yet taken and the task.
struct Shared<T, S, F, D> {
    slots: Vec<Mutex<Option<T>>>,
    next: AtomicUsize,
    /// The first panic of a task or of `done`, resumed on the caller.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    task: F,
    /// What a participant that ran a task does with its scratch at the end.
    done: D,
    scratch: std::marker::PhantomData<fn() -> S>,
}

impl<T, S: Default, F: Fn(usize, T, &mut S), D: Fn(S)> Shared<T, S, F, D> {
    /// Takes and runs items until none is left, then hands the scratch to `done` if it
    /// ran any; returns how many it ran. `after_first` is told how long the first item
    /// took.
    fn work(&self, mut after_first: Option<&mut dyn FnMut(Duration)>) -> usize {
        let mut scratch = S::default();
        let mut ran = 0;
        loop {
            let index = self.next.fetch_add(1, SeqCst);
            let Some(slot) = self.slots.get(index) else {
                if ran > 0 {
                    self.catch(std::panic::AssertUnwindSafe(|| (self.done)(scratch)));
                }
                return ran;
            };
            ran += 1;
            // Each index is taken once, so the lock is never contended.
            let item = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(item) = item {
                // A panic is kept for the caller to resume once every other task ran;
                // on a helper it would otherwise abort the process (rayon::spawn).
                let started = after_first.is_some().then(Instant::now);
                self.catch(std::panic::AssertUnwindSafe(|| (self.task)(index, item, &mut scratch)));
                if let (Some(started), Some(after_first)) = (started, after_first.take()) {
                    after_first(started.elapsed());
                }
            }
        }
    }

    /// Runs `f`, keeping its panic (the first one) for the caller.
    fn catch(&self, f: impl FnOnce() + std::panic::UnwindSafe) {
        if let Err(payload) = std::panic::catch_unwind(f) {
            self.panic.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(payload);
        }
    }
}

/// A helper's part, behind a lifetime-free function pointer so that rayon can hold it.
///
/// # Safety
/// `address` is the address of a live `Shared<T, S, F, D>` that stays alive until this
/// returns.
unsafe fn help<T, S: Default, F: Fn(usize, T, &mut S), D: Fn(S)>(address: usize) {
    // SAFETY: the caller's contract.
    let shared = unsafe { &*(address as *const Shared<T, S, F, D>) };
    shared.work(None);
}

/// The most the caller spins before it yields, waiting for helpers still inside.
const MAX_SPIN: Duration = Duration::from_micros(50);

/// How long the caller spins, waiting for the helpers inside, before it yields: twice
/// the time one of its own items took, up to [`MAX_SPIN`]. A helper inside is most
/// likely running its last item on another core, so it leaves within about one
/// item's time; yielding at once handed the core to the pool's idle worker that shares
/// it, and the caller got it back microseconds later. `par_pairs` at 1 000 samples ×
/// 30 features, 6–11 µs a call, spent 0.1–2.0 µs of it in this wait (over 1 µs in 4
/// of 6 probe processes) yielding at once, 0.1–0.8 µs spinning first (6 processes);
/// raced against `pairs` in four processes it ran at 0.66–0.73 of its time, against
/// 0.72–1.01 before. Only a helper descheduled on the caller's own core needs the
/// yield, and it is reached after the spin.
fn spin_budget(worked: Duration, ran: usize) -> Duration {
    (worked * 2 / ran.max(1) as u32).min(MAX_SPIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_run_once_with_its_index() {
        for count in [0, 1, 2, 3, 17, 1000] {
            let mut seen = vec![0u32; count];
            let items: Vec<&mut u32> = seen.iter_mut().collect();
            share_out(items, |index, item, scratch: &mut Vec<u32>| {
                scratch.push(1);
                *item += 1 + index as u32;
            });
            let expected: Vec<u32> = (1..=count as u32).collect();
            assert_eq!(seen, expected);
        }
    }

    #[test]
    fn every_participant_that_ran_a_task_hands_its_scratch_over_once() {
        for count in [0, 1, 2, 5, 64, 1000] {
            let total = Mutex::new(0u64);
            let handed = AtomicUsize::new(0);
            share_out_then(
                (1..=count as u64).collect(),
                |_, item, sum: &mut u64| *sum += item,
                |sum| {
                    assert!(sum > 0, "only participants that ran a task hand over");
                    handed.fetch_add(1, SeqCst);
                    *total.lock().unwrap() += sum;
                },
            );
            let n = count as u64;
            assert_eq!(*total.lock().unwrap(), n * (n + 1) / 2, "{count} items");
            let handed = handed.load(SeqCst);
            assert!(handed <= count.min(1 + rayon::current_num_threads()), "{handed} hand-overs of {count}");
            assert_eq!(handed == 0, count == 0);
        }
    }

    #[test]
    fn calls_after_a_pause_run_every_item_once_whether_their_first_item_wakes_helpers_or_not() {
        // A first item longer than `pace::WORTH_WAKING` wakes the helpers mid-call; a
        // short one leaves the call to its caller.
        for first_item in [Duration::ZERO, pace::WORTH_WAKING * 2] {
            std::thread::sleep(pace::IN_A_RUN * 3);
            let mut seen = [0u32; 6];
            let items: Vec<&mut u32> = seen.iter_mut().collect();
            share_out(items, |index, item, (): &mut ()| {
                if index == 0 {
                    std::thread::sleep(first_item);
                }
                *item += 1;
            });
            assert_eq!(seen, [1; 6], "first item {first_item:?}");
        }
    }

    #[test]
    fn a_panicking_hand_over_panics_the_caller() {
        let outcome = std::panic::catch_unwind(|| {
            share_out_then((0..8).collect(), |_, _: usize, (): &mut ()| {}, |()| panic!("merge fails"));
        });
        assert!(outcome.is_err());
    }

    #[test]
    fn every_pool_thread_is_asked_from_outside_and_every_other_from_inside() {
        assert_eq!(other_pool_threads(), rayon::current_num_threads());
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        assert_eq!(pool.install(other_pool_threads), 2);
    }

    #[test]
    fn the_caller_spins_twice_its_mean_item_time_up_to_the_cap() {
        assert_eq!(spin_budget(Duration::from_micros(6), 3), Duration::from_micros(4));
        assert_eq!(spin_budget(Duration::from_micros(6), 0), Duration::from_micros(12));
        assert_eq!(spin_budget(Duration::from_millis(4), 2), MAX_SPIN);
    }

    #[test]
    fn calls_from_inside_the_pool_finish_and_run_every_item() {
        use rayon::prelude::*;
        // Helpers spawned by a pool worker may sit in its own queue until it returns:
        // the caller must not wait for them.
        let totals: Vec<u64> = (0..16u64)
            .into_par_iter()
            .map(|outer| {
                let mut seen = [0u64; 9];
                let items: Vec<&mut u64> = seen.iter_mut().collect();
                share_out(items, |index, item, (): &mut ()| *item = outer * 100 + index as u64);
                seen.iter().sum()
            })
            .collect();
        let expected: Vec<u64> = (0..16).map(|outer| outer * 900 + 36).collect();
        assert_eq!(totals, expected);
    }

    #[test]
    fn a_panicking_task_panics_the_caller_after_the_others_finish() {
        let done = AtomicUsize::new(0);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            share_out((0..64).collect(), |index, _: usize, (): &mut ()| {
                assert_ne!(index, 40, "task 40 fails");
                done.fetch_add(1, SeqCst);
            });
        }));
        assert!(outcome.is_err());
        assert_eq!(done.load(SeqCst), 63, "every other task ran");
    }

    #[test]
    fn racing_callers_inside_and_outside_the_pool_each_run_every_item_once() {
        use rayon::prelude::*;
        // Calls from several threads at once post offers over each other's, and the
        // lingering thread joins whichever it finds: each call must still run each of
        // its own items exactly once, and none may hang.
        let call = |caller: u64, round: u64| {
            let count = 1 + (caller * 7 + round) as usize % 9;
            let mut seen = vec![0u64; count];
            let items: Vec<&mut u64> = seen.iter_mut().collect();
            share_out(items, |index, item, (): &mut ()| *item += caller * 1_000 + index as u64 + 1);
            let expected: Vec<u64> = (0..count as u64).map(|index| caller * 1_000 + index + 1).collect();
            assert_eq!(seen, expected, "caller {caller}, round {round}");
        };
        std::thread::scope(|scope| {
            for caller in 0..4 {
                scope.spawn(move || (0..500).for_each(|round| call(caller, round)));
            }
            scope.spawn(move || (0..500u64).into_par_iter().for_each(|round| call(4 + round % 3, round)));
        });
    }
}
