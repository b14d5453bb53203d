//! `ktc show KERNEL`: the current entry's decision table and its measurements.
//!
//! The text is bounded whatever the entry holds: at most [`MAX_REGIONS`] regions,
//! [`MAX_POINTS`] × [`MAX_SERIES`] measurement cells and [`MAX_EXCLUSIONS`] exclusion
//! lines, each cut said so (`--json` prints everything). The work is linear in the
//! entry's size plus the shown cells.

use super::context::{Ctx, Failure};
use super::table;
use crate::sweep::CallPattern;
use crate::{AxisValue, DecisionTable, Entry, Measurement};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// Regions printed; real sweeps produce a few dozen.
const MAX_REGIONS: usize = 200;
/// Grid points (rows) of the measurement table.
const MAX_POINTS: usize = 100;
/// (variant, block size) series (columns) of the measurement table.
const MAX_SERIES: usize = 12;
/// Distinct exclusion lines.
const MAX_EXCLUSIONS: usize = 50;

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
    if let Some(line) = load_line(&entry) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(line) = ties_line(&entry) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "timed:        {}", CallPattern::recorded(entry.after_pause_us));
    if let Some(command) = &entry.reproduce {
        let _ = writeln!(out, "reproduce:    {command}");
    }
    let _ = writeln!(out, "\ndecision table (first match wins):");
    let shown = DecisionTable {
        axes: entry.axes.clone(),
        regions: entry.regions.iter().take(MAX_REGIONS).cloned().collect(),
    };
    for line in shown.to_string().lines() {
        let _ = writeln!(out, "  {line}");
    }
    if entry.regions.len() > MAX_REGIONS {
        let _ = writeln!(out, "  … {} more regions (`--json` prints all)", entry.regions.len() - MAX_REGIONS);
    }
    if !entry.measurements.is_empty() {
        let _ = writeln!(out, "\nmedian time per grid point (* = chosen):");
        for line in measurement_table(&entry).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    exclusions(&entry, &mut out);
    Ok(out)
}

/// How busy the machine was while the sweep measured, with the advice to retune once
/// it is quiet where that may have changed the choices; `None` for an entry that does
/// not say.
fn load_line(entry: &Entry) -> Option<String> {
    let load = entry.load?;
    let advice = if load.spoils_a_tuning() {
        format!(" (busy: `ktc retune {}` once the machine is quiet)", entry.kernel)
    } else {
        String::new()
    };
    Some(format!("measured:     while {load}{advice}"))
}

/// How close to the fastest a candidate tied (the host's state margin); `None` for an
/// entry that does not say.
fn ties_line(entry: &Entry) -> Option<String> {
    let margin = entry.state_margin.filter(|m| m.is_finite() && *m >= 1.0)?;
    Some(format!(
        "ties:         within {:.1}% of the fastest (how far further looks moved close leads here), won by the best fixed choice",
        (margin - 1.0) * 100.0
    ))
}

/// One line per distinct exclusion: a reason shared by many grid points (a skipped
/// residency, say) is said once, with the count.
fn exclusions(entry: &Entry, out: &mut String) {
    let mut order: Vec<String> = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for e in &entry.excluded {
        let block = e.block_size.map(|b| format!(", block {b}")).unwrap_or_default();
        let line = format!("excluded {}{block}: {}", e.variant, e.reason);
        let count = counts.entry(line.clone()).or_insert(0);
        if *count == 0 {
            order.push(line);
        }
        *count += 1;
    }
    for line in order.iter().take(MAX_EXCLUSIONS) {
        let count = counts[line];
        let times = if count > 1 { format!(" ({count} grid points)") } else { String::new() };
        let _ = writeln!(out, "{line}{times}");
    }
    if order.len() > MAX_EXCLUSIONS {
        let _ = writeln!(
            out,
            "… {} more distinct exclusions (`--json` prints all)",
            order.len() - MAX_EXCLUSIONS
        );
    }
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

/// Orders grid points by the entry's axes, the first axis first: numbers ascending,
/// then labels in text order (a point missing an axis before the others).
fn point_order(entry: &Entry, a: &Measurement, b: &Measurement) -> std::cmp::Ordering {
    use serde_json::Value;
    use std::cmp::Ordering;
    fn rank(v: Option<&Value>) -> (u8, f64, &str) {
        match v {
            None => (0, f64::NAN, ""),
            Some(Value::String(s)) => (2, f64::NAN, s.as_str()),
            Some(v) => (1, v.as_f64().unwrap_or(f64::NAN), ""),
        }
    }
    entry
        .axes
        .iter()
        .map(|axis| {
            let (ka, na, sa) = rank(a.point.get(&axis.name));
            let (kb, nb, sb) = rank(b.point.get(&axis.name));
            ka.cmp(&kb).then(na.total_cmp(&nb)).then(sa.cmp(sb))
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The measurements as a grid: one row per point, sorted by the axes (a sweep visits
/// points in a shuffled order), one column per series in first-measured order; a cell
/// per (point, series), the table's choice starred. One pass indexes every
/// measurement; only the shown cells are formatted.
fn measurement_table(entry: &Entry) -> String {
    let mut series: Vec<String> = Vec::new();
    let mut series_index: HashMap<String, usize> = HashMap::new();
    let mut points: Vec<&Measurement> = Vec::new();
    let mut point_index: HashMap<String, usize> = HashMap::new();
    let mut cells: HashMap<(usize, usize), &Measurement> = HashMap::new();
    for m in &entry.measurements {
        let label = series_label(&m.variant, m.block_size);
        let s = *series_index.entry(label.clone()).or_insert_with(|| {
            series.push(label);
            series.len() - 1
        });
        let p = *point_index.entry(point_label(entry, m)).or_insert_with(|| {
            points.push(m);
            points.len() - 1
        });
        cells.entry((p, s)).or_insert(m);
    }
    let mut rows_in_order: Vec<usize> = (0..points.len()).collect();
    rows_in_order.sort_by(|&a, &b| point_order(entry, points[a], points[b]));
    let table = entry.table();
    let shown_series = series.len().min(MAX_SERIES);
    let mut header = vec!["point".to_owned()];
    header.extend(series.iter().take(shown_series).cloned());
    if series.len() > shown_series {
        header.push(format!("… {} more series", series.len() - shown_series));
    }
    let mut rows = vec![header];
    for (p, first) in rows_in_order.iter().map(|&p| (p, points[p])).take(MAX_POINTS) {
        // The table's choice depends on the point only: looked up once per row.
        let chosen =
            table.lookup(&query_of(&first.point)).map(|(_, r)| series_label(&r.variant, r.block_size));
        let mut row = vec![point_label(entry, first)];
        for (s, label) in series.iter().enumerate().take(shown_series) {
            row.push(cells.get(&(p, s)).map_or_else(
                || "-".to_owned(),
                |m| {
                    let star = if chosen.as_ref() == Some(label) { " *" } else { "" };
                    format!("{}{star}", table::duration(m.median_ns))
                },
            ));
        }
        rows.push(row);
    }
    let mut text = table::render(&rows);
    if points.len() > MAX_POINTS {
        let _ = writeln!(text, "… {} more grid points (`--json` prints all)", points.len() - MAX_POINTS);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Axis, HostLoad, KernelIdentity, KernelTuningCache, Provenance, Region};

    /// 1000 measurements, each its own variant and point: the adversarial run's 120 KB
    /// entry that printed 6 MB in two minutes.
    fn wide_entry(n: usize) -> Entry {
        let cache = KernelTuningCache::open(std::env::temp_dir()).unwrap().with_fingerprint("fp");
        let table = DecisionTable { axes: vec![Axis::numeric("n")], regions: vec![Region::new("v0")] };
        let mut entry = cache.new_entry("wide", &Provenance::current(&KernelIdentity::UNSPECIFIED), table);
        entry.measurements = (0..n)
            // Through serde, as a stored entry is read, so fields added later with a
            // default need no change here.
            .map(|i| {
                let m = json!({"point": {"n": i + 1}, "variant": format!("v{i}"), "median_ns": 1000.0 + i as f64, "spread_ns": 1.0, "runs": 5});
                serde_json::from_value::<Measurement>(m).unwrap()
            })
            .collect();
        entry
    }

    #[test]
    fn the_measurement_table_is_bounded() {
        let text = measurement_table(&wide_entry(1000));
        assert!(text.lines().count() <= MAX_POINTS + 2, "{} lines", text.lines().count());
        assert!(text.len() < 64 << 10, "{} bytes", text.len());
        assert!(text.contains("… 988 more series") && text.contains("… 900 more grid points"), "{text}");
        assert!(text.lines().nth(1).unwrap().contains('*'), "the chosen cell is starred");
    }

    /// Rows follow the axes, not the sweep's shuffled visiting order.
    #[test]
    fn the_measurement_table_rows_are_sorted_by_the_axes() {
        let mut entry = wide_entry(0);
        entry.axes = vec![Axis::numeric("n"), Axis::categorical("loc")];
        entry.measurements = [(4_000_000, "host"), (30_000, "host"), (1000, "host"), (30_000, "device")]
            .iter()
            .map(|&(n, loc)| {
                let m = json!({"point": {"n": n, "loc": loc}, "variant": "v0", "median_ns": 1.0, "spread_ns": 0.0, "runs": 5});
                serde_json::from_value::<Measurement>(m).unwrap()
            })
            .collect();
        let text = measurement_table(&entry);
        let rows: Vec<&str> = text.lines().skip(1).map(|l| l.split("  ").next().unwrap()).collect();
        assert_eq!(
            rows,
            ["n=1000, loc=host", "n=30000, loc=device", "n=30000, loc=host", "n=4000000, loc=host"],
            "{text}"
        );
    }

    #[test]
    fn the_ties_line_gives_the_state_margin_of_entries_that_record_one() {
        let mut entry = wide_entry(0);
        assert_eq!(ties_line(&entry), None, "an entry that does not say");
        entry.state_margin = Some(1.214);
        assert!(ties_line(&entry).unwrap().starts_with("ties:         within 21.4% of the fastest"));
        for hostile in [f64::NAN, f64::INFINITY, 0.5, -3.0] {
            entry.state_margin = Some(hostile);
            assert_eq!(ties_line(&entry), None, "a hostile {hostile} prints nothing");
        }
    }

    #[test]
    fn the_load_line_says_how_busy_the_sweep_was_and_when_to_retune() {
        let mut entry = wide_entry(0);
        assert_eq!(load_line(&entry), None, "an entry that does not say");
        entry.load = Some(HostLoad { stolen: 0.004, other: 0.02 });
        let quiet = load_line(&entry).unwrap();
        assert_eq!(
            quiet,
            "measured:     while the hypervisor stole 0.4% and other processes used 2.0% of the CPU time"
        );
        entry.load = Some(HostLoad { stolen: 0.004, other: 0.38 });
        let busy = load_line(&entry).unwrap();
        assert!(busy.ends_with("(busy: `ktc retune wide` once the machine is quiet)"), "{busy}");
    }

    /// The largest entry the store accepts ([`Entry::MAX_MEASUREMENTS`]) shows in as
    /// few lines as the 1000-measurement one.
    #[test]
    fn the_largest_valid_entry_shows_bounded() {
        let text = measurement_table(&wide_entry(Entry::MAX_MEASUREMENTS));
        assert!(text.lines().count() <= MAX_POINTS + 2, "{} lines", text.lines().count());
        assert!(text.len() < 64 << 10, "{} bytes", text.len());
    }
}
