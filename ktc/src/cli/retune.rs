//! `ktc retune [KERNEL...]`: [`retune_all`] over the kernels linked into this binary.

use super::args::RetuneArgs;
use super::context::{Ctx, Failure};
use crate::retune::{RetuneOptions, retune_all};
use crate::sweep::{SweepMode, SweepOptions, SweepTask};
use serde_json::json;
use std::time::Duration;

pub(crate) fn run(ctx: &Ctx, args: &RetuneArgs) -> Result<String, Failure> {
    if ctx.kernels.is_empty() {
        return Err(Failure::usage(
            "this binary links no kernels, so it cannot tune. Call `ktc::cli::main()` from a binary of \
             your kernel crate (naming it, e.g. `use my_kernels as _;`) and run `retune` there, or run \
             the crate's `cargo test`",
        ));
    }
    if args.sampling.any_given() && !args.refine {
        return Err(Failure::usage(
            "--points, --threshold, --seed and --looks say how `--refine` verifies: give them with `--refine`",
        ));
    }
    let defaults = SweepOptions::from_env();
    let options = RetuneOptions {
        kernels: args.kernels.clone(),
        sweep: SweepOptions {
            mode: if args.full { SweepMode::Full } else { defaults.mode },
            budget: args.budget.map(Duration::from_secs_f64).or(defaults.budget),
            cache_dir: Some(ctx.cache.root().to_path_buf()),
            fingerprint: ctx.fingerprint.clone(),
            progress: !ctx.json,
            task: if args.refine { SweepTask::Refine(args.sampling.options()) } else { SweepTask::Tune },
            calls: args.after_pause.or(defaults.calls),
            ..defaults
        },
    };
    let summary = retune_all(&options);
    let output = if ctx.json {
        let outcomes: Vec<_> = summary
            .outcomes
            .iter()
            .map(|o| {
                let report = o.result.as_ref().ok();
                json!({
                    "kernel": o.kernel,
                    "device": o.device.to_string(),
                    "fingerprint": o.fingerprint,
                    "entry": report.map(|r| &r.entry_path),
                    "error": o.result.as_ref().err().map(|e| e.to_string()),
                    "regions": report.map(|r| r.entry.regions.clone()).unwrap_or_default(),
                    "excluded": report.map(|r| r.entry.excluded.clone()).unwrap_or_default(),
                    "verify": report.and_then(|r| r.verify.as_ref()),
                })
            })
            .collect();
        Ctx::json_text(&json!({"outcomes": outcomes, "unknown": summary.unknown}))
    } else {
        summary.to_string()
    };
    let linked: Vec<&str> = ctx.kernels.iter().map(|t| t.name).collect();
    let failure = if !summary.unknown.is_empty() {
        Some(Failure::usage(format!(
            "no linked kernel is named {}; the linked kernels are: {}",
            summary.unknown.join(", "),
            linked.join(", ")
        )))
    } else if !summary.is_success() {
        Some(Failure::error("some sweeps failed (see above); fix the kernel or its inputs and retune it"))
    } else {
        None
    };
    match failure {
        Some(f) => Err(Failure { output, ..f }),
        None => Ok(output),
    }
}
