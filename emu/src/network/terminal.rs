//! Terminals, the NIU side of each router's local port: packets
//! registered and injected flit by flit against the local VCs' credits,
//! and ejected flits waiting to be taken, each returning its credit.

use std::collections::VecDeque;

use super::flit::{NetFlit, PacketId, Port};
use super::{Credit, Delivery, NetEvent, NetEventKind, Network, PacketInfo};

/// A terminal: the NIU side of a router's local port.
#[derive(Clone, Debug)]
pub(super) struct Terminal {
    /// Credits of the router's local input VCs.
    pub(super) credits: Vec<u16>,
    /// Local input VCs held by a packet this terminal is injecting.
    pub(super) busy: Vec<bool>,
    /// Round-robin start of the VC search, per class.
    pub(super) next_vc: Vec<u16>,
    /// Flits ejected to this terminal, per VC, not yet taken.
    pub(super) ejected: Vec<VecDeque<NetFlit>>,
    /// Their number.
    pub(super) waiting: u32,
}

impl Network {
    /// A free local VC of `class` at terminal `node` with a credit, for a
    /// new packet's head (round robin over the class's VCs, starting after
    /// the one used last).
    pub fn free_injection_vc(&self, node: u32, class: u8) -> Option<u8> {
        let t = &self.terminals[node as usize];
        let first = class as usize * self.per_class;
        let start = t.next_vc[class as usize] as usize;
        (0..self.per_class)
            .map(|k| first + (start + k) % self.per_class)
            .find(|&vc| !t.busy[vc] && t.credits[vc] > 0)
            .map(|vc| vc as u8)
    }

    /// Whether terminal `node` may inject a flit on local VC `vc` (a credit).
    pub fn can_inject(&self, node: u32, vc: u8) -> bool {
        self.terminals[node as usize].credits[vc as usize] > 0
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
        match self.free_packets.pop() {
            Some(id) => {
                self.packets[id as usize] = info;
                id
            }
            None => {
                self.packets.push(info);
                (self.packets.len() - 1) as PacketId
            }
        }
    }

    /// Terminal `node` injects `flit` on local VC `vc` at cycle `now` (after
    /// [`Network::step`] of `now`). A head takes the VC until its tail.
    pub fn inject(&mut self, node: u32, vc: u8, mut flit: NetFlit, now: u64) {
        flit.injected = now;
        flit.class = self.packets[flit.packet as usize].class;
        let t = &mut self.terminals[node as usize];
        let v = vc as usize;
        assert!(t.credits[v] > 0, "injection without a credit");
        t.credits[v] -= 1;
        if flit.is_first() {
            t.busy[v] = true;
            let class = self.packets[flit.packet as usize].class as usize;
            let first = class * self.per_class;
            t.next_vc[class] = ((v - first + 1) % self.per_class) as u16;
            self.packets[flit.packet as usize].injected = now;
            self.counters.packets_injected += 1;
        }
        if flit.is_last() {
            t.busy[v] = false;
            self.packets[flit.packet as usize].tail_injected = now;
        }
        self.in_flight += 1;
        self.counters.flits_injected += 1;
        self.last_move = now;
        if let Some(trace) = &mut self.trace {
            let p = &self.packets[flit.packet as usize];
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
        let at = now + self.timing.inject;
        self.schedule(
            at,
            Delivery::FlitToRouter {
                node,
                port: Port::Local,
                vc,
                flit,
            },
        );
    }

    /// The flit at the front of terminal `node`'s ejection buffer `vc`.
    pub fn peek_ejected(&self, node: u32, vc: u8) -> Option<&NetFlit> {
        self.terminals[node as usize].ejected[vc as usize].front()
    }

    /// A bit per terminal (`node / 64`, `node % 64`) with flits in its
    /// ejection buffers.
    pub fn terminals_with_flits(&self) -> &[u64] {
        &self.with_flits
    }

    /// Flits waiting in terminal `node`'s ejection buffers.
    pub fn ejected_waiting(&self, node: u32) -> u32 {
        self.terminals[node as usize].waiting
    }

    /// Terminal `node` takes the front flit of ejection buffer `vc` at cycle
    /// `now`, returning its credit to the router. After a tail the
    /// packet's record is released (read it before).
    pub fn take_ejected(&mut self, node: u32, vc: u8, now: u64) -> Option<NetFlit> {
        let flit = self.terminals[node as usize].ejected[vc as usize].pop_front()?;
        self.in_flight -= 1;
        self.counters.flits_ejected += 1;
        self.last_move = now;
        if let Some(trace) = &mut self.trace {
            let p = &self.packets[flit.packet as usize];
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
        self.terminals[node as usize].waiting -= 1;
        if self.terminals[node as usize].waiting == 0 {
            self.with_flits[node as usize / 64] &= !(1 << (node % 64));
        }
        if flit.is_last() {
            self.free_packets.push(flit.packet);
            self.inbound[node as usize] -= 1;
            let class = self.packets[flit.packet as usize].class as usize;
            if class < 4 {
                self.inbound_class[node as usize][class] -= 1;
            }
        }
        let at = now + self.timing.eject_credit;
        self.schedule_credit(
            at,
            Credit::ToRouter {
                node,
                port: Port::Local,
                vc,
            },
        );
        Some(flit)
    }
}
