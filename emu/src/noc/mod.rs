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

use std::time::Instant;

use isa_spec::msg::{Flit, FlitKind, Head, MessageType};
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
pub fn run(
    config: &NetworkConfig,
    engine: NetworkEngine,
    traffic: &Traffic,
    mut trace: Option<&mut dyn FnMut(&NetEvent)>,
) -> Result<NocResult, Box<StallReport>> {
    let started = Instant::now();
    let (w, h) = (traffic.width, traffic.height);
    let nodes = w * h;
    let mut net = Network::new(w, h, config, 1, engine);
    if trace.is_some() {
        net.enable_trace();
    }
    let mut rng = Pcg64Mcg::seed_from_u64(traffic.seed);
    let p_packet = traffic.rate / traffic.packet_size as f64;
    // Made once (`random_bool` makes it at every call; the draws are the same).
    let creation = (p_packet > 0.0).then(|| {
        rand::distr::Bernoulli::new(p_packet).expect("a rate in 0..=1 flits per node per cycle")
    });
    let size = traffic.packet_size as u16;
    let mut queues: Vec<std::collections::VecDeque<Queued>> =
        vec![std::collections::VecDeque::new(); nodes as usize];
    let mut injecting: Vec<Option<Injecting>> = vec![None; nodes as usize];
    // A bit per node with a packet queued or being injected.
    let mut sources = vec![0u64; (nodes as usize).div_ceil(64)];
    let measure_start = traffic.warmup;
    let measure_end = traffic.warmup + traffic.cycles;
    let (mut plat, mut nlat, mut flat) = (
        Accumulator::default(),
        Accumulator::default(),
        Accumulator::default(),
    );
    let mut accepted = vec![0u64; nodes as usize];
    let mut created_flits = 0u64;
    let mut measured = 0u64;
    let mut arrived = 0u64;
    let mut hops = 0u64;
    let mut now = 0u64;
    let saturated = loop {
        if now >= measure_end && arrived == measured {
            break false;
        }
        if now >= measure_end + traffic.drain {
            break true;
        }
        net.step(now);
        let measuring = (measure_start..measure_end).contains(&now);
        // A node's ejection, creation and injection touch only its own
        // queue and terminal, and only creation draws random numbers, so
        // the three run as passes over the nodes: ejection over the nodes
        // with flits waiting, creation over every node (the random stream
        // in node order), injection over the nodes with packets to send.
        // Ejection: the sink takes every flit at once.
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
                            flat.add((now - f.injected) as f64);
                            if f.is_last() {
                                plat.add((now - created) as f64);
                                nlat.add((now - info.injected) as f64);
                                arrived += 1;
                                // Routers traversed, as BookSim2 counts hops.
                                hops += manhattan(info.src, info.dst, w) as u64 + 1;
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
        // Creation.
        if let Some(creation) = creation {
            for node in 0..nodes {
                if rng.sample(creation) {
                    let dst = traffic.pattern.destination(node, w, h, &mut rng);
                    queues[node as usize].push_back(Queued { created: now, dst });
                    sources[node as usize / 64] |= 1 << (node % 64);
                    if measuring {
                        created_flits += traffic.packet_size as u64;
                        measured += 1;
                    }
                }
            }
        }
        // Injection: one flit per cycle.
        for (word, slot) in sources.iter_mut().enumerate() {
            let mut bits = *slot;
            while bits != 0 {
                let node = (word * 64) as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                let cur = match injecting[node as usize] {
                    Some(cur) => Some(cur),
                    None => match queues[node as usize].front().copied() {
                        Some(q) => net.free_injection_vc(node, 0).map(|vc| {
                            queues[node as usize].pop_front();
                            let tag = q.created
                                | if (measure_start..measure_end).contains(&q.created) {
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
                            Injecting {
                                packet,
                                vc,
                                next: 0,
                            }
                        }),
                        None => None,
                    },
                };
                if let Some(mut cur) = cur {
                    if net.can_inject(node, cur.vc) {
                        let info = *net.packet(cur.packet);
                        let flit = packet_flit(&info, cur.next, w);
                        net.inject(node, cur.vc, NetFlit::new(flit, cur.packet, cur.next), now);
                        cur.next += 1;
                    }
                    injecting[node as usize] = (cur.next < size).then_some(cur);
                }
                if injecting[node as usize].is_none() && queues[node as usize].is_empty() {
                    *slot &= !(1 << (node % 64));
                }
            }
        }
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
    let wall_seconds = started.elapsed().as_secs_f64();
    let mut acc = Accumulator::default();
    for a in &accepted {
        acc.add(*a as f64 / traffic.cycles as f64);
    }
    Ok(NocResult {
        traffic: traffic.pattern.name(),
        rate: traffic.rate,
        packet_size: traffic.packet_size,
        mesh: format!("{w}x{h}"),
        packet_latency: plat.summary(),
        network_latency: nlat.summary(),
        flit_latency: flat.summary(),
        packet_latency_avg: plat.summary().avg,
        network_latency_avg: nlat.summary().avg,
        accepted_flit_rate: acc.summary().avg,
        accepted_flit_rate_nodes: acc.summary(),
        offered_flit_rate: created_flits as f64 / (nodes as f64 * traffic.cycles as f64),
        hops: if arrived == 0 {
            0.0
        } else {
            hops as f64 / arrived as f64
        },
        packets_measured: measured,
        packets_arrived: arrived,
        saturated,
        cycles: now,
        stalls: StallCause::ALL
            .iter()
            .map(|c| (c.name().to_string(), net.counters().stalls[*c as usize]))
            .collect(),
        router_steps: net.counters().router_steps,
        wall_seconds,
        cycles_per_second: now as f64 / wall_seconds.max(1e-9),
        activity: crate::energy::network_activity(&net, now),
        power: None,
        area: None,
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
