//! Tune on first use: the MRMR example sweeps a kernel (`joint_hist_batched`, and
//! `discretize` for CSV input) when this host has no current tuning for it, and
//! otherwise says which stored entry it dispatches with. The policy (local store, then
//! the remote, then a sweep) is ktc's own [`ktc::resolve::resolve`].

use std::path::PathBuf;

use ktc::resolve::{Resolution, ResolveOptions, resolve};
use ktc::{KernelInfo, KernelTuningCache};

/// What [`ensure_tuned`] found or did.
#[derive(Debug)]
pub enum TuningStatus {
    /// A current entry was already stored (or fetched from the remote).
    Found {
        /// The entry.
        path: PathBuf,
    },
    /// No current entry (`reason` says why): a sweep ran and wrote one.
    Tuned {
        /// Why a sweep was needed: no entry, or which provenance fields changed.
        reason: String,
        /// The entry written.
        path: PathBuf,
        /// The decision table written, for people to read.
        table: String,
    },
}

/// Makes sure `kernel` (e.g. `joint_hist_batched::Variant::kernel()`) has a
/// current tuning in `cache`, sweeping it (with a progress bar when `progress` and
/// stderr is a terminal) when it has none. Call it before the kernel's first `call`:
/// the dispatcher reads its table once per process.
pub fn ensure_tuned(
    cache: &KernelTuningCache,
    kernel: &KernelInfo,
    progress: bool,
) -> Result<TuningStatus, ktc::Error> {
    let options = ResolveOptions { tune_on_miss: true, progress, ..ResolveOptions::from_env() };
    match resolve(kernel, cache, &options) {
        Resolution::Stored { path, .. } | Resolution::Fetched { path, .. } => {
            Ok(TuningStatus::Found { path })
        }
        Resolution::Tuned { reason, path, entry } => {
            Ok(TuningStatus::Tuned { reason, path, table: entry.table().to_string() })
        }
        Resolution::TuneFailed { error, .. } => Err(error),
        // Not returned with `tune_on_miss`; kept an error rather than a panic.
        Resolution::Missing { reason } => Err(ktc::Error::Sweep { kernel: kernel.name.to_string(), reason }),
    }
}
