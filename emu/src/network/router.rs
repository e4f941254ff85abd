//! One input-queued virtual-channel router (BookSim2's `iq` router): five
//! ports, a buffer per input virtual channel, route computation,
//! virtual-channel allocation and switch allocation as separate stages with
//! configurable delays, credit-based flow control towards every output.
//!
//! The router only reads its own state and what its channels delivered up
//! to this cycle, and everything it sends arrives at least a cycle later
//! (see [`super::Network`]), so the order in which routers are evaluated
//! within a cycle cannot change any result.
//!
//! Laid out for the cycle loop: buffers hold flit handles (a pool index
//! with the head/tail bits beside it, [`Word`]), VCs are numbered
//! `port * vcs + vc` across the ports, and every set a stage looks at is a
//! bit mask ([`VcSet`]): occupied input VCs, heads waiting for a VC,
//! packets holding one, busy output VCs, output VCs with credits. A stage
//! touches only the VCs that can act.

use super::alloc::{SwitchAllocator, VcAllocator, VcRequest};
use super::fabric::{Fabric, Word};
use super::flit::{NetFlit, PORTS, Port, route};
use super::mask::VcSet;
use super::{StallCause, Timing};
use crate::config::AllocatorKind;

/// Where the packet at the front of an input VC is in the pipeline: the
/// view of the router's one record of it, the masks `routed` and
/// `holding` ([`Router::state`]).
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

/// An input virtual channel: its buffer's place and its packet's progress.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InputVc {
    /// The cycle from which the current stage may act.
    pub ready: u64,
    /// The output VC of the front packet, `port * vcs + vc` (once
    /// allocated).
    pub out: u16,
    /// Output port of the front packet (once routed).
    pub out_port: u8,
    /// Class of the front packet (its VC set), from its head.
    pub class: u8,
    /// Buffer position of the front flit.
    front: u8,
    /// Flits buffered.
    pub len: u8,
}

/// A router whose VC sets take `W` words.
pub(crate) struct Router<const W: usize> {
    /// Node id.
    pub id: u32,
    /// VCs per port.
    vcs: usize,
    /// Flits per VC buffer.
    cap: usize,
    /// VCs per class (set).
    per_class: usize,
    /// Input VCs, `port * vcs + vc`.
    inputs: Vec<InputVc>,
    /// Buffered flits, `(port * vcs + vc) * cap + slot`.
    buf: Vec<Word>,
    /// Output VCs' credits (free slots downstream), `port * vcs + vc`.
    credits: Vec<u16>,
    /// Input VCs holding flits.
    occupied: VcSet<W>,
    /// Input VCs whose routed head waits for an output VC
    /// ([`VcState::VcAlloc`]). With `holding`, the one record of each
    /// input VC's state.
    routed: VcSet<W>,
    /// Input VCs whose packet holds an output VC ([`VcState::Active`]).
    holding: VcSet<W>,
    /// Output VCs allocated to a packet whose tail has not left.
    out_busy: VcSet<W>,
    /// Output VCs with a credit.
    out_credit: VcSet<W>,
    vc_alloc: VcAllocator,
    sw_alloc: SwitchAllocator,
    /// Per input port: the VC after the one that last won the switch; among
    /// the port's VCs that want the same output, the first from it asks.
    sw_next_vc: [u16; PORTS],
    /// Flits buffered in all input VCs.
    pub held: u32,
    /// The next cycle at which this router can act: earlier cycles only
    /// wait out pipeline delays (a delivery makes it the delivery's cycle).
    pub wake_at: u64,
    /// Scratch: the input VC behind each switch request (input port,
    /// output port).
    sw_vc: [u16; PORTS * PORTS],
}

impl<const W: usize> Router<W> {
    /// A router with every output VC's credits set to the buffer depth.
    pub fn new(
        id: u32,
        classes: usize,
        per_class: usize,
        cap: usize,
        vc_allocator: AllocatorKind,
        sw_allocator: AllocatorKind,
    ) -> Router<W> {
        let vcs = classes * per_class;
        let n = PORTS * vcs;
        assert!(vcs <= 64 && n <= 64 * W, "at most 64 VCs per port");
        assert!(cap <= u8::MAX as usize, "at most 255 flits a buffer");
        Router {
            id,
            vcs,
            cap,
            per_class,
            inputs: vec![
                InputVc {
                    ready: 0,
                    out: 0,
                    out_port: 0,
                    class: 0,
                    front: 0,
                    len: 0,
                };
                n
            ],
            buf: vec![Word(0); n * cap],
            credits: vec![cap as u16; n],
            occupied: VcSet::EMPTY,
            routed: VcSet::EMPTY,
            holding: VcSet::EMPTY,
            out_busy: VcSet::EMPTY,
            out_credit: VcSet::first_n(n),
            vc_alloc: VcAllocator::new(vc_allocator, n),
            sw_alloc: SwitchAllocator::new(sw_allocator),
            sw_next_vc: [0; PORTS],
            held: 0,
            wake_at: 0,
            sw_vc: [0; PORTS * PORTS],
        }
    }

    /// Input VC `i` (`port * vcs + vc`).
    pub fn input(&self, i: usize) -> &InputVc {
        &self.inputs[i]
    }

    /// Where input VC `i`'s front packet is in the pipeline.
    pub fn state(&self, i: usize) -> VcState {
        if self.routed.contains(i) {
            VcState::VcAlloc
        } else if self.holding.contains(i) {
            VcState::Active
        } else {
            VcState::Idle
        }
    }

    /// Credits of output VC `o` (`port * vcs + vc`).
    pub fn credits(&self, o: usize) -> u16 {
        self.credits[o]
    }

    /// Whether output VC `o` is allocated to a packet.
    pub fn out_busy(&self, o: usize) -> bool {
        self.out_busy.contains(o)
    }

    /// The flit handle at position `k` from the front of input VC `i`.
    pub fn word(&self, i: usize, k: usize) -> Word {
        let mut slot = self.inputs[i].front as usize + k;
        if slot >= self.cap {
            slot -= self.cap;
        }
        self.buf[i * self.cap + slot]
    }

    /// Flit `w` arrives in input VC `i` at cycle `now`. The sender kept to
    /// the credits, so the buffer has room.
    #[inline]
    pub fn accept(&mut self, i: usize, w: Word, flits: &mut [NetFlit], t: &Timing, now: u64) {
        let cap = self.cap;
        let v = &mut self.inputs[i];
        assert!(
            (v.len as usize) < cap,
            "router {} port {:?} vc {}: a flit arrived without a credit",
            self.id,
            Port::from_index(i / self.vcs),
            i % self.vcs
        );
        let mut slot = v.front as usize + v.len as usize;
        if slot >= cap {
            slot -= cap;
        }
        v.len += 1;
        let first = v.len == 1 && !self.routed.contains(i) && !self.holding.contains(i);
        self.buf[i * cap + slot] = w;
        self.held += 1;
        self.occupied.insert(i);
        self.wake_at = self.wake_at.min(now);
        if first {
            self.route(i, flits, now + t.routing);
        }
    }

    /// A credit for output VC `o` (`port * vcs + vc`) arrives. It does not
    /// wake the router: a packet that waits for it is ready, and a router
    /// with a ready packet is evaluated every cycle anyway (so that the
    /// stall is counted).
    #[inline]
    pub fn credit(&mut self, o: usize) {
        let c = &mut self.credits[o];
        *c += 1;
        debug_assert!(*c as usize <= self.cap, "more credits than buffer");
        self.out_credit.insert(o);
    }

    /// Whether the router has work: buffered flits.
    #[inline]
    pub fn is_busy(&self) -> bool {
        self.held > 0
    }

    /// Route computation: the head at the front of input VC `i` (idle)
    /// gets its output port by dimension-order routing, known from cycle
    /// `ready` (its VC allocation may start then).
    fn route(&mut self, i: usize, flits: &mut [NetFlit], ready: u64) {
        let w = self.buf[i * self.cap + self.inputs[i].front as usize];
        let f = &mut flits[w.index()];
        debug_assert!(f.is_first(), "the front of an idle VC is a head");
        let (port, payload) = route(f.flit.payload);
        f.flit.payload = payload;
        let class = f.class;
        let v = &mut self.inputs[i];
        v.out_port = port as u8;
        v.class = class;
        v.ready = ready;
        self.routed.insert(i);
    }

    /// One cycle of the router, in BookSim2's `iq` router's stages: VC
    /// allocation, switch allocation, switch traversal, then the update of
    /// when it can act next (route computation happens as a head reaches
    /// the front of its buffer, [`Router::route`]). What it sends goes on
    /// the `fabric`; flit-cycles that could not move are counted there by
    /// cause.
    pub fn step(&mut self, now: u64, fabric: &mut Fabric) {
        if !self.routed.is_empty() {
            self.vc_allocation(now, fabric);
        }
        let mut grants = [(0u8, 0u8); PORTS];
        let granted = self.switch_allocation(now, fabric, &mut grants);
        self.switch_traversal(now, &grants[..granted], fabric);
        self.update(now);
    }

    /// Output VC `o` goes to the head of input VC `i`, whose flits may ask
    /// for the switch from `ready`.
    #[inline]
    fn granted_vc(&mut self, i: usize, o: usize, ready: u64) {
        self.out_busy.insert(o);
        let v = &mut self.inputs[i];
        v.out = o as u16;
        v.ready = ready;
        self.routed.remove(i);
        self.holding.insert(i);
    }

    /// Virtual-channel allocation: every routed head whose routing delay
    /// is over asks for each free output VC of its class at its output
    /// port; the VC allocator grants at most one per head and per output
    /// VC.
    fn vc_allocation(&mut self, now: u64, fabric: &mut Fabric) {
        let (vcs, per_class) = (self.vcs, self.per_class);
        let requests = &mut fabric.vc_requests;
        requests.clear();
        let mut m = self.routed;
        while let Some(i) = m.pop() {
            let v = &self.inputs[i];
            if v.ready > now {
                continue;
            }
            let first = v.out_port as usize * vcs + v.class as usize * per_class;
            let free = !self.out_busy.bits(first, per_class) & low_bits(per_class);
            if free == 0 {
                fabric.counters.stalls[StallCause::VcBusy as usize] += 1;
            } else {
                requests.push(VcRequest {
                    input: i as u16,
                    first: first as u16,
                    mask: free,
                });
            }
        }
        if requests.is_empty() {
            return;
        }
        let grants = &mut fabric.vc_grants;
        grants.clear();
        self.vc_alloc.allocate(requests, grants);
        // Heads that asked and won nothing.
        fabric.counters.stalls[StallCause::VcConflict as usize] +=
            (requests.len() - grants.len()) as u64;
        let ready = now + fabric.timing.vc_alloc;
        for k in 0..fabric.vc_grants.len() {
            let (i, o) = fabric.vc_grants[k];
            self.granted_vc(i as usize, o as usize, ready);
        }
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
        fabric: &mut Fabric,
        grants: &mut [(u8, u8); PORTS],
    ) -> usize {
        let vcs = self.vcs;
        let stalls = &mut fabric.counters.stalls;
        // Requests as bits `input port * PORTS + output port`, and as
        // the allocator takes them.
        let mut wanted = 0u32;
        let mut requests = [0u8; PORTS];
        let mut m = self.occupied.and(&self.holding);
        while let Some(i) = m.pop() {
            let v = &self.inputs[i];
            if v.ready > now {
                continue;
            }
            if !self.out_credit.contains(v.out as usize) {
                stalls[StallCause::NoCredit as usize] += 1;
                continue;
            }
            let (port, vc) = fabric.port_vc[i];
            let slot = port as usize * PORTS + v.out_port as usize;
            if wanted & (1 << slot) == 0 {
                wanted |= 1 << slot;
                requests[port as usize] |= 1 << v.out_port;
                self.sw_vc[slot] = vc as u16;
            } else {
                stalls[StallCause::SwitchConflict as usize] += 1;
                let from = self.sw_next_vc[port as usize];
                let rank = |k: u16| {
                    if k >= from {
                        k - from
                    } else {
                        k + vcs as u16 - from
                    }
                };
                if rank(vc as u16) < rank(self.sw_vc[slot]) {
                    self.sw_vc[slot] = vc as u16;
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
            self.sw_alloc.allocate(&requests, grants)
        };
        stalls[StallCause::SwitchConflict as usize] +=
            (wanted.count_ones() as usize - granted) as u64;
        granted
    }

    /// Switch traversal: each granted flit leaves its buffer (its slot's
    /// credit goes upstream, the output VC's credit is spent) and goes on
    /// the link; a tail frees its output VC and lets the next head in its
    /// buffer be routed.
    fn switch_traversal(&mut self, now: u64, grants: &[(u8, u8)], fabric: &mut Fabric) {
        for &(in_port, out_port) in grants {
            let (in_port, out_port) = (in_port as usize, out_port as usize);
            let vc = self.sw_vc[in_port * PORTS + out_port] as usize;
            self.traverse(in_port, vc, out_port, now, fabric);
        }
    }

    /// The front flit of VC `vc` of input port `in_port` crosses the
    /// switch to `out_port` (see [`Router::switch_traversal`]).
    #[inline(always)]
    fn traverse(
        &mut self,
        in_port: usize,
        vc: usize,
        out_port: usize,
        now: u64,
        fabric: &mut Fabric,
    ) {
        let (vcs, cap) = (self.vcs, self.cap);
        self.sw_next_vc[in_port] = if vc + 1 == vcs { 0 } else { vc as u16 + 1 };
        let i = in_port * vcs + vc;
        let v = &mut self.inputs[i];
        let w = self.buf[i * cap + v.front as usize];
        v.front = if v.front as usize + 1 == cap {
            0
        } else {
            v.front + 1
        };
        v.len -= 1;
        self.held -= 1;
        let o = v.out as usize;
        let tail = w.is_last();
        if tail {
            self.holding.remove(i);
            self.out_busy.remove(o);
        } else {
            v.ready = now + 1;
        }
        let more = v.len > 0;
        if !more {
            self.occupied.remove(i);
        }
        self.credits[o] -= 1;
        if self.credits[o] == 0 {
            self.out_credit.remove(o);
        }
        let out_vc = (o - out_port * vcs) as u8;
        fabric.send(now, self.id, (in_port, vc as u8), (out_port, out_vc), w);
        if tail && more {
            // The next packet's head is at the front now.
            let t = fabric.timing.next_head_routing;
            self.route(i, &mut fabric.flits, now + t);
        }
    }

    /// The update after a cycle: the next cycle at which the router can
    /// act, so that it sleeps through cycles in which every flit only
    /// waits out a delay.
    fn update(&mut self, now: u64) {
        let mut wake = u64::MAX;
        let mut m = self.occupied;
        while let Some(i) = m.pop() {
            let ready = self.inputs[i].ready;
            if ready <= now + 1 {
                // Nothing wakes earlier than the next cycle.
                wake = now + 1;
                break;
            }
            wake = wake.min(ready);
        }
        self.wake_at = wake;
    }
}

/// A word with the low `n` bits set (`n` at most 64).
#[inline]
fn low_bits(n: usize) -> u64 {
    if n == 64 { u64::MAX } else { (1 << n) - 1 }
}
