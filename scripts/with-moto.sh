#!/usr/bin/env bash
# Runs a command with an S3 test server: moto on 127.0.0.1 at a free port, one bucket,
# and the variables the S3 tests read (KTC_TEST_S3_ENDPOINT, KTC_TEST_S3_BUCKET, AWS_*).
# The server is stopped by its process id when the command ends, however it ends.
#
#   scripts/with-moto.sh cargo test --test remote_s3
#
# moto is installed once into a virtualenv (KTC_MOTO_VENV, default target/moto-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${KTC_MOTO_VENV:-target/moto-venv}"
if [ ! -x "$venv/bin/moto_server" ]; then
    echo "== installing moto[server] into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'moto[server]'
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
log="$(mktemp)"
# moto behind one lock: its own conditional create is check-then-store (see the script).
"$venv/bin/python" scripts/moto_atomic.py 127.0.0.1 "$port" >"$log" 2>&1 &
moto_pid=$!
trap 'kill "$moto_pid" 2>/dev/null || true; wait "$moto_pid" 2>/dev/null || true; rm -f "$log"' EXIT

endpoint="http://127.0.0.1:$port"
for _ in $(seq 1 150); do
    if curl -s -o /dev/null "$endpoint/"; then
        break
    fi
    if ! kill -0 "$moto_pid" 2>/dev/null; then
        echo "moto_server exited:" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.2
done
bucket="ktc-test"
curl -fsS -X PUT "$endpoint/$bucket" >/dev/null
echo "== moto at $endpoint (pid $moto_pid), bucket $bucket"

export KTC_TEST_S3_ENDPOINT="$endpoint" KTC_TEST_S3_BUCKET="$bucket"
# moto accepts any credentials; the region only has to be consistent.
export AWS_ENDPOINT_URL="$endpoint" AWS_ALLOW_HTTP=true AWS_REGION=us-east-1
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing
"$@"
