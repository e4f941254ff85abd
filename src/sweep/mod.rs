//! `scmp sweep`: the thesis's chapter-6 experiment. A stressmark runs over
//! 1..64 tiles in both designs (the active-messages program on the original
//! NIU, the send-and-receive one on the modified NIU), optionally over
//! transmission-queue depths; the sweep writes CSV, JSON, SVG plots and the
//! peak improvements next to the thesis's. The runs go on this host's
//! cores, or into a job list for GNU parallel or a Slurm array whose
//! outputs `--merge` turns into the same tables.
//!
//! Files in the output directory: `plan.json` (the runs), `runs/*.json`
//! (each run's `scmp run --json` record), `sweep.csv` and `sweep.json`
//! (every run: cycles, speedup, improvement, instructions, messages, flits,
//! printed results, check), `improvements.md`, `NAME-speedup.svg` and
//! `NAME-queue-depth.svg`.

mod breakdown;
mod calibrate;
mod compile;
mod execute;
mod options;
mod plan;
mod plots;
mod report;
mod single;

pub use calibrate::{CalibrateArgs, calibrate};
pub use options::{BatchOptions, RunOptions};
pub use single::{StressmarkArgs, stressmark};

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use miette::{Result, miette};
use stressmarks::catalog::{self, CATALOG, Variant};

use plan::{Plan, PlannedStressmark, Settings, Source, ThesisPeak};

/// Arguments of `scmp sweep`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  scmp sweep transitive                    # both designs on 1..64 tiles, here
  scmp sweep neighborhood-11 --queue-depths # and Figure 6.1's queue depths
  scmp sweep all --test-size --check       # every stressmark, small, results checked
  scmp sweep all --jobs jobs.txt --out ch6 # a job list: one `scmp run` a line
  parallel --jobs 8 < jobs.txt             # (or --sshlogin; or a Slurm array:
                                           #  sed -n \"${SLURM_ARRAY_TASK_ID}p\" jobs.txt | sh)
  scmp sweep --merge ch6                   # then the same tables and plots")]
pub struct SweepArgs {
    /// What the sweep runs and where it writes.
    #[command(flatten)]
    pub spec: SweepSpec,
    /// Run nothing: build the tables and plots in DIR from DIR/plan.json
    /// and the records its job list wrote.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["SweepSpec", "RunOptions"])]
    pub merge: Option<PathBuf>,
    /// How every run is made.
    #[command(flatten)]
    pub run: RunOptions,
    /// How the runs are carried out.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// What `scmp sweep` runs and where it writes: every option of its own
/// but `--merge`, none of which goes with `--merge` (which conflicts with
/// this group as a whole; clap names the group after the struct).
#[derive(clap::Args, Debug, Default)]
pub struct SweepSpec {
    /// Stressmarks of the built-in table (`--list`), or `all` (every
    /// stressmark of the thesis).
    #[arg(value_name = "STRESSMARK")]
    pub stressmarks: Vec<String>,
    /// List the built-in stressmarks and exit.
    #[arg(long)]
    pub list: bool,
    /// Your own program: the original design's sources (comma-separated).
    #[arg(
        long,
        value_name = "FILES",
        value_delimiter = ',',
        requires = "modified"
    )]
    pub original: Vec<PathBuf>,
    /// Your own program: the modified design's sources (comma-separated).
    #[arg(
        long,
        value_name = "FILES",
        value_delimiter = ',',
        requires = "original"
    )]
    pub modified: Vec<PathBuf>,
    /// Your own program's name in tables and file names.
    #[arg(long, value_name = "NAME", default_value = "program")]
    pub name: String,
    /// Tile counts; each runs on the most square mesh W x H with W >= H.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "1,2,4,8,16,32,64"
    )]
    pub tiles: Vec<u32>,
    /// Also run the modified design at these transmission queue depths
    /// (flits; `niu.queue_flits`), the experiment of the thesis's Figure
    /// 6.1 (alone: 2,4,8,16,32,64,128).
    #[arg(long, value_name = "LIST", value_delimiter = ',', num_args = 0..=1, default_missing_value = "2,4,8,16,32,64,128")]
    pub queue_depths: Option<Vec<u32>>,
    /// Define a program parameter for both designs, `NAME=VALUE` (repeatable).
    #[arg(long = "defsym", value_name = "NAME=VALUE")]
    pub defsyms: Vec<String>,
    /// Which programs `all` runs: `lean` (ours), `literal` (as the thesis
    /// describes them, rows NAME-literal) or `c` (in C, compiled with `scmp
    /// cc -O2`, rows NAME-c) [default: the profile's, else lean].
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// Output directory.
    #[arg(long, value_name = "DIR", default_value = "sweep")]
    pub out: PathBuf,
}

/// `--variant`'s value.
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s).ok_or_else(|| format!("`{s}` is not lean, literal or c"))
}

/// Runs `scmp sweep`.
pub fn sweep(args: SweepArgs) -> ExitCode {
    crate::run::command_status(sweep_inner(args))
}

fn sweep_inner(args: SweepArgs) -> Result<ExitCode> {
    if args.spec.list {
        for e in CATALOG {
            let thesis = e
                .thesis
                .map(|t| {
                    format!(
                        "thesis: {}% at {} nodes, {}",
                        t.improvement_percent, t.at_tiles, t.figure
                    )
                })
                .unwrap_or_else(|| "not in the thesis".into());
            let input = e
                .model
                .and_then(|m| {
                    let own: Vec<(String, i64)> =
                        e.defsyms.iter().map(|(n, v)| (n.to_string(), *v)).collect();
                    m.describe(&own).ok()
                })
                .map(|i| format!(", {i}"))
                .unwrap_or_default();
            println!("{:<26} {}{input} ({thesis})", e.name, e.title);
        }
        println!("profiles (--profile):");
        for name in crate::profile::names() {
            let p = crate::profile::load(name)?;
            println!("  {name:<24} {}", p.description);
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = &args.merge {
        let plan = Plan::read(dir)?;
        let records = execute::read_all(&plan, dir)?;
        return finish(&plan, &records, dir, args.batch.check);
    }
    let mut sources = select(&args.spec, &args.run)?;
    if args.spec.tiles.contains(&0) {
        return Err(miette!("--tiles: a mesh has at least one tile"));
    }
    let settings = Settings {
        tiles: args.spec.tiles.clone(),
        queue_depths: args.spec.queue_depths.clone().unwrap_or_default(),
        settings: args.run.settings.clone(),
        profile: args.run.profile.clone(),
        max_cycles: args.run.max_cycles,
    };
    let out = std::path::absolute(&args.spec.out)
        .map_err(|e| miette!("--out {}: {e}", args.spec.out.display()))?;
    compile::compile_c(&mut sources, &out, args.run.profile.as_deref())?;
    let plan = plan::plan(&sources, &settings);
    execute::preflight(&plan)?;
    std::fs::create_dir_all(out.join("runs"))
        .map_err(|e| miette!("cannot create {}: {e}", out.join("runs").display()))?;
    plan.write(&out)?;
    let Some(ran) = execute::carry_out(&plan, &out, &args.batch, "sweep")? else {
        return Ok(ExitCode::SUCCESS);
    };
    let code = finish(&plan, &ran.records, &out, args.batch.check)?;
    let (threads, wall) = (ran.threads, ran.wall_seconds);
    let simulated: f64 = ran.records.iter().map(|r| r.wall_seconds).sum();
    println!(
        "{} runs on {threads} threads in {wall:.2} s; the simulations took {simulated:.2} s in all ({:.2} s per thread), the rest (assembly, records, waiting for the last runs) {:.2} s",
        ran.records.len(),
        simulated / threads as f64,
        (wall - simulated / threads as f64).max(0.0)
    );
    Ok(code)
}

/// The stressmarks named on the command line, and a program of one's own.
fn select(spec: &SweepSpec, run: &RunOptions) -> Result<Vec<Source>> {
    let user_defsyms = parse_defsyms(&spec.defsyms, "--defsym")?;
    let symbols = parse_defsyms(&run.symbols, "--symbol")?;
    let profile = run
        .profile
        .as_deref()
        .map(crate::profile::load)
        .transpose()?;
    let variant = spec
        .variant
        .or(profile.as_ref().and_then(|p| p.variant))
        .unwrap_or(Variant::Lean);
    let mut entries = Vec::new();
    for name in &spec.stressmarks {
        if name == "all" {
            entries.extend(catalog::thesis_rows(variant));
        } else {
            let known: Vec<&str> = CATALOG.iter().map(|e| e.name).collect();
            let entry = catalog::find(name).ok_or_else(|| {
                miette!("no stressmark `{name}` (known: all, {})", known.join(", "))
            })?;
            // A stressmark named runs as named; say so when the profile
            // describes another version of its programs.
            if let Some(want) = profile.as_ref().and_then(|p| p.variant)
                && entry.variant != want
                && let Some(other) = CATALOG
                    .iter()
                    .find(|o| o.variant == want && o.thesis.is_some() && o.thesis == entry.thesis)
            {
                eprintln!(
                    "note: `{name}` runs its {} programs as named; the profile's are the {} ones: `{}`",
                    entry.variant.name(),
                    want.name(),
                    other.name
                );
            }
            entries.push(entry);
        }
    }
    let mut sources = Vec::new();
    for e in entries {
        // The profile's parameters, then the test size, the row's own and
        // the command line's: a later one wins.
        let mut defsyms = match (&profile, e.model) {
            (Some(p), Some(m)) => p.parameters_of(m.name()),
            _ => Vec::new(),
        };
        if let (true, Some(m)) = (run.test_size, e.model) {
            merge_defsyms(&mut defsyms, m.test_size().into_iter());
        }
        let own = e.defsyms.iter().map(|(n, v)| (n.to_string(), *v));
        merge_defsyms(&mut defsyms, own.chain(user_defsyms.iter().cloned()));
        let input = match e.model {
            Some(m) => m
                .describe(&defsyms)
                .map_err(|err| miette!("{}: {err}", e.name))?,
            None => String::new(),
        };
        let resolve = |paths: &[&str]| -> Result<Vec<PathBuf>> {
            paths
                .iter()
                .map(|p| {
                    plan::resolve(Path::new(p), run.root.as_deref())
                        .map_err(|err| miette!("stressmark `{}` cannot run yet: {err}", e.name))
                })
                .collect()
        };
        sources.push(Source {
            planned: PlannedStressmark {
                name: e.name.to_string(),
                title: e.title.to_string(),
                input,
                test_size: run.test_size,
                variant: e.variant.name().to_string(),
                model: e.model.map(|m| m.name().to_string()),
                defsyms,
                symbol_prefix: e.symbol_prefix.to_string(),
                symbols: symbols.clone(),
                thesis: e.thesis.map(|t| ThesisPeak {
                    figure: t.figure.to_string(),
                    improvement_percent: t.improvement_percent,
                    at_tiles: t.at_tiles,
                }),
            },
            original: resolve(e.original)?,
            modified: resolve(e.modified)?,
            settings: Vec::new(),
            profile: None,
        });
    }
    if !spec.original.is_empty() {
        sources.push(own_program(spec, &user_defsyms, &symbols)?);
    }
    if sources.is_empty() {
        return Err(miette!(
            "name a stressmark (`scmp sweep --list`) or give --original and --modified sources"
        ));
    }
    let mut names: Vec<&str> = sources.iter().map(|s| s.planned.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(miette!("`{}` is named twice", w[0]));
    }
    Ok(sources)
}

/// `--defsym` or `--symbol` (`option`) `NAME=VALUE`s as pairs.
fn parse_defsyms(defsyms: &[String], option: &str) -> Result<Vec<(String, i64)>> {
    defsyms
        .iter()
        .map(|d| {
            let (name, value) = d
                .split_once('=')
                .ok_or_else(|| miette!("{option} {d}: expected NAME=VALUE"))?;
            let value = emu::snapshot::parse_int(value.trim())
                .ok_or_else(|| miette!("{option} {d}: `{value}` is not an integer"))?;
            Ok((name.trim().to_string(), value))
        })
        .collect()
}

/// Your own program (`--original`, `--modified`, `--name`), with the
/// command line's parameters.
fn own_program(
    spec: &SweepSpec,
    user_defsyms: &[(String, i64)],
    symbols: &[(String, i64)],
) -> Result<Source> {
    let absolute = |paths: &[PathBuf]| -> Result<Vec<PathBuf>> {
        paths
            .iter()
            .map(|p| {
                if !p.is_file() {
                    return Err(miette!("{} does not exist", p.display()));
                }
                std::path::absolute(p).map_err(|e| miette!("{}: {e}", p.display()))
            })
            .collect()
    };
    let mut defsyms = Vec::new();
    merge_defsyms(&mut defsyms, user_defsyms.iter().cloned());
    Ok(Source {
        planned: PlannedStressmark {
            name: spec.name.clone(),
            title: spec.name.clone(),
            input: String::new(),
            test_size: false,
            variant: Variant::Lean.name().to_string(),
            model: None,
            defsyms,
            symbol_prefix: String::new(),
            symbols: symbols.to_vec(),
            thesis: None,
        },
        original: absolute(&spec.original)?,
        modified: absolute(&spec.modified)?,
        settings: Vec::new(),
        profile: None,
    })
}

/// Adds `more` to `defsyms`, a later value of a name replacing the earlier.
fn merge_defsyms(defsyms: &mut Vec<(String, i64)>, more: impl Iterator<Item = (String, i64)>) {
    for (name, value) in more {
        match defsyms.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => defsyms.push((name, value)),
        }
    }
}

/// Tables, plots and the printed summary; exit status 1 when a run failed
/// or its results differ from the model.
fn finish(
    plan: &Plan,
    records: &[crate::record::RunRecord],
    dir: &Path,
    check: bool,
) -> Result<ExitCode> {
    let report = report::build(plan, records, check)?;
    report.write(dir)?;
    let plots = plots::write(&report, dir)?;
    print!("{}", report.text());
    let names: Vec<String> = ["sweep.csv", "sweep.json", "improvements.md"]
        .iter()
        .map(|f| dir.join(f))
        .chain(plots)
        .map(|p| p.display().to_string())
        .collect();
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
