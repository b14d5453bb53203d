//! Says whether CUDA is usable here (exit 0) or why not (exit 1), without panicking
//! whatever is installed, with each device's fingerprint; `scripts/gpu-check.sh` runs it
//! first.

use std::process::ExitCode;

use ktc_kernels as _;

fn main() -> ExitCode {
    match ktc::capability_available(ktc::Capability::Cuda) {
        Ok(()) => {
            // `devices: N` is read by scripts/gpu-check.sh to decide the per-device checks.
            println!("CUDA: usable, devices: {}", ktc::cuda_device_count());
            for d in 0..ktc::cuda_device_count() {
                println!("  cuda:{d} fingerprint {}", ktc::hw_fingerprint_for(d));
            }
            ExitCode::SUCCESS
        }
        Err(reason) => {
            eprintln!("CUDA: not usable: {reason}");
            ExitCode::FAILURE
        }
    }
}
