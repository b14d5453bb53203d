//! The workspace's own `ktc` command line: `ktc::cli::main()` with `ktc_kernels` and
//! the demonstration kernels (`sum`, `histogram`) linked, so it can also `retune` them.
//!
//! ```sh
//! cargo run --example ktc -- retune          # sweep every linked kernel on every device
//! cargo run --example ktc -- list            # what the store holds, judged exactly
//! ```

// linkme: a crate's kernels are linked only into binaries that name the crate.
use ktc_kernels as _;
use ktc_workspace as _;

fn main() -> std::process::ExitCode {
    ktc::cli::main()
}
