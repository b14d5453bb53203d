//! `ktc gc [--dry-run] [--keep N]`: removes superseded entries, stray temp files and —
//! for kernels linked into this binary — entries of other code versions (stale).

use super::args::GcArgs;
use super::context::{Ctx, Failure};
use crate::{GcOptions, Provenance};
use serde_json::json;
use std::fmt::Write;

pub(crate) fn run(ctx: &Ctx, args: &GcArgs) -> Result<String, Failure> {
    let options = GcOptions {
        keep: args.keep,
        dry_run: args.dry_run,
        remove_invalid: false,
        current_code_versions: ctx
            .kernels
            .iter()
            .map(|t| (t.name.to_owned(), Provenance::current(&t.identity).code_version()))
            .collect(),
        schemas: ctx.schemas(),
    };
    let report = ctx
        .cache
        .gc(&options)
        .map_err(|e| Failure::error(format!("{e}; check the store's permissions and run gc again")))?;
    if ctx.json {
        let invalid: Vec<_> =
            report.invalid.iter().map(|s| json!({"path": s.path, "reason": s.reason})).collect();
        return Ok(Ctx::json_text(&json!({
            "dry_run": args.dry_run,
            "removed": report.removed,
            "kept": report.kept,
            "invalid": invalid,
        })));
    }
    let verb = if args.dry_run { "would remove" } else { "removed" };
    let mut out = format!("{verb} {} file(s), kept {} entr(ies)\n", report.removed.len(), report.kept);
    for path in &report.removed {
        let _ = writeln!(out, "  {verb} {}", path.display());
    }
    for s in &report.invalid {
        let _ = writeln!(out, "  invalid (kept; remove it by hand if unwanted): {s}");
    }
    if ctx.kernels.is_empty() {
        out.push_str("stale entries are kept: run gc from a binary that links the kernels to remove them\n");
    }
    Ok(out)
}
