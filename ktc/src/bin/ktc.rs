//! The `ktc` command line. This binary links no kernels: it inspects and maintains any
//! store, and judges entries by what it can know (see `ktc::cli`). A kernel crate's own
//! binary calling `ktc::cli::main()` can also re-tune.

fn main() -> std::process::ExitCode {
    ktc::cli::main()
}
