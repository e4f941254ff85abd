//! The on-chip network: a `W x H` mesh of input-queued virtual-channel
//! routers with wormhole switching, dimension-order routing and credit-based
//! flow control (thesis 1.2.2, 3.2, 5.6.1), cycle by cycle.
//!
//! Split by concern: [`flit`] (ports, flits, routing), [`alloc`]
//! (separable allocators of round-robin arbiters), [`router`] (one
//! router's pipeline, the reference core), `fast` (the same routers laid
//! out for the cycle loop, `sim.network_engine = "fast"`), `cores` (what
//! the mesh asks of either, and which one runs), `fabric` (links and credit wires as time wheels of
//! deliveries, the pool of flits in flight, packet records), [`stall`] (the
//! report when nothing moves), `terminal` (where NIUs, or `scmp noc`'s
//! synthetic sources and sinks, inject and eject), `events` (trace events
//! and counters), and here the mesh: the cycle, and which routers it
//! evaluates.
//!
//! Timing. A cycle `t` is simulated in two phases: first every delivery due
//! at `t` (flits and credits that left a router or terminal earlier) is
//! applied, then every router with buffered flits allocates and sends.
//! Whatever a router sends arrives one or more cycles later, so routers
//! never see each other's work of the same cycle, and the order in which
//! they are visited cannot change anything. Terminals act after the
//! routers in a cycle ([`Network::inject`], [`Network::take_ejected`]).
//! The router core that evaluates a router is either of two
//! (`sim.network_engine`, `cores`); everything around it, deliveries,
//! credits, visits, counters and trace, is this file's and the fabric's,
//! the same for both.
//!
//! Idle routers cost nothing: a router is evaluated only in cycles in which
//! it can act (a delivery reached it, or the delay its flits wait out is
//! over: a wheel of due routers says which), and a network with nothing in
//! flight jumps to the next delivery.
//!
//! Virtual channels are partitioned into `classes` sets of `num_vcs`;
//! a packet's class is fixed by its head flit (the message type, mapped
//! by the user of the network) and it only ever uses VCs of that set.

pub mod alloc;
mod cores;
mod events;
mod fabric;
mod fast;
pub mod flit;
mod mask;
pub(crate) mod router;
pub mod stall;
mod terminal;
#[cfg(test)]
mod tests;

use crate::config::{NetworkConfig, NetworkEngine};
use cores::Routers;
pub(crate) use cores::{RouterCore, VcView};
pub use events::{NetCounters, NetEvent, NetEventKind};
use fabric::{Fabric, Target};
use flit::{PORTS, PacketId, Port};
pub use stall::{Buffer, HeldFlit, StallReport};
use terminal::Terminals;

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

    /// The longest offset at which anything is scheduled (a delivery, or
    /// a router's next evaluation).
    fn horizon(&self) -> u64 {
        self.flit_out
            .max(self.credit_back)
            .max(self.inject)
            .max(self.eject_credit)
            .max(self.next_head_routing)
            .max(self.vc_alloc)
            .max(self.routing)
    }
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
    /// Class of each packet type's head: the user's mapping.
    classes: usize,
    stall_cycles: u64,
    routers: Routers,
    terminals: Terminals,
    fabric: Fabric,
    /// Routers to evaluate, by cycle modulo the wheel's length: a bit per
    /// router (`due_words` words a cycle). A bit may be stale (the router
    /// acted earlier and was put due later): `wake_at` decides.
    due: Vec<u64>,
    due_words: usize,
    /// A bit per router holding flits, and their number.
    active: Vec<u64>,
    active_count: usize,
    /// The next cycle to simulate.
    now: u64,
    /// Flits anywhere in the network (buffers, links, ejection buffers).
    in_flight: u64,
    /// Per node: packets on their way to it (registered, tail not taken),
    /// in all and by class.
    inbound: Vec<u32>,
    inbound_class: Vec<[u32; 4]>,
    /// A bit per terminal with flits in its ejection buffers.
    with_flits: Vec<u64>,
    visit_order: VisitOrder,
    /// Scratch: the routers of a cycle, for the orders other than
    /// ascending.
    visit: Vec<usize>,
}

impl Network {
    /// A `width x height` mesh with `classes` VC sets of the configured
    /// size, simulated by `engine`.
    pub fn new(
        width: u32,
        height: u32,
        config: &NetworkConfig,
        classes: usize,
        engine: NetworkEngine,
    ) -> Network {
        let per_class = config.num_vcs as usize;
        let vcs = classes * per_class;
        let cap = config.vc_buf_size as usize;
        let timing = Timing::new(config);
        let n = (width * height) as usize;
        let routers = Routers::new(n, vcs, engine, |id| {
            (
                id,
                classes,
                per_class,
                cap,
                config.vc_allocator,
                config.sw_allocator,
            )
        });
        let fabric = Fabric::new(width, height, vcs, timing);
        let due_words = n.div_ceil(64);
        Network {
            width,
            height,
            vcs,
            per_class,
            classes,
            stall_cycles: config.stall_cycles,
            routers,
            terminals: Terminals::new(n, vcs, cap, classes),
            due: vec![0; fabric.wheel_len() * due_words],
            due_words,
            fabric,
            active: vec![0; due_words],
            active_count: 0,
            now: 0,
            in_flight: 0,
            inbound: vec![0; n],
            inbound_class: vec![[0; 4]; n],
            with_flits: vec![0; due_words],
            visit_order: VisitOrder::Ascending,
            visit: Vec::new(),
        }
    }

    /// The router pipeline's cycle offsets.
    pub(crate) fn timing(&self) -> &Timing {
        &self.fabric.timing
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

    /// VCs per port.
    pub fn vcs(&self) -> usize {
        self.vcs
    }

    /// Sets the order in which busy routers are visited.
    pub fn set_visit_order(&mut self, order: VisitOrder) {
        self.visit_order = order;
    }

    /// Starts recording trace events.
    pub fn enable_trace(&mut self) {
        self.fabric.trace = Some(Vec::new());
    }

    /// Trace events recorded since the last call, in cycle order (within a
    /// cycle: by node, then in the order they happened).
    pub fn take_trace(&mut self) -> Vec<NetEvent> {
        match &mut self.fabric.trace {
            Some(t) => {
                let mut events = std::mem::take(t);
                events.sort_by_key(|e| (e.cycle, e.node));
                events
            }
            None => Vec::new(),
        }
    }

    /// Counters of the whole run so far.
    pub fn counters(&self) -> &NetCounters {
        &self.fabric.counters
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
        &self.fabric.packets[id as usize]
    }

    /// The earliest cycle at which the network has work: `now` while a
    /// router holds flits, else the next delivery (None: nothing at all).
    pub fn next_work(&self) -> Option<u64> {
        if self.active_count > 0 {
            return Some(self.now);
        }
        if self.fabric.pending == 0 {
            return None;
        }
        let n = self.fabric.wheel_len() as u64;
        (0..n)
            .map(|d| self.now + d)
            .find(|&c| self.fabric.has_deliveries(c))
    }

    /// Puts router `id` due at cycle `at` (within the wheel's reach).
    #[inline]
    fn put_due(&mut self, id: usize, at: u64) {
        let k = (at as usize & (self.fabric.wheel_len() - 1)) * self.due_words + id / 64;
        self.due[k] |= 1 << (id % 64);
    }

    #[inline]
    fn activate(&mut self, id: usize) {
        let (word, bit) = (id / 64, id % 64);
        if self.active[word] & (1 << bit) == 0 {
            self.active[word] |= 1 << bit;
            self.active_count += 1;
        }
    }

    /// Simulates cycle `now` (at or after [`Network::now`]; the cycles in
    /// between must have no work, see [`Network::next_work`]): deliveries
    /// due, then every router that can act.
    pub fn step(&mut self, now: u64) {
        assert!(now >= self.now, "the network does not go back in time");
        debug_assert!(
            self.next_work().is_none_or(|w| w >= now),
            "cycles with work were skipped"
        );
        // The routers' loop is compiled for each width of their VC sets.
        match std::mem::replace(&mut self.routers, Routers::Taken) {
            Routers::W1(mut r) => {
                self.step_with(&mut r, now);
                self.routers = Routers::W1(r);
            }
            Routers::W2(mut r) => {
                self.step_with(&mut r, now);
                self.routers = Routers::W2(r);
            }
            Routers::W5(mut r) => {
                self.step_with(&mut r, now);
                self.routers = Routers::W5(r);
            }
            Routers::Fast(mut r) => {
                self.step_with(r.as_mut(), now);
                self.routers = Routers::Fast(r);
            }
            Routers::Taken => unreachable!("the routers are in place between steps"),
        }
    }

    fn step_with<R: RouterCore>(&mut self, routers: &mut R, now: u64) {
        self.now = now;
        let slot = (now as usize & (self.fabric.wheel_len() - 1)) * self.due_words;
        let due = self.fabric.take_flits(now);
        for &e in &due {
            match Fabric::flit_delivery(e) {
                (Target::Router { node, i }, w) => {
                    let timing = self.fabric.timing;
                    routers.accept(node, i, w, &mut self.fabric.flits, &timing, now);
                    self.fabric.counters.buffered -= now as i64;
                    self.activate(node);
                    self.put_due(node, now);
                }
                (Target::Terminal { node, vc }, w) => {
                    self.terminals.arrive(node, vc, w);
                    self.with_flits[node / 64] |= 1 << (node % 64);
                }
            }
        }
        self.fabric.give_back_flits(now, due);
        let due = self.fabric.take_credits(now);
        for &e in &due {
            match Fabric::credit_delivery(e) {
                Target::Router { node, i } => routers.credit(node, i),
                Target::Terminal { node, vc } => {
                    self.terminals.credits[node * self.vcs + vc] += 1;
                }
            }
        }
        self.fabric.give_back_credits(now, due);
        if self.active_count == 0 {
            self.due[slot..slot + self.due_words].fill(0);
            self.now = now + 1;
            return;
        }
        self.fabric.counters.active_cycles += 1;
        // Visit the routers that can act, by id: the order cannot change
        // results (see the module documentation).
        if self.visit_order == VisitOrder::Ascending {
            for word in 0..self.due_words {
                let mut bits = std::mem::take(&mut self.due[slot + word]) & self.active[word];
                while bits != 0 {
                    let id = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if routers.wake_at(id) <= now {
                        self.step_router(routers, id, now);
                    }
                }
            }
        } else {
            let mut visit = std::mem::take(&mut self.visit);
            visit.clear();
            for word in 0..self.due_words {
                let mut bits = std::mem::take(&mut self.due[slot + word]) & self.active[word];
                while bits != 0 {
                    let id = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if routers.wake_at(id) <= now {
                        visit.push(id);
                    }
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
                self.step_router(routers, id, now);
            }
            self.visit = visit;
        }
        self.now = now + 1;
    }

    #[inline(always)]
    fn step_router<R: RouterCore>(&mut self, routers: &mut R, id: usize, now: u64) {
        self.fabric.counters.router_steps += 1;
        if routers.step(id, now, &mut self.fabric) {
            let at = routers.wake_at(id);
            self.put_due(id, at);
        } else {
            self.active[id / 64] &= !(1 << (id % 64));
            self.active_count -= 1;
        }
    }

    /// Checks that the network is back at rest: nothing buffered or on a
    /// wire, every credit returned, no VC held. Returns what is not.
    pub fn check_at_rest(&self) -> Result<(), String> {
        if self.in_flight != 0 || self.fabric.pending != 0 || self.active_count != 0 {
            return Err(format!(
                "{} flits in flight, {} deliveries pending, {} routers busy",
                self.in_flight, self.fabric.pending, self.active_count
            ));
        }
        let cap = self.terminals.cap();
        let vcs = self.vcs;
        let core = self.routers.core();
        for id in 0..self.inbound.len() {
            for o in 0..PORTS * vcs {
                let (credits, busy) = (core.credits(id, o), core.out_busy(id, o));
                let (port, vc) = (o / vcs, o % vcs);
                if credits as usize != cap || busy {
                    return Err(format!(
                        "router {id} output {} vc {vc}: {credits} credits of {cap}, busy {busy}",
                        Port::from_index(port).letter(),
                    ));
                }
            }
        }
        for node in 0..self.inbound.len() {
            for vc in 0..self.vcs {
                let credits = self.terminals.credits[node * self.vcs + vc];
                let busy = self.terminals.busy[node] & (1 << vc) != 0;
                if credits as usize != cap || busy {
                    return Err(format!(
                        "terminal {node} vc {vc}: {credits} credits of {cap}, busy {busy}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Flits in router input buffers now (written and not yet read: the
    /// power model's buffer writes are its reads plus these).
    pub fn buffered_flits(&self) -> u64 {
        let core = self.routers.core();
        (0..self.inbound.len()).map(|r| core.held(r) as u64).sum()
    }

    /// Mean flits buffered per router per cycle up to `end` (VC occupancy).
    pub fn mean_buffered_flits(&self, end: u64) -> f64 {
        let core = self.routers.core();
        let held: i64 = (0..self.inbound.len()).map(|r| core.held(r) as i64).sum();
        let total = self.fabric.counters.buffered + held * end as i64;
        if end == 0 {
            0.0
        } else {
            total as f64 / (end as f64 * self.inbound.len() as f64)
        }
    }

    /// Whether flits are held and none has moved for the configured number
    /// of cycles up to `now`.
    pub fn is_stalled(&self, now: u64) -> bool {
        self.in_flight > 0 && now.saturating_sub(self.fabric.last_move) >= self.stall_cycles
    }

    /// The cycle a flit last moved.
    pub fn last_move(&self) -> u64 {
        self.fabric.last_move
    }
}
