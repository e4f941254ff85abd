//! The mesh and the global loop.
//!
//! Tiles advance in epochs: each epoch every unfinished tile runs on its own
//! clock up to the epoch's end, then the machine collects their output and
//! trace records, writes them in (cycle, tile) order, and looks for the end
//! of the run. With the network (next issue) an epoch is bounded by the
//! network's lookahead (router + link latency, at least 2 cycles), which keeps
//! the tiles exact because nothing one tile does can reach another sooner;
//! without it tiles are independent and `sim.epoch_cycles` only sets how
//! often output is flushed. The order tiles are visited in an epoch cannot
//! change any result.
//!
//! An `exit` at cycle c ends the run at c: output and trace lines stamped
//! after c are dropped. Tiles simulated before the exiting one in its epoch
//! may have run up to the epoch's end, which only their own statistics show
//! (their `cycles` exceed the total).

use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;

use crate::config::{BootTiles, Config};
use crate::csr::Identity;
use crate::decode::DecodedText;
use crate::elf::{LoadError, Program};
use crate::fault::FaultReport;
use crate::host::{Console, NullConsole, OutputEvent, Prefixer};
use crate::memory::Memory;
use crate::niu::NoNetwork;
use crate::stats::Stats;
use crate::tile::{Halt, Tile, TileParams};
use crate::timing::CostTable;
use crate::trace::{TraceFilter, TraceRecord};

/// Where trace lines go.
pub enum TraceSink {
    /// Written as text lines.
    Writer(Box<dyn Write>),
    /// The last `n` records are kept (fault reports).
    Last(usize, VecDeque<TraceRecord>),
}

/// Tracing: what to record and where.
pub struct TraceOptions {
    /// Which records.
    pub filter: TraceFilter,
    /// Where.
    pub sink: TraceSink,
}

/// Options of a run beyond the machine configuration.
#[derive(Default)]
pub struct RunOptions {
    /// Tracing, when on.
    pub trace: Option<TraceOptions>,
    /// Do not prefix output lines with `[tT cC] ` (tile and context), which
    /// is done when more than one thread starts at boot.
    pub raw_output: bool,
    /// Lines of trace a fault report shows (0: none, no replay).
    pub fault_trace_lines: usize,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every thread ended (exit code 0).
    AllThreadsEnded,
    /// `exit` with a code.
    Exit(i32),
    /// A guest fault.
    Fault(FaultReport),
    /// The cycle limit was reached with threads still running.
    CycleLimit(u64),
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// How it ended.
    pub end: RunEnd,
    /// Statistics.
    pub stats: Stats,
}

/// A mesh of tiles with a program loaded.
pub struct Machine {
    config: Config,
    tiles: Vec<Tile>,
    trace: Option<TraceOptions>,
    prefixer: Prefixer,
}

impl Machine {
    /// Builds the mesh, loads `program` into every tile and boots threads.
    pub fn new(
        config: &Config,
        program: &Program,
        options: RunOptions,
    ) -> Result<Machine, LoadError> {
        let t = &config.tile;
        program.check_fits(t.memory_bytes, t.contexts as u64 * t.stack_bytes)?;
        let costs = Arc::new(CostTable::new(&config.timing));
        let text_range = program.text_range();
        let mut text_bytes = vec![0u8; (text_range.end - text_range.start) as usize];
        for s in program.segments.iter().filter(|s| s.executable) {
            let off = (s.addr - text_range.start) as usize;
            text_bytes[off..off + s.data.len()].copy_from_slice(&s.data);
        }
        let text = DecodedText::new(text_range.start, &text_bytes, &costs);
        let params = TileParams {
            quantum: config.scheduler.quantum,
            switch_cycles: config.scheduler.switch_cycles,
            memory_bytes: t.memory_bytes,
            stack_bytes: t.stack_bytes,
            contexts: t.contexts,
        };
        let (w, h) = (config.mesh.width, config.mesh.height);
        let mut tiles = Vec::with_capacity((w * h) as usize);
        let mut booted_threads = 0;
        for id in 0..w * h {
            let mut memory = Memory::new(t.memory_bytes as usize);
            for s in &program.segments {
                memory.write_bytes(s.addr, &s.data);
            }
            memory.set_code_range(text.base, text.len_bytes());
            let identity = Identity {
                node: id,
                context: 0,
                width: w,
                height: h,
                contexts: t.contexts,
            };
            let mut tile = Tile::new(
                id,
                identity,
                memory,
                text.clone(),
                costs.clone(),
                params.clone(),
                Box::new(NoNetwork),
            );
            let boots = match config.boot.tiles {
                BootTiles::First => id == 0,
                BootTiles::All => true,
            };
            if boots {
                for _ in 0..config.boot.threads {
                    tile.start_thread(program.entry, &[]);
                    booted_threads += 1;
                }
            }
            tiles.push(tile);
        }
        Ok(Machine {
            config: config.clone(),
            tiles,
            trace: options.trace,
            // Prefix when more than one thread can print; with the network,
            // threads started by messages will count too.
            prefixer: Prefixer::new(!options.raw_output && booted_threads > 1),
        })
    }

    /// The tiles.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Runs to the end, writing output to `console`.
    pub fn run(&mut self, console: &mut dyn Console) -> RunResult {
        let epoch = self.config.sim.epoch_cycles;
        let max = match self.config.sim.max_cycles {
            0 => u64::MAX,
            m => m,
        };
        let no_filter = TraceFilter::default();
        let mut global = 0u64;
        let (end, end_cycle) = loop {
            let epoch_end = global.saturating_add(epoch).min(max);
            let filter = self.trace.as_ref().map(|t| &t.filter);
            for tile in self.tiles.iter_mut() {
                if tile.is_finished() {
                    continue;
                }
                match filter {
                    Some(f) if f.wants_tile(tile.id) => tile.run_until::<true>(epoch_end, f),
                    _ => tile.run_until::<false>(epoch_end, &no_filter),
                }
            }
            // The earliest halt in (cycle, tile) order ends the run.
            let halt = self
                .tiles
                .iter()
                .filter_map(|t| t.halt.as_ref())
                .min_by_key(|h| h.cycle())
                .cloned();
            let cut = halt.as_ref().map_or(u64::MAX, Halt::cycle);
            self.flush(console, cut);
            if let Some(halt) = halt {
                let cycle = halt.cycle();
                break match halt {
                    Halt::Exit { code, .. } => (RunEnd::Exit(code), cycle),
                    Halt::Fault(report) => (RunEnd::Fault(report), cycle),
                };
            }
            if self.tiles.iter().all(Tile::is_finished) {
                let end = self
                    .tiles
                    .iter()
                    .filter_map(|t| t.finished_at)
                    .max()
                    .unwrap_or(0);
                break (RunEnd::AllThreadsEnded, end);
            }
            global = epoch_end;
            if global >= max {
                let reached = self.tiles.iter().map(|t| t.now).max().unwrap_or(global);
                break (RunEnd::CycleLimit(max), reached);
            }
        };
        self.prefixer.finish(console);
        for tile in &mut self.tiles {
            tile.close(end_cycle);
        }
        let stats = Stats::collect(end_cycle, &self.tiles);
        RunResult { end, stats }
    }

    /// Writes the tiles' output and trace records stamped at or before `cut`,
    /// in (cycle, tile) order.
    fn flush(&mut self, console: &mut dyn Console, cut: u64) {
        let mut events: Vec<OutputEvent> = Vec::new();
        for tile in &mut self.tiles {
            events.append(&mut tile.output);
        }
        if !events.is_empty() {
            // Stable: one tile's events keep their order within a cycle.
            events.sort_by_key(|e| (e.cycle, e.tile));
            for e in events.iter().filter(|e| e.cycle <= cut) {
                self.prefixer.write(console, e);
            }
        }
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        let mut records: Vec<TraceRecord> = Vec::new();
        for tile in &mut self.tiles {
            records.append(&mut tile.trace);
        }
        records.sort_by_key(|r| (r.cycle, r.tile));
        let records = records.into_iter().filter(|r| r.cycle <= cut);
        match &mut trace.sink {
            TraceSink::Writer(w) => {
                let mut text = String::new();
                for r in records {
                    text.push_str(&r.line());
                    text.push('\n');
                }
                // A trace file that cannot be written must not change the run.
                let _ = w.write_all(text.as_bytes());
                let _ = w.flush();
            }
            TraceSink::Last(n, ring) => {
                for r in records {
                    if ring.len() == *n {
                        ring.pop_front();
                    }
                    ring.push_back(r);
                }
            }
        }
    }

    /// The records a [`TraceSink::Last`] kept.
    pub fn last_trace(&self) -> Vec<TraceRecord> {
        match self.trace.as_ref().map(|t| &t.sink) {
            Some(TraceSink::Last(_, ring)) => ring.iter().copied().collect(),
            _ => Vec::new(),
        }
    }
}

/// Runs `program`; when it faults and `options.fault_trace_lines` is set,
/// runs it again (runs are deterministic) tracing only the faulting context,
/// to put its last instructions in the report.
pub fn run(
    config: &Config,
    program: &Program,
    options: RunOptions,
    console: &mut dyn Console,
) -> Result<RunResult, LoadError> {
    let lines = options.fault_trace_lines;
    let raw_output = options.raw_output;
    let mut machine = Machine::new(config, program, options)?;
    let mut result = machine.run(console);
    if let RunEnd::Fault(report) = &mut result.end
        && lines > 0
    {
        let filter = TraceFilter {
            tiles: Some(std::iter::once(report.tile..report.tile + 1).collect()),
            contexts: Some(std::iter::once(report.context..report.context + 1).collect()),
            cycles: None,
        };
        let mut replay_config = config.clone();
        replay_config.sim.max_cycles = report.cycle + 1;
        let mut replay = Machine::new(
            &replay_config,
            program,
            RunOptions {
                trace: Some(TraceOptions {
                    filter,
                    sink: TraceSink::Last(lines, VecDeque::new()),
                }),
                raw_output,
                fault_trace_lines: 0,
            },
        )?;
        replay.run(&mut NullConsole);
        report.last_trace = replay.last_trace().iter().map(TraceRecord::line).collect();
    }
    Ok(result)
}
