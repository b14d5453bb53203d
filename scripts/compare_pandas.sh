#!/usr/bin/env bash
# The MRMR job in pandas + numpy next to the Rust example, on the same files: a
# 1M-row × 30-float + int `class` table as CSV (~254 MB) and as Parquet, written once
# by scripts/mrmr_data.py under target/mrmr-data/ (not committed). Each program runs
# twice per file and the second run's whole-process wall time is reported, with the
# features each selected. pandas, numpy and pyarrow come from PyPI into a virtualenv
# (best effort: without them the script says so and stops).
# CPU time is printed next to wall time: on a busy host it moves far less.
# Usage: scripts/compare_pandas.sh [ROWS] [FEATURES]   (defaults 1000000 30)
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-1000000}"
features="${2:-30}"
venv="${KTC_PANDAS_VENV:-target/pandas-venv}"
if ! "$venv/bin/python" -c 'import pandas, numpy, pyarrow' >/dev/null 2>&1; then
    { python3 -m venv "$venv" &&
        "$venv/bin/pip" install --quiet --disable-pip-version-check pandas numpy pyarrow; } >&2 ||
        { echo "pandas/numpy/pyarrow could not be installed; no comparison" >&2; exit 1; }
fi
py="$venv/bin/python"
data="target/mrmr-data/big-${rows}x${features}"
mkdir -p target/mrmr-data
[ -f "$data.parquet" ] || "$py" scripts/mrmr_data.py "$rows" "$features" "$data"
cargo build --release --example mrmr >&2
example=target/release/examples/mrmr
# Tune (first use) before anything is timed.
"$example" --quick >/dev/null

wall() { # the second of two runs: whole-process wall time, CPU time (user + sys), the selection
    local out cpu
    "$@" >/dev/null
    out="$( { /usr/bin/time -f 'TIME %e %U %S' "$@"; } 2>&1)"
    cpu="$(echo "$out" | awk '/^TIME/ {printf "%6.2f s wall %6.2f s cpu", $2, $3 + $4}')"
    printf '%s   %s\n' "$cpu" \
        "$(echo "$out" | awk '/^selected:/ {$1=""; print} /^ +[0-9]+  f[0-9]/ {printf " %s", $2}' | xargs)"
}

echo "host: $(nproc) cores; $(uptime)"
for ext in csv parquet; do
    echo "== $data.$ext (select 10, 8 bins)"
    printf '  %-22s' "pandas + numpy:"
    wall "$py" scripts/mrmr_pandas.py "$data.$ext" class 10 8
    printf '  %-22s' "ktc example:"
    wall "$example" --file "$data.$ext" --target class --select 10 --bins 8
done
echo "== synthetic default (N = 1M, p = 30, continuous, 8 bins)"
printf '  %-22s' "ktc example:"
wall "$example"
