//! The `reproduce:` command an entry records: the kernel's generated sweep test, run so
//! that it measures under the same key (profile, mode, budget, device, fingerprint).

use super::release::{RELEASE_VAR, test_path};
use super::{CallPattern, SweepMode, SweepOptions};
use crate::registry::KernelInfo;

/// E.g. `KTC_SWEEP=quick KTC_SWEEP_BUDGET_S=5 cargo test --release -p my-kernels --
/// sumsq::ktc_sweep --exact --nocapture`. `--release` where the kernel's crate was
/// built with optimisations (else `KTC_SWEEP_RELEASE=0`, so the debug build measures
/// itself); `KTC_SWEEP_DEVICE` for a device other than 0; `KTC_FINGERPRINT` where the
/// entry's fingerprint is not the one this host computes for that device;
/// `KTC_SWEEP_AFTER_PAUSE_MS` where calls were timed after a pause.
pub(super) fn command(
    tuner: &KernelInfo,
    options: &SweepOptions,
    calls: CallPattern,
    fingerprint: &str,
) -> String {
    let mut env = vec![format!(
        "KTC_SWEEP={}",
        match options.mode {
            SweepMode::Quick => "quick",
            SweepMode::Full => "full",
        }
    )];
    if let Some(budget) = options.budget {
        env.push(format!("KTC_SWEEP_BUDGET_S={}", budget.as_secs_f64()));
    }
    if let Some(pause) = calls.pause() {
        env.push(format!("KTC_SWEEP_AFTER_PAUSE_MS={}", crate::job::millis(pause)));
    }
    if options.device != 0 {
        env.push(format!("KTC_SWEEP_DEVICE={}", options.device));
    }
    if fingerprint != crate::fingerprint::computed_fingerprint(options.device) {
        env.push(format!("KTC_FINGERPRINT={fingerprint}"));
    }
    let release = tuner.identity.build.profile == "release";
    if !release {
        env.push(format!("{RELEASE_VAR}=0"));
    }
    format!(
        "{} cargo test{} -p {} -- {} --exact --nocapture",
        env.join(" "),
        if release { " --release" } else { "" },
        tuner.identity.crate_name,
        test_path(tuner)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BuildInfo, KernelIdentity};

    static RELEASE: KernelInfo = KernelInfo {
        name: "sumsq",
        module_path: "my_kernels::ops::sumsq",
        identity: KernelIdentity {
            crate_name: "my-kernels",
            crate_version: "1.0.0",
            source_hash: "",
            sources: &[],
            dependencies: &[],
            features: &[],
            build: BuildInfo { profile: "release", target_features: &[] },
        },
        axes: &[],
        variants: &[],
        sweep: |_| unreachable!(),
        calls: crate::job::CallPattern::InALoop,
    };

    #[test]
    fn the_command_measures_under_the_same_key() {
        let options = SweepOptions {
            mode: SweepMode::Full,
            budget: Some(std::time::Duration::from_secs(5)),
            device: 1,
            ..SweepOptions::default()
        };
        let computed = crate::fingerprint::computed_fingerprint(1);
        assert_eq!(
            command(
                &RELEASE,
                &options,
                CallPattern::AfterPause(std::time::Duration::from_millis(20)),
                &computed
            ),
            "KTC_SWEEP=full KTC_SWEEP_BUDGET_S=5 KTC_SWEEP_AFTER_PAUSE_MS=20 KTC_SWEEP_DEVICE=1 cargo test --release -p my-kernels \
             -- ops::sumsq::ktc_sweep --exact --nocapture"
        );
        let debug = KernelInfo { identity: KernelIdentity::new("my-kernels", "1.0.0", ""), ..RELEASE };
        let quick = SweepOptions::default();
        let line = command(&debug, &quick, CallPattern::InALoop, "fleet-a");
        assert_eq!(
            line,
            format!(
                "KTC_SWEEP=quick KTC_FINGERPRINT=fleet-a {RELEASE_VAR}=0 cargo test -p my-kernels -- \
                 ops::sumsq::ktc_sweep --exact --nocapture"
            )
        );
    }
}
