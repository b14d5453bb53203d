//! The `ktc` command line with the root package's demonstration kernels linked, so
//! `retune` has kernels to tune and `list` judges them by their exact provenance. The
//! CLI tests run it as `env!("CARGO_BIN_EXE_ktc-demo")`.

// linkme: the demo kernels are linked only where their crate is named.
use ktc_workspace as _;

fn main() -> std::process::ExitCode {
    ktc::cli::main()
}
