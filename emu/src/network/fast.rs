//! The fast router core (`sim.network_engine = "fast"`): the routers of
//! [`super::router`] (BookSim2's `iq` router: route computation, VC
//! allocation, switch allocation, switch traversal, with the same delays,
//! arbiters and stall counts), laid out for the cycle loop instead of one
//! object per router.
//!
//! Layout (structure of arrays, nothing allocated per flit or per cycle):
//! - per router `r`: its VC sets as one word each (`occupied`, `routed`,
//!   `holding`, `out_busy`, `out_credit`; VC `port * vcs + vc` is bit
//!   `port * vcs + vc`, so a router of up to 12 VCs a port), flits held,
//!   the cycle it can act next, its switch allocator's pointers;
//! - per input VC `g = r * nv + i` (`nv` VCs a router): when its stage may
//!   act, its packet's output VC, output port and class, its ring's front
//!   and length, the VC allocator's two pointers (input arbiter of input
//!   VC `i`, output arbiter of output VC `i`), and the credits of output VC
//!   `i`;
//! - every buffer as one fixed-size ring in one flat array,
//!   `g * cap + slot`.
//!
//! The VC allocator works on masks: a request is the set of free output
//! VCs of the head's class at its port, an arbiter's choice is the first
//! set bit from its pointer (`rotate_right` and `trailing_zeros`), and
//! the second stage groups the first stage's picks by output VC (input
//! first) or input VC (output first) as masks. A body flit never comes
//! near it: only `routed` heads ask. It gives what the reference's
//! arbiters give (the round-robin order is the same cyclic order), which
//! the differential test (`emu/tests/network_engines.rs`) holds it to.
//!
//! Why it is exact: a router's cycle reads and writes only its own state
//! and what its channels delivered (the deliveries, credits, visits and
//! counters around it are the mesh's, shared with the reference, in
//! [`super::Network`]); each stage is the reference's stage on the same
//! sets, in the same order, and the switch allocator is the same one.

use super::alloc::SwitchAllocator;
use super::fabric::{Fabric, Word};
use super::flit::{NetFlit, PORTS, Port, route};
use super::router::VcState;
use super::{RouterCore, StallCause, Timing, VcView};
use crate::config::AllocatorKind;

/// Every router of a mesh, as arrays (see the module documentation).
pub(crate) struct FastCore {
    /// VCs per port.
    vcs: usize,
    /// VCs per router (`PORTS * vcs`, at most 64).
    nv: usize,
    /// Flits per VC buffer.
    cap: usize,
    /// VCs per class.
    per_class: usize,
    vc_kind: AllocatorKind,

    // Per router.
    occupied: Vec<u64>,
    routed: Vec<u64>,
    holding: Vec<u64>,
    out_busy: Vec<u64>,
    out_credit: Vec<u64>,
    held: Vec<u32>,
    wake_at: Vec<u64>,
    sw_alloc: Vec<SwitchAllocator>,
    /// Per input port: the VC after the one that last won the switch.
    sw_next_vc: Vec<[u8; PORTS]>,

    // Per VC, `r * nv + i`.
    ready: Vec<u64>,
    out: Vec<u8>,
    out_port: Vec<u8>,
    class: Vec<u8>,
    front: Vec<u8>,
    len: Vec<u8>,
    credits: Vec<u16>,
    vc_in_pointer: Vec<u8>,
    vc_out_pointer: Vec<u8>,
    ring: Vec<Word>,

    /// `port * vcs + vc` as (port, vc).
    port_vc: Vec<(u8, u8)>,
    /// Scratch of the VC allocation, by VC of the router.
    scratch: [u64; 64],
    scratch2: [u64; 64],
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

/// A word with the low `n` bits set (`n` at most 64).
#[inline(always)]
fn low_bits(n: usize) -> u64 {
    if n == 64 { u64::MAX } else { (1 << n) - 1 }
}

impl FastCore {
    /// Whether the fast core can hold routers of `vcs` VCs a port (their
    /// sets must fit a word).
    pub fn fits(vcs: usize) -> bool {
        PORTS * vcs <= 64
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
        FastCore {
            vcs,
            nv,
            cap,
            per_class,
            vc_kind,
            occupied: vec![0; n],
            routed: vec![0; n],
            holding: vec![0; n],
            out_busy: vec![0; n],
            out_credit: vec![low_bits(nv); n],
            held: vec![0; n],
            wake_at: vec![0; n],
            sw_alloc: vec![SwitchAllocator::new(sw_kind); n],
            sw_next_vc: vec![[0; PORTS]; n],
            ready: vec![0; n * nv],
            out: vec![0; n * nv],
            out_port: vec![0; n * nv],
            class: vec![0; n * nv],
            front: vec![0; n * nv],
            len: vec![0; n * nv],
            credits: vec![cap as u16; n * nv],
            vc_in_pointer: vec![0; n * nv],
            vc_out_pointer: vec![0; n * nv],
            ring: vec![Word(0); n * nv * cap],
            port_vc: (0..nv)
                .map(|i| ((i / vcs) as u8, (i % vcs) as u8))
                .collect(),
            scratch: [0; 64],
            scratch2: [0; 64],
        }
    }

    /// Route computation of the head at the front of VC `i` of router `r`.
    #[inline]
    fn route(&mut self, r: usize, i: usize, flits: &mut [NetFlit], ready: u64) {
        let g = r * self.nv + i;
        let w = self.ring[g * self.cap + self.front[g] as usize];
        let f = &mut flits[w.index()];
        debug_assert!(f.is_first(), "the front of an idle VC is a head");
        let (port, payload) = route(f.flit.payload);
        f.flit.payload = payload;
        self.out_port[g] = port as u8;
        self.class[g] = f.class;
        self.ready[g] = ready;
        self.routed[r] |= 1 << i;
    }

    /// VC allocation of router `r` (see the module documentation).
    fn vc_allocation(&mut self, r: usize, now: u64, fabric: &mut Fabric) {
        let base = r * self.nv;
        let busy = self.out_busy[r];
        let class_bits = low_bits(self.per_class);
        let stalls = &mut fabric.counters.stalls;
        // Candidates of each asking input VC, as output VC bits.
        let mut asking = 0u64;
        let mut m = self.routed[r];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let g = base + i;
            if self.ready[g] > now {
                continue;
            }
            let first =
                self.out_port[g] as usize * self.vcs + self.class[g] as usize * self.per_class;
            let free = (!busy >> first) & class_bits;
            if free == 0 {
                stalls[StallCause::VcBusy as usize] += 1;
            } else {
                self.scratch[i] = free << first;
                asking |= 1 << i;
            }
        }
        if asking == 0 {
            return;
        }
        let ready = now + fabric.timing.vc_alloc;
        let mut granted = 0u32;
        if asking & (asking - 1) == 0 {
            // One request: granted unopposed, the first candidate from its
            // input arbiter's pointer.
            let i = asking.trailing_zeros() as usize;
            let o = first_from(self.scratch[i], self.vc_in_pointer[base + i]);
            self.grant_vc(r, i, o, ready);
            granted = 1;
        } else {
            match self.vc_kind {
                AllocatorKind::SeparableInputFirst => {
                    // Each input picks from its pointer; `scratch2[o]`: the
                    // inputs that picked output `o`.
                    let mut picked = 0u64;
                    let mut a = asking;
                    while a != 0 {
                        let i = a.trailing_zeros() as usize;
                        a &= a - 1;
                        let o = first_from(self.scratch[i], self.vc_in_pointer[base + i]);
                        if picked & (1 << o) == 0 {
                            picked |= 1 << o;
                            self.scratch2[o] = 0;
                        }
                        self.scratch2[o] |= 1 << i;
                    }
                    while picked != 0 {
                        let o = picked.trailing_zeros() as usize;
                        picked &= picked - 1;
                        let i = first_from(self.scratch2[o], self.vc_out_pointer[base + o]);
                        self.grant_vc(r, i, o, ready);
                        granted += 1;
                    }
                }
                AllocatorKind::SeparableOutputFirst => {
                    // `scratch2[o]`: the inputs that want output `o`.
                    let mut wanted = 0u64;
                    let mut a = asking;
                    while a != 0 {
                        let i = a.trailing_zeros() as usize;
                        a &= a - 1;
                        let mut c = self.scratch[i];
                        while c != 0 {
                            let o = c.trailing_zeros() as usize;
                            c &= c - 1;
                            if wanted & (1 << o) == 0 {
                                wanted |= 1 << o;
                                self.scratch2[o] = 0;
                            }
                            self.scratch2[o] |= 1 << i;
                        }
                    }
                    // Each output offers itself to one input: `scratch[i]`
                    // becomes the outputs offered to input `i`.
                    let mut offered = 0u64;
                    while wanted != 0 {
                        let o = wanted.trailing_zeros() as usize;
                        wanted &= wanted - 1;
                        let i = first_from(self.scratch2[o], self.vc_out_pointer[base + o]);
                        if offered & (1 << i) == 0 {
                            offered |= 1 << i;
                            self.scratch[i] = 0;
                        }
                        self.scratch[i] |= 1 << o;
                    }
                    while offered != 0 {
                        let i = offered.trailing_zeros() as usize;
                        offered &= offered - 1;
                        let o = first_from(self.scratch[i], self.vc_in_pointer[base + i]);
                        self.grant_vc(r, i, o, ready);
                        granted += 1;
                    }
                }
            }
        }
        // Heads that asked and won nothing.
        stalls[StallCause::VcConflict as usize] += (asking.count_ones() - granted) as u64;
    }

    /// Output VC `o` goes to the head of input VC `i` of router `r`; both
    /// arbiters' pointers move past the grant.
    #[inline]
    fn grant_vc(&mut self, r: usize, i: usize, o: usize, ready: u64) {
        let (nv, base) = (self.nv, r * self.nv);
        self.vc_in_pointer[base + i] = next(o, nv);
        self.vc_out_pointer[base + o] = next(i, nv);
        self.out_busy[r] |= 1 << o;
        self.out[base + i] = o as u8;
        self.ready[base + i] = ready;
        self.routed[r] &= !(1 << i);
        self.holding[r] |= 1 << i;
    }

    /// Switch allocation and traversal of router `r`.
    fn switch(&mut self, r: usize, now: u64, fabric: &mut Fabric) {
        let (vcs, base) = (self.vcs, r * self.nv);
        let stalls = &mut fabric.counters.stalls;
        let credit = self.out_credit[r];
        let from = self.sw_next_vc[r];
        // Requests as bits `input port * PORTS + output port`, and the VC
        // behind each.
        let mut wanted = 0u32;
        let mut requests = [0u8; PORTS];
        let mut sw_vc = [0u8; PORTS * PORTS];
        let mut m = self.occupied[r] & self.holding[r];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let g = base + i;
            if self.ready[g] > now {
                continue;
            }
            if credit & (1 << self.out[g]) == 0 {
                stalls[StallCause::NoCredit as usize] += 1;
                continue;
            }
            let (port, vc) = self.port_vc[i];
            let slot = port as usize * PORTS + self.out_port[g] as usize;
            if wanted & (1 << slot) == 0 {
                wanted |= 1 << slot;
                requests[port as usize] |= 1 << self.out_port[g];
                sw_vc[slot] = vc;
            } else {
                stalls[StallCause::SwitchConflict as usize] += 1;
                // The first VC from the port's pointer asks.
                let p = from[port as usize] as usize;
                let rank = |k: u8| (k as usize + vcs - p) % vcs;
                if rank(vc) < rank(sw_vc[slot]) {
                    sw_vc[slot] = vc;
                }
            }
        }
        if wanted == 0 {
            return;
        }
        let mut grants = [(0u8, 0u8); PORTS];
        let granted = if wanted & (wanted - 1) == 0 {
            let slot = wanted.trailing_zeros() as usize;
            grants[0] = ((slot / PORTS) as u8, (slot % PORTS) as u8);
            self.sw_alloc[r].grant_single(grants[0].0, grants[0].1);
            1
        } else {
            self.sw_alloc[r].allocate(&requests, &mut grants)
        };
        fabric.counters.stalls[StallCause::SwitchConflict as usize] +=
            (wanted.count_ones() as usize - granted) as u64;
        for &(in_port, out_port) in &grants[..granted] {
            let vc = sw_vc[in_port as usize * PORTS + out_port as usize];
            self.traverse(
                r,
                in_port as usize,
                vc as usize,
                out_port as usize,
                now,
                fabric,
            );
        }
    }

    /// The front flit of VC `vc` of input port `in_port` of router `r`
    /// crosses the switch to `out_port`.
    #[inline(always)]
    fn traverse(
        &mut self,
        r: usize,
        in_port: usize,
        vc: usize,
        out_port: usize,
        now: u64,
        fabric: &mut Fabric,
    ) {
        let (vcs, cap) = (self.vcs, self.cap);
        self.sw_next_vc[r][in_port] = next(vc, vcs);
        let i = in_port * vcs + vc;
        let g = r * self.nv + i;
        let front = self.front[g] as usize;
        let w = self.ring[g * cap + front];
        self.front[g] = next(front, cap);
        self.len[g] -= 1;
        self.held[r] -= 1;
        let o = self.out[g] as usize;
        let tail = w.is_last();
        if tail {
            self.holding[r] &= !(1 << i);
            self.out_busy[r] &= !(1 << o);
        } else {
            self.ready[g] = now + 1;
        }
        let more = self.len[g] > 0;
        if !more {
            self.occupied[r] &= !(1 << i);
        }
        let credits = &mut self.credits[r * self.nv + o];
        *credits -= 1;
        if *credits == 0 {
            self.out_credit[r] &= !(1 << o);
        }
        let out_vc = (o - out_port * vcs) as u8;
        fabric.send(now, r as u32, (in_port, vc as u8), (out_port, out_vc), w);
        if tail && more {
            let t = fabric.timing.next_head_routing;
            self.route(r, i, &mut fabric.flits, now + t);
        }
    }
}

impl RouterCore for FastCore {
    #[inline(always)]
    fn accept(&mut self, r: usize, i: usize, w: Word, flits: &mut [NetFlit], t: &Timing, now: u64) {
        let cap = self.cap;
        let g = r * self.nv + i;
        let len = self.len[g] as usize;
        assert!(
            len < cap,
            "router {r} port {:?} vc {}: a flit arrived without a credit",
            Port::from_index(i / self.vcs),
            i % self.vcs
        );
        let mut slot = self.front[g] as usize + len;
        if slot >= cap {
            slot -= cap;
        }
        self.ring[g * cap + slot] = w;
        self.len[g] = len as u8 + 1;
        self.held[r] += 1;
        self.occupied[r] |= 1 << i;
        if self.wake_at[r] > now {
            self.wake_at[r] = now;
        }
        if len == 0 && (self.routed[r] | self.holding[r]) & (1 << i) == 0 {
            self.route(r, i, flits, now + t.routing);
        }
    }

    #[inline(always)]
    fn credit(&mut self, r: usize, o: usize) {
        let c = &mut self.credits[r * self.nv + o];
        *c += 1;
        debug_assert!(*c as usize <= self.cap, "more credits than buffer");
        self.out_credit[r] |= 1 << o;
    }

    #[inline(always)]
    fn wake_at(&self, r: usize) -> u64 {
        self.wake_at[r]
    }

    #[inline(always)]
    fn step(&mut self, r: usize, now: u64, fabric: &mut Fabric) -> bool {
        if self.routed[r] != 0 {
            self.vc_allocation(r, now, fabric);
        }
        self.switch(r, now, fabric);
        // When it can act next: the next cycle if a stage is ready by then,
        // else the earliest stage's cycle.
        let base = r * self.nv;
        let mut wake = u64::MAX;
        let mut m = self.occupied[r];
        while m != 0 {
            let ready = self.ready[base + m.trailing_zeros() as usize];
            m &= m - 1;
            if ready <= now + 1 {
                wake = now + 1;
                break;
            }
            wake = wake.min(ready);
        }
        self.wake_at[r] = wake;
        self.held[r] > 0
    }

    fn held(&self, r: usize) -> u32 {
        self.held[r]
    }

    fn credits(&self, r: usize, o: usize) -> u16 {
        self.credits[r * self.nv + o]
    }

    fn out_busy(&self, r: usize, o: usize) -> bool {
        self.out_busy[r] & (1 << o) != 0
    }

    fn vc(&self, r: usize, i: usize) -> VcView {
        let g = r * self.nv + i;
        let bit = 1u64 << i;
        VcView {
            len: self.len[g] as usize,
            state: if self.routed[r] & bit != 0 {
                VcState::VcAlloc
            } else if self.holding[r] & bit != 0 {
                VcState::Active
            } else {
                VcState::Idle
            },
            out_port: self.out_port[g],
            class: self.class[g],
            out: self.out[g] as u16,
        }
    }

    fn word(&self, r: usize, i: usize, k: usize) -> Word {
        let g = r * self.nv + i;
        let slot = (self.front[g] as usize + k) % self.cap;
        self.ring[g * self.cap + slot]
    }
}
