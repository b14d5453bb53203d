//! Reading: the newest valid entry of a key, stale detection, and listing.

use super::invalid::EntryError;
use super::name::{Key, TMP_PREFIX};
use super::parse::read_entry;
use super::{KernelTuningCache, is_slug};
use crate::decision::{KernelSchema, Region};
use crate::entry::Entry;
use crate::provenance::{FieldChange, Provenance};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The result of a [`load`](KernelTuningCache::load) or
/// [`lookup`](KernelTuningCache::lookup): what was found and which files were skipped.
#[derive(Clone, Debug)]
pub struct Lookup {
    /// What was found.
    pub status: LookupStatus,
    /// Files passed over as invalid on the way, newest first.
    pub skipped: Vec<Skipped>,
}

/// What a lookup found.
#[derive(Clone, Debug)]
pub enum LookupStatus {
    /// A valid entry for the current code version.
    Found {
        /// The entry's file.
        path: PathBuf,
        /// The entry.
        entry: Box<Entry>,
        /// The index of the region containing the query; `None` from `load`, or when no
        /// region contains it.
        region: Option<usize>,
    },
    /// No valid entry for the current code version, but one for another: reported, never
    /// served.
    Stale {
        /// The stale entry's file.
        path: PathBuf,
        /// The stale entry.
        entry: Box<Entry>,
        /// The provenance fields that differ (stored → current).
        changes: Vec<FieldChange>,
    },
    /// No valid entry at all.
    Missing,
}

impl Lookup {
    /// The region chosen for the query, when an entry was found and a region contains it.
    pub fn decision(&self) -> Option<&Region> {
        match &self.status {
            LookupStatus::Found { entry, region: Some(i), .. } => entry.regions.get(*i),
            _ => None,
        }
    }

    /// The entry found for the current code version (never a stale one).
    pub fn entry(&self) -> Option<&Entry> {
        match &self.status {
            LookupStatus::Found { entry, .. } => Some(entry),
            _ => None,
        }
    }
}

/// A file or folder passed over, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file or folder.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

/// One entry file of the store, as [`list`](KernelTuningCache::list) finds it.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The file.
    pub path: PathBuf,
    /// The fingerprint folder it is in.
    pub fingerprint: String,
    /// The kernel folder it is in.
    pub kernel: String,
    /// The code version folder it is in.
    pub code_version: String,
    /// The entry, or why it is invalid.
    pub entry: Result<Entry, EntryError>,
}

/// How many times a lookup lists a folder again after files it listed vanished (a gc
/// removing superseded entries under a reader): each new listing names what gc kept.
const RELISTS: usize = 16;

impl KernelTuningCache {
    /// The newest valid entry of `kernel` for this fingerprint and
    /// `provenance.code_version()`, checked against `schema` where given.
    ///
    /// Invalid files are skipped, each reported in [`Lookup::skipped`] and warned about
    /// once, and the next newest is tried. Without a valid entry for this code version,
    /// the newest valid entry of another code version is reported as
    /// [`LookupStatus::Stale`]. Never fails and never panics on file contents.
    pub fn load(&self, kernel: &str, provenance: &Provenance, schema: Option<&KernelSchema>) -> Lookup {
        let lookup = self.load_quiet(kernel, provenance, schema);
        for s in &lookup.skipped {
            crate::warn_once(format!("skipping tuning cache entry {s}"));
        }
        lookup
    }

    /// As [`load`](KernelTuningCache::load) without warning: for callers (the
    /// dispatcher) that fold the skipped files into a warning of their own.
    pub fn load_quiet(&self, kernel: &str, provenance: &Provenance, schema: Option<&KernelSchema>) -> Lookup {
        let mut skipped = Vec::new();
        let status = self.find(kernel, provenance, schema, &mut skipped);
        Lookup { status, skipped }
    }

    fn find(
        &self,
        kernel: &str,
        provenance: &Provenance,
        schema: Option<&KernelSchema>,
        skipped: &mut Vec<Skipped>,
    ) -> LookupStatus {
        let fingerprint = self.fingerprint();
        let code_version = provenance.code_version();
        if ![fingerprint, kernel, &code_version].iter().all(|n| is_slug(n)) {
            return LookupStatus::Missing;
        }
        let kernel_dir = self.kernel_dir(fingerprint, kernel);
        let key = Key { fingerprint, kernel, code_version: &code_version };
        if let Some((path, entry)) = newest_valid(&kernel_dir.join(&code_version), key, schema, skipped) {
            return LookupStatus::Found { path, entry: Box::new(entry), region: None };
        }
        match self.newest_stale(&kernel_dir, key, schema, skipped) {
            Some((path, entry)) => {
                let changes = provenance.provenance_changed(&entry.provenance);
                LookupStatus::Stale { path, entry: Box::new(entry), changes }
            }
            None => LookupStatus::Missing,
        }
    }

    /// The newest valid entry over the other code versions of the kernel, by file name.
    fn newest_stale(
        &self,
        kernel_dir: &Path,
        current: Key<'_>,
        schema: Option<&KernelSchema>,
        skipped: &mut Vec<Skipped>,
    ) -> Option<(PathBuf, Entry)> {
        let mut best: Option<(PathBuf, Entry)> = None;
        for (name, dir) in subfolders(kernel_dir, skipped) {
            if name == current.code_version {
                continue;
            }
            let key = Key { code_version: &name, ..current };
            if let Some((path, entry)) = newest_valid(&dir, key, schema, skipped)
                && best.as_ref().is_none_or(|(b, _)| path.file_name() > b.file_name())
            {
                best = Some((path, entry));
            }
        }
        best
    }

    /// Every entry file in the store, over all fingerprints, kernels and code versions,
    /// sorted by path, each parsed and validated (without a kernel schema).
    pub fn list(&self) -> Vec<Listed> {
        self.list_with(&BTreeMap::new())
    }

    /// As [`list`](Self::list), validating the entries of each kernel named in `schemas`
    /// against its schema, exactly as its dispatcher does.
    pub fn list_with(&self, schemas: &BTreeMap<String, KernelSchema>) -> Vec<Listed> {
        let mut ignored = Vec::new();
        let mut listed = Vec::new();
        for (fingerprint, fp_dir) in subfolders(&self.root, &mut ignored) {
            for (kernel, k_dir) in subfolders(&fp_dir, &mut ignored) {
                for (code_version, dir) in subfolders(&k_dir, &mut ignored) {
                    let key = Key { fingerprint: &fingerprint, kernel: &kernel, code_version: &code_version };
                    for path in candidates(&dir, &mut ignored) {
                        let entry = read_entry(&path, key, schemas.get(&kernel));
                        if entry.is_err() && vanished(&path) {
                            continue;
                        }
                        listed.push(Listed {
                            path,
                            fingerprint: fingerprint.clone(),
                            kernel: kernel.clone(),
                            code_version: code_version.clone(),
                            entry,
                        });
                    }
                }
            }
        }
        listed.sort_by(|a, b| a.path.cmp(&b.path));
        listed
    }
}

/// The newest file in `dir` that holds a valid entry for `key`; the invalid ones tried
/// before it are added to `skipped`.
fn newest_valid(
    dir: &Path,
    key: Key<'_>,
    schema: Option<&KernelSchema>,
    skipped: &mut Vec<Skipped>,
) -> Option<(PathBuf, Entry)> {
    newest_valid_listed(|skipped| candidates(dir, skipped), key, schema, skipped)
}

/// As [`newest_valid`] over the files `list` names (oldest first). A file that vanishes
/// between the listing and the read was removed by a gc that kept something newer, so
/// the folder is listed again instead of reporting nothing.
pub(super) fn newest_valid_listed(
    mut list: impl FnMut(&mut Vec<Skipped>) -> Vec<PathBuf>,
    key: Key<'_>,
    schema: Option<&KernelSchema>,
    skipped: &mut Vec<Skipped>,
) -> Option<(PathBuf, Entry)> {
    for attempt in 0..RELISTS {
        let mut any_vanished = false;
        for path in list(skipped).into_iter().rev() {
            match read_entry(&path, key, schema) {
                Ok(entry) => return Some((path, entry)),
                Err(_) if vanished(&path) => any_vanished = true,
                // A file skipped on an earlier listing is reported once.
                Err(_) if attempt > 0 && skipped.iter().any(|s| s.path == path) => {}
                Err(reason) => skipped.push(Skipped { path, reason: reason.to_string() }),
            }
        }
        if !any_vanished {
            break;
        }
    }
    None
}

/// Whether `path` is gone (removed since it was listed).
pub(crate) fn vanished(path: &Path) -> bool {
    fs::symlink_metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
}

/// The `*.json` files of `dir` (not temp files), sorted by name, oldest first. A folder
/// that does not exist has none; one that cannot be read is reported.
pub(crate) fn candidates(dir: &Path, skipped: &mut Vec<Skipped>) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = read_names(dir, skipped)
        .into_iter()
        .filter(|(name, _)| name.ends_with(".json") && !name.starts_with(TMP_PREFIX))
        .map(|(_, path)| path)
        .collect();
    files.sort();
    files
}

/// The subfolders of `dir` (by name, sorted), following no symbolic link.
pub(crate) fn subfolders(dir: &Path, skipped: &mut Vec<Skipped>) -> Vec<(String, PathBuf)> {
    let mut dirs: Vec<_> = read_names(dir, skipped)
        .into_iter()
        .filter(|(_, path)| fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()))
        .collect();
    dirs.sort();
    dirs
}

/// The UTF-8 names in `dir` with their paths. Other names are none of the store's.
pub(crate) fn read_names(dir: &Path, skipped: &mut Vec<Skipped>) -> Vec<(String, PathBuf)> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            skipped.push(Skipped { path: dir.to_owned(), reason: format!("cannot read folder: {e}") });
            return Vec::new();
        }
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
        .collect()
}
