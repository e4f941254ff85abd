//! Terminals, the NIU side of each router's local port: packets
//! registered and injected flit by flit against the local VCs' credits,
//! and ejected flits waiting to be taken, each returning its credit.

use super::fabric::Word;
use super::flit::{NetFlit, PacketId};
use super::{NetEvent, NetEventKind, Network, PacketInfo};

/// Every terminal, by arrays indexed `node * vcs + vc`.
#[derive(Clone, Debug)]
pub(super) struct Terminals {
    vcs: usize,
    cap: usize,
    /// Credits of the router's local input VCs.
    pub(super) credits: Vec<u16>,
    /// Per node, a bit per local input VC held by a packet being injected.
    pub(super) busy: Vec<u64>,
    /// Round-robin start of the VC search, `node * classes + class`.
    next_vc: Vec<u16>,
    /// Ejection buffers (at most `cap` flits each, the router's credits):
    /// flits at `(node * vcs + vc) * cap + slot`, front and length.
    ejected: Vec<Word>,
    front: Vec<u16>,
    len: Vec<u16>,
    /// Per node, a bit per ejection VC holding flits, and their number.
    pub(super) holding: Vec<u64>,
    pub(super) waiting: Vec<u32>,
}

impl Terminals {
    /// Flits per ejection buffer.
    pub(super) fn cap(&self) -> usize {
        self.cap
    }

    /// `nodes` terminals with `vcs` local VCs of `cap` flits in `classes`
    /// sets.
    pub(super) fn new(nodes: usize, vcs: usize, cap: usize, classes: usize) -> Terminals {
        Terminals {
            vcs,
            cap,
            credits: vec![cap as u16; nodes * vcs],
            busy: vec![0; nodes],
            next_vc: vec![0; nodes * classes],
            ejected: vec![Word::default(); nodes * vcs * cap],
            front: vec![0; nodes * vcs],
            len: vec![0; nodes * vcs],
            holding: vec![0; nodes],
            waiting: vec![0; nodes],
        }
    }

    /// Flit `w` arrives in ejection buffer `vc` of `node`.
    #[inline(always)]
    pub(super) fn arrive(&mut self, node: usize, vc: usize, w: Word) {
        let q = node * self.vcs + vc;
        let mut slot = (self.front[q] + self.len[q]) as usize;
        if slot >= self.cap {
            slot -= self.cap;
        }
        debug_assert!(
            (self.len[q] as usize) < self.cap,
            "ejection without a credit"
        );
        self.ejected[q * self.cap + slot] = w;
        self.len[q] += 1;
        self.holding[node] |= 1 << vc;
        self.waiting[node] += 1;
    }

    /// The flit at position `k` of ejection buffer `vc` of `node`.
    pub(super) fn at(&self, node: usize, vc: usize, k: usize) -> Option<Word> {
        let q = node * self.vcs + vc;
        if k >= self.len[q] as usize {
            return None;
        }
        let mut slot = self.front[q] as usize + k;
        if slot >= self.cap {
            slot -= self.cap;
        }
        Some(self.ejected[q * self.cap + slot])
    }

    #[inline(always)]
    fn pop(&mut self, node: usize, vc: usize) -> Option<Word> {
        let q = node * self.vcs + vc;
        let len = self.len[q];
        if len == 0 {
            return None;
        }
        let front = self.front[q] as usize;
        let w = self.ejected[q * self.cap + front];
        self.front[q] = if front + 1 == self.cap {
            0
        } else {
            front as u16 + 1
        };
        self.len[q] = len - 1;
        if len == 1 {
            self.holding[node] &= !(1 << vc);
        }
        self.waiting[node] -= 1;
        Some(w)
    }
}

impl Network {
    /// A free local VC of `class` at terminal `node` with a credit, for a
    /// new packet's head (round robin over the class's VCs, starting after
    /// the one used last).
    pub fn free_injection_vc(&self, node: u32, class: u8) -> Option<u8> {
        let t = &self.terminals;
        let node = node as usize;
        let first = class as usize * self.per_class;
        let start = t.next_vc[node * self.classes + class as usize] as usize;
        let busy = t.busy[node];
        (0..self.per_class)
            .map(|k| {
                let k = start + k;
                first
                    + if k >= self.per_class {
                        k - self.per_class
                    } else {
                        k
                    }
            })
            .find(|&vc| busy & (1 << vc) == 0 && t.credits[node * self.vcs + vc] > 0)
            .map(|vc| vc as u8)
    }

    /// Whether terminal `node` may inject a flit on local VC `vc` (a credit).
    #[inline]
    pub fn can_inject(&self, node: u32, vc: u8) -> bool {
        self.terminals.credits[node as usize * self.vcs + vc as usize] > 0
    }

    /// Packets registered towards `node` whose tail it has not taken.
    pub fn inbound(&self, node: u32) -> u32 {
        self.inbound[node as usize]
    }

    /// Packets of class `class` (below 4) registered towards `node` whose
    /// tail it has not taken.
    pub fn inbound_of_class(&self, node: u32, class: u8) -> u32 {
        self.inbound_class[node as usize][class as usize]
    }

    /// Registers a packet about to be injected and returns its id.
    pub fn new_packet(&mut self, info: PacketInfo) -> PacketId {
        self.inbound[info.dst as usize] += 1;
        if (info.class as usize) < 4 {
            self.inbound_class[info.dst as usize][info.class as usize] += 1;
        }
        let f = &mut self.fabric;
        match f.free_packets.pop() {
            Some(id) => {
                f.packets[id as usize] = info;
                id
            }
            None => {
                f.packets.push(info);
                (f.packets.len() - 1) as PacketId
            }
        }
    }

    /// Terminal `node` injects `flit` on local VC `vc` at cycle `now` (after
    /// [`Network::step`] of `now`). A head takes the VC until its tail.
    #[inline(always)]
    pub fn inject(&mut self, node: u32, vc: u8, mut flit: NetFlit, now: u64) {
        let f = &mut self.fabric;
        let packet = flit.packet as usize;
        flit.injected = now;
        flit.class = f.packets[packet].class;
        let n = node as usize;
        let t = &mut self.terminals;
        let v = vc as usize;
        let credits = &mut t.credits[n * self.vcs + v];
        assert!(*credits > 0, "injection without a credit");
        *credits -= 1;
        if flit.is_first() {
            t.busy[n] |= 1 << v;
            let class = flit.class as usize;
            let first = class * self.per_class;
            t.next_vc[n * self.classes + class] = ((v - first + 1) % self.per_class) as u16;
            f.packets[packet].injected = now;
            f.counters.packets_injected += 1;
        }
        if flit.is_last() {
            t.busy[n] &= !(1 << v);
            f.packets[packet].tail_injected = now;
        }
        self.in_flight += 1;
        f.counters.flits_injected += 1;
        f.last_move = now;
        if let Some(trace) = &mut f.trace {
            let p = &f.packets[packet];
            trace.push(NetEvent {
                cycle: now,
                node,
                kind: NetEventKind::Injected { vc },
                flit: flit.flit,
                src: p.src,
                dst: p.dst,
                seq: flit.seq,
                packet: flit.packet,
            });
        }
        let w = f.pool(flit);
        f.inject(now, node, vc, w);
    }

    /// The flit at the front of terminal `node`'s ejection buffer `vc`.
    #[inline]
    pub fn peek_ejected(&self, node: u32, vc: u8) -> Option<&NetFlit> {
        let w = self.terminals.at(node as usize, vc as usize, 0)?;
        Some(&self.fabric.flits[w.index()])
    }

    /// A bit per terminal (`node / 64`, `node % 64`) with flits in its
    /// ejection buffers.
    pub fn terminals_with_flits(&self) -> &[u64] {
        &self.with_flits
    }

    /// Flits waiting in terminal `node`'s ejection buffers.
    #[inline]
    pub fn ejected_waiting(&self, node: u32) -> u32 {
        self.terminals.waiting[node as usize]
    }

    /// A bit per ejection VC of terminal `node` that holds flits.
    #[inline]
    pub fn ejection_vcs(&self, node: u32) -> u64 {
        self.terminals.holding[node as usize]
    }

    /// Terminal `node` takes the front flit of ejection buffer `vc` at cycle
    /// `now`, returning its credit to the router. After a tail the
    /// packet's record is released (read it before).
    #[inline(always)]
    pub fn take_ejected(&mut self, node: u32, vc: u8, now: u64) -> Option<NetFlit> {
        let n = node as usize;
        let w = self.terminals.pop(n, vc as usize)?;
        let f = &mut self.fabric;
        let flit = f.unpool(w);
        self.in_flight -= 1;
        f.counters.flits_ejected += 1;
        f.last_move = now;
        if let Some(trace) = &mut f.trace {
            let p = &f.packets[flit.packet as usize];
            trace.push(NetEvent {
                cycle: now,
                node,
                kind: NetEventKind::Ejected { vc },
                flit: flit.flit,
                src: p.src,
                dst: p.dst,
                seq: flit.seq,
                packet: flit.packet,
            });
        }
        if self.terminals.waiting[n] == 0 {
            self.with_flits[n / 64] &= !(1 << (n % 64));
        }
        if flit.is_last() {
            f.free_packets.push(flit.packet);
            self.inbound[n] -= 1;
            let class = f.packets[flit.packet as usize].class as usize;
            if class < 4 {
                self.inbound_class[n][class] -= 1;
            }
        }
        f.ejected(now, node, vc);
        Some(flit)
    }
}
