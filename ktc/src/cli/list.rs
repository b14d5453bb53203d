//! `ktc list`: every entry of the store and whether it is current, superseded, stale
//! (which provenance fields changed) or invalid (why).

use super::context::{Ctx, Failure};
use super::status::{Judged, Status, judge};
use super::table;
use crate::provenance::summarize_changes;
use serde_json::json;

pub(crate) fn run(ctx: &Ctx) -> Result<String, Failure> {
    let judged = judge(ctx);
    if ctx.json {
        let against = if ctx.kernels.is_empty() { "store" } else { "linked kernels" };
        let value = json!({
            "store": ctx.cache.root(),
            "judged_against": against,
            "entries": judged.iter().map(entry_json).collect::<Vec<_>>(),
        });
        return Ok(Ctx::json_text(&value));
    }
    if judged.is_empty() {
        return Ok(format!("no entries in {}\n", ctx.cache.root().display()));
    }
    let mut rows = vec![
        ["fingerprint", "kernel", "code version", "created", "regions", "status"].map(String::from).to_vec(),
    ];
    for j in &judged {
        let entry = j.listed.entry.as_ref().ok();
        rows.push(vec![
            j.listed.fingerprint.clone(),
            j.listed.kernel.clone(),
            j.listed.code_version.clone(),
            entry.map_or_else(|| "-".into(), |e| e.created.clone()),
            entry.map_or_else(|| "-".into(), |e| e.regions.len().to_string()),
            status_text(&j.status),
        ]);
    }
    Ok(table::render(&rows))
}

fn status_text(status: &Status) -> String {
    match status {
        Status::Stale(changes) => format!("stale ({})", summarize_changes(changes)),
        Status::Invalid(reason) => format!("invalid ({reason})"),
        other => other.name().to_owned(),
    }
}

fn entry_json(j: &Judged) -> serde_json::Value {
    let entry = j.listed.entry.as_ref().ok();
    let changes = match &j.status {
        Status::Stale(changes) => changes.clone(),
        _ => Vec::new(),
    };
    let reason = match &j.status {
        Status::Invalid(reason) => Some(reason.clone()),
        _ => None,
    };
    json!({
        "path": j.listed.path,
        "fingerprint": j.listed.fingerprint,
        "kernel": j.listed.kernel,
        "code_version": j.listed.code_version,
        "created": entry.map(|e| e.created.clone()),
        "regions": entry.map(|e| e.regions.len()),
        "status": j.status.name(),
        "changes": changes,
        "reason": reason,
    })
}
