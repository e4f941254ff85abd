//! Snapshot runs of programs: the `# run:` header that says how a source is
//! meant to run, a run that captures its end, output, statistics and trace,
//! and the text of that run which `scmp test` (and a Rust user's own insta
//! tests) keep as a snapshot.
//!
//! The text has one section per part of the run, in this order: `## end`,
//! `## stdout`, `## stderr`, `## statistics` (as `--stats` prints them)
//! and `## trace` (every record, as `--trace` writes them, without the
//! header line).

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use crate::config::{Config, ConfigBuilder, ConfigError};
use crate::elf::{LoadError, Program};
use crate::hart::host::CapturedConsole;
use crate::machine::{RunEnd, RunOptions, RunResult, TraceOptions, TraceSink};
use crate::network::VisitOrder;
use crate::trace::{TraceFilter, TraceKinds};

/// What a program's `# run:` line asks for.
///
/// Tokens, separated by spaces: `mesh=WxH`, `boot=first|all`, `threads=N`,
/// `niu=original|modified`, `max-cycles=N`, `set=section.key=value`
/// (configuration), `defsym=NAME=VALUE` (assembler), and the trace filters
/// `trace-tiles=LIST`, `trace-contexts=LIST`, `trace-cycles=A..B`,
/// `trace-events=KINDS` (as the `scmp run` flags of the same names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunHeader {
    /// The line the header is on (1-based), if the source has one.
    pub line: Option<usize>,
    /// Configuration assignments (`section.key=value`), in order.
    pub assignments: Vec<String>,
    /// Symbols to define when assembling.
    pub defsyms: Vec<(String, i64)>,
    /// Which trace records a snapshot keeps.
    pub trace: TraceFilter,
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
    pub const TOKENS: &'static str = "mesh=WxH, boot=first|all, threads=N, niu=original|modified, max-cycles=N, set=section.key=value, defsym=NAME=VALUE, trace-tiles=LIST, trace-contexts=LIST, trace-cycles=A..B or trace-events=KINDS";

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
        for token in rest.split_whitespace() {
            h.token(token)
                .map_err(|e| format!("the `# run:` line (line {line}): `{token}`: {e}"))?;
        }
        Ok(h)
    }

    fn token(&mut self, token: &str) -> Result<(), String> {
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
        trace: Some(TraceOptions {
            filter: options.trace.clone(),
            sink: TraceSink::Writer(Box::new(buffer.clone())),
        }),
        raw_output: false,
        fault_trace_lines: 8,
        lockstep: options.lockstep,
        visit_order: options.visit_order,
        timeline: None,
    };
    let mut console = CapturedConsole::default();
    let result = crate::machine::run(config, program, run_options, &mut console)?;
    let trace = String::from_utf8_lossy(&buffer.0.borrow()).into_owned();
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
/// descending order, and a long one (2^20 cycles) with a shuffled order.
/// Each run is named; its text must equal the ordinary run's.
pub fn cross_check_runs(
    config: &Config,
    program: &Program,
    options: &SnapshotOptions,
) -> Result<Vec<(&'static str, SnapshotRun)>, LoadError> {
    let mut short = config.clone();
    short.sim.epoch_cycles = 7;
    let mut long = config.clone();
    long.sim.epoch_cycles = 1 << 20;
    let variant = |lockstep, visit_order| SnapshotOptions {
        trace: options.trace.clone(),
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
        assert!(e.starts_with("the `# run:` line (line 3): `mesh=2`"), "{e}");
        let e = RunHeader::parse("# run: colour=red").unwrap_err();
        assert!(e.contains("expected one of mesh=WxH"), "{e}");
        let e = RunHeader::parse("# run: trace-events=flits").unwrap_err();
        assert!(e.contains("`flits` is not a kind"), "{e}");
        assert_eq!(RunHeader::parse("nop\n").unwrap(), RunHeader::default());
    }
}
