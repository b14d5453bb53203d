//! Remote keys: `<fingerprint>/<kernel>/<code_version>/<entry file name>`, each
//! component slug-safe, so a key can never name a path outside a folder backend.

use crate::error::BadPrefix;
use crate::store::{Key, is_entry_file_name, is_slug};

/// The key of one entry, the same layout as the local store's relative path.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RemoteKey {
    /// The hardware fingerprint folder.
    pub fingerprint: String,
    /// The kernel folder.
    pub kernel: String,
    /// The code version folder.
    pub code_version: String,
    /// The entry's file name (`<timestamp>-<nonce>.json`).
    pub name: String,
}

impl RemoteKey {
    /// Parses `fp/kernel/cv/name.json`; `None` unless every component is slug-safe and
    /// the name has the shape of an entry file name.
    pub fn parse(key: &str) -> Option<RemoteKey> {
        let mut parts = key.split('/');
        let (fp, kernel, cv, name) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let valid =
            parts.next().is_none() && [fp, kernel, cv].iter().all(|p| is_slug(p)) && is_entry_file_name(name);
        valid.then(|| RemoteKey {
            fingerprint: fp.to_owned(),
            kernel: kernel.to_owned(),
            code_version: cv.to_owned(),
            name: name.to_owned(),
        })
    }

    /// The key's folder part, `fp/kernel/cv/`, as a list prefix.
    pub fn folder(&self) -> String {
        format!("{}/{}/{}/", self.fingerprint, self.kernel, self.code_version)
    }

    pub(crate) fn store_key(&self) -> Key<'_> {
        Key { fingerprint: &self.fingerprint, kernel: &self.kernel, code_version: &self.code_version }
    }
}

impl std::fmt::Display for RemoteKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.folder(), self.name)
    }
}

/// The components of a list prefix (`""`, `"a/"`, `"a/b/"`, `"a/b/c/"`), checked.
pub(crate) fn prefix_parts(prefix: &str) -> Result<Vec<&str>, BadPrefix> {
    if prefix.is_empty() {
        return Ok(Vec::new());
    }
    let Some(body) = prefix.strip_suffix('/') else {
        return Err(BadPrefix::NoTrailingSlash);
    };
    let parts: Vec<&str> = body.split('/').collect();
    if parts.len() > 3 {
        return Err(BadPrefix::TooDeep);
    }
    match parts.iter().find(|p| !is_slug(p)) {
        Some(p) => Err(BadPrefix::UnsafeComponent((*p).to_owned())),
        None => Ok(parts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_unsafe_ones_are_refused() {
        let text = "host/saxpy/0123abcd/20261130T032516.123456Z-9f2c41d07a3b55e8.json";
        let key = RemoteKey::parse(text).unwrap();
        assert_eq!(key.to_string(), text);
        assert_eq!(key.folder(), "host/saxpy/0123abcd/");
        for bad in [
            "host/saxpy/0123abcd/x.json",
            "../saxpy/0123abcd/20261130T032516.123456Z-9f2c41d07a3b55e8.json",
            "host/saxpy/20261130T032516.123456Z-9f2c41d07a3b55e8.json",
            "a/host/saxpy/0123abcd/20261130T032516.123456Z-9f2c41d07a3b55e8.json",
        ] {
            assert_eq!(RemoteKey::parse(bad), None, "{bad}");
        }
        assert_eq!(prefix_parts("a/b/").unwrap(), ["a", "b"]);
        assert!(prefix_parts("a/..").is_err());
        assert!(prefix_parts("../").is_err());
        assert!(prefix_parts("a/b/c/d/").is_err());
    }
}
