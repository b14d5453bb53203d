//! Garbage collection: superseded entries, stray temp files, optionally whole stale
//! code versions.

use super::KernelTuningCache;
use super::read::{Key, Skipped, candidates, read_entry, read_names, subfolders};
use super::write::TMP_PREFIX;
use crate::error::Error;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A temp file younger than this may belong to a writer still in flight.
const TMP_GRACE: Duration = Duration::from_secs(10 * 60);

/// What [`gc`](KernelTuningCache::gc) removes.
#[derive(Clone, Debug)]
pub struct GcOptions {
    /// Valid entries kept per (fingerprint, kernel, code version), newest first. `0`
    /// removes every valid entry.
    pub keep: usize,
    /// Report what would be removed, remove nothing.
    pub dry_run: bool,
    /// Also remove invalid `.json` files (by default they are only reported).
    pub remove_invalid: bool,
    /// Kernel name → its current code version: for the kernels named, the entries of
    /// this cache's fingerprint under every other code version are removed.
    pub current_code_versions: BTreeMap<String, String>,
}

impl Default for GcOptions {
    fn default() -> Self {
        GcOptions { keep: 1, dry_run: false, remove_invalid: false, current_code_versions: BTreeMap::new() }
    }
}

/// What [`gc`](KernelTuningCache::gc) did (or, in a dry run, would do).
#[derive(Clone, Debug, Default)]
pub struct GcReport {
    /// Files removed (or to be removed), sorted.
    pub removed: Vec<PathBuf>,
    /// Valid entries kept.
    pub kept: usize,
    /// Invalid files and unreadable folders found.
    pub invalid: Vec<Skipped>,
}

impl KernelTuningCache {
    /// Removes superseded entries (beyond the newest `keep` valid ones per key, over all
    /// fingerprints), temp files older than ten minutes, and what `options` adds.
    ///
    /// # Errors
    /// [`Error::Io`] when a file cannot be removed; unreadable folders and invalid files
    /// are reported in [`GcReport::invalid`] instead.
    pub fn gc(&self, options: &GcOptions) -> Result<GcReport, Error> {
        let mut report = GcReport::default();
        let mut doomed = Vec::new();
        for (fingerprint, fp_dir) in subfolders(&self.root, &mut report.invalid) {
            for (kernel, k_dir) in subfolders(&fp_dir, &mut report.invalid) {
                let current = (fingerprint == self.fingerprint())
                    .then(|| options.current_code_versions.get(&kernel))
                    .flatten();
                for (code_version, dir) in subfolders(&k_dir, &mut report.invalid) {
                    let stale = current.is_some_and(|c| *c != code_version);
                    let keep = if stale { 0 } else { options.keep };
                    let key = Key { fingerprint: &fingerprint, kernel: &kernel, code_version: &code_version };
                    sweep_key(&dir, key, keep, options.remove_invalid, &mut report, &mut doomed);
                    old_temp_files(&dir, &mut report.invalid, &mut doomed);
                }
            }
        }
        doomed.sort();
        if !options.dry_run {
            doomed.iter().try_for_each(|path| remove(path))?;
        }
        report.removed = doomed;
        Ok(report)
    }
}

/// Marks the valid entries of one key beyond the newest `keep`, and invalid files when
/// asked; counts the kept ones.
fn sweep_key(
    dir: &Path,
    key: Key<'_>,
    keep: usize,
    remove_invalid: bool,
    report: &mut GcReport,
    doomed: &mut Vec<PathBuf>,
) {
    let mut valid = 0;
    for path in candidates(dir, &mut report.invalid).into_iter().rev() {
        match read_entry(&path, key, None) {
            Ok(_) if valid < keep => {
                valid += 1;
                report.kept += 1;
            }
            Ok(_) => doomed.push(path),
            Err(reason) => {
                if remove_invalid && fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
                    doomed.push(path.clone());
                }
                report.invalid.push(Skipped { path, reason });
            }
        }
    }
}

/// Marks temp files last modified more than [`TMP_GRACE`] ago.
fn old_temp_files(dir: &Path, skipped: &mut Vec<Skipped>, doomed: &mut Vec<PathBuf>) {
    let now = SystemTime::now();
    for (name, path) in read_names(dir, skipped) {
        let old = fs::symlink_metadata(&path)
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > TMP_GRACE));
        if name.starts_with(TMP_PREFIX) && old {
            doomed.push(path);
        }
    }
}

/// Removes one file; one already gone (another gc) is not an error.
fn remove(path: &Path) -> Result<(), Error> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io("remove entry", path, e)),
        _ => Ok(()),
    }
}
