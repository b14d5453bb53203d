//! One entry file, or fetched bytes, to a validated [`Entry`]: size cap, UTF-8, file
//! name shape, schema, key match, table. Reading a store (`read`), collecting garbage
//! (`gc`) and fetching from a remote all go through here.

use super::invalid::{EntryError, MAX_ENTRY_BYTES};
use super::name::{Key, check_entry, future_dated, is_entry_file_name};
use crate::decision::KernelSchema;
use crate::entry::{Entry, SCHEMA};
use std::fs::{self, File};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// Reads, parses and validates one entry file; `Err` says what is wrong with it.
pub(crate) fn read_entry(
    path: &Path,
    key: Key<'_>,
    schema: Option<&KernelSchema>,
) -> Result<Entry, EntryError> {
    let bytes = read_capped(path)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    validate_entry_bytes(&bytes, name, key, schema)
}

/// Validates `bytes` fetched from elsewhere (a remote) exactly as a local file named
/// `name` in `key`'s folder: size cap, UTF-8, file name shape, schema, key match, table.
pub(crate) fn validate_entry_bytes(
    bytes: &[u8],
    name: &str,
    key: Key<'_>,
    schema: Option<&KernelSchema>,
) -> Result<Entry, EntryError> {
    if bytes.len() as u64 > MAX_ENTRY_BYTES {
        return Err(EntryError::TooLarge(bytes.len() as u64));
    }
    if bytes.is_empty() {
        return Err(EntryError::Empty);
    }
    let text = std::str::from_utf8(bytes).map_err(EntryError::NotUtf8)?;
    parse_entry(text, name, key, schema)
}

/// An entry's schema number, whatever else the object holds (the rest is skipped).
#[derive(serde::Deserialize)]
struct SchemaProbe {
    #[serde(default)]
    schema: Option<serde_json::Value>,
}

/// Parses and validates the text of an entry file named `name` in `key`'s folder.
fn parse_entry(
    text: &str,
    name: &str,
    key: Key<'_>,
    schema: Option<&KernelSchema>,
) -> Result<Entry, EntryError> {
    if !is_entry_file_name(name) {
        return Err(EntryError::FileName);
    }
    // Straight from the text, twice, rather than through a `serde_json::Value`: an
    // entry's measurements are most of its bytes (hundreds of KB after a refined
    // sweep), and a `Value` tree of them made loading one take ~8 ms of a process's
    // first dispatch. The first pass reads the schema alone (and the syntax of all).
    let probe: SchemaProbe = serde_json::from_str(text).map_err(|e| EntryError::Json(Arc::new(e)))?;
    match probe.schema.as_ref().and_then(serde_json::Value::as_u64) {
        Some(n) if n == u64::from(SCHEMA) => {}
        Some(n) => return Err(EntryError::Schema(n)),
        None => return Err(EntryError::NoSchema),
    }
    // The probe skipped the values, so a malformed number (out of range, say) shows up
    // only here: still a JSON error, not a shape one.
    let entry: Entry = serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => EntryError::Shape(Arc::new(e)),
        _ => EntryError::Json(Arc::new(e)),
    })?;
    check_key(&entry, key)?;
    entry.table().validate(schema).map_err(EntryError::Table)?;
    check_entry(&entry)?;
    // Last, so a broken file says what is broken, not only when it claims to be from.
    if let Some(reason) = future_dated(name) {
        return Err(reason);
    }
    Ok(entry)
}

/// The file's bytes, if it is a regular file, read up to one byte past
/// [`MAX_ENTRY_BYTES`] (the size, emptiness and UTF-8 checks are
/// [`validate_entry_bytes`]'s, the same for a file as for fetched bytes).
fn read_capped(path: &Path) -> Result<Vec<u8>, EntryError> {
    let meta = fs::symlink_metadata(path).map_err(|e| EntryError::Stat(Arc::new(e)))?;
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Err(EntryError::Symlink);
    }
    if !kind.is_file() {
        return Err(if kind.is_dir() { EntryError::Directory } else { EntryError::Special });
    }
    if meta.len() > MAX_ENTRY_BYTES {
        return Err(EntryError::TooLarge(meta.len()));
    }
    let file = File::open(path).map_err(|e| EntryError::Open(Arc::new(e)))?;
    let mut bytes = Vec::new();
    // The file may have been swapped or grown since the stat: read no more than the cap.
    file.take(MAX_ENTRY_BYTES + 1).read_to_end(&mut bytes).map_err(|e| EntryError::Read(Arc::new(e)))?;
    Ok(bytes)
}

fn check_key(entry: &Entry, key: Key<'_>) -> Result<(), EntryError> {
    let pairs = [
        ("fingerprint", &entry.fingerprint, key.fingerprint),
        ("kernel", &entry.kernel, key.kernel),
        ("code_version", &entry.code_version, key.code_version),
    ];
    match pairs.iter().find(|(_, inside, folder)| inside != folder) {
        Some((field, inside, folder)) => {
            Err(EntryError::KeyMismatch { field, inside: inside.to_string(), folder: folder.to_string() })
        }
        None => Ok(()),
    }
}
