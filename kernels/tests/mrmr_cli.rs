//! The MRMR example's flags: defaults, both spellings, and messages for bad input.

use std::path::PathBuf;

use ktc_kernels::mrmr::{Args, Command, Criterion, Source, parse_args};

fn parse(args: &[&str]) -> Result<Command, String> {
    parse_args(args.iter().map(|s| s.to_string()))
}

fn run(args: &[&str]) -> Args {
    match parse(args) {
        Ok(Command::Run(a)) => a,
        other => panic!("{args:?}: {other:?}"),
    }
}

#[test]
fn defaults_are_the_readme_run() {
    let a = run(&[]);
    assert_eq!(a.source, Source::Synthetic { n: 1_000_000, p: 30, seed: 42 });
    assert_eq!((a.select, a.criterion, a.bins, a.discrete, a.quick), (10, Criterion::Mid, 8, false, false));
}

#[test]
fn csv_with_target_and_options() {
    let a = run(&[
        "--csv",
        "d.csv",
        "--target=label",
        "--bins",
        "16",
        "--discrete",
        "--select",
        "3",
        "--criterion=MIQ",
    ]);
    assert_eq!(a.source, Source::Csv { path: PathBuf::from("d.csv"), target: "label".into() });
    assert_eq!((a.select, a.criterion, a.bins, a.discrete), (3, Criterion::Miq, 16, true));
}

#[test]
fn quick_shrinks_the_default_n_but_not_an_explicit_one() {
    assert_eq!(run(&["--quick"]).source, Source::Synthetic { n: 20_000, p: 30, seed: 42 });
    assert_eq!(run(&["--quick", "--n", "1_000"]).source, Source::Synthetic { n: 1_000, p: 30, seed: 42 });
}

#[test]
fn help() {
    assert_eq!(parse(&["--help"]), Ok(Command::Help));
}

#[test]
fn bad_flags_are_messages() {
    for (args, needle) in [
        (&["--frobnicate"][..], "unknown argument `--frobnicate`"),
        (&["--n"], "--n needs a value"),
        (&["--n", "ten"], "--n expects a whole number, got `ten`"),
        (&["--p", "0"], "--p must be a positive"),
        (&["--criterion", "mad"], "unknown criterion `mad`"),
        (&["--csv", "d.csv"], "--csv needs --target"),
        (&["--target", "y"], "--target applies to --csv only"),
        (&["--csv", "d.csv", "--target", "y", "--n", "5"], "do not apply with --csv"),
        (&["--bins", "300"], "--bins must be at most 256"),
        (&["--quick=yes"], "--quick takes no value"),
    ] {
        let err = parse(args).expect_err(needle);
        assert!(err.contains(needle), "{args:?}: `{err}` lacks `{needle}`");
    }
}
