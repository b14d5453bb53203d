#!/usr/bin/env bash
# Makes (once) a virtualenv holding pymrmr, the reference mRMR implementation (Peng's C++)
# that kernels/tests/mrmr_pymrmr.rs cross-checks against, and prints its python's path.
# Best effort: where it cannot be built, it prints nothing and the test says why it skips.
set -uo pipefail
cd "$(dirname "$0")/.."
venv="${KTC_PYMRMR_VENV:-target/pymrmr-venv}"
if ! "$venv/bin/python" -c 'import pymrmr' >/dev/null 2>&1; then
    {
        python3 -m venv "$venv" &&
            "$venv/bin/pip" install --quiet --disable-pip-version-check cython numpy pandas wheel setuptools &&
            # pymrmr's build imports numpy and Cython, so it builds against the venv's own.
            "$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation pymrmr
    } >&2 || { echo "pymrmr could not be installed; its cross-check will skip" >&2; exit 0; }
fi
"$venv/bin/python" -c 'import pymrmr' >/dev/null 2>&1 && echo "$(cd "$venv/bin" && pwd)/python"
exit 0
