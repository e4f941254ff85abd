//! What a run is asked for and what it gives back: options, how it ended,
//! the reports of a run that stopped without ending (deadlock, interrupt)
//! and the result. The reports list every live context (grouped, so that
//! they stay readable on a 32x32 mesh) and say in words why the waiting
//! ones cannot go on (`super::explain` works that out).

use std::collections::VecDeque;
use std::fmt;
use std::io::Write;

use crate::fault::FaultReport;
use crate::network::{StallReport, VisitOrder};
use crate::stats::Stats;
use crate::timeline::TimelineOptions;
use crate::trace::{TraceFilter, TraceRecord};

use super::Machine;

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

/// Watches a run from outside (a progress line, a request to stop): asked
/// between the steps of the global loop, which are short (at most
/// `sim.epoch_cycles` of every tile).
pub trait Monitor {
    /// Whether to stop the run: it then ends at the furthest cycle a tile
    /// has reached, every tile and the network brought to it, with
    /// [`RunEnd::Interrupted`] (outputs, statistics and timeline complete
    /// up to that cycle). `machine` answers [`Machine::progress`].
    fn check(&mut self, machine: &Machine) -> bool;
}

/// How far a run has come, for a progress line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The cycle every tile and the network have passed.
    pub cycle: u64,
    /// Tiles with a thread.
    pub tiles_running: usize,
    /// Tiles of the mesh.
    pub tiles: usize,
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
    /// Watches the run and may stop it.
    pub monitor: Option<Box<dyn Monitor>>,
    /// Memory ranges (address, bytes) to read on every tile at the end of
    /// the run ([`RunResult::dumps`]).
    pub dump: Vec<(u32, u32)>,
    /// The directory the programs may open files in (`scmp run --files`;
    /// none: every open fails with a note saying how to grant one).
    pub files: Option<std::sync::Arc<crate::hart::files::GrantedDir>>,
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
    /// Nothing can move: every thread waits and the network is stuck, or
    /// no flit has moved for `network.stall_cycles` while threads run.
    Deadlock(Box<DeadlockReport>),
    /// Stopped from outside (a [`Monitor`]: Ctrl-C) at the report's cycle.
    Interrupted(Box<StateReport>),
}

/// A context that holds a thread, where it is and what it waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextReport {
    /// Tile.
    pub tile: u32,
    /// Context.
    pub context: u32,
    /// Its pc (the instruction it waits to issue again, or issues next).
    pub pc: u32,
    /// The pc's label (`<SCMPWaitReceive+0x8>`), when the symbols name it.
    pub symbol: Option<String>,
    /// Its callers, innermost first, each as the call's place
    /// (`<main+0x1c> (chain.c:14)`), from the program's unwind table.
    pub callers: Vec<String>,
    /// The instruction at the pc, disassembled.
    pub instruction: String,
    /// Whether it runs or is ready to (not suspended).
    pub runnable: bool,
    /// Its state in words: `running`, `ready`, or what it waits for.
    pub state: String,
}

impl ContextReport {
    /// The line without its tile: what identical lines of many tiles share.
    fn text(&self) -> String {
        let symbol = self
            .symbol
            .as_ref()
            .map(|s| format!(" {s}"))
            .unwrap_or_default();
        let mut text = format!(
            "context {} at pc {:#010x}{symbol} ({}): {}",
            self.context, self.pc, self.instruction, self.state
        );
        for caller in &self.callers {
            text += &format!("\n      called from {caller}");
        }
        text
    }
}

/// The machine's state at a cycle: every live context, what the NIUs hold
/// that waits for another node, every held flit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateReport {
    /// The cycle.
    pub cycle: u64,
    /// Every context that holds a thread.
    pub contexts: Vec<ContextReport>,
    /// What the NIUs hold, in words: (tile, line).
    pub nius: Vec<(u32, String)>,
    /// Every flit held in the network.
    pub network: StallReport,
    /// When the report leaves held flits or NIU lines out: the heads of
    /// held chains, with their NIUs' receive tables (`super::chains`).
    pub heads: Vec<String>,
    /// Instructions retired so far, all tiles.
    pub instructions: u64,
    /// Messages sent so far.
    pub messages: u64,
    /// When only tile 0 booted (`boot.tiles = "first"`) and other tiles
    /// never ran a thread: a note saying so and naming `--boot all`.
    pub boot_note: Option<String>,
}

/// Lines a report shows of one kind before it says how many more there are.
pub const REPORT_LINES: usize = 24;

/// Writes `lines` (tile, text), those with the same text as one line that
/// names their tiles (`tiles 1-7, 9`), at most [`REPORT_LINES`], then how
/// many were left out.
pub fn write_grouped(
    f: &mut fmt::Formatter<'_>,
    indent: &str,
    lines: impl IntoIterator<Item = (u32, String)>,
) -> fmt::Result {
    let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    for (tile, text) in lines {
        match index.get(&text) {
            Some(&k) => groups[k].1.push(tile),
            None => {
                index.insert(text.clone(), groups.len());
                groups.push((text, vec![tile]));
            }
        }
    }
    let total = groups.len();
    for (text, tiles) in groups.iter().take(REPORT_LINES) {
        writeln!(f, "{indent}{} {text}", tile_list(tiles))?;
    }
    if total > REPORT_LINES {
        let left: usize = groups[REPORT_LINES..].iter().map(|(_, t)| t.len()).sum();
        writeln!(
            f,
            "{indent}... and {} more lines ({left} entries) like these",
            total - REPORT_LINES
        )?;
    }
    Ok(())
}

/// `tile 3`, or `tiles 1-7, 9, 12-15` (in the order given, runs joined).
pub fn tile_list(tiles: &[u32]) -> String {
    if let [one] = tiles {
        return format!("tile {one}");
    }
    let mut sorted = tiles.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < sorted.len() {
        let start = sorted[k];
        let mut end = start;
        while k + 1 < sorted.len() && sorted[k + 1] == end + 1 {
            k += 1;
            end = sorted[k];
        }
        parts.push(if end == start {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        k += 1;
    }
    format!("tiles {}", parts.join(", "))
}

impl StateReport {
    /// The contexts, NIUs and network, grouped.
    fn write_body(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grouped(f, "  ", self.contexts.iter().map(|c| (c.tile, c.text())))?;
        write_grouped(
            f,
            "  ",
            self.nius.iter().map(|(t, w)| (*t, format!("NIU: {w}"))),
        )?;
        write_network(f, &self.network)?;
        if !self.heads.is_empty() {
            writeln!(
                f,
                "  heads of held chains (ejection buffers whose NIU does not take the front flit), most held flits waiting on them first:"
            )?;
            for line in &self.heads {
                writeln!(f, "    {line}")?;
            }
        }
        Ok(())
    }

    /// The note on tiles that never ran, when only tile 0 booted.
    fn write_note(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.boot_note {
            Some(note) => writeln!(f, "note: {note}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for StateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "interrupted at cycle {}: {} retired and {} sent so far; {} {} a thread",
            self.cycle,
            plural(self.instructions, "instruction"),
            plural(self.messages, "message"),
            plural(self.contexts.len() as u64, "context"),
            if self.contexts.len() == 1 {
                "holds"
            } else {
                "hold"
            }
        )?;
        self.write_body(f)?;
        self.write_note(f)
    }
}

/// `1 context`, `2 contexts`.
pub fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `1 context keeps running`, `3 contexts keep running`.
fn keep_running(n: usize) -> String {
    match n {
        1 => "1 context keeps running".to_string(),
        n => format!("{n} contexts keep running"),
    }
}

/// The held flits, at most [`REPORT_LINES`] of them.
fn write_network(f: &mut fmt::Formatter<'_>, n: &StallReport) -> fmt::Result {
    if n.held.is_empty() && n.on_links == 0 {
        return writeln!(f, "  the network holds no flit");
    }
    writeln!(
        f,
        "  network: no flit has moved since cycle {}; {} flits held",
        n.last_move,
        n.held.len() + n.on_links
    )?;
    for h in n.held.iter().take(REPORT_LINES) {
        let place = if h.ejected {
            format!("node {} ejection vc{}", h.node, h.vc)
        } else {
            format!("router {} in {} vc{}", h.node, h.port.letter(), h.vc)
        };
        writeln!(
            f,
            "    {place} [{}]: packet {}->{} flit #{}: waits for {}",
            h.depth, h.src, h.dst, h.seq, h.waits_for
        )?;
    }
    if n.held.len() > REPORT_LINES {
        writeln!(
            f,
            "    ... and {} more held flits",
            n.held.len() - REPORT_LINES
        )?;
    }
    Ok(())
}

/// Why a run was found stuck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stuck {
    /// No thread can run and nothing in the network can move.
    Idle,
    /// No thread can run, and no flit has moved for `network.stall_cycles`.
    NetworkStalled,
    /// Threads run, but no flit has moved for `network.stall_cycles`
    /// cycles while flits are held: they spin on something that will not
    /// come.
    Spinning,
    /// Threads run, but the network is empty and the livelock watch saw
    /// every tile that can issue come back to the same state with nothing
    /// sent, taken in, printed or timed in between (`sim.spin_check_cycles`,
    /// docs/network.md, "Livelock"): they poll for something that cannot
    /// come.
    Livelock,
}

/// The report of a deadlock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlockReport {
    /// How it was found.
    pub stuck: Stuck,
    /// Cycles without progress before it was declared (for `Spinning` and
    /// `NetworkStalled`).
    pub stalled_for: u64,
    /// Why the waiting contexts cannot proceed, and what would help:
    /// (tile, line).
    pub explanation: Vec<(u32, String)>,
    /// The machine's state.
    pub state: StateReport,
    /// For [`Stuck::Livelock`]: per tile that can issue, two cycles of its
    /// clock at which its whole state was the same: (tile, earlier, later).
    pub repeats: Vec<(u32, u64, u64)>,
}

impl fmt::Display for DeadlockReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cycle = self.state.cycle;
        match self.stuck {
            Stuck::Idle => writeln!(
                f,
                "deadlock at cycle {cycle}: no thread can run and the network cannot deliver"
            )?,
            Stuck::NetworkStalled => writeln!(
                f,
                "deadlock at cycle {cycle}: no thread can run, and no flit has moved for {} cycles",
                self.stalled_for
            )?,
            Stuck::Spinning => writeln!(
                f,
                "no progress at cycle {cycle}: no flit has moved for {} cycles (network.stall_cycles) while {}: they wait in a loop for something that cannot come",
                self.stalled_for,
                keep_running(self.state.contexts.iter().filter(|c| c.runnable).count())
            )?,
            Stuck::Livelock => writeln!(
                f,
                "no progress at cycle {cycle}: a livelock: {}, but each comes back to the same state (registers, memory, NIU tables) with nothing in the network and nothing sent, received, printed or timed in between, so they would repeat it for ever: they wait in a loop for something that cannot come",
                keep_running(self.state.contexts.iter().filter(|c| c.runnable).count())
            )?,
        }
        self.state.write_body(f)?;
        if !self.repeats.is_empty() {
            writeln!(f, "repeats (looked at every sim.spin_check_cycles):")?;
            write_grouped(
                f,
                "  ",
                self.repeats.iter().map(|&(tile, a, b)| {
                    (
                        tile,
                        format!("in the same state at cycles {a} and {b} ({} apart)", b - a),
                    )
                }),
            )?;
        }
        if !self.explanation.is_empty() {
            writeln!(f, "why:")?;
            write_grouped(f, "  ", self.explanation.iter().cloned())?;
        }
        self.state.write_note(f)
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// How it ended.
    pub end: RunEnd,
    /// Statistics.
    pub stats: Stats,
    /// Per range of [`RunOptions::dump`], per tile: the bytes at the end
    /// (outside memory: none).
    pub dumps: Vec<Vec<Vec<u8>>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_lists_join_runs() {
        assert_eq!(tile_list(&[3]), "tile 3");
        assert_eq!(tile_list(&[1, 2, 3, 5, 7, 8]), "tiles 1-3, 5, 7-8");
        assert_eq!(tile_list(&[9, 1, 2]), "tiles 1-2, 9");
    }

    struct Lines(Vec<(u32, String)>);

    impl fmt::Display for Lines {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_grouped(f, "", self.0.iter().cloned())
        }
    }

    #[test]
    fn identical_lines_are_grouped_and_many_are_capped() {
        let same: Vec<(u32, String)> = (0..1024).map(|t| (t, "waits".to_string())).collect();
        assert_eq!(Lines(same).to_string(), "tiles 0-1023 waits\n");
        let distinct: Vec<(u32, String)> = (0..100).map(|t| (t, format!("id {t}"))).collect();
        let text = Lines(distinct).to_string();
        assert_eq!(text.lines().count(), REPORT_LINES + 1);
        assert!(text.ends_with("... and 76 more lines (76 entries) like these\n"));
    }
}
