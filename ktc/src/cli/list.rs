//! `ktc list`: every entry of the store and whether it is current, superseded, stale
//! (which provenance fields changed) or invalid (why).

use super::context::{Ctx, Failure};
use super::status::{Judged, Status, judge};
use super::table;
use crate::Entry;
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
            status_text(&j.status) + under_load(entry),
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

/// `, tuned under load` for an entry whose sweep measured while the machine was busy
/// enough to warn (see `ktc show`), so a fleet's suspect tunings stand out in the list.
fn under_load(entry: Option<&Entry>) -> &'static str {
    let busy = entry.and_then(|e| e.load).is_some_and(|l| l.spoils_a_tuning());
    if busy { ", tuned under load" } else { "" }
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
        "load": entry.and_then(|e| e.load),
        "changes": changes,
        "reason": reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DecisionTable, HostLoad, KernelIdentity, KernelTuningCache, Provenance, Region};

    #[test]
    fn an_entry_tuned_under_load_is_marked() {
        let cache = KernelTuningCache::open(std::env::temp_dir()).unwrap().with_fingerprint("fp");
        let table = DecisionTable { axes: vec![], regions: vec![Region::new("v")] };
        let mut entry = cache.new_entry("k", &Provenance::current(&KernelIdentity::UNSPECIFIED), table);
        assert_eq!(under_load(None), "");
        assert_eq!(under_load(Some(&entry)), "", "an entry that does not say");
        entry.load = Some(HostLoad { stolen: 0.02, other: 0.03 });
        assert_eq!(under_load(Some(&entry)), "");
        entry.load = Some(HostLoad { stolen: 0.02, other: 0.557 });
        assert_eq!(under_load(Some(&entry)), ", tuned under load");
    }
}
