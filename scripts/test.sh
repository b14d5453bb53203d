#!/usr/bin/env bash
# The README's test command: every test of the workspace (doc tests included, MRMR
# cross-checked against the reference pymrmr where it builds), then the
# remote-backend tests with the `s3` feature against a real S3 server (moto on loopback,
# installed into a virtualenv on first use and stopped on exit).
set -euo pipefail
cd "$(dirname "$0")/.."
# The reference mRMR implementation for the MRMR cross-check (best effort: without it
# that one test says why it skips).
KTC_PYTHON="$(bash scripts/pymrmr-venv.sh)"
export KTC_PYTHON
# The workspace's own sweep tests tune test fixtures: measure them in the debug build
# they run in, rather than building each test target again in release. The release
# flow (plain `cargo test` handing over to `cargo test --release`) is proven end to end
# by tests/user_crate.rs, which turns it back on for the user crate it builds.
export KTC_SWEEP_RELEASE="${KTC_SWEEP_RELEASE:-0}"
cargo test --workspace "$@"
echo "== remote tests (s3 feature, moto)"
# CI=true: a missing server is a failure, never a skip.
CI=true bash scripts/with-moto.sh cargo test -p ktc-workspace -p ktc --features ktc/s3,ktc-workspace/s3 \
    --lib --test remote_s3 --test remote_folder "$@"
