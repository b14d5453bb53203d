//! Garbage collection: superseded entries, stray temp files, optionally whole stale
//! code versions.

use super::KernelTuningCache;
use super::flagged_files;
use super::name::{Key, TMP_PREFIX};
use super::parse::read_entry;
use super::read::{Skipped, candidates, read_names, subfolders, vanished};
use crate::decision::KernelSchema;
use crate::entry::Entry;
use crate::error::Error;
use std::collections::{BTreeMap, BTreeSet};
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
    /// Kernel name → its schema: entries of the kernels named are validated exactly as
    /// their dispatcher validates them. For other kernels gc cannot tell which entry a
    /// dispatcher would serve, so it keeps every entry that could be the one (see
    /// [`gc`](KernelTuningCache::gc)).
    pub schemas: BTreeMap<String, KernelSchema>,
}

impl Default for GcOptions {
    fn default() -> Self {
        GcOptions {
            keep: 1,
            dry_run: false,
            remove_invalid: false,
            current_code_versions: BTreeMap::new(),
            schemas: BTreeMap::new(),
        }
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
    /// gc never removes an entry a dispatcher would serve. With the kernel's schema in
    /// [`GcOptions::schemas`], "valid" is what the dispatcher checks. Without it, an
    /// older entry is removed only when `keep` newer entries are each certain to be
    /// valid whenever it is (same axes, and only (variant, block size) pairs that it
    /// uses too); an entry with, say, a variant the kernel lacks never vouches for the
    /// entries before it. Entries dated beyond the allowed clock skew are invalid.
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
                    let sweep = Sweep {
                        keep,
                        remove_invalid: options.remove_invalid,
                        schema: options.schemas.get(&kernel),
                    };
                    sweep.key(&dir, key, &mut report, &mut doomed);
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

/// How one key's folder is swept.
struct Sweep<'a> {
    keep: usize,
    remove_invalid: bool,
    schema: Option<&'a KernelSchema>,
}

/// What an entry needs of the kernel's schema: its axes and (variant, block size) pairs.
type Needs = (Vec<crate::decision::Axis>, BTreeSet<(String, Option<usize>)>);

impl Sweep<'_> {
    /// Marks the valid entries of one key that a dispatcher can no longer serve, and
    /// invalid files when asked; counts the kept ones.
    fn key(&self, dir: &Path, key: Key<'_>, report: &mut GcReport, doomed: &mut Vec<PathBuf>) {
        // Newer valid entries, newest first, with what each needs of the schema.
        let mut newer: Vec<Needs> = Vec::new();
        for path in candidates(dir, &mut report.invalid).into_iter().rev() {
            match read_entry(&path, key, self.schema) {
                Ok(entry) => {
                    let needs = needs(&entry);
                    if self.served_before(&newer, &needs) {
                        // The points verifies flagged in it go with it.
                        doomed.extend(flagged_files(&path));
                        doomed.push(path);
                    } else {
                        report.kept += 1;
                    }
                    newer.push(needs);
                }
                // Another gc removed it: nothing to do.
                Err(_) if vanished(&path) => {}
                Err(reason) => {
                    if self.remove_invalid && fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
                        doomed.extend(flagged_files(&path));
                        doomed.push(path.clone());
                    }
                    report.invalid.push(Skipped { path, reason: reason.to_string() });
                }
            }
        }
    }

    /// Whether at least `keep` of the newer entries are served before an entry needing
    /// `needs`, whatever the kernel's schema is.
    fn served_before(&self, newer: &[Needs], needs: &Needs) -> bool {
        if self.schema.is_some() {
            // Validated with the schema: every newer valid entry is served first.
            return newer.len() >= self.keep;
        }
        let vouching = newer.iter().filter(|n| n.0 == needs.0 && n.1.is_subset(&needs.1));
        vouching.take(self.keep).count() >= self.keep
    }
}

fn needs(entry: &Entry) -> Needs {
    let pairs = entry.regions.iter().map(|r| (r.variant.clone(), r.block_size)).collect();
    (entry.axes.clone(), pairs)
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
