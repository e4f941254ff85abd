//! End-of-run statistics: total cycles; per tile instructions, IPC and cycles
//! by pipeline state; per context instructions and cycles running, ready but
//! waiting, and suspended by cause. Text for people, JSON for machines.

use std::fmt::Write as _;

use serde::Serialize;

use crate::hart::context::{ContextCounters, SuspendCause};
use crate::tile::Tile;

/// Statistics of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Cycle at which the run ended.
    pub total_cycles: u64,
    /// Instructions retired on all tiles.
    pub instructions: u64,
    /// Every tile, by node id.
    pub tiles: Vec<TileStats>,
    /// The network and the NIUs.
    pub network: crate::stats_network::NetworkStats,
}

/// One tile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TileStats {
    /// Node id.
    pub tile: u32,
    /// Instructions retired.
    pub instructions: u64,
    /// The tile's own cycle count (equals the total except for tiles that ran
    /// past an `exit` on another tile within the same epoch).
    pub cycles: u64,
    /// Instructions per cycle of `cycles`.
    pub ipc: f64,
    /// Cycles an instruction occupied the pipeline.
    pub issuing: u64,
    /// Cycles spent switching contexts.
    pub switching: u64,
    /// Cycles with no ready context.
    pub idle: u64,
    /// Contexts that ran at least one thread.
    pub contexts: Vec<ContextStats>,
}

/// One context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContextStats {
    /// Context number.
    pub context: u32,
    /// Threads it ran.
    pub threads: u64,
    /// Instructions retired.
    pub instructions: u64,
    /// Cycles its instructions occupied the pipeline.
    pub running: u64,
    /// Cycles ready while the pipeline was busy with another context or switching.
    pub ready_waiting: u64,
    /// Cycles suspended, by cause.
    pub suspended: Suspended,
}

/// Suspended cycles by cause (one field per [`SuspendCause`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Suspended {
    /// `waits`.
    pub wait_send: u64,
    /// `waitr`.
    pub wait_receive: u64,
    /// A send found its transmission queue full.
    pub queue_full: u64,
    /// Original NIU: the queue was held by a sendm copy or another message.
    pub niu_busy: u64,
    /// `sendh`/`str` on a message id in use.
    pub id_in_use: u64,
    /// `sendh`/`str` found the table full.
    pub table_full: u64,
}

impl Suspended {
    fn from_counters(c: &ContextCounters) -> Suspended {
        let get = |cause: SuspendCause| {
            c.suspended[SuspendCause::ALL
                .iter()
                .position(|x| *x == cause)
                .unwrap_or(0)]
        };
        Suspended {
            wait_send: get(SuspendCause::WaitSend),
            wait_receive: get(SuspendCause::WaitReceive),
            queue_full: get(SuspendCause::QueueFull),
            niu_busy: get(SuspendCause::NiuBusy),
            id_in_use: get(SuspendCause::IdInUse),
            table_full: get(SuspendCause::TableFull),
        }
    }
}

impl Stats {
    /// Collects statistics from closed tiles.
    pub fn collect(
        total_cycles: u64,
        tiles: &[Tile],
        network: crate::stats_network::NetworkStats,
    ) -> Stats {
        let tiles: Vec<TileStats> = tiles
            .iter()
            .map(|t| {
                let contexts: Vec<ContextStats> = t
                    .contexts
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.counters.threads > 0)
                    .map(|(i, c)| ContextStats {
                        context: i as u32,
                        threads: c.counters.threads,
                        instructions: c.counters.instructions,
                        running: c.counters.running,
                        ready_waiting: c.counters.ready_waiting,
                        suspended: Suspended::from_counters(&c.counters),
                    })
                    .collect();
                let instructions = contexts.iter().map(|c| c.instructions).sum();
                TileStats {
                    tile: t.id,
                    instructions,
                    cycles: t.now,
                    ipc: if t.now == 0 {
                        0.0
                    } else {
                        instructions as f64 / t.now as f64
                    },
                    issuing: t.counters.issuing,
                    switching: t.counters.switching,
                    idle: t.counters.idle,
                    contexts,
                }
            })
            .collect();
        Stats {
            total_cycles,
            instructions: tiles.iter().map(|t| t.instructions).sum(),
            tiles,
            network,
        }
    }

    /// JSON (pretty).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("statistics serialize")
    }

    /// A table for people; tiles that retired nothing are summarized in one line.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "total cycles: {}", self.total_cycles);
        let _ = writeln!(s, "instructions: {}", self.instructions);
        let _ = writeln!(
            s,
            "{:>5} {:>12} {:>6} {:>12} {:>10} {:>12}",
            "tile", "instructions", "IPC", "issuing", "switching", "idle"
        );
        let mut quiet = 0;
        for t in &self.tiles {
            if t.instructions == 0 {
                quiet += 1;
                continue;
            }
            let _ = writeln!(
                s,
                "{:>5} {:>12} {:>6.3} {:>12} {:>10} {:>12}",
                t.tile, t.instructions, t.ipc, t.issuing, t.switching, t.idle
            );
        }
        if quiet > 0 {
            let _ = writeln!(s, "({quiet} tiles retired no instruction)");
        }
        let _ = writeln!(
            s,
            "{:>5} {:>4} {:>7} {:>12} {:>12} {:>13} {:>9} {:>9} {:>10} {:>8} {:>9} {:>10}",
            "tile",
            "ctx",
            "threads",
            "instructions",
            "running",
            "ready_waiting",
            "wait_send",
            "wait_recv",
            "queue_full",
            "niu_busy",
            "id_in_use",
            "table_full"
        );
        for t in &self.tiles {
            for c in &t.contexts {
                let w = &c.suspended;
                let _ = writeln!(
                    s,
                    "{:>5} {:>4} {:>7} {:>12} {:>12} {:>13} {:>9} {:>9} {:>10} {:>8} {:>9} {:>10}",
                    t.tile,
                    c.context,
                    c.threads,
                    c.instructions,
                    c.running,
                    c.ready_waiting,
                    w.wait_send,
                    w.wait_receive,
                    w.queue_full,
                    w.niu_busy,
                    w.id_in_use,
                    w.table_full
                );
            }
        }
        if self.network.flits > 0 {
            self.network.write_text(&mut s);
        }
        s
    }
}
