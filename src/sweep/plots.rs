//! The sweep's SVG plots (plotters, SVG backend: text is left to the
//! viewer's fonts, so nothing here needs a system font):
//!
//! - `NAME-speedup.svg`: speedup over tiles, original and modified, as the
//!   thesis's Figures 6.2-6.4 and 6.6, with axes fitted to the data (the
//!   ideal line is clipped to them) and, in a second panel, the
//!   improvement of modified over original per tile count, the thesis's
//!   peak marked;
//! - `NAME-queue-depth.svg`: one curve per transmission-queue depth, as its
//!   Figure 6.1, and in a second panel each depth's speedup relative to 16
//!   flits (the depth the thesis chose), where curves a fraction of a
//!   percent apart can be told apart;
//! - `NAME-energy.svg`: the energy of each run over tiles, both designs
//!   (docs/energy.md), and below the modified design's energy saving;
//! - `NAME-breakdown.svg`: where the cycles went at the largest tile
//!   count, both designs as stacked bars (see `breakdown.rs`).
//!
//! Curves differ by color, marker and dash pattern, so that they can be
//! told apart in print too.
//!
//! Over 600 lines: the four plots share one drawing of curves over tiles
//! (axes, colors, markers, legends), which is most of the file.

use std::path::{Path, PathBuf};

use miette::{Result, miette};
use plotters::coord::Shift;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::breakdown::PARTS;
use super::plan::Design;
use super::report::{Peak, Report, Row};

/// One curve: a label and (tiles, value) points.
struct Curve {
    label: String,
    points: Vec<(u32, f64)>,
}

fn curve(label: String, rows: &[&Row], value: impl Fn(&Row) -> Option<f64>) -> Curve {
    let mut points: Vec<(u32, f64)> = rows
        .iter()
        .filter_map(|r| value(r).map(|v| (r.tiles, v)))
        .collect();
    points.sort_by_key(|p| p.0);
    Curve { label, points }
}

/// A plot's title: the stressmark, its input, and whether that is the
/// spec's test size.
fn title(peak: &Peak, what: &str) -> String {
    let mut t = peak.title.clone();
    if !peak.input.is_empty() {
        t.push_str(&format!(", {}", peak.input));
    }
    if peak.test_size {
        t.push_str(" (test size)");
    }
    format!("{t}: {what}")
}

/// Writes each stressmark's plots into `dir`; returns the files written.
pub fn write(report: &Report, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for peak in &report.peaks {
        let original = rows(report, &peak.stressmark, Design::Original, None);
        let modified = rows(report, &peak.stressmark, Design::Modified, None);
        let plots = [
            speedup_plot(dir, peak, &original, &modified)?,
            energy_plot(dir, peak, &original, &modified)?,
            queue_depth_plot(dir, report, peak)?,
            breakdown_plot(dir, peak, &original, &modified)?,
        ];
        written.extend(plots.into_iter().flatten());
    }
    Ok(written)
}

/// The runs of stressmark `name` in `design` at transmission queue depth
/// `queue` (`None`: the sweep over tiles).
fn rows<'r>(report: &'r Report, name: &str, design: Design, queue: Option<u32>) -> Vec<&'r Row> {
    report
        .runs
        .iter()
        .filter(|r| r.stressmark == name && r.design == design && r.queue_flits == queue)
        .collect()
}

/// `NAME-speedup.svg`, when there are runs.
fn speedup_plot(
    dir: &Path,
    peak: &Peak,
    original: &[&Row],
    modified: &[&Row],
) -> Result<Option<PathBuf>> {
    let name = &peak.stressmark;
    let main = [
        curve("original (active messages)".into(), original, |r| r.speedup),
        curve("modified (send-and-receive)".into(), modified, |r| {
            r.speedup
        }),
    ];
    if main.iter().any(|c| !c.points.is_empty()) {
        let improvement = curve("modified over original".into(), modified, |r| {
            r.improvement_percent
        });
        let thesis = peak
            .thesis
            .as_ref()
            .map(|t| (t.at_tiles, t.improvement_percent));
        let path = dir.join(format!("{name}-speedup.svg"));
        draw_over_tiles(
            &path,
            &title(peak, "speedup"),
            &main,
            Upper::Speedup,
            Lower::Improvement {
                curve: improvement,
                thesis,
            },
        )?;
        return Ok(Some(path));
    }
    Ok(None)
}

/// `NAME-energy.svg`, when the runs had statistics (docs/energy.md).
fn energy_plot(
    dir: &Path,
    peak: &Peak,
    original: &[&Row],
    modified: &[&Row],
) -> Result<Option<PathBuf>> {
    let name = &peak.stressmark;
    let energy = [
        curve("original (active messages)".into(), original, |r| {
            r.energy.map(|e| e[4] * 1e3)
        }),
        curve("modified (send-and-receive)".into(), modified, |r| {
            r.energy.map(|e| e[4] * 1e3)
        }),
    ];
    if energy.iter().any(|c| !c.points.is_empty()) {
        let saving = curve("modified over original".into(), modified, |r| {
            r.energy_improvement_percent
        });
        let path = dir.join(format!("{name}-energy.svg"));
        draw_over_tiles(
            &path,
            &title(peak, "energy per run"),
            &energy,
            Upper::Values("energy of the run (mJ)"),
            Lower::Improvement {
                curve: saving,
                thesis: None,
            },
        )?;
        return Ok(Some(path));
    }
    Ok(None)
}

/// `NAME-queue-depth.svg`, when the sweep ran queue depths.
fn queue_depth_plot(dir: &Path, report: &Report, peak: &Peak) -> Result<Option<PathBuf>> {
    let name = &peak.stressmark;
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
            .map(|&d| {
                curve(
                    format!("{d} flits"),
                    &rows(report, name, Design::Modified, Some(d)),
                    |r| r.speedup,
                )
            })
            .collect();
        // Relative to 16 flits, or the depth nearest to it.
        let reference = *depths
            .iter()
            .min_by_key(|d| (i64::from(**d) - 16).abs())
            .expect("a depth");
        let base = &curves[depths.iter().position(|d| *d == reference).expect("listed")];
        let relative: Vec<Curve> = curves
            .iter()
            .map(|c| Curve {
                label: c.label.clone(),
                points: c
                    .points
                    .iter()
                    .filter_map(|&(t, s)| {
                        let b = base.points.iter().find(|p| p.0 == t)?.1;
                        Some((t, (s / b - 1.0) * 100.0))
                    })
                    .collect(),
            })
            .collect();
        let path = dir.join(format!("{name}-queue-depth.svg"));
        draw_over_tiles(
            &path,
            &title(peak, "speedup by transmission queue depth"),
            &curves,
            Upper::Speedup,
            Lower::Relative {
                curves: relative,
                reference,
            },
        )?;
        return Ok(Some(path));
    }
    Ok(None)
}

/// `NAME-breakdown.svg` at the largest tile count with a breakdown.
fn breakdown_plot(
    dir: &Path,
    peak: &Peak,
    original: &[&Row],
    modified: &[&Row],
) -> Result<Option<PathBuf>> {
    let name = &peak.stressmark;
    let largest = original
        .iter()
        .chain(modified)
        .filter(|r| r.breakdown.is_some())
        .map(|r| r.tiles)
        .max();
    if let Some(tiles) = largest {
        let bars: Vec<(String, Vec<f64>)> =
            [(Design::Original, original), (Design::Modified, modified)]
                .iter()
                .filter_map(|(d, rows)| {
                    let r = rows.iter().find(|r| r.tiles == tiles)?;
                    let b = r.breakdown.as_ref()?;
                    Some((
                        format!(
                            "{} ({})",
                            d.name(),
                            match d {
                                Design::Original => "active messages",
                                Design::Modified => "send-and-receive",
                            }
                        ),
                        b.parts.clone(),
                    ))
                })
                .collect();
        let path = dir.join(format!("{name}-breakdown.svg"));
        draw_breakdown(
            &path,
            &title(peak, &format!("where the cycles go on {tiles} tiles")),
            &bars,
        )?;
        return Ok(Some(path));
    }
    Ok(None)
}

/// Curve colors, distinct on white (matplotlib's `tab10`).
const COLORS: [RGBColor; 10] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
];

/// Dash patterns (dash, gap; 0: solid), one per curve in turn.
const DASHES: [(u32, u32); 5] = [(0, 0), (8, 4), (2, 3), (12, 3), (4, 6)];

/// A curve's marker: filled circle, filled triangle, cross, open circle,
/// open triangle, in turn.
fn marker<'x>(
    i: usize,
    at: (f64, f64),
    color: RGBColor,
) -> DynElement<'static, SVGBackend<'x>, (f64, f64)> {
    match i % 5 {
        0 => Circle::new(at, 4, color.filled()).into_dyn(),
        1 => TriangleMarker::new(at, 5, color.filled()).into_dyn(),
        2 => Cross::new(at, 4, color.stroke_width(2)).into_dyn(),
        3 => Circle::new(at, 4, color.stroke_width(2)).into_dyn(),
        _ => TriangleMarker::new(at, 5, color.stroke_width(2)).into_dyn(),
    }
}

/// What the lower panel shows.
enum Lower {
    /// Modified over original, percent, and the thesis's peak (tiles, %).
    Improvement {
        curve: Curve,
        thesis: Option<(u32, f64)>,
    },
    /// Each curve relative to the reference depth, percent.
    Relative { curves: Vec<Curve>, reference: u32 },
}

type Panel<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn error(path: &Path) -> impl Fn(&dyn std::fmt::Display) -> miette::Report + '_ {
    move |e| miette!("cannot draw {}: {e}", path.display())
}

/// What the upper panel shows: speedups (with the ideal line, clipped to
/// the axis) or other values from 0 (named by the axis's label).
enum Upper<'a> {
    Speedup,
    Values(&'a str),
}

/// Curves over tiles (log-2 tile axis, value axis fitted to the data)
/// above, and the lower panel below.
fn draw_over_tiles(
    path: &Path,
    title: &str,
    curves: &[Curve],
    upper_shows: Upper<'_>,
    lower: Lower,
) -> Result<()> {
    let err = error(path);
    let root = SVGBackend::new(path, (820, 820)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(title, ("sans-serif", 20))
        .map_err(|e| err(&e))?;
    let (upper, bottom) = root.split_vertically(500);
    let points = || curves.iter().flat_map(|c| c.points.iter());
    let max_tiles = points().map(|p| p.0).max().unwrap_or(1).max(2);
    let (y_desc, floor) = match upper_shows {
        Upper::Speedup => ("speedup", 1.0),
        Upper::Values(desc) => (desc, 0.0),
    };
    let top = points().map(|p| p.1).fold(floor, f64::max) * 1.12;
    let top = if top > 0.0 { top } else { 1.0 };
    let ideal = matches!(upper_shows, Upper::Speedup).then_some(top);
    draw_curves(&upper, &err, max_tiles, 0f64..top, y_desc, curves, ideal)?;
    match lower {
        Lower::Improvement { curve, thesis } => {
            let mut values: Vec<f64> = curve.points.iter().map(|p| p.1).collect();
            if let Some((_, t)) = thesis {
                values.push(t);
            }
            let (lo, hi) = padded(&values, 0.0);
            let mut chart = ChartBuilder::on(&bottom)
                .margin(16)
                .x_label_area_size(44)
                .y_label_area_size(64)
                .build_cartesian_2d(x_range(max_tiles), lo..hi)
                .map_err(|e| err(&e))?;
            configure(
                &mut chart,
                "improvement of modified over original (%)",
                &err,
            )?;
            chart
                .draw_series(LineSeries::new(
                    [(0.85, 0.0), (f64::from(max_tiles) * 1.15, 0.0)],
                    BLACK.mix(0.5).stroke_width(1),
                ))
                .map_err(|e| err(&e))?;
            let color = COLORS[1];
            let data: Vec<(f64, f64)> = curve
                .points
                .iter()
                .map(|&(t, v)| (f64::from(t), v))
                .collect();
            chart
                .draw_series(LineSeries::new(data.clone(), color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label("ours: (original - modified) / original")
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2))
                });
            chart
                .draw_series(data.into_iter().map(|p| marker(1, p, color)))
                .map_err(|e| err(&e))?;
            if let Some((tiles, value)) = thesis {
                let at = (f64::from(tiles), value);
                chart
                    .draw_series([Cross::new(at, 7, BLACK.stroke_width(3))])
                    .map_err(|e| err(&e))?
                    .label(format!("the thesis's peak: {value}% at {tiles} nodes"))
                    .legend(|(x, y)| Cross::new((x + 10, y), 5, BLACK.stroke_width(3)));
            }
            legend(&mut chart, &err)?;
        }
        Lower::Relative { curves, reference } => {
            let values: Vec<f64> = curves
                .iter()
                .flat_map(|c| c.points.iter().map(|p| p.1))
                .collect();
            let (lo, hi) = padded(&values, 0.0);
            draw_curves(
                &bottom,
                &err,
                max_tiles,
                lo..hi,
                &format!("speedup relative to {reference} flits (%)"),
                &curves,
                None,
            )?;
        }
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// The tile axis: logarithmic, a little beyond 1 and `max_tiles`.
fn x_range(max_tiles: u32) -> WithKeyPoints<LogCoord<f64>> {
    let ticks: Vec<f64> = (0..=12)
        .map(|k| f64::from(1u32 << k))
        .take_while(|t| *t <= f64::from(max_tiles))
        .collect();
    LogCoord::from((0.85..f64::from(max_tiles) * 1.15).log_scale()).with_key_points(ticks)
}

/// `values`' range with `always` in it and a margin of a tenth each side
/// (at least 0.5).
fn padded(values: &[f64], always: f64) -> (f64, f64) {
    let lo = values.iter().cloned().fold(always, f64::min);
    let hi = values.iter().cloned().fold(always, f64::max);
    let pad = ((hi - lo) * 0.1).max(0.5);
    (lo - pad, hi + pad)
}

/// The chart of a panel: log tile axis, linear value axis.
type Chart<'a> =
    ChartContext<'a, SVGBackend<'a>, Cartesian2d<WithKeyPoints<LogCoord<f64>>, RangedCoordf64>>;

fn configure(
    chart: &mut Chart<'_>,
    y_desc: &str,
    err: &dyn Fn(&dyn std::fmt::Display) -> miette::Report,
) -> Result<()> {
    chart
        .configure_mesh()
        .x_desc("tiles")
        .y_desc(y_desc)
        .light_line_style(TRANSPARENT)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()
        .map_err(|e| err(&e))
}

fn legend<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    err: &dyn Fn(&dyn std::fmt::Display) -> miette::Report,
) -> Result<()>
where
    X: Ranged,
    Y: Ranged,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))
}

/// Curves over a log-2 tile axis; with `ideal` the ideal speedup line,
/// clipped at that height.
#[allow(clippy::too_many_arguments)]
fn draw_curves(
    area: &Panel<'_>,
    err: &dyn Fn(&dyn std::fmt::Display) -> miette::Report,
    max_tiles: u32,
    y: std::ops::Range<f64>,
    y_desc: &str,
    curves: &[Curve],
    ideal: Option<f64>,
) -> Result<()> {
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x_range(max_tiles), y)
        .map_err(|e| err(&e))?;
    configure(&mut chart, y_desc, err)?;
    if let Some(top) = ideal {
        let max_tiles = curves
            .iter()
            .flat_map(|c| c.points.iter().map(|p| p.0))
            .max()
            .unwrap_or(1);
        let end = f64::from(max_tiles).min(top);
        chart
            .draw_series(LineSeries::new(
                [(1.0, 1.0), (end, end)],
                BLACK.stroke_width(1),
            ))
            .map_err(|e| err(&e))?
            .label(if end < f64::from(max_tiles) {
                "ideal (clipped)"
            } else {
                "ideal"
            })
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
    }
    for (i, c) in curves.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let style = color.stroke_width(2);
        let data: Vec<(f64, f64)> = c.points.iter().map(|&(t, s)| (f64::from(t), s)).collect();
        let (dash, gap) = DASHES[i % DASHES.len()];
        let series = if dash == 0 {
            chart.draw_series(LineSeries::new(data.clone(), style))
        } else {
            chart.draw_series(DashedLineSeries::new(data.clone(), dash, gap, style))
        };
        series
            .map_err(|e| err(&e))?
            .label(c.label.clone())
            .legend(move |(x, y)| {
                EmptyElement::at((x, y))
                    + PathElement::new([(0, 0), (22, 0)], style)
                    + marker_shape(i, (11, 0), color)
            });
        chart
            .draw_series(data.into_iter().map(|p| marker(i, p, color)))
            .map_err(|e| err(&e))?;
    }
    legend(&mut chart, err)
}

/// A marker in legend (pixel) coordinates, as [`marker`].
fn marker_shape<'x>(
    i: usize,
    at: (i32, i32),
    color: RGBColor,
) -> DynElement<'static, SVGBackend<'x>, (i32, i32)> {
    match i % 5 {
        0 => Circle::new(at, 4, color.filled()).into_dyn(),
        1 => TriangleMarker::new(at, 5, color.filled()).into_dyn(),
        2 => Cross::new(at, 4, color.stroke_width(2)).into_dyn(),
        3 => Circle::new(at, 4, color.stroke_width(2)).into_dyn(),
        _ => TriangleMarker::new(at, 5, color.stroke_width(2)).into_dyn(),
    }
}

/// Colors of the breakdown's parts (work in greys, waiting in colors).
const PART_COLORS: [RGBColor; 9] = [
    RGBColor(200, 200, 200),
    RGBColor(140, 140, 140),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(60, 60, 60),
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
];

/// Stacked bars: one per design, the parts of a tile's cycles (means over
/// the tiles), with the legend beside them.
fn draw_breakdown(path: &Path, title: &str, bars: &[(String, Vec<f64>)]) -> Result<()> {
    let err = error(path);
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(title, ("sans-serif", 18))
        .map_err(|e| err(&e))?;
    let (left, right) = root.split_horizontally(440);
    let top = bars
        .iter()
        .map(|(_, p)| p.iter().sum::<f64>())
        .fold(1.0, f64::max)
        * 1.05;
    let labels: Vec<String> = bars.iter().map(|(l, _)| l.clone()).collect();
    let mut chart = ChartBuilder::on(&left)
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..bars.len() as f64, 0f64..top)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(bars.len().max(1) * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - i as f64 - 0.5).abs() < 0.01 {
                labels
                    .get(i)
                    .map(|l| l.split(' ').next().unwrap_or("").to_string())
                    .unwrap_or_default()
            } else {
                String::new()
            }
        })
        .light_line_style(TRANSPARENT)
        .y_desc("cycles per tile (mean over the tiles, the whole run)")
        .y_label_formatter(&|y| stressmarks::models::grouped(y.round() as i64))
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (_, parts)) in bars.iter().enumerate() {
        let mut base = 0.0;
        for (k, v) in parts.iter().enumerate() {
            let (x0, x1) = (i as f64 + 0.2, i as f64 + 0.8);
            chart
                .draw_series([Rectangle::new(
                    [(x0, base), (x1, base + v)],
                    PART_COLORS[k % PART_COLORS.len()].filled(),
                )])
                .map_err(|e| err(&e))?;
            base += v;
        }
    }
    // The legend: parts top to bottom as stacked (the last on top).
    let style = ("sans-serif", 14).into_font();
    for (k, (name, meaning)) in PARTS.iter().enumerate().rev() {
        let row = (PARTS.len() - 1 - k) as i32;
        let y = 40 + row * 26;
        right
            .draw(&Rectangle::new(
                [(10, y), (28, y + 16)],
                PART_COLORS[k % PART_COLORS.len()].filled(),
            ))
            .map_err(|e| err(&e))?;
        right
            .draw(&Text::new(
                format!("{name}: {meaning}"),
                (36, y + 2),
                style.clone(),
            ))
            .map_err(|e| err(&e))?;
    }
    for (i, (label, parts)) in bars.iter().enumerate() {
        let total: f64 = parts.iter().sum();
        let y = 40 + (PARTS.len() as i32 + 1 + i as i32) * 26;
        right
            .draw(&Text::new(
                format!(
                    "{label}: {} cycles per tile",
                    stressmarks::models::grouped(total.round() as i64)
                ),
                (10, y),
                style.clone(),
            ))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
