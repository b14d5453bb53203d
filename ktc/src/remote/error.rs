//! The remote's error type: each variant names the operation and what it was on.

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
        reason: String,
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
