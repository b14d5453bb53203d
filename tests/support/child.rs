//! Runs part of a test in a fresh process of the same test binary: a dispatcher loads
//! its table once per process, so a test that changes the store checks dispatch in a
//! child. The test re-runs itself (`--exact <its name>`) with [`ROLE`] set and, seeing
//! [`is_child`], runs its child part instead; no separate `#[test]` exists for the
//! child, so a normal run never counts one as passing.
//!
//! ```ignore
//! #[test]
//! fn no_entry_falls_back() {
//!     if child::is_child() {
//!         return dispatch_and_print();
//!     }
//!     let output = child::spawn("no_entry_falls_back", |c| { c.env("KTC_CACHE_DIR", dir); });
//! }
//! ```

#![allow(dead_code, reason = "each test binary uses the part it needs")]

use std::process::{Command, Output};

/// Set in a child to the name of the test that spawned it.
pub(crate) const ROLE: &str = "KTC_TEST_CHILD";

/// Whether this process is a child spawned by [`spawn`]: the test then runs its child
/// part and returns.
pub(crate) fn is_child() -> bool {
    std::env::var_os(ROLE).is_some()
}

/// Runs this test binary's test `test` (the caller's own name) as a child, with the
/// environment `configure` sets; asserts it succeeded and returns its output. The
/// child's ktc settings start clean: no remote, no tuning on miss, warnings on.
pub(crate) fn spawn(test: &str, configure: impl FnOnce(&mut Command)) -> Output {
    let mut command = command(test);
    configure(&mut command);
    let output = command.output().expect("the child process runs");
    check(test, &output);
    output
}

/// The command [`spawn`] runs, to start a child without waiting for it (several
/// children at once: pipe its stdout, then [`check`] its output) or under a wrapper.
pub(crate) fn command(test: &str) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("the test binary's path"));
    command
        .args(["--exact", test, "--nocapture", "--test-threads", "1"])
        .env(ROLE, test)
        .env_remove("KTC_TUNE_ON_MISS")
        .env_remove("KTC_QUIET")
        .env_remove("KTC_REMOTE")
        .env_remove("KTC_REMOTE_TIMEOUT_MS");
    command
}

/// Asserts that the child `test` succeeded and really ran that test (a misspelt name
/// runs nothing and succeeds).
pub(crate) fn check(test: &str, output: &Output) {
    assert!(
        output.status.success(),
        "child `{test}` failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("1 passed"),
        "the child ran no test named `{test}`:\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// The `ktc warning:` lines of a child's stderr.
pub(crate) fn warnings(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|l| l.starts_with("ktc warning:"))
        .map(str::to_owned)
        .collect()
}

/// Marks a test as skipped for `reason`: printed, so the outcome says so. Under
/// `CI=true`, a skip whose prerequisite CI installs (`ci_provides`) fails instead.
pub(crate) fn skip(reason: &str, ci_provides: bool) {
    if ci_provides && std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("skipped under CI, which should provide it: {reason}");
    }
    println!("SKIPPED: {reason}");
}
