//! The reports of a run that cannot go on or was stopped: the machine's
//! state (every live context with its pc, label, instruction and what it
//! waits for; what each NIU holds; every held flit), and for a deadlock
//! why the waiting contexts cannot proceed and what would help, worked out
//! from the NIUs' tables across nodes (a full receive table and what fills
//! it, a Rendezvous send and the state of its id at the receiver, a
//! discarded Ready-mode message, a thread message with no free context).

use isa_spec::msg::ReceiveState;

use super::Machine;
use super::report::{ContextReport, DeadlockReport, Progress, StateReport, Stuck};
use crate::hart::context::ContextState;
use crate::network::StallReport;
use crate::niu::report::Held;

impl Machine {
    /// How far the run has come (cheap: one look at each tile).
    pub fn progress(&self) -> Progress {
        let running = self.tiles.iter().filter(|t| !t.is_finished()).count();
        // The network may lag behind while it has nothing to do.
        let cycle = self
            .tiles
            .iter()
            .filter(|t| !t.is_finished())
            .map(|t| t.now())
            .min()
            .unwrap_or(self.net_now);
        Progress {
            cycle,
            tiles_running: running,
            tiles: self.tiles.len(),
        }
    }

    /// The furthest cycle a tile or the network has reached.
    pub(super) fn frontier(&self) -> u64 {
        self.tiles
            .iter()
            .map(|t| t.now())
            .max()
            .unwrap_or(0)
            .max(self.net_now)
    }

    /// Every live context, what the NIUs hold, every held flit.
    pub(super) fn state_report(&self, cycle: u64) -> StateReport {
        let mut contexts = Vec::new();
        for (i, t) in self.tiles.iter().enumerate() {
            for (c, ctx) in t.contexts.iter().enumerate() {
                if !ctx.is_live() {
                    continue;
                }
                let (runnable, state) = match ctx.state {
                    ContextState::Suspended(cause) => (
                        false,
                        format!(
                            "waits for {}",
                            self.nius[i]
                                .describe_wait(c)
                                .unwrap_or_else(|| cause.name().to_string())
                        ),
                    ),
                    ContextState::Ready => (true, "ready".to_string()),
                    _ => (true, "running".to_string()),
                };
                let instruction = t
                    .memory
                    .load_u32(ctx.pc)
                    .ok()
                    .and_then(isa_spec::Inst::decode)
                    .map(|inst| inst.display(ctx.pc).to_string())
                    .unwrap_or_else(|| "?".to_string());
                let (symbol, callers) = self
                    .labels
                    .place(ctx.pc, &ctx.x, &|a| t.memory.load_u32(a).ok());
                contexts.push(ContextReport {
                    tile: t.id,
                    context: c as u32,
                    pc: ctx.pc,
                    symbol,
                    callers,
                    instruction,
                    runnable,
                    state,
                });
            }
        }
        let nius = self
            .nius
            .iter()
            .zip(&self.tiles)
            .flat_map(|(n, t)| {
                n.report_lines(&self.net)
                    .into_iter()
                    .map(move |line| (t.id, line))
            })
            .collect::<Vec<_>>();
        let network = self.net.stall_report();
        StateReport {
            cycle,
            contexts,
            heads: self.chain_heads(&network, &nius),
            nius,
            network,
            instructions: self
                .tiles
                .iter()
                .flat_map(|t| &t.contexts)
                .map(|c| c.counters.instructions)
                .sum(),
            messages: self
                .nius
                .iter()
                .map(|n| n.counters.messages_sent.iter().sum::<u64>())
                .sum(),
            boot_note: self.boot_note(),
        }
    }

    /// When only tile 0 booted and some tiles never ran a thread: a note
    /// naming `--boot all`.
    pub fn boot_note(&self) -> Option<String> {
        let never = self
            .tiles
            .iter()
            .filter(|t| t.contexts.iter().all(|c| c.counters.threads == 0))
            .count();
        boot_note(&self.config, never)
    }

    /// The report of a run found stuck at `cycle`.
    pub(super) fn deadlock_report(&self, cycle: u64, stuck: Stuck) -> DeadlockReport {
        DeadlockReport {
            stuck,
            stalled_for: match stuck {
                // Cycles since a flit last moved (messaging instructions
                // that spin, e.g. `ldsr`, are no progress of the network):
                // network.stall_cycles when found.
                Stuck::Spinning => cycle.saturating_sub(1).saturating_sub(self.net.last_move()),
                Stuck::Livelock => 0,
                _ => cycle.saturating_sub(self.last_progress.max(self.net.last_move())),
            },
            explanation: self.explanation(),
            state: self.state_report(cycle),
            repeats: Vec::new(),
        }
    }

    /// Why the waiting contexts cannot proceed, with remedies: (tile, line).
    fn explanation(&self) -> Vec<(u32, String)> {
        let mut out = Vec::new();
        let network = self.net.stall_report();
        for (i, t) in self.tiles.iter().enumerate() {
            let niu = &self.nius[i];
            for (c, ctx) in t.contexts.iter().enumerate() {
                if !matches!(ctx.state, ContextState::Suspended(_)) {
                    continue;
                }
                let at = self.labels.pc_text_from(ctx.pc, ctx.x[1]);
                if let Some(receive) = niu.waits_for_room(c) {
                    out.push((t.id, self.full_table(i, c, &at, receive)));
                }
                if let Some((true, id)) = niu.waited_id(c)
                    && niu.receive_table().state(id) == ReceiveState::InUse
                    && !niu.discards().iter().any(|d| d.id == id)
                    && self.net.in_flight() == 0
                    && !self
                        .nius
                        .iter()
                        .any(|n| n.cts_waits().iter().any(|w| w.dst == t.id && w.id == id))
                {
                    out.push((
                        t.id,
                        format!(
                            "context {c} at {at} waits for message id {}, which no node is sending: the network holds no flit and no Rendezvous send of it waits; the threads that could send it are waiting too (or have ended)",
                            isa_spec::msg::message_id_text(id)
                        ),
                    ));
                }
                if let Some((true, id)) = niu.waited_id(c)
                    && let Some(d) = niu.discards().iter().find(|d| d.id == id)
                {
                    let id = isa_spec::msg::message_id_text(id);
                    out.push((
                        t.id,
                        format!(
                            "context {c} at {at} waits for message id {id}, but a Ready-mode message for that id from node {} came at cycle {} while its receive entry was {} (no receive posted) and was discarded: in Ready mode the receive must be posted before the data arrives. Post it earlier (a barrier between the str and the sends), send in Rendezvous mode (sendh rdv), or set niu.strict=true to stop at the discard",
                            d.from,
                            d.cycle,
                            d.found.name()
                        ),
                    ));
                }
            }
            for w in niu.cts_waits() {
                let dst = w.dst as usize;
                let Some(receiver) = self.nius.get(dst) else {
                    continue;
                };
                let held = receiver.held(&self.net).into_iter().find(
                    |h| matches!(h, Held::Rts { id, from, .. } if *id == w.id && *from == t.id),
                );
                let state = receiver.receive_table().state(w.id);
                let why = match (state, held) {
                    (ReceiveState::RtsReceived, _) => format!(
                        "tile {dst} recorded its RTS (RTS Received) but no thread there posts the receive (str) for id {}",
                        isa_spec::msg::message_id_text(w.id)
                    ),
                    (ReceiveState::Complete, _) => format!(
                        "tile {dst}'s receive entry of id {} is Complete from an earlier message and has not been removed: the RTS waits for rmr (SCMPClearReceive) of it, which the receiving thread must do before it posts the next receive of that id",
                        isa_spec::msg::message_id_text(w.id)
                    ),
                    (ReceiveState::InProgress, Some(_)) => format!(
                        "another message with id {} into tile {dst} is In Progress; the RTS waits in its ejection buffer until it is Complete and removed",
                        isa_spec::msg::message_id_text(w.id)
                    ),
                    // Taken and answered (the entry goes In Progress with
                    // the CTS), or still in the network behind another
                    // message of that id: the entry does not say which.
                    (ReceiveState::InProgress, None) => format!(
                        "tile {dst}'s entry of id {} is In Progress: its NIU has taken an RTS of that id; if it was this one, the CTS is on its way; if another's, this RTS waits in the network ({})",
                        isa_spec::msg::message_id_text(w.id),
                        held_places(&network, t.id, w.dst)
                    ),
                    (ReceiveState::Empty, Some(_)) => format!(
                        "tile {dst}'s receive table is full (all {} entries taken); the RTS waits in its ejection buffer for an entry",
                        receiver.receive_table().capacity()
                    ),
                    (ReceiveState::Empty, None) => "its RTS is still in the network".to_string(),
                    // An RTS that finds its receive posted is answered
                    // when taken, and the entry goes In Progress: In Use
                    // means the RTS has not been taken.
                    (ReceiveState::InUse, _) => format!(
                        "tile {dst} has posted the receive, but its NIU has not taken the RTS yet (it answers it with the CTS when it does): {}",
                        held_places(&network, t.id, w.dst)
                    ),
                };
                out.push((
                    t.id,
                    format!(
                        "context {}'s Rendezvous send of message id {} to tile {dst} waits for its CTS: {why}",
                        w.context,
                        isa_spec::msg::message_id_text(w.id)
                    ),
                ));
            }
            for h in niu.held(&self.net) {
                if let Held::Thread { from } = h {
                    let running = t
                        .contexts
                        .iter()
                        .filter(|c| matches!(c.state, ContextState::Ready | ContextState::Running))
                        .count();
                    out.push((
                        t.id,
                        format!(
                            "a thread message from node {from} needs a free context and every one of the {} holds a thread ({running} of them running): a handler that waits in a loop for another message keeps its context, so the message it waits for may never get one. End handlers quickly (record the message, endt) and wait in a main thread, or send fewer thread messages at once",
                            t.contexts.len()
                        ),
                    ));
                }
            }
        }
        out
    }

    /// Why context `c` of tile `i` cannot get an entry of its full receive
    /// (or send) table, and the remedies.
    fn full_table(&self, i: usize, c: usize, at: &str, receive: bool) -> String {
        let niu = &self.nius[i];
        if receive {
            let table = niu.receive_table();
            let rts = table
                .entries()
                .iter()
                .filter(|e| e.state == ReceiveState::RtsReceived)
                .count();
            let complete = table
                .entries()
                .iter()
                .filter(|e| e.state == ReceiveState::Complete)
                .count();
            let complete = if complete > 0 {
                format!(", {complete} Complete (waiting for rmr)")
            } else {
                String::new()
            };
            format!(
                "context {c} at {at} posts a receive (str) but the receive table is full: {} of {} entries, {rts} RTS Received (Rendezvous senders announced messages whose receives this tile has not posted yet){complete}. Only a receive posted for one of the RTS Received ids, or an rmr, frees an entry. Remedies: post first the receives of ids whose RTS has arrived (SCMPPollReceive/ldsr reads RTS Received for them); keep at most niu.receive_table_entries receives outstanding (receive in windows, see docs/libraries.md, \"Gathering from many tiles\"); remove Complete entries (rmr) early; or raise niu.receive_table_entries",
                table.len(),
                table.capacity()
            )
        } else {
            let table = niu.send_table();
            let count = |s| table.entries().iter().filter(|e| e.state == s).count();
            use isa_spec::msg::SendState;
            format!(
                "context {c} at {at} starts a send (sendh) but the send table is full: {} of {} entries, {} Complete (waiting for rms: SCMPClearSend), {} In Progress (Rendezvous sends waiting for their CTS or data under way), {} In Use. Remedies: remove completed sends (rms) before starting more; or raise niu.send_table_entries",
                table.len(),
                table.capacity(),
                count(SendState::Complete),
                count(SendState::InProgress),
                count(SendState::InUse)
            )
        }
    }
}

/// Where the network holds flits of packets `src`->`dst`, in words (at most
/// four buffers named).
fn held_places(network: &StallReport, src: u32, dst: u32) -> String {
    let mut places: Vec<String> = Vec::new();
    for h in network.held.iter().filter(|h| h.src == src && h.dst == dst) {
        let place = if h.ejected {
            format!("node {}'s ejection vc{}", h.node, h.vc)
        } else {
            format!("router {} in {} vc{}", h.node, h.port.letter(), h.vc)
        };
        if !places.contains(&place) {
            places.push(place);
        }
    }
    match places.len() {
        0 => format!("no flit of a packet {src}->{dst} is held in a buffer (one may be on a link)"),
        n => format!(
            "flits of packets {src}->{dst} are held at {}{}",
            places[..n.min(4)].join(", "),
            if n > 4 { ", ..." } else { "" }
        ),
    }
}

/// The note of a report of a multi-tile run where only tile 0 booted
/// (`boot.tiles = "first"`) and `never` tiles never ran a thread (none:
/// no note).
pub fn boot_note(config: &crate::config::Config, never: usize) -> Option<String> {
    let tiles = config.tiles();
    (config.boot.tiles == crate::config::BootTiles::First && tiles > 1 && never > 0).then(|| {
        format!(
            "only tile 0 booted (boot.tiles = \"first\", the default without --boot): {never} of the {tiles} tiles never ran a thread. To start every tile at the entry point, run with --boot all (or put boot=all in the program's `# run:` line)"
        )
    })
}
