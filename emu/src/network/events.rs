//! What the network reports: one trace event per flit move, and the
//! counters of the whole run.

use isa_spec::msg::Flit;

use super::StallCause;
use super::flit::{PORTS, Port};

/// One event in the network's trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetEvent {
    /// Cycle.
    pub cycle: u64,
    /// Node of the router or terminal.
    pub node: u32,
    /// What happened.
    pub kind: NetEventKind,
    /// The flit.
    pub flit: Flit,
    /// Its packet's source and destination.
    pub src: u32,
    /// Destination.
    pub dst: u32,
    /// Position in the packet.
    pub seq: u16,
    /// The packet's handle (reused once its tail has left the network).
    pub packet: u32,
}

/// Kinds of network trace events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetEventKind {
    /// A terminal injected the flit into its router, on a local VC.
    Injected {
        /// VC.
        vc: u8,
    },
    /// A router sent the flit through the switch.
    Forwarded {
        /// Input port and VC.
        from: (Port, u8),
        /// Output port and VC.
        to: (Port, u8),
    },
    /// The terminal took the flit out of its ejection buffer.
    Ejected {
        /// VC.
        vc: u8,
    },
}

impl NetEvent {
    /// The trace line.
    pub fn line(&self) -> String {
        let what = match self.kind {
            NetEventKind::Injected { vc } => format!("inject  vc{vc}"),
            NetEventKind::Forwarded { from, to } => format!(
                "forward {}{}->{}{}",
                from.0.letter(),
                from.1,
                to.0.letter(),
                to.1
            ),
            NetEventKind::Ejected { vc } => format!("eject   vc{vc}"),
        };
        let kind = match (self.flit.head, self.flit.tail) {
            (true, false) => "H",
            (true, true) => "G",
            (false, false) => "B",
            (false, true) => "T",
        };
        format!(
            "{:>10} r{:<3} {what:<16} {kind} {:08x}  pkt {}->{} #{}",
            self.cycle, self.node, self.flit.payload, self.src, self.dst, self.seq
        )
    }
}

/// Counters of the whole network.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetCounters {
    /// Flits injected.
    pub flits_injected: u64,
    /// Flits taken out at their destination.
    pub flits_ejected: u64,
    /// Packets injected (heads).
    pub packets_injected: u64,
    /// Flit-cycles lost, by [`StallCause`].
    pub stalls: [u64; StallCause::COUNT],
    /// Flits sent over each link: `node * PORTS + port` (output side;
    /// `Local` is the ejection link).
    pub link_flits: Vec<u64>,
    /// Flits that crossed a router's switch, by the input port they came
    /// from (all routers together; the power model's activity).
    pub switch_in: [u64; PORTS],
    /// Sum over flits of the cycles they spent in router buffers, less the
    /// arrival cycle of the flits still buffered (see
    /// [`Network::mean_buffered_flits`]).
    pub(super) buffered: i64,
    /// Cycles the network was simulated (not jumped).
    pub active_cycles: u64,
    /// Router evaluations (a busy router in a cycle it could act).
    pub router_steps: u64,
}
