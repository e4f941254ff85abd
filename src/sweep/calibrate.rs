//! `scmp calibrate`: which machine and which programs reproduce the
//! thesis's chapter 6. A grid over configuration keys and program
//! parameters (`--vary`, repeatable), program variants (`--variant`) and
//! tile counts; at every point each stressmark's peak improvement of
//! send-and-receive over active messages, next to the thesis's, and one
//! fit figure against all the published peaks: the mean absolute
//! log-ratio `mean |ln(ours / thesis)|` (0 is a perfect match, ln 2 = 0.69
//! a factor of two on average), with ours taken as at least 0.1% (an
//! improvement at or below zero counts as 0.1%), plus whether the thesis's
//! order of the peaks holds (and how many pairs are the other way round).
//!
//! The runs are a sweep's (the same plan, records, job list and
//! `--merge`); the calibration adds `calibrate.json` (the grid), and
//! writes `calibrate.csv` (every point and stressmark), `ranking.md`
//! (the points, best fit first) and `calibrate-KEY.svg` (for each varied
//! key: the peaks against the key's values, the other keys at the best
//! point's, the thesis's figures as dashed lines).
//!
//! Over 600 lines: the grid, its runs and its ranking share the grid's
//! types and the fit figure; the runs themselves are the sweep's.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use miette::{Result, miette};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use stressmarks::catalog::{self, Variant};

use super::plan::{self, Plan, Settings, Source};
use super::report::{self, Report};
use super::{BatchOptions, RunOptions, SweepSpec, execute, parse_variant};

/// Arguments of `scmp calibrate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  scmp calibrate all --vary niu.dma_cycles_per_word=1,2,4 --variant lean,literal
  scmp calibrate all --vary profile=none,functional --vary neighborhood.dim=384,768
  scmp calibrate transitive --test-size --tiles 4 --vary niu.full_queue=context,port
  scmp calibrate all --profile thesis --tiles 64 --vary symbol.SCMP_WAIT_POLL=0,1
  scmp calibrate all --vary niu.queue_flits=4,16 --jobs jobs.txt --out cal   # then:
  parallel < jobs.txt; scmp calibrate --merge cal")]
pub struct CalibrateArgs {
    /// The grid, its stressmarks and where it writes.
    #[command(flatten)]
    pub spec: CalibrateSpec,
    /// Run nothing: the tables and plots in DIR from its grid, plan and
    /// the records its job list wrote.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["CalibrateSpec", "RunOptions"])]
    pub merge: Option<PathBuf>,
    /// How every run is made.
    #[command(flatten)]
    pub run: RunOptions,
    /// How the runs are carried out.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// What `scmp calibrate` runs and where it writes: every option of its own
/// but `--merge`, none of which goes with `--merge` (which conflicts with
/// this group as a whole; clap names the group after the struct).
#[derive(clap::Args, Debug)]
pub struct CalibrateSpec {
    /// The thesis's stressmarks by our names (`scmp sweep --list`; the
    /// variant picks the programs), or `all` [default: all].
    #[arg(value_name = "STRESSMARK")]
    pub stressmarks: Vec<String>,
    /// One axis of the grid: a configuration key (`niu.dma_cycles_per_word=1,2,4`),
    /// a program parameter of a model (`neighborhood.dim=384,768`), a
    /// symbol for every program (`symbol.SCMP_WAIT_POLL=0,1`, a mechanism
    /// switch), or `profile=none,functional` (repeatable; the grid is
    /// every combination).
    #[arg(long = "vary", value_name = "KEY=V1,V2,...")]
    pub vary: Vec<String>,
    /// The programs: `lean` (ours), `literal` (as the thesis describes
    /// them), `c` (in C, rows NAME-c), or several [default: the profile's,
    /// else lean].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_variant)]
    pub variant: Vec<Variant>,
    /// Tile counts each peak is taken over (the thesis's peaks are at 16
    /// and 64 nodes).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "16,64"
    )]
    pub tiles: Vec<u32>,
    /// Output directory.
    #[arg(long, value_name = "DIR", default_value = "calibrate")]
    pub out: PathBuf,
}

/// Version of `calibrate.json`'s format.
const GRID_FORMAT: u32 = 1;

/// An axis of the grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    /// The key as given.
    pub key: String,
    /// Its values, as given.
    pub values: Vec<String>,
}

/// One point of the grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// `p00`, `p01`, ...
    pub id: String,
    /// The value of each axis, in axis order.
    pub values: Vec<String>,
    /// The programs.
    pub variant: String,
}

/// The grid: what `calibrate.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    /// [`GRID_FORMAT`].
    pub format: u32,
    /// The axes.
    pub axes: Vec<Axis>,
    /// Every point.
    pub points: Vec<Point>,
    /// The stressmarks by our (lean) names, in the thesis's order.
    pub stressmarks: Vec<String>,
}

/// The plan's name of a stressmark at a point.
fn run_name(stressmark: &str, point: &Point) -> String {
    let row = match point.variant.as_str() {
        "literal" => format!("{stressmark}-literal"),
        "c" => format!("{stressmark}-c"),
        _ => stressmark.to_string(),
    };
    format!("{row}.{}", point.id)
}

/// Runs `scmp calibrate`.
pub fn calibrate(args: CalibrateArgs) -> ExitCode {
    crate::run::command_status(inner(args))
}

fn inner(args: CalibrateArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.merge {
        let grid = read_grid(dir)?;
        let plan = Plan::read(dir)?;
        let records = execute::read_all(&plan, dir)?;
        return finish(&grid, &plan, &records, dir, args.batch.check);
    }
    if args.spec.tiles.is_empty() || args.spec.tiles.contains(&0) {
        return Err(miette!("--tiles: a mesh has at least one tile"));
    }
    let profile = args
        .run
        .profile
        .as_deref()
        .map(crate::profile::load)
        .transpose()?;
    let variants = if args.spec.variant.is_empty() {
        vec![
            profile
                .as_ref()
                .and_then(|p| p.variant)
                .unwrap_or(Variant::Lean),
        ]
    } else {
        args.spec.variant.clone()
    };
    let grid = grid(&args, &variants)?;
    let mut sources = Vec::new();
    for point in &grid.points {
        sources.extend(point_sources(&args, &grid, point)?);
    }
    let settings = Settings {
        tiles: args.spec.tiles.clone(),
        queue_depths: Vec::new(),
        settings: args.run.settings.clone(),
        profile: None,
        max_cycles: args.run.max_cycles,
    };
    let out = std::path::absolute(&args.spec.out)
        .map_err(|e| miette!("--out {}: {e}", args.spec.out.display()))?;
    super::compile::compile_c(&mut sources, &out, None)?;
    let mut plan = plan::plan(&sources, &settings);
    // A point whose keys do not touch a stressmark (another model's
    // parameter) repeats another point's runs: they run once.
    let mut first: std::collections::HashMap<Vec<String>, String> = Default::default();
    for job in &mut plan.jobs {
        job.output = first
            .entry(job.args.clone())
            .or_insert_with(|| job.output.clone())
            .clone();
    }
    execute::preflight(&plan)?;
    std::fs::create_dir_all(out.join("runs"))
        .map_err(|e| miette!("cannot create {}: {e}", out.join("runs").display()))?;
    plan.write(&out)?;
    write_grid(&grid, &out)?;
    let unique = Plan {
        jobs: {
            let mut seen = std::collections::HashSet::new();
            plan.jobs
                .iter()
                .filter(|j| seen.insert(j.output.clone()))
                .cloned()
                .collect()
        },
        ..plan.clone()
    };
    println!(
        "{} points x {} stressmarks x {} tile counts x 2 designs: {} runs ({} the same as another point's)",
        grid.points.len(),
        grid.stressmarks.len(),
        args.spec.tiles.len(),
        plan.jobs.len(),
        plan.jobs.len() - unique.jobs.len()
    );
    let Some(ran) = execute::carry_out(&unique, &out, &args.batch, "calibrate")? else {
        return Ok(ExitCode::SUCCESS);
    };
    let records: Vec<crate::record::RunRecord> = plan
        .jobs
        .iter()
        .map(|j| {
            let k = unique
                .jobs
                .iter()
                .position(|u| u.output == j.output)
                .expect("every output ran");
            ran.records[k].clone()
        })
        .collect();
    let code = finish(&grid, &plan, &records, &out, args.batch.check)?;
    println!(
        "{} runs on {} threads in {:.1} s",
        ran.records.len(),
        ran.threads,
        ran.wall_seconds
    );
    Ok(code)
}

/// The stressmarks named (ours), the axes, and every point.
fn grid(args: &CalibrateArgs, variants: &[Variant]) -> Result<Grid> {
    let lean: Vec<&str> = catalog::thesis_rows(Variant::Lean)
        .map(|e| e.name)
        .collect();
    let mut stressmarks = Vec::new();
    let names = if args.spec.stressmarks.is_empty() {
        vec!["all".to_string()]
    } else {
        args.spec.stressmarks.clone()
    };
    for name in &names {
        if name == "all" {
            stressmarks.extend(lean.iter().map(|s| s.to_string()));
        } else if lean.contains(&name.as_str()) {
            stressmarks.push(name.clone());
        } else {
            return Err(miette!(
                "calibrate takes the thesis's stressmarks by our names (the variant picks the programs): all, {}; not `{name}`",
                lean.join(", ")
            ));
        }
    }
    stressmarks.dedup();
    let mut axes = Vec::new();
    for v in &args.spec.vary {
        let (key, values) = v
            .split_once('=')
            .ok_or_else(|| miette!("--vary {v}: expected KEY=V1,V2,..."))?;
        let key = key.trim().to_string();
        let values: Vec<String> = values.split(',').map(|s| s.trim().to_string()).collect();
        if values.iter().any(String::is_empty) {
            return Err(miette!("--vary {v}: an empty value"));
        }
        if axes.iter().any(|a: &Axis| a.key == key) {
            return Err(miette!("--vary {key} is given twice"));
        }
        check_axis(&key, &values, args.run.test_size)?;
        axes.push(Axis { key, values });
    }
    let mut combos: Vec<Vec<String>> = vec![Vec::new()];
    for axis in &axes {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                axis.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push(v.clone());
                    c
                })
            })
            .collect();
    }
    let mut points = Vec::new();
    for variant in variants {
        for values in &combos {
            points.push(Point {
                id: format!("p{:02}", points.len()),
                values: values.clone(),
                variant: variant.name().to_string(),
            });
        }
    }
    Ok(Grid {
        format: GRID_FORMAT,
        axes,
        points,
        stressmarks,
    })
}

/// What an axis's key is.
enum Key<'a> {
    /// `profile`.
    Profile,
    /// A program parameter: the model and the parameter.
    Parameter(stressmarks::Model, &'a str),
    /// `symbol.NAME`: a symbol for every program (a mechanism switch).
    Symbol(&'a str),
    /// A configuration key.
    Config,
}

fn key_kind(key: &str) -> Key<'_> {
    if key == "profile" {
        return Key::Profile;
    }
    if let Some(name) = key.strip_prefix("symbol.") {
        return Key::Symbol(name);
    }
    if let Some((model, param)) = key.split_once('.')
        && let Some(m) = stressmarks::Model::from_name(model)
    {
        return Key::Parameter(m, param);
    }
    Key::Config
}

/// An error now, at the command line, for a value no run could take (a
/// program parameter over the sizes the runs use: the test size's with
/// `--test-size`, else the defaults).
fn check_axis(key: &str, values: &[String], test_size: bool) -> Result<()> {
    for value in values {
        match key_kind(key) {
            Key::Profile => {
                if value != "none" {
                    crate::profile::load(value)?;
                }
            }
            Key::Symbol(name) => {
                if name.is_empty() || emu::snapshot::parse_int(value).is_none() {
                    return Err(miette!(
                        "--vary {key}: expected symbol.NAME=V1,V2,... with integer values, got `{value}`"
                    ));
                }
            }
            Key::Parameter(m, param) => {
                let v = emu::snapshot::parse_int(value)
                    .ok_or_else(|| miette!("--vary {key}: `{value}` is not an integer"))?;
                let mut base = if test_size { m.test_size() } else { Vec::new() };
                base.push((param.to_string(), v));
                m.parameters(&base)
                    .map_err(|e| miette!("--vary {key}: {e}"))?;
            }
            Key::Config => {
                emu::ConfigBuilder::new()
                    .set(&format!("{key}={value}"))
                    .and_then(|b| b.build())
                    .map_err(|e| miette!("--vary {key}: {e}"))?;
            }
        }
    }
    Ok(())
}

/// The sources of a point: every stressmark, in the point's variant, with
/// its keys as `--set`s, parameters and profile.
fn point_sources(args: &CalibrateArgs, grid: &Grid, point: &Point) -> Result<Vec<Source>> {
    let mut out = Vec::new();
    for stressmark in &grid.stressmarks {
        let row = run_name(stressmark, point);
        let row = row
            .rsplit_once('.')
            .map_or(row.as_str(), |r| r.0)
            .to_string();
        let entry = catalog::find(&row).ok_or_else(|| miette!("no row `{row}`"))?;
        let mut defsyms = Vec::new();
        let mut settings = Vec::new();
        let mut profile = args.run.profile.clone();
        let mut symbols = args.run.symbols.clone();
        for (axis, value) in grid.axes.iter().zip(&point.values) {
            match key_kind(&axis.key) {
                Key::Profile => {
                    profile = (value != "none").then(|| value.clone());
                }
                Key::Symbol(name) => symbols.push(format!("{name}={value}")),
                Key::Parameter(m, param) => {
                    if entry.model == Some(m) {
                        defsyms.push(format!("{param}={value}"));
                    }
                }
                Key::Config => settings.push(format!("{}={value}", axis.key)),
            }
        }
        let as_sweep = SweepSpec {
            stressmarks: vec![row],
            tiles: args.spec.tiles.clone(),
            defsyms,
            ..SweepSpec::default()
        };
        let run = RunOptions {
            settings: Vec::new(),
            profile: profile.clone(),
            symbols,
            ..args.run.clone()
        };
        for mut source in super::select(&as_sweep, &run)? {
            source.planned.name = run_name(stressmark, point);
            source.settings = settings.clone();
            source.profile = profile.clone();
            out.push(source);
        }
    }
    Ok(out)
}

fn write_grid(grid: &Grid, dir: &Path) -> Result<()> {
    let path = dir.join("calibrate.json");
    let text = serde_json::to_string_pretty(grid).expect("a grid serializes");
    std::fs::write(&path, text + "\n").map_err(|e| miette!("cannot write {}: {e}", path.display()))
}

fn read_grid(dir: &Path) -> Result<Grid> {
    let path = dir.join("calibrate.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| miette!("cannot read {}: {e} (write it with --jobs)", path.display()))?;
    let grid: Grid = serde_json::from_str(&text)
        .map_err(|e| miette!("{} is not a calibration grid: {e}", path.display()))?;
    if grid.format != GRID_FORMAT {
        return Err(miette!(
            "{} has format {}; this scmp reads format {GRID_FORMAT}",
            path.display(),
            grid.format
        ));
    }
    Ok(grid)
}

/// The smallest improvement the fit takes (percent): a peak at or below it
/// counts as this.
pub const FLOOR_PERCENT: f64 = 0.1;

/// One stressmark at one point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Peak {
    /// Our name.
    pub stressmark: String,
    /// Our peak, percent (none: no pair of good runs).
    pub ours: Option<f64>,
    /// Its tile count.
    pub at_tiles: Option<u32>,
    /// The thesis's, percent.
    pub thesis: f64,
    /// The thesis's node count.
    pub thesis_at: u32,
}

/// A point's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scored {
    /// The point.
    pub point: Point,
    /// Each stressmark's peak.
    pub peaks: Vec<Peak>,
    /// Mean |ln(ours / thesis)| over the stressmarks with a peak (ours at
    /// least [`FLOOR_PERCENT`]).
    pub fit: f64,
    /// Stressmarks within a factor of two of the thesis (half to double).
    pub within_two: usize,
    /// Pairs of stressmarks in the other order than the thesis's.
    pub inversions: usize,
    /// Stressmarks without a peak (failed runs).
    pub missing: usize,
}

/// Scores every point; best (fewest missing, then lowest fit) first.
pub fn score(grid: &Grid, report: &Report) -> Vec<Scored> {
    let mut scored: Vec<Scored> = grid
        .points
        .iter()
        .map(|point| {
            let peaks: Vec<Peak> = grid
                .stressmarks
                .iter()
                .map(|s| {
                    let name = run_name(s, point);
                    let p = report.peaks.iter().find(|p| p.stressmark == name);
                    let thesis = p.and_then(|p| p.thesis.as_ref());
                    Peak {
                        stressmark: s.clone(),
                        ours: p.and_then(|p| p.improvement_percent),
                        at_tiles: p.and_then(|p| p.at_tiles),
                        thesis: thesis.map_or(f64::NAN, |t| t.improvement_percent),
                        thesis_at: thesis.map_or(0, |t| t.at_tiles),
                    }
                })
                .collect();
            fit(point.clone(), peaks)
        })
        .collect();
    scored.sort_by(|a, b| {
        a.missing
            .cmp(&b.missing)
            .then(a.fit.total_cmp(&b.fit))
            .then(a.inversions.cmp(&b.inversions))
    });
    scored
}

/// The fit figures of a point's peaks.
pub fn fit(point: Point, peaks: Vec<Peak>) -> Scored {
    let known: Vec<&Peak> = peaks.iter().filter(|p| p.ours.is_some()).collect();
    let ratio = |p: &Peak| p.ours.unwrap_or(0.0).max(FLOOR_PERCENT) / p.thesis;
    let fit = if known.is_empty() {
        f64::INFINITY
    } else {
        known.iter().map(|p| ratio(p).ln().abs()).sum::<f64>() / known.len() as f64
    };
    let within_two = known
        .iter()
        .filter(|p| (0.5..=2.0).contains(&ratio(p)))
        .count();
    let mut inversions = 0;
    for a in &known {
        for b in &known {
            if a.thesis > b.thesis && a.ours <= b.ours {
                inversions += 1;
            }
        }
    }
    Scored {
        point,
        missing: peaks.len() - known.len(),
        peaks,
        fit,
        within_two,
        inversions,
    }
}

/// Tables, plots and the printed ranking; exit status 1 when a run failed
/// or its results differ from the model.
fn finish(
    grid: &Grid,
    plan: &Plan,
    records: &[crate::record::RunRecord],
    dir: &Path,
    check: bool,
) -> Result<ExitCode> {
    let report = report::build(plan, records, check)?;
    report.write(dir)?;
    let scored = score(grid, &report);
    write_csv(grid, &scored, dir)?;
    let ranking = ranking_markdown(grid, &scored);
    let path = dir.join("ranking.md");
    std::fs::write(&path, &ranking).map_err(|e| miette!("cannot write {}: {e}", path.display()))?;
    let plots = write_plots(grid, &scored, dir)?;
    print!("{ranking}");
    let mut names: Vec<String> = ["calibrate.csv", "ranking.md", "sweep.csv"]
        .iter()
        .map(|f| dir.join(f).display().to_string())
        .collect();
    names.extend(plots.iter().map(|p| p.display().to_string()));
    println!("wrote {}", names.join(", "));
    if check {
        println!("{}", report.check_summary());
    }
    if report.problems.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    for p in &report.problems {
        eprintln!("error: {p}");
    }
    Ok(ExitCode::from(1))
}

/// A point's values, `key=value` joined.
fn describe(grid: &Grid, point: &Point) -> String {
    let mut parts: Vec<String> = grid
        .axes
        .iter()
        .zip(&point.values)
        .map(|(a, v)| format!("{}={v}", a.key))
        .collect();
    parts.push(format!("variant={}", point.variant));
    parts.join(" ")
}

fn percent(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.2}")).unwrap_or_else(|| "-".into())
}

/// The ranked table.
pub fn ranking_markdown(grid: &Grid, scored: &[Scored]) -> String {
    let mut s = String::from(
        "Points, best fit first. fit = mean |ln(ours / thesis)| over the stressmarks (ours at least 0.1%; \
         0 is a match, 0.69 a factor of two on average); within 2x = peaks within half to double the thesis's; \
         order = pairs of peaks in the other order than the thesis's (0: the thesis's order holds).\n\n",
    );
    let _ = write!(s, "| rank | point | fit | within 2x | order |");
    for name in &grid.stressmarks {
        let _ = write!(s, " {name} |");
    }
    s.push_str("\n|---|---|---|---|---|");
    for _ in &grid.stressmarks {
        s.push_str("---|");
    }
    s.push('\n');
    let _ = write!(
        s,
        "| | thesis | 0 | {n}/{n} | holds |",
        n = grid.stressmarks.len()
    );
    if let Some(first) = scored.first() {
        for p in &first.peaks {
            let _ = write!(s, " {:.2} |", p.thesis);
        }
    }
    s.push('\n');
    for (rank, sc) in scored.iter().enumerate() {
        let order = if sc.inversions == 0 {
            "holds".to_string()
        } else {
            format!("{} pairs off", sc.inversions)
        };
        let _ = write!(
            s,
            "| {} | {} `{}` | {:.3} | {}/{} | {order} |",
            rank + 1,
            sc.point.id,
            describe(grid, &sc.point),
            sc.fit,
            sc.within_two,
            sc.peaks.len()
        );
        for p in &sc.peaks {
            let _ = write!(s, " {} |", percent(p.ours));
        }
        s.push('\n');
    }
    s
}

fn write_csv(grid: &Grid, scored: &[Scored], dir: &Path) -> Result<()> {
    let path = dir.join("calibrate.csv");
    let io = |e: &dyn std::fmt::Display| miette!("cannot write {}: {e}", path.display());
    let mut csv = csv::Writer::from_path(&path).map_err(|e| io(&e))?;
    let mut header: Vec<String> = vec!["point".into(), "variant".into()];
    header.extend(grid.axes.iter().map(|a| a.key.clone()));
    header.extend(
        [
            "stressmark",
            "peak_percent",
            "at_tiles",
            "thesis_percent",
            "thesis_at",
            "ratio",
            "fit",
            "within_two",
            "inversions",
            "rank",
        ]
        .map(String::from),
    );
    csv.write_record(&header).map_err(|e| io(&e))?;
    for (rank, sc) in scored.iter().enumerate() {
        for p in &sc.peaks {
            let mut row: Vec<String> = vec![sc.point.id.clone(), sc.point.variant.clone()];
            row.extend(sc.point.values.iter().cloned());
            row.extend([
                p.stressmark.clone(),
                // Four decimals: the fit is computed from it.
                p.ours
                    .map(|v| format!("{v:.4}"))
                    .unwrap_or_else(|| "-".into()),
                p.at_tiles.map(|t| t.to_string()).unwrap_or_default(),
                format!("{:.2}", p.thesis),
                p.thesis_at.to_string(),
                p.ours
                    .map(|o| format!("{:.3}", o.max(FLOOR_PERCENT) / p.thesis))
                    .unwrap_or_default(),
                format!("{:.4}", sc.fit),
                sc.within_two.to_string(),
                sc.inversions.to_string(),
                (rank + 1).to_string(),
            ]);
            csv.write_record(&row).map_err(|e| io(&e))?;
        }
    }
    csv.flush().map_err(|e| io(&e))
}

/// Colors of the stressmarks' curves.
const COLORS: [RGBColor; 7] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// For each axis (and the variant, when both ran): the peaks against its
/// values, the other axes at the best point's values.
fn write_plots(grid: &Grid, scored: &[Scored], dir: &Path) -> Result<Vec<PathBuf>> {
    let Some(best) = scored.first() else {
        return Ok(Vec::new());
    };
    let mut written = Vec::new();
    let mut axes: Vec<(String, Vec<String>, Option<usize>)> = grid
        .axes
        .iter()
        .enumerate()
        .map(|(i, a)| (a.key.clone(), a.values.clone(), Some(i)))
        .collect();
    let mut variants: Vec<String> = grid.points.iter().map(|p| p.variant.clone()).collect();
    variants.dedup();
    if variants.len() > 1 {
        axes.push(("variant".into(), variants, None));
    }
    for (key, values, index) in axes {
        // The points along this axis through the best point.
        let along: Vec<&Scored> = values
            .iter()
            .filter_map(|v| {
                scored.iter().find(|s| {
                    let same_variant = match index {
                        None => s.point.variant == *v,
                        Some(_) => s.point.variant == best.point.variant,
                    };
                    same_variant
                        && s.point.values.iter().enumerate().all(|(j, x)| match index {
                            Some(i) if i == j => x == v,
                            _ => *x == best.point.values[j],
                        })
                })
            })
            .collect();
        if along.len() != values.len() {
            continue;
        }
        let path = dir.join(format!(
            "calibrate-{}.svg",
            key.replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "-")
        ));
        draw_axis(&path, grid, &key, &values, &along)?;
        written.push(path);
    }
    Ok(written)
}

fn draw_axis(
    path: &Path,
    grid: &Grid,
    key: &str,
    values: &[String],
    along: &[&Scored],
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| miette!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (860, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("peak improvement by {key} (dashed: the thesis; other keys at the best point)"),
            ("sans-serif", 17),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(
            -0.3f64..values.len() as f64 - 0.7,
            (FLOOR_PERCENT * 0.8..100f64).log_scale(),
        )
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(values.len().max(2))
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 0.01 && i >= 0.0 {
                values.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_desc(key)
        .y_desc("peak improvement of SR over AM (%, log; at least 0.1)")
        .y_label_formatter(&|y| format!("{y}"))
        .draw()
        .map_err(|e| err(&e))?;
    for (k, name) in grid.stressmarks.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let thesis = along.first().map_or(f64::NAN, |s| s.peaks[k].thesis);
        chart
            .draw_series(DashedLineSeries::new(
                [(-0.3, thesis), (values.len() as f64 - 0.7, thesis)],
                6,
                4,
                color.stroke_width(1),
            ))
            .map_err(|e| err(&e))?;
        let data: Vec<(f64, f64)> = along
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.peaks[k].ours.map(|o| (i as f64, o.max(FLOOR_PERCENT))))
            .collect();
        chart
            .draw_series(LineSeries::new(data.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(format!("{name} (thesis {thesis}%)"))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
        chart
            .draw_series(data.into_iter().map(|p| Circle::new(p, 4, color.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peak(stressmark: &str, ours: Option<f64>, thesis: f64) -> Peak {
        Peak {
            stressmark: stressmark.into(),
            ours,
            at_tiles: Some(64),
            thesis,
            thesis_at: 64,
        }
    }

    fn point() -> Point {
        Point {
            id: "p00".into(),
            values: Vec::new(),
            variant: "lean".into(),
        }
    }

    /// The fit is the mean absolute log-ratio (a factor of two either way
    /// costs ln 2); a peak at or below zero counts as 0.1%; the order is
    /// the thesis's when no pair is the other way round.
    #[test]
    fn the_fit_is_the_mean_absolute_log_ratio_and_the_order_counts_pairs() {
        let exact = fit(
            point(),
            vec![peak("a", Some(50.0), 50.0), peak("b", Some(1.0), 1.0)],
        );
        assert_eq!((exact.fit, exact.within_two, exact.inversions), (0.0, 2, 0));
        let off = fit(
            point(),
            vec![peak("a", Some(25.0), 50.0), peak("b", Some(2.0), 1.0)],
        );
        assert!((off.fit - 2f64.ln()).abs() < 1e-12, "{}", off.fit);
        assert_eq!(off.within_two, 2);
        let swapped = fit(
            point(),
            vec![
                peak("a", Some(1.0), 50.0),
                peak("b", Some(-3.0), 1.0),
                peak("c", None, 5.0),
            ],
        );
        // b counts as 0.1%: |ln(0.1/1)|; a: |ln(1/50)|.
        let want = ((0.1f64).ln().abs() + (50f64).ln()) / 2.0;
        assert!((swapped.fit - want).abs() < 1e-12);
        assert_eq!(
            (swapped.missing, swapped.within_two, swapped.inversions),
            (1, 0, 0)
        );
        let inverted = fit(
            point(),
            vec![peak("a", Some(1.0), 50.0), peak("b", Some(2.0), 1.0)],
        );
        assert_eq!(inverted.inversions, 1);
    }

    #[test]
    fn axes_are_checked_and_multiplied_out() {
        let args = |vary: &[&str]| CalibrateArgs {
            spec: CalibrateSpec {
                stressmarks: vec!["transitive".into(), "matrix".into()],
                vary: vary.iter().map(|s| s.to_string()).collect(),
                variant: Vec::new(),
                tiles: vec![4],
                out: PathBuf::new(),
            },
            merge: None,
            run: RunOptions {
                test_size: true,
                ..RunOptions::default()
            },
            batch: BatchOptions::default(),
        };
        let g = grid(
            &args(&[
                "niu.dma_cycles_per_word=1,4",
                "transitive.n=40,48",
                "profile=none,functional",
            ]),
            &[Variant::Lean, Variant::Literal],
        )
        .unwrap();
        assert_eq!(g.points.len(), 2 * 2 * 2 * 2);
        assert_eq!(g.points[1].values, ["1", "40", "functional"]);
        assert_eq!(g.points[8].variant, "literal");
        assert_eq!(g.stressmarks, ["transitive", "matrix"]);
        assert_eq!(run_name("matrix", &g.points[9]), "matrix-literal.p09");
        for bad in [
            "niu.dma_cycles_per_word=0",
            "niu.nosuch=1",
            "transitive.n=3",
            "profile=nosuch",
            "noequals",
        ] {
            assert!(grid(&args(&[bad]), &[Variant::Lean]).is_err(), "{bad}");
        }
        let mut named = args(&[]);
        named.spec.stressmarks = vec!["matrix-literal".into()];
        assert!(grid(&named, &[Variant::Lean]).is_err());
    }
}
