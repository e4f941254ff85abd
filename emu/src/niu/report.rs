//! What an NIU holds, for the reports of a run that cannot go on
//! (deadlock, interrupt): its tables by state (with each entry's id,
//! source node and the cycle it entered its state), the messages that wait
//! in its ejection buffers and why, its Rendezvous sends waiting for a
//! CTS, the Ready-mode messages it discarded, and what each suspended
//! context waits for. The machine's report (`crate::machine::explain`)
//! puts the NIUs' answers together into why a context cannot proceed.

use isa_spec::msg::message_id_text as text;
use isa_spec::msg::{FlitKind, Head, MessageType, ReceiveState, SendState};

use super::Niu;
use super::eject::Rx;
use super::tables::QueueState;
use super::tables::{ReceiveEvent, SendEvent};
use super::wait::Wait;
use crate::network::Network;

/// A Ready-mode data message the NIU discarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Discard {
    /// Cycle it was discarded.
    pub cycle: u64,
    /// Its message id.
    pub id: u32,
    /// The sending node.
    pub from: u32,
    /// The receive entry's state it found.
    pub found: ReceiveState,
}

/// Table entries grouped by state: (id, since, source node).
type ByState<S> = Vec<(S, Vec<(u32, u64, Option<u32>)>)>;

/// Discards an NIU remembers for reports (the count is in its counters).
const DISCARDS_KEPT: usize = 64;

/// A Rendezvous send waiting for its CTS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtsWait {
    /// The sending context (its queue).
    pub context: usize,
    /// Message id.
    pub id: u32,
    /// Destination node.
    pub dst: u32,
    /// Cycle the RTS went out.
    pub since: u64,
}

/// A message whose head waits in an ejection buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// A thread message: no context is free.
    Thread {
        /// Sending node.
        from: u32,
    },
    /// An RTS whose receive entry is busy, or for which the table is full.
    Rts {
        /// Message id.
        id: u32,
        /// Sending node.
        from: u32,
        /// The entry's state (Empty: the table is full).
        found: ReceiveState,
    },
    /// Ready-mode data whose entry is In Progress (an earlier transfer).
    Data {
        /// Message id.
        id: u32,
        /// Sending node.
        from: u32,
    },
}

impl Niu {
    /// Notes that entry `id` of the send (`receive` false) or receive table
    /// entered its current state at `now` (or was removed).
    pub(crate) fn note_entry(&mut self, receive: bool, id: u32, removed: bool, now: u64) {
        self.since.retain(|&(r, i, _)| (r, i) != (receive, id));
        if !removed {
            self.since.push((receive, id, now));
        }
    }

    /// Remembers a discarded Ready-mode message (the first few).
    pub(crate) fn note_discard(&mut self, cycle: u64, id: u32, from: u32, found: ReceiveState) {
        if self.discards.len() < DISCARDS_KEPT {
            self.discards.push(Discard {
                cycle,
                id,
                from,
                found,
            });
        }
    }

    /// The cycle entry `id` entered its state.
    pub fn entry_since(&self, receive: bool, id: u32) -> Option<u64> {
        self.since
            .iter()
            .find(|&&(r, i, _)| (r, i) == (receive, id))
            .map(|&(_, _, c)| c)
    }

    /// The Ready-mode messages discarded (the first 64).
    pub fn discards(&self) -> &[Discard] {
        &self.discards
    }

    /// Rendezvous sends waiting for their CTS.
    pub fn cts_waits(&self) -> Vec<CtsWait> {
        self.qstate
            .iter()
            .enumerate()
            .filter_map(|(q, s)| match s {
                QueueState::Waiting(id) => {
                    let dst = match self.queues[q].front(u64::MAX) {
                        Some(super::queue::Entry::Flit(f)) if f.kind() == FlitKind::Head => {
                            Head::decode(f.payload).map(|h| self.dst_of(h.dx, h.dy))
                        }
                        _ => None,
                    }?;
                    Some(CtsWait {
                        context: q,
                        id: *id,
                        dst,
                        since: self.cts_since[q],
                    })
                }
                _ => None,
            })
            .collect()
    }

    /// Messages whose head (or RTS tail) waits at the front of an ejection
    /// buffer, and why.
    pub fn held(&self, net: &Network) -> Vec<Held> {
        self.held_on(net).into_iter().map(|(_, h)| h).collect()
    }

    /// [`Niu::held`] with each one's ejection VC.
    pub fn held_on(&self, net: &Network) -> Vec<(usize, Held)> {
        let mut out = Vec::new();
        for (vc, rx) in self.rx.states().iter().enumerate() {
            let Some(f) = net.peek_ejected(self.node, vc as u8) else {
                continue;
            };
            let from = net.packet(f.packet).src;
            match rx {
                Rx::Idle
                    if f.is_first()
                        && Head::decode(f.flit.payload)
                            .is_some_and(|h| h.ty == MessageType::Thread) =>
                {
                    out.push((vc, Held::Thread { from }));
                }
                Rx::Rts { .. } => {
                    let id = f.flit.payload;
                    out.push((
                        vc,
                        Held::Rts {
                            id,
                            from,
                            found: self.recv.state(id),
                        },
                    ));
                }
                Rx::AwaitTag {
                    rendezvous: false, ..
                } => {
                    let id = f.flit.payload;
                    if self.recv.state(id) == ReceiveState::InProgress {
                        out.push((vc, Held::Data { id, from }));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The contexts suspended on the NIU, with what each waits for in words.
    pub fn waits(&self) -> Vec<(usize, String)> {
        self.waiting
            .iter()
            .map(|&(c, _)| (c, self.describe_wait(c).unwrap_or_default()))
            .collect()
    }

    /// What context `c` waits for, and (for a table or an id) the state
    /// that keeps it waiting.
    pub fn describe_wait(&self, c: usize) -> Option<String> {
        let (_, w) = self.waiting.iter().find(|(x, _)| *x == c)?;
        Some(match *w {
            Wait::QueueRoom => "room in its transmission queue".into(),
            Wait::QueueFree => {
                "the transmission queue (a sendm copy or another context's message)".into()
            }
            Wait::Send(id, SendEvent::Waits) => format!(
                "the send of message id {} to complete (waits; it is {})",
                text(id),
                self.send.state(id).name()
            ),
            Wait::Send(id, _) => format!(
                "the send entry of message id {} to be removed (rms); it is {}",
                text(id),
                self.send.state(id).name()
            ),
            Wait::Receive(id, ReceiveEvent::Waitr) => format!(
                "the receive of message id {} to complete (waitr; it is {})",
                text(id),
                self.recv.state(id).name()
            ),
            Wait::Receive(id, _) => format!(
                "the receive entry of message id {} to be removed (rmr) or to receive an RTS; it is {}",
                text(id),
                self.recv.state(id).name()
            ),
            Wait::SendRoom => format!(
                "a free send-table entry (all {} are taken)",
                self.send.capacity()
            ),
            Wait::ReceiveRoom => format!(
                "a free receive-table entry (all {} are taken)",
                self.recv.capacity()
            ),
            Wait::Port => "the messaging port, held by a context waiting for room in its transmission queue (niu.full_queue = \"port\")".into(),
        })
    }

    /// The id a context waits for and whether in the receive table, for
    /// the machine's explanation.
    pub fn waited_id(&self, c: usize) -> Option<(bool, u32)> {
        let (_, w) = self.waiting.iter().find(|(x, _)| *x == c)?;
        match *w {
            Wait::Receive(id, _) => Some((true, id)),
            Wait::Send(id, _) => Some((false, id)),
            _ => None,
        }
    }

    /// Whether context `c` waits for a free entry of the receive (`true`)
    /// or send table.
    pub fn waits_for_room(&self, c: usize) -> Option<bool> {
        let (_, w) = self.waiting.iter().find(|(x, _)| *x == c)?;
        match w {
            Wait::ReceiveRoom => Some(true),
            Wait::SendRoom => Some(false),
            _ => None,
        }
    }

    /// The lines of a report: each table that holds entries, by state; the
    /// messages held in its ejection buffers; sends waiting for a CTS;
    /// messages still open; discards.
    pub fn report_lines(&self, net: &Network) -> Vec<String> {
        let mut out = Vec::new();
        if !self.send.is_empty() {
            let mut by_state: ByState<SendState> = Vec::new();
            for e in self.send.entries() {
                let since = self.entry_since(false, e.id).unwrap_or(0);
                push_grouped(&mut by_state, e.state, (e.id, since, None));
            }
            out.push(table_line(
                "send",
                self.send.len(),
                self.send.capacity(),
                by_state.iter().map(|(s, v)| (s.name(), v.as_slice())),
            ));
        }
        if !self.recv.is_empty() {
            let mut by_state: ByState<ReceiveState> = Vec::new();
            for e in self.recv.entries() {
                let since = self.entry_since(true, e.id).unwrap_or(0);
                let from = (e.state == ReceiveState::RtsReceived).then_some(e.r_node);
                push_grouped(&mut by_state, e.state, (e.id, since, from));
            }
            out.push(table_line(
                "receive",
                self.recv.len(),
                self.recv.capacity(),
                by_state.iter().map(|(s, v)| (s.name(), v.as_slice())),
            ));
        }
        for h in self.held(net) {
            out.push(self.held_text(h));
        }
        for w in self.cts_waits() {
            out.push(format!(
                "context {}'s Rendezvous send of message id {} to node {} waits for its CTS (RTS sent at cycle {})",
                w.context,
                text(w.id),
                w.dst,
                w.since
            ));
        }
        for (c, open) in self.open.iter().enumerate() {
            if let Some(m) = open {
                out.push(format!(
                    "context {c} has a {:?} message open ({} body flits, no tail yet)",
                    m.ty, m.body
                ));
            }
        }
        if self.counters.discarded > 0 {
            let shown: Vec<String> = self
                .discards
                .iter()
                .take(4)
                .map(|d| {
                    format!(
                        "id {} from node {} at cycle {} (entry {})",
                        d.id,
                        d.from,
                        d.cycle,
                        d.found.name()
                    )
                })
                .collect();
            out.push(format!(
                "discarded {} Ready-mode message{} for want of a posted receive: {}{}",
                self.counters.discarded,
                if self.counters.discarded == 1 {
                    ""
                } else {
                    "s"
                },
                shown.join(", "),
                if self.counters.discarded > 4 {
                    ", ..."
                } else {
                    ""
                }
            ));
        }
        out
    }
}

impl Niu {
    /// A message held in an ejection buffer, in words.
    pub fn held_text(&self, h: Held) -> String {
        match h {
            Held::Thread { from } => format!(
                "a thread message from node {from} waits in the ejection buffer for a free context (all {} hold threads)",
                self.open.len()
            ),
            Held::Rts { id, from, found } => match found {
                ReceiveState::Empty => format!(
                    "an RTS for message id {} from node {from} waits in the ejection buffer: the receive table is full",
                    text(id)
                ),
                s => format!(
                    "an RTS for message id {} from node {from} waits in the ejection buffer: the entry of id {} is {}{}",
                    text(id),
                    text(id),
                    s.name(),
                    if s == ReceiveState::Complete {
                        " and waits for rmr"
                    } else {
                        ""
                    }
                ),
            },
            Held::Data { id, from } => format!(
                "a Ready-mode message for id {} from node {from} waits in the ejection buffer: an earlier transfer of that id is In Progress",
                text(id)
            ),
        }
    }

    /// When an RTS waits in an ejection buffer for a full receive table
    /// whose entries include RTSs for receives not posted yet: the
    /// pattern of a receive-table deadlock (docs/network.md, "Early
    /// RTSs"), in words; `None` otherwise.
    pub fn early_rts_text(&self, held: &[(usize, Held)]) -> Option<String> {
        let blocked = held.iter().any(|(_, h)| {
            matches!(
                h,
                Held::Rts {
                    found: ReceiveState::Empty,
                    ..
                }
            )
        });
        let early = self
            .recv
            .entries()
            .iter()
            .filter(|e| e.state == ReceiveState::RtsReceived)
            .count();
        (blocked && early > 0 && self.recv.is_full()).then(|| {
            format!(
                "{early} of the table's {} entries are RTSs for receives not posted yet: an RTS that needs an entry holds its ejection buffer, and every flit behind it waits until a thread here posts one of those receives (docs/network.md, \"Early RTSs\")",
                self.recv.capacity()
            )
        })
    }

    /// Every entry of the receive table, by state (in the order the
    /// table keeps them within one): `receive table 3 of 32: In Use
    /// 0x20001002 (cycle 9); RTS Received 0x20002002 (node 2, cycle 12),
    /// ...`, with the node that sent an RTS and the cycle each entered its
    /// state; `None` for an empty table.
    pub fn receive_entries_text(&self) -> Option<String> {
        if self.recv.is_empty() {
            return None;
        }
        let mut by_state: Vec<(ReceiveState, Vec<String>)> = Vec::new();
        for e in self.recv.entries() {
            let since = self.entry_since(true, e.id).unwrap_or(0);
            let item = if e.state == ReceiveState::RtsReceived {
                format!("{:#010x} (node {}, cycle {since})", e.id, e.r_node)
            } else {
                format!("{:#010x} (cycle {since})", e.id)
            };
            push_grouped(&mut by_state, e.state, item);
        }
        let groups: Vec<String> = by_state
            .iter()
            .map(|(state, items)| format!("{} {}", state.name(), items.join(", ")))
            .collect();
        Some(format!(
            "{}: {}",
            table_head("receive", self.recv.len(), self.recv.capacity()),
            groups.join("; ")
        ))
    }
}

/// Adds `item` to the group of `state`.
fn push_grouped<S: PartialEq + Copy, T>(groups: &mut Vec<(S, Vec<T>)>, state: S, item: T) {
    match groups.iter_mut().find(|(s, _)| *s == state) {
        Some((_, v)) => v.push(item),
        None => groups.push((state, vec![item])),
    }
}

/// `receive table 32 of 32 (full): 30 RTS Received (ids 1-30 from nodes
/// 1-30, since cycles 12-80), 2 In Use (ids 40-41, since cycle 9)`.
fn table_line<'a>(
    name: &str,
    len: usize,
    capacity: usize,
    groups: impl Iterator<Item = (&'a str, &'a [(u32, u64, Option<u32>)])>,
) -> String {
    let parts: Vec<String> = groups
        .map(|(state, items)| {
            let ids: Vec<u32> = items.iter().map(|i| i.0).collect();
            let from: Vec<u32> = items.iter().filter_map(|i| i.2).collect();
            let (lo, hi) = items
                .iter()
                .fold((u64::MAX, 0), |(lo, hi), i| (lo.min(i.1), hi.max(i.1)));
            let since = if lo == hi {
                format!("since cycle {lo}")
            } else {
                format!("since cycles {lo}-{hi}")
            };
            let from = if from.is_empty() {
                String::new()
            } else {
                format!(" from {}", numbers("node", "nodes", &from))
            };
            format!(
                "{} {state} ({}{from}, {since})",
                items.len(),
                ids_text(&ids)
            )
        })
        .collect();
    format!("{}: {}", table_head(name, len, capacity), parts.join(", "))
}

/// `receive table 32 of 32 (full)`: a table line's start.
fn table_head(name: &str, len: usize, capacity: usize) -> String {
    let full = if len >= capacity { " (full)" } else { "" };
    format!("{name} table {len} of {capacity}{full}")
}

/// Message ids as a report writes them: small ones as numbers in runs
/// ([`numbers`]), one `SCMP_ID` id decoded, several in hexadecimal.
fn ids_text(ids: &[u32]) -> String {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v.dedup();
    match v.as_slice() {
        [one] => format!("id {}", text(*one)),
        _ if v.iter().all(|&i| i < 0x1000) => numbers("id", "ids", &v),
        _ => {
            let shown: Vec<String> = v.iter().take(8).map(|i| format!("{i:#010x}")).collect();
            let more = if v.len() > 8 { ", ..." } else { "" };
            format!("ids {}{more}", shown.join(", "))
        }
    }
}

/// `id 5`, `ids 1-30, 40`: numbers in ascending runs, at most 8 runs.
pub fn numbers(one: &str, many: &str, values: &[u32]) -> String {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.dedup();
    if let [x] = v.as_slice() {
        return format!("{one} {x}");
    }
    let mut runs: Vec<String> = Vec::new();
    let mut k = 0;
    while k < v.len() {
        let start = v[k];
        while k + 1 < v.len() && v[k + 1] == v[k] + 1 {
            k += 1;
        }
        runs.push(if v[k] == start {
            start.to_string()
        } else {
            format!("{start}-{}", v[k])
        });
        k += 1;
    }
    let more = runs.len().saturating_sub(8);
    runs.truncate(8);
    format!(
        "{many} {}{}",
        runs.join(", "),
        if more > 0 {
            format!(" and {more} more runs")
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_runs() {
        assert_eq!(numbers("id", "ids", &[7]), "id 7");
        assert_eq!(numbers("id", "ids", &[3, 1, 2, 9]), "ids 1-3, 9");
        let many: Vec<u32> = (0..40).map(|i| i * 2).collect();
        assert!(numbers("id", "ids", &many).ends_with(" and 32 more runs"));
    }

    #[test]
    fn a_full_table_is_summarised_by_state() {
        let rts = [(1, 10, Some(1)), (2, 12, Some(2)), (3, 15, Some(3))];
        let used = [(40, 9, None)];
        let line = table_line(
            "receive",
            4,
            4,
            [("RTS Received", &rts[..]), ("In Use", &used[..])].into_iter(),
        );
        assert_eq!(
            line,
            "receive table 4 of 4 (full): 3 RTS Received (ids 1-3 from nodes 1-3, since cycles 10-15), 1 In Use (id 40, since cycle 9)"
        );
    }
}
