//! Fleet sharing: remote backends that hold the same immutable entries as the local
//! store, under the same keys (`<fingerprint>/<kernel>/<code_version>/<entry>.json`).
//!
//! A backend can only get, create-if-absent and list, so sharing needs no lock and no
//! merge: an entry's name is unique (timestamp + nonce), two hosts pushing the same
//! entry race for one key and the loser finds it "already present". Everything fetched
//! is validated exactly as a local file before it is used or stored.
//!
//! The remote is chosen by `KTC_REMOTE` (`file:///shared/ktc` or
//! `s3://bucket/prefix`, the latter with the `s3` feature and the standard `AWS_*`
//! variables). Dispatch asks it on a local miss, bounded by `KTC_REMOTE_TIMEOUT_MS`
//! (default 2000); a sweep pushes its new entry unless `KTC_REMOTE_PUSH=0`.

mod config;
mod fetch;
mod folder;
mod key;
#[cfg(feature = "s3")]
mod s3;
mod sync;

pub use crate::error::{BadPrefix, PushError, RemoteError};
pub use config::{RemoteUrl, from_env, open, remote_timeout};
pub use folder::FolderBackend;
pub use key::RemoteKey;
#[cfg(feature = "s3")]
pub use s3::{S3Backend, S3Options};
pub use sync::{Rejected, RemoteList, SyncFilter, SyncReport, list_remote, pull, push};

pub use crate::job::PutOutcome;
pub(crate) use fetch::{Fetched, fetch_current, push_after_sweep};

/// A store of immutable entries shared by a fleet: get, create-only put, list.
///
/// Implementations must never overwrite an existing key, and must be usable from
/// several threads. Keys are [`RemoteKey`]s, laid out as in the local store.
pub trait RemoteBackend: Send + Sync + std::fmt::Debug {
    /// Where the backend points, for messages (`s3://bucket/prefix`, `file:///path`).
    fn location(&self) -> String;

    /// The bytes of the object at `key`. Objects larger than the store's entry size
    /// cap are refused without being read whole.
    ///
    /// # Errors
    /// [`RemoteError`] when the object is missing, too large or cannot be read.
    fn get(&self, key: &RemoteKey) -> Result<Vec<u8>, RemoteError>;

    /// Creates the object at `key` with `bytes` unless one exists; an existing object
    /// is never replaced. The object appears complete or not at all.
    ///
    /// # Errors
    /// [`RemoteError`] when the write fails (not when the key exists).
    fn put_if_absent(&self, key: &RemoteKey, bytes: &[u8]) -> Result<PutOutcome, RemoteError>;

    /// Every object key under `prefix`, which is empty or whole key components each
    /// followed by `/` (`"fp/"`, `"fp/kernel/cv/"`). Keys are returned as stored,
    /// including any that are not [`RemoteKey`]s, for the caller to report.
    ///
    /// # Errors
    /// [`RemoteError`] when the listing fails or `prefix` is not of that shape.
    fn list(&self, prefix: &str) -> Result<Vec<String>, RemoteError>;
}
