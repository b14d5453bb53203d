//! `ktc verify KERNEL [--points K] [--looks L] [--threshold R] [--seed S] [--at POINT]...
//! [--after-pause MS] [--json]`: the stored entry's regret at sampled off-grid sizes, or at the given ones
//! (see [`crate::verify`]).

use super::args::VerifyArgs;
use super::context::{Ctx, Failure};
use crate::job::millis;
use crate::sweep::SweepOptions;
use crate::verify::{VerifyOptions, verify};
use std::time::Duration;

pub(crate) fn run(ctx: &Ctx, args: &VerifyArgs) -> Result<String, Failure> {
    let Some(tuner) = ctx.kernels.iter().copied().find(|t| t.name == args.kernel) else {
        let linked: Vec<&str> = ctx.kernels.iter().map(|t| t.name).collect();
        return Err(Failure::usage(format!(
            "no linked kernel is named `{}` (linked: {}); verify runs the kernel, so call it from a binary \
             that links the kernel's crate (`ktc::cli::main()`)",
            args.kernel,
            if linked.is_empty() { "none".to_string() } else { linked.join(", ") }
        )));
    };
    let defaults = SweepOptions::from_env();
    let sweep = SweepOptions {
        budget: args
            .budget
            .filter(|b| b.is_finite() && *b > 0.0)
            .map(Duration::from_secs_f64)
            .or(defaults.budget),
        cache_dir: Some(ctx.cache.root().to_path_buf()),
        fingerprint: Some(ctx.cache.fingerprint().to_string()),
        progress: false,
        skip_push: true,
        ..defaults
    };
    let options = VerifyOptions { calls: args.after_pause, ..args.sampling.options() };
    let report = verify(tuner, &options, &sweep)?;
    let output = if ctx.json { Ctx::json_text(&serde_json::json!(report)) } else { report.to_string() };
    if report.is_within() {
        Ok(output)
    } else {
        // A drift check: exit 1 so scripts notice, with the fix in the message. Judged
        // for another call pattern than the entry's, the fix is a sweep for that one: a
        // refine keeps the entry's pattern.
        let fix = match report.calls.pause() {
            _ if report.calls == report.entry_calls => {
                format!("`retune --refine {}{}` re-sweeps them", args.kernel, args.sampling.as_flags())
            }
            Some(pause) => {
                format!("`retune {} --after-pause {}` tunes for this pattern", args.kernel, millis(pause))
            }
            None => format!("`retune {} --after-pause 0` tunes for calls in a loop", args.kernel),
        };
        Err(Failure {
            output,
            ..Failure::error(format!(
                "{} region(s) exceed regret {:.2}; {fix}",
                report.flagged.len(),
                options.threshold
            ))
        })
    }
}
