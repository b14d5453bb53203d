//! `ktc export --out FILE` and `ktc import FILE`: a bundle is one JSON file,
//! `{"format": "ktc-bundle", "version": 1, "entries": [ENTRY, ...]}`. Import validates
//! every entry on its own, never overwrites (an entry already in the store is skipped)
//! and reports each rejected entry with the reason.

use super::args::{ExportArgs, ImportArgs};
use super::context::{Ctx, Failure};
use crate::{Entry, EntryError, SCHEMA};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fmt::Write;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

const FORMAT: &str = "ktc-bundle";
const VERSION: u64 = 1;
/// A bundle larger than this is refused unread: thousands of entries fit in far less.
const MAX_BUNDLE_BYTES: u64 = 256 << 20;

pub(crate) fn export(ctx: &Ctx, args: &ExportArgs) -> Result<String, Failure> {
    let entries: Vec<Entry> = ctx
        .cache
        .list_with(&ctx.schemas())
        .into_iter()
        .filter(|l| args.kernel.as_ref().is_none_or(|k| *k == l.kernel))
        .filter_map(|l| l.entry.ok())
        .collect();
    let bundle = json!({"format": FORMAT, "version": VERSION, "entries": entries});
    let text = Ctx::json_text(&bundle);
    std::fs::write(&args.out, text)
        .map_err(|e| Failure::error(format!("writing {}: {e}; choose another --out", args.out.display())))?;
    if ctx.json {
        return Ok(Ctx::json_text(&json!({"out": args.out, "exported": entries.len()})));
    }
    Ok(format!("exported {} entr(ies) to {}\n", entries.len(), args.out.display()))
}

/// What happened to the bundle's entries, by index.
#[derive(Default)]
struct Imported {
    imported: Vec<(usize, PathBuf)>,
    present: Vec<(usize, PathBuf)>,
    rejected: Vec<(usize, String)>,
}

pub(crate) fn import(ctx: &Ctx, args: &ImportArgs) -> Result<String, Failure> {
    let values = read_bundle(&args.file)?;
    // By content digest: one pass over the store, one hash per bundle entry, so a large
    // bundle against a large store stays linear.
    let mut existing: HashMap<String, PathBuf> = ctx
        .cache
        .list_with(&ctx.schemas())
        .into_iter()
        .filter_map(|l| l.entry.ok().map(|e| (digest(&e), l.path)))
        .collect();
    let mut result = Imported::default();
    for (index, value) in values.into_iter().enumerate() {
        let entry = match check(ctx, value) {
            Ok(entry) => entry,
            Err(reason) => {
                result.rejected.push((index, reason.to_string()));
                continue;
            }
        };
        let key = digest(&entry);
        if let Some(path) = existing.get(&key) {
            result.present.push((index, path.clone()));
            continue;
        }
        match ctx.cache.import_entry(&entry) {
            Ok(path) => {
                result.imported.push((index, path.clone()));
                existing.insert(key, path);
            }
            Err(e) => result.rejected.push((index, e.to_string())),
        }
    }
    let output = render(ctx, &result);
    if result.rejected.is_empty() {
        return Ok(output);
    }
    Err(Failure {
        code: 1,
        message: format!(
            "{} entr(ies) of {} rejected (see above); the others were imported. Fix or drop them and import again",
            result.rejected.len(),
            args.file.display()
        ),
        output,
    })
}

/// A digest of the entry's content: equal entries serialise to the same bytes.
fn digest(entry: &Entry) -> String {
    blake3::hash(&serde_json::to_vec(entry).unwrap_or_default()).to_hex().to_string()
}

/// The bundle's entries as raw JSON values, after checking the envelope.
fn read_bundle(path: &std::path::Path) -> Result<Vec<Value>, Failure> {
    let fail = |what: String| {
        Failure::error(format!("{}: {what}; give a file written by `ktc export`", path.display()))
    };
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot open: {e}")))?;
    let mut text = String::new();
    file.take(MAX_BUNDLE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    if text.len() as u64 > MAX_BUNDLE_BYTES {
        return Err(fail(format!("larger than {MAX_BUNDLE_BYTES} bytes")));
    }
    let mut value: Value = serde_json::from_str(&text).map_err(|e| fail(format!("not JSON: {e}")))?;
    if value.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(fail(format!("not a bundle (no \"format\": \"{FORMAT}\")")));
    }
    match value.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        other => return Err(fail(format!("bundle version {other:?} is not the supported {VERSION}"))),
    }
    match value.get_mut("entries").map(Value::take) {
        Some(Value::Array(entries)) => Ok(entries),
        _ => Err(fail("no \"entries\" array".into())),
    }
}

/// One bundle element as an entry the store may take, or why not.
fn check(ctx: &Ctx, value: Value) -> Result<Entry, EntryError> {
    let entry: Entry = serde_json::from_value(value).map_err(|e| EntryError::Shape(Arc::new(e)))?;
    if entry.schema != SCHEMA {
        return Err(EntryError::Schema(u64::from(entry.schema)));
    }
    for (field, name) in [
        ("fingerprint", &entry.fingerprint),
        ("kernel", &entry.kernel),
        ("code_version", &entry.code_version),
    ] {
        if !crate::store::is_slug(name) {
            return Err(EntryError::UnsafeName { field, name: name.clone() });
        }
    }
    // The rules a local read applies, so what import refuses is never served either.
    crate::store::check_entry(&entry)?;
    let schema = ctx.kernel(&entry.kernel).map(|t| t.schema());
    entry.table().validate(schema.as_ref()).map_err(EntryError::Table)?;
    Ok(entry)
}

fn render(ctx: &Ctx, r: &Imported) -> String {
    if ctx.json {
        let pairs = |v: &[(usize, PathBuf)]| {
            v.iter().map(|(i, p)| json!({"index": i, "path": p})).collect::<Vec<_>>()
        };
        let rejected: Vec<_> =
            r.rejected.iter().map(|(i, reason)| json!({"index": i, "reason": reason})).collect();
        return Ctx::json_text(&json!({
            "imported": pairs(&r.imported),
            "present": pairs(&r.present),
            "rejected": rejected,
        }));
    }
    let mut out = format!(
        "imported {}, already present {}, rejected {}\n",
        r.imported.len(),
        r.present.len(),
        r.rejected.len()
    );
    for (i, path) in &r.imported {
        let _ = writeln!(out, "  #{i} imported: {}", path.display());
    }
    for (i, path) in &r.present {
        let _ = writeln!(out, "  #{i} already present: {}", path.display());
    }
    for (i, reason) in &r.rejected {
        let _ = writeln!(out, "  #{i} rejected: {reason}");
    }
    out
}
