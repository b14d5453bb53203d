//! Says whether CUDA is usable here (exit 0) or why not (exit 1), without panicking
//! whatever is installed; `scripts/gpu-check.sh` runs it first.

use std::process::ExitCode;

use ktc_kernels as _;

fn main() -> ExitCode {
    match ktc::capability_available(ktc::Capability::Cuda) {
        Ok(()) => {
            println!("CUDA: usable");
            ExitCode::SUCCESS
        }
        Err(reason) => {
            eprintln!("CUDA: not usable: {reason}");
            ExitCode::FAILURE
        }
    }
}
