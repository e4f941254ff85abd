//! The report of a network in which nothing moves: every held flit, where
//! it is and what it waits for (in words, and as the buffers it waits on,
//! from which the machine's report follows held chains to their heads).

use std::fmt;

use super::flit::{PORTS, Port};
use super::router::VcState;
use super::{Network, RouterCore};

/// Where a held flit is and what it waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldFlit {
    /// Router (or terminal) node.
    pub node: u32,
    /// Input port (`Local` with `ejected`: the terminal's ejection buffer).
    pub port: Port,
    /// Virtual channel.
    pub vc: u8,
    /// Position in its buffer, 0 at the front.
    pub depth: u16,
    /// Packet source and destination.
    pub src: u32,
    /// Destination.
    pub dst: u32,
    /// Position of the flit in its packet.
    pub seq: u16,
    /// Whether it sits in a terminal's ejection buffer.
    pub ejected: bool,
    /// What it waits for.
    pub waits_for: String,
    /// The buffers a front flit waits on for room (a credit, or a free VC
    /// of its class at the next router or the ejection port): empty when it
    /// waits behind another flit of its buffer, for its route or for the
    /// switch, or sits in an ejection buffer.
    pub waits_on: Vec<Buffer>,
}

/// A buffer of the network: a router's input VC or a terminal's ejection
/// VC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Buffer {
    /// Router (or terminal) node.
    pub node: u32,
    /// Input port (`Local` with `ejected`: the ejection buffer).
    pub port: Port,
    /// Virtual channel.
    pub vc: u8,
    /// Whether it is the terminal's ejection buffer.
    pub ejected: bool,
}

impl HeldFlit {
    /// The buffer it is in.
    pub fn buffer(&self) -> Buffer {
        Buffer {
            node: self.node,
            port: self.port,
            vc: self.vc,
            ejected: self.ejected,
        }
    }
}

/// Every flit held when the network stalled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StallReport {
    /// Cycle of the report.
    pub cycle: u64,
    /// Cycle a flit last moved.
    pub last_move: u64,
    /// Flits on links (delivered later) are not listed; their number.
    pub on_links: usize,
    /// Held flits, by node, port, VC and depth.
    pub held: Vec<HeldFlit>,
}

impl fmt::Display for StallReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "network stalled at cycle {}: no flit has moved since cycle {}; {} flits held",
            self.cycle,
            self.last_move,
            self.held.len() + self.on_links
        )?;
        for h in &self.held {
            let place = if h.ejected {
                format!("node {} ejection vc{}", h.node, h.vc)
            } else {
                format!("router {} in {} vc{}", h.node, h.port.letter(), h.vc)
            };
            writeln!(
                f,
                "  {place} [{}]: packet {}->{} flit #{}: waits for {}",
                h.depth, h.src, h.dst, h.seq, h.waits_for
            )?;
        }
        Ok(())
    }
}

impl Network {
    /// The report of every flit held now.
    pub fn stall_report(&self) -> StallReport {
        let vcs = self.vcs;
        let flits = &self.fabric.flits;
        let packets = &self.fabric.packets;
        let core = self.routers.core();
        let mut held: Vec<HeldFlit> = (0..self.inbound.len())
            .flat_map(|r| self.held_in(core, r as u32))
            .collect();
        for node in 0..self.inbound.len() {
            for vc in 0..vcs {
                let mut depth = 0;
                while let Some(w) = self.terminals.at(node, vc, depth) {
                    let f = &flits[w.index()];
                    let p = &packets[f.packet as usize];
                    held.push(HeldFlit {
                        node: node as u32,
                        port: Port::Local,
                        vc: vc as u8,
                        depth: depth as u16,
                        src: p.src,
                        dst: p.dst,
                        seq: f.seq,
                        ejected: true,
                        waits_for: "its NIU to take it".to_string(),
                        waits_on: Vec::new(),
                    });
                    depth += 1;
                }
            }
        }
        let on_links = self.in_flight as usize - held.len();
        StallReport {
            cycle: self.now,
            last_move: self.fabric.last_move,
            on_links,
            held,
        }
    }

    /// The flits held in router `id`'s input buffers.
    fn held_in(&self, core: &dyn RouterCore, id: u32) -> Vec<HeldFlit> {
        let r = id as usize;
        let vcs = self.vcs;
        let mut held = Vec::new();
        for port in 0..PORTS {
            for vc in 0..vcs {
                let i = port * vcs + vc;
                let v = core.vc(r, i);
                for depth in 0..v.len {
                    let f = &self.fabric.flits[core.word(r, i, depth).index()];
                    let p = &self.fabric.packets[f.packet as usize];
                    let out = Port::from_index(v.out_port as usize);
                    // The next buffers: the neighbour's input (or this
                    // node's ejection buffer) at output `out`.
                    let next = |vc: usize| Buffer {
                        node: self.neighbour(id, out),
                        port: if out == Port::Local {
                            Port::Local
                        } else {
                            out.opposite()
                        },
                        vc: vc as u8,
                        ejected: out == Port::Local,
                    };
                    let mut waits_on = Vec::new();
                    let waits_for = if depth > 0 {
                        "the flit ahead of it".to_string()
                    } else {
                        match v.state {
                            VcState::Idle => "its route".to_string(),
                            VcState::VcAlloc => {
                                let first = v.class as usize * self.per_class;
                                waits_on.extend((first..first + self.per_class).map(next));
                                format!(
                                    "a free VC of class {} at output {} (all held by other packets)",
                                    v.class,
                                    out.letter()
                                )
                            }
                            VcState::Active => {
                                let out_vc = v.out as usize - v.out_port as usize * vcs;
                                if core.credits(r, v.out as usize) == 0 {
                                    waits_on.push(next(out_vc));
                                    if out == Port::Local {
                                        format!(
                                            "a credit: node {}'s ejection vc{} is full (its NIU does not take flits)",
                                            id, out_vc
                                        )
                                    } else {
                                        format!(
                                            "a credit: router {} in {} vc{} is full",
                                            self.neighbour(id, out),
                                            out.opposite().letter(),
                                            out_vc
                                        )
                                    }
                                } else {
                                    format!("the switch towards {}", out.letter())
                                }
                            }
                        }
                    };
                    held.push(HeldFlit {
                        node: id,
                        port: Port::from_index(port),
                        vc: vc as u8,
                        depth: depth as u16,
                        src: p.src,
                        dst: p.dst,
                        seq: f.seq,
                        ejected: false,
                        waits_for,
                        waits_on,
                    });
                }
            }
        }
        held
    }

    /// The node beyond `node`'s port `port`.
    fn neighbour(&self, node: u32, port: Port) -> u32 {
        match port {
            Port::East => node + 1,
            Port::West => node - 1,
            Port::South => node + self.width,
            Port::North => node - self.width,
            Port::Local => node,
        }
    }
}
