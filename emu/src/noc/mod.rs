//! `scmp noc`: the network alone under synthetic traffic, measured as
//! BookSim2 measures it, so that its figures can be compared key for key.
//!
//! Every cycle each node creates a packet with probability `rate /
//! packet_size` (Bernoulli, `rate` in flits per node per cycle) into its
//! source queue, which has no bound; the packet's head is injected once it
//! is at the front of the queue and a local VC is free, one flit per cycle.
//! Packets created during the `cycles` measurement cycles after `warmup`
//! are measured: packet latency is creation to tail ejection (source
//! queueing included), network latency head injection to tail ejection,
//! flit latency a flit's injection to its ejection; the accepted rate counts
//! flits ejected during the measurement window. After it, traffic goes on
//! until every measured packet has arrived; if they have not within
//! `drain` cycles, the load is past saturation.

pub mod pattern;

use std::collections::VecDeque;
use std::time::Instant;

use isa_spec::msg::{Flit, FlitKind, Head, MessageType};
use rand::distr::Bernoulli;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::Serialize;

use crate::config::{NetworkConfig, NetworkEngine};
use crate::network::flit::NetFlit;
use crate::network::{NetEvent, Network, PacketInfo, StallCause, StallReport};
pub use pattern::Pattern;

/// The traffic of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Traffic {
    /// Mesh width.
    pub width: u32,
    /// Mesh height.
    pub height: u32,
    /// Destinations.
    pub pattern: Pattern,
    /// Offered load, flits per node per cycle.
    pub rate: f64,
    /// Flits per packet, at least 2 (an SCMP message has a head and a tail).
    pub packet_size: u32,
    /// Cycles before measurement.
    pub warmup: u64,
    /// Cycles of measurement.
    pub cycles: u64,
    /// Cycles after measurement within which every measured packet must
    /// arrive (else the run is saturated).
    pub drain: u64,
    /// Random seed.
    pub seed: u64,
}

impl Traffic {
    /// Checks the values; the message names the flag.
    pub fn check(&self) -> Result<(), String> {
        self.pattern.check(self.width, self.height)?;
        if !(0.0..=1.0).contains(&self.rate) {
            return Err(format!(
                "--rate {} is not in 0..=1 flits/node/cycle",
                self.rate
            ));
        }
        if !(2..=4096).contains(&self.packet_size) {
            return Err(format!(
                "--packet-size {} is not in 2..=4096 (an SCMP message has a head and a tail flit)",
                self.packet_size
            ));
        }
        if self.cycles == 0 {
            return Err("--cycles must be at least 1".into());
        }
        Ok(())
    }
}

/// Mean, minimum and maximum of a quantity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Mean (0 with no samples).
    pub avg: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
    /// Samples.
    pub count: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Accumulator {
    sum: f64,
    min: f64,
    max: f64,
    count: u64,
}

impl Accumulator {
    fn add(&mut self, v: f64) {
        if self.count == 0 {
            self.min = v;
            self.max = v;
        } else {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        self.sum += v;
        self.count += 1;
    }

    fn summary(&self) -> Summary {
        Summary {
            avg: if self.count == 0 {
                0.0
            } else {
                self.sum / self.count as f64
            },
            min: self.min,
            max: self.max,
            count: self.count,
        }
    }
}

/// The figures of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NocResult {
    /// Pattern name.
    pub traffic: String,
    /// Offered load (flits/node/cycle).
    pub rate: f64,
    /// Flits per packet.
    pub packet_size: u32,
    /// Mesh.
    pub mesh: String,
    /// Packet latency (creation to tail ejection), cycles.
    pub packet_latency: Summary,
    /// Network latency (head injection to tail ejection), cycles.
    pub network_latency: Summary,
    /// Flit latency (the flit's injection to its ejection), cycles.
    pub flit_latency: Summary,
    /// Mean packet latency (`packet_latency.avg`, flat for scripts).
    pub packet_latency_avg: f64,
    /// Mean network latency (`network_latency.avg`, flat for scripts).
    pub network_latency_avg: f64,
    /// Flits ejected per node per cycle during measurement, mean over nodes.
    pub accepted_flit_rate: f64,
    /// The same per node: mean, and the least and most accepting node.
    pub accepted_flit_rate_nodes: Summary,
    /// Flits created per node per cycle during measurement.
    pub offered_flit_rate: f64,
    /// Mean routers traversed by measured packets (BookSim2's hops: links + 1).
    pub hops: f64,
    /// Packets created during measurement.
    pub packets_measured: u64,
    /// Of those, arrived.
    pub packets_arrived: u64,
    /// Whether some measured packets had not arrived within the drain limit.
    pub saturated: bool,
    /// Cycles simulated (warm-up, measurement, drain).
    pub cycles: u64,
    /// Flit-cycles lost by cause (whole run).
    pub stalls: Vec<(String, u64)>,
    /// Router evaluations (a busy router in a cycle it could act).
    pub router_steps: u64,
    /// Host seconds of the run.
    pub wall_seconds: f64,
    /// Simulated cycles per host second.
    pub cycles_per_second: f64,
    /// What the network did over the whole run (the power model's input).
    #[serde(skip)]
    pub activity: crate::energy::Activity,
    /// Its power as BookSim2 computes it (watts), when asked for
    /// (`scmp noc --power`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power: Option<crate::energy::Power>,
    /// Its area (mm²), with the power.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<crate::energy::Area>,
}

/// A packet waiting in a source queue.
#[derive(Clone, Copy, Debug)]
struct Queued {
    created: u64,
    dst: u32,
}

/// A packet being injected.
#[derive(Clone, Copy, Debug)]
struct Injecting {
    packet: u32,
    vc: u8,
    next: u16,
}

/// The measured-packet flag in a packet's tag (the rest is its creation cycle).
const MEASURED: u64 = 1 << 63;

/// Runs `traffic` on a network configured by `config` (one VC class),
/// simulated by `engine`. `trace`, when given, receives every network
/// event. A network that stops moving ends the run with its report.
///
/// A node's ejection, creation and injection touch only its own queue and
/// terminal, and only creation draws random numbers, so each cycle they
/// run as passes over the nodes: ejection over the nodes with flits
/// waiting, creation over every node (the random stream in node order),
/// injection over the nodes with packets to send. The passes are
/// `#[inline(always)]` and take the vectors they walk as slices, so the
/// loop keeps their addresses in registers across the network's calls
/// (read through the structs at every node, they cost 0.5% more host
/// instructions on a saturated 8x8 mesh).
pub fn run(
    config: &NetworkConfig,
    engine: NetworkEngine,
    traffic: &Traffic,
    mut trace: Option<&mut dyn FnMut(&NetEvent)>,
) -> Result<NocResult, Box<StallReport>> {
    let started = Instant::now();
    let mut net = Network::new(traffic.width, traffic.height, config, 1, engine);
    if trace.is_some() {
        net.enable_trace();
    }
    let mut sources = Sources::new(traffic);
    let mut tally = Tally::new(traffic);
    let window = tally.window.clone();
    let mut now = 0u64;
    let saturated = loop {
        if now >= window.end && tally.arrived == tally.measured {
            break false;
        }
        if now >= window.end + traffic.drain {
            break true;
        }
        net.step(now);
        let measuring = window.contains(&now);
        eject(&mut net, &mut tally, now, measuring, traffic.width);
        sources.create(now, measuring, &mut tally);
        sources.inject(&mut net, now, &window);
        if let Some(sink) = trace.as_deref_mut() {
            for e in net.take_trace() {
                sink(&e);
            }
        }
        if net.is_stalled(now) {
            return Err(Box::new(net.stall_report()));
        }
        now += 1;
    };
    Ok(tally.result(traffic, &net, now, saturated, started))
}

/// What the measurement has counted.
struct Tally {
    /// The measurement cycles: packets created in them are measured, flits
    /// ejected in them accepted.
    window: std::ops::Range<u64>,
    /// Packet latency (creation to tail ejection) of measured packets.
    packet: Accumulator,
    /// Network latency (head injection to tail ejection).
    network: Accumulator,
    /// Flit latency (injection to ejection) of measured packets' flits.
    flit: Accumulator,
    /// Flits ejected per node during measurement.
    accepted: Vec<u64>,
    /// Flits of the packets created during measurement.
    created_flits: u64,
    /// Packets created during measurement.
    measured: u64,
    /// Of those, arrived.
    arrived: u64,
    /// Routers the arrived ones traversed, in all.
    hops: u64,
}

impl Tally {
    fn new(traffic: &Traffic) -> Tally {
        Tally {
            window: traffic.warmup..traffic.warmup + traffic.cycles,
            packet: Accumulator::default(),
            network: Accumulator::default(),
            flit: Accumulator::default(),
            accepted: vec![0; (traffic.width * traffic.height) as usize],
            created_flits: 0,
            measured: 0,
            arrived: 0,
            hops: 0,
        }
    }

    /// The figures of a run that ended at `now`.
    fn result(
        &self,
        traffic: &Traffic,
        net: &Network,
        now: u64,
        saturated: bool,
        started: Instant,
    ) -> NocResult {
        let wall_seconds = started.elapsed().as_secs_f64();
        let (w, h) = (traffic.width, traffic.height);
        let mut acc = Accumulator::default();
        for a in &self.accepted {
            acc.add(*a as f64 / traffic.cycles as f64);
        }
        NocResult {
            traffic: traffic.pattern.name(),
            rate: traffic.rate,
            packet_size: traffic.packet_size,
            mesh: format!("{w}x{h}"),
            packet_latency: self.packet.summary(),
            network_latency: self.network.summary(),
            flit_latency: self.flit.summary(),
            packet_latency_avg: self.packet.summary().avg,
            network_latency_avg: self.network.summary().avg,
            accepted_flit_rate: acc.summary().avg,
            accepted_flit_rate_nodes: acc.summary(),
            offered_flit_rate: self.created_flits as f64 / ((w * h) as f64 * traffic.cycles as f64),
            hops: if self.arrived == 0 {
                0.0
            } else {
                self.hops as f64 / self.arrived as f64
            },
            packets_measured: self.measured,
            packets_arrived: self.arrived,
            saturated,
            cycles: now,
            stalls: StallCause::ALL
                .iter()
                .map(|c| (c.name().to_string(), net.counters().stalls[*c as usize]))
                .collect(),
            router_steps: net.counters().router_steps,
            wall_seconds,
            cycles_per_second: now as f64 / wall_seconds.max(1e-9),
            activity: crate::energy::network_activity(net, now),
            power: None,
            area: None,
        }
    }
}

/// Ejection: the sink takes every flit waiting at every terminal, and
/// `tally` counts the measured ones.
#[inline(always)]
fn eject(net: &mut Network, tally: &mut Tally, now: u64, measuring: bool, width: u32) {
    let accepted = &mut tally.accepted[..];
    for word in 0..net.terminals_with_flits().len() {
        let mut bits = net.terminals_with_flits()[word];
        while bits != 0 {
            let node = (word * 64) as u32 + bits.trailing_zeros();
            bits &= bits - 1;
            let mut vcs = net.ejection_vcs(node);
            while vcs != 0 {
                let vc = vcs.trailing_zeros() as u8;
                vcs &= vcs - 1;
                while let Some(f) = net.peek_ejected(node, vc).copied() {
                    let info = *net.packet(f.packet);
                    let created = info.tag & !MEASURED;
                    if info.tag & MEASURED != 0 {
                        tally.flit.add((now - f.injected) as f64);
                        if f.is_last() {
                            tally.packet.add((now - created) as f64);
                            tally.network.add((now - info.injected) as f64);
                            tally.arrived += 1;
                            // Routers traversed, as BookSim2 counts hops.
                            tally.hops += manhattan(info.src, info.dst, width) as u64 + 1;
                        }
                    }
                    if measuring {
                        accepted[node as usize] += 1;
                    }
                    net.take_ejected(node, vc, now);
                }
            }
        }
    }
}

/// The nodes' sources: the packets each has created and not yet injected.
struct Sources<'t> {
    traffic: &'t Traffic,
    rng: Pcg64Mcg,
    /// Whether a node creates a packet in a cycle (none at rate 0). Made
    /// once (`random_bool` makes it at every call; the draws are the same).
    creation: Option<Bernoulli>,
    /// Each node's packets created and not yet started, oldest first.
    queues: Vec<VecDeque<Queued>>,
    /// Each node's packet being injected.
    injecting: Vec<Option<Injecting>>,
    /// A bit per node with a packet queued or being injected.
    busy: Vec<u64>,
}

impl<'t> Sources<'t> {
    fn new(traffic: &'t Traffic) -> Sources<'t> {
        let nodes = (traffic.width * traffic.height) as usize;
        let p_packet = traffic.rate / traffic.packet_size as f64;
        Sources {
            traffic,
            rng: Pcg64Mcg::seed_from_u64(traffic.seed),
            creation: (p_packet > 0.0).then(|| {
                Bernoulli::new(p_packet).expect("a rate in 0..=1 flits per node per cycle")
            }),
            queues: vec![VecDeque::new(); nodes],
            injecting: vec![None; nodes],
            busy: vec![0; nodes.div_ceil(64)],
        }
    }

    /// Creation: each node in turn may create a packet for the pattern's
    /// destination; `tally` counts those created while `measuring`.
    #[inline(always)]
    fn create(&mut self, now: u64, measuring: bool, tally: &mut Tally) {
        let Some(creation) = self.creation else {
            return;
        };
        let t = self.traffic;
        for node in 0..t.width * t.height {
            if self.rng.sample(creation) {
                let dst = t
                    .pattern
                    .destination(node, t.width, t.height, &mut self.rng);
                self.queues[node as usize].push_back(Queued { created: now, dst });
                self.busy[node as usize / 64] |= 1 << (node % 64);
                if measuring {
                    tally.created_flits += t.packet_size as u64;
                    tally.measured += 1;
                }
            }
        }
    }

    /// Injection: each node with a packet to send injects one flit if it
    /// can, starting its oldest queued packet when a local VC is free.
    #[inline(always)]
    fn inject(&mut self, net: &mut Network, now: u64, window: &std::ops::Range<u64>) {
        let (w, size) = (self.traffic.width, self.traffic.packet_size as u16);
        let queues = &mut self.queues[..];
        let injecting = &mut self.injecting[..];
        for (word, busy) in self.busy.iter_mut().enumerate() {
            let mut bits = *busy;
            while bits != 0 {
                let node = (word * 64) as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                // Changed in place: copied out and back (`then_some`), the
                // packet's padding was carried through the loop in registers.
                let sending = &mut injecting[node as usize];
                if sending.is_none() {
                    *sending = start(net, &mut queues[node as usize], node, size, now, window);
                }
                if let Some(cur) = sending
                    && net.can_inject(node, cur.vc)
                {
                    let info = *net.packet(cur.packet);
                    let flit = packet_flit(&info, cur.next, w);
                    net.inject(node, cur.vc, NetFlit::new(flit, cur.packet, cur.next), now);
                    cur.next += 1;
                    if cur.next == size {
                        *sending = None;
                    }
                }
                if sending.is_none() && queues[node as usize].is_empty() {
                    *busy &= !(1 << (node % 64));
                }
            }
        }
    }
}

/// Starts `node`'s oldest queued packet if a local VC is free: the packet
/// is made (measured if created in `window`) and leaves the queue.
#[inline(always)]
fn start(
    net: &mut Network,
    queue: &mut VecDeque<Queued>,
    node: u32,
    size: u16,
    now: u64,
    window: &std::ops::Range<u64>,
) -> Option<Injecting> {
    let q = queue.front().copied()?;
    let vc = net.free_injection_vc(node, 0)?;
    queue.pop_front();
    let tag = q.created
        | if window.contains(&q.created) {
            MEASURED
        } else {
            0
        };
    let packet = net.new_packet(PacketInfo {
        src: node,
        dst: q.dst,
        class: 0,
        len: size,
        injected: now,
        tail_injected: 0,
        flow: 0,
        tag,
    });
    Some(Injecting {
        packet,
        vc,
        next: 0,
    })
}

fn manhattan(a: u32, b: u32, width: u32) -> u32 {
    let (ax, ay) = ((a % width) as i32, (a / width) as i32);
    let (bx, by) = ((b % width) as i32, (b / width) as i32);
    ((ax - bx).abs() + (ay - by).abs()) as u32
}

/// Flit `seq` of a synthetic packet: a data-message head with the offsets,
/// then body flits numbering themselves, the last one a tail.
fn packet_flit(info: &PacketInfo, seq: u16, width: u32) -> Flit {
    if seq == 0 {
        let dx = (info.dst % width) as i32 - (info.src % width) as i32;
        let dy = (info.dst / width) as i32 - (info.src / width) as i32;
        let head = Head::new(dx as i8, dy as i8, MessageType::Data);
        return Flit::new(FlitKind::Head, head.encode());
    }
    let kind = if seq + 1 == info.len {
        FlitKind::Tail
    } else {
        FlitKind::Body
    };
    Flit::new(kind, (info.src << 16) | seq as u32)
}
