//! `ktc plot KERNEL --out FILE.svg`: median time vs the first axis, log-log, one line
//! per (variant, block size), the variant the table chooses shaded behind each grid
//! point; one panel per value of the other axes.

mod draw;

use super::args::PlotArgs;
use super::context::{Ctx, Failure};
use super::show::{is_chosen, series_label};
use crate::{AxisKind, Entry};
use serde_json::json;

/// One panel: the points of every series at one value of the other axes.
pub(crate) struct Panel {
    /// `joint_size=4`, or empty for a one-axis kernel.
    pub(crate) caption: String,
    /// Per series (index into [`Plot::series`]): (x, median ns), sorted by x.
    pub(crate) lines: Vec<Vec<(f64, f64)>>,
    /// Per grid x: the series the table chooses there.
    pub(crate) chosen: Vec<(f64, usize)>,
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
    let (path, entry) = ctx.current_entry(&args.kernel)?;
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
        let caption = panel_caption(entry, m, &x_axis);
        let p = panels.iter().position(|p| p.caption == caption).unwrap_or_else(|| {
            panels.push(Panel { caption, lines: Vec::new(), chosen: Vec::new() });
            panels.len() - 1
        });
        let panel = &mut panels[p];
        if panel.lines.len() <= s {
            panel.lines.resize(s + 1, Vec::new());
        }
        panel.lines[s].push((x, m.median_ns));
        if is_chosen(entry, m) && !panel.chosen.iter().any(|(cx, _)| *cx == x) {
            panel.chosen.push((x, s));
        }
    }
    for panel in &mut panels {
        panel.lines.resize(series.len(), Vec::new());
        panel.lines.iter_mut().for_each(|l| l.sort_by(|a, b| a.0.total_cmp(&b.0)));
        panel.chosen.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let title = format!("{} on {} — median time vs {x_axis}", entry.kernel, entry.fingerprint);
    Ok(Plot { title, x_axis, series, panels })
}

/// The values of every axis but the plotted one: `joint_size=4, residency=host`.
fn panel_caption(entry: &Entry, m: &crate::Measurement, x_axis: &str) -> String {
    let parts: Vec<String> = entry
        .axes
        .iter()
        .filter(|a| a.name != x_axis)
        .filter_map(|a| {
            m.point
                .get(&a.name)
                .map(|v| format!("{}={}", a.name, v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
        })
        .collect();
    parts.join(", ")
}
