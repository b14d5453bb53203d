//! The remote as dispatch and sweeps see it: bounded in time, never fatal.
//!
//! Every remote call runs on a helper thread and is waited for with `recv_timeout`, so
//! a hanging connection or mount costs the caller at most the timeout; the helper is
//! left to finish or hang on its own. After one remote failure, later lookups in the
//! same process skip the remote, so a process pays the timeout once, not per kernel.

use super::config::{env_url, push_enabled, remote_timeout};
use super::{PushError, PutOutcome, RemoteBackend, RemoteError, RemoteKey, RemoteUrl, open};
use crate::decision::KernelSchema;
use crate::entry::Entry;
use crate::store::{EntryError, KernelTuningCache, Key, validate_entry_bytes};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Why the remote is skipped for the rest of the process, once it failed.
static REMOTE_DOWN: OnceLock<String> = OnceLock::new();

/// What asking the remote for the current entry gave.
#[derive(Debug)]
pub(crate) enum Fetched {
    /// No remote is configured.
    NotConfigured,
    /// A valid entry, now also in the local store at `path`.
    Entry {
        /// The local copy.
        path: PathBuf,
        /// The entry.
        entry: Box<Entry>,
    },
    /// Nothing usable, and why (for the dispatcher's one warning).
    Failed(String),
}

/// Runs `work` against the remote named by `url` on a helper thread, waiting at most
/// `timeout` (opening the backend included).
fn bounded<T: Send + 'static>(
    url: &RemoteUrl,
    timeout: Duration,
    work: impl FnOnce(&dyn RemoteBackend) -> Result<T, RemoteError> + Send + 'static,
) -> Result<T, RemoteError> {
    let (tx, rx) = mpsc::channel();
    let owned = url.clone();
    let spawned = std::thread::Builder::new().name("ktc-remote".into()).spawn(move || {
        let result = open(&owned, timeout).and_then(|backend| work(backend.as_ref()));
        // The receiver may have given up waiting; nothing to do then.
        let _ = tx.send(result);
    });
    if let Err(e) = spawned {
        return Err(RemoteError::Config(format!("cannot start the remote thread: {e}")));
    }
    rx.recv_timeout(timeout)
        .unwrap_or_else(|_| Err(RemoteError::TimedOut { location: display(url), after: timeout }))
}

/// The URL as text, for messages.
fn display(url: &RemoteUrl) -> String {
    match url {
        RemoteUrl::Folder(p) => format!("file://{}", p.display()),
        RemoteUrl::S3 { bucket, prefix } if prefix.is_empty() => format!("s3://{bucket}"),
        RemoteUrl::S3 { bucket, prefix } => format!("s3://{bucket}/{prefix}"),
    }
}

/// Asks the configured remote for the newest valid entry of `kernel` under `cache`'s
/// fingerprint and `code_version`, validated against `schema` exactly as a local file,
/// and stores it locally. Never panics; at most the remote timeout is spent.
pub(crate) fn fetch_current(
    cache: &KernelTuningCache,
    kernel: &str,
    code_version: &str,
    schema: &KernelSchema,
) -> Fetched {
    let url = match env_url() {
        Ok(Some(url)) => url,
        Ok(None) => return Fetched::NotConfigured,
        Err(e) => return Fetched::Failed(e.to_string()),
    };
    if let Some(why) = REMOTE_DOWN.get() {
        return Fetched::Failed(format!("remote {} skipped: {why}", display(&url)));
    }
    let folder = format!("{}/{kernel}/{code_version}/", cache.fingerprint());
    let (owned_kernel, schema_owned) = (kernel.to_owned(), schema.clone());
    let timeout = remote_timeout();
    let found =
        bounded(&url, timeout, move |remote| newest_valid(remote, &folder, &owned_kernel, &schema_owned));
    match found {
        Ok(Ok(Found { key, bytes, entry })) => match cache.import_bytes(key.store_key(), &key.name, &bytes) {
            Ok((path, _)) => Fetched::Entry { path, entry: Box::new(entry) },
            Err(e) => Fetched::Failed(format!("remote entry {key} could not be stored locally: {e}")),
        },
        Ok(Err(rejected)) => Fetched::Failed(format!("remote {}: {rejected}", display(&url))),
        Err(e) => {
            let why = e.to_string();
            let _ = REMOTE_DOWN.set(why.clone());
            Fetched::Failed(format!("remote {}: {why}", display(&url)))
        }
    }
}

/// A valid remote entry: its key, its bytes as stored, and the parsed entry.
struct Found {
    key: RemoteKey,
    bytes: Vec<u8>,
    entry: Entry,
}

/// The newest object under `folder` that is a valid entry: `Ok(Err(why))` when the
/// remote answered but had none; `Err` when the remote itself failed.
fn newest_valid(
    remote: &dyn RemoteBackend,
    folder: &str,
    kernel: &str,
    schema: &KernelSchema,
) -> Result<Result<Found, NoEntry>, RemoteError> {
    let mut keys: Vec<RemoteKey> = remote.list(folder)?.iter().filter_map(|k| RemoteKey::parse(k)).collect();
    keys.sort_by(|a, b| b.name.cmp(&a.name));
    let mut rejected = Vec::new();
    for key in keys.into_iter().filter(|k| k.kernel == kernel) {
        let bytes = match remote.get(&key) {
            Ok(bytes) => bytes,
            Err(e) => {
                rejected.push((key, Unusable::Get(e)));
                continue;
            }
        };
        match validate_entry_bytes(&bytes, &key.name, key.store_key(), Some(schema)) {
            Ok(entry) => return Ok(Ok(Found { key, bytes, entry })),
            Err(reason) => rejected.push((key, Unusable::Invalid(reason))),
        }
    }
    Ok(Err(NoEntry { folder: folder.to_owned(), rejected }))
}

/// Why a remote folder gave no entry: it holds none of the kernel's, or each one it
/// holds could not be fetched or is invalid (newest first).
#[derive(Debug)]
struct NoEntry {
    folder: String,
    rejected: Vec<(RemoteKey, Unusable)>,
}

/// Why one remote object was passed over.
#[derive(Debug, thiserror::Error)]
enum Unusable {
    #[error(transparent)]
    Get(RemoteError),
    #[error(transparent)]
    Invalid(EntryError),
}

impl std::fmt::Display for NoEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.rejected.is_empty() {
            return write!(f, "no entry under {}", self.folder);
        }
        write!(f, "no valid entry under {}; rejected ", self.folder)?;
        for (i, (key, why)) in self.rejected.iter().enumerate() {
            let sep = if i == 0 { "" } else { "; " };
            write!(f, "{sep}{key}: {why}")?;
        }
        Ok(())
    }
}

/// Pushes a sweep's newly written entry to the configured remote, unless none is
/// configured or `KTC_REMOTE_PUSH=0`. `None`: nothing was tried. A failure is warned
/// about once and returned; it never fails the sweep.
pub(crate) fn push_after_sweep(path: &Path, entry: &Entry) -> Option<Result<PutOutcome, PushError>> {
    let url = match env_url() {
        Ok(Some(url)) if push_enabled() => url,
        Ok(_) => return None,
        Err(e) => return Some(Err(warned(PushError::Config { path: path.to_owned(), source: Arc::new(e) }))),
    };
    let key =
        Key { fingerprint: &entry.fingerprint, kernel: &entry.kernel, code_version: &entry.code_version };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return Some(Err(warned(PushError::Read { path: path.to_owned(), source: Arc::new(e) }))),
    };
    let Some(key) =
        RemoteKey::parse(&format!("{}/{}/{}/{name}", key.fingerprint, key.kernel, key.code_version))
    else {
        return Some(Err(warned(PushError::NotAKey { path: path.to_owned() })));
    };
    let shown = key.to_string();
    // A push is one object: allow it a few timeouts' worth, it is off the hot path.
    let pushed = bounded(&url, remote_timeout() * 5, move |remote| remote.put_if_absent(&key, &bytes));
    Some(
        pushed.map_err(|e| warned(PushError::Put { key: shown, remote: display(&url), source: Arc::new(e) })),
    )
}

fn warned(e: PushError) -> PushError {
    crate::warn_once(e.to_string());
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{Axis, DecisionTable, Region};
    use crate::remote::FolderBackend;
    use crate::{KernelIdentity, Provenance};

    /// A remote holding a copy dated 2099 (a host with a bad clock pushed it): the first
    /// use takes the newest entry that is not ahead of this host's clock.
    #[test]
    fn a_future_dated_remote_entry_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let remote_store = KernelTuningCache::open(dir.path()).unwrap().with_fingerprint("fp");
        let table = DecisionTable { axes: vec![Axis::numeric("n")], regions: vec![Region::new("serial")] };
        let provenance = Provenance::current(&KernelIdentity::UNSPECIFIED);
        let good = remote_store.write_table_with("k", &provenance, table).unwrap();
        let future = good.with_file_name("20991231T235959.999999Z-00000000000000ff.json");
        std::fs::copy(&good, &future).unwrap();

        let schema =
            KernelSchema { axes: vec![Axis::numeric("n")], variants: vec![("serial".into(), vec![])] };
        let folder = format!("fp/k/{}/", provenance.code_version());
        let found = newest_valid(&FolderBackend::new(dir.path()), &folder, "k", &schema).unwrap().unwrap();
        assert_eq!(Some(found.key.name.as_str()), good.file_name().and_then(|n| n.to_str()));
    }
}
