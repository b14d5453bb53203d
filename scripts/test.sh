#!/usr/bin/env bash
# The README's test command: every test of the workspace, doc tests included.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace "$@"
