//! The cache store: immutable JSON entries under
//! `<root>/<fingerprint>/<kernel>/<code_version>/<timestamp>-<nonce>.json`.
//!
//! Every write publishes a new file under a fresh name (create-exclusive); a reader
//! takes the newest valid one. There is no lock and no read-modify-write, so two
//! writers never revert each other and a crash never leaves a visible half-written
//! entry. `gc` removes superseded entries.

mod flagged;
mod gc;
mod invalid;
mod name;
mod parse;
mod read;
#[cfg(test)]
mod read_tests;
mod time;
mod write;

pub(crate) use flagged::{Point, flagged_files, record_flagged, recorded_flagged};
pub use gc::{GcOptions, GcReport};
pub(crate) use invalid::MAX_ENTRY_BYTES;
pub use invalid::{Ahead, EntryError};
#[cfg(feature = "cli")]
pub(crate) use name::check_entry;
pub(crate) use name::{Key, TMP_PREFIX, is_entry_file_name};
pub(crate) use parse::validate_entry_bytes;
pub use read::{Listed, Lookup, LookupStatus, Skipped};
pub(crate) use read::{read_names, subfolders};
pub use time::now_rfc3339;
pub(crate) use write::{link_if_absent, sync_dir, write_temp};

use crate::decision::{Axis, AxisValue, Condition, DecisionTable, KernelSchema, Region};
use crate::entry::{Entry, SCHEMA};
use crate::error::Error;
use crate::provenance::{KernelIdentity, Provenance};
use std::io;
use std::path::{Path, PathBuf};

/// A per-host store of tuning decisions, keyed by (fingerprint, kernel, code_version).
///
/// ```no_run
/// use ktc::{KernelTuningCache, Region};
///
/// let cache = KernelTuningCache::open("/tmp/ktc-cache")?.with_fingerprint("my-host");
/// cache.write_table("saxpy", &["n"], vec![Region::new("serial").at_most("n", 1e4), Region::new("parallel")])?;
/// # Ok::<(), ktc::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct KernelTuningCache {
    root: PathBuf,
    /// `None`: this host's [`hw_fingerprint`](crate::hw_fingerprint), probed on first use
    /// so that a cache given an explicit fingerprint never probes the hardware.
    fingerprint: Option<String>,
}

impl KernelTuningCache {
    /// Opens the store at `$KTC_CACHE_DIR` if set and non-empty, else `<user cache
    /// folder>/ktc`, creating the folder if missing.
    ///
    /// # Errors
    /// [`Error::NoCacheDir`] when no folder can be chosen; [`Error::Io`] when the folder
    /// cannot be created or read (a regular file in the way, a read-only parent, ...).
    pub fn load_or_create() -> Result<Self, Error> {
        Self::open(default_root()?)
    }

    /// Opens the store at `root`, creating the folder if missing.
    ///
    /// # Errors
    /// [`Error::Io`] when the folder cannot be created or read.
    pub fn open(root: impl Into<PathBuf>) -> Result<Self, Error> {
        let root = root.into();
        std::fs::create_dir_all(&root).map_err(|e| Error::io("create cache folder", &root, e))?;
        std::fs::read_dir(&root).map_err(|e| Error::io("read cache folder", &root, e))?;
        Ok(KernelTuningCache { root, fingerprint: None })
    }

    /// The same store, read and written under `fingerprint` instead of this host's.
    pub fn with_fingerprint(mut self, fingerprint: impl Into<String>) -> Self {
        self.fingerprint = Some(fingerprint.into());
        self
    }

    /// The store's root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The fingerprint this cache reads and writes under.
    pub fn fingerprint(&self) -> &str {
        self.fingerprint.as_deref().unwrap_or_else(|| crate::hw_fingerprint())
    }

    /// Builds an entry for `kernel` under this cache's fingerprint: `code_version` from
    /// `provenance`, `created` now, no measurements. A sweep fills in the rest and calls
    /// [`write_entry`](Self::write_entry).
    pub fn new_entry(&self, kernel: &str, provenance: &Provenance, table: DecisionTable) -> Entry {
        Entry {
            schema: SCHEMA,
            kernel: kernel.to_owned(),
            fingerprint: self.fingerprint().to_owned(),
            code_version: provenance.code_version(),
            provenance: provenance.clone(),
            created: now_rfc3339(),
            axes: table.axes,
            regions: table.regions,
            measurements: Vec::new(),
            excluded: Vec::new(),
            noise: None,
            reproduce: None,
            load: None,
            state_margin: None,
            after_pause_us: None,
        }
    }

    /// Writes `table` as a new immutable entry for `kernel` with `provenance` (see
    /// [`new_entry`](Self::new_entry) and [`write_entry`](Self::write_entry)).
    ///
    /// # Errors
    /// As [`write_entry`](Self::write_entry).
    pub fn write_table_with(
        &self,
        kernel: &str,
        provenance: &Provenance,
        table: DecisionTable,
    ) -> Result<PathBuf, Error> {
        self.write_entry(&self.new_entry(kernel, provenance, table))
    }

    /// Writes `regions` as a new immutable entry for `kernel` with the provenance of
    /// [`KernelIdentity::UNSPECIFIED`]; earlier entries stay as they are. An axis is categorical when some region has an
    /// equality condition on it, numeric otherwise.
    ///
    /// # Errors
    /// As [`write_entry`](Self::write_entry); an invalid table is
    /// [`Error::InvalidTable`].
    pub fn write_table(&self, kernel: &str, axes: &[&str], regions: Vec<Region>) -> Result<PathBuf, Error> {
        let axes = axes.iter().map(|name| infer_axis(name, &regions)).collect();
        let provenance = Provenance::current(&KernelIdentity::UNSPECIFIED);
        self.write_table_with(kernel, &provenance, DecisionTable { axes, regions })
    }

    /// The decision for `query` from the newest valid entry of `kernel` under the
    /// provenance of [`KernelIdentity::UNSPECIFIED`] (the counterpart of
    /// [`write_table`](Self::write_table)).
    pub fn lookup(&self, kernel: &str, query: &[(&str, AxisValue<'_>)]) -> Lookup {
        let provenance = Provenance::current(&KernelIdentity::UNSPECIFIED);
        self.lookup_with(kernel, &provenance, None, query)
    }

    /// As [`load`](Self::load), then the first region of a found entry that contains
    /// `query` (`region: None` if none does).
    pub fn lookup_with(
        &self,
        kernel: &str,
        provenance: &Provenance,
        schema: Option<&KernelSchema>,
        query: &[(&str, AxisValue<'_>)],
    ) -> Lookup {
        let mut found = self.load(kernel, provenance, schema);
        if let LookupStatus::Found { entry, region, .. } = &mut found.status {
            *region = entry.regions.iter().position(|r| r.contains(query));
        }
        found
    }

    pub(crate) fn kernel_dir(&self, fingerprint: &str, kernel: &str) -> PathBuf {
        self.root.join(fingerprint).join(kernel)
    }
}

fn default_root() -> Result<PathBuf, Error> {
    match std::env::var_os("KTC_CACHE_DIR") {
        Some(dir) if !dir.is_empty() => Ok(PathBuf::from(dir)),
        _ => dirs::cache_dir().map(|d| d.join("ktc")).ok_or(Error::NoCacheDir),
    }
}

fn infer_axis(name: &str, regions: &[Region]) -> Axis {
    let categorical = regions.iter().any(|r| matches!(r.when.get(name), Some(Condition::Eq(_))));
    if categorical { Axis::categorical(name) } else { Axis::numeric(name) }
}

/// Whether `name` may be used as one path component: `[A-Za-z0-9._-]+`, not `.`/`..`.
pub(crate) fn is_slug(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// An error for a name that is not slug-safe, naming what it was for.
fn not_slug(what: &str, name: &str, path: &Path) -> Error {
    let msg = format!("{what} `{name}` is not a safe path component ([A-Za-z0-9._-], not `.` or `..`)");
    Error::io("check entry key", path, io::Error::new(io::ErrorKind::InvalidInput, msg))
}
