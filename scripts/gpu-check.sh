#!/usr/bin/env bash
# GPU check for ktc-kernels, to run on a machine with an NVIDIA GPU, its driver and
# NVRTC (libnvrtc.so.12 or older: cudarc is pinned to CUDA 12.8 bindings).
#
#   1. release build of the workspace;
#   2. the kernel tests, whose CUDA cases compare every CUDA variant (block sizes
#      128..1024, host- and device-resident inputs) with the CPU reference;
#   3. the joint_hist_batched and discretize sweeps with KTC_SWEEP=full, printing the
#      decision tables (the crossovers between CPU and CUDA variants on this host);
#   4. where there is a second GPU, the joint_hist_batched sweep for device 1
#      (KTC_SWEEP_DEVICE=1): every CUDA variant runs and is verified on device 1, host-
#      and device-resident inputs, and the entry is filed under device 1's fingerprint
#      and GPU (shared with device 0 where the GPUs are identical);
#   5. the MRMR example at N = 1M samples, p = 30 features, printing its figures.
#
# Exits non-zero, with the reason, where CUDA is not usable. KTC_CACHE_DIR is
# respected (default: ktc's usual store), so the tuning entries written here are
# the ones later runs on this host dispatch with.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "gpu-check: $*" >&2; exit 1; }

command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L || echo "gpu-check: nvidia-smi not found (continuing; the probe below decides)"

echo "== build (release)"
cargo build --release --workspace --all-targets

echo "== CUDA probe"
# ktc's capability probe as a tiny program: it never panics, and prints the reason
# when CUDA is unusable.
log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"' EXIT
if ! cargo run --release --quiet -p ktc-kernels --example cuda_probe | tee "$log_dir/probe.log"; then
    fail "CUDA is not usable here (see the reason above); the CUDA variants cannot be checked"
fi
devices=$(sed -n 's/.*devices: \([0-9]*\).*/\1/p' "$log_dir/probe.log")

echo "== kernel tests (CUDA cases included)"
cargo test --release -p ktc-kernels --lib -- cuda::source --nocapture
cargo test --release -p ktc-kernels --test joint_hist --test discretize -- --nocapture 2>&1 \
    | tee "$log_dir/tests.log"
if grep -q "skipping the CUDA check" "$log_dir/tests.log"; then
    fail "the CUDA tests skipped although the probe found CUDA"
fi

echo "== sweeps (KTC_SWEEP=full)"
KTC_SWEEP=full cargo test --release -p ktc-kernels --lib -- joint_hist::joint_hist_batched::ktc_sweep --exact --nocapture
KTC_SWEEP=full cargo test --release -p ktc-kernels --lib -- binning::discretize::ktc_sweep --exact --nocapture

if [ "${devices:-1}" -ge 2 ]; then
    echo "== device 1 (of $devices): sweep with every CUDA variant verified there"
    KTC_SWEEP_DEVICE=1 KTC_SWEEP=quick cargo test --release -p ktc-kernels --lib -- \
        joint_hist::joint_hist_batched::ktc_sweep --exact --nocapture 2>&1 | tee "$log_dir/dev1.log"
    grep -q "excluded \`cuda_" "$log_dir/dev1.log" && fail "a CUDA variant was excluded on device 1"
    grep -q "ktc: tuned" "$log_dir/dev1.log" || fail "no entry written for device 1"
else
    echo "== device 1: only one GPU here, nothing to check"
fi

echo "== MRMR example, N = 1M, p = 30"
cargo run --release --example mrmr -- --n 1000000 --p 30 --compare

echo "gpu-check: done"
