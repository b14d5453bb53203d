//! Choosing the remote: `KTC_REMOTE`, `KTC_REMOTE_TIMEOUT_MS`, `KTC_REMOTE_PUSH`.

use super::{FolderBackend, RemoteBackend, RemoteError};
use std::path::PathBuf;
use std::time::Duration;

/// How long dispatch waits for the remote when `KTC_REMOTE_TIMEOUT_MS` is unset.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);
/// The longest wait `KTC_REMOTE_TIMEOUT_MS` may ask for: a first call must finish in
/// bounded time however the variable is set (and a push waits a few timeouts).
const MAX_TIMEOUT: Duration = Duration::from_secs(60);

/// A parsed remote location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteUrl {
    /// `file:///path`: a shared folder.
    Folder(PathBuf),
    /// `s3://bucket/prefix`: an S3 bucket (or an S3-compatible server).
    S3 {
        /// The bucket.
        bucket: String,
        /// The key prefix inside the bucket, without leading or trailing `/`; may be empty.
        prefix: String,
    },
}

impl RemoteUrl {
    /// Parses `file:///absolute/path` or `s3://bucket[/prefix]`.
    ///
    /// # Errors
    /// [`RemoteError::Config`] for any other form.
    pub fn parse(url: &str) -> Result<RemoteUrl, RemoteError> {
        let bad = |why: &str| RemoteError::Config(format!("remote `{url}`: {why}"));
        if let Some(path) = url.strip_prefix("file://") {
            if !path.starts_with('/') {
                return Err(bad("a file remote is `file:///absolute/path`"));
            }
            return Ok(RemoteUrl::Folder(PathBuf::from(path)));
        }
        if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            if bucket.is_empty() {
                return Err(bad("no bucket name in `s3://bucket/prefix`"));
            }
            let prefix = prefix.trim_matches('/');
            if prefix.split('/').any(|p| p == "." || p == "..") {
                return Err(bad("the prefix may not contain `.` or `..`"));
            }
            return Ok(RemoteUrl::S3 { bucket: bucket.to_owned(), prefix: prefix.to_owned() });
        }
        Err(bad("expected `s3://bucket/prefix` or `file:///path`"))
    }
}

/// The remote named by `KTC_REMOTE`, opened; `Ok(None)` when it is unset or empty.
///
/// # Errors
/// [`RemoteError::Config`] for an unusable value, an `s3://` remote in a build without
/// the `s3` feature, or an S3 client that cannot be built.
pub fn from_env() -> Result<Option<Box<dyn RemoteBackend>>, RemoteError> {
    match env_url()? {
        Some(url) => open(&url, remote_timeout()).map(Some),
        None => Ok(None),
    }
}

/// `KTC_REMOTE`, parsed; `None` when unset or empty.
pub(crate) fn env_url() -> Result<Option<RemoteUrl>, RemoteError> {
    match std::env::var("KTC_REMOTE") {
        Ok(v) if !v.trim().is_empty() => RemoteUrl::parse(v.trim()).map(Some),
        Ok(_) | Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(RemoteError::Config("KTC_REMOTE is not UTF-8".into())),
    }
}

/// Opens the backend for `url`. `timeout` bounds each S3 request (connection and
/// answer); a folder has no timeout of its own.
///
/// # Errors
/// As [`from_env`].
pub fn open(url: &RemoteUrl, timeout: Duration) -> Result<Box<dyn RemoteBackend>, RemoteError> {
    match url {
        RemoteUrl::Folder(path) => Ok(Box::new(FolderBackend::new(path.clone()))),
        #[cfg(feature = "s3")]
        RemoteUrl::S3 { bucket, prefix } => {
            let options = super::S3Options::from_env();
            Ok(Box::new(super::S3Backend::new(bucket, prefix, &options, timeout)?))
        }
        #[cfg(not(feature = "s3"))]
        RemoteUrl::S3 { bucket, .. } => {
            let _ = timeout;
            Err(RemoteError::Config(format!("remote `s3://{bucket}` needs ktc built with the `s3` feature")))
        }
    }
}

/// `KTC_REMOTE_TIMEOUT_MS` (a positive whole number of milliseconds, at most 60 s),
/// else 2 s. An unusable value is warned about once and the default used; a larger one
/// is warned about and capped.
pub fn remote_timeout() -> Duration {
    match std::env::var("KTC_REMOTE_TIMEOUT_MS") {
        Err(_) => DEFAULT_TIMEOUT,
        Ok(v) => parse_timeout(&v).unwrap_or_else(|warning| {
            crate::warn_once(warning.message);
            warning.used
        }),
    }
}

/// What a `KTC_REMOTE_TIMEOUT_MS` value that is not used as given becomes, and why.
#[derive(Debug, PartialEq)]
struct TimeoutWarning {
    used: Duration,
    message: String,
}

fn parse_timeout(v: &str) -> Result<Duration, TimeoutWarning> {
    match v.trim().parse::<u64>() {
        Ok(ms) if ms > 0 && Duration::from_millis(ms) <= MAX_TIMEOUT => Ok(Duration::from_millis(ms)),
        Ok(ms) if ms > 0 => Err(TimeoutWarning {
            used: MAX_TIMEOUT,
            message: format!(
                "KTC_REMOTE_TIMEOUT_MS={ms} is longer than the {} ms limit; using {} ms",
                MAX_TIMEOUT.as_millis(),
                MAX_TIMEOUT.as_millis()
            ),
        }),
        // Digits too many for u64 are a huge wait too, not a typo to ignore.
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(TimeoutWarning {
            used: MAX_TIMEOUT,
            message: format!(
                "KTC_REMOTE_TIMEOUT_MS={v:?} is out of range; using {} ms",
                MAX_TIMEOUT.as_millis()
            ),
        }),
        _ => Err(TimeoutWarning {
            used: DEFAULT_TIMEOUT,
            message: format!(
                "KTC_REMOTE_TIMEOUT_MS={v:?} is not a positive number of milliseconds; using {} ms",
                DEFAULT_TIMEOUT.as_millis()
            ),
        }),
    }
}

/// Whether sweeps push their entries: not when `KTC_REMOTE_PUSH` is `0`, `false` or `no`.
pub(crate) fn push_enabled() -> bool {
    std::env::var("KTC_REMOTE_PUSH")
        .map(|v| !matches!(v.trim().to_ascii_lowercase().as_str(), "0" | "false" | "no" | "off"))
        .unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_parse_or_say_why_not() {
        assert_eq!(RemoteUrl::parse("file:///srv/ktc").unwrap(), RemoteUrl::Folder("/srv/ktc".into()));
        assert_eq!(
            RemoteUrl::parse("s3://bucket/team/ktc/").unwrap(),
            RemoteUrl::S3 { bucket: "bucket".into(), prefix: "team/ktc".into() }
        );
        assert_eq!(
            RemoteUrl::parse("s3://bucket").unwrap(),
            RemoteUrl::S3 { bucket: "bucket".into(), prefix: String::new() }
        );
        for bad in ["file://relative", "s3:///x", "http://x", "/srv/ktc", "s3://b/../x"] {
            assert!(matches!(RemoteUrl::parse(bad), Err(RemoteError::Config(_))), "{bad}");
        }
    }

    #[test]
    fn timeouts_are_bounded() {
        assert_eq!(parse_timeout("300"), Ok(Duration::from_millis(300)));
        assert_eq!(parse_timeout(" 60000 "), Ok(MAX_TIMEOUT));
        for huge in ["60001", "18446744073709551615", "99999999999999999999999"] {
            let warning = parse_timeout(huge).unwrap_err();
            assert_eq!(warning.used, MAX_TIMEOUT, "{huge}");
            assert!(warning.message.contains("60000 ms"), "{}", warning.message);
            // A push waits five timeouts: that must not overflow either.
            assert!(warning.used.checked_mul(5).is_some());
        }
        for bad in ["0", "-1", "2s", ""] {
            assert_eq!(parse_timeout(bad).unwrap_err().used, DEFAULT_TIMEOUT, "{bad}");
        }
    }

    #[cfg(not(feature = "s3"))]
    #[test]
    fn s3_without_the_feature_is_an_error() {
        let url = RemoteUrl::parse("s3://bucket/x").unwrap();
        let err = open(&url, DEFAULT_TIMEOUT).unwrap_err();
        assert!(err.to_string().contains("`s3` feature"), "{err}");
    }
}
