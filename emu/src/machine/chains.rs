//! The heads of held chains, for the report of a run that cannot go on: the
//! ejection buffers whose NIU does not take the front flit, each with the
//! number of held flits that wait on it (directly or through the buffers
//! between), what its NIU waits for, what the node's threads wait for and
//! its NIU's whole receive table.
//! A large mesh's report lists only the first held flits and NIU lines
//! (`report::REPORT_LINES`), so the node at the head of a long chain, the
//! one that tells why, could be among those left out: the report then
//! names these heads, most flits held up first.

use std::collections::{HashMap, HashSet};

use super::Machine;
use super::report::REPORT_LINES;
use crate::hart::context::ContextState;
use crate::network::{Buffer, StallReport};

/// Nodes at heads of held chains a report shows.
pub const HEAD_NODES: usize = 8;

/// A node at the head of held chains.
struct Head {
    /// Its ejection buffers holding flits: (VC, flits held up).
    vcs: Vec<(u8, usize)>,
    /// The most flits one of them holds up.
    most: usize,
}

/// Per ejection buffer holding flits, (node, VC, flits held up): the held
/// flits of every buffer that waits on it, directly or through others (a
/// packet waiting for a free VC of its class waits on each of them), its
/// own included.
fn held_up(network: &StallReport) -> Vec<(u32, u8, usize)> {
    let mut flits: HashMap<Buffer, usize> = HashMap::new();
    let mut waiters: HashMap<Buffer, Vec<Buffer>> = HashMap::new();
    for h in &network.held {
        *flits.entry(h.buffer()).or_default() += 1;
        for &next in &h.waits_on {
            waiters.entry(next).or_default().push(h.buffer());
        }
    }
    let mut out = Vec::new();
    for h in network.held.iter().filter(|h| h.ejected && h.depth == 0) {
        let mut seen: HashSet<Buffer> = HashSet::from([h.buffer()]);
        let mut todo = vec![h.buffer()];
        while let Some(b) = todo.pop() {
            for &w in waiters.get(&b).into_iter().flatten() {
                if seen.insert(w) {
                    todo.push(w);
                }
            }
        }
        out.push((h.node, h.vc, seen.iter().map(|b| flits[b]).sum()));
    }
    out
}

impl Machine {
    /// The report's lines on the heads of held chains: none unless the
    /// report leaves held flits or NIU lines out (`nius` are its NIU
    /// lines); else per node (at most [`HEAD_NODES`], most flits held up
    /// first), a line with its ejection buffers, the flits each holds up
    /// and what its NIU waits for, a line with its threads, one with
    /// its receive table and, when early RTSs fill that table, one that
    /// says so.
    pub(super) fn chain_heads(&self, network: &StallReport, nius: &[(u32, String)]) -> Vec<String> {
        let niu_groups: HashSet<&str> = nius.iter().map(|(_, l)| l.as_str()).collect();
        if network.held.len() <= REPORT_LINES && niu_groups.len() <= REPORT_LINES {
            return Vec::new();
        }
        let mut heads: HashMap<u32, Head> = HashMap::new();
        for (node, vc, held_up) in held_up(network) {
            let head = heads.entry(node).or_insert(Head {
                vcs: Vec::new(),
                most: 0,
            });
            head.vcs.push((vc, held_up));
            head.most = head.most.max(held_up);
        }
        let mut order: Vec<(u32, Head)> = heads.into_iter().collect();
        order.sort_by_key(|(node, h)| (std::cmp::Reverse(h.most), *node));
        let mut out = Vec::new();
        for (node, head) in order.iter().take(HEAD_NODES) {
            let niu = &self.nius[*node as usize];
            let held = niu.held_on(&self.net);
            let parts: Vec<String> = head
                .vcs
                .iter()
                .map(|&(vc, n)| {
                    let why = held
                        .iter()
                        .find(|(v, _)| *v == vc as usize)
                        .map(|&(_, h)| niu.held_text(h))
                        .unwrap_or_else(|| "its NIU does not take its front flit".to_string());
                    format!(
                        "ejection vc{vc}, {} waiting on it (its own included): {why}",
                        super::report::plural(n as u64, "held flit")
                    )
                })
                .collect();
            out.push(format!("node {node}: {}", parts.join("; ")));
            out.push(format!(
                "  node {node}'s threads: {}",
                self.threads_text(*node)
            ));
            if let Some(table) = niu.receive_entries_text() {
                out.push(format!("  node {node}'s {table}"));
            }
            if let Some(early) = niu.early_rts_text(&held) {
                out.push(format!("  so: {early}"));
            }
        }
        if order.len() > HEAD_NODES {
            out.push(format!(
                "... and {} more nodes whose ejection buffers hold flits",
                order.len() - HEAD_NODES
            ));
        }
        out
    }

    /// Tile `node`'s live contexts, where each is and what it waits for:
    /// `context 0 at pc 0x00011c98 <nb_sr_post_round+0x50> waits for a free
    /// receive-table entry (all 32 are taken); context 1 ... ready`.
    fn threads_text(&self, node: u32) -> String {
        let tile = &self.tiles[node as usize];
        let niu = &self.nius[node as usize];
        let parts: Vec<String> = tile
            .contexts
            .iter()
            .enumerate()
            .filter(|(_, ctx)| ctx.is_live())
            .map(|(c, ctx)| {
                let state = match ctx.state {
                    ContextState::Suspended(cause) => format!(
                        "waits for {}",
                        niu.describe_wait(c)
                            .unwrap_or_else(|| cause.name().to_string())
                    ),
                    ContextState::Ready => "ready".to_string(),
                    _ => "running".to_string(),
                };
                let at = self.labels.pc_text_from(ctx.pc, ctx.x[1]);
                format!("context {c} at {at} {state}")
            })
            .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join("; ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::HeldFlit;
    use crate::network::flit::Port;

    fn flit(node: u32, port: Port, vc: u8, depth: u16, waits_on: &[Buffer]) -> HeldFlit {
        HeldFlit {
            node,
            port,
            vc,
            depth,
            src: 9,
            dst: 0,
            seq: 0,
            ejected: port == Port::Local,
            waits_for: String::new(),
            waits_on: waits_on.to_vec(),
        }
    }

    fn buffer(node: u32, port: Port, vc: u8) -> Buffer {
        Buffer {
            node,
            port,
            vc,
            ejected: port == Port::Local,
        }
    }

    #[test]
    fn chains_are_followed_to_the_ejection_buffers_they_wait_on() {
        let eject4 = buffer(0, Port::Local, 4);
        let eject5 = buffer(0, Port::Local, 5);
        let east = buffer(0, Port::East, 4);
        let south = buffer(0, Port::South, 5);
        let held = vec![
            // Node 0's two ejection buffers, two flits each.
            flit(0, Port::Local, 4, 0, &[]),
            flit(0, Port::Local, 4, 1, &[]),
            flit(0, Port::Local, 5, 0, &[]),
            flit(0, Port::Local, 5, 1, &[]),
            // Router 0's east input waits for a credit of ejection vc4;
            // its second flit waits behind the first.
            flit(0, Port::East, 4, 0, &[eject4]),
            flit(0, Port::East, 4, 1, &[]),
            // Router 0's south input waits for a free VC of the class
            // (either ejection buffer).
            flit(0, Port::South, 5, 0, &[eject4, eject5]),
            // Router 1's west input waits for router 0's east input, and
            // router 5's north input for router 0's south one.
            flit(1, Port::West, 4, 0, &[east]),
            flit(5, Port::North, 5, 0, &[south]),
            // Unrelated: a flit waiting for the switch.
            flit(7, Port::West, 0, 0, &[]),
        ];
        let report = StallReport {
            cycle: 100,
            last_move: 10,
            on_links: 0,
            held,
        };
        let mut got = held_up(&report);
        got.sort();
        // vc4: its 2, the east input's 2, router 1's 1, the south input's
        // 1 and router 5's 1; vc5: its 2, the south input's and router 5's.
        assert_eq!(got, vec![(0, 4, 7), (0, 5, 4)]);
    }
}
