//! End-of-run statistics of the network and the NIUs: messages and flits by
//! type, message latency (mean, maximum, histogram) and where it went,
//! flits per link, VC occupancy, and stalled cycles by cause.

use std::fmt::Write as _;

use isa_spec::msg::MessageType;
use serde::Serialize;

use crate::config::NiuDesign;
use crate::hart::context::SuspendCause;
use crate::network::flit::{PORTS, Port};
use crate::network::{Network, StallCause};
use crate::niu::Niu;
use crate::niu::stats::{HISTOGRAM_BUCKETS, MessageStats, bucket_low};
use crate::tile::Tile;

/// Messages of one type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TypeStats {
    /// Message type.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// Messages injected.
    pub messages_sent: u64,
    /// Flits injected.
    pub flits_sent: u64,
    /// Messages taken in completely at their destination.
    pub messages_received: u64,
}

/// A histogram bucket of message latencies: `[from, to)` cycles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bucket {
    /// Lower bound.
    pub from: u64,
    /// Upper bound (exclusive; none for the last).
    pub to: Option<u64>,
    /// Messages.
    pub messages: u64,
}

/// Mean cycles of each stage of a message's way (see
/// [`crate::niu::stats`]): queueing + network + ejection + notification is
/// the end-to-end latency, message by message; injection and wake-up are
/// apart.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Breakdown {
    /// `sendh` to head injected.
    pub queueing: f64,
    /// Head injected to head taken at the destination.
    pub network: f64,
    /// Head taken to tail taken.
    pub ejection: f64,
    /// Tail taken to the message's effect.
    pub notification: f64,
    /// A Complete receive to the first instruction seeing it (over the
    /// receives seen, `wakeups`).
    pub wakeup: f64,
    /// Receives whose completion an instruction saw.
    pub wakeups: u64,
    /// Head injected to tail injected (serialization at the source).
    pub injection: f64,
}

/// Flits over one link (a router's output port; `L` is its ejection link).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LinkStats {
    /// Router.
    pub node: u32,
    /// Output port letter.
    pub port: char,
    /// Flits sent.
    pub flits: u64,
}

/// Stalled cycles by cause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stalls {
    /// Flit-cycles a router's flit waited for a credit.
    pub no_credit: u64,
    /// Flit-cycles a head found every output VC of its class held.
    pub vc_busy: u64,
    /// Flit-cycles a head lost a free output VC to another.
    pub vc_conflict: u64,
    /// Flit-cycles a flit lost the switch.
    pub switch_conflict: u64,
    /// Context-cycles suspended on a full transmission queue.
    pub queue_full: u64,
    /// Context-cycles suspended on a full send or receive table.
    pub table_full: u64,
    /// NIU-cycles transmission queues waited for a CTS.
    pub waiting_for_cts: u64,
    /// NIU-cycles an arriving thread message waited for a free context.
    pub no_context: u64,
    /// NIU-cycles an arriving message waited for a busy receive entry.
    pub entry_busy: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The network's and the NIUs' statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NetworkStats {
    /// NIU design.
    pub niu: &'static str,
    /// Flits injected.
    pub flits: u64,
    /// By message type (types that were sent).
    pub types: Vec<TypeStats>,
    /// Ready-mode messages discarded (no receive posted).
    pub discarded: u64,
    /// Threads swapped out by the context-exhaustion exception
    /// (`niu.context_exhausted = "swap"`; left out when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub swapped_out: u64,
    /// Saved threads that resumed (left out when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub resumed: u64,
    /// Thread and data messages taken in.
    pub messages: u64,
    /// Their mean end-to-end latency: `sendh` to the message's effect.
    pub end_to_end_mean: f64,
    /// The longest.
    pub end_to_end_max: u64,
    /// Their mean latency in the network: head injected to tail taken.
    pub latency_mean: f64,
    /// The longest.
    pub latency_max: u64,
    /// Latencies by power-of-two bucket (non-empty buckets).
    pub latency_histogram: Vec<Bucket>,
    /// Where the time went.
    pub breakdown: Breakdown,
    /// Links that carried flits.
    pub links: Vec<LinkStats>,
    /// Mean flits buffered per router.
    pub vc_occupancy: f64,
    /// Stalls by cause.
    pub stalls: Stalls,
}

impl NetworkStats {
    /// Collects from the network, the NIUs and the tiles at the end `end`.
    pub fn collect(net: &Network, nius: &[Niu], tiles: &[Tile], end: u64) -> NetworkStats {
        let mut m = MessageStats::default();
        let (mut sent, mut flits, mut received) = ([0u64; 5], [0u64; 5], [0u64; 5]);
        let (mut discarded, mut cts, mut no_context, mut entry_busy) = (0, 0, 0, 0);
        for n in nius {
            let c = &n.counters;
            m.merge(&c.messages);
            for t in 0..5 {
                sent[t] += c.messages_sent[t];
                flits[t] += c.flits_sent[t];
                received[t] += c.messages_received[t];
            }
            discarded += c.discarded;
            cts += n.cts_waiting(end);
            let blocked = n.eject_waiting(end);
            no_context += blocked[0];
            entry_busy += blocked[1] + blocked[2];
        }
        let suspended = |cause: SuspendCause| -> u64 {
            let i = SuspendCause::ALL
                .iter()
                .position(|c| *c == cause)
                .unwrap_or(0);
            tiles
                .iter()
                .flat_map(|t| &t.contexts)
                .map(|c| c.counters.suspended[i])
                .sum()
        };
        let mean = |sum: u64, n: u64| if n == 0 { 0.0 } else { sum as f64 / n as f64 };
        let c = net.counters();
        NetworkStats {
            niu: match nius.first().map(Niu::design) {
                Some(NiuDesign::Original) => "original",
                _ => "modified",
            },
            flits: c.flits_injected,
            types: MessageType::ALL
                .iter()
                .filter(|t| sent[**t as usize] > 0 || received[**t as usize] > 0)
                .map(|t| TypeStats {
                    ty: t.name(),
                    messages_sent: sent[*t as usize],
                    flits_sent: flits[*t as usize],
                    messages_received: received[*t as usize],
                })
                .collect(),
            discarded,
            swapped_out: nius.iter().map(|n| n.counters.swaps).sum(),
            resumed: tiles.iter().map(|t| t.counters().swaps_in).sum(),
            messages: m.count,
            end_to_end_mean: mean(m.end_to_end, m.count),
            end_to_end_max: m.end_to_end_max,
            latency_mean: mean(m.latency, m.count),
            latency_max: m.latency_max,
            latency_histogram: (0..HISTOGRAM_BUCKETS)
                .filter(|&b| m.histogram[b] > 0)
                .map(|b| Bucket {
                    from: bucket_low(b),
                    to: (b + 1 < HISTOGRAM_BUCKETS).then(|| bucket_low(b + 1)),
                    messages: m.histogram[b],
                })
                .collect(),
            breakdown: Breakdown {
                queueing: mean(m.queueing, m.count),
                network: mean(m.network, m.count),
                ejection: mean(m.ejection, m.count),
                notification: mean(m.notification, m.count),
                wakeup: mean(m.wakeup, m.wakeups),
                wakeups: m.wakeups,
                injection: mean(m.injection, m.count),
            },
            links: c
                .link_flits
                .iter()
                .enumerate()
                .filter(|(_, f)| **f > 0)
                .map(|(i, f)| LinkStats {
                    node: (i / PORTS) as u32,
                    port: Port::from_index(i % PORTS).letter(),
                    flits: *f,
                })
                .collect(),
            vc_occupancy: net.mean_buffered_flits(end),
            stalls: Stalls {
                no_credit: c.stalls[StallCause::NoCredit as usize],
                vc_busy: c.stalls[StallCause::VcBusy as usize],
                vc_conflict: c.stalls[StallCause::VcConflict as usize],
                switch_conflict: c.stalls[StallCause::SwitchConflict as usize],
                queue_full: suspended(SuspendCause::QueueFull),
                table_full: suspended(SuspendCause::TableFull),
                waiting_for_cts: cts,
                no_context,
                entry_busy,
            },
        }
    }

    /// The text form (appended to the tiles' table when messages were sent).
    pub fn write_text(&self, s: &mut String) {
        let _ = writeln!(s, "network ({} NIU): {} flits", self.niu, self.flits);
        let _ = writeln!(
            s,
            "{:>10} {:>9} {:>9} {:>9}",
            "type", "sent", "flits", "received"
        );
        for t in &self.types {
            let _ = writeln!(
                s,
                "{:>10} {:>9} {:>9} {:>9}",
                t.ty, t.messages_sent, t.flits_sent, t.messages_received
            );
        }
        if self.discarded > 0 {
            let _ = writeln!(s, "discarded (no receive posted): {}", self.discarded);
        }
        if self.swapped_out > 0 {
            let _ = writeln!(
                s,
                "context exhaustion: {} threads swapped out, {} resumed",
                self.swapped_out, self.resumed
            );
        }
        let b = &self.breakdown;
        // docs/machine.md, "Message latency", defines each figure.
        let _ = writeln!(
            s,
            "message latency (sendh to effect): mean {:.2}, max {} over {} messages",
            self.end_to_end_mean, self.end_to_end_max, self.messages
        );
        let _ = writeln!(
            s,
            "  = queueing {:.2} + network {:.2} + ejection {:.2} + notification {:.2} (means over those messages)",
            b.queueing, b.network, b.ejection, b.notification
        );
        let _ = writeln!(
            s,
            "  head injected to tail taken (network + ejection): mean {:.2}, max {}",
            self.latency_mean, self.latency_max
        );
        let hist: Vec<String> = self
            .latency_histogram
            .iter()
            .map(|h| match h.to {
                Some(to) => format!("[{},{}) {}", h.from, to, h.messages),
                None => format!("[{},) {}", h.from, h.messages),
            })
            .collect();
        let _ = writeln!(s, "  histogram: {}", hist.join(", "));
        let _ = writeln!(
            s,
            "  apart: injection (head to tail injected) {:.2} over those messages; wake-up (receive Complete to the instruction that sees it) {:.2} over {} receives",
            b.injection, b.wakeup, b.wakeups
        );
        let st = &self.stalls;
        let _ = writeln!(
            s,
            "stalls: no_credit {}, vc_busy {}, vc_conflict {}, switch_conflict {}, queue_full {}, table_full {}, waiting_for_cts {}, no_context {}, entry_busy {}",
            st.no_credit,
            st.vc_busy,
            st.vc_conflict,
            st.switch_conflict,
            st.queue_full,
            st.table_full,
            st.waiting_for_cts,
            st.no_context,
            st.entry_busy
        );
        let _ = writeln!(s, "VC occupancy: {:.4} flits per router", self.vc_occupancy);
        let links: Vec<String> = self
            .links
            .iter()
            .map(|l| format!("{}{}:{}", l.node, l.port, l.flits))
            .collect();
        let _ = writeln!(s, "link flits: {}", links.join(" "));
    }
}
