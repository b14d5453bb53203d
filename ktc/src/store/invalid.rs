//! Why a file (or bytes fetched from a remote) is not a usable entry: each reason a
//! value with its data, printed as the skip reason readers report.

use crate::decision::InvalidTable;
use crate::entry::SCHEMA;
use std::fmt;
use std::io;
use std::sync::Arc;

/// Entries larger than this are skipped unread: a real table is a few kilobytes, the
/// sweep's measurements a few hundred.
pub(crate) const MAX_ENTRY_BYTES: u64 = 16 << 20;

/// What is wrong with an entry file. [`Listed::entry`](crate::Listed::entry) holds it
/// for a file that is not a valid entry; readers skip such files with this reason.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EntryError {
    /// The file's metadata could not be read.
    #[error("cannot stat: {0}")]
    Stat(#[source] Arc<io::Error>),
    /// A symbolic link (never followed: it could point anywhere).
    #[error("a symbolic link, not a regular file")]
    Symlink,
    /// A directory under an entry's name.
    #[error("a directory, not a regular file")]
    Directory,
    /// A device, socket or pipe under an entry's name.
    #[error("a special file, not a regular file")]
    Special,
    /// More bytes than an entry may have.
    #[error("{0} bytes, larger than the {MAX_ENTRY_BYTES}-byte limit")]
    TooLarge(u64),
    /// The file could not be opened.
    #[error("cannot open: {0}")]
    Open(#[source] Arc<io::Error>),
    /// The file could not be read.
    #[error("cannot read: {0}")]
    Read(#[source] Arc<io::Error>),
    /// No bytes at all.
    #[error("empty file")]
    Empty,
    /// The bytes are not UTF-8.
    #[error("not UTF-8: {0}")]
    NotUtf8(#[source] std::str::Utf8Error),
    /// The file name is not one the store writes.
    #[error("file name is not `<yyyymmddThhmmss.ffffffZ>-<16 hex>.json`")]
    FileName,
    /// The text is not JSON.
    #[error("not valid JSON: {0}")]
    Json(#[source] Arc<serde_json::Error>),
    /// An entry of another schema: skipped, never misread.
    #[error("schema {0} is not the supported schema {SCHEMA}")]
    Schema(u64),
    /// JSON without a `schema` number.
    #[error("no schema number")]
    NoSchema,
    /// JSON of the right schema but not an entry's shape.
    #[error("not a valid entry: {0}")]
    Shape(#[source] Arc<serde_json::Error>),
    /// A key field that cannot be a folder name (an imported entry's).
    #[error("{field} `{name}` is not a safe folder name")]
    UnsafeName {
        /// `fingerprint`, `kernel` or `code_version`.
        field: &'static str,
        /// The value.
        name: String,
    },
    /// A key field inside differs from the folder the file is in.
    #[error("{field} `{inside}` inside does not match its folder `{folder}`")]
    KeyMismatch {
        /// `fingerprint`, `kernel` or `code_version`.
        field: &'static str,
        /// The value inside the entry.
        inside: String,
        /// The folder's name.
        folder: String,
    },
    /// The decision table does not validate (against the kernel's schema, if given).
    #[error("invalid decision table: {0}")]
    Table(#[source] InvalidTable),
    /// More measurements or exclusions than a sweep ever records.
    #[error("{count} {what}, more than the {max} a sweep ever records")]
    TooMany {
        /// How many the entry has.
        count: usize,
        /// `measurements` or `exclusions`.
        what: &'static str,
        /// The most a sweep records.
        max: usize,
    },
    /// `code_version` is not the hash of the entry's provenance.
    #[error("code_version `{found}` is not the hash of its provenance (`{hash}`)")]
    CodeVersion {
        /// The entry's `code_version`.
        found: String,
        /// The hash of its provenance.
        hash: String,
    },
    /// `created` is not a UTC time as ktc writes it.
    #[error("created `{0}` is not a UTC time like `2026-11-30T03:25:16.123456Z`")]
    Created(String),
    /// `created` is further ahead of this host's clock than the allowed skew.
    #[error("created `{created}` is {ahead}")]
    CreatedAhead {
        /// The entry's `created`.
        created: String,
        /// How far ahead is too far, and this host's time.
        ahead: Ahead,
    },
    /// The file name's stamp is further ahead of this host's clock than the allowed skew.
    #[error("dated {stamp}, {ahead}")]
    FutureDated {
        /// The stamp of the file name.
        stamp: String,
        /// How far ahead is too far, and this host's time.
        ahead: Ahead,
    },
}

/// A time too far ahead of this host's clock: the allowed skew and the host's time
/// when it was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ahead {
    /// The allowed skew, in minutes.
    pub skew_minutes: u64,
    /// This host's time, RFC 3339 UTC.
    pub now: String,
}

impl fmt::Display for Ahead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "more than {} min ahead of this host's clock (now {}); skipped so it cannot shadow newer entries",
            self.skew_minutes, self.now
        )
    }
}
