//! A sweep's tables from its plan and its runs' records: each run's cycles,
//! speedup and improvement, the results checked against the models, the
//! peak improvements next to the thesis's; written as CSV, JSON and a
//! Markdown table, and printed.
//!
//! Over 600 lines: the tables' rows, peaks and checks are one computation
//! from the records, and the three formats write the same rows.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use miette::{Result, miette};
use serde::Serialize;

use super::breakdown::{Breakdown, NIU_WAITS, PARTS};
use super::plan::{Design, Plan, ThesisPeak};
use crate::record::RunRecord;

/// One run in the tables.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Stressmark.
    pub stressmark: String,
    /// Design.
    pub design: Design,
    /// Tiles.
    pub tiles: u32,
    /// `WxH`.
    pub mesh: String,
    /// Queue depth of the queue experiment (none in the main one).
    pub queue_flits: Option<u32>,
    /// The run's time: `timed_cycles` when printed, else `total_cycles`.
    pub cycles: u64,
    /// The cycle the run ended.
    pub total_cycles: u64,
    /// The timed region's cycles, as printed.
    pub timed_cycles: Option<u64>,
    /// Instructions.
    pub instructions: u64,
    /// Messages sent.
    pub messages: u64,
    /// Flits injected.
    pub flits: u64,
    /// How it ended.
    pub end: String,
    /// `scmp run`'s exit status (0: a good run).
    pub exit_status: u8,
    /// Host seconds of the simulation.
    pub wall_seconds: f64,
    /// `cycles` at the fewest tiles of its curve over `cycles` here, times
    /// that tile count (so 1 at one tile).
    pub speedup: Option<f64>,
    /// Modified runs: `(original − modified)/original` cycles at these
    /// tiles, percent.
    pub improvement_percent: Option<f64>,
    /// `ok`, the check's differences, or empty (not checked).
    pub check: String,
    /// The printed results, by name.
    pub results: BTreeMap<String, Vec<String>>,
    /// Where the cycles went (none without statistics).
    pub breakdown: Option<Breakdown>,
    /// The run's energy, joules: tiles, NIUs, routers, links, their sum
    /// (docs/energy.md; none without statistics).
    pub energy: Option<[f64; 5]>,
    /// Modified runs: `(original − modified)/original` energy at these
    /// tiles, percent.
    pub energy_improvement_percent: Option<f64>,
}

/// A stressmark's peak improvement, ours and the thesis's.
#[derive(Clone, Debug, Serialize)]
pub struct Peak {
    /// Stressmark.
    pub stressmark: String,
    /// Title.
    pub title: String,
    /// The input, in words.
    pub input: String,
    /// Whether that is the spec's test size (not the thesis's input).
    pub test_size: bool,
    /// Our peak over the runs on more than one tile, percent (none without
    /// a pair of good runs).
    pub improvement_percent: Option<f64>,
    /// Tiles of our peak.
    pub at_tiles: Option<u32>,
    /// The thesis's.
    pub thesis: Option<ThesisPeak>,
}

/// The tables of a sweep.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Peak improvements, per stressmark.
    pub peaks: Vec<Peak>,
    /// Every run, in plan order.
    pub runs: Vec<Row>,
    /// Runs that failed or whose results differ from the model.
    pub problems: Vec<String>,
}

impl Report {
    /// `--check`'s summary: how many runs' results match their models,
    /// differ, or could not be checked (the run failed, or its stressmark
    /// has no model).
    pub fn check_summary(&self) -> String {
        let matched = self.runs.iter().filter(|r| r.check == "ok").count();
        let unchecked = self.runs.iter().filter(|r| r.check.is_empty()).count();
        let differ = self.runs.len() - matched - unchecked;
        let verdict = if differ == 0 && unchecked == 0 {
            "all match"
        } else if differ > 0 {
            "RESULTS DIFFER"
        } else {
            "some not checked"
        };
        format!(
            "check: {matched} of {} runs match their models, {differ} differ, {unchecked} not checked (failed, or no model): {verdict}",
            self.runs.len()
        )
    }
}

/// Builds the tables; `check` compares each good run's printed results with
/// its stressmark's model.
pub fn build(plan: &Plan, records: &[RunRecord], check: bool) -> Result<Report> {
    let mut references = HashMap::new();
    if check {
        for (i, s) in plan.stressmarks.iter().enumerate() {
            let Some(name) = &s.model else { continue };
            let model = stressmarks::Model::from_name(name)
                .ok_or_else(|| miette!("the plan names an unknown model `{name}`"))?;
            let reference = model
                .reference(&s.defsyms)
                .map_err(|e| miette!("{}: {e}", s.name))?;
            references.insert(i, reference);
        }
    }
    let mut problems = Vec::new();
    let mut runs: Vec<Row> = plan
        .jobs
        .iter()
        .zip(records)
        .map(|(job, r)| {
            let name = &plan.stressmarks[job.stressmark].name;
            let label = format!("{name} {} {} tiles", job.design.name(), job.tiles);
            let label = match job.queue_flits {
                Some(q) => format!("{label} queue {q}"),
                None => label,
            };
            if r.exit_status != 0 {
                problems.push(format!(
                    "{label}: the run ended with `{}` (exit status {}){}",
                    r.end,
                    r.exit_status,
                    r.report
                        .as_deref()
                        .map(|t| format!(": {}", t.lines().next().unwrap_or("")))
                        .unwrap_or_default()
                ));
            }
            let check = match references.get(&job.stressmark) {
                Some(reference) if r.exit_status == 0 => match reference.check_output(&r.output) {
                    Ok(()) => "ok".to_string(),
                    Err(e) => {
                        problems.push(format!("{label}: {e}"));
                        e
                    }
                },
                _ => String::new(),
            };
            Row {
                stressmark: name.clone(),
                design: job.design,
                tiles: job.tiles,
                mesh: format!("{}x{}", job.mesh.0, job.mesh.1),
                queue_flits: job.queue_flits,
                cycles: r.timed_cycles.unwrap_or(r.total_cycles),
                total_cycles: r.total_cycles,
                timed_cycles: r.timed_cycles,
                instructions: r.instructions,
                messages: r.messages,
                flits: r.flits,
                end: r.end.clone(),
                exit_status: r.exit_status,
                wall_seconds: r.wall_seconds,
                speedup: None,
                improvement_percent: None,
                check,
                results: stressmarks::Printed::parse(&r.output)
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_vec()))
                    .collect(),
                breakdown: Breakdown::from_stats(&r.stats),
                energy: energy_columns(&r.stats),
                energy_improvement_percent: None,
            }
        })
        .collect();
    fill_speedups(&mut runs);
    let peaks = plan
        .stressmarks
        .iter()
        .map(|s| {
            // One tile passes no messages: no comparison of the designs.
            let best = runs
                .iter()
                .filter(|r| r.stressmark == s.name && r.tiles > 1)
                .filter_map(|r| r.improvement_percent.map(|p| (p, r.tiles)))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            Peak {
                stressmark: s.name.clone(),
                title: s.title.clone(),
                input: s.input.clone(),
                test_size: s.test_size,
                improvement_percent: best.map(|b| b.0),
                at_tiles: best.map(|b| b.1),
                thesis: s.thesis.clone(),
            }
        })
        .collect();
    Ok(Report {
        peaks,
        runs,
        problems,
    })
}

/// Speedups within each curve (stressmark, design, queue depth) and the
/// modified design's improvement over the original at equal tiles; only
/// good runs count.
fn fill_speedups(runs: &mut [Row]) {
    type Curve = (String, Design, Option<u32>);
    let mut base: HashMap<Curve, (u32, u64)> = HashMap::new();
    let mut original: HashMap<(String, u32), u64> = HashMap::new();
    let mut original_energy: HashMap<(String, u32), f64> = HashMap::new();
    for r in runs.iter().filter(|r| r.exit_status == 0) {
        let key = (r.stressmark.clone(), r.design, r.queue_flits);
        let entry = base.entry(key).or_insert((r.tiles, r.cycles));
        if r.tiles < entry.0 {
            *entry = (r.tiles, r.cycles);
        }
        if r.design == Design::Original && r.queue_flits.is_none() {
            original.insert((r.stressmark.clone(), r.tiles), r.cycles);
            if let Some(e) = r.energy {
                original_energy.insert((r.stressmark.clone(), r.tiles), e[4]);
            }
        }
    }
    for r in runs
        .iter_mut()
        .filter(|r| r.exit_status == 0 && r.cycles > 0)
    {
        let key = (r.stressmark.clone(), r.design, r.queue_flits);
        if let Some(&(tiles, cycles)) = base.get(&key) {
            r.speedup = Some(f64::from(tiles) * cycles as f64 / r.cycles as f64);
        }
        if r.design == Design::Modified
            && r.queue_flits.is_none()
            && let Some(&o) = original.get(&(r.stressmark.clone(), r.tiles))
        {
            r.improvement_percent = Some((o as f64 - r.cycles as f64) / o as f64 * 100.0);
        }
        if r.design == Design::Modified
            && r.queue_flits.is_none()
            && let (Some(&o), Some(e)) = (
                original_energy.get(&(r.stressmark.clone(), r.tiles)),
                r.energy,
            )
            && o > 0.0
        {
            r.energy_improvement_percent = Some((o - e[4]) / o * 100.0);
        }
    }
}

/// The energy columns of `sweep.csv` (joules; docs/energy.md).
const ENERGY_COLUMNS: [&str; 6] = [
    "energy_tiles_j",
    "energy_nius_j",
    "energy_routers_j",
    "energy_links_j",
    "energy_j",
    "energy_improvement_percent",
];

/// The energy of a run by part and in total, from its statistics.
fn energy_columns(stats: &serde_json::Value) -> Option<[f64; 5]> {
    let e = stats.get("energy")?;
    let part = |k: &str| e.get(k)?.get("total")?.as_f64();
    Some([
        part("tiles")?,
        part("nius")?,
        part("routers")?,
        part("links")?,
        e.get("total")?.as_f64()?,
    ])
}

/// Values of a printed result shown in the CSV before the count of the rest.
const CSV_VALUES: usize = 8;

impl Report {
    /// Writes `sweep.csv`, `sweep.json` and `improvements.md` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let io = |path: &Path, e: &dyn std::fmt::Display| {
            miette!("cannot write {}: {e}", path.display())
        };
        let path = dir.join("sweep.csv");
        let mut csv = csv::Writer::from_path(&path).map_err(|e| io(&path, &e))?;
        csv.write_record(
            [
                "stressmark",
                "design",
                "tiles",
                "mesh",
                "queue_flits",
                "cycles",
                "total_cycles",
                "timed_cycles",
                "instructions",
                "messages",
                "flits",
                "end",
                "exit_status",
                "wall_seconds",
                "speedup",
                "improvement_percent",
                "check",
                "results",
            ]
            .into_iter()
            .chain(PARTS.iter().chain(&NIU_WAITS).map(|(k, _)| *k))
            .chain(ENERGY_COLUMNS),
        )
        .map_err(|e| io(&path, &e))?;
        let opt = |v: Option<String>| v.unwrap_or_default();
        for r in &self.runs {
            csv.write_record(
                [
                    r.stressmark.clone(),
                    r.design.name().to_string(),
                    r.tiles.to_string(),
                    r.mesh.clone(),
                    opt(r.queue_flits.map(|q| q.to_string())),
                    r.cycles.to_string(),
                    r.total_cycles.to_string(),
                    opt(r.timed_cycles.map(|c| c.to_string())),
                    r.instructions.to_string(),
                    r.messages.to_string(),
                    r.flits.to_string(),
                    r.end.clone(),
                    r.exit_status.to_string(),
                    format!("{:.3}", r.wall_seconds),
                    opt(r.speedup.map(|s| format!("{s:.4}"))),
                    opt(r.improvement_percent.map(|p| format!("{p:.2}"))),
                    r.check.clone(),
                    results_summary(&r.results),
                ]
                .into_iter()
                .chain(breakdown_cells(r.breakdown.as_ref()))
                .chain((0..5).map(|i| opt(r.energy.map(|e| format!("{:.6e}", e[i])))))
                .chain([opt(r.energy_improvement_percent.map(|p| format!("{p:.2}")))]),
            )
            .map_err(|e| io(&path, &e))?;
        }
        csv.flush().map_err(|e| io(&path, &e))?;
        let path = dir.join("sweep.json");
        let json = serde_json::to_string_pretty(self).expect("a report serializes");
        std::fs::write(&path, json + "\n").map_err(|e| io(&path, &e))?;
        let path = dir.join("improvements.md");
        std::fs::write(&path, self.improvements_markdown()).map_err(|e| io(&path, &e))?;
        Ok(())
    }

    /// The peak improvements next to the thesis's, as a Markdown table,
    /// each with the input it ran (marked when that is the spec's test
    /// size, which the thesis's figures are not for).
    pub fn improvements_markdown(&self) -> String {
        let mut s = String::new();
        if self.peaks.iter().any(|p| p.test_size) {
            s.push_str(
                "Inputs marked *test size* are the spec's small test inputs, not the thesis's: \
                 their improvements are not comparable with the thesis's figures.\n\n",
            );
        }
        s.push_str(
            "| stressmark | input | peak improvement | at tiles | thesis | at nodes | thesis figure | energy improvement at those tiles |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        for p in &self.peaks {
            let (ours, at) = match (p.improvement_percent, p.at_tiles) {
                (Some(v), Some(t)) => (format!("{v:.2}%"), t.to_string()),
                _ => ("-".into(), "-".into()),
            };
            let (thesis, thesis_at, figure) = match &p.thesis {
                Some(t) => (
                    format!("{:.2}%", t.improvement_percent),
                    t.at_tiles.to_string(),
                    t.figure.clone(),
                ),
                None => ("-".into(), "-".into(), "-".into()),
            };
            let input = if p.test_size {
                format!("{} (*test size*)", p.input)
            } else {
                p.input.clone()
            };
            // The energy saving of the modified design at the peak's tiles.
            let energy = p
                .at_tiles
                .and_then(|t| {
                    self.runs.iter().find(|r| {
                        r.stressmark == p.stressmark
                            && r.design == Design::Modified
                            && r.queue_flits.is_none()
                            && r.tiles == t
                    })
                })
                .and_then(|r| r.energy_improvement_percent)
                .map_or("-".to_string(), |v| format!("{v:.2}%"));
            let _ = writeln!(
                s,
                "| {} | {input} | {ours} | {at} | {thesis} | {thesis_at} | {figure} | {energy} |",
                p.stressmark
            );
        }
        s
    }

    /// The tables for the terminal: each stressmark's cycles and speedups
    /// per tile count, then the peak improvements.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let mut names: Vec<&str> = self.runs.iter().map(|r| r.stressmark.as_str()).collect();
        names.dedup();
        for name in names {
            let _ = writeln!(
                s,
                "{name}: cycles (speedup)\n{:>6}  {:>22}  {:>22}  {:>11}",
                "tiles", "original", "modified", "improvement"
            );
            let main = |design: Design| {
                self.runs
                    .iter()
                    .filter(move |r| r.stressmark == name && r.design == design)
                    .filter(|r| r.queue_flits.is_none())
            };
            for o in main(Design::Original) {
                let m = main(Design::Modified).find(|m| m.tiles == o.tiles);
                let cell = |r: Option<&Row>| match r {
                    Some(r) if r.exit_status == 0 => {
                        format!("{} ({:.2})", r.cycles, r.speedup.unwrap_or(f64::NAN))
                    }
                    Some(r) => format!("failed: {}", r.end),
                    None => "-".into(),
                };
                let improvement = m
                    .and_then(|m| m.improvement_percent)
                    .map(|p| format!("{p:.2}%"))
                    .unwrap_or_else(|| "-".into());
                let _ = writeln!(
                    s,
                    "{:>6}  {:>22}  {:>22}  {improvement:>11}",
                    o.tiles,
                    cell(Some(o)),
                    cell(m)
                );
            }
            s.push('\n');
        }
        s.push_str(
            "Peak runtime improvement of send-and-receive (modified) over active messages (original):\n",
        );
        s.push_str(&self.improvements_markdown());
        s
    }
}

/// A run's breakdown as CSV cells (cycles per tile, rounded), empty
/// without one.
fn breakdown_cells(b: Option<&Breakdown>) -> Vec<String> {
    match b {
        Some(b) => b
            .parts
            .iter()
            .chain(&b.niu_waits)
            .map(|v| format!("{v:.0}"))
            .collect(),
        None => vec![String::new(); PARTS.len() + NIU_WAITS.len()],
    }
}

/// The printed results in one CSV cell: `name v1 v2 ... (N values)`,
/// joined by `; `.
fn results_summary(results: &BTreeMap<String, Vec<String>>) -> String {
    let parts: Vec<String> = results
        .iter()
        .map(|(k, v)| {
            let shown = v[..v.len().min(CSV_VALUES)].join(" ");
            if v.len() > CSV_VALUES {
                format!("{k} {shown} ... ({} values)", v.len())
            } else {
                format!("{k} {shown}")
            }
        })
        .collect();
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::plan::{Job, PlannedStressmark};

    fn record(tiles: u32, cycles: u64, output: String) -> RunRecord {
        RunRecord {
            scmp: "scmp test".into(),
            inputs: Vec::new(),
            mesh_width: tiles,
            mesh_height: 1,
            niu: "original".into(),
            queue_flits: 16,
            defsyms: Vec::new(),
            settings: Vec::new(),
            profile: None,
            end: "exit".into(),
            exit_status: 0,
            report: None,
            total_cycles: cycles + 100,
            timed_cycles: Some(cycles),
            instructions: 1,
            messages: 0,
            flits: 0,
            output,
            wall_seconds: 0.0,
            stats: serde_json::Value::Null,
        }
    }

    /// `--check` compares each run's printed results with the model's.
    #[test]
    fn checked_runs_say_ok_or_list_their_differences() {
        let size = stressmarks::Model::Transitive.test_size();
        let want = stressmarks::transitive::reference(
            &<stressmarks::transitive::TransitiveParams as stressmarks::Params>::with(&size)
                .unwrap(),
        );
        let join = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        let good = format!(
            "row_sums {}\ncol_sums {}\ntimed_cycles 1000\n",
            join(&want.row_sums),
            join(&want.col_sums)
        );
        let bad = good.replacen("col_sums ", "col_sums 7", 1);
        let plan = Plan {
            format: super::super::plan::PLAN_FORMAT,
            stressmarks: vec![PlannedStressmark {
                name: "transitive".into(),
                title: "Transitive".into(),
                input: "40 vertices".into(),
                test_size: true,
                variant: "lean".into(),
                model: Some("transitive".into()),
                defsyms: size,
                symbol_prefix: "TC_".into(),
                symbols: Vec::new(),
                thesis: None,
            }],
            jobs: [
                (Design::Original, 1),
                (Design::Original, 4),
                (Design::Modified, 1),
                (Design::Modified, 4),
            ]
            .into_iter()
            .map(|(design, tiles)| Job {
                stressmark: 0,
                design,
                tiles,
                mesh: (tiles, 1),
                queue_flits: None,
                output: String::new(),
                args: Vec::new(),
            })
            .collect(),
        };
        let records = [
            record(1, 1000, good.clone()),
            record(4, 400, good.clone()),
            record(1, 1000, good.clone()),
            record(4, 300, bad),
        ];
        let report = build(&plan, &records, true).unwrap();
        let checks: Vec<&str> = report.runs.iter().map(|r| r.check.as_str()).collect();
        assert_eq!(checks[..3], ["ok", "ok", "ok"]);
        assert!(
            checks[3].starts_with("transitive: 1 difference"),
            "{}",
            checks[3]
        );
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        assert!(report.problems[0].starts_with("transitive modified 4 tiles: "));
        // The timed cycles count: 1000/400 and 1000/300.
        assert_eq!(report.runs[1].speedup, Some(2.5));
        assert_eq!(report.runs[3].improvement_percent, Some(25.0));
        assert_eq!(report.peaks[0].improvement_percent, Some(25.0));
        assert_eq!(report.peaks[0].at_tiles, Some(4));
        let unchecked = build(&plan, &records, false).unwrap();
        assert!(unchecked.problems.is_empty() && unchecked.runs[3].check.is_empty());
    }
}
