//! Tune on first use: the MRMR example sweeps a kernel (`joint_hist_batched`, and
//! `discretize` for CSV input) when this host has no current tuning for it, and
//! otherwise says which stored entry it dispatches with.

use std::path::PathBuf;

use ktc::sweep::SweepOptions;
use ktc::{KernelTuningCache, LookupStatus, Provenance, Tuner};

/// What [`ensure_tuned`] found or did.
#[derive(Debug)]
pub enum TuningStatus {
    /// A current entry was already stored.
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

/// Makes sure `tuner`'s kernel (e.g. `&joint_hist_batched::__KTC_TUNER`) has a current
/// tuning in `cache`, sweeping it (with a progress bar when `progress` and stderr is a
/// terminal) when it has none. Call it before the kernel's first `call`: the dispatcher
/// reads its table once per process.
pub fn ensure_tuned(
    cache: &KernelTuningCache,
    tuner: &Tuner,
    progress: bool,
) -> Result<TuningStatus, ktc::Error> {
    let provenance = Provenance::current(&tuner.identity);
    let reason = match cache.load(tuner.name, &provenance, Some(&tuner.schema())).status {
        LookupStatus::Found { path, .. } => return Ok(TuningStatus::Found { path }),
        LookupStatus::Stale { changes, .. } => {
            let changes: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
            format!("the stored tuning is stale ({})", changes.join("; "))
        }
        LookupStatus::Missing => "no tuning for this host yet".to_string(),
    };
    let options = SweepOptions {
        cache_dir: Some(cache.root().to_path_buf()),
        fingerprint: Some(cache.fingerprint().to_string()),
        progress,
        ..SweepOptions::from_env()
    };
    let report = (tuner.sweep)(&options)?;
    Ok(TuningStatus::Tuned { reason, path: report.entry_path, table: report.entry.table().to_string() })
}
