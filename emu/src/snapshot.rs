//! Snapshot runs of programs: the `# run:` header that says how a source is
//! meant to run, a run that captures its end, output, statistics and trace,
//! and the text of that run which `scmp test` (and a Rust user's own insta
//! tests) keep as a snapshot.
//!
//! The text has one section per part of the run, in this order: `## end`,
//! `## stdout`, `## stderr`, `## statistics` (as `--stats` prints them)
//! and `## trace` (every record, as `--trace` writes them, without the
//! header line; or a summary of them, or nothing: [`TraceKeep`]).

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use crate::config::{Config, ConfigBuilder, ConfigError};
use crate::elf::{LoadError, Program};
use crate::hart::host::CapturedConsole;
use crate::machine::{RunEnd, RunOptions, RunResult, TraceOptions, TraceSink};
use crate::network::VisitOrder;
use crate::trace::{TraceFilter, TraceKinds};

/// What a snapshot keeps of the trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TraceKeep {
    /// Every line up to [`AUTO_TRACE_LINES`], a summary beyond.
    #[default]
    Auto,
    /// Every line.
    Full,
    /// The number of lines, a hash of them, the first and last lines.
    Summary,
    /// Nothing (the run is not traced).
    None,
}

/// Trace lines a snapshot keeps in full by default (`trace=auto`): about
/// 350 KB; longer traces are summarised.
pub const AUTO_TRACE_LINES: usize = 4000;

/// Lines a trace summary shows at each end.
const SUMMARY_LINES: usize = 10;

impl TraceKeep {
    /// The trace section for `trace`, one record a line.
    pub fn apply(self, trace: String) -> String {
        let lines = trace.lines().count();
        match self {
            TraceKeep::None => String::new(),
            TraceKeep::Full => trace,
            TraceKeep::Auto if lines <= AUTO_TRACE_LINES => trace,
            TraceKeep::Auto | TraceKeep::Summary => summarize(&trace, lines, self),
        }
    }
}

/// A trace's summary: its size, a hash of its text (any change shows),
/// and its first and last lines.
fn summarize(trace: &str, lines: usize, keep: TraceKeep) -> String {
    // FNV-1a, 64 bits: stable across versions and platforms.
    let hash = trace.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    let why = match keep {
        TraceKeep::Summary => "trace=summary".to_string(),
        _ => format!("more than {AUTO_TRACE_LINES} lines"),
    };
    let mut out = format!(
        "summary ({why}; `# run: trace=full` keeps every line): {lines} lines, {} bytes, fnv1a-64 {hash:016x}\n",
        trace.len()
    );
    let all: Vec<&str> = trace.lines().collect();
    out.push_str(&format!("first {} lines:\n", SUMMARY_LINES.min(lines)));
    for l in all.iter().take(SUMMARY_LINES) {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(&format!("last {} lines:\n", SUMMARY_LINES.min(lines)));
    for l in &all[all.len().saturating_sub(SUMMARY_LINES)..] {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// What a program's `# run:` line asks for.
///
/// Tokens, separated by spaces: `mesh=WxH`, `boot=first|all`, `threads=N`,
/// `niu=original|modified`, `max-cycles=N`, `set=section.key=value`
/// (configuration), `defsym=NAME=VALUE` and `-IDIR` or `include=DIR`
/// (assembler; a relative directory is taken from the source's), the
/// trace filters `trace-tiles=LIST`, `trace-contexts=LIST`,
/// `trace-cycles=A..B`, `trace-events=KINDS` (as the `scmp run` flags of
/// the same names), and `trace=auto|full|summary|none`, what a snapshot
/// keeps of the trace ([`TraceKeep`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunHeader {
    /// The line the header is on (1-based), if the source has one.
    pub line: Option<usize>,
    /// Configuration assignments (`section.key=value`), in order.
    pub assignments: Vec<String>,
    /// Symbols to define when assembling.
    pub defsyms: Vec<(String, i64)>,
    /// Directories `.include` searches, as written (relative ones are
    /// relative to the source's directory: see [`RunHeader::include_dirs`]).
    pub includes: Vec<String>,
    /// Which trace records a snapshot keeps.
    pub trace: TraceFilter,
    /// How much of the trace a snapshot keeps.
    pub keep: TraceKeep,
}

/// The first line of `source` that starts with `# run:`, and its number.
fn header_line(source: &str) -> Option<(usize, &str)> {
    source
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.trim().strip_prefix("# run:").map(|rest| (i + 1, rest)))
}

/// An integer as `--defsym` and `defsym=` take it: decimal or `0x` hex,
/// optionally negative.
pub fn parse_int(text: &str) -> Option<i64> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => t.parse().ok()?,
    };
    Some(if neg { -v } else { v })
}

impl RunHeader {
    /// The tokens a header understands, for error messages.
    pub const TOKENS: &'static str = "mesh=WxH, boot=first|all, threads=N, niu=original|modified, max-cycles=N, set=section.key=value, defsym=NAME=VALUE, -IDIR, include=DIR, trace-tiles=LIST, trace-contexts=LIST, trace-cycles=A..B, trace-events=KINDS or trace=auto|full|summary|none";

    /// Parses the `# run:` line of `source` (none: an empty header). The
    /// error names the line and the token.
    pub fn parse(source: &str) -> Result<RunHeader, String> {
        let Some((line, rest)) = header_line(source) else {
            return Ok(RunHeader::default());
        };
        let mut h = RunHeader {
            line: Some(line),
            ..RunHeader::default()
        };
        let mut tokens = rest.split_whitespace();
        while let Some(token) = tokens.next() {
            let result = if token == "-I" {
                match tokens.next() {
                    Some(dir) => {
                        h.includes.push(dir.to_string());
                        Ok(())
                    }
                    None => Err("expected a directory after -I".to_string()),
                }
            } else {
                h.token(token)
            };
            result.map_err(|e| format!("line {line}: in the `# run:` line, `{token}`: {e}"))?;
        }
        Ok(h)
    }

    /// An error of the configuration the header asks for, naming its line.
    pub fn error(&self, e: impl std::fmt::Display) -> String {
        match self.line {
            Some(line) => format!("line {line}: in the `# run:` line: {e}"),
            None => e.to_string(),
        }
    }

    /// The include directories, relative ones taken from `source_dir`.
    pub fn include_dirs(&self, source_dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        self.includes
            .iter()
            .map(|d| {
                let p = std::path::Path::new(d);
                if p.is_absolute() {
                    p.to_path_buf()
                } else {
                    source_dir.join(p)
                }
            })
            .collect()
    }

    fn token(&mut self, token: &str) -> Result<(), String> {
        if let Some(dir) = token.strip_prefix("-I") {
            self.includes.push(dir.to_string());
            return Ok(());
        }
        let bad = || format!("expected one of {}", RunHeader::TOKENS);
        let (key, value) = token.split_once('=').ok_or_else(bad)?;
        let trace = &mut self.trace;
        match key {
            "mesh" => {
                let (w, h) = value
                    .split_once(['x', 'X'])
                    .ok_or("expected mesh=WIDTHxHEIGHT, e.g. mesh=2x2")?;
                self.assignments.push(format!("mesh.width={w}"));
                self.assignments.push(format!("mesh.height={h}"));
            }
            "boot" => self.assignments.push(format!("boot.tiles={value}")),
            "threads" => self.assignments.push(format!("boot.threads={value}")),
            "niu" => self.assignments.push(format!("niu.design={value}")),
            "max-cycles" => self.assignments.push(format!("sim.max_cycles={value}")),
            "set" => self.assignments.push(value.to_string()),
            "defsym" => {
                let (name, v) = value.split_once('=').ok_or("expected defsym=NAME=VALUE")?;
                let v = parse_int(v.trim()).ok_or_else(|| format!("`{v}` is not an integer"))?;
                self.defsyms.push((name.trim().to_string(), v));
            }
            "trace-tiles" => trace.tiles = Some(TraceFilter::parse_list(value)?),
            "trace-contexts" => trace.contexts = Some(TraceFilter::parse_list(value)?),
            "trace-cycles" => trace.cycles = Some(TraceFilter::parse_cycles(value)?),
            "trace-events" => trace.kinds = Some(TraceKinds::parse(value)?),
            "include" => self.includes.push(value.to_string()),
            "trace" => {
                self.keep = match value {
                    "auto" => TraceKeep::Auto,
                    "full" => TraceKeep::Full,
                    "summary" => TraceKeep::Summary,
                    "none" => TraceKeep::None,
                    _ => return Err("expected trace=auto, full, summary or none".to_string()),
                }
            }
            _ => return Err(bad()),
        }
        Ok(())
    }

    /// The configuration: the embedded defaults with the header's
    /// assignments.
    pub fn config(&self) -> Result<Config, ConfigError> {
        let mut builder = ConfigBuilder::new();
        for a in &self.assignments {
            builder.set(a)?;
        }
        builder.build()
    }
}

/// How a snapshot run is made (beyond the configuration).
#[derive(Clone, Debug, Default)]
pub struct SnapshotOptions {
    /// The trace records kept (the header's filter).
    pub trace: TraceFilter,
    /// How much of the trace the text keeps (the header's `trace=`).
    pub keep: TraceKeep,
    /// Tiles and network in lockstep (the results must not change).
    pub lockstep: bool,
    /// The network's router visiting order (the results must not change).
    pub visit_order: VisitOrder,
}

/// Everything a snapshot run produced.
#[derive(Debug)]
pub struct SnapshotRun {
    /// How it ended, and its statistics.
    pub result: RunResult,
    /// What the program wrote.
    pub console: CapturedConsole,
    /// The trace, one record a line.
    pub trace: String,
}

/// A `Write` the caller reads back after the run.
#[derive(Clone, Default)]
struct SharedBuffer(Rc<RefCell<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `program` on `config`, tracing what `options.trace` selects.
pub fn run(
    config: &Config,
    program: &Program,
    options: &SnapshotOptions,
) -> Result<SnapshotRun, LoadError> {
    let buffer = SharedBuffer::default();
    let run_options = RunOptions {
        trace: (options.keep != TraceKeep::None).then(|| TraceOptions {
            filter: options.trace.clone(),
            sink: TraceSink::Writer(Box::new(buffer.clone())),
        }),
        raw_output: false,
        fault_trace_lines: 8,
        lockstep: options.lockstep,
        visit_order: options.visit_order,
        timeline: None,
        monitor: None,
        dump: Vec::new(),
        // Snapshots open no files.
        files: None,
    };
    let mut console = CapturedConsole::default();
    let result = crate::machine::run(config, program, run_options, &mut console)?;
    let trace = options
        .keep
        .apply(String::from_utf8_lossy(&buffer.0.borrow()).into_owned());
    Ok(SnapshotRun {
        result,
        console,
        trace,
    })
}

impl SnapshotRun {
    /// The snapshot text (sections `## end`, `## stdout`, `## stderr`,
    /// `## statistics`, `## trace`).
    pub fn text(&self) -> String {
        format!(
            "## end\n{}\n## stdout\n{}\n## stderr\n{}\n## statistics\n{}\n## trace\n{}",
            describe_end(&self.result.end).trim_end(),
            String::from_utf8_lossy(&self.console.stdout),
            String::from_utf8_lossy(&self.console.stderr),
            self.result.stats.to_text(),
            self.trace
        )
    }
}

/// Runs `program` again in the ways that must not change a run: tiles and
/// network in lockstep, a short epoch (7 cycles) with routers visited in
/// descending order, a long one (2^20 cycles) with a shuffled order, the
/// tiles of every round on three host threads, and the other router core
/// (`sim.network_engine`). Each run is named; its text must equal the
/// ordinary run's.
pub fn cross_check_runs(
    config: &Config,
    program: &Program,
    options: &SnapshotOptions,
) -> Result<Vec<(&'static str, SnapshotRun)>, LoadError> {
    let mut short = config.clone();
    short.sim.epoch_cycles = 7;
    let mut long = config.clone();
    long.sim.epoch_cycles = 1 << 20;
    let mut threaded = config.clone();
    threaded.sim.host_threads = 3;
    threaded.sim.host_parallel_cycles = 0;
    let mut engine = config.clone();
    engine.sim.network_engine = config.sim.network_engine.other();
    let variant = |lockstep, visit_order| SnapshotOptions {
        trace: options.trace.clone(),
        keep: options.keep,
        lockstep,
        visit_order,
    };
    Ok(vec![
        (
            "lockstep",
            run(config, program, &variant(true, VisitOrder::Ascending))?,
        ),
        (
            "epoch 7, routers in descending order",
            run(&short, program, &variant(false, VisitOrder::Descending))?,
        ),
        (
            "epoch 2^20, routers shuffled",
            run(&long, program, &variant(false, VisitOrder::Shuffled(7)))?,
        ),
        (
            "3 host threads, every round",
            run(&threaded, program, &variant(false, VisitOrder::Ascending))?,
        ),
        (
            "the other network engine",
            run(&engine, program, &variant(false, VisitOrder::Ascending))?,
        ),
    ])
}

/// The end of a run in words.
pub fn describe_end(end: &RunEnd) -> String {
    match end {
        RunEnd::AllThreadsEnded => "all threads ended (exit code 0)".to_string(),
        RunEnd::Exit(code) => format!("exit({code})"),
        RunEnd::Fault(report) => report.to_string(),
        RunEnd::CycleLimit(limit) => format!("cycle limit {limit} reached"),
        RunEnd::Deadlock(report) => report.to_string(),
        RunEnd::Interrupted(report) => report.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_tokens() {
        let src = "# a program\n# run: mesh=2x1 boot=all threads=2 niu=original max-cycles=900 set=scheduler.quantum=16 defsym=N=0x10 trace-tiles=1 trace-contexts=0-1 trace-cycles=5..50 trace-events=inst,niu\n";
        let h = RunHeader::parse(src).unwrap();
        assert_eq!(h.line, Some(2));
        assert_eq!(
            h.assignments,
            [
                "mesh.width=2",
                "mesh.height=1",
                "boot.tiles=all",
                "boot.threads=2",
                "niu.design=original",
                "sim.max_cycles=900",
                "scheduler.quantum=16"
            ]
        );
        assert_eq!(h.defsyms, [("N".to_string(), 16)]);
        assert_eq!(h.trace.tiles, Some(std::iter::once(1..2).collect()));
        assert_eq!(h.trace.contexts, Some(std::iter::once(0..2).collect()));
        assert_eq!(h.trace.cycles, Some(5..50));
        let kinds = h.trace.kinds.unwrap();
        assert!(kinds.instructions && kinds.niu && !kinds.network);
        let config = h.config().unwrap();
        assert_eq!((config.mesh.width, config.mesh.height), (2, 1));
        assert_eq!(config.scheduler.quantum, 16);
    }

    #[test]
    fn header_errors_name_line_and_token() {
        let e = RunHeader::parse("\n\n# run: mesh=2 \n").unwrap_err();
        assert!(
            e.starts_with("line 3: in the `# run:` line, `mesh=2`"),
            "{e}"
        );
        let e = RunHeader::parse("# run: colour=red").unwrap_err();
        assert!(e.contains("expected one of mesh=WxH"), "{e}");
        let e = RunHeader::parse("# run: trace-events=flits").unwrap_err();
        assert!(e.contains("`flits` is not a kind"), "{e}");
        assert_eq!(RunHeader::parse("nop\n").unwrap(), RunHeader::default());
        let e = RunHeader::parse("# run: trace=some").unwrap_err();
        assert!(
            e.contains("expected trace=auto, full, summary or none"),
            "{e}"
        );
        let e = RunHeader::parse("# run: -I").unwrap_err();
        assert!(e.contains("expected a directory after -I"), "{e}");
    }

    #[test]
    fn includes_and_trace_keep() {
        let h = RunHeader::parse("# run: -Ilib -I /abs include=../up trace=summary").unwrap();
        assert_eq!(h.includes, ["lib", "/abs", "../up"]);
        assert_eq!(h.keep, TraceKeep::Summary);
        let dirs = h.include_dirs(std::path::Path::new("/src/progs"));
        assert_eq!(
            dirs,
            ["/src/progs/lib", "/abs", "/src/progs/../up"].map(std::path::PathBuf::from)
        );
        assert_eq!(
            RunHeader::parse("# run: trace=none").unwrap().keep,
            TraceKeep::None
        );
        assert_eq!(
            RunHeader::parse("# run: mesh=1x1").unwrap().keep,
            TraceKeep::Auto
        );
    }

    #[test]
    fn long_traces_are_summarised_by_default() {
        let short: String = (0..AUTO_TRACE_LINES)
            .map(|i| format!("line {i}\n"))
            .collect();
        assert_eq!(TraceKeep::Auto.apply(short.clone()), short);
        let long: String = (0..AUTO_TRACE_LINES + 1)
            .map(|i| format!("line {i}\n"))
            .collect();
        let s = TraceKeep::Auto.apply(long.clone());
        assert!(
            s.starts_with(&format!("summary (more than {AUTO_TRACE_LINES} lines; ")),
            "{s}"
        );
        assert!(s.contains(&format!("{} lines", AUTO_TRACE_LINES + 1)));
        assert!(
            s.contains("first 10 lines:\nline 0\n")
                && s.ends_with(&format!("line {AUTO_TRACE_LINES}\n"))
        );
        // Any change shows in the hash.
        let changed = long.replace("line 1000\n", "line 1000 \n");
        assert_ne!(TraceKeep::Auto.apply(changed), s);
        assert_eq!(TraceKeep::Full.apply(long.clone()), long);
        assert_eq!(TraceKeep::None.apply(long), "");
    }
}
