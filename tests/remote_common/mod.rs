//! Shared by the remote tests: a fixture kernel, entries to share, and a child process
//! that dispatches once and reports what it chose, how long the first call took and
//! which warnings it printed (the dispatcher loads once per process, so every case
//! gets a fresh one).

// Each test binary includes this module and uses most, not all, of it.
#![allow(dead_code)]

use ktc::remote::{PutOutcome, RemoteBackend, RemoteKey};
use ktc::{ChoiceSource, KernelTuningCache, Provenance, Region};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

#[path = "../support/child.rs"]
pub mod child;
#[path = "../fixtures/scale.rs"]
pub mod fixture;
pub use fixture::scale;

/// The fingerprint every store of these tests files entries under.
pub const FINGERPRINT: &str = "remote-host";
/// The timeout the failure cases run with.
pub const TIMEOUT_MS: u64 = 1000;
/// The correctness bound on a first call against a failing remote, over the timeout.
pub const MARGIN: Duration = Duration::from_millis(1500);

/// The current provenance of the fixture kernel.
pub fn current() -> Provenance {
    Provenance::current(&scale::Variant::kernel().identity)
}

/// A store under `dir` with the tests' fingerprint.
pub fn cache(dir: &Path) -> KernelTuningCache {
    KernelTuningCache::open(dir).unwrap().with_fingerprint(FINGERPRINT)
}

/// Writes a valid entry choosing `chunked` (block 256) everywhere; returns its path.
pub fn write_entry(dir: &Path) -> PathBuf {
    let cache = cache(dir);
    let table = ktc::DecisionTable {
        axes: vec![ktc::Axis::numeric("n")],
        regions: vec![Region::new("chunked").block_size(256)],
    };
    cache.write_entry(&cache.new_entry("scale", &current(), table)).unwrap()
}

/// A key for the current code version of the fixture, with a fresh entry name.
pub fn fresh_key() -> RemoteKey {
    let name = "20261130T000000.000000Z-".to_string() + &format!("{:016x}", nanos() as u64);
    let key = format!("{FINGERPRINT}/scale/{}/{name}.json", current().code_version());
    RemoteKey::parse(&key).unwrap()
}

/// Nanoseconds since the epoch: unique names across tests and runs.
pub fn nanos() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

/// What the child process reported.
#[derive(Debug)]
pub struct ChildRun {
    /// Its stdout.
    pub stdout: String,
    /// Its `ktc warning:` lines.
    pub warnings: Vec<String>,
    /// How long its first dispatch took.
    pub first_call: Duration,
}

/// Runs test `test` (the caller) as a child (which runs [`child_body`]) in a fresh
/// process with store `dir` and the extra environment `env`.
pub fn run_child(test: &str, dir: &Path, env: &[(String, String)]) -> ChildRun {
    let output = child::spawn(test, |command| {
        command.env("KTC_CACHE_DIR", dir).env("KTC_FINGERPRINT", FINGERPRINT);
        for (k, v) in env {
            command.env(k, v);
        }
    });
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let warnings = child::warnings(&output);
    let us = stdout
        .lines()
        .find_map(|l| l.split_once("FIRST_CALL_US ").map(|(_, v)| v))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no timing in child output:\n{stdout}"));
    ChildRun { stdout, warnings, first_call: Duration::from_micros(us) }
}

/// The child's body: three calls, the first timed, each checked against the reference.
pub fn child_body() {
    for i in 0..3 {
        let (data, mut out) = scale::inputs(1000);
        let started = Instant::now();
        let choice = scale::explain(&data, &mut out);
        if i == 0 {
            println!("FIRST_CALL_US {}", started.elapsed().as_micros());
        }
        scale::call(&data, &mut out);
        let mut expected = vec![0.0; data.len()];
        scale::serial(&data, &mut expected);
        let kind = if matches!(choice.source, ChoiceSource::Fallback { .. }) { "FALLBACK" } else { "REGION" };
        println!("VARIANT {} {kind}", choice.variant);
        println!("OUTPUT {}", if out == expected { "equal" } else { "differs" });
    }
}

/// The environment naming `url` as the remote with the failure cases' timeout.
pub fn remote_env(url: &str) -> Vec<(String, String)> {
    vec![("KTC_REMOTE".into(), url.into()), ("KTC_REMOTE_TIMEOUT_MS".into(), TIMEOUT_MS.to_string())]
}

/// Asserts a child against a failing remote fell back to the reference with correct
/// output, within the timeout plus the margin, with one warning naming `cause`.
pub fn assert_bounded_fallback(run: &ChildRun, cause: &str) {
    let bound = Duration::from_millis(TIMEOUT_MS) + MARGIN;
    println!("first call took {:?} (bound {bound:?})", run.first_call);
    assert!(run.first_call < bound, "first call took {:?}, over {bound:?}", run.first_call);
    assert!(run.stdout.contains("VARIANT serial FALLBACK"), "{}", run.stdout);
    assert!(!run.stdout.contains("OUTPUT differs"), "{}", run.stdout);
    assert_eq!(run.warnings.len(), 1, "expected one warning, got {:#?}", run.warnings);
    assert!(run.warnings[0].contains("remote"), "{}", run.warnings[0]);
    assert!(run.warnings[0].contains(cause), "warning {:?} does not mention {cause:?}", run.warnings[0]);
}

/// Asserts a child dispatched from the tuned entry without any warning.
pub fn assert_tuned(run: &ChildRun) {
    assert!(run.stdout.contains("VARIANT chunked REGION"), "{}", run.stdout);
    assert!(!run.stdout.contains("OUTPUT differs"), "{}", run.stdout);
    assert!(run.warnings.is_empty(), "{:#?}", run.warnings);
}

/// `n` threads, each with its own backend from `open`, create the same key at once.
/// Returns the outcomes; panics on any error.
pub fn race_pushers<B: RemoteBackend + 'static>(
    n: usize,
    open: impl Fn() -> B,
    key: &RemoteKey,
    bytes: &[u8],
) -> Vec<PutOutcome> {
    let barrier = Arc::new(Barrier::new(n));
    let threads: Vec<_> = (0..n)
        .map(|_| {
            let (backend, barrier, key, bytes) = (open(), barrier.clone(), key.clone(), bytes.to_vec());
            std::thread::spawn(move || {
                barrier.wait();
                backend.put_if_absent(&key, &bytes)
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap().expect("no pusher sees an error")).collect()
}
