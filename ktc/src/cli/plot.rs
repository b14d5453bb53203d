//! `ktc plot KERNEL --out FILE.svg`: median time vs the first axis, log-log, one line
//! per (variant, block size), the variant the table chooses shaded behind each grid
//! point; one panel per value of the other axes.

mod draw;

use super::args::PlotArgs;
use super::context::{Ctx, Failure};
use super::show::{query_of, series_label};
use crate::{AxisKind, Condition, Entry};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

/// The plottable range of x and y: a log axis needs positive finite values, and a range
/// spanning hundreds of decades (a denormal `n`, a `median_ns` near `f64::MAX`) would
/// overflow the frame or make the axis search for ticks without end. Real axis values
/// and times (1 ns to days) sit well inside.
const PLOTTABLE: Range<f64> = 1e-9..1e18;
/// Panels drawn (one per value of the other axes); more are left out, said so.
const MAX_PANELS: usize = 24;
/// Series (variant, block size) drawn; more are left out, said so.
const MAX_SERIES: usize = 30;
/// Region bounds queried per panel for the shading; more are thinned evenly, which
/// only coarsens the shading of tables far larger than sweeps write.
const MAX_EDGES: usize = 64;

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
    /// What was left out (points outside the plottable range, panels or series beyond
    /// the limits), for the report.
    pub(crate) left_out: Vec<String>,
}

pub(crate) fn run(ctx: &Ctx, args: &PlotArgs) -> Result<String, Failure> {
    let (path, entry) = super::status::current_entry(ctx, &args.kernel)?;
    let plot = prepare(&entry)?;
    draw::svg(&plot, &args.out).map_err(|e| {
        Failure::error(format!("drawing {}: {e}; check that its folder is writable", args.out.display()))
    })?;
    if ctx.json {
        return Ok(Ctx::json_text(&json!({
            "out": args.out,
            "panels": plot.panels.len(),
            "series": plot.series,
            "left_out": plot.left_out,
        })));
    }
    let mut text = format!(
        "wrote {} ({} panel(s), {} series) from {}\n",
        args.out.display(),
        plot.panels.len(),
        plot.series.len(),
        path.display()
    );
    for note in &plot.left_out {
        text.push_str(&format!("  left out: {note}\n"));
    }
    Ok(text)
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
    let mut series_index: HashMap<String, usize> = HashMap::new();
    let mut panels: Vec<Panel> = Vec::new();
    let mut panel_index: HashMap<String, usize> = HashMap::new();
    let (mut outside, mut extra_series, mut extra_panels) = (0usize, 0usize, 0usize);
    for m in &entry.measurements {
        let Some(x) = m.point.get(&x_axis).and_then(serde_json::Value::as_f64) else {
            continue;
        };
        if !PLOTTABLE.contains(&x) || !PLOTTABLE.contains(&m.median_ns) {
            outside += 1;
            continue;
        }
        let label = series_label(&m.variant, m.block_size);
        let s = match series_index.get(&label) {
            Some(&s) => s,
            None if series.len() < MAX_SERIES => {
                series_index.insert(label.clone(), series.len());
                series.push(label);
                series.len() - 1
            }
            None => {
                extra_series += 1;
                continue;
            }
        };
        let others: BTreeMap<String, Value> = m
            .point
            .iter()
            .filter(|(name, _)| **name != x_axis)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let others_key = Value::from(serde_json::Map::from_iter(others.clone())).to_string();
        let p = match panel_index.get(&others_key) {
            Some(&p) => p,
            None if panels.len() < MAX_PANELS => {
                let caption = panel_caption(entry, &others);
                panels.push(Panel {
                    caption,
                    others,
                    lines: Vec::new(),
                    x_range: 1.0..10.0,
                    y_range: 1.0..10.0,
                    spans: Vec::new(),
                });
                panel_index.insert(others_key, panels.len() - 1);
                panels.len() - 1
            }
            None => {
                extra_panels += 1;
                continue;
            }
        };
        let panel = &mut panels[p];
        if panel.lines.len() <= s {
            panel.lines.resize(s + 1, Vec::new());
        }
        panel.lines[s].push((x, m.median_ns));
    }
    if panels.is_empty() {
        return Err(Failure::error(format!(
            "no measurement of `{}` has a {x_axis} and a median time in the plottable range {:e}..{:e}",
            entry.kernel, PLOTTABLE.start, PLOTTABLE.end
        )));
    }
    for panel in &mut panels {
        panel.lines.resize(series.len(), Vec::new());
        panel.lines.iter_mut().for_each(|l| l.sort_by(|a, b| a.0.total_cmp(&b.0)));
        (panel.x_range, panel.y_range) = frame(&panel.lines);
        panel.spans = spans(entry, &x_axis, panel, &series);
    }
    let mut left_out = Vec::new();
    if outside > 0 {
        left_out.push(format!(
            "{outside} measurement(s) with {x_axis} or median time outside {:e}..{:e}",
            PLOTTABLE.start, PLOTTABLE.end
        ));
    }
    if extra_series > 0 {
        left_out.push(format!("{extra_series} measurement(s) of series beyond the first {MAX_SERIES}"));
    }
    if extra_panels > 0 {
        left_out.push(format!("{extra_panels} measurement(s) of panels beyond the first {MAX_PANELS}"));
    }
    let title = format!("{} on {} — median time vs {x_axis}", entry.kernel, entry.fingerprint);
    Ok(Plot { title, x_axis, series, panels, left_out })
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
    edges.sort_by(f64::total_cmp);
    edges.dedup();
    if edges.len() > MAX_EDGES {
        let step = edges.len().div_ceil(MAX_EDGES);
        edges = edges.into_iter().step_by(step).collect();
    }
    edges.insert(0, start);
    edges.push(end);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Axis, DecisionTable, KernelIdentity, KernelTuningCache, Measurement, Provenance, Region};

    fn entry_with(points: &[(f64, f64)]) -> Entry {
        let cache = KernelTuningCache::open(std::env::temp_dir()).unwrap().with_fingerprint("fp");
        let table = DecisionTable {
            axes: vec![Axis::numeric("n")],
            regions: vec![Region::new("serial").at_most("n", 1000.0), Region::new("parallel")],
        };
        let mut entry = cache.new_entry("plotted", &Provenance::current(&KernelIdentity::UNSPECIFIED), table);
        entry.measurements = points
            .iter()
            .enumerate()
            .map(|(i, &(n, median_ns))| {
                let variant = if i % 2 == 0 { "serial" } else { "parallel" };
                let m = json!({"point": {"n": n}, "variant": variant, "median_ns": median_ns, "spread_ns": 1.0, "runs": 5});
                serde_json::from_value::<Measurement>(m).unwrap()
            })
            .collect();
        entry
    }

    /// The adversarial run's entries that made `ktc plot` never return.
    #[test]
    fn extreme_values_are_left_out_and_the_plot_finishes() {
        let entry = entry_with(&[(100.0, 500.0), (100.0, 900.0), (1e4, 9e307), (5e-324, 700.0), (1e4, 2e4)]);
        let plot = prepare(&entry).unwrap();
        let panel = &plot.panels[0];
        for r in [&panel.x_range, &panel.y_range] {
            assert!(r.start > 0.0 && r.end.is_finite() && r.end / r.start < 1e30, "{r:?}");
        }
        assert_eq!(plot.left_out.len(), 1, "{:?}", plot.left_out);
        assert!(plot.left_out[0].starts_with("2 measurement(s)"), "{:?}", plot.left_out);
        let out = tempfile::tempdir().unwrap();
        draw::svg(&plot, &out.path().join("plot.svg")).unwrap();
    }

    /// The largest entry the store accepts, every measurement its own series and panel:
    /// the plot keeps the first series and panels and says how many it left out.
    #[test]
    fn the_largest_valid_entry_plots_bounded() {
        let mut entry = entry_with(&[]);
        entry.axes.push(Axis::numeric("m"));
        entry.measurements = (0..Entry::MAX_MEASUREMENTS)
            .map(|i| {
                let m = json!({"point": {"n": 10 + i % 7, "m": i / 7}, "variant": format!("v{}", i % 97), "median_ns": 100.0 + i as f64, "spread_ns": 1.0, "runs": 5});
                serde_json::from_value::<Measurement>(m).unwrap()
            })
            .collect();
        let plot = prepare(&entry).unwrap();
        assert_eq!((plot.panels.len(), plot.series.len()), (MAX_PANELS, MAX_SERIES));
        assert_eq!(plot.left_out.len(), 2, "{:?}", plot.left_out);
        let points: usize = plot.panels.iter().flat_map(|p| &p.lines).map(Vec::len).sum();
        assert!(points <= MAX_PANELS * 7, "{points} points drawn");
    }

    #[test]
    fn nothing_plottable_is_an_error_not_an_empty_plot() {
        let err = prepare(&entry_with(&[(1.0, f64::MAX), (f64::MIN_POSITIVE, 10.0)])).err().unwrap();
        assert!(err.message.contains("plottable range"), "{}", err.message);
    }
}
