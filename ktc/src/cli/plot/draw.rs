//! Drawing a [`Plot`] as SVG with plotters (SVG backend, no font library: text is
//! written as SVG `<text>` and laid out with estimated widths).

use super::{Panel, Plot};
use crate::cli::table::duration;
use plotters::prelude::*;
use std::path::Path;

/// Distinct, print-friendly line colours (Tableau 10).
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

const WIDTH: u32 = 1000;
const PANEL_HEIGHT: u32 = 440;
const TITLE_HEIGHT: u32 = 50;

fn color(series: usize) -> RGBColor {
    PALETTE[series % PALETTE.len()]
}

/// Writes `plot` to `out` as SVG.
pub(crate) fn svg(plot: &Plot, out: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let height = TITLE_HEIGHT + PANEL_HEIGHT * plot.panels.len() as u32;
    let root = SVGBackend::new(out, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let body = root.titled(&plot.title, ("sans-serif", 22))?;
    let areas = body.split_evenly((plot.panels.len(), 1));
    for (area, panel) in areas.iter().zip(&plot.panels) {
        draw_panel(area, plot, panel)?;
    }
    root.present()?;
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    plot: &Plot,
    panel: &Panel,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let (x_range, y_range) = (panel.x_range.clone(), panel.y_range.clone());
    let caption = if panel.caption.is_empty() {
        "shaded: the variant the table chooses".to_owned()
    } else {
        format!("{} (shaded: the variant the table chooses)", panel.caption)
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range.clone().log_scale(), y_range.clone().log_scale())?;
    let y_label = |v: &f64| duration(*v);
    let x_label = |v: &f64| compact(*v);
    chart
        .configure_mesh()
        .x_desc(plot.x_axis.as_str())
        .y_desc("median time")
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .light_line_style(WHITE.mix(0.0))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    for &(x0, x1, s) in &panel.spans {
        let style = color(s).mix(0.15).filled();
        chart
            .draw_series(std::iter::once(Rectangle::new([(x0, y_range.start), (x1, y_range.end)], style)))?;
        // The chosen variant's name in the empty strip below the lowest point, so the
        // shading reads without the legend and never collides with it.
        let at = ((x0 * x1).sqrt(), y_range.start * 1.15);
        let font =
            ("sans-serif", 14).into_font().color(&color(s)).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Bottom,
            ));
        chart.draw_series(std::iter::once(Text::new(plot.series[s].clone(), at, font)))?;
    }
    for (s, line) in panel.lines.iter().enumerate() {
        if line.is_empty() {
            continue;
        }
        let c = color(s);
        chart
            .draw_series(LineSeries::new(line.iter().copied(), c.stroke_width(2)))?
            .label(plot.series[s].as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(3)));
        chart.draw_series(line.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    Ok(())
}

/// `1000`, `30k`, `1M`, `4.5M`: tick labels that fit.
fn compact(v: f64) -> String {
    let (scaled, unit) = match v.abs() {
        a if a >= 1e9 => (v / 1e9, "G"),
        a if a >= 1e6 => (v / 1e6, "M"),
        a if a >= 1e4 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    let text = format!("{scaled:.1}");
    format!("{}{unit}", text.trim_end_matches('0').trim_end_matches('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_compact() {
        assert_eq!(compact(1000.0), "1000");
        assert_eq!(compact(30_000.0), "30k");
        assert_eq!(compact(4_500_000.0), "4.5M");
        assert_eq!(compact(1e6), "1M");
    }
}
