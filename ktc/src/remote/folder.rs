//! A shared folder (NFS or similar) as a remote: the local store's layout and its
//! publishing discipline — temp file, fsync, then a hard link that fails if the name
//! exists — so an object appears whole or not at all and is never replaced.

use super::key::prefix_parts;
use super::{PutOutcome, RemoteBackend, RemoteError, RemoteKey};
use crate::store::{MAX_ENTRY_BYTES, TMP_PREFIX, link_if_absent, subfolders, sync_dir, write_temp};
use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

/// A remote in a folder every host can reach.
///
/// ```no_run
/// use ktc::remote::{FolderBackend, SyncFilter, push};
///
/// let cache = ktc::KernelTuningCache::load_or_create()?;
/// let report = push(&cache, &FolderBackend::new("/shared/ktc"), &SyncFilter::default())?;
/// println!("{report}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct FolderBackend {
    root: PathBuf,
}

impl FolderBackend {
    /// A backend over `root`. Nothing is touched until the first operation, so a
    /// folder that is not mounted yet costs nothing here.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        FolderBackend { root: root.into() }
    }

    /// The shared folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, key: &RemoteKey) -> PathBuf {
        self.root.join(&key.fingerprint).join(&key.kernel).join(&key.code_version).join(&key.name)
    }
}

fn io_err(op: &str, path: &Path, source: std::io::Error) -> RemoteError {
    RemoteError::Io { op: op.to_owned(), path: path.display().to_string(), source }
}

impl RemoteBackend for FolderBackend {
    fn location(&self) -> String {
        format!("file://{}", self.root.display())
    }

    fn get(&self, key: &RemoteKey) -> Result<Vec<u8>, RemoteError> {
        let path = self.path(key);
        let meta = fs::symlink_metadata(&path).map_err(|e| io_err("stat remote entry", &path, e))?;
        // A FIFO or device would block or stream forever; only regular files are entries.
        if !meta.file_type().is_file() {
            return Err(RemoteError::Backend {
                op: "get",
                key: key.to_string(),
                message: "not a regular file".into(),
            });
        }
        let file = File::open(&path).map_err(|e| io_err("open remote entry", &path, e))?;
        let mut bytes = Vec::new();
        file.take(MAX_ENTRY_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| io_err("read remote entry", &path, e))?;
        if bytes.len() as u64 > MAX_ENTRY_BYTES {
            return Err(RemoteError::Backend {
                op: "get",
                key: key.to_string(),
                message: format!("larger than the {MAX_ENTRY_BYTES}-byte limit"),
            });
        }
        Ok(bytes)
    }

    fn put_if_absent(&self, key: &RemoteKey, bytes: &[u8]) -> Result<PutOutcome, RemoteError> {
        let path = self.path(key);
        let dir = path.parent().unwrap_or(&self.root).to_path_buf();
        if path.exists() {
            return Ok(PutOutcome::AlreadyPresent);
        }
        fs::create_dir_all(&dir).map_err(|e| io_err("create remote folder", &dir, e))?;
        let tmp = write_temp(&dir, bytes)?;
        let created = link_if_absent(&tmp, &path);
        let _ = fs::remove_file(&tmp);
        let created = created.map_err(|e| io_err("publish remote entry", &path, e))?;
        sync_dir(&dir);
        Ok(if created { PutOutcome::Created } else { PutOutcome::AlreadyPresent })
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>, RemoteError> {
        let parts = prefix_parts(prefix)
            .map_err(|reason| RemoteError::InvalidKey { key: prefix.to_owned(), reason })?;
        if !self.root.is_dir() {
            let e = std::io::Error::new(std::io::ErrorKind::NotFound, "not a folder (not mounted?)");
            return Err(io_err("list remote", &self.root, e));
        }
        let mut start = self.root.clone();
        start.extend(&parts);
        let mut keys = Vec::new();
        walk(&start, prefix.to_owned(), 4 - parts.len(), &mut keys)?;
        keys.sort();
        Ok(keys)
    }
}

/// Collects the non-folders `depth` levels below `dir` (folders above them), as keys
/// starting with `key_prefix`. Temp files of writers in progress are not objects.
fn walk(dir: &Path, key_prefix: String, depth: usize, keys: &mut Vec<String>) -> Result<(), RemoteError> {
    let mut unreadable = Vec::new();
    if depth == 1 {
        let names = crate::store::read_names(dir, &mut unreadable);
        for (name, path) in names {
            // Anything but a folder is listed, so that a FIFO or a link in the wrong place is
            // reported by `get` rather than silently ignored.
            if !name.starts_with(TMP_PREFIX) && fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
                keys.push(format!("{key_prefix}{name}"));
            }
        }
    } else {
        for (name, sub) in subfolders(dir, &mut unreadable) {
            walk(&sub, format!("{key_prefix}{name}/"), depth - 1, keys)?;
        }
    }
    match unreadable.into_iter().next() {
        Some(s) => {
            Err(RemoteError::Backend { op: "list", key: s.path.display().to_string(), message: s.reason })
        }
        None => Ok(()),
    }
}
