//! Options and results of a sweep.

use std::path::PathBuf;
use std::time::Duration;

/// How long a sweep may run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SweepMode {
    /// Shortest runs: the default under `cargo test` and in CI.
    #[default]
    Quick,
    /// More repetitions until the spread is small.
    Full,
}

/// Options of one sweep run.
#[derive(Clone, Debug, Default)]
pub struct SweepOptions {
    /// Quick or full.
    pub mode: SweepMode,
    /// A time budget for the whole kernel; `None`: the mode's default, plus twice the
    /// grid's pauses where [`SweepOptions::calls`] pauses before each call.
    pub budget: Option<Duration>,
    /// The store folder; `None`: `KTC_CACHE_DIR` or the user cache folder.
    pub cache_dir: Option<PathBuf>,
    /// The fingerprint to file the entry under; `None`: this host's.
    pub fingerprint: Option<String>,
    /// Show a progress bar when stderr is a terminal.
    pub progress: bool,
    /// The GPU ordinal the entry is for: its provenance records that device's GPU.
    /// `0` (the default) for CPU-only kernels, as [`Provenance::current`](crate::Provenance::current).
    pub device: usize,
    /// Shows the bar as one line of a group (one line per kernel × device in
    /// [`retune_all`](crate::retune_all)); `None`: a bar of its own.
    pub progress_group: Option<super::ProgressGroup>,
    /// Do not push the new entry to the remote named by `KTC_REMOTE` (which a sweep
    /// otherwise does, unless `KTC_REMOTE_PUSH=0`).
    pub skip_push: bool,
    /// Measure the grid only: no refinement between grid points, region bounds at grid
    /// values (the sweep before refinement existed, kept to compare the two).
    /// `KTC_SWEEP_REFINE=0` sets it.
    pub grid_only: bool,
    /// How the timed calls follow each other: in a loop or one after each pause, for a
    /// kernel called now and then. `None` (the default): as the kernel declares
    /// (`#[tunable(after_pause_ms = ...)]`, see [`KernelInfo::calls`](crate::KernelInfo::calls)),
    /// else in a loop. The entry records the pattern timed, and a verify of the entry
    /// times calls the same way. `KTC_SWEEP_AFTER_PAUSE_MS` sets it (`0`: in a loop).
    pub calls: Option<super::CallPattern>,
    /// What the call does: tune (the default), or verify the stored entry.
    pub task: super::SweepTask,
}

impl SweepOptions {
    /// Options from the environment: `KTC_SWEEP=quick|full` (default quick),
    /// `KTC_SWEEP_BUDGET_S` (seconds per kernel), `KTC_SWEEP_REFINE=0` (grid only) and
    /// `KTC_SWEEP_DEVICE` (the CUDA ordinal to tune for, default 0: its fingerprint keys
    /// the entry, its GPU runs the CUDA variants) and `KTC_SWEEP_AFTER_PAUSE_MS` (time
    /// one call after each pause this long, see [`CallPattern`](super::CallPattern));
    /// progress on.
    pub fn from_env() -> Self {
        let mode = match std::env::var("KTC_SWEEP").as_deref() {
            Ok("full") => SweepMode::Full,
            _ => SweepMode::Quick,
        };
        let budget = std::env::var("KTC_SWEEP_BUDGET_S")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .map(Duration::from_secs_f64);
        let device =
            std::env::var("KTC_SWEEP_DEVICE").ok().and_then(|d| d.trim().parse::<usize>().ok()).unwrap_or(0);
        // Device 0's fingerprint is the store's default; another device files its own.
        let fingerprint = (device != 0).then(|| crate::hw_fingerprint_for(device));
        let grid_only = std::env::var("KTC_SWEEP_REFINE").is_ok_and(|v| v == "0");
        SweepOptions {
            mode,
            budget,
            device,
            fingerprint,
            progress: true,
            grid_only,
            calls: super::CallPattern::from_env(),
            ..SweepOptions::default()
        }
    }
}

/// What a kernel's sweep entry point does when called.
#[derive(Clone, Debug, Default)]
pub enum SweepTask {
    /// Sweep (and refine), write an entry.
    #[default]
    Tune,
    /// Time the stored entry's choices against every candidate at sampled off-grid
    /// points; write nothing. The report's `entry` is the entry verified.
    Verify(super::VerifyOptions),
    /// Verify, then re-sweep around the flagged points only, reusing the entry's other
    /// measurements, and write the result as a new entry.
    Refine(super::VerifyOptions),
}

/// What a sweep did.
#[derive(Clone, Debug)]
pub struct SweepReport {
    /// The kernel swept.
    pub kernel: String,
    /// The entry written.
    pub entry_path: PathBuf,
    /// The entry's content.
    pub entry: crate::Entry,
    /// The push of the entry to the remote: `None` when none was tried (no remote,
    /// opted out), else what the remote did or why the push failed (warned once; a
    /// failed push never fails the sweep).
    pub pushed: Option<Result<super::PutOutcome, crate::error::PushError>>,
    /// What a [`SweepTask::Verify`] found; `None` for a sweep.
    pub verify: Option<super::VerifyReport>,
}
