//! Plain `cargo test` tunes the release build: the generated sweep test, compiled
//! without optimisation, runs the same test in an optimised build of its crate (a child
//! `cargo test --release`), so the entry is measured on, and keyed for, the code that
//! release binaries run. A debug build's timings would mislead them.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::registry::KernelInfo;

/// Set to `0` (or `false`, `no`, `off`), the sweep test measures in the build it finds
/// itself in, and its entry serves that build's profile only.
pub const RELEASE_VAR: &str = "KTC_SWEEP_RELEASE";

/// Set in the child: it measures itself, whatever its profile (no second hop).
const CHILD_VAR: &str = "KTC_SWEEP_IN_RELEASE_CHILD";

/// Where the sweep test was compiled, captured in the kernel's crate by
/// [`test_build!`](crate::test_build) (the generated test passes it).
#[derive(Clone, Copy, Debug)]
pub struct TestBuild {
    /// The package (`CARGO_PKG_NAME`).
    pub package: &'static str,
    /// Its folder (`CARGO_MANIFEST_DIR`).
    pub manifest_dir: &'static str,
    /// The crate being compiled (`CARGO_CRATE_NAME`): the test target's name for an
    /// integration test.
    pub crate_name: &'static str,
    /// Whether it is an integration test or bench (`CARGO_TARGET_TMPDIR` is set).
    pub integration_test: bool,
    /// The binary's name, for a `[[bin]]` (`CARGO_BIN_NAME`).
    pub bin: Option<&'static str>,
    /// `CARGO_TARGET_TMPDIR` (integration tests and benches only): where their sweeps
    /// file entries when `KTC_CACHE_DIR` is unset, since no release build of a library
    /// dispatches a kernel defined in a test.
    pub scratch: Option<&'static str>,
}

/// The [`TestBuild`] of the crate this expands in.
#[doc(hidden)]
#[macro_export]
macro_rules! test_build {
    () => {
        $crate::sweep::TestBuild {
            package: ::core::env!("CARGO_PKG_NAME"),
            manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
            crate_name: ::core::env!("CARGO_CRATE_NAME"),
            integration_test: ::core::option_env!("CARGO_TARGET_TMPDIR").is_some(),
            bin: ::core::option_env!("CARGO_BIN_NAME"),
            scratch: ::core::option_env!("CARGO_TARGET_TMPDIR"),
        }
    };
}

/// Where the sweep of a generated test runs.
#[derive(Debug)]
pub(super) enum Where {
    /// Here, in this build; with the one line that says why, where there is one.
    Here(Option<String>),
    /// In a child optimised build: this command.
    Release(Command),
}

/// Decides where `tuner`'s sweep test measures.
pub(super) fn decide(tuner: &KernelInfo, build: &TestBuild) -> Where {
    if tuner.identity.build.profile == "release" || std::env::var_os(CHILD_VAR).is_some() {
        return Where::Here(None);
    }
    if opted_out() {
        return Where::Here(Some(format!(
            "ktc: {RELEASE_VAR}=0: tuning `{}` in this debug build; its entry serves debug builds only",
            tuner.name
        )));
    }
    let Some(cargo) = std::env::var_os("CARGO") else {
        return Where::Here(Some(format!(
            "ktc: not run by cargo ($CARGO unset): tuning `{}` in this debug build; its entry serves \
             debug builds only",
            tuner.name
        )));
    };
    Where::Release(command(cargo, tuner, build, &release_target_dir()))
}

fn opted_out() -> bool {
    std::env::var(RELEASE_VAR)
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "0" | "false" | "no" | "off"))
}

/// `$CARGO test --release -p PKG <target> --target-dir DIR -- PATH::ktc_sweep --exact
/// --nocapture`, with the environment inherited (`KTC_SWEEP`, `KTC_SWEEP_BUDGET_S`,
/// `KTC_CACHE_DIR`, `KTC_FINGERPRINT`, ...).
fn command(cargo: OsString, tuner: &KernelInfo, build: &TestBuild, target_dir: &Path) -> Command {
    let mut cmd = Command::new(cargo);
    cmd.arg("test").arg("--release");
    cmd.arg("--manifest-path").arg(Path::new(build.manifest_dir).join("Cargo.toml"));
    cmd.args(["-p", build.package]);
    cmd.args(target_args(build));
    cmd.args(feature_args(tuner));
    cmd.arg("--target-dir").arg(target_dir);
    cmd.args(["--", &test_path(tuner), "--exact", "--nocapture"]);
    cmd.env(CHILD_VAR, "1");
    cmd
}

/// The cargo arguments that select the test target this build is.
pub(super) fn target_args(build: &TestBuild) -> Vec<String> {
    match (build.integration_test, build.bin) {
        (true, _) => vec!["--test".into(), test_target_name(Path::new(build.manifest_dir), build.crate_name)],
        (false, Some(bin)) => vec!["--bin".into(), bin.into()],
        (false, None) => vec!["--lib".into()],
    }
}

/// The name of the integration test whose crate is `crate_name`: a target's crate name
/// has `_` where its name may have `-` (`tests/remote-s3.rs` is crate `remote_s3`), so
/// the file it came from is looked up in `tests/`; `crate_name` where none matches.
fn test_target_name(manifest_dir: &Path, crate_name: &str) -> String {
    let entries = std::fs::read_dir(manifest_dir.join("tests")).into_iter().flatten().flatten();
    entries
        .filter_map(|e| {
            let path = e.path();
            let is_test = path.extension().is_some_and(|x| x == "rs") || path.join("main.rs").is_file();
            let stem = path.file_stem()?.to_str()?.to_owned();
            is_test.then_some(stem)
        })
        .find(|stem| stem.replace('-', "_") == crate_name)
        .unwrap_or_else(|| crate_name.to_owned())
}

/// The features this build has, exactly (`--no-default-features --features a,b`), so the
/// child compiles the same code; nothing where the package declares none.
pub(super) fn feature_args(tuner: &KernelInfo) -> Vec<String> {
    if tuner.identity.features.is_empty() {
        return Vec::new();
    }
    let mut args = vec!["--no-default-features".to_owned()];
    let on = tuner.identity.enabled_features();
    if !on.is_empty() {
        args.extend(["--features".to_owned(), on]);
    }
    args
}

/// The generated test's path inside its crate: `module::path::ktc_sweep`.
pub(super) fn test_path(tuner: &KernelInfo) -> String {
    match tuner.module_path.split_once("::") {
        Some((_, rest)) => format!("{rest}::ktc_sweep"),
        None => "ktc_sweep".to_owned(),
    }
}

/// `<target>/ktc-release`: a target folder of its own, because cargo may hold the
/// running build's folder locked until its tests finish.
fn release_target_dir() -> PathBuf {
    target_dir().join("ktc-release")
}

/// The target folder this test binary was built in: the nearest ancestor that cargo
/// marked with `CACHEDIR.TAG` (`<target>/debug/deps/<binary>`), else `$CARGO_TARGET_DIR`,
/// else `target` in the current folder.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().ok();
    let tagged =
        exe.as_deref().and_then(|exe| exe.ancestors().skip(1).find(|d| d.join("CACHEDIR.TAG").is_file()));
    match tagged {
        Some(dir) => dir.to_path_buf(),
        None => std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from),
    }
}

/// The command as one line, to show.
pub(super) fn display(cmd: &Command) -> String {
    let mut parts = vec![cmd.get_program().to_string_lossy().into_owned()];
    parts.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KernelIdentity;

    fn build(integration_test: bool, bin: Option<&'static str>) -> TestBuild {
        TestBuild {
            package: "my-kernels",
            manifest_dir: "/src/my-kernels",
            crate_name: "e2e",
            integration_test,
            bin,
            scratch: None,
        }
    }

    #[test]
    fn the_child_runs_the_same_test_target() {
        assert_eq!(target_args(&build(false, None)), ["--lib"]);
        assert_eq!(target_args(&build(true, None)), ["--test", "e2e"]);
        assert_eq!(target_args(&build(false, Some("tool"))), ["--bin", "tool"]);
    }

    #[test]
    fn an_integration_test_is_named_as_its_file() {
        let dir = std::env::temp_dir().join(format!("ktc-release-targets-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("tests/multi-file")).unwrap();
        std::fs::write(dir.join("tests/remote-s3.rs"), "").unwrap();
        std::fs::write(dir.join("tests/multi-file/main.rs"), "").unwrap();
        let names = ["remote_s3", "multi_file", "plain"].map(|c| test_target_name(&dir, c));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(names, ["remote-s3", "multi-file", "plain"]);
    }

    #[test]
    fn the_release_build_goes_beside_this_build_in_the_same_target_folder() {
        // This test binary lives in `<target>/debug/deps/`, and cargo tags `<target>`.
        let target = target_dir();
        assert!(target.join("CACHEDIR.TAG").is_file(), "{}", target.display());
        assert!(std::env::current_exe().unwrap().starts_with(&target));
        assert_eq!(release_target_dir(), target.join("ktc-release"));
    }

    #[test]
    fn the_child_command_is_an_exact_release_test_in_its_own_target_dir() {
        static TUNER: KernelInfo = KernelInfo {
            name: "sumsq",
            module_path: "my_kernels::sumsq",
            identity: KernelIdentity::UNSPECIFIED,
            axes: &[],
            variants: &[],
            sweep: |_| unreachable!(),
            calls: crate::job::CallPattern::InALoop,
        };
        let cmd = command("cargo".into(), &TUNER, &build(false, None), Path::new("/t/ktc-release"));
        assert_eq!(
            display(&cmd),
            "cargo test --release --manifest-path /src/my-kernels/Cargo.toml -p my-kernels --lib \
             --target-dir /t/ktc-release -- sumsq::ktc_sweep --exact --nocapture"
        );
        // A package with features: the child gets exactly this build's.
        let with = |features| KernelInfo {
            identity: KernelIdentity { features, ..KernelIdentity::UNSPECIFIED },
            ..TUNER
        };
        let both: &'static [(&str, bool)] = &[("cuda", true), ("default", false), ("simd", true)];
        assert_eq!(feature_args(&with(both)), ["--no-default-features", "--features", "cuda,simd"]);
        assert_eq!(feature_args(&with(&[("default", false)])), ["--no-default-features"]);
        assert!(cmd.get_envs().any(|(k, v)| k == CHILD_VAR && v == Some("1".as_ref())));
    }
}
