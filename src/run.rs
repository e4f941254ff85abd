//! `scmp run` and `scmp config`: command-line front of the emulator (`emu`).
//!
//! Exit status of `scmp run`: the program's own (`exit` code, or 0 when every
//! thread ended); 134 after a guest fault; 124 when the cycle limit was
//! reached; 2 for a bad command line, configuration, program or assembly.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use emu::snapshot::RunHeader;
use emu::{
    Config, ConfigBuilder, Program, RunEnd, RunOptions, StdConsole, TraceFilter, TraceOptions,
    TraceSink,
};
use miette::{IntoDiagnostic, Result, WrapErr, miette};

/// Exit status after a guest fault.
pub const EXIT_FAULT: u8 = 134;
/// Exit status when the cycle limit was reached.
pub const EXIT_CYCLE_LIMIT: u8 = 124;
/// Exit status for errors before the program runs.
pub const EXIT_USAGE: u8 = 2;
/// Exit status after a deadlock (every thread waits, the network cannot move).
pub const EXIT_DEADLOCK: u8 = 125;
/// Exit status when the debugger killed the run (as SIGKILL would).
pub const EXIT_KILLED: u8 = 137;

/// Configuration options shared by `scmp run` and `scmp config`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfigArgs {
    /// A shipped machine profile (`functional`: every instruction one
    /// cycle; see docs/chapter6.md), applied before the program's `# run:`
    /// line, the configuration file and `--set`.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// A TOML configuration file (keys as printed by `scmp config`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Override one key, e.g. `--set scheduler.quantum=32` (repeatable).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    pub set: Vec<String>,
    /// Mesh size, e.g. `4x2` (sets mesh.width and mesh.height).
    #[arg(long, value_name = "WxH")]
    pub mesh: Option<String>,
}

/// Output format of the statistics.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsFormat {
    /// A table.
    Text,
    /// JSON.
    Json,
}

/// The NIU organization.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NiuArg {
    /// Active messages (thesis chapter 3).
    Original,
    /// Send-and-receive (thesis chapter 5).
    Modified,
}

/// Which tiles start a thread at the entry point.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BootArg {
    /// Tile 0 only.
    First,
    /// Every tile.
    All,
}

/// Arguments of `scmp run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// An ELF executable, or assembly sources (`.s`, `.S`, `.asm`) assembled
    /// first. Without one, the built-in example (programs/spmd.s) runs on
    /// every tile of the mesh.
    #[arg(value_name = "PROGRAM")]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Which tiles start context 0 at the entry point (sets boot.tiles).
    #[arg(long)]
    pub boot: Option<BootArg>,
    /// Start contexts 0..N-1 of every booted tile (sets boot.threads).
    #[arg(long, value_name = "N")]
    pub threads: Option<u32>,
    /// Stop with exit status 124 when a tile reaches this cycle (sets sim.max_cycles).
    #[arg(long, value_name = "CYCLES")]
    pub max_cycles: Option<u64>,
    /// Trace every retired instruction, to FILE or (without one) to stderr.
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true, default_missing_value = "-")]
    pub trace: Option<PathBuf>,
    /// Trace only these tiles, e.g. `0,2-3`.
    #[arg(long, value_name = "LIST")]
    pub trace_tiles: Option<String>,
    /// Trace only these contexts, e.g. `0-1`.
    #[arg(long, value_name = "LIST")]
    pub trace_contexts: Option<String>,
    /// Trace only instructions issued in this cycle window, e.g. `100..200`.
    #[arg(long, value_name = "A..B")]
    pub trace_cycles: Option<String>,
    /// Kinds of trace records: `inst`, `net` (flits), `niu` (tables,
    /// threads, wake-ups), comma-separated, or `all` (the default).
    #[arg(long, value_name = "KINDS")]
    pub trace_events: Option<String>,
    /// NIU organization: `original` (active messages) or `modified`
    /// (send-and-receive) (sets niu.design).
    #[arg(long, value_name = "DESIGN")]
    pub niu: Option<NiuArg>,
    /// Run tiles and network in lockstep, one cycle at a time: slow, and the
    /// same results (the reference the fast synchronization is tested against).
    #[arg(long)]
    pub lockstep: bool,
    /// Print end-of-run statistics to stderr (or --stats-file).
    #[arg(long, value_name = "FORMAT", num_args = 0..=1, require_equals = true, default_missing_value = "text")]
    pub stats: Option<StatsFormat>,
    /// Write the statistics to FILE instead of stderr.
    #[arg(long, value_name = "FILE")]
    pub stats_file: Option<PathBuf>,
    /// Also write the run's result to FILE as one JSON object: how it ran
    /// (inputs, mesh, NIU, defsyms, settings), how it ended (end, exit
    /// status, report), total cycles, `timed_cycles` when the program
    /// printed it, instructions, messages, flits, the program's standard
    /// output, the host's wall seconds and the statistics.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Do not prefix output lines with `[tN cM]` (done when several threads start).
    #[arg(long)]
    pub raw_output: bool,
    /// Include directory for `.include` when assembling (repeatable).
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Define a symbol when assembling, `NAME=VALUE` (repeatable).
    #[arg(long = "defsym", value_name = "NAME=VALUE")]
    pub defsyms: Vec<String>,
    /// Define a preprocessor macro for `.S` sources: NAME or NAME=VALUE (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// Write a timeline of the run to FILE (Chrome trace event JSON, for
    /// the Perfetto UI or chrome://tracing): tiles as processes, contexts
    /// as threads with their states, messages as arrows, link utilization.
    #[arg(long, value_name = "FILE")]
    pub timeline: Option<PathBuf>,
    /// Cycles per link-utilization sample of the timeline.
    #[arg(long, value_name = "CYCLES", default_value_t = 100, requires = "timeline", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeline_bucket: u64,
    /// Serve the GDB remote protocol on 127.0.0.1:PORT (0: a free port,
    /// printed) for one tile, whose contexts are GDB's threads; the run
    /// waits for GDB, and runs in lockstep.
    #[arg(long, value_name = "PORT")]
    pub gdb: Option<u16>,
    /// The tile GDB debugs.
    #[arg(long, value_name = "TILE", default_value_t = 0, requires = "gdb")]
    pub gdb_tile: u32,
    /// Arguments for the program, after `--` (its command line through
    /// semihosting's SYS_GET_CMDLINE, joined by spaces).
    #[arg(last = true, value_name = "ARGS")]
    pub program_args: Vec<String>,
}

/// The configuration: the embedded defaults, then the profile, `header` (a
/// program's `# run:` line), the configuration file, `--mesh`, `--set` and
/// `extra` (the other flags): a later source wins.
fn build_config(args: &ConfigArgs, header: &[String], extra: &[String]) -> Result<Config> {
    let mut builder = ConfigBuilder::new();
    if let Some(name) = &args.profile {
        let profile = crate::profile::load(name)?;
        builder
            .file(&profile.machine, &format!("profile {name}"))
            .map_err(|e| miette!("{e}"))?;
    }
    for assignment in header {
        builder
            .set(assignment)
            .map_err(|e| miette!("the program's `# run:` line: {e}"))?;
    }
    if let Some(path) = &args.config {
        let text = std::fs::read_to_string(path)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot read the configuration file {}", path.display()))?;
        builder
            .file(&text, &path.display().to_string())
            .map_err(|e| miette!("{e}"))?;
    }
    if let Some(mesh) = &args.mesh {
        let (w, h) = mesh
            .split_once(['x', 'X'])
            .ok_or_else(|| miette!("--mesh {mesh}: expected WIDTHxHEIGHT, e.g. 8x8"))?;
        for (key, v) in [("mesh.width", w), ("mesh.height", h)] {
            let n: u32 = v
                .trim()
                .parse()
                .map_err(|_| miette!("--mesh {mesh}: `{v}` is not a number"))?;
            builder
                .set(&format!("{key}={n}"))
                .map_err(|e| miette!("{e}"))?;
        }
    }
    for assignment in args.set.iter().chain(extra) {
        builder.set(assignment).map_err(|e| miette!("{e}"))?;
    }
    builder.build().map_err(|e| miette!("{e}"))
}

/// Whether `path` names an assembly source.
pub fn is_assembly(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("s" | "S" | "asm")
    )
}

/// The program `scmp run` runs when given none.
const BUILT_IN_NAME: &str = "programs/spmd.s";
const BUILT_IN_SOURCE: &str = include_str!("../programs/spmd.s");

/// Assembles sources (`.s`, `.S`, `.asm`) into a program; the assembler's
/// diagnostics go to stderr, the error counts them.
pub fn assemble_program(
    inputs: &[PathBuf],
    include_dirs: &[PathBuf],
    defines: &[String],
    defsyms: Vec<(String, i64)>,
) -> Result<Program> {
    let options = asm::Options {
        include_dirs: include_dirs.to_vec(),
        defsyms,
        ..asm::Options::default()
    };
    let sources = crate::preprocess::read_sources(inputs, include_dirs, defines)
        .map_err(|errors| miette!("{}", errors.join("\nerror: ")))?;
    let output = asm::assemble_sources(&sources, &options).map_err(|d| {
        eprint!(
            "{}",
            d.render(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        );
        let n = d.error_count();
        miette!(
            "assembly failed with {n} error{}",
            if n == 1 { "" } else { "s" }
        )
    })?;
    Program::from_elf(&output.elf).map_err(|e| miette!("{e}"))
}

pub fn load_program(args: &RunArgs, header: &RunHeader) -> Result<Program> {
    if args.inputs.is_empty() {
        let sources = [(
            format!("{BUILT_IN_NAME} (built in)"),
            BUILT_IN_SOURCE.to_string(),
        )];
        let output = asm::assemble_sources(&sources, &asm::Options::default())
            .map_err(|d| miette!("the built-in example does not assemble:\n{d}"))?;
        return Program::from_elf(&output.elf).map_err(|e| miette!("{e}"));
    }
    if args.inputs.iter().all(|p| is_assembly(p)) {
        let mut defsyms = header.defsyms.clone();
        for d in &args.defsyms {
            let (name, value) = d
                .split_once('=')
                .ok_or_else(|| miette!("--defsym {d}: expected NAME=VALUE"))?;
            let value = emu::snapshot::parse_int(value.trim())
                .ok_or_else(|| miette!("--defsym {d}: `{value}` is not an integer"))?;
            defsyms.push((name.trim().to_string(), value));
        }
        return assemble_program(&args.inputs, &args.include_dirs, &args.defines, defsyms);
    }
    let [path] = args.inputs.as_slice() else {
        // `--trace FILE`: clap takes FILE for a program (the file goes
        // after `=`, since `--trace` alone traces to stderr).
        let raw: Vec<String> = std::env::args().collect();
        if let Some(w) = raw.windows(2).find(|w| {
            w[0] == "--trace" && args.inputs.iter().any(|p| p.as_os_str() == w[1].as_str())
        }) {
            return Err(miette!(
                "`--trace {0}`: the trace file goes after `=` (`--trace={0}`); without it, `{0}` was taken for a program to run",
                w[1]
            ));
        }
        let names: Vec<String> = args
            .inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        return Err(miette!(
            "give one ELF executable, or only assembly sources (.s, .S, .asm); got {}",
            names.join(", ")
        ));
    };
    let bytes = std::fs::read(path)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot read {}", path.display()))?;
    Program::from_elf(&bytes).map_err(|e| miette!("{}: {e}", path.display()))
}

/// Tracing as the flags ask, the program's `# run:` filters where a flag
/// does not say.
fn trace_options(args: &RunArgs, header: &RunHeader) -> Result<Option<TraceOptions>> {
    let Some(path) = &args.trace else {
        if args.trace_tiles.is_some()
            || args.trace_contexts.is_some()
            || args.trace_cycles.is_some()
            || args.trace_events.is_some()
        {
            return Err(miette!(
                "--trace-tiles/--trace-contexts/--trace-cycles/--trace-events need --trace"
            ));
        }
        return Ok(None);
    };
    let list = |text: &Option<String>, flag: &str| -> Result<_> {
        text.as_deref()
            .map(TraceFilter::parse_list)
            .transpose()
            .map_err(|e| miette!("{flag}: {e}"))
    };
    let from_header = &header.trace;
    let filter = TraceFilter {
        tiles: list(&args.trace_tiles, "--trace-tiles")?.or(from_header.tiles.clone()),
        contexts: list(&args.trace_contexts, "--trace-contexts")?.or(from_header.contexts.clone()),
        cycles: args
            .trace_cycles
            .as_deref()
            .map(TraceFilter::parse_cycles)
            .transpose()
            .map_err(|e| miette!("--trace-cycles: {e}"))?
            .or(from_header.cycles.clone()),
        kinds: args
            .trace_events
            .as_deref()
            .map(emu::trace::TraceKinds::parse)
            .transpose()
            .map_err(|e| miette!("--trace-events: {e}"))?
            .or(from_header.kinds),
    };
    let mut writer: Box<dyn Write> = if path.as_os_str() == "-" {
        Box::new(std::io::stderr())
    } else {
        let file = File::create(path)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot create the trace file {}", path.display()))?;
        Box::new(BufWriter::new(file))
    };
    writeln!(writer, "{}", emu::trace::TRACE_HEADER)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot write the trace file {}", path.display()))?;
    Ok(Some(TraceOptions {
        filter,
        sink: TraceSink::Writer(writer),
    }))
}

/// What a program's `# run:` line asks for (see [`RunHeader`]), from the
/// first assembly source given. The built-in example runs on every tile of
/// the configured mesh (8x8 by default).
fn run_header(args: &RunArgs) -> Result<RunHeader> {
    let path = match args.inputs.first() {
        None => {
            return Ok(RunHeader {
                assignments: vec!["boot.tiles=all".to_string()],
                ..RunHeader::default()
            });
        }
        Some(path) if is_assembly(path) => path,
        Some(_) => return Ok(RunHeader::default()),
    };
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        // The assembler reports the unreadable file.
        Err(_) => return Ok(RunHeader::default()),
    };
    RunHeader::parse(&text).map_err(|e| miette!("{}: {e}", path.display()))
}

/// Checks that the trace filters name tiles and contexts the machine has.
fn check_trace_filter(filter: &TraceFilter, config: &Config) -> Result<()> {
    let checks = [
        (
            &filter.tiles,
            config.tiles(),
            "--trace-tiles",
            "tiles",
            "the mesh",
        ),
        (
            &filter.contexts,
            config.tile.contexts,
            "--trace-contexts",
            "contexts",
            "a tile",
        ),
    ];
    for (ranges, count, flag, what, of) in checks {
        if let Some(r) = ranges.iter().flatten().find(|r| r.end > count) {
            return Err(miette!(
                "{flag}: {} is beyond the {count} {what} of {of} (numbered 0..{})",
                r.end - 1,
                count - 1
            ));
        }
    }
    Ok(())
}

/// The configuration `args` ask for: the embedded defaults, the program's
/// `# run:` line (returned too: it also holds defsyms and trace filters),
/// the configuration file, `--mesh`, `--set` and the other flags.
pub fn configure(args: &RunArgs) -> Result<(Config, RunHeader)> {
    let mut extra = Vec::new();
    if let Some(boot) = args.boot {
        extra.push(format!(
            "boot.tiles={}",
            if boot == BootArg::All { "all" } else { "first" }
        ));
    }
    if let Some(n) = args.threads {
        extra.push(format!("boot.threads={n}"));
    }
    if let Some(n) = args.max_cycles {
        extra.push(format!("sim.max_cycles={n}"));
    }
    if let Some(design) = args.niu {
        extra.push(format!(
            "niu.design={}",
            if design == NiuArg::Original {
                "original"
            } else {
                "modified"
            }
        ));
    }
    let header = run_header(args)?;
    let config = build_config(&args.config, &header.assignments, &extra)?;
    Ok((config, header))
}

/// The run options `args` ask for (no trace or timeline yet) and the host
/// environment the program sees, reading `input` as its standard input.
pub fn run_setup(
    args: &RunArgs,
    input: Box<dyn std::io::Read>,
) -> (RunOptions, emu::HostEnvironment) {
    let options = RunOptions {
        raw_output: args.raw_output,
        fault_trace_lines: 8,
        lockstep: args.lockstep,
        ..RunOptions::default()
    };
    // The arguments only: picolibc's crt0 names the program itself
    // (argv[0] = "program-name") and splits the line at spaces.
    let environment = emu::HostEnvironment {
        command_line: args.program_args.join(" "),
        input,
    };
    (options, environment)
}

/// The exit status of `scmp run` after a run that ended so.
pub fn exit_status(end: &RunEnd) -> u8 {
    match end {
        RunEnd::AllThreadsEnded => 0,
        RunEnd::Exit(code) => *code as u8,
        RunEnd::Fault(_) => EXIT_FAULT,
        RunEnd::CycleLimit(_) => EXIT_CYCLE_LIMIT,
        RunEnd::Deadlock(_) => EXIT_DEADLOCK,
    }
}

fn run_inner(args: RunArgs) -> Result<ExitCode> {
    let (config, header) = configure(&args)?;
    // Every output is opened before the run, so a bad path is found now.
    let mut stats_file = match (&args.stats_file, args.stats) {
        (Some(_), None) => return Err(miette!("--stats-file needs --stats (text or json)")),
        (Some(path), Some(_)) => {
            Some(File::create(path).into_diagnostic().wrap_err_with(|| {
                format!("cannot create the statistics file {}", path.display())
            })?)
        }
        (None, _) => None,
    };
    let json_file = match &args.json {
        Some(path) => Some((
            path,
            File::create(path)
                .into_diagnostic()
                .wrap_err_with(|| format!("cannot create the JSON file {}", path.display()))?,
        )),
        None => None,
    };
    let program = load_program(&args, &header)?;
    let trace = trace_options(&args, &header)?;
    if let Some(t) = &trace {
        check_trace_filter(&t.filter, &config)?;
    }
    let (timeline, timeline_error) = match &args.timeline {
        None => (None, None),
        Some(path) => {
            let file = File::create(path)
                .into_diagnostic()
                .wrap_err_with(|| format!("cannot create the timeline file {}", path.display()))?;
            let writer = ErrorKeeping::new(BufWriter::new(file));
            let error = writer.error.clone();
            let options = emu::timeline::TimelineOptions {
                out: Box::new(writer),
                bucket_cycles: args.timeline_bucket,
            };
            (Some(options), Some((path.clone(), error)))
        }
    };
    let (mut options, environment) = run_setup(&args, Box::new(std::io::stdin()));
    options.trace = trace;
    options.timeline = timeline;
    let started = std::time::Instant::now();
    let mut console = crate::record::Tee::new(StdConsole, json_file.is_some());
    let result = emu::with_host_environment(environment, || match args.gdb {
        Some(port) => crate::gdb::serve(&config, &program, options, port, args.gdb_tile),
        None => emu::run(&config, &program, options, &mut console)
            .map(|r| crate::gdb::Outcome::Ended(Box::new(r)))
            .map_err(|e| miette!("{e}")),
    })?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let result = match result {
        crate::gdb::Outcome::Ended(result) => result,
        crate::gdb::Outcome::Killed => {
            eprintln!("scmp: the debugger killed the run");
            return Ok(ExitCode::from(EXIT_KILLED));
        }
    };
    if let Some((path, error)) = timeline_error
        && let Some(e) = error.borrow_mut().take()
    {
        return Err(miette!(
            "cannot write the timeline file {}: {e}",
            path.display()
        ));
    }
    if let Some(format) = args.stats {
        let text = match format {
            StatsFormat::Text => result.stats.to_text(),
            StatsFormat::Json => result.stats.to_json() + "\n",
        };
        match (&mut stats_file, &args.stats_file) {
            (Some(file), Some(path)) => file
                .write_all(text.as_bytes())
                .into_diagnostic()
                .wrap_err_with(|| format!("cannot write {}", path.display()))?,
            _ => eprint!("{text}"),
        }
    }
    if let Some((path, file)) = json_file {
        let record = crate::record::RunRecord::new(
            &args,
            &config,
            &result,
            console.into_captured(),
            wall_seconds,
        );
        record
            .write(file)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot write {}", path.display()))?;
    }
    match &result.end {
        RunEnd::Fault(report) => eprint!("{report}"),
        RunEnd::CycleLimit(limit) => eprintln!(
            "error: the cycle limit of {limit} cycles was reached with threads still running (raise it with --max-cycles or sim.max_cycles)"
        ),
        RunEnd::Deadlock(report) => eprint!("error: {report}"),
        RunEnd::AllThreadsEnded | RunEnd::Exit(_) => {}
    }
    Ok(ExitCode::from(exit_status(&result.end)))
}

/// A writer that keeps its first error for the caller to report after the
/// run (the machine does not stop a run for its outputs).
struct ErrorKeeping<W> {
    inner: W,
    error: std::rc::Rc<std::cell::RefCell<Option<std::io::Error>>>,
}

impl<W: Write> ErrorKeeping<W> {
    fn new(inner: W) -> Self {
        ErrorKeeping {
            inner,
            error: Default::default(),
        }
    }

    fn keep<T>(&mut self, r: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(e) = &r {
            self.error
                .borrow_mut()
                .get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        }
        r
    }
}

impl<W: Write> Write for ErrorKeeping<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let r = self.inner.write(buf);
        self.keep(r)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let r = self.inner.flush();
        self.keep(r)
    }
}

/// `cli` with the embedded configuration's value shown as the default of
/// each `scmp run` flag that sets a configuration key (the flags have no
/// clap default: an absent flag leaves the key to the configuration file
/// and `--set`).
pub fn with_defaults_in_help(cli: clap::Command) -> clap::Command {
    let Ok(config) = ConfigBuilder::new().build() else {
        return cli;
    };
    let boot = format!("{:?}", config.boot.tiles).to_lowercase();
    let defaults = [
        (
            "mesh",
            format!("{}x{}", config.mesh.width, config.mesh.height),
        ),
        ("boot", format!("{boot}, or the program's `# run:` line")),
        ("threads", config.boot.threads.to_string()),
        ("max_cycles", config.sim.max_cycles.to_string()),
        ("stats", "off; `--stats` alone: text".to_string()),
        ("trace", "off; `--trace` alone: stderr".to_string()),
    ];
    cli.mut_subcommand("run", |mut run| {
        for (id, value) in &defaults {
            run = run.mut_arg(*id, |arg| {
                let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                arg.help(format!("{help} [default: {value}]"))
            });
        }
        run
    })
}

/// Runs `scmp run`.
pub fn run(args: RunArgs) -> ExitCode {
    command_status(run_inner(args))
}

/// The exit status of a command's result: an error is one `error:` line
/// naming its causes, and the bad-input status.
pub fn command_status(result: miette::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(report) => {
            print_error(&report);
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Runs `scmp config`: prints the effective configuration as commented TOML.
pub fn config(args: ConfigArgs) -> ExitCode {
    command_status(build_config(&args, &[], &[]).map(|config| {
        crate::output::stdout(&config.to_documented_toml());
        ExitCode::SUCCESS
    }))
}

/// Prints an error as one `error:` line, its causes after colons.
fn print_error(report: &miette::Report) {
    let causes: Vec<String> = report.chain().map(|e| e.to_string()).collect();
    eprintln!("error: {}", causes.join(": "));
}
