//! `scmp run --json FILE`: a run's result as one JSON object, for scripts
//! and for `scmp sweep`, which keeps the same record of each of its runs
//! whether it ran them itself or a job list ran `scmp run --json`.

use std::io::Write;
use std::time::Instant;

use emu::{Config, Console, NullConsole, RunEnd, RunResult, Stream};
use miette::{Result, miette};
use serde::{Deserialize, Serialize};

use crate::setup::RunArgs;

/// One run: how it ran, how it ended, what it cost and printed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The `scmp` that ran it (`--version`'s first line).
    pub scmp: String,
    /// The program: an ELF or the sources assembled.
    pub inputs: Vec<String>,
    /// Mesh width.
    pub mesh_width: u32,
    /// Mesh height.
    pub mesh_height: u32,
    /// NIU design, `original` or `modified`.
    pub niu: String,
    /// Transmission queue depth, flits (`niu.queue_flits`).
    pub queue_flits: u32,
    /// `--defsym`s given on the command line.
    pub defsyms: Vec<String>,
    /// `--set`s given on the command line.
    pub settings: Vec<String>,
    /// `--profile` given on the command line.
    #[serde(default)]
    pub profile: Option<String>,
    /// How the run ended: `exit`, `all_threads_ended`, `fault`,
    /// `cycle_limit`, `deadlock` or `interrupted` (SIGINT, SIGTERM).
    pub end: String,
    /// `scmp run`'s exit status.
    pub exit_status: u8,
    /// The fault's, deadlock's or interruption's report.
    pub report: Option<String>,
    /// The cycle the run ended.
    pub total_cycles: u64,
    /// The timed region's cycles, as the program printed them
    /// (`timed_cycles N`, see `stressmarks::printed`).
    pub timed_cycles: Option<u64>,
    /// Instructions retired on all tiles.
    pub instructions: u64,
    /// Messages sent, of every type.
    pub messages: u64,
    /// Flits injected into the network.
    pub flits: u64,
    /// The program's standard output.
    pub output: String,
    /// Host seconds the simulation took.
    pub wall_seconds: f64,
    /// The statistics of `--stats=json`.
    pub stats: serde_json::Value,
}

impl RunRecord {
    /// The record of a finished run.
    pub fn new(
        args: &RunArgs,
        config: &Config,
        result: &RunResult,
        output: String,
        wall_seconds: f64,
    ) -> RunRecord {
        let (end, report) = match &result.end {
            RunEnd::AllThreadsEnded => ("all_threads_ended", None),
            RunEnd::Exit(_) => ("exit", None),
            RunEnd::Fault(r) => ("fault", Some(r.to_string())),
            RunEnd::CycleLimit(_) => ("cycle_limit", None),
            RunEnd::Deadlock(r) => ("deadlock", Some(r.to_string())),
            RunEnd::Interrupted(r) => ("interrupted", Some(r.to_string())),
        };
        let network = &result.stats.network;
        let timed_cycles = stressmarks::Printed::parse(&output)
            .int(stressmarks::printed::TIMED_CYCLES)
            .ok()
            // print_int prints 32 bits signed.
            .map(|v| if v < 0 { v + (1 << 32) } else { v } as u64);
        RunRecord {
            scmp: format!(
                "scmp {} (commit {})",
                env!("CARGO_PKG_VERSION"),
                env!("SCMP_COMMIT")
            ),
            inputs: args
                .inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            mesh_width: config.mesh.width,
            mesh_height: config.mesh.height,
            niu: format!("{:?}", config.niu.design).to_lowercase(),
            queue_flits: config.niu.queue_flits,
            defsyms: args.defsyms.clone(),
            settings: args.config.set.clone(),
            profile: args.config.profile.clone(),
            end: end.to_string(),
            exit_status: crate::setup::exit_status(&result.end),
            report,
            total_cycles: result.stats.total_cycles,
            timed_cycles,
            instructions: result.stats.instructions,
            messages: network.types.iter().map(|t| t.messages_sent).sum(),
            flits: network.flits,
            output,
            wall_seconds,
            stats: serde_json::to_value(&result.stats).expect("statistics serialize"),
        }
    }

    /// Writes the record, pretty-printed.
    pub fn write(&self, mut out: impl Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut out, self)?;
        out.write_all(b"\n")?;
        out.flush()
    }
}

/// A console that passes output on and keeps a copy of standard output.
pub struct Tee<C> {
    inner: C,
    captured: Option<Vec<u8>>,
}

impl<C: Console> Tee<C> {
    /// Passes output to `inner`, keeping standard output when `capture`.
    pub fn new(inner: C, capture: bool) -> Tee<C> {
        Tee {
            inner,
            captured: capture.then(Vec::new),
        }
    }

    /// The standard output kept (empty when not capturing).
    pub fn into_captured(self) -> String {
        String::from_utf8_lossy(&self.captured.unwrap_or_default()).into_owned()
    }
}

impl<C: Console> Console for Tee<C> {
    fn write(&mut self, stream: Stream, bytes: &[u8]) {
        self.inner.write(stream, bytes);
        if let (Stream::Stdout, Some(kept)) = (stream, &mut self.captured) {
            kept.extend_from_slice(bytes);
        }
    }
}

/// Runs `args` as `scmp run ... --json` would, in this process and quietly
/// (the program's output goes to the record only, standard input is empty):
/// the sweep's runs. `--json` itself, tracing, timelines and GDB are not
/// for this path.
pub fn record_run(args: &RunArgs) -> Result<RunRecord> {
    if args.trace.is_some() || args.timeline.is_some() || args.gdb.is_some() {
        return Err(miette!(
            "a recorded run takes no --trace, --timeline or --gdb"
        ));
    }
    let (mut config, header) = crate::setup::configure(args)?;
    // A record holds the run's statistics, with its energy: the tiles'
    // part needs their instructions counted.
    config.energy.enabled = true;
    let program = crate::setup::load_program(args, &header)?;
    let (options, environment) = crate::setup::run_setup(args, Box::new(std::io::empty()))?;
    let mut console = Tee::new(NullConsole, true);
    let started = Instant::now();
    let result = emu::with_host_environment(environment, || {
        emu::run(&config, &program, options, &mut console)
    })
    .map_err(|e| miette!("{e}"))?;
    let wall_seconds = started.elapsed().as_secs_f64();
    Ok(RunRecord::new(
        args,
        &config,
        &result,
        console.into_captured(),
        wall_seconds,
    ))
}
