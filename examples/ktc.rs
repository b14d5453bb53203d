//! The kernels crate's own `ktc` command line: `ktc::cli::main()` with `ktc_kernels`
//! linked, so it can also `retune` them.
//!
//! ```sh
//! cargo run --example ktc -- retune          # sweep every linked kernel on every device
//! cargo run --example ktc -- list            # what the store holds, judged exactly
//! ```

// linkme: a crate's kernels are linked only into binaries that name the crate.
use ktc_kernels as _;

fn main() -> std::process::ExitCode {
    ktc::cli::main()
}
