//! Publishing a new immutable entry: temp file, fsync, create-exclusive link.

use super::name::{
    Key, TMP_PREFIX, check_entry, created_stamp, future_dated, is_entry_file_name, micros_of, stamp_micros,
};
use super::time::Utc;
use super::{KernelTuningCache, is_slug, not_slug};
use crate::entry::{Entry, SCHEMA};
use crate::error::Error;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How many fresh names to try before giving up on a (practically impossible) run of
/// name collisions.
const PUBLISH_ATTEMPTS: usize = 16;

impl KernelTuningCache {
    /// Writes `entry` as a new immutable file under
    /// `<root>/<entry.fingerprint>/<entry.kernel>/<entry.code_version>/` and returns its
    /// path. The file appears complete or not at all; no existing file is ever touched.
    ///
    /// # Errors
    /// [`Error::InvalidTable`] for a table that would fail validation; [`Error::Io`] for
    /// a wrong schema number, a fingerprint, kernel or code version that is not a safe
    /// path component (`[A-Za-z0-9._-]`), or a failed file-system operation.
    pub fn write_entry(&self, entry: &Entry) -> Result<PathBuf, Error> {
        self.publish_entry(entry, None)
    }

    /// Writes `entry` as [`write_entry`](Self::write_entry) does, under a name stamped
    /// with the entry's `created` time, so an imported entry sorts by when it was
    /// measured, not when it arrived: an old bundle never shadows a newer local tuning.
    ///
    /// # Errors
    /// As [`write_entry`](Self::write_entry).
    pub fn import_entry(&self, entry: &Entry) -> Result<PathBuf, Error> {
        // `check_entry` refuses any `created` without a stamp before it is used.
        self.publish_entry(entry, Some(created_stamp(&entry.created).unwrap_or_default()))
    }

    fn publish_entry(&self, entry: &Entry, stamp: Option<String>) -> Result<PathBuf, Error> {
        let dir = self.entry_dir(entry)?;
        entry.table().validate(None)?;
        check_entry(entry).map_err(|reason| invalid_input("check entry", &dir, reason))?;
        let mut bytes = serde_json::to_vec_pretty(entry)?;
        bytes.push(b'\n');
        fs::create_dir_all(&dir).map_err(|e| Error::io("create entry folder", &dir, e))?;
        let tmp = write_temp(&dir, &bytes)?;
        let published = publish(&tmp, &dir, stamp.as_deref());
        // The temp name is only a staging link; the entry lives under its final name.
        let _ = fs::remove_file(&tmp);
        let path = published?;
        sync_dir(&dir);
        Ok(path)
    }

    /// The entry's folder, after checking its key is safe to use as a path.
    fn entry_dir(&self, entry: &Entry) -> Result<PathBuf, Error> {
        let key = [
            ("fingerprint", &entry.fingerprint),
            ("kernel", &entry.kernel),
            ("code version", &entry.code_version),
        ];
        if let Some((what, name)) = key.iter().find(|(_, name)| !is_slug(name)) {
            return Err(not_slug(what, name, &self.root));
        }
        if entry.schema != SCHEMA {
            let msg = format!("entry schema {} is not this ktc's {SCHEMA}", entry.schema);
            return Err(invalid_input("check entry", &self.root, msg));
        }
        Ok(self.kernel_dir(&entry.fingerprint, &entry.kernel).join(&entry.code_version))
    }
}

/// An entry refused before writing, as the I/O error of `op` on `path`; the reason
/// (an [`EntryError`](super::EntryError) where there is one) stays its inner error.
fn invalid_input(
    op: &'static str,
    path: &Path,
    reason: impl Into<Box<dyn std::error::Error + Send + Sync>>,
) -> Error {
    Error::io(op, path, io::Error::new(io::ErrorKind::InvalidInput, reason))
}

/// Writes `bytes` to a new `.tmp-<nonce>` file in `dir` and flushes it to disk.
pub(crate) fn write_temp(dir: &Path, bytes: &[u8]) -> Result<PathBuf, Error> {
    let tmp = dir.join(format!("{TMP_PREFIX}{}", nonce()));
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| Error::io("create temp entry", &tmp, e))?;
    let written = file.write_all(bytes).and_then(|()| file.sync_all());
    if let Err(e) = written {
        drop(file);
        let _ = fs::remove_file(&tmp);
        return Err(Error::io("write temp entry", &tmp, e));
    }
    Ok(tmp)
}

/// Links `tmp` under a fresh final name; a name already taken is never replaced.
fn publish(tmp: &Path, dir: &Path, stamp: Option<&str>) -> Result<PathBuf, Error> {
    let mut last = None;
    for _ in 0..PUBLISH_ATTEMPTS {
        let name = match stamp {
            Some(stamp) => format!("{stamp}-{}.json", nonce()),
            None => entry_file_name(fresh_time(dir)),
        };
        let path = dir.join(name);
        match fs::hard_link(tmp, &path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some((path, e)),
            // Some file systems have no hard links; the nonce makes a clash there as
            // unlikely as a hash collision, and the check keeps an existing file.
            Err(e) if no_links(&e) && !path.exists() => {
                return fs::rename(tmp, &path)
                    .map(|()| path.clone())
                    .map_err(|e| Error::io("publish entry", &path, e));
            }
            Err(e) => return Err(Error::io("publish entry", &path, e)),
        }
    }
    let (path, e) = last.expect("at least one attempt");
    Err(Error::io("publish entry", &path, e))
}

/// Publishes `tmp` under exactly `path` unless that name exists: `Ok(true)` when this
/// call created it, `Ok(false)` when it was already there (its content is left alone).
/// The caller removes `tmp`.
pub(crate) fn link_if_absent(tmp: &Path, path: &Path) -> io::Result<bool> {
    match fs::hard_link(tmp, path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        // Without hard links the check-then-rename can race; names are unique per entry
        // (timestamp + nonce), so two racers carry the same bytes and either may win.
        Err(e) if no_links(&e) => {
            if path.exists() {
                return Ok(false);
            }
            fs::rename(tmp, path).map(|()| true)
        }
        Err(e) => Err(e),
    }
}

impl KernelTuningCache {
    /// Stores `bytes`, already validated as an entry for `key`, under the file name
    /// `name` (the name it has elsewhere, so a second copy is recognised). Returns the
    /// path and whether this call created it (`false`: that name was already here).
    pub(crate) fn import_bytes(
        &self,
        key: Key<'_>,
        name: &str,
        bytes: &[u8],
    ) -> Result<(PathBuf, bool), Error> {
        let dir = self.kernel_dir(key.fingerprint, key.kernel).join(key.code_version);
        fs::create_dir_all(&dir).map_err(|e| Error::io("create entry folder", &dir, e))?;
        let path = dir.join(name);
        let tmp = write_temp(&dir, bytes)?;
        let created = link_if_absent(&tmp, &path);
        let _ = fs::remove_file(&tmp);
        let created = created.map_err(|e| Error::io("publish entry", &path, e))?;
        sync_dir(&dir);
        Ok((path, created))
    }
}

fn no_links(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::Unsupported | io::ErrorKind::PermissionDenied)
}

/// Makes the new directory entry durable. Best effort: not every platform can open a
/// folder for syncing, and the file itself is already on disk.
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// `<UTC stamp>-<16 hex nonce>.json`: sorts by time as a string.
pub(crate) fn entry_file_name(t: SystemTime) -> String {
    format!("{}-{}.json", Utc::of(t).file_stamp(), nonce())
}

/// The time to name a new entry by: now, or just after the newest entry name already in
/// `dir` when that is later (a clock that stepped back, a host slightly ahead), so a new
/// write always sorts after what it replaces. Names dated beyond the allowed skew are
/// ignored: readers skip them, and following them would date this entry there too.
fn fresh_time(dir: &Path) -> SystemTime {
    let now = SystemTime::now();
    let mut newest = None;
    for name in fs::read_dir(dir).into_iter().flatten().filter_map(|e| e.ok()?.file_name().into_string().ok())
    {
        if !is_entry_file_name(&name) {
            continue;
        }
        if let Some(why) = future_dated(&name) {
            // Skipped by readers for now, but it will count once the clock reaches its
            // date and then shadow what is written meanwhile: say so where it can be fixed.
            crate::warn_once(format!(
                "{}: {why}; remove it (or fix the clock that wrote it) before this host's clock reaches it",
                dir.join(&name).display()
            ));
            continue;
        }
        newest = newest.max(stamp_micros(&name[..23]));
    }
    match newest {
        Some(micros) if micros >= micros_of(now) => UNIX_EPOCH + Duration::from_micros(micros + 1),
        _ => now,
    }
}

/// 16 hex characters that differ between processes, threads and calls.
pub(super) fn nonce() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = blake3::Hasher::new();
    h.update(&std::process::id().to_le_bytes());
    let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    h.update(&now.as_nanos().to_le_bytes());
    h.update(&COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    h.update(format!("{:?}", std::thread::current().id()).as_bytes());
    h.finalize().to_hex()[..16].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_have_the_checked_shape() {
        let name = entry_file_name(SystemTime::now());
        assert!(is_entry_file_name(&name), "{name}");
        assert!(!is_entry_file_name("x.json"));
        assert!(!is_entry_file_name("20261130T032516.123456Z-9f2c41d07a3b55eX.json"));
        assert_ne!(nonce(), nonce());
    }
}
