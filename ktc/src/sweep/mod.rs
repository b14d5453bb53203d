//! The sweep harness: times every available (variant, block size) over a grid of
//! problem sizes, verifies outputs against the reference and writes one entry.

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
    /// A time budget for the whole kernel; `None`: the mode's default.
    pub budget: Option<Duration>,
    /// The store folder; `None`: `KTC_CACHE_DIR` or the user cache folder.
    pub cache_dir: Option<PathBuf>,
    /// Show a progress bar when stderr is a terminal.
    pub progress: bool,
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
}
