//! `scmp stressmark`: one stressmark of the built-in table on one mesh, in
//! both designs side by side, each checked against the reference model —
//! the thesis's comparison at a glance (the sweep runs the whole curve).

use std::process::ExitCode;
use std::time::Instant;

use miette::{Result, miette};

use super::plan::{self, Design, Settings};
use super::{RunOptions, SweepSpec, execute, report};

/// Arguments of `scmp stressmark`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  scmp stressmark                          # Transitive Closure on 8x8, both designs
  scmp stressmark transitive --tiles 16    # on 4x4
  scmp stressmark transitive --test-size   # the spec's small test size
  scmp sweep --list                        # the stressmarks")]
pub struct StressmarkArgs {
    /// A stressmark of the built-in table (`scmp sweep --list`).
    #[arg(value_name = "STRESSMARK", default_value = "transitive")]
    pub name: String,
    /// Tiles: the most square mesh W x H with W >= H (64: 8x8).
    #[arg(long, value_name = "N", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub tiles: u32,
    /// Define a program parameter, `NAME=VALUE` (repeatable).
    #[arg(long = "defsym", value_name = "NAME=VALUE")]
    pub defsyms: Vec<String>,
    /// How both runs are made.
    #[command(flatten)]
    pub run: RunOptions,
}

/// Runs `scmp stressmark`.
pub fn stressmark(args: StressmarkArgs) -> ExitCode {
    crate::run::command_status(inner(args))
}

fn inner(args: StressmarkArgs) -> Result<ExitCode> {
    if args.name == "all" {
        return Err(miette!(
            "name one stressmark (`scmp sweep all` runs them all)"
        ));
    }
    let as_sweep = SweepSpec {
        stressmarks: vec![args.name.clone()],
        tiles: vec![args.tiles],
        defsyms: args.defsyms.clone(),
        ..SweepSpec::default()
    };
    let mut sources = super::select(&as_sweep, &args.run)?;
    let dir = std::env::temp_dir().join(format!("scmp-stressmark-{}", std::process::id()));
    // A C row's programs are compiled into the run's directory.
    if let Err(e) = super::compile::compile_c(&mut sources, &dir, args.run.profile.as_deref()) {
        let _ = std::fs::remove_dir_all(&dir);
        return Err(e);
    }
    let settings = Settings {
        tiles: vec![args.tiles],
        queue_depths: Vec::new(),
        settings: args.run.settings.clone(),
        profile: args.run.profile.clone(),
        max_cycles: args.run.max_cycles,
    };
    let plan = plan::plan(&sources, &settings);
    if let Err(e) = execute::preflight(&plan) {
        let _ = std::fs::remove_dir_all(&dir);
        return Err(e);
    }
    let started = Instant::now();
    let at_once = execute::runs_at_once(&plan, 2)?;
    let records = execute::run_all(&plan, &dir, at_once);
    let _ = std::fs::remove_dir_all(&dir);
    let records = records?;
    let wall = started.elapsed().as_secs_f64();
    let report = report::build(&plan, &records, true)?;
    let s = &plan.stressmarks[0];
    print_comparison(&args, s, &report);
    println!(
        "  ({wall:.1} s on this host; `scmp sweep {}` runs 1..64 tiles)",
        s.name
    );
    for p in &report.problems {
        eprintln!("error: {p}");
    }
    Ok(if report.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The two runs side by side: each design's cycles and check, then the
/// modified design's printed results and its improvement.
fn print_comparison(args: &StressmarkArgs, s: &plan::PlannedStressmark, report: &report::Report) {
    let (w, h) = plan::mesh_shape(args.tiles);
    let size = if args.run.test_size {
        " (the spec's test size)"
    } else {
        ""
    };
    let profile = args
        .run
        .profile
        .as_deref()
        .map(|p| format!(", profile {p}"))
        .unwrap_or_default();
    println!(
        "{}, {}{size}, on the {w}x{h} mesh ({} tiles{profile}):",
        s.title, s.input, args.tiles
    );
    for design in Design::BOTH {
        let Some(r) = report.runs.iter().find(|r| r.design == design) else {
            continue;
        };
        let what = match design {
            Design::Original => "original NIU, active messages:  ",
            Design::Modified => "modified NIU, send-and-receive: ",
        };
        if r.exit_status != 0 {
            println!("  {what}failed: {}", r.end);
            continue;
        }
        let check = if r.check == "ok" {
            "results match the reference model".to_string()
        } else {
            format!("results DIFFER from the reference model: {}", r.check)
        };
        println!(
            "  {what}{:>13} cycles ({} messages), {check}",
            group(r.cycles),
            group(r.messages)
        );
    }
    if let Some(m) = report
        .runs
        .iter()
        .find(|r| r.design == Design::Modified && r.exit_status == 0)
    {
        print_results(s, m);
    }
}

/// The modified design's printed results (the first six values of each)
/// and its improvement over the original, next to the thesis's.
fn print_results(s: &plan::PlannedStressmark, m: &report::Row) {
    for (name, values) in &m.results {
        if name == "timed_cycles" {
            continue;
        }
        let shown: Vec<&str> = values.iter().take(6).map(String::as_str).collect();
        let more = if values.len() > 6 {
            format!(" ... ({} values)", values.len())
        } else {
            String::new()
        };
        println!("  {name}: {}{more}", shown.join(" "));
    }
    if let Some(p) = m.improvement_percent {
        // The catalog row's input (the thesis's, where it states one).
        let row_input = stressmarks::catalog::find(&s.name).and_then(|e| {
            let own: Vec<(String, i64)> =
                e.defsyms.iter().map(|(n, v)| (n.to_string(), *v)).collect();
            e.model.and_then(|m| m.describe(&own).ok())
        });
        let whose = match row_input {
            Some(i) if i != s.input => format!("the thesis, at its own input of {i}"),
            _ => "the thesis".to_string(),
        };
        let thesis = s
            .thesis
            .as_ref()
            .map(|t| {
                format!(
                    " ({whose}: {}% at {} nodes, {})",
                    t.improvement_percent, t.at_tiles, t.figure
                )
            })
            .unwrap_or_default();
        let (amount, direction) = if p >= 0.0 { (p, "fewer") } else { (-p, "more") };
        println!("  send-and-receive takes {amount:.2}% {direction} cycles{thesis}");
    }
}

/// `1234567` as `1,234,567`.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
