//! The README's flow in a user's own crate, built by cargo like any other: plain
//! `cargo test` tunes it, and the `--release` binary of the same code is served by
//! that tuning at every call (no fallback, no stale warning; the variant that runs is
//! the one `explain` names). Then the code version: a comment edit keeps the entry, an
//! edit to a helper outside the `#[tunable]` module that the variants call retires it,
//! named in the warning.
//!
//! The crate is `tests/fixtures/user_crate`, copied into a temporary folder with the
//! workspace's `Cargo.lock` (the same dependency versions, no resolution) and built in
//! `target/user-crate`, which persists, so its dependencies are built once per machine.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/user_crate");

#[test]
fn cargo_test_tunes_the_release_build_and_source_edits_retire_it() {
    let Some(cargo) = cargo() else { return };
    let user = tempfile::tempdir().unwrap();
    let store = tempfile::tempdir().unwrap();
    let krate = user.path();
    copy_fixture(krate);
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap().join("user-crate");
    let run = |args: &[&str]| {
        let output = Command::new(&cargo)
            .args(args)
            .current_dir(krate)
            .env("CARGO_TARGET_DIR", &target)
            .env("KTC_CACHE_DIR", store.path())
            .env("KTC_FINGERPRINT", "user-crate-host")
            .env("KTC_SWEEP", "quick")
            .env("KTC_SWEEP_BUDGET_S", "5")
            // Whatever the outer run chose: this test is about the release flow.
            .env("KTC_SWEEP_RELEASE", "1")
            .env_remove("KTC_REMOTE")
            .output()
            .unwrap();
        let text = text(&output);
        assert!(output.status.success(), "cargo {args:?} failed:\n{text}");
        text
    };

    // 1. Plain `cargo test`: the debug build's sweep test hands over to a release build.
    let tested = run(&["test"]);
    assert!(tested.contains("tuning `sumsq` in an optimised build"), "{tested}");
    assert!(tested.contains("ktc: release builds of `sumsq` use"), "{tested}");

    // 2. The release binary. It is built in the release sweep's own target folder
    //    (`<target>/ktc-release`): the same code and profile as a plain
    //    `cargo run --release`, without building every dependency a second time.
    let release_dir = target.join("ktc-release");
    let release = || run(&["run", "--release", "--quiet", "--target-dir", release_dir.to_str().unwrap()]);
    let served = release();
    println!("release binary after `cargo test`:\n{served}");
    assert_served(&served);

    // 3. A comment-only edit (a `///` line and a `//` line) keeps the code version.
    edit(krate, "src/helpers.rs", "pub fn square", "/// Squared, documented.\npub fn square");
    edit(krate, "src/helpers.rs", "    x * x\n", "    x * x // a comment\n");
    assert_served(&release());

    // 4. A code edit in the helper: the entry is stale, named, and never served.
    edit(krate, "src/helpers.rs", "    x * x", "    x.pow(2)");
    let stale = release();
    println!("release binary after editing the helper:\n{stale}");
    assert!(stale.contains("source: src/helpers.rs changed"), "{stale}");
    let calls: Vec<&str> = stale.lines().filter(|l| l.starts_with("CALL ")).collect();
    assert_eq!(calls.len(), 5, "{stale}");
    for call in calls {
        assert!(call.contains(" fallback ") && call.contains("ran=serial"), "served a stale entry: {call}");
    }
}

/// Every call served from the entry, by the variant `explain` names; no warning. (Which
/// variant the sweep chose is the host's business: `serial` checks itself three times,
/// so usually another one wins, but no timing is asserted.)
fn assert_served(out: &str) {
    assert!(!out.contains("ktc warning"), "{out}");
    let calls: Vec<&str> = out.lines().filter(|l| l.starts_with("CALL ")).collect();
    assert_eq!(calls.len(), 5, "{out}");
    for call in calls {
        let fields: Vec<&str> = call.split(' ').collect();
        let (ran, explain, source) = (fields[2], fields[3], fields[4]);
        assert_eq!(source, "entry", "not served from the entry: {call}");
        assert_eq!(ran.strip_prefix("ran="), explain.strip_prefix("explain="), "{call}");
    }
}

/// Cargo, as the outer `cargo test` names it; `None` (with the reason printed) only
/// outside CI: under `CI=true` a missing cargo fails the test.
fn cargo() -> Option<PathBuf> {
    let cargo = std::env::var_os("CARGO")
        .map(PathBuf::from)
        .filter(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()));
    if cargo.is_none() {
        assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI=true but cargo ($CARGO) is not runnable");
        println!("SKIPPED: cargo ($CARGO) is not runnable here, so the user crate cannot be built");
    }
    cargo
}

fn copy_fixture(to: &Path) {
    let ktc = Path::new(env!("CARGO_MANIFEST_DIR")).join("ktc");
    let manifest = std::fs::read_to_string(Path::new(FIXTURE).join("Cargo.toml.in")).unwrap();
    std::fs::write(to.join("Cargo.toml"), manifest.replace("@KTC@", ktc.to_str().unwrap())).unwrap();
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"), to.join("Cargo.lock")).unwrap();
    std::fs::create_dir_all(to.join("src")).unwrap();
    for file in ["lib.rs", "helpers.rs", "main.rs"] {
        std::fs::copy(Path::new(FIXTURE).join("src").join(file), to.join("src").join(file)).unwrap();
    }
}

fn edit(krate: &Path, file: &str, from: &str, to: &str) {
    let path = krate.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

fn text(output: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}
