//! The on-chip network: a `W x H` mesh of input-queued virtual-channel
//! routers with wormhole switching, dimension-order routing and credit-based
//! flow control (thesis 1.2.2, 3.2, 5.6.1), cycle by cycle.
//!
//! Split by concern: [`flit`] (ports, flits, routing), [`alloc`]
//! (separable allocators of round-robin arbiters), [`router`] (one
//! router's pipeline), [`stall`] (the report when nothing moves), `terminal`
//! (where NIUs, or `scmp noc`'s synthetic sources and sinks, inject and
//! eject), `events` (trace events and counters), and here the mesh: links
//! and credit wires as a time wheel of deliveries, and activity tracking.
//!
//! Timing. A cycle `t` is simulated in two phases: first every delivery due
//! at `t` (flits and credits that left a router or terminal earlier) is
//! applied, then every router with buffered flits allocates and sends.
//! Whatever a router sends arrives one or more cycles later, so routers
//! never see each other's work of the same cycle, and the order in which
//! they are visited cannot change anything. Terminals act after the
//! routers in a cycle ([`Network::inject`], [`Network::take_ejected`]).
//! Idle routers cost nothing: only routers holding flits are visited, and a
//! network with nothing in flight jumps to the next delivery.
//!
//! Virtual channels are partitioned into `classes` sets of `num_vcs`;
//! a packet's class is fixed by its head flit (the message type, mapped
//! by the user of the network) and it only ever uses VCs of that set.

pub mod alloc;
mod events;
pub mod flit;
pub(crate) mod router;
pub mod stall;
mod terminal;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use crate::config::NetworkConfig;
pub use events::{NetCounters, NetEvent, NetEventKind};
use flit::{NetFlit, PORTS, PacketId, Port};
use router::Router;
pub use stall::{HeldFlit, StallReport};
use terminal::Terminal;

/// Why a flit at the front of an input buffer did not move in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum StallCause {
    /// Its output VC has no credit (the buffer downstream is full).
    NoCredit = 0,
    /// Every output VC of its class is held by another packet.
    VcBusy = 1,
    /// A free output VC went to another packet.
    VcConflict = 2,
    /// The switch (input or output port) went to another flit.
    SwitchConflict = 3,
}

impl StallCause {
    /// Number of causes.
    pub const COUNT: usize = 4;
    /// Every cause, by number.
    pub const ALL: [StallCause; 4] = [
        StallCause::NoCredit,
        StallCause::VcBusy,
        StallCause::VcConflict,
        StallCause::SwitchConflict,
    ];

    /// Name in statistics.
    pub fn name(self) -> &'static str {
        match self {
            StallCause::NoCredit => "no_credit",
            StallCause::VcBusy => "vc_busy",
            StallCause::VcConflict => "vc_conflict",
            StallCause::SwitchConflict => "switch_conflict",
        }
    }
}

/// The order in which a cycle visits busy routers. Results never depend
/// on it (a test runs the same traffic in each order); it only exists to
/// show that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VisitOrder {
    /// By increasing node id.
    #[default]
    Ascending,
    /// By decreasing node id.
    Descending,
    /// A permutation that changes every cycle, from a seed.
    Shuffled(u64),
}

/// Cycle offsets of the router pipeline, from the configuration (one place
/// that says when each stage's result can be used).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timing {
    /// A head reaching the front of a buffer at `t` may ask for an output
    /// VC from `t + routing`.
    pub routing: u64,
    /// A packet granted an output VC at `t` may ask for the switch from
    /// `t + vc_alloc`.
    pub vc_alloc: u64,
    /// When a tail leaves at `t`, the next head in its buffer may ask for
    /// an output VC from `t + next_head_routing`.
    pub next_head_routing: u64,
    /// A flit granted the switch at `t` arrives in the next buffer (router
    /// or terminal) at `t + flit_out`.
    pub flit_out: u64,
    /// A flit granted the switch at `t` returns its credit to the router
    /// upstream at `t + credit_back`.
    pub credit_back: u64,
    /// ... or, from the local input port, to the terminal at
    /// `t + terminal_credit` (terminals apply credits at once).
    pub terminal_credit: u64,
    /// A flit a terminal injects at `t` arrives at its router at
    /// `t + inject`.
    pub inject: u64,
    /// A flit a terminal takes at `t` returns its credit to the router at
    /// `t + eject_credit`.
    pub eject_credit: u64,
}

impl Timing {
    /// BookSim2's stage model: a stage of delay `d` that starts at cycle
    /// `e` hands over to the next at `e + d`; a channel of latency `L`
    /// delivers at `X + L + 1` what was sent at the end of cycle `X`
    /// (a flit leaves a router at the end of its switch-traversal stage, a
    /// credit at the end of the switch allocation that freed its slot).
    fn new(c: &NetworkConfig) -> Timing {
        let link = c.link_delay as u64;
        let sw = c.sw_alloc_delay as u64;
        Timing {
            routing: c.routing_delay as u64,
            vc_alloc: c.vc_alloc_delay as u64,
            next_head_routing: 1 + c.routing_delay as u64,
            flit_out: sw + c.st_final_delay as u64 + link,
            credit_back: sw + link + c.credit_delay as u64,
            terminal_credit: sw + link,
            inject: link + 1,
            eject_credit: link + 1 + c.credit_delay as u64,
        }
    }

    /// The fewest cycles from a head entering a router's input buffer to
    /// its entering the next buffer (router or terminal): route, VC
    /// allocation, then switch allocation, traversal and the link.
    pub fn hop(&self) -> u64 {
        self.routing + self.vc_alloc + self.flit_out
    }

    /// The longest offset at which anything is scheduled.
    fn horizon(&self) -> u64 {
        self.flit_out
            .max(self.credit_back)
            .max(self.inject)
            .max(self.eject_credit)
    }
}

/// A flit leaving a router through the switch (the router's output).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Send {
    pub from: u32,
    pub in_port: Port,
    pub in_vc: u8,
    pub out_port: Port,
    pub out_vc: u8,
    pub flit: NetFlit,
}

/// Something a link delivers at a cycle.
#[derive(Clone, Copy, Debug)]
enum Delivery {
    /// A flit into input `port`, VC `vc` of router `node`.
    FlitToRouter {
        node: u32,
        port: Port,
        vc: u8,
        flit: NetFlit,
    },
    /// A flit into the ejection buffer `vc` of terminal `node`.
    FlitToTerminal { node: u32, vc: u8, flit: NetFlit },
}

/// Something a credit wire delivers at a cycle (a wheel of its own: a
/// fifth of a flit's size, and credits and flits of one cycle touch
/// different state, so their order within the cycle changes nothing).
#[derive(Clone, Copy, Debug)]
enum Credit {
    /// A credit for output `port`, VC `vc` of router `node`.
    ToRouter { node: u32, port: Port, vc: u8 },
    /// An injection credit for VC `vc` of terminal `node`.
    ToTerminal { node: u32, vc: u8 },
}

/// What the network records about a packet while it is in flight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketInfo {
    /// Source node.
    pub src: u32,
    /// Destination node.
    pub dst: u32,
    /// VC class.
    pub class: u8,
    /// Flits.
    pub len: u16,
    /// Cycle the head was injected.
    pub injected: u64,
    /// Cycle the tail was injected (set by [`Network::inject`]).
    pub tail_injected: u64,
    /// A value of the packet's owner (an NIU: the cycle its message's first
    /// instruction issued; the traffic generator: its creation cycle).
    pub tag: u64,
    /// The owner's name for the packet, unique in a run (an NIU: its node
    /// and a count; 0 when unused), for following a message end to end.
    pub flow: u64,
}

/// The mesh of routers.
pub struct Network {
    width: u32,
    height: u32,
    vcs: usize,
    per_class: usize,
    timing: Timing,
    stall_cycles: u64,
    routers: Vec<Router>,
    terminals: Vec<Terminal>,
    /// Deliveries by cycle modulo its length.
    wheel: Vec<Vec<Delivery>>,
    credit_wheel: Vec<Vec<Credit>>,
    /// Entries in both wheels.
    in_wheel: usize,
    /// A bit per router holding flits (visited in id order), and their number.
    active: Vec<u64>,
    active_count: usize,
    /// The next cycle to simulate.
    now: u64,
    packets: Vec<PacketInfo>,
    free_packets: Vec<PacketId>,
    /// Class of each packet type's head: the user's mapping.
    classes: usize,
    /// Flits anywhere in the network (buffers, links, ejection buffers).
    in_flight: u64,
    /// Per node: packets on their way to it (registered, tail not taken),
    /// in all and by class.
    inbound: Vec<u32>,
    inbound_class: Vec<[u32; 4]>,
    /// A bit per terminal with flits in its ejection buffers.
    with_flits: Vec<u64>,
    /// The last cycle a flit moved.
    last_move: u64,
    sends: Vec<Send>,
    visit_order: VisitOrder,
    /// Scratch: the busy routers of a cycle, for the orders other than
    /// ascending.
    visit: Vec<usize>,
    /// Counters.
    pub counters: NetCounters,
    trace: Option<Vec<NetEvent>>,
}

impl Network {
    /// A `width x height` mesh with `classes` VC sets of the configured
    /// size.
    pub fn new(width: u32, height: u32, config: &NetworkConfig, classes: usize) -> Network {
        let per_class = config.num_vcs as usize;
        let vcs = classes * per_class;
        let cap = config.vc_buf_size as usize;
        let timing = Timing::new(config);
        let n = (width * height) as usize;
        let routers = (0..width * height)
            .map(|id| {
                Router::new(
                    id,
                    classes,
                    per_class,
                    cap,
                    config.vc_allocator,
                    config.sw_allocator,
                )
            })
            .collect();
        let terminals = (0..n)
            .map(|_| Terminal {
                credits: vec![cap as u16; vcs],
                busy: vec![false; vcs],
                next_vc: vec![0; classes],
                ejected: vec![VecDeque::with_capacity(cap); vcs],
                waiting: 0,
            })
            .collect();
        let wheel_len = (timing.horizon() + 1).next_power_of_two() as usize;
        Network {
            width,
            height,
            vcs,
            per_class,
            timing,
            stall_cycles: config.stall_cycles,
            routers,
            terminals,
            wheel: vec![Vec::new(); wheel_len],
            credit_wheel: vec![Vec::new(); wheel_len],
            in_wheel: 0,
            active: vec![0; n.div_ceil(64)],
            active_count: 0,
            now: 0,
            packets: Vec::new(),
            free_packets: Vec::new(),
            classes,
            in_flight: 0,
            inbound: vec![0; n],
            inbound_class: vec![[0; 4]; n],
            with_flits: vec![0; n.div_ceil(64)],
            last_move: 0,
            sends: Vec::new(),
            visit_order: VisitOrder::Ascending,
            visit: Vec::new(),
            counters: NetCounters {
                link_flits: vec![0; n * PORTS],
                ..NetCounters::default()
            },
            trace: None,
        }
    }

    /// The router pipeline's cycle offsets.
    pub(crate) fn timing(&self) -> &Timing {
        &self.timing
    }

    /// Mesh width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Mesh height.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// VC classes (sets).
    pub fn classes(&self) -> usize {
        self.classes
    }

    /// Sets the order in which busy routers are visited.
    pub fn set_visit_order(&mut self, order: VisitOrder) {
        self.visit_order = order;
    }

    /// Starts recording trace events.
    pub fn enable_trace(&mut self) {
        self.trace = Some(Vec::new());
    }

    /// Trace events recorded since the last call, in cycle order (within a
    /// cycle: by node, then in the order they happened).
    pub fn take_trace(&mut self) -> Vec<NetEvent> {
        match &mut self.trace {
            Some(t) => {
                let mut events = std::mem::take(t);
                events.sort_by_key(|e| (e.cycle, e.node));
                events
            }
            None => Vec::new(),
        }
    }

    /// The next cycle to simulate.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Flits in the network (buffers, links, ejection buffers).
    pub fn in_flight(&self) -> u64 {
        self.in_flight
    }

    /// The packet record of `id`.
    pub fn packet(&self, id: PacketId) -> &PacketInfo {
        &self.packets[id as usize]
    }

    /// The earliest cycle at which the network has work: `now` while a
    /// router holds flits, else the next delivery (None: nothing at all).
    pub fn next_work(&self) -> Option<u64> {
        if self.active_count > 0 {
            return Some(self.now);
        }
        if self.in_wheel == 0 {
            return None;
        }
        let n = self.wheel.len() as u64;
        (0..n).map(|d| self.now + d).find(|c| {
            let k = (c & (n - 1)) as usize;
            !self.wheel[k].is_empty() || !self.credit_wheel[k].is_empty()
        })
    }

    fn schedule(&mut self, at: u64, d: Delivery) {
        debug_assert!(at > self.now.saturating_sub(1) && at - self.now < self.wheel.len() as u64);
        let n = self.wheel.len();
        self.wheel[at as usize & (n - 1)].push(d);
        self.in_wheel += 1;
    }

    fn schedule_credit(&mut self, at: u64, c: Credit) {
        debug_assert!(at > self.now.saturating_sub(1) && at - self.now < self.wheel.len() as u64);
        let n = self.credit_wheel.len();
        self.credit_wheel[at as usize & (n - 1)].push(c);
        self.in_wheel += 1;
    }

    fn wake(&mut self, node: u32) {
        let (word, bit) = (node as usize / 64, node % 64);
        if self.active[word] & (1 << bit) == 0 {
            self.active[word] |= 1 << bit;
            self.active_count += 1;
        }
    }

    fn neighbour(&self, node: u32, port: Port) -> u32 {
        match port {
            Port::East => node + 1,
            Port::West => node - 1,
            Port::South => node + self.width,
            Port::North => node - self.width,
            Port::Local => node,
        }
    }

    /// Simulates cycle `now` (at or after [`Network::now`]; the cycles in
    /// between must have no work, see [`Network::next_work`]): deliveries
    /// due, then every busy router.
    pub fn step(&mut self, now: u64) {
        assert!(now >= self.now, "the network does not go back in time");
        debug_assert!(
            self.next_work().is_none_or(|w| w >= now),
            "cycles with work were skipped"
        );
        self.now = now;
        let n = self.wheel.len();
        let mut due = std::mem::take(&mut self.wheel[now as usize & (n - 1)]);
        self.in_wheel -= due.len();
        for d in due.drain(..) {
            match d {
                Delivery::FlitToRouter {
                    node,
                    port,
                    vc,
                    flit,
                } => {
                    let timing = self.timing;
                    self.routers[node as usize].accept(port, vc as usize, flit, &timing, now);
                    self.counters.buffered -= now as i64;
                    self.wake(node);
                }
                Delivery::FlitToTerminal { node, vc, flit } => {
                    let t = &mut self.terminals[node as usize];
                    t.ejected[vc as usize].push_back(flit);
                    t.waiting += 1;
                    self.with_flits[node as usize / 64] |= 1 << (node % 64);
                }
            }
        }
        // Give the buffer back to the wheel (keeps its capacity).
        self.wheel[now as usize & (n - 1)] = due;
        let mut due = std::mem::take(&mut self.credit_wheel[now as usize & (n - 1)]);
        self.in_wheel -= due.len();
        for c in due.drain(..) {
            match c {
                Credit::ToRouter { node, port, vc } => {
                    self.routers[node as usize].credit(port, vc as usize);
                }
                Credit::ToTerminal { node, vc } => {
                    self.terminals[node as usize].credits[vc as usize] += 1;
                }
            }
        }
        self.credit_wheel[now as usize & (n - 1)] = due;
        if self.active_count == 0 {
            self.now = now + 1;
            return;
        }
        self.counters.active_cycles += 1;
        // Visit busy routers by id: the order cannot change results (see
        // the module documentation).
        if self.visit_order == VisitOrder::Ascending {
            for word in 0..self.active.len() {
                let mut bits = self.active[word];
                while bits != 0 {
                    let id = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    // (Checked here: most busy routers only wait this cycle.)
                    if self.routers[id].wake_at <= now {
                        self.step_router(id, now);
                    }
                }
            }
        } else {
            let mut visit = std::mem::take(&mut self.visit);
            visit.clear();
            for (word, bits) in self.active.iter().enumerate() {
                let mut bits = *bits;
                while bits != 0 {
                    visit.push(word * 64 + bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
            }
            match self.visit_order {
                VisitOrder::Ascending => {}
                VisitOrder::Descending => visit.reverse(),
                VisitOrder::Shuffled(seed) => {
                    // A cheap permutation: sort by a hash of (seed, cycle, id).
                    let key = |id: usize| {
                        let mut z = seed
                            ^ now.rotate_left(17)
                            ^ (id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                        z ^ (z >> 31)
                    };
                    visit.sort_by_key(|&id| key(id));
                }
            }
            for &id in &visit {
                self.step_router(id, now);
            }
            self.visit = visit;
        }
        self.now = now + 1;
    }

    fn step_router(&mut self, id: usize, now: u64) {
        if self.routers[id].wake_at > now {
            return;
        }
        self.counters.router_steps += 1;
        let timing = self.timing;
        let router = &mut self.routers[id];
        router.step(now, &timing, &mut self.sends, &mut self.counters.stalls);
        if !router.is_busy() {
            self.active[id / 64] &= !(1 << (id % 64));
            self.active_count -= 1;
        }
        for k in 0..self.sends.len() {
            let s = self.sends[k];
            self.forward(now, s);
        }
        self.sends.clear();
    }

    fn forward(&mut self, now: u64, s: Send) {
        self.last_move = now;
        self.counters.buffered += now as i64;
        self.counters.link_flits[s.from as usize * PORTS + s.out_port as usize] += 1;
        if let Some(trace) = &mut self.trace {
            let p = &self.packets[s.flit.packet as usize];
            trace.push(NetEvent {
                cycle: now,
                node: s.from,
                kind: NetEventKind::Forwarded {
                    from: (s.in_port, s.in_vc),
                    to: (s.out_port, s.out_vc),
                },
                flit: s.flit.flit,
                src: p.src,
                dst: p.dst,
                seq: s.flit.seq,
                packet: s.flit.packet,
            });
        }
        let t = self.timing;
        // The credit for the buffer slot the flit left.
        match s.in_port {
            Port::Local => self.schedule_credit(
                now + t.terminal_credit,
                Credit::ToTerminal {
                    node: s.from,
                    vc: s.in_vc,
                },
            ),
            p => {
                let credit = Credit::ToRouter {
                    node: self.neighbour(s.from, p),
                    port: p.opposite(),
                    vc: s.in_vc,
                };
                self.schedule_credit(now + t.credit_back, credit);
            }
        }
        let flit = match s.out_port {
            Port::Local => Delivery::FlitToTerminal {
                node: s.from,
                vc: s.out_vc,
                flit: s.flit,
            },
            p => Delivery::FlitToRouter {
                node: self.neighbour(s.from, p),
                port: p.opposite(),
                vc: s.out_vc,
                flit: s.flit,
            },
        };
        self.schedule(now + t.flit_out, flit);
    }

    /// VCs per port.
    pub fn vcs(&self) -> usize {
        self.vcs
    }

    /// Checks that the network is back at rest: nothing buffered or on a
    /// wire, every credit returned, no VC held. Returns what is not.
    pub fn check_at_rest(&self) -> Result<(), String> {
        if self.in_flight != 0 || self.in_wheel != 0 || self.active_count != 0 {
            return Err(format!(
                "{} flits in flight, {} deliveries pending, {} routers busy",
                self.in_flight, self.in_wheel, self.active_count
            ));
        }
        let cap = self.routers.first().map_or(0, |r| r.cap());
        for r in &self.routers {
            for (o, out) in r.outputs.iter().enumerate() {
                if out.credits as usize != cap || out.busy {
                    return Err(format!(
                        "router {} output {} vc {}: {} credits of {cap}, busy {}",
                        r.id,
                        Port::from_index(o / self.vcs).letter(),
                        o % self.vcs,
                        out.credits,
                        out.busy
                    ));
                }
            }
        }
        for (node, t) in self.terminals.iter().enumerate() {
            for vc in 0..self.vcs {
                if t.credits[vc] as usize != cap || t.busy[vc] {
                    return Err(format!(
                        "terminal {node} vc {vc}: {} credits of {cap}, busy {}",
                        t.credits[vc], t.busy[vc]
                    ));
                }
            }
        }
        Ok(())
    }

    /// Mean flits buffered per router per cycle up to `end` (VC occupancy).
    pub fn mean_buffered_flits(&self, end: u64) -> f64 {
        let held: i64 = self.routers.iter().map(|r| r.held as i64).sum();
        let total = self.counters.buffered + held * end as i64;
        if end == 0 {
            0.0
        } else {
            total as f64 / (end as f64 * self.routers.len() as f64)
        }
    }

    /// Whether flits are held and none has moved for the configured number
    /// of cycles up to `now`.
    pub fn is_stalled(&self, now: u64) -> bool {
        self.in_flight > 0 && now.saturating_sub(self.last_move) >= self.stall_cycles
    }

    /// The cycle a flit last moved.
    pub fn last_move(&self) -> u64 {
        self.last_move
    }
}
