//! Fleet sharing through S3. With a server (`scripts/with-moto.sh`): push from one
//! store and pull into another, dispatch from a remote entry on a local miss, 16 racing
//! pushers of one key (the server's conditional create lets exactly one win), a garbage
//! object. Without one: an endpoint that is stopped, unreachable, or accepts and never
//! answers — dispatch falls back within the timeout, warns once, never panics.
//!
//! The server tests skip with a reason when `KTC_TEST_S3_ENDPOINT` is unset, and fail
//! when `CI=true`: CI must run them.

pub mod remote_common;

use ktc::remote::{PutOutcome, RemoteBackend, S3Backend, S3Options, SyncFilter, list_remote, pull, push};
use remote_common::*;
use std::net::TcpListener;
use std::time::{Duration, Instant};

/// The test server's endpoint and bucket, or `None` (skip) outside CI.
fn server(test: &str) -> Option<(String, String)> {
    let endpoint = std::env::var("KTC_TEST_S3_ENDPOINT").ok().filter(|v| !v.is_empty());
    let bucket = std::env::var("KTC_TEST_S3_BUCKET").ok().filter(|v| !v.is_empty());
    match (endpoint, bucket) {
        (Some(e), Some(b)) => Some((e, b)),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!(
                "{test}: CI=true but KTC_TEST_S3_ENDPOINT/KTC_TEST_S3_BUCKET are unset; run through scripts/with-moto.sh"
            )
        }
        _ => {
            println!(
                "skipped {test}: no S3 test server (run `scripts/with-moto.sh cargo test --test remote_s3`)"
            );
            None
        }
    }
}

fn options(endpoint: &str) -> S3Options {
    S3Options {
        endpoint: Some(endpoint.into()),
        region: Some("us-east-1".into()),
        access_key_id: Some("testing".into()),
        secret_access_key: Some("testing".into()),
        session_token: None,
        allow_http: true,
    }
}

fn backend(endpoint: &str, bucket: &str, prefix: &str) -> S3Backend {
    S3Backend::new(bucket, prefix, &options(endpoint), Duration::from_secs(10)).unwrap()
}

/// A child's environment for the remote `s3://bucket/prefix` at `endpoint`.
fn s3_env(endpoint: &str, bucket: &str, prefix: &str) -> Vec<(String, String)> {
    let mut env = remote_env(&format!("s3://{bucket}/{prefix}"));
    for (k, v) in [
        ("AWS_ENDPOINT_URL", endpoint),
        ("AWS_ALLOW_HTTP", "true"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
    ] {
        env.push((k.into(), v.into()));
    }
    env
}

/// A prefix no other test or run uses.
fn unique_prefix(test: &str) -> String {
    format!("ktc-tests/{test}-{}", nanos())
}

#[test]
fn push_then_pull_round_trip_serves_a_fresh_process() {
    if child::is_child() {
        return child_body();
    }
    let Some((endpoint, bucket)) = server("push_then_pull_round_trip") else { return };
    let prefix = unique_prefix("round-trip");
    let remote = backend(&endpoint, &bucket, &prefix);
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let written = write_entry(a.path());
    let filter = SyncFilter::this_host(&cache(a.path()));

    let started = Instant::now();
    let pushed = push(&cache(a.path()), &remote, &filter).unwrap();
    let push_time = started.elapsed();
    assert_eq!((pushed.transferred.len(), pushed.rejected.len()), (1, 0), "{pushed}");
    let again = push(&cache(a.path()), &remote, &filter).unwrap();
    assert_eq!((again.transferred.len(), again.already_present.len()), (0, 1), "{again}");
    let listed = list_remote(&remote, &filter).unwrap();
    assert_eq!(listed.entries.len(), 1, "{listed:?}");

    let started = Instant::now();
    let pulled = pull(&cache(b.path()), &remote, &filter).unwrap();
    let pull_time = started.elapsed();
    assert_eq!((pulled.transferred.len(), pulled.rejected.len()), (1, 0), "{pulled}");
    println!("S3 round trip: push {push_time:?}, pull {pull_time:?}");

    let copy = b.path().join(written.strip_prefix(a.path()).unwrap());
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&written).unwrap());
    assert_tuned(&run_child("push_then_pull_round_trip_serves_a_fresh_process", b.path(), &[]));
}

#[test]
fn a_local_miss_is_served_from_s3_and_kept() {
    if child::is_child() {
        return child_body();
    }
    let Some((endpoint, bucket)) = server("a_local_miss_is_served_from_s3") else { return };
    let prefix = unique_prefix("miss");
    let (a, empty) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let written = write_entry(a.path());
    push(&cache(a.path()), &backend(&endpoint, &bucket, &prefix), &SyncFilter::default()).unwrap();
    let run = run_child(
        "a_local_miss_is_served_from_s3_and_kept",
        empty.path(),
        &s3_env(&endpoint, &bucket, &prefix),
    );
    println!("first call fetching from S3 took {:?}", run.first_call);
    assert_tuned(&run);
    assert!(empty.path().join(written.strip_prefix(a.path()).unwrap()).is_file(), "stored locally");
}

#[test]
fn sixteen_racing_pushers_create_one_object() {
    let Some((endpoint, bucket)) = server("sixteen_racing_pushers") else { return };
    let prefix = unique_prefix("race");
    let key = fresh_key();
    let bytes: Vec<u8> = (0..64 * 1024).map(|i| (i % 251) as u8).collect();
    let outcomes = race_pushers(16, || backend(&endpoint, &bucket, &prefix), &key, &bytes);
    let created = outcomes.iter().filter(|o| **o == PutOutcome::Created).count();
    assert_eq!(created, 1, "{outcomes:?}");
    assert_eq!(outcomes.iter().filter(|o| **o == PutOutcome::AlreadyPresent).count(), 15);
    let remote = backend(&endpoint, &bucket, &prefix);
    assert_eq!(remote.get(&key).unwrap(), bytes, "the object is intact");
    assert_eq!(remote.list("").unwrap(), [key.to_string()]);
}

#[test]
fn a_garbage_object_falls_back_within_the_timeout() {
    if child::is_child() {
        return child_body();
    }
    let Some((endpoint, bucket)) = server("a_garbage_object_falls_back") else { return };
    let prefix = unique_prefix("garbage");
    backend(&endpoint, &bucket, &prefix).put_if_absent(&fresh_key(), b"<html>not an entry</html>").unwrap();
    let empty = tempfile::tempdir().unwrap();
    let run = run_child(
        "a_garbage_object_falls_back_within_the_timeout",
        empty.path(),
        &s3_env(&endpoint, &bucket, &prefix),
    );
    assert_bounded_fallback(&run, "not valid JSON");
    assert!(!empty.path().join(FINGERPRINT).exists(), "nothing invalid is stored locally");
}

/// Runs the child against an S3 endpoint that does not work and checks the fallback.
fn assert_dead_endpoint_falls_back(test: &str, endpoint: &str) {
    let empty = tempfile::tempdir().unwrap();
    let run = run_child(test, empty.path(), &s3_env(endpoint, "ktc-test", "dead"));
    assert_bounded_fallback(&run, "s3://ktc-test/dead");
}

#[test]
fn a_stopped_server_falls_back_within_the_timeout() {
    if child::is_child() {
        return child_body();
    }
    // A port that was just free: nothing listens there now.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    assert_dead_endpoint_falls_back(
        "a_stopped_server_falls_back_within_the_timeout",
        &format!("http://127.0.0.1:{port}"),
    );
}

#[test]
fn an_unreachable_address_falls_back_within_the_timeout() {
    if child::is_child() {
        return child_body();
    }
    // TEST-NET-1 (RFC 5737): never routed, so connecting fails or hangs until the timeout.
    assert_dead_endpoint_falls_back(
        "an_unreachable_address_falls_back_within_the_timeout",
        "http://192.0.2.1:9",
    );
}

#[test]
fn a_server_that_never_answers_falls_back_within_the_timeout() {
    if child::is_child() {
        return child_body();
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    // Accept every connection and hold it open, never reading or writing.
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    assert_dead_endpoint_falls_back("a_server_that_never_answers_falls_back_within_the_timeout", &endpoint);
}
