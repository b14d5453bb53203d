//! How a kernel gets its decision table — the one place this policy lives: the local
//! store, then the remote (`KTC_REMOTE`), then tuning on a miss (when asked for), and
//! otherwise the fallback variant with one warning that names every cause.
//!
//! [`resolve`] runs the policy and says what it found; [`Dispatch::load`] and
//! [`Dispatch::load_from`] (defined here, so that `dispatch` — the hot path — depends
//! on the decision table only) turn that into a dispatcher. The MRMR example's
//! tune-before-first-call step is [`resolve`] with [`ResolveOptions::tune_on_miss`].

use crate::dispatch::Dispatch;
use crate::entry::Entry;
use crate::provenance::summarize_changes;
use crate::registry::KernelInfo;
use crate::remote::{Fetched, fetch_current};
use crate::store::{KernelTuningCache, LookupStatus};
use crate::sweep::SweepOptions;
use crate::{Provenance, warn_once};
use std::path::PathBuf;

/// What [`resolve`] may do beyond reading the local store.
#[derive(Clone, Debug, Default)]
pub struct ResolveOptions {
    /// Ask the remote named by `KTC_REMOTE` on a local miss.
    pub remote: bool,
    /// Sweep the kernel now when neither store has a current entry.
    pub tune_on_miss: bool,
    /// Show the sweep's progress bar (when stderr is a terminal).
    pub progress: bool,
    /// The CUDA device whose tuning is wanted (its provenance records that GPU); 0
    /// for CPU-only kernels and host-resident inputs.
    pub device: usize,
}

impl ResolveOptions {
    /// What a dispatcher does on its first call: ask the remote (when `KTC_REMOTE` names
    /// one) and tune on a miss only when `KTC_TUNE_ON_MISS=1`.
    pub fn from_env() -> Self {
        let tune_on_miss =
            std::env::var("KTC_TUNE_ON_MISS").is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"));
        ResolveOptions { remote: true, tune_on_miss, progress: true, device: 0 }
    }
}

/// Where a kernel's decision table came from, or why there is none.
#[derive(Debug)]
pub enum Resolution {
    /// A current, valid entry of the local store.
    Stored {
        /// The entry file.
        path: PathBuf,
        /// The entry.
        entry: Box<Entry>,
    },
    /// A current entry from the remote, now also in the local store.
    Fetched {
        /// The local copy.
        path: PathBuf,
        /// The entry.
        entry: Box<Entry>,
    },
    /// No current entry was stored (`reason` says why); a sweep ran and wrote one.
    Tuned {
        /// Why a sweep was needed: no entry, which provenance fields changed, ...
        reason: String,
        /// The entry written.
        path: PathBuf,
        /// The entry.
        entry: Box<Entry>,
    },
    /// No usable entry; `reason` names every cause (for the one warning).
    Missing {
        /// Why: no entry, stale, skipped files, the remote's failure.
        reason: String,
    },
    /// No usable entry, and tuning on the miss failed.
    TuneFailed {
        /// Why a sweep was needed.
        reason: String,
        /// Why it failed.
        error: crate::Error,
    },
}

/// Finds `kernel`'s current decision table for `cache`'s fingerprint: the local store,
/// then (with `options.remote`) the remote, then (with `options.tune_on_miss`) a sweep.
/// Never panics; files skipped on the way are named in the reason of a miss, or in one
/// warning when an older valid entry is used.
pub fn resolve(kernel: &KernelInfo, cache: &KernelTuningCache, options: &ResolveOptions) -> Resolution {
    let provenance = Provenance::for_device(&kernel.identity, options.device);
    let schema = kernel.schema();
    let lookup = cache.load_quiet(kernel.name, &provenance, Some(&schema));
    let skipped: Vec<String> = lookup.skipped.iter().map(|s| s.to_string()).collect();
    let skipped =
        if skipped.is_empty() { String::new() } else { format!("; skipped {}", skipped.join("; ")) };
    let mut reason = match lookup.status {
        LookupStatus::Found { path, entry, .. } => {
            if !skipped.is_empty() {
                warn_once(format!("{}: using {}{skipped}", kernel.name, path.display()));
            }
            return Resolution::Stored { path, entry };
        }
        LookupStatus::Stale { path, changes, .. } => {
            format!("the tuning at {} is stale ({})", path.display(), summarize_changes(&changes))
        }
        LookupStatus::Missing => format!(
            "no tuning for `{}` on {} (code version {}) in {}",
            kernel.name,
            cache.fingerprint(),
            provenance.code_version(),
            cache.root().display()
        ),
    } + &skipped;
    if options.remote {
        match fetch_current(cache, kernel.name, &provenance.code_version(), &schema) {
            Fetched::Entry { path, entry } => return Resolution::Fetched { path, entry },
            Fetched::NotConfigured => {}
            Fetched::Failed(why) => reason = format!("{reason}; {why}"),
        }
    }
    if !options.tune_on_miss {
        return Resolution::Missing { reason };
    }
    // Said before the sweep, which can take a while.
    warn_once(format!("{}: {reason}; tuning it now", kernel.name));
    let sweep = SweepOptions {
        cache_dir: Some(cache.root().to_path_buf()),
        fingerprint: Some(cache.fingerprint().to_string()),
        progress: options.progress,
        device: options.device,
        ..SweepOptions::from_env()
    };
    match (kernel.sweep)(&sweep) {
        Ok(report) => Resolution::Tuned { reason, path: report.entry_path, entry: Box::new(report.entry) },
        Err(error) => Resolution::TuneFailed { reason, error },
    }
}

impl Dispatch {
    /// Loads the newest valid entry for this host and the kernel's code version from the
    /// default store (`KTC_CACHE_DIR` or the user cache folder). On a local miss, a
    /// remote named by `KTC_REMOTE` is asked (bounded by `KTC_REMOTE_TIMEOUT_MS`) and
    /// a valid entry found there is stored locally and used. With
    /// `KTC_TUNE_ON_MISS=1`, a missing or stale entry is tuned now. Never panics:
    /// anything that stops an entry from being used gives the fallback, warned once.
    pub fn load(kernel: &'static KernelInfo) -> Dispatch {
        match KernelTuningCache::load_or_create() {
            Ok(cache) => Dispatch::load_from(kernel, &cache),
            Err(e) => Dispatch::fallback(kernel, format!("tuning cache unavailable: {e}")),
        }
    }

    /// As [`load`](Dispatch::load), from a given store: the store's fingerprint serves
    /// device 0 (and host-resident inputs); another GPU of this host, when a call runs
    /// on it, loads the entry of its own fingerprint from the same store.
    pub fn load_from(kernel: &'static KernelInfo, cache: &KernelTuningCache) -> Dispatch {
        let dispatch = Dispatch::load_from_device(kernel, cache, 0);
        let count = crate::cuda::device_count();
        if count < 2 {
            return dispatch;
        }
        let root = cache.root().to_path_buf();
        let fp0 = cache.fingerprint().to_string();
        let load = move |d: usize| {
            // A device identical to device 0 shares its tuning.
            if crate::cuda::gpu_summary(d).is_some()
                && crate::cuda::gpu_summary(d) == crate::cuda::gpu_summary(0)
            {
                return None;
            }
            let fingerprint = if fp0 == crate::hw_fingerprint_for(0) {
                crate::hw_fingerprint_for(d)
            } else {
                crate::fingerprint::device_override(&fp0, d)
            };
            Some(match KernelTuningCache::open(&root) {
                Ok(cache) => Dispatch::load_from_device(kernel, &cache.with_fingerprint(fingerprint), d),
                Err(e) => Dispatch::fallback(kernel, format!("tuning cache unavailable for device {d}: {e}")),
            })
        };
        dispatch.with_devices(count, Box::new(load))
    }

    /// As [`load_from`](Dispatch::load_from), for CUDA device `device` only: the entry
    /// of the store's fingerprint for that device's provenance.
    pub fn load_from_device(
        kernel: &'static KernelInfo,
        cache: &KernelTuningCache,
        device: usize,
    ) -> Dispatch {
        match resolve(kernel, cache, &ResolveOptions { device, ..ResolveOptions::from_env() }) {
            Resolution::Stored { path, entry } | Resolution::Fetched { path, entry } => {
                Dispatch::from_entry(kernel, path, &entry)
            }
            Resolution::Tuned { path, entry, .. } => Dispatch::from_entry(kernel, path, &entry),
            Resolution::Missing { reason } => Dispatch::fallback(
                kernel,
                format!("{reason}; run `cargo test` in the kernel's crate or set KTC_TUNE_ON_MISS=1"),
            ),
            Resolution::TuneFailed { reason, error } => {
                Dispatch::fallback(kernel, format!("{reason}; tuning on first use failed: {error}"))
            }
        }
    }
}
