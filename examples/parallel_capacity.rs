//! How many cores this machine gives two threads, window by window: the host property
//! that decides between a serial and a parallel variant at small sizes.
//!
//! Each window times the same work on one thread and split over two (best of five
//! each) and prints their ratio: about 2 where both threads ran at once, about 1
//! where they took turns on one core. On the 2-vCPU development VM the ratio switched
//! between the two from one half-second window to the next, with nothing else running
//! and no stolen time counted: one core in 75 of 116 windows of one minute. A sweep and
//! a `ktc verify` taken seconds apart can then meet different machines.
//!
//! ```sh
//! cargo run --release --example parallel_capacity -- 60   # seconds; default 30
//! ```

use std::hint::black_box;
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

/// What one window measured: the one-thread time over the two-thread time.
fn window(steps: u64) -> (f64, f64) {
    let one = best_of(5, || {
        black_box(chain(steps));
    });
    let two = best_of(5, || {
        std::thread::scope(|s| {
            let other = s.spawn(|| chain(steps / 2));
            black_box(chain(steps / 2));
            black_box(other.join().expect("the chain does not panic"));
        })
    });
    (one, two)
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
    // About 2 ms of work a timing: long next to starting a thread, short next to the
    // host's states (up to a second each).
    let steps = 2_000_000;
    let started = Instant::now();
    let (mut two_cores, mut one_core, mut windows) = (0, 0, 0);
    let mut trace = String::new();
    while started.elapsed() < Duration::from_secs(seconds) {
        let (one, two) = window(steps);
        let speedup = one / two;
        windows += 1;
        let mark = if speedup >= 1.5 {
            two_cores += 1;
            '2'
        } else if speedup <= 1.2 {
            one_core += 1;
            '1'
        } else {
            '?'
        };
        trace.push(mark);
        println!(
            "{:6.1} s  one thread {:.2} ms  two threads {:.2} ms  speedup {speedup:.2}",
            started.elapsed().as_secs_f64(),
            one * 1e3,
            two * 1e3
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    println!("windows: {trace}");
    println!(
        "two threads ran on two cores (speedup ≥ 1.5) in {two_cores} of {windows} windows, \
         on one (≤ 1.2) in {one_core}"
    );
}
