//! The plug-in point for a tile's network interface unit (NIU).
//!
//! The network issue provides an NIU per tile behind this trait: the tile hands
//! it every messaging instruction (`sendh` ... `waitr`), and the NIU either
//! completes it, suspends the issuing context, or faults it; between
//! instructions the tile advances it to the current cycle, and it reports
//! contexts to wake and threads to start (thread messages). The global loop
//! bounds each epoch by [`Niu::lookahead`] (router + link latency), so tiles
//! that can only influence each other through the network stay exact.
//!
//! Until then every tile has [`NoNetwork`], which faults messaging
//! instructions with a clear cause and never wakes anything.

use isa_spec::Inst;

use crate::context::SuspendCause;
use crate::fault::FaultCause;

/// What the NIU made of a messaging instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NiuOutcome {
    /// Done; the value for `rd` if the instruction has one (`ldss`, `ldsr`).
    Done(Option<u32>),
    /// The context suspends; the instruction is issued again when it wakes.
    Suspend(SuspendCause),
    /// A guest fault.
    Fault(FaultCause),
}

/// Something the NIU asks of its tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NiuEvent {
    /// A suspended context may run again.
    Wake {
        /// The context.
        context: usize,
    },
    /// A thread message arrived: start a thread in a free context.
    StartThread {
        /// Handler address.
        pc: u32,
        /// Argument registers a0.. in order.
        args: Vec<u32>,
    },
}

/// A tile's network interface.
pub trait Niu: Send {
    /// Context `context` issues `inst` (`x` are its integer registers) at cycle `now`.
    fn issue(&mut self, now: u64, context: usize, inst: &Inst, x: &[u32; 32]) -> NiuOutcome;

    /// Advances to cycle `now`, appending what the tile must do.
    fn advance(&mut self, now: u64, events: &mut Vec<NiuEvent>);

    /// The next cycle at which the NIU has work of its own (None: idle until
    /// the next messaging instruction or incoming flit).
    fn next_event(&self) -> Option<u64>;

    /// Cycles within which nothing a tile does can reach another tile (None:
    /// tiles never interact, so epochs may be as long as the configuration says).
    fn lookahead(&self) -> Option<u64>;
}

/// No network: messaging instructions fault.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoNetwork;

impl Niu for NoNetwork {
    fn issue(&mut self, _: u64, _: usize, inst: &Inst, _: &[u32; 32]) -> NiuOutcome {
        NiuOutcome::Fault(FaultCause::NetworkNotModeled {
            mnemonic: inst.op.mnemonic(),
        })
    }

    fn advance(&mut self, _: u64, _: &mut Vec<NiuEvent>) {}

    fn next_event(&self) -> Option<u64> {
        None
    }

    fn lookahead(&self) -> Option<u64> {
        None
    }
}
