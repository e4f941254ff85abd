//! One input-queued virtual-channel router (BookSim2's `iq` router): five
//! ports, a buffer per input virtual channel, route computation,
//! virtual-channel allocation and switch allocation as separate stages with
//! configurable delays, credit-based flow control towards every output.
//!
//! The router only reads its own state and what its channels delivered up
//! to this cycle, and everything it sends arrives at least a cycle later
//! (see [`super::Network`]), so the order in which routers are evaluated
//! within a cycle cannot change any result.

use super::alloc::{SwitchAllocator, VcAllocator, VcRequest};
use super::flit::{NetFlit, PORTS, Port, route};
use super::{Send, StallCause, Timing};
use crate::config::AllocatorKind;

/// Where the packet at the front of an input VC is in the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VcState {
    /// No packet (or the next one's head has not been routed yet).
    Idle,
    /// The head is routed and waits for an output VC from cycle `ready`.
    VcAlloc,
    /// The packet owns an output VC; its flits compete for the switch from
    /// cycle `ready`.
    Active,
}

/// An input virtual channel: its buffer and its packet's progress.
#[derive(Clone, Debug)]
pub(crate) struct InputVc {
    /// Buffer position of the front flit.
    front: u16,
    /// Flits buffered.
    pub len: u16,
    /// Pipeline state of the front packet.
    pub state: VcState,
    /// Output port of the front packet (once routed).
    pub out_port: u8,
    /// Output VC of the front packet (once allocated).
    pub out_vc: u8,
    /// The cycle from which the current stage may act.
    pub ready: u64,
    /// Class of the front packet (its VC set), from its head.
    pub class: u8,
}

/// An output virtual channel: the downstream buffer as this router sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OutputVc {
    /// Free slots downstream.
    pub credits: u16,
    /// Allocated to a packet whose tail has not left.
    pub busy: bool,
}

/// A router.
pub(crate) struct Router {
    /// Node id.
    pub id: u32,
    /// VCs per port.
    pub vcs: usize,
    /// Flits per VC buffer.
    cap: usize,
    /// VCs per class (set).
    per_class: usize,
    /// Input VCs, `port * vcs + vc`.
    pub inputs: Vec<InputVc>,
    /// Buffered flits, `(port * vcs + vc) * cap + slot`.
    flits: Vec<NetFlit>,
    /// Output VCs, `port * vcs + vc`.
    pub outputs: Vec<OutputVc>,
    vc_alloc: VcAllocator,
    sw_alloc: SwitchAllocator,
    /// Per input port: the VC after the one that last won the switch; among
    /// the port's VCs that want the same output, the first from it asks.
    sw_next_vc: [u16; PORTS],
    /// Flits buffered in all input VCs.
    pub held: u32,
    /// Input VCs whose head waits for an output VC.
    routed: u32,
    /// The next cycle at which this router can act: earlier cycles only
    /// wait out pipeline delays (a delivery makes it the delivery's cycle).
    pub wake_at: u64,
    /// Per input port, a bit per VC holding flits (so that a cycle only
    /// looks at occupied VCs).
    occupied: [u64; PORTS],
    /// Scratch: the VC behind each switch request (input port, output port).
    sw_vc: [u16; PORTS * PORTS],
    /// Scratch: VC requests and grants of this cycle.
    requests: Vec<VcRequest>,
    grants: Vec<(u16, u16)>,
}

const NO_FLIT: NetFlit = NetFlit {
    flit: isa_spec::msg::Flit {
        head: false,
        tail: false,
        payload: 0,
    },
    packet: u32::MAX,
    seq: 0,
    injected: 0,
    class: 0,
};

impl Router {
    /// A router with every output VC's credits set to the buffer depth.
    pub fn new(
        id: u32,
        classes: usize,
        per_class: usize,
        cap: usize,
        vc_allocator: AllocatorKind,
        sw_allocator: AllocatorKind,
    ) -> Router {
        let vcs = classes * per_class;
        assert!(vcs <= 64, "at most 64 VCs per port");
        let n = PORTS * vcs;
        Router {
            id,
            vcs,
            cap,
            per_class,
            inputs: vec![
                InputVc {
                    front: 0,
                    len: 0,
                    state: VcState::Idle,
                    out_port: 0,
                    out_vc: 0,
                    ready: 0,
                    class: 0,
                };
                n
            ],
            flits: vec![NO_FLIT; n * cap],
            outputs: vec![
                OutputVc {
                    credits: cap as u16,
                    busy: false,
                };
                n
            ],
            vc_alloc: VcAllocator::new(vc_allocator, n),
            sw_alloc: SwitchAllocator::new(sw_allocator),
            sw_next_vc: [0; PORTS],
            sw_vc: [0; PORTS * PORTS],
            held: 0,
            routed: 0,
            wake_at: 0,
            occupied: [0; PORTS],
            requests: Vec::new(),
            grants: Vec::new(),
        }
    }

    /// Flits per VC buffer.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The flit at position `k` from the front of input VC `i`.
    pub fn flit(&self, i: usize, k: usize) -> &NetFlit {
        let vc = &self.inputs[i];
        let mut slot = vc.front as usize + k;
        if slot >= self.cap {
            slot -= self.cap;
        }
        &self.flits[i * self.cap + slot]
    }

    /// A flit arrives in input VC `vc` of `port` at cycle `now`. The caller
    /// keeps to the credits, so the buffer has room.
    pub fn accept(&mut self, port: Port, vc: usize, flit: NetFlit, t: &Timing, now: u64) {
        let i = port as usize * self.vcs + vc;
        let cap = self.cap;
        let v = &mut self.inputs[i];
        assert!(
            (v.len as usize) < cap,
            "router {} port {:?} vc {vc}: a flit arrived without a credit",
            self.id,
            port
        );
        let mut slot = v.front as usize + v.len as usize;
        if slot >= cap {
            slot -= cap;
        }
        v.len += 1;
        self.flits[i * cap + slot] = flit;
        self.held += 1;
        self.occupied[port as usize] |= 1 << vc;
        self.wake_at = self.wake_at.min(now);
        if v.len == 1 && v.state == VcState::Idle {
            self.route(i, flit.class, now + t.routing);
        }
    }

    /// Route computation: the head at the front of input VC `i` (idle)
    /// gets its output port by dimension-order routing, known from cycle
    /// `ready` (its VC allocation may start then).
    fn route(&mut self, i: usize, class: u8, ready: u64) {
        let slot = i * self.cap + self.inputs[i].front as usize;
        let f = &mut self.flits[slot];
        debug_assert!(f.is_first(), "the front of an idle VC is a head");
        let (port, payload) = route(f.flit.payload);
        f.flit.payload = payload;
        let v = &mut self.inputs[i];
        v.out_port = port as u8;
        v.class = class;
        v.state = VcState::VcAlloc;
        v.ready = ready;
        self.routed += 1;
    }

    /// A credit for output VC `vc` of `port` arrives.
    pub fn credit(&mut self, port: Port, vc: usize) {
        let o = &mut self.outputs[port as usize * self.vcs + vc];
        o.credits += 1;
        self.wake_at = 0;
        debug_assert!(o.credits as usize <= self.cap, "more credits than buffer");
    }

    /// Whether the router has work: buffered flits.
    pub fn is_busy(&self) -> bool {
        self.held > 0
    }

    /// One cycle of the router, in BookSim2's `iq` router's stages: VC
    /// allocation, switch allocation, switch traversal, then the update of
    /// when it can act next (route computation happens as a head reaches
    /// the front of its buffer, [`Router::route`]). Flits it sends go to
    /// `out`; flit-cycles that could not move are counted by cause in
    /// `stalls`.
    pub fn step(
        &mut self,
        now: u64,
        t: &Timing,
        out: &mut Vec<Send>,
        stalls: &mut [u64; StallCause::COUNT],
    ) {
        if self.routed > 0 {
            self.vc_allocation(now, t, stalls);
        }
        let mut grants = [(0u8, 0u8); PORTS];
        let granted = self.switch_allocation(now, stalls, &mut grants);
        self.switch_traversal(now, t, &grants[..granted], out);
        self.update(now);
    }

    /// Virtual-channel allocation: every routed head whose routing delay
    /// is over asks for each free output VC of its class at its output
    /// port; the VC allocator grants at most one per head and per output
    /// VC.
    fn vc_allocation(&mut self, now: u64, t: &Timing, stalls: &mut [u64; StallCause::COUNT]) {
        let vcs = self.vcs;
        let per_class = self.per_class;
        self.requests.clear();
        let mut asked = 0u64;
        for port in 0..PORTS {
            let mut m = self.occupied[port];
            while m != 0 {
                let vc = m.trailing_zeros() as usize;
                m &= m - 1;
                let i = port * vcs + vc;
                let v = &self.inputs[i];
                if v.state != VcState::VcAlloc || v.ready > now {
                    continue;
                }
                let first = v.out_port as usize * vcs + v.class as usize * per_class;
                let mut mask = 0u64;
                for (k, o) in self.outputs[first..first + per_class].iter().enumerate() {
                    if !o.busy {
                        mask |= 1 << k;
                    }
                }
                if mask == 0 {
                    stalls[StallCause::VcBusy as usize] += 1;
                } else {
                    asked += 1;
                    self.requests.push(VcRequest {
                        input: i as u16,
                        first: first as u16,
                        mask,
                    });
                }
            }
        }
        if self.requests.is_empty() {
            return;
        }
        self.grants.clear();
        self.vc_alloc.allocate(&self.requests, &mut self.grants);
        for &(i, o) in &self.grants {
            let (i, o) = (i as usize, o as usize);
            self.outputs[o].busy = true;
            let v = &mut self.inputs[i];
            v.out_vc = (o - v.out_port as usize * vcs) as u8;
            v.state = VcState::Active;
            v.ready = now + t.vc_alloc;
            self.routed -= 1;
        }
        // Heads that asked and won nothing.
        stalls[StallCause::VcConflict as usize] += asked - self.grants.len() as u64;
    }

    /// Switch allocation: every packet with a flit at the front, its VC
    /// delay over and a credit downstream wants its output port. As in
    /// BookSim2, one VC per (input port, output port) asks: the first from
    /// the port's round-robin VC pointer; the allocator's input arbiters
    /// then rank output ports. Writes the grants `(input port, output
    /// port)` and returns how many.
    fn switch_allocation(
        &mut self,
        now: u64,
        stalls: &mut [u64; StallCause::COUNT],
        grants: &mut [(u8, u8); PORTS],
    ) -> usize {
        let vcs = self.vcs;
        let mut wanted = 0u32;
        for port in 0..PORTS {
            let mut m = self.occupied[port];
            if m == 0 {
                continue;
            }
            let from = self.sw_next_vc[port];
            let rank = |k: u16| {
                if k >= from {
                    k - from
                } else {
                    k + vcs as u16 - from
                }
            };
            while m != 0 {
                let vc = m.trailing_zeros() as u16;
                m &= m - 1;
                let v = &self.inputs[port * vcs + vc as usize];
                if v.state != VcState::Active || v.ready > now {
                    continue;
                }
                if self.outputs[v.out_port as usize * vcs + v.out_vc as usize].credits == 0 {
                    stalls[StallCause::NoCredit as usize] += 1;
                    continue;
                }
                let slot = port * PORTS + v.out_port as usize;
                if wanted & (1 << slot) == 0 {
                    wanted |= 1 << slot;
                    self.sw_vc[slot] = vc;
                } else {
                    stalls[StallCause::SwitchConflict as usize] += 1;
                    if rank(vc) < rank(self.sw_vc[slot]) {
                        self.sw_vc[slot] = vc;
                    }
                }
            }
        }
        if wanted == 0 {
            return 0;
        }
        let granted = if wanted & (wanted - 1) == 0 {
            // One request (most cycles at low load): granted unopposed.
            let slot = wanted.trailing_zeros() as usize;
            grants[0] = ((slot / PORTS) as u8, (slot % PORTS) as u8);
            self.sw_alloc.grant_single(grants[0].0, grants[0].1);
            1
        } else {
            let mut requests = [0u8; PORTS];
            let mut w = wanted;
            while w != 0 {
                let slot = w.trailing_zeros() as usize;
                w &= w - 1;
                requests[slot / PORTS] |= 1 << (slot % PORTS);
            }
            self.sw_alloc.allocate(&requests, grants)
        };
        stalls[StallCause::SwitchConflict as usize] +=
            (wanted.count_ones() as usize - granted) as u64;
        granted
    }

    /// Switch traversal: each granted flit leaves its buffer (its slot's
    /// credit goes upstream, the output VC's credit is spent) and goes to
    /// `out`; a tail frees its output VC and lets the next head in its
    /// buffer be routed.
    fn switch_traversal(&mut self, now: u64, t: &Timing, grants: &[(u8, u8)], out: &mut Vec<Send>) {
        let vcs = self.vcs;
        let cap = self.cap;
        for &(in_port, out_port) in grants {
            let in_port = in_port as usize;
            let vc = self.sw_vc[in_port * PORTS + out_port as usize] as usize;
            self.sw_next_vc[in_port] = ((vc + 1) % vcs) as u16;
            let i = in_port * vcs + vc;
            let v = &mut self.inputs[i];
            let flit = self.flits[i * cap + v.front as usize];
            v.front = if v.front as usize + 1 == cap {
                0
            } else {
                v.front + 1
            };
            v.len -= 1;
            self.held -= 1;
            if v.len == 0 {
                self.occupied[in_port] &= !(1 << (i % vcs));
            }
            let out_port = v.out_port as usize;
            let out_vc = v.out_vc as usize;
            let o = &mut self.outputs[out_port * vcs + out_vc];
            o.credits -= 1;
            let tail = flit.is_last();
            if tail {
                o.busy = false;
                v.state = VcState::Idle;
            }
            out.push(Send {
                from: self.id,
                in_port: Port::from_index(in_port),
                in_vc: (i % vcs) as u8,
                out_port: Port::from_index(out_port),
                out_vc: out_vc as u8,
                flit,
            });
            if tail && self.inputs[i].len > 0 {
                // The next packet's head is at the front now.
                let class = self.flit(i, 0).class;
                self.route(i, class, now + t.next_head_routing);
            } else if !tail {
                self.inputs[i].ready = now + 1;
            }
        }
    }

    /// The update after a cycle: the next cycle at which the router can
    /// act, so that it sleeps through cycles in which every flit only
    /// waits out a delay.
    fn update(&mut self, now: u64) {
        let mut wake = u64::MAX;
        'ports: for port in 0..PORTS {
            let mut m = self.occupied[port];
            while m != 0 {
                let vc = m.trailing_zeros() as usize;
                m &= m - 1;
                let v = &self.inputs[port * self.vcs + vc];
                if v.ready <= now + 1 {
                    // Nothing wakes earlier than the next cycle.
                    wake = now + 1;
                    break 'ports;
                }
                wake = wake.min(v.ready);
            }
        }
        self.wake_at = wake;
    }
}
