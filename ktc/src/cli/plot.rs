//! `ktc plot KERNEL --out FILE.svg`: median time vs the first axis, log-log, one line
//! per (variant, block size), the variant the table chooses shaded behind each grid
//! point; one panel per value of the other axes.

mod draw;

use super::args::PlotArgs;
use super::context::{Ctx, Failure};
use super::show::{query_of, series_label};
use crate::{AxisKind, Condition, Entry};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::ops::Range;

/// One panel: the points of every series at one value of the other axes.
pub(crate) struct Panel {
    /// `joint_size=4`, or empty for a one-axis kernel.
    pub(crate) caption: String,
    /// The values of the other axes, as stored.
    others: BTreeMap<String, Value>,
    /// Per series (index into [`Plot::series`]): (x, median ns), sorted by x.
    pub(crate) lines: Vec<Vec<(f64, f64)>>,
    /// The frame: every point inside, with a margin.
    pub(crate) x_range: Range<f64>,
    pub(crate) y_range: Range<f64>,
    /// Where the table chooses which series: (from x, to x, series), left to right.
    pub(crate) spans: Vec<(f64, f64, usize)>,
}

/// Everything drawn, independent of plotters.
pub(crate) struct Plot {
    pub(crate) title: String,
    pub(crate) x_axis: String,
    /// Series labels (`variant` or `variant/block`), in first-measured order.
    pub(crate) series: Vec<String>,
    pub(crate) panels: Vec<Panel>,
}

pub(crate) fn run(ctx: &Ctx, args: &PlotArgs) -> Result<String, Failure> {
    let (path, entry) = super::status::current_entry(ctx, &args.kernel)?;
    let plot = prepare(&entry)?;
    draw::svg(&plot, &args.out).map_err(|e| {
        Failure::error(format!("drawing {}: {e}; check that its folder is writable", args.out.display()))
    })?;
    if ctx.json {
        return Ok(Ctx::json_text(
            &json!({"out": args.out, "panels": plot.panels.len(), "series": plot.series}),
        ));
    }
    Ok(format!(
        "wrote {} ({} panel(s), {} series) from {}\n",
        args.out.display(),
        plot.panels.len(),
        plot.series.len(),
        path.display()
    ))
}

fn prepare(entry: &Entry) -> Result<Plot, Failure> {
    let x_axis = match entry.axes.first() {
        Some(a) if a.kind == AxisKind::Numeric => a.name.clone(),
        _ => {
            return Err(Failure::error(format!(
                "`{}` has no numeric first axis to plot against",
                entry.kernel
            )));
        }
    };
    if entry.measurements.is_empty() {
        return Err(Failure::error(format!(
            "the entry of `{}` holds no measurements (it was not written by a sweep); retune it to plot",
            entry.kernel
        )));
    }
    let mut series: Vec<String> = Vec::new();
    let mut panels: Vec<Panel> = Vec::new();
    for m in &entry.measurements {
        let Some(x) = m.point.get(&x_axis).and_then(serde_json::Value::as_f64).filter(|x| *x > 0.0) else {
            continue;
        };
        if !(m.median_ns > 0.0 && m.median_ns.is_finite()) {
            continue;
        }
        let label = series_label(&m.variant, m.block_size);
        let s = series.iter().position(|l| *l == label).unwrap_or_else(|| {
            series.push(label);
            series.len() - 1
        });
        let others: BTreeMap<String, Value> = m
            .point
            .iter()
            .filter(|(name, _)| **name != x_axis)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let p = panels.iter().position(|p| p.others == others).unwrap_or_else(|| {
            let caption = panel_caption(entry, &others);
            panels.push(Panel {
                caption,
                others,
                lines: Vec::new(),
                x_range: 1.0..10.0,
                y_range: 1.0..10.0,
                spans: Vec::new(),
            });
            panels.len() - 1
        });
        let panel = &mut panels[p];
        if panel.lines.len() <= s {
            panel.lines.resize(s + 1, Vec::new());
        }
        panel.lines[s].push((x, m.median_ns));
    }
    for panel in &mut panels {
        panel.lines.resize(series.len(), Vec::new());
        panel.lines.iter_mut().for_each(|l| l.sort_by(|a, b| a.0.total_cmp(&b.0)));
        (panel.x_range, panel.y_range) = frame(&panel.lines);
        panel.spans = spans(entry, &x_axis, panel, &series);
    }
    let title = format!("{} on {} — median time vs {x_axis}", entry.kernel, entry.fingerprint);
    Ok(Plot { title, x_axis, series, panels })
}

/// The values of every axis but the plotted one: `joint_size=4, residency=host`.
fn panel_caption(entry: &Entry, others: &BTreeMap<String, Value>) -> String {
    let parts: Vec<String> = entry
        .axes
        .iter()
        .filter_map(|a| {
            let v = others.get(&a.name)?;
            Some(format!("{}={}", a.name, v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
        })
        .collect();
    parts.join(", ")
}

/// The x and y ranges, padded so the outermost points sit inside the frame.
fn frame(lines: &[Vec<(f64, f64)>]) -> (Range<f64>, Range<f64>) {
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in lines.iter().flatten() {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if x0 > x1 {
        return (1.0..10.0, 1.0..10.0);
    }
    (x0 / 1.5..x1 * 1.5, y0 / 2.5..y1 * 2.0)
}

/// The table's choice along the panel's x range. For fixed other axes the choice can
/// only change at a region's bound on x, so each stretch between consecutive bounds is
/// queried once (at its inclusive right end); neighbours choosing the same series merge.
/// A stretch choosing a (variant, block size) that was never measured is left blank.
fn spans(entry: &Entry, x_axis: &str, panel: &Panel, series: &[String]) -> Vec<(f64, f64, usize)> {
    let Range { start, end } = panel.x_range;
    let mut edges: Vec<f64> = entry
        .regions
        .iter()
        .filter_map(|r| match r.when.get(x_axis) {
            Some(Condition::Le(bound)) if *bound > start && *bound < end => Some(*bound),
            _ => None,
        })
        .collect();
    edges.push(start);
    edges.push(end);
    edges.sort_by(f64::total_cmp);
    edges.dedup();
    let table = entry.table();
    let mut spans: Vec<(f64, f64, usize)> = Vec::new();
    for w in edges.windows(2) {
        let mut point = panel.others.clone();
        point.insert(x_axis.to_owned(), Value::from(w[1]));
        let chosen = table
            .lookup(&query_of(&point))
            .and_then(|(_, r)| series.iter().position(|s| *s == series_label(&r.variant, r.block_size)));
        match (chosen, spans.last_mut()) {
            (Some(s), Some(last)) if last.2 == s && last.1 == w[0] => last.1 = w[1],
            (Some(s), _) => spans.push((w[0], w[1], s)),
            (None, _) => {}
        }
    }
    spans
}
