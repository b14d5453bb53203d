//! When a call should wake sleeping helpers: at once in a run of calls, and after its
//! first item only where the rest is long enough to repay the wake-up in a call that
//! follows a pause.
//!
//! On the 2-vCPU development VM a pool thread woken after a pause runs only
//! milliseconds later (`examples/parallel_capacity.rs`: over 1 ms in 38 of 39 windows,
//! median 7.2 ms), and asking for it costs the caller tens of microseconds. After a
//! 20 ms sleep, `discretize`'s `par_lookup/4` at 5 672 values × 8 bins took 60–65 µs
//! for its first call against `lookup`'s 21–25 µs (medians of 40 repetitions; probe not
//! committed): a user who calls a small parallel kernel now and then paid 2.5× for a
//! helper that never came in time. Within a run of calls a lingering helper (see the
//! `linger` module) keeps the next call from waking anyone, and the first call of the
//! run that does wake one is what makes it linger.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// A call that starts within this long of the previous call's end belongs to a run of
/// calls, and wakes helpers at once: a helper left lingering or only just asleep comes
/// in time (after 1 ms of serial work, `par_lookup/4`'s sample of seven calls above ran
/// at 5.8 µs a call against 5.3 back to back and `lookup`'s 7.8; after 10 ms at 7.8).
pub(super) const IN_A_RUN: Duration = Duration::from_millis(1);

/// After a pause, helpers are woken once the first item shows that the rest of the
/// call takes at least this long: long next to the wake-up the caller pays for, and
/// next to the milliseconds a woken helper may take to start.
pub(super) const WORTH_WAKING: Duration = Duration::from_millis(1);

/// When shared calls last ended. Calls on several threads share one record, as they
/// share one pool.
pub(super) struct Pace {
    /// Nanoseconds after [`epoch`]; 0 before any call.
    last_end: AtomicU64,
}

/// The record `share_out` keeps.
pub(super) static PACE: Pace = Pace::new();

/// The instant [`Pace`] counts from, fixed by the first call.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Nanoseconds from [`epoch`] to `at`, at least 1 so that 0 keeps meaning "never".
fn since_epoch(at: Instant) -> u64 {
    u64::try_from(at.saturating_duration_since(epoch()).as_nanos()).unwrap_or(u64::MAX).max(1)
}

impl Pace {
    const fn new() -> Pace {
        Pace { last_end: AtomicU64::new(0) }
    }

    /// Whether a call starting at `now` follows the last call's end within
    /// [`IN_A_RUN`].
    pub(super) fn in_a_run(&self, now: Instant) -> bool {
        let last = self.last_end.load(Relaxed);
        last != 0 && since_epoch(now).saturating_sub(last) <= IN_A_RUN.as_nanos() as u64
    }

    /// Records that a call ended at `now`.
    pub(super) fn ended(&self, now: Instant) {
        self.last_end.store(since_epoch(now), Relaxed);
    }
}

/// Whether a call after a pause, whose first item took `first`, should wake helpers
/// for the `left` items still to run: where those take at least [`WORTH_WAKING`] at
/// the first item's pace.
pub(super) fn worth_waking(first: Duration, left: usize) -> bool {
    first.saturating_mul(u32::try_from(left).unwrap_or(u32::MAX)) >= WORTH_WAKING
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_soon_after_the_last_one_is_in_a_run_and_one_after_a_pause_is_not() {
        let pace = Pace::new();
        let end = Instant::now();
        assert!(!pace.in_a_run(end), "no call has ended yet");
        pace.ended(end);
        assert!(pace.in_a_run(end + IN_A_RUN / 2));
        assert!(pace.in_a_run(end + IN_A_RUN));
        assert!(!pace.in_a_run(end + IN_A_RUN * 3));
    }

    #[test]
    fn helpers_are_woken_after_a_pause_only_for_a_long_rest() {
        assert!(!worth_waking(Duration::from_micros(2), 8), "16 µs of work left");
        assert!(!worth_waking(Duration::from_micros(100), 9), "900 µs left");
        assert!(worth_waking(Duration::from_micros(100), 10), "1 ms left");
        assert!(worth_waking(Duration::from_millis(5), 1));
        assert!(!worth_waking(Duration::from_millis(5), 0), "nothing left");
        assert!(worth_waking(Duration::from_secs(1), usize::MAX), "no overflow");
    }
}
