//! Sharing a list of independent tasks between the calling thread and rayon's pool,
//! each participant taking the next task until none is left.
//!
//! A parallel iterator started from outside the pool hands all of its work to the
//! pool's workers and leaves the caller waiting; where the workers have gone to sleep,
//! waking them costs 20–120 µs on a 2-vCPU VM, as long as the work of a small call.
//! Here the caller starts on the tasks at once, and a worker that wakes late finds
//! fewer (or none) left, so a call costs about `min(serial, parallel + wake-up)`
//! instead of `parallel + wake-up`: a parallel variant stays near its serial twin
//! where the two are close, whatever state the pool is in.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `task(index, item, scratch)` once for every item of `items`, on the calling
/// thread and on up to `rayon::current_num_threads() - 1` pool workers (none for a
/// single item: it runs on the caller, with no pool round trip); each participant owns
/// one `scratch` value for all the tasks it takes.
pub(crate) fn share_out<T: Send, S: Default>(items: Vec<T>, task: impl Fn(usize, T, &mut S) + Sync) {
    let count = items.len();
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|item| Mutex::new(Some(item))).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut scratch = S::default();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(slot) = slots.get(index) else { break };
            // Each index is taken once, so the lock is never contended.
            let item = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
            if let Some(item) = item {
                task(index, item, &mut scratch);
            }
        }
    };
    let helpers = rayon::current_num_threads().saturating_sub(1).min(count.saturating_sub(1));
    rayon::in_place_scope(|scope| {
        for _ in 0..helpers {
            scope.spawn(|_| work());
        }
        work();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_run_once_with_its_index() {
        for count in [0, 1, 2, 3, 17] {
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
}
