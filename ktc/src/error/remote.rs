//! The remote's error types: each variant names the operation and what it was on.
//! They sit with the crate's error, below both the remote and the sweep report that
//! carries a push's outcome.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Why a remote operation failed.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// `KTC_REMOTE` (or a URL given elsewhere) cannot be used.
    #[error("remote configuration: {0}")]
    Config(String),
    /// A key or prefix is not of the store's layout.
    #[error("invalid remote key `{key}`: {reason}")]
    InvalidKey {
        /// The key as given.
        key: String,
        /// What is wrong with it.
        reason: BadPrefix,
    },
    /// A file-system operation of a folder backend failed.
    #[error("{op} {path}: {source}")]
    Io {
        /// What was being done.
        op: String,
        /// The file or folder concerned.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// An object-store request failed, or the object is unusable (missing, too large).
    #[error("{op} {key}: {message}")]
    Backend {
        /// What was being done.
        op: &'static str,
        /// The key or prefix concerned.
        key: String,
        /// What went wrong.
        message: String,
    },
    /// The remote did not answer in time.
    #[error("no answer from {location} within {} ms", after.as_millis())]
    TimedOut {
        /// The remote.
        location: String,
        /// How long was waited.
        after: Duration,
    },
}

impl From<crate::Error> for RemoteError {
    fn from(e: crate::Error) -> Self {
        match e {
            crate::Error::Io { op, path, source } => {
                RemoteError::Io { op: op.to_string(), path: path.display().to_string(), source }
            }
            other => RemoteError::Backend { op: "store", key: String::new(), message: other.to_string() },
        }
    }
}

/// Why a sweep's entry was not pushed to the remote. Warned about once; a failed push
/// never fails the sweep ([`SweepReport::pushed`](crate::sweep::SweepReport::pushed)).
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PushError {
    /// The remote configuration (`KTC_REMOTE`) is unusable.
    #[error("not pushing {}: {source}", path.display())]
    Config {
        /// The entry's file.
        path: PathBuf,
        /// What is wrong with the configuration.
        source: Arc<RemoteError>,
    },
    /// The entry's file could not be read back.
    #[error("not pushing {}: {source}", path.display())]
    Read {
        /// The entry's file.
        path: PathBuf,
        /// The read error.
        source: Arc<std::io::Error>,
    },
    /// The entry's key is not one a remote holds.
    #[error("not pushing {}: not a remote key", path.display())]
    NotAKey {
        /// The entry's file.
        path: PathBuf,
    },
    /// The remote refused or failed the upload.
    #[error("pushing {key} to {remote}: {source}")]
    Put {
        /// The remote key.
        key: String,
        /// The remote, as a URL.
        remote: String,
        /// What the remote said.
        source: Arc<RemoteError>,
    },
}

/// Why a list prefix is not of the store's layout (`""`, `"a/"`, `"a/b/"`, `"a/b/c/"`,
/// each component a safe path component).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BadPrefix {
    /// A non-empty prefix that does not end with `/`.
    #[error("a prefix is empty or ends with `/`")]
    NoTrailingSlash,
    /// More components than fingerprint, kernel and code version.
    #[error("a prefix has at most three components")]
    TooDeep,
    /// A component that is not `[A-Za-z0-9._-]+` (or is `.`/`..`).
    #[error("`{0}` is not a safe path component")]
    UnsafeComponent(String),
}
