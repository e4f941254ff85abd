//! End-of-run statistics: total cycles; per tile instructions, IPC and cycles
//! by pipeline state; per context instructions and cycles running, ready but
//! waiting, and suspended by cause. Text for people, JSON for machines.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::hart::context::{ContextCounters, SuspendCause};
use crate::labels::Labels;
use crate::tile::{IDLE_KINDS, IDLE_NO_THREAD, SITE_IDLE, SITE_POLLING, Tile};

/// Statistics of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Cycle at which the run ended.
    pub total_cycles: u64,
    /// Instructions retired on all tiles.
    pub instructions: u64,
    /// Every tile, by node id.
    pub tiles: Vec<TileStats>,
    /// Where polling and idle time went, by code address, all tiles
    /// together, most cycles first.
    pub wait_sites: Vec<WaitSite>,
    /// The network and the NIUs.
    pub network: crate::stats_network::NetworkStats,
    /// The energy of the run by part (docs/energy.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub energy: Option<crate::energy::RunEnergy>,
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
    /// Of `issuing`: threads started by thread messages (handlers).
    pub handler_issuing: u64,
    /// Of `issuing`: poll iterations (short spans ending in `yield`, see
    /// `tile::POLL_SPAN`) and polling messaging instructions.
    pub polling: u64,
    /// Of `polling`: the handlers' share.
    pub handler_polling: u64,
    /// `idle` by what the tile waited for.
    pub idle_by: IdleBy,
    /// Contexts that ran at least one thread.
    pub contexts: Vec<ContextStats>,
}

/// A tile's idle cycles by what it waited for: the cause of the suspension
/// of the context that suspended last before the tile went idle, or no
/// thread at all.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IdleBy {
    /// `waits`.
    pub wait_send: u64,
    /// `waitr`.
    pub wait_receive: u64,
    /// A full transmission queue.
    pub queue_full: u64,
    /// Original NIU: the queue held by a copy or another message.
    pub niu_busy: u64,
    /// A message id in use.
    pub id_in_use: u64,
    /// A full send or receive table.
    pub table_full: u64,
    /// No thread (waiting for a thread message, or done).
    pub no_thread: u64,
}

/// Polling and idle cycles charged to one code address (see
/// [`TileStats::polling`] and [`TileStats::idle_by`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WaitSite {
    /// The polling `yield`, or the instruction a context suspended at.
    pub pc: u32,
    /// `<symbol+offset>`, when the program has symbols.
    pub symbol: Option<String>,
    /// The symbol alone (the nearest label at or below `pc`).
    pub function: Option<String>,
    /// Polling cycles.
    pub polling: u64,
    /// Idle cycles.
    pub idle: u64,
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

impl IdleBy {
    fn from_counters(c: &[u64; IDLE_KINDS]) -> IdleBy {
        let get = |cause: SuspendCause| {
            c[SuspendCause::ALL
                .iter()
                .position(|x| *x == cause)
                .unwrap_or(0)]
        };
        IdleBy {
            wait_send: get(SuspendCause::WaitSend),
            wait_receive: get(SuspendCause::WaitReceive),
            queue_full: get(SuspendCause::QueueFull),
            niu_busy: get(SuspendCause::NiuBusy),
            id_in_use: get(SuspendCause::IdInUse),
            table_full: get(SuspendCause::TableFull),
            no_thread: c[IDLE_NO_THREAD],
        }
    }

    /// The kinds and their cycles, in statistics order.
    pub fn named(&self) -> [(&'static str, u64); IDLE_KINDS] {
        [
            ("wait_send", self.wait_send),
            ("wait_receive", self.wait_receive),
            ("queue_full", self.queue_full),
            ("niu_busy", self.niu_busy),
            ("id_in_use", self.id_in_use),
            ("table_full", self.table_full),
            ("no_thread", self.no_thread),
        ]
    }
}

impl Stats {
    /// Collects statistics from closed tiles; `labels` name the wait sites.
    pub fn collect(
        total_cycles: u64,
        tiles: &[Tile],
        network: crate::stats_network::NetworkStats,
        labels: &Labels,
    ) -> Stats {
        let closed = tiles;
        let tiles: Vec<TileStats> = closed
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
                    cycles: t.now(),
                    ipc: if t.now() == 0 {
                        0.0
                    } else {
                        instructions as f64 / t.now() as f64
                    },
                    issuing: t.counters().issuing,
                    switching: t.counters().switching,
                    idle: t.counters().idle,
                    handler_issuing: t.counters().handler_issuing,
                    polling: t.counters().polling,
                    handler_polling: t.counters().handler_polling,
                    idle_by: IdleBy::from_counters(&t.counters().idle_by),
                    contexts,
                }
            })
            .collect();
        let mut sites: BTreeMap<u32, [u64; 2]> = BTreeMap::new();
        for t in closed {
            for (pc, cycles) in &t.sites {
                let s = sites.entry(*pc).or_default();
                s[SITE_POLLING] += cycles[SITE_POLLING];
                s[SITE_IDLE] += cycles[SITE_IDLE];
            }
        }
        let mut wait_sites: Vec<WaitSite> = sites
            .into_iter()
            .filter(|(_, c)| c[0] + c[1] > 0)
            .map(|(pc, c)| WaitSite {
                pc,
                symbol: labels.describe(pc),
                function: labels.name_at_or_below(pc).map(str::to_string),
                polling: c[SITE_POLLING],
                idle: c[SITE_IDLE],
            })
            .collect();
        wait_sites.sort_by_key(|w| std::cmp::Reverse(w.polling + w.idle));
        Stats {
            total_cycles,
            instructions: tiles.iter().map(|t| t.instructions).sum(),
            tiles,
            wait_sites,
            network,
            energy: None,
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
        self.write_breakdown(&mut s);
        if self.network.flits > 0 {
            self.network.write_text(&mut s);
        }
        s
    }

    /// Wait sites printed in the text, at most.
    const TEXT_SITES: usize = 8;

    /// Where the cycles went, all tiles together: handlers, polling and
    /// idle time by cause, and the busiest wait sites; nothing for a run
    /// without any of them.
    fn write_breakdown(&self, s: &mut String) {
        let sum = |f: &dyn Fn(&TileStats) -> u64| -> u64 { self.tiles.iter().map(f).sum() };
        let (handlers, polling, handler_polling, idle) = (
            sum(&|t| t.handler_issuing),
            sum(&|t| t.polling),
            sum(&|t| t.handler_polling),
            sum(&|t| t.idle),
        );
        if handlers + polling + idle == 0 {
            return;
        }
        let mut by = IdleBy::default();
        for t in &self.tiles {
            let i = &t.idle_by;
            by.wait_send += i.wait_send;
            by.wait_receive += i.wait_receive;
            by.queue_full += i.queue_full;
            by.niu_busy += i.niu_busy;
            by.id_in_use += i.id_in_use;
            by.table_full += i.table_full;
            by.no_thread += i.no_thread;
        }
        let idle_parts: Vec<String> = by
            .named()
            .iter()
            .filter(|(_, v)| *v > 0)
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(
            s,
            "where the cycles go (all tiles): issuing {} (handlers {handlers}; polling {polling}, of which handlers {handler_polling}), switching {}, idle {idle}{}",
            sum(&|t| t.issuing),
            sum(&|t| t.switching),
            if idle_parts.is_empty() {
                String::new()
            } else {
                format!(" ({})", idle_parts.join(", "))
            }
        );
        for w in self.wait_sites.iter().take(Self::TEXT_SITES) {
            let _ = writeln!(
                s,
                "  wait site {:#010x} {:<32} polling {:>12} idle {:>12}",
                w.pc,
                w.symbol.as_deref().unwrap_or(""),
                w.polling,
                w.idle
            );
        }
        if self.wait_sites.len() > Self::TEXT_SITES {
            let _ = writeln!(
                s,
                "  ({} more wait sites in --stats=json)",
                self.wait_sites.len() - Self::TEXT_SITES
            );
        }
    }
}
