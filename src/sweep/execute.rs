//! Carrying out a plan as `BatchOptions` say, for `scmp sweep` and `scmp
//! calibrate` alike: on this host (one emulator run per job, spread over a
//! pool of threads (rayon, FIFO), with a progress bar (indicatif), each
//! record written to `DIR/runs/` as its run ends), or as a job list to run
//! elsewhere; and reading those records back for `--merge`.

use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use miette::{Result, miette};

use super::BatchOptions;
use super::plan::{self, Design, Job, Plan};
use crate::record::{RunRecord, record_run};

/// The runs of a plan carried out on this host.
pub struct Ran {
    /// Every job's record, in plan order.
    pub records: Vec<RunRecord>,
    /// Runs at once.
    pub threads: usize,
    /// Host seconds from the first run's start to the last one's end.
    pub wall_seconds: f64,
}

/// Carries out `plan`, whose records go to `DIR/runs/`, as `batch` says.
/// With `--jobs FILE`: writes the job list, says how to run it and to
/// merge its records (`scmp COMMAND --merge DIR`), and returns `None`.
/// Else runs every job here on `--threads` threads (by default as many as
/// [`runs_at_once`] says).
pub fn carry_out(
    plan: &Plan,
    dir: &Path,
    batch: &BatchOptions,
    command: &str,
) -> Result<Option<Ran>> {
    if let Some(file) = &batch.jobs {
        let scmp = match &batch.scmp {
            Some(path) => path.clone(),
            None => {
                std::env::current_exe().map_err(|e| miette!("cannot find this executable: {e}"))?
            }
        };
        write_jobs(plan, dir, &scmp, file)?;
        println!(
            "{} runs in {file}; run them (e.g. `parallel < {file}`), then `scmp {command} --merge {}`",
            plan.jobs.len(),
            dir.display(),
            file = file.display(),
        );
        return Ok(None);
    }
    let threads = match batch.threads {
        Some(n) => n as usize,
        None => runs_at_once(plan, usize::MAX)?,
    };
    let started = Instant::now();
    let records = run_all(plan, dir, threads)?;
    Ok(Some(Ran {
        records,
        threads,
        wall_seconds: started.elapsed().as_secs_f64(),
    }))
}

/// Writes the job list: `SCMP run ... --json DIR/runs/OUTPUT`, absolute
/// paths, one a line.
fn write_jobs(plan: &Plan, dir: &Path, scmp: &Path, file: &Path) -> Result<()> {
    let mut text = String::new();
    for job in &plan.jobs {
        let out = dir.join("runs").join(&job.output);
        let words = std::iter::once(scmp.display().to_string())
            .chain(job.args.iter().cloned())
            .chain(["--json".to_string(), out.display().to_string()]);
        let line: Vec<String> = words.map(|w| plan::shell_quote(&w)).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    std::fs::write(file, text).map_err(|e| miette!("cannot write {}: {e}", file.display()))
}

/// A job's arguments as `scmp run` parses them.
fn run_args(job: &Job) -> Result<crate::setup::RunArgs> {
    crate::jobs::parse_run_args(&job.args).map_err(|e| miette!("a planned run does not parse: {e}"))
}

/// Assembles each stressmark's program for each design once, before any
/// run, so that an error is reported once (not by every run).
pub fn preflight(plan: &Plan) -> Result<()> {
    let mut seen: Vec<(usize, Design)> = Vec::new();
    for job in &plan.jobs {
        if seen.contains(&(job.stressmark, job.design)) {
            continue;
        }
        seen.push((job.stressmark, job.design));
        let args = run_args(job)?;
        let (_, header) = crate::setup::configure(&args)?;
        crate::setup::load_program(&args, &header).map_err(|e| {
            miette!(
                "{} ({} design): {e}",
                plan.stressmarks[job.stressmark].name,
                job.design.name()
            )
        })?;
    }
    Ok(())
}

/// How many runs go at once on this host, at most `limit`: as many as its
/// cores when each run is simulated on one thread (the default), fewer
/// when the runs' `sim.host_threads` asks for several each, so that the
/// runs and their threads together do not ask for more cores than there
/// are (0 host threads, one per core: one run at a time).
pub fn runs_at_once(plan: &Plan, limit: usize) -> Result<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut per_run = 1;
    for job in &plan.jobs {
        let (config, _) = crate::setup::configure(&run_args(job)?)?;
        per_run = per_run.max(match config.sim.host_threads {
            0 => cores,
            n => n as usize,
        });
    }
    Ok((cores / per_run).clamp(1, limit.max(1)))
}

/// Runs every job on `threads` host threads; the records come back in plan
/// order. The runs on the most tiles start first: they take the longest
/// (the network's simulation grows with the mesh: Transitive Closure's
/// default size runs 2 s on one tile, 20 s on 64), and the short ones then
/// fill the threads up to the end.
pub fn run_all(plan: &Plan, dir: &Path, threads: usize) -> Result<Vec<RunRecord>> {
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).map_err(|e| miette!("cannot create {}: {e}", runs.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(emu::machine::SIM_THREAD_STACK)
        .build()
        .map_err(|e| miette!("cannot start {threads} threads: {e}"))?;
    let bar = ProgressBar::new(plan.jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} runs  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let mut order: Vec<usize> = (0..plan.jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(plan.jobs[i].tiles));
    let results: Mutex<Vec<Option<Result<RunRecord>>>> =
        Mutex::new((0..plan.jobs.len()).map(|_| None).collect());
    // FIFO: the threads take the runs strictly in `order`.
    pool.scope_fifo(|scope| {
        for &i in &order {
            let (runs, bar, results) = (&runs, &bar, &results);
            scope.spawn_fifo(move |_| {
                let job = &plan.jobs[i];
                let record = run_args(job)
                    .and_then(|args| record_run(&args))
                    .and_then(|r| {
                        let path = runs.join(&job.output);
                        let file = std::fs::File::create(&path)
                            .map_err(|e| miette!("cannot create {}: {e}", path.display()))?;
                        r.write(std::io::BufWriter::new(file))
                            .map_err(|e| miette!("cannot write {}: {e}", path.display()))?;
                        Ok(r)
                    });
                bar.set_message(job.output.trim_end_matches(".json").to_string());
                bar.inc(1);
                results.lock().expect("no run panics holding the lock")[i] = Some(record);
            });
        }
    });
    bar.finish_and_clear();
    let results = results
        .into_inner()
        .expect("no run panics holding the lock");
    results
        .into_iter()
        .zip(&plan.jobs)
        .map(|(r, job)| {
            r.expect("every job ran")
                .map_err(|e| miette!("{}: {e}", job.output))
        })
        .collect()
}

/// The records a job list wrote into `DIR/runs/`, in plan order; missing
/// or unreadable ones are an error naming them.
pub fn read_all(plan: &Plan, dir: &Path) -> Result<Vec<RunRecord>> {
    let mut records = Vec::new();
    let mut missing = Vec::new();
    for job in &plan.jobs {
        let path = dir.join("runs").join(&job.output);
        match std::fs::read_to_string(&path) {
            Ok(text) if !text.trim().is_empty() => {
                let r: RunRecord = serde_json::from_str(&text)
                    .map_err(|e| miette!("{} is not a run record: {e}", path.display()))?;
                records.push(r);
            }
            // An empty file: `scmp run` created it and did not finish.
            Ok(_) | Err(_) => missing.push(path.display().to_string()),
        }
    }
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(5).map(String::as_str).collect();
        return Err(miette!(
            "{} of {} runs have no record yet (run the job list first): {}{}",
            missing.len(),
            plan.jobs.len(),
            shown.join(", "),
            if missing.len() > shown.len() {
                ", ..."
            } else {
                ""
            }
        ));
    }
    Ok(records)
}
