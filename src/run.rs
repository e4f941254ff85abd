//! `scmp run` and `scmp config`: command-line front of the emulator (`emu`):
//! the outputs a run writes (trace, statistics, timeline, `--json`), the
//! report of how it ended, and the exit status (see `crate::setup` for what
//! a run is made of).
//!
//! Exit status of `scmp run`: the program's own (`exit` code, or 0 when every
//! thread ended); 134 after a guest fault; 124 when the cycle limit was
//! reached; 125 after a deadlock; 130 when SIGINT or SIGTERM stopped it
//! (`crate::watch`); 2 for a bad command line, configuration, program or
//! assembly.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use emu::snapshot::RunHeader;
use emu::{Config, ConfigBuilder, RunEnd, StdConsole, TraceFilter, TraceOptions, TraceSink};
use miette::{IntoDiagnostic, Result, WrapErr, miette};

use crate::setup::{
    ConfigArgs, EXIT_KILLED, EXIT_USAGE, RunArgs, StatsFormat, build_config, configure,
    exit_status, load_program, run_setup,
};

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

fn run_inner(args: RunArgs) -> Result<ExitCode> {
    let (config, header) = configure(&args)?;
    // Every output is opened before the run, so a bad path is found now.
    let (mut stats_file, json_file) = output_files(&args)?;
    let program = load_program(&args, &header)?;
    let dumps = dump_ranges(&args.dump, &program, config.tile.memory_bytes)?;
    let trace = trace_options(&args, &header)?;
    if let Some(t) = &trace {
        check_trace_filter(&t.filter, &config)?;
    }
    let (timeline, timeline_error) = timeline_file(&args)?;
    let (mut options, environment) = run_setup(&args, Box::new(std::io::stdin()))?;
    options.trace = trace;
    options.timeline = timeline;
    options.dump = dumps.iter().map(|(_, addr, len)| (*addr, *len)).collect();
    let stop = watch(&args, &mut options)?;
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
    let dump_text = dump_text(&dumps, &result.dumps);
    if !dump_text.is_empty() {
        crate::output::stdout(&dump_text);
    }
    if let Some(format) = args.stats {
        write_stats(format, &result, &mut stats_file, args.stats_file.as_deref())?;
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
    report_end(&config, &result, stop.as_ref());
    Ok(ExitCode::from(exit_status(&result.end)))
}

/// The statistics file (`--stats-file`, which needs `--stats`) and the
/// JSON record (`--json`), created.
#[allow(clippy::type_complexity)]
fn output_files(args: &RunArgs) -> Result<(Option<File>, Option<(&std::path::PathBuf, File)>)> {
    let stats_file = match (&args.stats_file, args.stats) {
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
    Ok((stats_file, json_file))
}

/// The timeline's options (`--timeline`), its file created, and where a
/// write error is kept (checked after the run).
#[allow(clippy::type_complexity)]
fn timeline_file(
    args: &RunArgs,
) -> Result<(
    Option<emu::timeline::TimelineOptions>,
    Option<(
        std::path::PathBuf,
        std::rc::Rc<std::cell::RefCell<Option<std::io::Error>>>,
    )>,
)> {
    let Some(path) = &args.timeline else {
        return Ok((None, None));
    };
    let file = File::create(path)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create the timeline file {}", path.display()))?;
    let writer = ErrorKeeping::new(BufWriter::new(file));
    let error = writer.error.clone();
    let options = emu::timeline::TimelineOptions {
        out: Box::new(writer),
        bucket_cycles: args.timeline_bucket,
    };
    Ok((Some(options), Some((path.clone(), error))))
}

/// SIGINT and SIGTERM caught and the progress line, unless GDB serves the
/// run (it has its own Ctrl-C).
fn watch(args: &RunArgs, options: &mut emu::RunOptions) -> Result<Option<crate::watch::Stop>> {
    if args.gdb.is_some() {
        return Ok(None);
    }
    let stop = crate::watch::Stop::install()
        .into_diagnostic()
        .wrap_err("cannot catch SIGINT and SIGTERM")?;
    options.monitor = Some(Box::new(crate::watch::Watch::new(
        stop.clone(),
        crate::watch::progress_wanted(args.quiet, args.progress),
    )));
    Ok(Some(stop))
}

/// `--dump`'s text: each range's words on every tile.
fn dump_text(dumps: &[(String, u32, u32)], contents: &[Vec<Vec<u8>>]) -> String {
    let mut text = String::new();
    for ((name, addr, len), tiles) in dumps.iter().zip(contents) {
        text.push_str(&format!("dump {name} ({len} bytes at {addr:#010x}):\n"));
        for (tile, bytes) in tiles.iter().enumerate() {
            let words: Vec<String> = bytes
                .chunks(4)
                .map(|c| match c.try_into() {
                    Ok(w) => format!("{:08x}", u32::from_le_bytes(w)),
                    Err(_) => c.iter().map(|b| format!("{b:02x}")).collect(),
                })
                .collect();
            text.push_str(&format!("tile {tile}: {}\n", words.join(" ")));
        }
    }
    text
}

/// `--stats`: to the statistics file, else to standard error.
fn write_stats(
    format: StatsFormat,
    result: &emu::RunResult,
    file: &mut Option<File>,
    path: Option<&std::path::Path>,
) -> Result<()> {
    let text = match format {
        StatsFormat::Text => {
            let mut text = result.stats.to_text();
            if let Some(e) = &result.stats.energy {
                text.push_str(&e.to_text());
            }
            text
        }
        StatsFormat::Json => result.stats.to_json() + "\n",
    };
    match (file, path) {
        (Some(file), Some(path)) => file
            .write_all(text.as_bytes())
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot write {}", path.display()))?,
        _ => eprint!("{text}"),
    }
    Ok(())
}

/// How the run ended, on standard error (a fault's report, the cycle
/// limit, a deadlock, an interrupt).
fn report_end(config: &Config, result: &emu::RunResult, stop: Option<&crate::watch::Stop>) {
    match &result.end {
        RunEnd::Fault(report) => eprint!("{report}"),
        RunEnd::CycleLimit(limit) => {
            eprintln!(
                "error: the cycle limit of {limit} cycles was reached with threads still running (raise it with --max-cycles or sim.max_cycles)"
            );
            let never = result
                .stats
                .tiles
                .iter()
                .filter(|t| t.contexts.iter().all(|c| c.threads == 0))
                .count();
            if let Some(note) = emu::machine::boot_note(config, never) {
                eprintln!("note: {note}");
            }
        }
        RunEnd::Deadlock(report) => eprint!("error: {report}"),
        RunEnd::Interrupted(report) => {
            let signal = stop
                .and_then(crate::watch::Stop::signal)
                .map_or("a signal", crate::watch::signal_name);
            eprint!("{report}");
            eprintln!(
                "scmp: stopped by {signal} at cycle {}; every output file is complete up to it",
                report.cycle
            );
        }
        RunEnd::AllThreadsEnded | RunEnd::Exit(_) => {}
    }
}

/// `--dump SYMBOL[:BYTES]`: (what, address, bytes), checked against the
/// program's symbols and the tile's memory.
fn dump_ranges(
    specs: &[String],
    program: &emu::Program,
    memory: u64,
) -> Result<Vec<(String, u32, u32)>> {
    specs
        .iter()
        .map(|spec| {
            let (name, bytes) = match spec.split_once(':') {
                Some((n, b)) => {
                    let b = emu::snapshot::parse_int(b.trim())
                        .filter(|&b| b > 0 && b <= u32::MAX as i64)
                        .ok_or_else(|| miette!("--dump {spec}: `{b}` is not a positive byte count"))?;
                    (n, Some(b as u32))
                }
                None => (spec.as_str(), None),
            };
            let symbol = program.symbol(name).ok_or_else(|| {
                miette!("--dump {spec}: the program has no symbol `{name}` (a label of its code or data)")
            })?;
            let len = bytes.unwrap_or(if symbol.size > 0 { symbol.size } else { 4 });
            if symbol.addr as u64 + len as u64 > memory {
                return Err(miette!(
                    "--dump {spec}: {len} bytes at {:#010x} go past the tile's {memory} bytes of memory",
                    symbol.addr
                ));
            }
            Ok((name.to_string(), symbol.addr, len))
        })
        .collect()
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
        ("host_threads", config.sim.host_threads.to_string()),
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
    command_status(build_config(&args, &[], "", &[]).map(|config| {
        crate::output::stdout(&config.to_documented_toml());
        ExitCode::SUCCESS
    }))
}

/// Prints an error as one `error:` line, its causes after colons.
fn print_error(report: &miette::Report) {
    let causes: Vec<String> = report.chain().map(|e| e.to_string()).collect();
    eprintln!("error: {}", causes.join(": "));
}
