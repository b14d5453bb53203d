//! `ktc show KERNEL`: the current entry's decision table and its measurements.

use super::context::{Ctx, Failure};
use super::table;
use crate::{AxisValue, Entry, Measurement};
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write;

pub(crate) fn run(ctx: &Ctx, kernel: &str) -> Result<String, Failure> {
    let (path, entry) = super::status::current_entry(ctx, kernel)?;
    if ctx.json {
        return Ok(Ctx::json_text(&json!({"path": path, "status": "current", "entry": entry})));
    }
    let mut out = String::new();
    let _ = writeln!(out, "{} on {}", entry.kernel, entry.fingerprint);
    let _ = writeln!(out, "entry:        {}", path.display());
    let _ = writeln!(out, "code version: {}", entry.code_version);
    let _ = writeln!(out, "created:      {}", entry.created);
    if let Some(noise) = entry.noise {
        let _ = writeln!(out, "noise:        {:.1}% (largest spread/median of a winner)", noise * 100.0);
    }
    if let Some(command) = &entry.reproduce {
        let _ = writeln!(out, "reproduce:    {command}");
    }
    let _ = writeln!(out, "\ndecision table (first match wins):");
    for line in entry.table().to_string().lines() {
        let _ = writeln!(out, "  {line}");
    }
    if !entry.measurements.is_empty() {
        let _ = writeln!(out, "\nmedian time per grid point (* = chosen):");
        for line in measurement_table(&entry).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    // One line per distinct exclusion: a reason shared by many grid points (a skipped
    // residency, say) is said once, with the count.
    let mut seen: Vec<(String, usize)> = Vec::new();
    for e in &entry.excluded {
        let block = e.block_size.map(|b| format!(", block {b}")).unwrap_or_default();
        let line = format!("excluded {}{block}: {}", e.variant, e.reason);
        match seen.iter_mut().find(|(l, _)| *l == line) {
            Some((_, count)) => *count += 1,
            None => seen.push((line, 1)),
        }
    }
    for (line, count) in seen {
        let times = if count > 1 { format!(" ({count} grid points)") } else { String::new() };
        let _ = writeln!(out, "{line}{times}");
    }
    Ok(out)
}

/// The label of a (variant, block size) series: `threaded/262144`.
pub(crate) fn series_label(variant: &str, block_size: Option<usize>) -> String {
    match block_size {
        Some(b) => format!("{variant}/{b}"),
        None => variant.to_owned(),
    }
}

/// A grid point as `n=1000, joint_size=4`, in the entry's axis order.
pub(crate) fn point_label(entry: &Entry, m: &Measurement) -> String {
    let parts: Vec<String> = entry
        .axes
        .iter()
        .filter_map(|a| m.point.get(&a.name).map(|v| format!("{}={}", a.name, plain(v))))
        .collect();
    parts.join(", ")
}

fn plain(v: &serde_json::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

/// A stored grid point as a table query: strings are labels, integers exact.
pub(crate) fn query_of(point: &BTreeMap<String, serde_json::Value>) -> Vec<(&str, AxisValue<'_>)> {
    point
        .iter()
        .map(|(name, v)| {
            let value = match v {
                serde_json::Value::String(s) => AxisValue::Cat(s),
                v => {
                    v.as_u64().map_or_else(|| AxisValue::Num(v.as_f64().unwrap_or(f64::NAN)), AxisValue::Int)
                }
            };
            (name.as_str(), value)
        })
        .collect()
}

/// Whether the entry's table chooses `m`'s (variant, block size) at `m`'s point.
fn is_chosen(entry: &Entry, m: &Measurement) -> bool {
    let query = query_of(&m.point);
    entry.table().lookup(&query).is_some_and(|(_, r)| r.variant == m.variant && r.block_size == m.block_size)
}

fn measurement_table(entry: &Entry) -> String {
    let mut series: Vec<String> = Vec::new();
    let mut points: Vec<String> = Vec::new();
    for m in &entry.measurements {
        let s = series_label(&m.variant, m.block_size);
        if !series.contains(&s) {
            series.push(s);
        }
        let p = point_label(entry, m);
        if !points.contains(&p) {
            points.push(p);
        }
    }
    let mut rows =
        vec![std::iter::once("point".to_owned()).chain(series.iter().cloned()).collect::<Vec<_>>()];
    for p in &points {
        let mut row = vec![p.clone()];
        for s in &series {
            let cell = entry
                .measurements
                .iter()
                .find(|m| point_label(entry, m) == *p && series_label(&m.variant, m.block_size) == *s)
                .map_or_else(
                    || "-".to_owned(),
                    |m| {
                        format!(
                            "{}{}",
                            table::duration(m.median_ns),
                            if is_chosen(entry, m) { " *" } else { "" }
                        )
                    },
                );
            row.push(cell);
        }
        rows.push(row);
    }
    table::render(&rows)
}
