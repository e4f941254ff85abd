//! What routers and terminals share: the links and credit wires (a time
//! wheel of deliveries each), the pool of flits in flight and the packet
//! records, the counters and the trace. Routers hold handles to pooled
//! flits ([`Word`]), so a hop moves four bytes, not the flit.

use super::alloc::VcRequest;
use super::flit::{NetFlit, PORTS, PacketId, Port};
use super::{NetCounters, NetEvent, NetEventKind, PacketInfo, Timing};

/// A flit in a buffer, on a link or in an ejection buffer: its index in
/// the pool, with the head and tail bits a router looks at beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Word(pub u32);

impl Word {
    const LAST: u32 = 1 << 31;
    const FIRST: u32 = 1 << 30;

    fn new(index: u32, f: &NetFlit) -> Word {
        debug_assert!(index < Word::FIRST, "at most 2^30 flits in flight");
        let mut w = index;
        if f.is_last() {
            w |= Word::LAST;
        }
        if f.is_first() {
            w |= Word::FIRST;
        }
        Word(w)
    }

    /// The flit's index in the pool.
    #[inline]
    pub fn index(self) -> usize {
        (self.0 & (Word::FIRST - 1)) as usize
    }

    /// Whether the flit ends a packet ([`NetFlit::is_last`]).
    #[inline]
    pub fn is_last(self) -> bool {
        self.0 & Word::LAST != 0
    }
}

/// A delivery's target: a router's input VC, `node << 9 | port * vcs +
/// vc`, or with [`TERMINAL`] a terminal's VC, `node << 9 | vc` (at most
/// 5 x 64 VCs a router).
const LOCAL_BITS: u32 = 9;
const TERMINAL: u32 = 1 << 31;

/// The links and credit wires, the flits and packets in flight, counters
/// and trace.
pub(crate) struct Fabric {
    /// The router pipeline's offsets.
    pub timing: Timing,
    /// VCs per port.
    vcs: usize,
    /// Flit deliveries by cycle modulo the wheels' length: target in the
    /// high half, the flit's [`Word`] in the low half.
    flit_wheel: Vec<Vec<u64>>,
    /// Credit deliveries by cycle: the output VC (router) or the local VC
    /// (terminal) that gets a credit back, as targets.
    credit_wheel: Vec<Vec<u32>>,
    /// Entries in both wheels.
    pub pending: usize,
    /// The wheels' length less one (a power of two less one).
    mask: usize,
    /// Per `node * PORTS + port`: the other end of the link,
    /// `neighbour << 9 | opposite port * vcs` (a flit goes to that input
    /// VC range; a credit for our input VC goes to that output VC range).
    peer: Vec<u32>,
    /// Flits in flight, by pool index, and the free indices.
    pub flits: Vec<NetFlit>,
    free_flits: Vec<u32>,
    /// Packets in flight and the free records.
    pub packets: Vec<PacketInfo>,
    pub free_packets: Vec<PacketId>,
    /// The last cycle a flit moved.
    pub last_move: u64,
    /// Counters.
    pub counters: NetCounters,
    /// Trace events, when tracing.
    pub trace: Option<Vec<NetEvent>>,
    /// Scratch of the VC allocation of one router.
    pub vc_requests: Vec<VcRequest>,
    pub vc_grants: Vec<(u16, u16)>,
    /// A router's VC `port * vcs + vc` as (port, VC).
    pub port_vc: Vec<(u8, u8)>,
}

/// Where a delivery goes, decoded.
pub(crate) enum Target {
    /// Input VC `i` (`port * vcs + vc`) of router `node`.
    Router { node: usize, i: usize },
    /// VC `vc` of terminal `node`.
    Terminal { node: usize, vc: usize },
}

#[inline]
fn decode(t: u32) -> Target {
    let node = ((t & !TERMINAL) >> LOCAL_BITS) as usize;
    let low = (t & ((1 << LOCAL_BITS) - 1)) as usize;
    if t & TERMINAL == 0 {
        Target::Router { node, i: low }
    } else {
        Target::Terminal { node, vc: low }
    }
}

impl Fabric {
    /// The fabric of a `width x height` mesh with `vcs` VCs a port.
    pub fn new(width: u32, height: u32, vcs: usize, timing: Timing) -> Fabric {
        let n = (width * height) as usize;
        assert!(
            PORTS * vcs < 1 << LOCAL_BITS && (n as u64) < 1 << (31 - LOCAL_BITS),
            "mesh or VCs too large for the delivery encoding"
        );
        let peer = (0..n as u32)
            .flat_map(|node| {
                Port::ALL.map(|p| {
                    let (x, y) = (node % width, node / width);
                    let neighbour = match p {
                        Port::East => (x + 1 < width).then(|| node + 1),
                        Port::West => (x > 0).then(|| node - 1),
                        Port::South => (y + 1 < height).then(|| node + width),
                        Port::North => (y > 0).then(|| node - width),
                        Port::Local => None,
                    };
                    neighbour.map_or(u32::MAX, |nb| {
                        (nb << LOCAL_BITS) | (p.opposite() as u32 * vcs as u32)
                    })
                })
            })
            .collect();
        let len = (timing.horizon() + 1).next_power_of_two() as usize;
        Fabric {
            timing,
            vcs,
            flit_wheel: vec![Vec::new(); len],
            credit_wheel: vec![Vec::new(); len],
            pending: 0,
            mask: len - 1,
            peer,
            flits: Vec::new(),
            free_flits: Vec::new(),
            packets: Vec::new(),
            free_packets: Vec::new(),
            last_move: 0,
            counters: NetCounters {
                link_flits: vec![0; n * PORTS],
                ..NetCounters::default()
            },
            trace: None,
            vc_requests: Vec::new(),
            vc_grants: Vec::new(),
            port_vc: (0..PORTS * vcs)
                .map(|i| ((i / vcs) as u8, (i % vcs) as u8))
                .collect(),
        }
    }

    /// The wheels' length (a power of two, more than any offset).
    pub fn wheel_len(&self) -> usize {
        self.flit_wheel.len()
    }

    /// Whether anything is delivered at cycle `c` (within the wheels' reach).
    pub fn has_deliveries(&self, c: u64) -> bool {
        let k = c as usize & (self.flit_wheel.len() - 1);
        !self.flit_wheel[k].is_empty() || !self.credit_wheel[k].is_empty()
    }

    /// Takes the flit deliveries of cycle `c` (give the vector back with
    /// [`Fabric::give_back_flits`], to keep its capacity).
    pub fn take_flits(&mut self, c: u64) -> Vec<u64> {
        let k = c as usize & (self.flit_wheel.len() - 1);
        let due = std::mem::take(&mut self.flit_wheel[k]);
        self.pending -= due.len();
        due
    }

    /// Gives a drained delivery vector back to cycle `c`'s slot.
    pub fn give_back_flits(&mut self, c: u64, mut due: Vec<u64>) {
        let k = c as usize & (self.flit_wheel.len() - 1);
        due.clear();
        self.flit_wheel[k] = due;
    }

    /// Takes the credit deliveries of cycle `c`.
    pub fn take_credits(&mut self, c: u64) -> Vec<u32> {
        let k = c as usize & (self.credit_wheel.len() - 1);
        let due = std::mem::take(&mut self.credit_wheel[k]);
        self.pending -= due.len();
        due
    }

    /// Gives a drained credit vector back to cycle `c`'s slot.
    pub fn give_back_credits(&mut self, c: u64, mut due: Vec<u32>) {
        let k = c as usize & (self.credit_wheel.len() - 1);
        due.clear();
        self.credit_wheel[k] = due;
    }

    /// Decodes a flit delivery: its target and the flit.
    #[inline]
    pub fn flit_delivery(e: u64) -> (Target, Word) {
        (decode((e >> 32) as u32), Word(e as u32))
    }

    /// Decodes a credit delivery.
    #[inline]
    pub fn credit_delivery(e: u32) -> Target {
        decode(e)
    }

    #[inline]
    fn schedule(&mut self, at: u64, target: u32, w: Word) {
        self.flit_wheel[at as usize & self.mask].push(((target as u64) << 32) | w.0 as u64);
        self.pending += 1;
    }

    #[inline]
    fn schedule_credit(&mut self, at: u64, target: u32) {
        self.credit_wheel[at as usize & self.mask].push(target);
        self.pending += 1;
    }

    /// Puts `f` in the pool and gives its handle.
    pub fn pool(&mut self, f: NetFlit) -> Word {
        let index = match self.free_flits.pop() {
            Some(k) => {
                self.flits[k as usize] = f;
                k
            }
            None => {
                self.flits.push(f);
                (self.flits.len() - 1) as u32
            }
        };
        Word::new(index, &f)
    }

    /// Takes the flit of `w` out of the pool.
    pub fn unpool(&mut self, w: Word) -> NetFlit {
        self.free_flits.push(w.index() as u32);
        self.flits[w.index()]
    }

    /// Terminal `node` injects flit `w` on local VC `vc` at `now`: it is in
    /// the router's buffer at `now + inject`.
    pub fn inject(&mut self, now: u64, node: u32, vc: u8, w: Word) {
        let target = (node << LOCAL_BITS) | (Port::Local as u32 * self.vcs as u32 + vc as u32);
        self.schedule(now + self.timing.inject, target, w);
    }

    /// Terminal `node` took a flit from ejection VC `vc` at `now`: its
    /// credit goes back to the router's local output VC.
    pub fn ejected(&mut self, now: u64, node: u32, vc: u8) {
        let target = (node << LOCAL_BITS) | (Port::Local as u32 * self.vcs as u32 + vc as u32);
        self.schedule_credit(now + self.timing.eject_credit, target);
    }

    /// Router `node` sends flit `w` through its switch at `now`, from input
    /// `(port, VC)` to output `(port, VC)`: the credit of the slot it left
    /// goes upstream, the flit onto the link.
    #[inline(always)]
    pub fn send(&mut self, now: u64, node: u32, from: (usize, u8), to: (usize, u8), w: Word) {
        self.last_move = now;
        self.counters.buffered += now as i64;
        self.counters.link_flits[node as usize * PORTS + to.0] += 1;
        self.counters.switch_in[from.0] += 1;
        if let Some(trace) = &mut self.trace {
            let f = &self.flits[w.index()];
            let p = &self.packets[f.packet as usize];
            trace.push(NetEvent {
                cycle: now,
                node,
                kind: NetEventKind::Forwarded {
                    from: (Port::from_index(from.0), from.1),
                    to: (Port::from_index(to.0), to.1),
                },
                flit: f.flit,
                src: p.src,
                dst: p.dst,
                seq: f.seq,
                packet: f.packet,
            });
        }
        let t = self.timing;
        // The credit for the buffer slot the flit left.
        if from.0 == Port::Local as usize {
            let target = TERMINAL | (node << LOCAL_BITS) | from.1 as u32;
            self.schedule_credit(now + t.terminal_credit, target);
        } else {
            let peer = self.peer[node as usize * PORTS + from.0];
            debug_assert!(peer != u32::MAX, "a flit came in from off the mesh");
            self.schedule_credit(now + t.credit_back, peer + from.1 as u32);
        }
        let target = if to.0 == Port::Local as usize {
            TERMINAL | (node << LOCAL_BITS) | to.1 as u32
        } else {
            let peer = self.peer[node as usize * PORTS + to.0];
            debug_assert!(peer != u32::MAX, "a route left the mesh");
            peer + to.1 as u32
        };
        self.schedule(now + t.flit_out, target, w);
    }
}
