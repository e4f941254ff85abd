//! What a run is asked for and what it gives back: options, how it
//! ended, the deadlock report, the result.

use std::collections::VecDeque;
use std::io::Write;

use crate::fault::FaultReport;
use crate::network::{StallReport, VisitOrder};
use crate::stats::Stats;
use crate::timeline::TimelineOptions;
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
    /// Run tiles and network in lockstep, one cycle at a time (slow; the
    /// reference the synchronization is tested against).
    pub lockstep: bool,
    /// The order in which the network visits routers (results do not
    /// depend on it; tests vary it).
    pub visit_order: VisitOrder,
    /// A timeline of the run, written at its end.
    pub timeline: Option<TimelineOptions>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every thread ended and the network is empty (exit code 0).
    AllThreadsEnded,
    /// `exit` with a code.
    Exit(i32),
    /// A guest fault.
    Fault(FaultReport),
    /// The cycle limit was reached with threads still running.
    CycleLimit(u64),
    /// Nothing can move: every thread waits and the network is stuck.
    Deadlock(Box<DeadlockReport>),
}

/// A context that waits for something that will not happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedContext {
    /// Tile.
    pub tile: u32,
    /// Context.
    pub context: u32,
    /// Its pc (the instruction it waits to issue again, or issued last).
    pub pc: u32,
    /// The instruction at the pc, disassembled.
    pub instruction: String,
    /// What it waits for.
    pub waits_for: String,
}

/// The report of a deadlock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlockReport {
    /// Cycle at which it was found.
    pub cycle: u64,
    /// Every context that holds a thread.
    pub blocked: Vec<BlockedContext>,
    /// Transfers NIUs hold that wait for another node: (tile, what).
    pub pending: Vec<(u32, String)>,
    /// Every flit held in the network.
    pub network: StallReport,
}

impl std::fmt::Display for DeadlockReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "deadlock at cycle {}: no thread can run and the network cannot deliver",
            self.cycle
        )?;
        for b in &self.blocked {
            writeln!(
                f,
                "  tile {} context {} at pc {:#010x} ({}): waits for {}",
                b.tile, b.context, b.pc, b.instruction, b.waits_for
            )?;
        }
        for (tile, what) in &self.pending {
            writeln!(f, "  tile {tile}'s NIU: {what}")?;
        }
        if self.network.held.is_empty() && self.network.on_links == 0 {
            writeln!(f, "  the network holds no flit")
        } else {
            write!(f, "  {}", self.network)
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// How it ended.
    pub end: RunEnd,
    /// Statistics.
    pub stats: Stats,
}
