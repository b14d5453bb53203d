//! What this machine gives a second thread, window by window: how long a sleeping
//! thread takes to start running once woken, and how many cores two running threads
//! share. Both decide between a serial and a parallel variant at small sizes.
//!
//! Each window follows half a second of idling. It wakes a parked helper thread and
//! times how long the helper takes to run while the waker keeps its own core busy, as a
//! parallel kernel's caller does after waking its pool. Then, with the helper running,
//! it times the same work on one thread and split over both (best of five each): about
//! 2 where both ran at once, about 1 where they took turns on one core.
//!
//! On the 2-vCPU development VM (20 s, 39 windows) the split work ran at 1.96–2.00× in
//! every window, while the woken helper started after over 1 ms in 38 (median 7.2 ms):
//! a parallel call after a pause runs on the caller alone for milliseconds. An earlier
//! form of this probe spawned the second thread for each timing and so counted that
//! delay as "one core" (75 of 116 windows): the host did not take a core away.
//!
//! ```sh
//! cargo run --release --example parallel_capacity -- 60   # seconds; default 30
//! ```

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::time::{Duration, Instant};

/// A dependent multiply chain: one core's worth of work that no compiler shortens.
fn chain(steps: u64) -> u64 {
    let mut x = 1u64;
    for i in 0..steps {
        x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i));
    }
    x
}

/// The best of `tries` timings of `f`, in seconds.
fn best_of(tries: usize, mut f: impl FnMut()) -> f64 {
    (0..tries)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// What the main thread and the helper share.
#[derive(Default)]
struct Shared {
    /// Set by the main thread to end the helper's parking; the helper clears it once
    /// it has woken.
    woken: AtomicBool,
    /// Chains the helper is asked to run (each of `steps / 2`); it spins between them.
    asked: AtomicUsize,
    /// Chains the helper has run.
    ran: AtomicUsize,
    /// Set by the main thread at the end of a window: the helper parks again.
    rest: AtomicBool,
    /// Set once at the end: the helper returns.
    quit: AtomicBool,
}

/// The helper: parks until woken, then runs the chains asked of it, spinning between
/// them (so it stays on its core) until told to rest.
fn helper(shared: &Shared, steps: u64) {
    loop {
        while !shared.woken.load(SeqCst) {
            if shared.quit.load(SeqCst) {
                return;
            }
            std::thread::park();
        }
        shared.woken.store(false, SeqCst);
        while !shared.rest.load(SeqCst) {
            if shared.ran.load(SeqCst) < shared.asked.load(SeqCst) {
                black_box(chain(steps / 2));
                shared.ran.fetch_add(1, SeqCst);
            } else {
                std::hint::spin_loop();
            }
        }
    }
}

/// One window: the helper's wake-up delay, and the one-thread time over the two-thread
/// time of the same work with the helper running.
fn window(shared: &Shared, helper: &std::thread::Thread, steps: u64) -> (Duration, f64) {
    shared.rest.store(false, SeqCst);
    let started = Instant::now();
    shared.woken.store(true, SeqCst);
    helper.unpark();
    while shared.woken.load(SeqCst) {
        std::hint::spin_loop();
    }
    let wake_up = started.elapsed();
    let one = best_of(5, || {
        black_box(chain(steps));
    });
    let two = best_of(5, || {
        shared.asked.fetch_add(1, SeqCst);
        black_box(chain(steps / 2));
        while shared.ran.load(SeqCst) < shared.asked.load(SeqCst) {
            std::hint::spin_loop();
        }
    });
    shared.rest.store(true, SeqCst);
    (wake_up, one / two)
}

fn main() {
    let seconds: u64 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 30,
        Some(Ok(s)) if s > 0 => s,
        Some(_) => {
            eprintln!("usage: parallel_capacity [SECONDS], a positive whole number");
            std::process::exit(2);
        }
    };
    // About 2 ms of work a timing: long next to the helper's hand-offs, short next to
    // a window.
    let steps = 2_000_000;
    let shared = Arc::new(Shared::default());
    let worker = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || helper(&shared, steps))
    };
    let started = Instant::now();
    let (mut two_cores, mut windows) = (0, 0);
    let mut wake_ups = Vec::new();
    while started.elapsed() < Duration::from_secs(seconds) {
        std::thread::sleep(Duration::from_millis(500));
        let (wake_up, speedup) = window(&shared, worker.thread(), steps);
        windows += 1;
        two_cores += usize::from(speedup >= 1.5);
        wake_ups.push(wake_up);
        println!(
            "{:6.1} s  woken helper ran after {:7.1} µs  two running threads: speedup {speedup:.2}",
            started.elapsed().as_secs_f64(),
            wake_up.as_secs_f64() * 1e6,
        );
    }
    shared.quit.store(true, SeqCst);
    worker.thread().unpark();
    worker.join().expect("the helper does not panic");
    wake_ups.sort();
    let fast = wake_ups.iter().filter(|w| **w <= Duration::from_micros(100)).count();
    let slow = wake_ups.iter().filter(|w| **w > Duration::from_millis(1)).count();
    println!(
        "a helper woken after a pause ran within 0.1 ms in {fast} of {windows} windows, after over 1 ms in {slow} \
         (median {:.1} µs)",
        wake_ups[wake_ups.len() / 2].as_secs_f64() * 1e6
    );
    println!("two running threads ran on two cores (speedup ≥ 1.5) in {two_cores} of {windows} windows");
}
