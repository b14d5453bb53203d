//! The `ktc` command line (feature `cli`).
//!
//! Two ways to run it: the `ktc` binary, which inspects and maintains any store but
//! links no kernels (so it cannot `retune`), and [`main`], which a kernel crate calls
//! from a binary of its own so the same command line can also re-tune its kernels:
//!
//! ```no_run
//! use my_kernels as _; // links the crate's kernels (linkme needs the crate named)
//! # mod my_kernels {}
//!
//! fn main() -> std::process::ExitCode {
//!     ktc::cli::main()
//! }
//! ```
//!
//! Subcommands: `fingerprint`, `list`, `show KERNEL`, `explain KERNEL --axis N=V ...`,
//! `gc [--dry-run] [--keep N]`, `export --out FILE`, `import FILE`,
//! `plot KERNEL --out FILE.svg`, `retune [--refine [--points K] [--looks L]
//! [--threshold R] [--seed S] [--at POINT]...] [KERNEL...]`, `verify KERNEL [--points K] [--looks L]
//! [--threshold R] [--seed S] [--at POINT]...`. `--cache-dir DIR` (else
//! `KTC_CACHE_DIR`) chooses the store, `--fingerprint FP` the fingerprint read.
//!
//! Exit codes: 0 ok, 1 error (the message says what to do next), 2 bad usage.
//!
//! # Current, superseded, stale
//!
//! `list` (and `gc`, `show`, `explain`, `plot` choosing an entry) judge each valid
//! entry against the provenance this binary can know. For a kernel linked into the
//! binary that is its full provenance for the device whose fingerprint the entry
//! carries: exactly what the dispatcher compares. For any other kernel (always so from
//! the plain binary) the kernel's crate, version, source hash and build profile cannot
//! be known: they are taken from the entry, so only ktc's version, rustc and — for this
//! host's fingerprints — the CUDA driver, NVRTC and GPU are judged, and of several code
//! versions of one (fingerprint, kernel) the one holding the newest entry is current
//! and the others are stale against it. Of the entries of one code version the newest
//! is current and the older are superseded. A linked kernel's entries are validated
//! against its schema (variants, block sizes, axes) exactly as its dispatcher does, so
//! the entry called current is the one it serves. `gc` never removes that entry: for an
//! unlinked kernel, whose schema is unknown, it removes a superseded entry only when a
//! newer one is certain to be valid whenever it is (see `KernelTuningCache::gc`). `gc`
//! removes stale entries only when judged against linked kernels: from the plain
//! binary, a rustc or ktc version of its own says nothing certain about the kernel's
//! program.
//!
//! # JSON shapes (`--json`), stable
//!
//! - `fingerprint`: `{"fingerprint": FP, "devices": [{"device": "cpu"|"cuda:N",
//!   "fingerprint": FP}], "provenance": PROVENANCE, "kernels": [{"kernel", "crate",
//!   "code_version"}]}`; `PROVENANCE` is the entry's `provenance` object with
//!   unspecified kernel fields.
//! - `list`: `{"store": DIR, "judged_against": "linked kernels"|"store", "entries":
//!   [{"path", "fingerprint", "kernel", "code_version", "created": STR|null,
//!   "regions": N|null, "status": "current"|"superseded"|"stale"|"invalid",
//!   "load": {"stolen", "other"}|null, "changes": [{"field", "old", "new"}], "reason":
//!   STR|null}]}` (`load`: how busy the machine was while the entry's sweep measured,
//!   as the entry records it; the text's status reads `current, tuned under load` where
//!   either share reached 10%).
//! - `show`: `{"path": FILE, "status": STATUS, "entry": ENTRY}` with `ENTRY` the stored
//!   entry as is.
//! - `explain`: `{"kernel", "fingerprint", "variant", "block_size": N|null, "source":
//!   "region"|"fallback", "region_index": N|null, "region": STR|null, "entry":
//!   FILE|null, "reason": STR|null}`.
//! - `gc`: `{"dry_run": BOOL, "removed": [FILE], "kept": N, "invalid": [{"path",
//!   "reason"}]}`.
//! - `export`: `{"out": FILE, "exported": N}`; the bundle itself is
//!   `{"format": "ktc-bundle", "version": 1, "entries": [ENTRY]}`.
//! - `import`: `{"imported": [{"index", "path"}], "present": [{"index", "path"}],
//!   "rejected": [{"index", "reason"}]}` (exit 1 when any entry is rejected).
//! - `plot`: `{"out": FILE, "panels": N, "series": [STR]}`.
//! - `retune`: `{"outcomes": [{"kernel", "device", "fingerprint", "entry": FILE|null,
//!   "error": STR|null, "regions": [REGION], "excluded": [EXCLUSION], "verify":
//!   VERIFY|null}], "unknown": [STR]}`; `VERIFY`, with `--refine`, is what its
//!   verify found before re-sweeping, in `verify`'s shape (`earlier`: the points earlier
//!   verifies flagged and recorded, measured again, re-swept whatever their regret now):
//!   the outcome's `entry` equals its `entry` exactly when nothing was flagged, now or
//!   by an earlier verify, and the entry was kept.
//! - `verify`: `{"kernel", "entry": FILE, "threshold", "points": [{"point", "chosen",
//!   "region": N|null, "fastest", "regret", "times_ns": {CANDIDATE: NS}, "look_regrets":
//!   [R]}],
//!   "geomean_regret", "worst_regret", "flagged": [{"index", "region", "points",
//!   "worst_regret"}], "fixed": [{"candidate", "geomean_speedup", "worst_speedup"}],
//!   "skipped": [STR], "recorded": FILE|null, "earlier": [POINT], "load": LOAD|null,
//!   "entry_load": LOAD|null}` (exit 1 when a region is flagged; `recorded`: where the
//!   flagged points were recorded beside the entry for the next `retune --refine`;
//!   `earlier` is empty outside `retune --refine`; `load`: `{"stolen", "other"}`, the
//!   shares, 0 to 1, of the machine's CPU time the hypervisor stole and other processes
//!   used while the points were measured, `null` where the system does not count them;
//!   `entry_load`: the same for the entry's sweep, as the entry records it).

mod args;
mod bundle;
mod context;
mod explain;
mod fingerprint;
mod gc;
mod list;
mod plot;
mod remote;
mod retune;
mod show;
mod status;
mod table;
mod verify;

use args::{Cli, Command};
use clap::Parser;
use context::{Ctx, Failure};
use std::io::Write;
use std::process::ExitCode;

/// Runs the command line on this process's arguments and returns the exit code: 0 ok,
/// 1 error, 2 bad usage. Kernels linked into the calling binary can be re-tuned and
/// are judged by their exact provenance.
pub fn main() -> ExitCode {
    main_from(std::env::args_os())
}

/// As [`main`], on the given arguments (the first is the program name).
pub fn main_from<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with 0, usage errors to stderr with 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = Ctx::new(&cli).and_then(|ctx| dispatch(&ctx, cli.command));
    match result {
        Ok(text) => match std::io::stdout().lock().write_all(text.as_bytes()) {
            // A closed pipe (`ktc list | head`) is the reader's choice, not an error.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                eprintln!("ktc: writing the output: {e}");
                ExitCode::from(1)
            }
            _ => ExitCode::SUCCESS,
        },
        Err(failure) => {
            if !failure.output.is_empty() {
                let _ = std::io::stdout().lock().write_all(failure.output.as_bytes());
            }
            eprintln!("ktc: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

fn dispatch(ctx: &Ctx, command: Command) -> Result<String, Failure> {
    match command {
        Command::Fingerprint => fingerprint::run(ctx),
        Command::List => list::run(ctx),
        Command::Show(a) => show::run(ctx, &a.kernel),
        Command::Explain(a) => explain::run(ctx, &a),
        Command::Gc(a) => gc::run(ctx, &a),
        Command::Export(a) => bundle::export(ctx, &a),
        Command::Import(a) => bundle::import(ctx, &a),
        Command::Plot(a) => plot::run(ctx, &a),
        Command::Retune(a) => retune::run(ctx, &a),
        Command::Verify(a) => verify::run(ctx, &a),
        Command::Push(a) => remote::sync(ctx, &a, remote::Direction::Push),
        Command::Pull(a) => remote::sync(ctx, &a, remote::Direction::Pull),
        Command::Remote(a) => remote::run(ctx, &a),
    }
}
