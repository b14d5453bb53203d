//! An S3 bucket (or any S3-compatible server) as a remote, through `object_store`.
//!
//! Creation is conditional (`PutMode::Create`, sent as `If-None-Match: *`), so the
//! server, not the client, decides which of several racing pushers creates a key; the
//! others get "already present". A private current-thread tokio runtime keeps ktc's
//! API synchronous; every request is bounded by the configured timeout and retried at
//! most twice, so a dead endpoint surfaces quickly as an error.

use super::key::prefix_parts;
use super::{PutOutcome, RemoteBackend, RemoteError, RemoteKey};
use crate::store::MAX_ENTRY_BYTES;
use futures_util::TryStreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path;
use object_store::{
    BackoffConfig, ClientOptions, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload, RetryConfig,
};
use std::time::Duration;

/// Connection settings for an S3 endpoint; unset fields take the SDK's defaults
/// (AWS's endpoint, credentials from the instance or container).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct S3Options {
    /// `AWS_ENDPOINT_URL`: a non-AWS endpoint such as `http://127.0.0.1:5000`.
    pub endpoint: Option<String>,
    /// `AWS_REGION` (or `AWS_DEFAULT_REGION`); `us-east-1` when unset.
    pub region: Option<String>,
    /// `AWS_ACCESS_KEY_ID`.
    pub access_key_id: Option<String>,
    /// `AWS_SECRET_ACCESS_KEY`.
    pub secret_access_key: Option<String>,
    /// `AWS_SESSION_TOKEN`.
    pub session_token: Option<String>,
    /// `AWS_ALLOW_HTTP=true`: allow a plain-HTTP endpoint (test servers).
    pub allow_http: bool,
}

// Hand-written so that secrets never reach a log line.
impl std::fmt::Debug for S3Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Options")
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id.as_ref().map(|_| "…"))
            .field("allow_http", &self.allow_http)
            .finish_non_exhaustive()
    }
}

impl S3Options {
    /// The options from the standard AWS variables.
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        S3Options {
            endpoint: var("AWS_ENDPOINT_URL").or_else(|| var("AWS_ENDPOINT")),
            region: var("AWS_REGION").or_else(|| var("AWS_DEFAULT_REGION")),
            access_key_id: var("AWS_ACCESS_KEY_ID"),
            secret_access_key: var("AWS_SECRET_ACCESS_KEY"),
            session_token: var("AWS_SESSION_TOKEN"),
            allow_http: var("AWS_ALLOW_HTTP").is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("true")),
        }
    }
}

/// A remote in an S3 bucket, under a key prefix.
#[derive(Debug)]
pub struct S3Backend {
    store: AmazonS3,
    bucket: String,
    /// Without leading or trailing `/`; may be empty.
    prefix: String,
    runtime: tokio::runtime::Runtime,
}

impl S3Backend {
    /// A client for `bucket` under `prefix`; `timeout` bounds each request's connection
    /// and answer. Nothing is sent until the first operation.
    ///
    /// # Errors
    /// [`RemoteError::Config`] when the client or its runtime cannot be built.
    pub fn new(
        bucket: &str,
        prefix: &str,
        options: &S3Options,
        timeout: Duration,
    ) -> Result<Self, RemoteError> {
        let config = |what: &str, e: &dyn std::fmt::Display| RemoteError::Config(format!("S3 {what}: {e}"));
        let client = ClientOptions::new()
            .with_timeout(timeout)
            .with_connect_timeout(timeout)
            .with_allow_http(options.allow_http);
        let retry = RetryConfig {
            backoff: BackoffConfig {
                init_backoff: Duration::from_millis(50),
                max_backoff: Duration::from_millis(500),
                base: 2.0,
            },
            max_retries: 2,
            retry_timeout: timeout,
        };
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_region(options.region.as_deref().unwrap_or("us-east-1"))
            .with_client_options(client)
            .with_retry(retry);
        if let Some(endpoint) = &options.endpoint {
            // A custom endpoint serves buckets as paths (`host/bucket/key`), as test
            // servers and most S3-compatible stores expect.
            builder = builder.with_endpoint(endpoint).with_virtual_hosted_style_request(false);
        }
        if let Some(key) = &options.access_key_id {
            builder = builder.with_access_key_id(key);
        }
        if let Some(secret) = &options.secret_access_key {
            builder = builder.with_secret_access_key(secret);
        }
        if let Some(token) = &options.session_token {
            builder = builder.with_token(token);
        }
        let store = builder.build().map_err(|e| config("client", &e))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| config("runtime", &e))?;
        let prefix = prefix.trim_matches('/').to_owned();
        Ok(S3Backend { store, bucket: bucket.to_owned(), prefix, runtime })
    }

    /// The object path of a key (or a key prefix) under the backend's prefix.
    fn path(&self, key: &str) -> Path {
        let key = key.trim_end_matches('/');
        match (self.prefix.is_empty(), key.is_empty()) {
            (true, _) => Path::from(key),
            (false, true) => Path::from(self.prefix.as_str()),
            (false, false) => Path::from(format!("{}/{key}", self.prefix)),
        }
    }

    fn backend_err(op: &'static str, key: &str, e: object_store::Error) -> RemoteError {
        RemoteError::Backend { op, key: key.to_owned(), message: e.to_string() }
    }
}

impl RemoteBackend for S3Backend {
    fn location(&self) -> String {
        if self.prefix.is_empty() {
            format!("s3://{}", self.bucket)
        } else {
            format!("s3://{}/{}", self.bucket, self.prefix)
        }
    }

    fn get(&self, key: &RemoteKey) -> Result<Vec<u8>, RemoteError> {
        let shown = key.to_string();
        let path = self.path(&shown);
        self.runtime.block_on(async {
            let found = self.store.get(&path).await.map_err(|e| Self::backend_err("get", &shown, e))?;
            // Refuse an oversized object before reading its body.
            if found.meta.size > MAX_ENTRY_BYTES {
                let message =
                    format!("{} bytes, larger than the {MAX_ENTRY_BYTES}-byte limit", found.meta.size);
                return Err(RemoteError::Backend { op: "get", key: shown.clone(), message });
            }
            let bytes = found.bytes().await.map_err(|e| Self::backend_err("get", &shown, e))?;
            Ok(bytes.to_vec())
        })
    }

    fn put_if_absent(&self, key: &RemoteKey, bytes: &[u8]) -> Result<PutOutcome, RemoteError> {
        let shown = key.to_string();
        let path = self.path(&shown);
        let options = PutOptions { mode: PutMode::Create, ..PutOptions::default() };
        let payload = PutPayload::from(bytes.to_vec());
        match self.runtime.block_on(self.store.put_opts(&path, payload, options)) {
            Ok(_) => Ok(PutOutcome::Created),
            // 412 on If-None-Match: another writer created the key first.
            Err(object_store::Error::AlreadyExists { .. } | object_store::Error::Precondition { .. }) => {
                Ok(PutOutcome::AlreadyPresent)
            }
            Err(e) => Err(Self::backend_err("put", &shown, e)),
        }
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>, RemoteError> {
        prefix_parts(prefix).map_err(|reason| RemoteError::InvalidKey { key: prefix.to_owned(), reason })?;
        let path = self.path(prefix);
        let strip = if self.prefix.is_empty() { String::new() } else { format!("{}/", self.prefix) };
        self.runtime.block_on(async {
            let mut stream = self.store.list(Some(&path));
            let mut keys = Vec::new();
            while let Some(meta) =
                stream.try_next().await.map_err(|e| Self::backend_err("list", prefix, e))?
            {
                let full = meta.location.as_ref();
                keys.push(full.strip_prefix(strip.as_str()).unwrap_or(full).to_owned());
            }
            keys.sort();
            Ok(keys)
        })
    }
}
