//! The library side of `ktc push`, `ktc pull` and `ktc remote ls`: whole-store
//! transfers in either direction, each key reported as transferred, already present
//! or rejected with its reason. Nothing is ever overwritten on either side.

use super::{PutOutcome, RemoteBackend, RemoteError, RemoteKey};
use crate::store::{KernelTuningCache, MAX_ENTRY_BYTES, validate_entry_bytes};
use std::io::Read;
use std::path::Path;

/// Which entries a transfer or listing covers; `None` fields match everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SyncFilter {
    /// Only entries of this fingerprint.
    pub fingerprint: Option<String>,
    /// Only entries of this kernel.
    pub kernel: Option<String>,
}

impl SyncFilter {
    /// The entries of `cache`'s fingerprint (this host's unless overridden), any kernel:
    /// the usual scope of a pull.
    pub fn this_host(cache: &KernelTuningCache) -> Self {
        SyncFilter { fingerprint: Some(cache.fingerprint().to_owned()), kernel: None }
    }

    fn matches(&self, fingerprint: &str, kernel: &str) -> bool {
        self.fingerprint.as_deref().is_none_or(|f| f == fingerprint)
            && self.kernel.as_deref().is_none_or(|k| k == kernel)
    }

    /// The narrowest list prefix that covers the filter.
    fn prefix(&self) -> String {
        match (&self.fingerprint, &self.kernel) {
            (Some(f), Some(k)) => format!("{f}/{k}/"),
            (Some(f), None) => format!("{f}/"),
            _ => String::new(),
        }
    }
}

/// A key that was not transferred, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// The key (or the local file, for a push).
    pub key: String,
    /// Why: invalid entry, not a key of the store's layout, a failed request, ...
    pub reason: String,
}

/// What a [`push`] or [`pull`] did, key by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SyncReport {
    /// Keys copied by this call.
    pub transferred: Vec<String>,
    /// Keys the other side already had (left untouched).
    pub already_present: Vec<String>,
    /// Keys not copied, with the reason.
    pub rejected: Vec<Rejected>,
}

impl std::fmt::Display for SyncReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} transferred, {} already present, {} rejected",
            self.transferred.len(),
            self.already_present.len(),
            self.rejected.len()
        )?;
        for r in &self.rejected {
            write!(f, "\n  rejected {}: {}", r.key, r.reason)?;
        }
        Ok(())
    }
}

/// The remote's objects under a filter, as [`list_remote`] finds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RemoteList {
    /// Keys of the store's layout, sorted.
    pub entries: Vec<RemoteKey>,
    /// Other objects under the same prefix (not ktc entries), as stored.
    pub other: Vec<String>,
}

/// Uploads every valid local entry that matches `filter`. Invalid local entries are
/// rejected with the reason and never uploaded.
///
/// # Errors
/// None so far: per-key failures (including an unreachable remote) are reported in
/// [`SyncReport::rejected`]; the `Result` leaves room for whole-transfer failures.
pub fn push(
    cache: &KernelTuningCache,
    remote: &dyn RemoteBackend,
    filter: &SyncFilter,
) -> Result<SyncReport, RemoteError> {
    let mut report = SyncReport::default();
    for listed in cache.list() {
        if !filter.matches(&listed.fingerprint, &listed.kernel) {
            continue;
        }
        let name = listed.path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let shown = format!("{}/{}/{}/{name}", listed.fingerprint, listed.kernel, listed.code_version);
        let reject = |reason: String| Rejected { key: shown.clone(), reason };
        if let Err(reason) = &listed.entry {
            report.rejected.push(reject(reason.to_string()));
            continue;
        }
        let Some(key) = RemoteKey::parse(&shown) else {
            report.rejected.push(reject("not a key of the store's layout".into()));
            continue;
        };
        // Upload the bytes that were validated, not a re-serialisation: the copy on every
        // host is then byte-identical to the original.
        match read_capped(&listed.path).and_then(|bytes| remote.put_if_absent(&key, &bytes)) {
            Ok(PutOutcome::Created) => report.transferred.push(shown),
            Ok(PutOutcome::AlreadyPresent) => report.already_present.push(shown),
            Err(e) => report.rejected.push(reject(e.to_string())),
        }
    }
    Ok(report)
}

/// Downloads every remote entry that matches `filter` and is not in `cache` yet,
/// validating each exactly as a local file before storing it under the same name.
///
/// # Errors
/// [`RemoteError`] when the remote cannot be listed; per-key failures are reported in
/// [`SyncReport::rejected`].
pub fn pull(
    cache: &KernelTuningCache,
    remote: &dyn RemoteBackend,
    filter: &SyncFilter,
) -> Result<SyncReport, RemoteError> {
    let listing = list_remote(remote, filter)?;
    let mut report = SyncReport::default();
    for other in listing.other {
        report.rejected.push(Rejected { key: other, reason: "not a key of the store's layout".into() });
    }
    for key in listing.entries {
        let shown = key.to_string();
        let local =
            cache.root().join(&key.fingerprint).join(&key.kernel).join(&key.code_version).join(&key.name);
        if local.exists() {
            report.already_present.push(shown);
            continue;
        }
        let fetched = remote.get(&key).map_err(|e| e.to_string()).and_then(|bytes| {
            validate_entry_bytes(&bytes, &key.name, key.store_key(), None)
                .map(|_| bytes)
                .map_err(|e| e.to_string())
        });
        let stored = fetched.and_then(|bytes| {
            cache.import_bytes(key.store_key(), &key.name, &bytes).map_err(|e| e.to_string())
        });
        match stored {
            Ok((_, true)) => report.transferred.push(shown),
            Ok((_, false)) => report.already_present.push(shown),
            Err(reason) => report.rejected.push(Rejected { key: shown, reason }),
        }
    }
    Ok(report)
}

/// The remote's objects that match `filter`.
///
/// # Errors
/// [`RemoteError`] when the remote cannot be listed.
pub fn list_remote(remote: &dyn RemoteBackend, filter: &SyncFilter) -> Result<RemoteList, RemoteError> {
    let mut list = RemoteList::default();
    for raw in remote.list(&filter.prefix())? {
        match RemoteKey::parse(&raw) {
            Some(key) if filter.matches(&key.fingerprint, &key.kernel) => list.entries.push(key),
            Some(_) => {}
            None => list.other.push(raw),
        }
    }
    list.entries.sort();
    Ok(list)
}

fn read_capped(path: &Path) -> Result<Vec<u8>, RemoteError> {
    let io_err = |e| RemoteError::Io { op: "read entry".into(), path: path.display().to_string(), source: e };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_ENTRY_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io_err)?;
    Ok(bytes)
}
