//! The timeline of a run (`scmp run --timeline FILE.json`) in the Chrome
//! trace event format, which the Perfetto UI and `chrome://tracing` open as
//! it is. One microsecond of the timeline is one cycle.
//!
//! - Each tile is a process (pid = tile + 1, named `tile N (x,y)`); each
//!   context that ran a thread is a thread of it (tid = context + 1), and
//!   the tile's NIU one more thread (tid 1000).
//! - A context's time is cut into slices by its state: `running`, `ready`,
//!   `suspended: CAUSE` (the statistics' causes); a `sendh` is a one-cycle
//!   slice inside `running`.
//! - A message is a flow arrow (`s`/`f` events, one id per packet) from its
//!   `sendh` to where it arrives: a thread message to the start of its
//!   thread (the new thread's first slice), a data message to the NIU's
//!   slice of its receive entry's completion (or its DMA, or its discard).
//! - Each link that carried flits is a counter of its tile, `link P` (P the
//!   router's output port, L the ejection link), in flits per cycle over
//!   buckets of `bucket_cycles`.
//!
//! The machine feeds a [`Recorder`]: context state changes (from
//! [`Context::history`](crate::hart::context::Context::history), taken once a
//! tile's past is certain), accepted `sendh` instructions, the NIUs'
//! message ends ([`crate::niu::flows`]) and the network's link counters.

use std::collections::{HashMap, VecDeque};
use std::io::Write;

use isa_spec::{Inst, Opcode};
use serde_json::{Value, json};

use crate::config::{Config, NiuDesign};
use crate::hart::context::ContextState;
use crate::network::Network;
use crate::network::flit::{PORTS, Port};
use crate::niu::flows::{Delivery, MessageEnd};
use crate::niu::{Niu, NiuOutcome};
use crate::tile::Tile;

/// Where the timeline goes and how finely links are sampled.
pub struct TimelineOptions {
    /// The JSON is written here at the end of the run.
    pub out: Box<dyn Write>,
    /// Cycles per link-utilization sample (at least 1).
    pub bucket_cycles: u64,
}

/// The thread id of a tile's NIU.
pub const NIU_TID: u64 = 1000;

/// An accepted `sendh`: where the flow of its message starts.
#[derive(Clone, Copy, Debug)]
struct SendIssue {
    cycle: u64,
    context: usize,
    pc: u32,
    dst: u32,
    mnemonic: &'static str,
}

/// What the machine tells the timeline during a run.
pub(crate) struct Recorder {
    out: Box<dyn Write>,
    bucket: u64,
    design: NiuDesign,
    width: u32,
    /// [tile][context]: states entered, in order.
    transitions: Vec<Vec<Vec<(u64, ContextState)>>>,
    /// Accepted `sendh`s not yet matched with their packet, per (tile, queue).
    pending_sends: HashMap<(u32, usize), VecDeque<SendIssue>>,
    /// Every `sendh` with its tile, for the slices.
    sends: Vec<(u32, SendIssue)>,
    /// Message ends from the NIUs, in the order they happened per NIU.
    ends: Vec<MessageEnd>,
    /// Link counters at the start of the current bucket.
    counted: Vec<u64>,
    current_bucket: u64,
    /// (bucket, link, flits) for every bucket a link carried flits in.
    samples: Vec<(u64, usize, u64)>,
}

fn state_name(s: ContextState) -> Option<String> {
    match s {
        ContextState::Free => None,
        ContextState::Ready => Some("ready".into()),
        ContextState::Running => Some("running".into()),
        ContextState::Suspended(cause) => Some(format!("suspended: {}", cause.name())),
    }
}

impl Recorder {
    pub(crate) fn new(options: TimelineOptions, config: &Config) -> Recorder {
        let tiles = config.tiles() as usize;
        let contexts = config.tile.contexts as usize;
        Recorder {
            out: options.out,
            bucket: options.bucket_cycles.max(1),
            design: config.niu.design,
            width: config.mesh.width,
            transitions: vec![vec![Vec::new(); contexts]; tiles],
            pending_sends: HashMap::new(),
            sends: Vec::new(),
            ends: Vec::new(),
            counted: vec![0; tiles * PORTS],
            current_bucket: 0,
            samples: Vec::new(),
        }
    }

    /// Takes the state changes of tiles whose past up to `cut` is certain
    /// (no optimistic run that could still go back).
    pub(crate) fn collect(&mut self, tiles: &mut [Tile], cut: u64) {
        for (t, tile) in tiles.iter_mut().enumerate() {
            if tile.checkpoint_cycle().is_some() {
                continue;
            }
            for (c, ctx) in tile.contexts.iter_mut().enumerate() {
                let Some(h) = &mut ctx.history else {
                    continue;
                };
                let n = h.iter().position(|(at, _)| *at > cut).unwrap_or(h.len());
                self.transitions[t][c].extend(h.drain(..n));
            }
        }
    }

    /// A messaging instruction of `tile`'s `context` at `pc` issued at
    /// `cycle` with registers `x`, and what the NIU made of it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn messaging(
        &mut self,
        tile: u32,
        context: usize,
        cycle: u64,
        pc: u32,
        inst: &Inst,
        x: &[u32; 32],
        outcome: &NiuOutcome,
    ) {
        if !matches!(inst.op, Opcode::SendhT | Opcode::SendhD)
            || !matches!(outcome, NiuOutcome::Done(_))
        {
            return;
        }
        let issue = SendIssue {
            cycle,
            context,
            pc,
            dst: x[inst.rs1 as usize],
            mnemonic: inst.op.mnemonic(),
        };
        let queue = match self.design {
            NiuDesign::Original => 0,
            NiuDesign::Modified => context,
        };
        self.pending_sends
            .entry((tile, queue))
            .or_default()
            .push_back(issue);
        self.sends.push((tile, issue));
    }

    /// The network is about to simulate `cycle`: link samples of the
    /// buckets before it, and the NIUs' message ends so far.
    pub(crate) fn network_cycle(&mut self, cycle: u64, net: &Network, nius: &mut [Niu]) {
        let bucket = cycle / self.bucket;
        if bucket != self.current_bucket {
            self.close_bucket(net);
            self.current_bucket = bucket;
        }
        for n in nius {
            self.ends.extend(n.take_flows());
        }
    }

    fn close_bucket(&mut self, net: &Network) {
        for (link, (&now, before)) in net
            .counters()
            .link_flits
            .iter()
            .zip(&mut self.counted)
            .enumerate()
        {
            if now != *before {
                self.samples
                    .push((self.current_bucket, link, now - *before));
                *before = now;
            }
        }
    }

    /// Writes the timeline of a run that ended at `end` (tiles closed).
    pub(crate) fn finish(
        mut self,
        tiles: &mut [Tile],
        nius: &mut [Niu],
        net: &Network,
        end: u64,
    ) -> std::io::Result<()> {
        self.collect(tiles, u64::MAX);
        self.close_bucket(net);
        for n in nius {
            self.ends.extend(n.take_flows());
        }
        let mut events: Vec<Value> = Vec::new();
        let mut active = vec![false; tiles.len()];
        self.context_slices(end, &mut events, &mut active);
        self.message_events(end, &mut events, &mut active);
        self.link_counters(end, &mut events, &mut active);
        let mut meta = Vec::new();
        for (t, _) in active.iter().enumerate().filter(|(_, a)| **a) {
            let pid = t + 1;
            let (x, y) = (t as u32 % self.width, t as u32 / self.width);
            meta.push(
                json!({"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
                "args": {"name": format!("tile {t} ({x},{y})")}}),
            );
            meta.push(
                json!({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0,
                "args": {"sort_index": t}}),
            );
            for (c, tr) in self.transitions[t].iter().enumerate() {
                if tr
                    .iter()
                    .any(|(at, s)| *at < end && *s != ContextState::Free)
                {
                    meta.push(json!({"ph": "M", "name": "thread_name", "pid": pid,
                        "tid": c + 1, "args": {"name": format!("context {c}")}}));
                    meta.push(json!({"ph": "M", "name": "thread_sort_index", "pid": pid,
                        "tid": c + 1, "args": {"sort_index": c}}));
                }
            }
            meta.push(
                json!({"ph": "M", "name": "thread_name", "pid": pid, "tid": NIU_TID,
                "args": {"name": "NIU"}}),
            );
            meta.push(json!({"ph": "M", "name": "thread_sort_index", "pid": pid,
                "tid": NIU_TID, "args": {"sort_index": NIU_TID}}));
        }
        meta.extend(events);
        let document = json!({
            "traceEvents": meta,
            "otherData": {
                "generator": "scmp run --timeline",
                "time": "1 us on the timeline = 1 cycle",
                "end_cycle": end,
                "link_bucket_cycles": self.bucket,
            },
        });
        serde_json::to_writer(&mut self.out, &document)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    fn context_slices(&self, end: u64, events: &mut Vec<Value>, active: &mut [bool]) {
        for (t, contexts) in self.transitions.iter().enumerate() {
            for (c, tr) in contexts.iter().enumerate() {
                // Consecutive entries of one state are one slice.
                let mut starts: Vec<(u64, ContextState)> = Vec::new();
                for &(at, s) in tr {
                    if at >= end {
                        break;
                    }
                    if starts.last().is_none_or(|(_, last)| *last != s) {
                        starts.push((at, s));
                    }
                }
                for (i, &(at, s)) in starts.iter().enumerate() {
                    let until = starts.get(i + 1).map_or(end, |(next, _)| *next);
                    let Some(name) = state_name(s) else { continue };
                    if until > at {
                        active[t] = true;
                        events.push(json!({"ph": "X", "cat": "state", "name": name,
                            "pid": t + 1, "tid": c + 1, "ts": at, "dur": until - at}));
                    }
                }
            }
        }
        for (t, s) in &self.sends {
            if s.cycle < end {
                events.push(json!({"ph": "X", "cat": "message", "name": s.mnemonic,
                    "pid": t + 1, "tid": s.context + 1, "ts": s.cycle, "dur": 1,
                    "args": {"pc": format!("{:#010x}", s.pc), "to node": s.dst}}));
            }
        }
    }

    /// The NIU slices of deliveries and the flows from `sendh` to them.
    fn message_events(&mut self, end: u64, events: &mut Vec<Value>, active: &mut [bool]) {
        let mut sent: HashMap<u64, (u32, SendIssue)> = HashMap::new();
        let ends = std::mem::take(&mut self.ends);
        for e in &ends {
            if let MessageEnd::Sent {
                node, queue, tag, ..
            } = *e
                && let Some(issue) = self
                    .pending_sends
                    .get_mut(&(node, queue))
                    .and_then(VecDeque::pop_front)
            {
                sent.insert(tag, (node, issue));
            }
        }
        for e in ends {
            let MessageEnd::Received {
                cycle,
                node,
                tag,
                what,
            } = e
            else {
                continue;
            };
            if cycle >= end {
                continue;
            }
            let pid = node as usize + 1;
            active[node as usize] = true;
            let name = match what {
                Delivery::Thread { context } => format!("thread message: starts context {context}"),
                Delivery::Data { id } => format!("receive id {id} complete"),
                Delivery::DataOrig => "data stored".to_string(),
                Delivery::Discarded => "message discarded".to_string(),
            };
            events.push(
                json!({"ph": "X", "cat": "message", "name": name, "pid": pid,
                "tid": NIU_TID, "ts": cycle, "dur": 1}),
            );
            let Some((src, issue)) = sent.get(&tag) else {
                continue;
            };
            // The arrow ends on the new thread's first slice, or on the
            // NIU's slice of the delivery.
            let (tid, at) = match what {
                Delivery::Thread { context } => {
                    let start = self.transitions[node as usize][context]
                        .iter()
                        .find(|(at, s)| *at >= cycle && *s == ContextState::Ready);
                    match start {
                        Some((at, _)) if *at < end => (context as u64 + 1, *at),
                        _ => continue,
                    }
                }
                _ => (NIU_TID, cycle),
            };
            // Half a cycle in, so that each end lies inside its slice.
            events.push(
                json!({"ph": "s", "cat": "message", "name": "message", "id": tag,
                "pid": src + 1, "tid": issue.context + 1, "ts": issue.cycle as f64 + 0.5}),
            );
            events.push(
                json!({"ph": "f", "bp": "e", "cat": "message", "name": "message",
                "id": tag, "pid": pid, "tid": tid, "ts": at as f64 + 0.5}),
            );
        }
    }

    /// Counter events: each link's flits per cycle, a sample where it changes.
    fn link_counters(&self, end: u64, events: &mut Vec<Value>, active: &mut [bool]) {
        let mut by_link: HashMap<usize, Vec<(u64, u64)>> = HashMap::new();
        for &(bucket, link, flits) in &self.samples {
            by_link.entry(link).or_default().push((bucket, flits));
        }
        let mut links: Vec<_> = by_link.into_iter().collect();
        links.sort_by_key(|(l, _)| *l);
        for (link, buckets) in links {
            let (node, port) = (link / PORTS, Port::ALL[link % PORTS]);
            active[node] = true;
            let name = format!("link {}", port.letter());
            let mut sample = |at: u64, value: f64| {
                if at < end {
                    events.push(json!({"ph": "C", "name": name, "pid": node + 1, "tid": 0,
                        "ts": at, "args": {"flits per cycle": value}}));
                }
            };
            let mut last_end = None;
            for (bucket, flits) in buckets {
                let at = bucket * self.bucket;
                if last_end.is_some_and(|e| e < at) {
                    sample(last_end.expect("checked"), 0.0);
                }
                sample(at, flits as f64 / self.bucket as f64);
                last_end = Some(at + self.bucket);
            }
            if let Some(e) = last_end {
                sample(e.min(end.saturating_sub(1)), 0.0);
            }
        }
    }
}
