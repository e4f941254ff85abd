//! The sweep's SVG plots (plotters, SVG backend: text is left to the
//! viewer's fonts, so nothing here needs a system font): speedup over tiles,
//! ideal, original and modified, as the thesis's Figures 6.2-6.4 and 6.6;
//! and one curve per transmission-queue depth, as its Figure 6.1.

use std::path::{Path, PathBuf};

use miette::{Result, miette};
use plotters::prelude::*;

use super::plan::Design;
use super::report::{Report, Row};

/// One curve: a label and (tiles, speedup) points.
struct Curve {
    label: String,
    points: Vec<(u32, f64)>,
}

fn curve(label: String, rows: impl Iterator<Item = Row>) -> Curve {
    let mut points: Vec<(u32, f64)> = rows
        .filter_map(|r| r.speedup.map(|s| (r.tiles, s)))
        .collect();
    points.sort_by_key(|p| p.0);
    Curve { label, points }
}

/// Writes each stressmark's plots into `dir`; returns the files written.
pub fn write(report: &Report, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for peak in &report.peaks {
        let name = &peak.stressmark;
        let rows = |design: Design, queue: Option<u32>| {
            report
                .runs
                .iter()
                .filter(move |r| &r.stressmark == name && r.design == design)
                .filter(move |r| r.queue_flits == queue)
                .cloned()
        };
        let main = [
            curve(
                "original (active messages)".into(),
                rows(Design::Original, None),
            ),
            curve(
                "modified (send-and-receive)".into(),
                rows(Design::Modified, None),
            ),
        ];
        if main.iter().any(|c| !c.points.is_empty()) {
            let path = dir.join(format!("{name}-speedup.svg"));
            draw(&path, &format!("{}: speedup", peak.title), &main)?;
            written.push(path);
        }
        let mut depths: Vec<u32> = report
            .runs
            .iter()
            .filter(|r| &r.stressmark == name)
            .filter_map(|r| r.queue_flits)
            .collect();
        depths.sort_unstable();
        depths.dedup();
        if !depths.is_empty() {
            let curves: Vec<Curve> = depths
                .iter()
                .map(|&d| curve(format!("{d} flits"), rows(Design::Modified, Some(d))))
                .collect();
            let path = dir.join(format!("{name}-queue-depth.svg"));
            let title = format!("{}: speedup by transmission queue depth", peak.title);
            draw(&path, &title, &curves)?;
            written.push(path);
        }
    }
    Ok(written)
}

/// Curve colors, distinct on white (matplotlib's `tab10`).
const COLORS: [RGBColor; 8] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// Speedup over tiles with the ideal line, on linear axes from 0.
fn draw(path: &Path, title: &str, curves: &[Curve]) -> Result<()> {
    let error = |e: &dyn std::fmt::Display| miette!("cannot draw {}: {e}", path.display());
    let points = || curves.iter().flat_map(|c| c.points.iter());
    let max_tiles = points().map(|p| p.0).max().unwrap_or(1).max(2);
    let top = points()
        .map(|p| p.1)
        .fold(f64::from(max_tiles), f64::max)
        .max(1.0)
        * 1.05;
    let root = SVGBackend::new(path, (800, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(0f64..f64::from(max_tiles) * 1.02, 0f64..top)
        .map_err(|e| error(&e))?;
    chart
        .configure_mesh()
        .x_desc("tiles")
        .y_desc("speedup")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| error(&e))?;
    let ideal = [(1.0, 1.0), (f64::from(max_tiles), f64::from(max_tiles))];
    chart
        .draw_series(LineSeries::new(ideal, BLACK.stroke_width(1)))
        .map_err(|e| error(&e))?
        .label("ideal")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
    for (i, c) in curves.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let data: Vec<(f64, f64)> = c.points.iter().map(|&(t, s)| (f64::from(t), s)).collect();
        chart
            .draw_series(LineSeries::new(data.clone(), color.stroke_width(2)))
            .map_err(|e| error(&e))?
            .label(c.label.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
        chart
            .draw_series(data.into_iter().map(|p| Circle::new(p, 3, color.filled())))
            .map_err(|e| error(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| error(&e))?;
    root.present().map_err(|e| error(&e))?;
    Ok(())
}
