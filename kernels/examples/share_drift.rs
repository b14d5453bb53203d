//! Shows how much a parallel variant's lead at a few thousand values moves over time on
//! this host: `lookup` and `par_lookup/4` called in alternating blocks, the median
//! ratio of their times printed for every window of about half a second.
//!
//! On the 2-vCPU development VM, `par_lookup/4` at 5 672 values × 8 bins ran at
//! 0.61–0.68 of `lookup`'s time most of the time and at 0.94–1.43 in stretches from one
//! half-second window to about a minute, while at 1 M values it stayed near 0.52: of
//! 45 fresh processes 2 s apart, 10 met a slow stretch (an earlier form of this probe).
//! A sweep measures in one stretch and `ktc verify` may run in another, so a choice
//! between a serial and a parallel variant at a few thousand values can be right at
//! tuning and 1.1–1.4× off at verify. This shows whether a host drifts so before its
//! tuning at the small end is trusted.
//!
//! `cargo run --release -p ktc-kernels --example share_drift -- [N_VALUES] [N_BINS] [SECONDS]`
//! (defaults 5 672 values, 8 bins, 10 s).

use ktc_kernels::Floats;
use ktc_kernels::discretize::{self, Variant};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Calls of one variant timed as one sample: a block, so the clock's cost stays small
/// beside a call of a few microseconds.
const CALLS_PER_SAMPLE: u32 = 5;

/// How long one printed window lasts.
const WINDOW: Duration = Duration::from_millis(500);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| args.get(i).map_or(Ok(default), |s| s.parse::<usize>());
    let (Ok(n), Ok(bins), Ok(seconds)) = (number(0, 5_672), number(1, 8), number(2, 10)) else {
        eprintln!("usage: share_drift [N_VALUES] [N_BINS] [SECONDS], each a positive whole number");
        return ExitCode::FAILURE;
    };
    if n == 0 || !(2..=256).contains(&bins) {
        eprintln!("share_drift: N_VALUES must be at least 1 and N_BINS within 2..=256");
        return ExitCode::FAILURE;
    }
    let (values, edges, mut codes) = discretize::inputs(n, bins);
    println!("{n} values × {bins} bins: t(par_lookup/4) / t(lookup), median of each {WINDOW:?} window");
    let end = Instant::now() + Duration::from_secs(seconds as u64);
    while Instant::now() < end {
        let window_end = Instant::now() + WINDOW;
        let mut ratios = Vec::new();
        while Instant::now() < window_end {
            let serial = sample(Variant::Lookup, None, &values, &edges, &mut codes);
            let parallel = sample(Variant::ParLookup, Some(4), &values, &edges, &mut codes);
            ratios.push(parallel / serial);
        }
        ratios.sort_by(f64::total_cmp);
        println!("{:.3}", ratios[ratios.len() / 2]);
    }
    ExitCode::SUCCESS
}

/// One block of calls of `variant`: its mean time per call, in nanoseconds.
fn sample(variant: Variant, block: Option<usize>, values: &Floats, edges: &[f64], codes: &mut [u8]) -> f64 {
    let started = Instant::now();
    for _ in 0..CALLS_PER_SAMPLE {
        // The inputs are valid (no NaN, sorted edges): an error here is a kernel bug.
        discretize::call_with(variant, block, black_box(values), edges, codes).expect("discretize failed");
    }
    started.elapsed().as_secs_f64() * 1e9 / f64::from(CALLS_PER_SAMPLE)
}
