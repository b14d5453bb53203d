//! The library's error type: every variant carries the path and the operation.

mod remote;

pub use remote::{BadPrefix, PushError, RemoteError};
use std::path::PathBuf;

/// Errors from the tuning cache. Each names what was being done and where.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file-system operation failed.
    #[error("{op} {}: {source}", path.display())]
    Io {
        /// What was being done ("create cache folder", "write entry", ...).
        op: &'static str,
        /// The file or folder concerned.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// No cache folder could be chosen: `KTC_CACHE_DIR` is unset and the platform has
    /// no user cache folder.
    #[error("no cache folder: set KTC_CACHE_DIR to a writable folder")]
    NoCacheDir,
    /// A decision table or entry failed validation.
    #[error("invalid decision table: {0}")]
    InvalidTable(#[from] crate::decision::InvalidTable),
    /// An entry could not be serialised.
    #[error("serialise entry: {0}")]
    Serialize(#[from] serde_json::Error),
    /// A sweep could not run or produced no usable result.
    #[error("sweep of {kernel}: {reason}")]
    Sweep {
        /// The kernel being swept.
        kernel: String,
        /// Why it failed.
        reason: String,
    },
}

impl Error {
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { op, path: path.into(), source }
    }
}
