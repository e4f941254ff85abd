//! The fast router core (`sim.network_engine = "fast"`): the routers of
//! [`super::router`] (BookSim2's `iq` router: route computation, VC
//! allocation, switch allocation, switch traversal, with the same delays,
//! arbiters and stall counts), laid out for the cycle loop instead of one
//! object per router.
//!
//! Layout (nothing allocated per flit or per cycle, no index checked in
//! the hot path but the ring's):
//! - every router's record in one array ([`Node`]): its VC sets as one
//!   word each (`occupied`, `routed`, `holding`, `out_busy`,
//!   `out_credit`; VC `port * vcs + vc` is that bit, so up to 12 VCs a
//!   port), flits held, the cycle it can act next, its switch allocator;
//! - every router's VCs in one array of fixed blocks of 64 ([`Vc`]): the
//!   cycle its stage may act, its packet's output VC, port and class, its
//!   ring's front and length, the credits of the output VC of the same
//!   number and the VC allocator's two pointers (input arbiter of input VC
//!   `i`, output arbiter of output VC `i`); a VC's number from a mask
//!   (`trailing_zeros`) indexes its block without a bounds check;
//! - every buffer as a fixed-size ring in one flat array,
//!   `(r * nv + i) * cap + slot`.
//!
//! Requests and grants are bit masks: a head's request is the set of
//! free output VCs of its class at its port, an arbiter picks the first
//! set bit from its pointer (`rotate_right`, `trailing_zeros`), the
//! second stage groups the first stage's picks by output VC (input first)
//! or input VC (output first) as masks. A body flit never comes near the
//! VC allocator: only `routed` heads ask. The round-robin order is the
//! reference's cyclic order, so the grants and pointers are the
//! reference's; the differential test (`emu/tests/network_engines.rs`)
//! holds it to that.
//!
//! Why it is exact: a router's cycle reads and writes only its own state
//! and what its channels delivered; the deliveries, credits, visits and
//! counters around it are the mesh's, shared with the reference
//! ([`super::Network`]); each stage is the reference's stage on the same
//! sets, in the same order, and the switch allocator is the same one
//! (its pointers and arbiters; the fast core hands it the requests as one
//! matrix, `allocate_matrix`, which a test holds to `allocate`).
//!
//! Over 600 lines: the layout, one router's stages on it and the VC
//! allocator's masks are one piece (they share the records and the borrow
//! of one router for its cycle, `At`); splitting them would spread one
//! router's cycle over files.

use super::alloc::SwitchAllocator;
use super::fabric::{Fabric, Word};
use super::flit::{NetFlit, PORTS, Port, route};
use super::router::VcState;
use super::{RouterCore, StallCause, Timing, VcView};
use crate::config::AllocatorKind;

/// VCs a router's block holds (a word of VC bits).
const BLOCK: usize = 64;

/// One VC of a router, input side and output side of the same number.
#[derive(Clone, Copy, Debug, Default)]
struct Vc {
    /// The cycle from which the input VC's current stage may act.
    ready: u64,
    /// Output VC of the front packet (once allocated).
    out: u8,
    /// Output port of the front packet (once routed).
    out_port: u8,
    /// Class of the front packet.
    class: u8,
    /// Ring position of the front flit, and flits buffered.
    front: u8,
    len: u8,
    /// Credits of output VC `i` (free slots downstream).
    credits: u8,
    /// The VC allocator's input arbiter of input VC `i`, and its output
    /// arbiter of output VC `i`.
    in_pointer: u8,
    out_pointer: u8,
}

/// One router's record.
#[derive(Clone, Debug)]
struct Node {
    /// Input VCs holding flits.
    occupied: u64,
    /// Input VCs whose routed head waits for an output VC.
    routed: u64,
    /// Input VCs whose packet holds an output VC.
    holding: u64,
    /// Output VCs allocated to a packet whose tail has not left.
    out_busy: u64,
    /// Output VCs with a credit.
    out_credit: u64,
    /// The next cycle at which the router can act.
    wake_at: u64,
    /// Flits buffered.
    held: u32,
    /// Per input port: the VC after the one that last won the switch.
    /// (8 entries, so that a port masked to 3 bits needs no check.)
    sw_next_vc: [u8; 8],
    sw_alloc: SwitchAllocator,
}

/// What every router shares: the sizes and policies.
#[derive(Clone, Debug)]
struct Shape {
    /// VCs per port.
    vcs: usize,
    /// VCs per router (`PORTS * vcs`, at most 64).
    nv: usize,
    /// Flits per VC buffer.
    cap: usize,
    /// Ring slots per router (`nv * cap`).
    span: usize,
    /// VCs per class.
    per_class: usize,
    vc_kind: AllocatorKind,
    /// VC `port * vcs + vc` as (port, vc).
    port_vc: [(u8, u8); BLOCK],
}

/// Every router of a mesh (see the module documentation).
pub(crate) struct FastCore {
    shape: Shape,
    nodes: Vec<Node>,
    vcs: Vec<[Vc; BLOCK]>,
    ring: Vec<Word>,
    /// Scratch of the VC allocation, by VC: only the entries of the VCs
    /// at hand are written before they are read.
    scratch: Scratch,
}

/// Scratch of the VC allocation.
struct Scratch {
    /// Per asking input VC, its candidates (output VC bits).
    candidates: [u64; BLOCK],
    /// Per output VC, the inputs that picked (input first) or want
    /// (output first) it.
    by_output: [u64; BLOCK],
}

/// One router, borrowed for its cycle.
struct At<'a> {
    shape: &'a Shape,
    node: &'a mut Node,
    vc: &'a mut [Vc; BLOCK],
    /// Every ring, and where this router's begin (`base + i * cap +
    /// slot`).
    ring: &'a mut [Word],
    base: usize,
    scratch: &'a mut Scratch,
    id: u32,
}

/// The first set bit of `mask` at or after `from`, cyclically over 64
/// bits (`mask` non-empty; every key below 64).
#[inline(always)]
fn first_from(mask: u64, from: u8) -> usize {
    ((mask.rotate_right(from as u32).trailing_zeros() + from as u32) & 63) as usize
}

/// The key after `k` among `n`.
#[inline(always)]
fn next(k: usize, n: usize) -> u8 {
    if k + 1 == n { 0 } else { k as u8 + 1 }
}

/// The lowest VC of a non-empty mask, as a block index.
#[inline(always)]
fn lowest(m: u64) -> usize {
    (m.trailing_zeros() & 63) as usize
}

/// Output VC `o` of a router of `nv` VCs goes to the head of its input VC
/// `i`, whose flits may ask for the switch from `ready`; both arbiters'
/// pointers move past the grant.
#[inline(always)]
fn grant_vc(nv: usize, node: &mut Node, vc: &mut [Vc; BLOCK], i: usize, o: usize, ready: u64) {
    let v = &mut vc[i & 63];
    v.in_pointer = next(o, nv);
    v.out = o as u8;
    v.ready = ready;
    vc[o & 63].out_pointer = next(i, nv);
    node.out_busy |= 1 << o;
    node.routed &= !(1 << i);
    node.holding |= 1 << i;
}

/// A word with the low `n` bits set (`n` at most 64).
#[inline(always)]
fn low_bits(n: usize) -> u64 {
    if n == 64 { u64::MAX } else { (1 << n) - 1 }
}

impl FastCore {
    /// Whether the fast core can hold routers of `vcs` VCs a port (their
    /// sets must fit a word).
    pub fn fits(vcs: usize) -> bool {
        PORTS * vcs <= BLOCK
    }

    /// `n` routers with every output VC's credits at the buffer depth.
    pub fn new(
        n: usize,
        classes: usize,
        per_class: usize,
        cap: usize,
        vc_kind: AllocatorKind,
        sw_kind: AllocatorKind,
    ) -> FastCore {
        let vcs = classes * per_class;
        let nv = PORTS * vcs;
        assert!(Self::fits(vcs), "the fast core holds at most 12 VCs a port");
        assert!(cap <= u8::MAX as usize, "at most 255 flits a buffer");
        let mut port_vc = [(0, 0); BLOCK];
        for (i, pv) in port_vc.iter_mut().enumerate().take(nv) {
            *pv = ((i / vcs) as u8, (i % vcs) as u8);
        }
        let vc = Vc {
            credits: cap as u8,
            ..Vc::default()
        };
        FastCore {
            shape: Shape {
                vcs,
                nv,
                cap,
                span: nv * cap,
                per_class,
                vc_kind,
                port_vc,
            },
            nodes: vec![
                Node {
                    occupied: 0,
                    routed: 0,
                    holding: 0,
                    out_busy: 0,
                    out_credit: low_bits(nv),
                    wake_at: 0,
                    held: 0,
                    sw_next_vc: [0; 8],
                    sw_alloc: SwitchAllocator::new(sw_kind),
                };
                n
            ],
            vcs: vec![[vc; BLOCK]; n],
            ring: vec![Word(0); n * nv * cap],
            scratch: Scratch {
                candidates: [0; BLOCK],
                by_output: [0; BLOCK],
            },
        }
    }

    /// Router `r`, for its cycle.
    #[inline(always)]
    fn at(&mut self, r: usize) -> At<'_> {
        let span = self.shape.span;
        At {
            shape: &self.shape,
            node: &mut self.nodes[r],
            vc: &mut self.vcs[r],
            ring: &mut self.ring,
            base: r * span,
            scratch: &mut self.scratch,
            id: r as u32,
        }
    }
}

impl At<'_> {
    /// Route computation of the head at the front of VC `i`.
    #[inline]
    fn route(&mut self, i: usize, flits: &mut [NetFlit], ready: u64) {
        let v = &mut self.vc[i & 63];
        let w = self.ring[self.base + i * self.shape.cap + v.front as usize];
        let f = &mut flits[w.index()];
        debug_assert!(f.is_first(), "the front of an idle VC is a head");
        let (port, payload) = route(f.flit.payload);
        f.flit.payload = payload;
        v.out_port = port as u8;
        v.class = f.class;
        v.ready = ready;
        self.node.routed |= 1 << i;
    }

    /// VC allocation (see the module documentation).
    #[inline(always)]
    fn vc_allocation(&mut self, now: u64, fabric: &mut Fabric) {
        let s = self.shape;
        let busy = self.node.out_busy;
        let class_bits = low_bits(s.per_class);
        let stalls = &mut fabric.counters.stalls;
        // The candidates of each asking input VC, as output VC bits.
        let candidates = &mut self.scratch.candidates;
        let mut asking = 0u64;
        let mut m = self.node.routed;
        while m != 0 {
            let i = lowest(m);
            m &= m - 1;
            let v = &self.vc[i];
            if v.ready > now {
                continue;
            }
            let first = v.out_port as usize * s.vcs + v.class as usize * s.per_class;
            let free = (!busy >> first) & class_bits;
            if free == 0 {
                stalls[StallCause::VcBusy as usize] += 1;
            } else {
                candidates[i] = free << first;
                asking |= 1 << i;
            }
        }
        if asking == 0 {
            return;
        }
        let ready = now + fabric.timing.vc_alloc;
        let granted = if asking & (asking - 1) == 0 {
            // One request: granted unopposed, the first candidate from its
            // input arbiter's pointer.
            let i = lowest(asking);
            let o = first_from(candidates[i], self.vc[i].in_pointer);
            grant_vc(self.shape.nv, self.node, self.vc, i, o, ready);
            1
        } else {
            self.vc_arbiters(asking, ready)
        };
        // Heads that asked and won nothing.
        fabric.counters.stalls[StallCause::VcConflict as usize] +=
            (asking.count_ones() - granted) as u64;
    }

    /// The VC allocator's two stages of arbiters, for several requests:
    /// the scratch's candidates of each input of `asking`. Returns the
    /// grants.
    fn vc_arbiters(&mut self, asking: u64, ready: u64) -> u32 {
        let mut granted = 0;
        // By output VC: the inputs that picked it (input first) or want it
        // (output first), each entry cleared when first met.
        let Scratch {
            candidates,
            by_output,
        } = &mut *self.scratch;
        match self.shape.vc_kind {
            AllocatorKind::SeparableInputFirst => {
                let mut picked = 0u64;
                let mut a = asking;
                while a != 0 {
                    let i = lowest(a);
                    a &= a - 1;
                    let o = first_from(candidates[i], self.vc[i].in_pointer);
                    join(&mut picked, by_output, o, i);
                }
                while picked != 0 {
                    let o = lowest(picked);
                    picked &= picked - 1;
                    let i = first_from(by_output[o], self.vc[o].out_pointer);
                    grant_vc(self.shape.nv, self.node, self.vc, i, o, ready);
                    granted += 1;
                }
            }
            AllocatorKind::SeparableOutputFirst => {
                let mut wanted = 0u64;
                let mut a = asking;
                while a != 0 {
                    let i = lowest(a);
                    a &= a - 1;
                    let mut c = candidates[i];
                    while c != 0 {
                        let o = lowest(c);
                        c &= c - 1;
                        join(&mut wanted, by_output, o, i);
                    }
                }
                // Each output offers itself to one input; `candidates[i]`
                // becomes the outputs offered to input `i`.
                let mut offered = 0u64;
                while wanted != 0 {
                    let o = lowest(wanted);
                    wanted &= wanted - 1;
                    let i = first_from(by_output[o], self.vc[o].out_pointer);
                    join(&mut offered, candidates, i, o);
                }
                while offered != 0 {
                    let i = lowest(offered);
                    offered &= offered - 1;
                    let o = first_from(candidates[i], self.vc[i].in_pointer);
                    grant_vc(self.shape.nv, self.node, self.vc, i, o, ready);
                    granted += 1;
                }
            }
        }
        granted
    }

    /// Switch allocation, then traversal of the granted flits.
    #[inline(always)]
    fn switch(&mut self, now: u64, fabric: &mut Fabric) {
        let vcs = self.shape.vcs;
        let stalls = &mut fabric.counters.stalls;
        let credit = self.node.out_credit;
        // Requests as bits `input port * PORTS + output port`, and the VC
        // behind each.
        let mut wanted = 0u32;
        let mut sw_vc = [0u8; 32];
        let mut m = self.node.occupied & self.node.holding;
        while m != 0 {
            let i = lowest(m);
            m &= m - 1;
            let v = &self.vc[i];
            if v.ready > now {
                continue;
            }
            if credit & (1 << v.out) == 0 {
                stalls[StallCause::NoCredit as usize] += 1;
                continue;
            }
            let (port, vc) = self.shape.port_vc[i];
            let slot = (port as usize * PORTS + v.out_port as usize) & 31;
            if wanted & (1 << slot) == 0 {
                wanted |= 1 << slot;
                sw_vc[slot] = i as u8;
            } else {
                stalls[StallCause::SwitchConflict as usize] += 1;
                // The first VC from the port's pointer asks.
                let p = self.node.sw_next_vc[port as usize & 7];
                let rank = |k: u8| if k >= p { k - p } else { k + vcs as u8 - p };
                let held = self.shape.port_vc[sw_vc[slot] as usize & 63].1;
                if rank(vc) < rank(held) {
                    sw_vc[slot] = i as u8;
                }
            }
        }
        if wanted == 0 {
            return;
        }
        if wanted & (wanted - 1) == 0 {
            // One request: granted unopposed.
            let slot = wanted.trailing_zeros() as usize;
            let (in_port, out_port) = (slot / PORTS, slot % PORTS);
            self.node
                .sw_alloc
                .grant_single(in_port as u8, out_port as u8);
            self.traverse(sw_vc[slot & 31] as usize, out_port, now, fabric);
            return;
        }
        let mut grants = [(0u8, 0u8); PORTS];
        let granted = self.node.sw_alloc.allocate_matrix(wanted, &mut grants);
        fabric.counters.stalls[StallCause::SwitchConflict as usize] +=
            (wanted.count_ones() as usize - granted) as u64;
        for &(in_port, out_port) in &grants[..granted] {
            let i = sw_vc[(in_port as usize * PORTS + out_port as usize) & 31];
            self.traverse(i as usize, out_port as usize, now, fabric);
        }
    }

    /// The front flit of VC `vc` of input port `in_port` crosses the
    /// switch to `out_port`: its slot's credit goes upstream, the output
    /// VC's credit is spent, a tail frees its output VC and lets the next
    /// head in its buffer be routed.
    #[inline(always)]
    fn traverse(&mut self, i: usize, out_port: usize, now: u64, fabric: &mut Fabric) {
        let (vcs, cap) = (self.shape.vcs, self.shape.cap);
        let (in_port, vc) = self.shape.port_vc[i & 63];
        let in_port = in_port as usize & 7;
        self.node.sw_next_vc[in_port] = next(vc as usize, vcs);
        let v = &mut self.vc[i & 63];
        let w = self.ring[self.base + i * cap + v.front as usize];
        v.front = next(v.front as usize, cap);
        v.len -= 1;
        let more = v.len > 0;
        let o = v.out as usize;
        let tail = w.is_last();
        let n = &mut *self.node;
        n.held -= 1;
        if tail {
            n.holding &= !(1 << i);
            n.out_busy &= !(1 << o);
        } else {
            v.ready = now + 1;
        }
        if !more {
            n.occupied &= !(1 << i);
        }
        let out = &mut self.vc[o & 63];
        out.credits -= 1;
        if out.credits == 0 {
            n.out_credit &= !(1 << o);
        }
        let out_vc = self.shape.port_vc[o & 63].1;
        fabric.send(now, self.id, (in_port, vc), (out_port, out_vc), w);
        if tail && more {
            let t = fabric.timing.next_head_routing;
            self.route(i, &mut fabric.flits, now + t);
        }
    }

    /// [`RouterCore::step`] when only input VC `i` holds flits (most
    /// routers at low load): each stage has at most this one request, which
    /// its allocator grants unopposed.
    #[inline(always)]
    fn step_one(&mut self, i: usize, now: u64, fabric: &mut Fabric) {
        let s = self.shape;
        let bit = 1u64 << i;
        let v = &self.vc[i & 63];
        if self.node.routed & bit != 0 && v.ready <= now {
            let first = v.out_port as usize * s.vcs + v.class as usize * s.per_class;
            let free = (!self.node.out_busy >> first) & low_bits(s.per_class);
            if free == 0 {
                fabric.counters.stalls[StallCause::VcBusy as usize] += 1;
            } else {
                let o = first_from(free << first, v.in_pointer);
                let ready = now + fabric.timing.vc_alloc;
                grant_vc(s.nv, self.node, self.vc, i, o, ready);
            }
        }
        let v = &self.vc[i & 63];
        if self.node.holding & bit != 0 && v.ready <= now {
            if self.node.out_credit & (1 << v.out) != 0 {
                let port = s.port_vc[i & 63].0;
                let out_port = v.out_port;
                self.node.sw_alloc.grant_single(port, out_port);
                self.traverse(i, out_port as usize, now, fabric);
            } else {
                fabric.counters.stalls[StallCause::NoCredit as usize] += 1;
            }
        }
        self.node.wake_at = if self.node.occupied & bit == 0 {
            u64::MAX
        } else {
            self.vc[i & 63].ready.max(now + 1)
        };
    }

    /// The next cycle at which the router can act: the next one if a
    /// stage is ready by then, else the earliest stage's cycle.
    #[inline(always)]
    fn update(&mut self, now: u64) {
        let mut wake = u64::MAX;
        let mut m = self.node.occupied;
        while m != 0 {
            let ready = self.vc[lowest(m)].ready;
            m &= m - 1;
            if ready <= now + 1 {
                wake = now + 1;
                break;
            }
            wake = wake.min(ready);
        }
        self.node.wake_at = wake;
    }
}

impl RouterCore for FastCore {
    #[inline(always)]
    fn accept(&mut self, r: usize, i: usize, w: Word, flits: &mut [NetFlit], t: &Timing, now: u64) {
        let cap = self.shape.cap;
        let vcs = self.shape.vcs;
        let mut at = self.at(r);
        let v = &mut at.vc[i & 63];
        let len = v.len as usize;
        assert!(
            len < cap,
            "router {r} port {:?} vc {}: a flit arrived without a credit",
            Port::from_index(i / vcs),
            i % vcs
        );
        let mut slot = v.front as usize + len;
        if slot >= cap {
            slot -= cap;
        }
        v.len += 1;
        at.ring[at.base + i * cap + slot] = w;
        let n = &mut *at.node;
        n.held += 1;
        n.occupied |= 1 << i;
        n.wake_at = n.wake_at.min(now);
        if len == 0 && (n.routed | n.holding) & (1 << i) == 0 {
            at.route(i, flits, now + t.routing);
        }
    }

    #[inline(always)]
    fn credit(&mut self, r: usize, o: usize) {
        let v = &mut self.vcs[r][o & 63];
        v.credits += 1;
        debug_assert!(
            v.credits as usize <= self.shape.cap,
            "more credits than buffer"
        );
        self.nodes[r].out_credit |= 1 << o;
    }

    #[inline(always)]
    fn wake_at(&self, r: usize) -> u64 {
        self.nodes[r].wake_at
    }

    #[inline(always)]
    fn step(&mut self, r: usize, now: u64, fabric: &mut Fabric) -> bool {
        let mut at = self.at(r);
        let occupied = at.node.occupied;
        if occupied & (occupied - 1) == 0 {
            at.step_one(lowest(occupied), now, fabric);
            return at.node.held > 0;
        }
        if at.node.routed != 0 {
            at.vc_allocation(now, fabric);
        }
        at.switch(now, fabric);
        at.update(now);
        at.node.held > 0
    }

    fn held(&self, r: usize) -> u32 {
        self.nodes[r].held
    }

    fn credits(&self, r: usize, o: usize) -> u16 {
        self.vcs[r][o].credits as u16
    }

    fn out_busy(&self, r: usize, o: usize) -> bool {
        self.nodes[r].out_busy & (1 << o) != 0
    }

    fn vc(&self, r: usize, i: usize) -> VcView {
        let (n, v) = (&self.nodes[r], &self.vcs[r][i]);
        let bit = 1u64 << i;
        VcView {
            len: v.len as usize,
            state: if n.routed & bit != 0 {
                VcState::VcAlloc
            } else if n.holding & bit != 0 {
                VcState::Active
            } else {
                VcState::Idle
            },
            out_port: v.out_port,
            class: v.class,
            out: v.out as u16,
        }
    }

    fn word(&self, r: usize, i: usize, k: usize) -> Word {
        let cap = self.shape.cap;
        let slot = (self.vcs[r][i].front as usize + k) % cap;
        self.ring[(r * self.shape.nv + i) * cap + slot]
    }
}

/// Adds `member` to the set `lists[key]`, which starts empty the first time
/// `key` joins `keys` (the allocators' per-cycle lists, never cleared in
/// between).
#[inline(always)]
fn join(keys: &mut u64, lists: &mut [u64], key: usize, member: usize) {
    if *keys & (1 << key) == 0 {
        *keys |= 1 << key;
        lists[key] = 0;
    }
    lists[key] |= 1 << member;
}
