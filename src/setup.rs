//! What a run of `scmp run` is made of, shared by the command itself, its
//! `--json` record (`crate::record`) and the sweep's in-process runs: the
//! command line's arguments, the configuration they ask for (embedded
//! defaults, the program's `# run:` line, files, flags), the program
//! (assembled or loaded), the run options and host environment, and the
//! exit status of each way a run ends.

use std::path::{Path, PathBuf};

use emu::snapshot::RunHeader;
use emu::{Config, ConfigBuilder, Program, RunEnd, RunOptions};
use miette::{IntoDiagnostic, Result, WrapErr, miette};

/// Exit status after a guest fault.
pub const EXIT_FAULT: u8 = 134;
/// Exit status when the cycle limit was reached.
pub const EXIT_CYCLE_LIMIT: u8 = 124;
/// Exit status for errors before the program runs.
pub const EXIT_USAGE: u8 = 2;
/// Exit status after a deadlock (every thread waits, the network cannot move).
pub const EXIT_DEADLOCK: u8 = 125;
/// Exit status after SIGINT or SIGTERM stopped the run (as a shell reports
/// a process that Ctrl-C ended).
pub const EXIT_INTERRUPTED: u8 = 130;
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
    // A value starting with `-` (`-1x2`) is this flag's value, refused
    // below as not a size, not clap's "use `-- -1`" (wrong for `run`).
    #[arg(long, value_name = "WxH", allow_hyphen_values = true)]
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
    /// Host threads that run the tiles (sets sim.host_threads; 0: one per
    /// host core). The results are the same whatever the number.
    #[arg(long, value_name = "N")]
    pub host_threads: Option<u32>,
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
    /// At the end of the run, print the memory at SYMBOL on every tile to
    /// stdout (BYTES, default the symbol's size or 4), as 32-bit words in
    /// hex, a line a tile (repeatable): results for tests, as Spike's
    /// signature.
    #[arg(long, value_name = "SYMBOL[:BYTES]")]
    pub dump: Vec<String>,
    /// No progress line on stderr (shown outside CI: on a terminal once a
    /// run has taken a few seconds, elsewhere a plain line a minute once it
    /// has taken a minute).
    #[arg(short, long)]
    pub quiet: bool,
    /// A plain progress line on stderr every SECONDS (also on a pipe or
    /// a file, and in CI).
    #[arg(long, value_name = "SECONDS", conflicts_with = "quiet", value_parser = positive_seconds)]
    pub progress: Option<std::time::Duration>,
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
    /// Let the program open files in DIR, and nowhere else (none by
    /// default: every open fails). Paths are relative to DIR; an absolute
    /// path, a `..` component or a symbolic link leading out is refused.
    /// Each tile reads a file as it was when the run began; files written
    /// are written back to DIR when the run ends.
    #[arg(long, value_name = "DIR")]
    pub files: Option<PathBuf>,
    /// Arguments for the program, after `--` (its command line through
    /// semihosting's SYS_GET_CMDLINE, joined by spaces).
    #[arg(last = true, value_name = "ARGS")]
    pub program_args: Vec<String>,
}

/// The configuration: the embedded defaults, then the profile, `header` (a
/// program's `# run:` line), the configuration file, `--mesh`, `--set` and
/// `extra` (the other flags): a later source wins.
pub(crate) fn build_config(
    args: &ConfigArgs,
    header: &[String],
    header_place: &str,
    extra: &[String],
) -> Result<Config> {
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
            .map_err(|e| miette!("{header_place}: in the `# run:` line: {e}"))?;
    }
    // A value the line gives that the configuration refuses (`niu=modifed`)
    // is found when the whole is built: named at the line when the error
    // names a key the line set.
    if let Err(e) = builder.build() {
        let text = e.to_string();
        let named = header.iter().any(|a| {
            a.split_once('=')
                .is_some_and(|(key, _)| text.contains(&format!("`{}`", key.trim())))
        });
        if named {
            return Err(miette!("{header_place}: in the `# run:` line: {e}"));
        }
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
            let n: u32 = v.trim().parse().map_err(|_| {
                miette!("--mesh {mesh}: `{v}` is not a size (a whole number of tiles, 1 or more)")
            })?;
            builder
                .set(&format!("{key}={n}"))
                .map_err(|e| miette!("{e}"))?;
        }
    }
    for assignment in args.set.iter().chain(extra) {
        builder.set(assignment).map_err(|e| miette!("{e}"))?;
    }
    let config = builder.build().map_err(|e| miette!("{e}"))?;
    // The technology file is read here too, so that a path given but not
    // used by this run (no statistics) is still checked.
    if !config.energy.technology.is_empty() {
        emu::energy::model_for(&config.energy.technology)
            .map_err(|e| miette!("configuration key `energy.technology`: {e}"))?;
    }
    Ok(config)
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
    assemble_program_with(inputs, include_dirs, defines, defsyms, None)
}

/// The runtime's handler of the context-exhaustion exception
/// (`niu.context_exhausted = "swap"`), linked after a program's sources
/// when they do not define it.
const SWAP_RUNTIME_NAME: &str = "stressmarks/lib/swap.s";
const SWAP_RUNTIME: &str = include_str!("../stressmarks/lib/swap.s");

fn assemble_program_with(
    inputs: &[PathBuf],
    include_dirs: &[PathBuf],
    defines: &[String],
    defsyms: Vec<(String, i64)>,
    extra: Option<(&str, &str)>,
) -> Result<Program> {
    let options = asm::Options {
        include_dirs: include_dirs.to_vec(),
        defsyms,
        ..asm::Options::default()
    };
    let mut sources = crate::preprocess::read_sources(inputs, include_dirs, defines)
        .map_err(|errors| miette!("{}", errors.join("\nerror: ")))?;
    if let Some((name, text)) = extra {
        sources.push((format!("{name} (built in)"), text.to_string()));
    }
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
        // The profile's program options, then the `# run:` line's and the
        // command line's: a later definition wins.
        let mut defsyms = match &args.config.profile {
            Some(name) => crate::profile::load(name)?.programs,
            None => Vec::new(),
        };
        defsyms.extend(header.defsyms.iter().cloned());
        for d in &args.defsyms {
            let (name, value) = d
                .split_once('=')
                .ok_or_else(|| miette!("--defsym {d}: expected NAME=VALUE"))?;
            let value = emu::snapshot::parse_int(value.trim())
                .ok_or_else(|| miette!("--defsym {d}: `{value}` is not an integer"))?;
            defsyms.push((name.trim().to_string(), value));
        }
        // The `# run:` line's -I directories, after the command line's.
        let source_dir = args.inputs[0].parent().unwrap_or(Path::new(""));
        let mut include_dirs = args.include_dirs.clone();
        include_dirs.extend(header.include_dirs(source_dir));
        let program =
            assemble_program(&args.inputs, &include_dirs, &args.defines, defsyms.clone())?;
        // With "swap", the runtime's exception handler, unless the program
        // brings its own.
        if program.symbol("scmp_swap_out").is_none()
            && configure(args)?.0.niu.context_exhausted == emu::config::ContextExhausted::Swap
        {
            return assemble_program_with(
                &args.inputs,
                &include_dirs,
                &args.defines,
                defsyms,
                Some((SWAP_RUNTIME_NAME, SWAP_RUNTIME)),
            );
        }
        return Ok(program);
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
    Program::from_elf(&bytes).map_err(|e| {
        // A C (or C++) source given to run: it needs compiling first.
        let c_source = !bytes.starts_with(b"\x7fELF")
            && path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                matches!(e, "c" | "h" | "cc" | "cpp" | "cxx" | "i")
            });
        if c_source {
            miette!(
                "{}: {e}: it is C source, which scmp run does not compile; build it first with `scmp cc {} -O2 -o prog.elf` (add --model am for active messages), then `scmp run prog.elf`",
                path.display(),
                path.display()
            )
        } else {
            miette!("{}: {e}", path.display())
        }
    })
}

/// What a program's `# run:` line asks for (see [`RunHeader`]), from the
/// first assembly source given. The built-in example runs on every tile of
/// the configured mesh (8x8 by default).
pub(crate) fn run_header(args: &RunArgs) -> Result<RunHeader> {
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
    // `FILE:LINE: in the `# run:` line, ...`
    RunHeader::parse(&text).map_err(|e| {
        let e = e.strip_prefix("line ").unwrap_or(&e);
        miette!("{}:{e}", path.display())
    })
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
    if let Some(n) = args.host_threads {
        extra.push(format!("sim.host_threads={n}"));
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
    let place = match (args.inputs.first(), header.line) {
        (Some(path), Some(line)) => format!("{}:{line}", path.display()),
        _ => "the program".to_string(),
    };
    let mut config = build_config(&args.config, &header.assignments, &place, &extra)?;
    // The statistics (and the JSON record, which holds them) give the
    // run's energy, whose tiles' part needs their instructions counted by
    // timing class.
    if args.stats.is_some() || args.json.is_some() {
        config.energy.enabled = true;
    }
    Ok((config, header))
}

/// The run options `args` ask for (no trace or timeline yet) and the host
/// environment the program sees, reading `input` as its standard input.
pub fn run_setup(
    args: &RunArgs,
    input: Box<dyn std::io::Read>,
) -> Result<(RunOptions, emu::HostEnvironment)> {
    let files = match &args.files {
        Some(dir) => Some(std::sync::Arc::new(
            emu::GrantedDir::open(dir).map_err(|e| miette!("--files: {e}"))?,
        )),
        None => None,
    };
    let options = RunOptions {
        raw_output: args.raw_output,
        fault_trace_lines: 8,
        lockstep: args.lockstep,
        files,
        ..RunOptions::default()
    };
    // The arguments only: picolibc's crt0 names the program itself
    // (argv[0] = "program-name") and splits the line at spaces.
    let environment = emu::HostEnvironment {
        command_line: args.program_args.join(" "),
        input,
    };
    Ok((options, environment))
}

/// The exit status of `scmp run` after a run that ended so.
pub fn exit_status(end: &RunEnd) -> u8 {
    match end {
        RunEnd::AllThreadsEnded => 0,
        RunEnd::Exit(code) => *code as u8,
        RunEnd::Fault(_) => EXIT_FAULT,
        RunEnd::CycleLimit(_) => EXIT_CYCLE_LIMIT,
        RunEnd::Deadlock(_) => EXIT_DEADLOCK,
        RunEnd::Interrupted(_) => EXIT_INTERRUPTED,
    }
}

/// `--progress`'s value: seconds, more than 0.
fn positive_seconds(text: &str) -> std::result::Result<std::time::Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 => match std::time::Duration::try_from_secs_f64(s) {
            Ok(d) if !d.is_zero() => Ok(d),
            Ok(_) => Err(format!("`{text}` is not a number of seconds above 0")),
            Err(_) => Err(format!("`{text}` seconds is too long an interval")),
        },
        // Zero, negative, NaN or not a number at all.
        _ => Err(format!("`{text}` is not a number of seconds above 0")),
    }
}

#[cfg(test)]
mod progress_tests {
    use super::positive_seconds;

    #[test]
    fn progress_intervals_are_checked() {
        assert_eq!(
            positive_seconds("0.5"),
            Ok(std::time::Duration::from_millis(500))
        );
        for bad in ["0", "-1", "NaN", "-inf", "soon"] {
            let e = positive_seconds(bad).unwrap_err();
            assert!(e.contains("not a number of seconds above 0"), "{bad}: {e}");
        }
        for long in ["1e30", "inf"] {
            let e = positive_seconds(long).unwrap_err();
            assert!(e.contains("too long an interval"), "{long}: {e}");
        }
    }
}
