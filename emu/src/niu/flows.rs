//! Messages' two ends, recorded for a timeline (`scmp run --timeline`)
//! while [`Niu::enable_flows`] is on: a queue's message leaving as a packet
//! (its tag), and a message taken in completely at its destination. A
//! queue injects its messages in the order their `sendh` enqueued them, so
//! the n-th message sent from a queue is the n-th accepted `sendh` of its
//! context (modified NIU) or tile (original NIU).

use super::Niu;
use super::eject::Rx;

/// One end of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageEnd {
    /// The head of queue `queue`'s front message went out as packet `tag`.
    Sent {
        /// Cycle.
        cycle: u64,
        /// Node.
        node: u32,
        /// Transmission queue (the context's, or 0 in the original NIU).
        queue: usize,
        /// The packet's tag.
        tag: u64,
    },
    /// The tail of packet `tag` was taken in at `node`.
    Received {
        /// Cycle.
        cycle: u64,
        /// Node.
        node: u32,
        /// The packet's tag.
        tag: u64,
        /// What the message did.
        what: Delivery,
    },
}

/// What a message did at its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// A thread message: a thread starts in `context`.
    Thread {
        /// The context.
        context: usize,
    },
    /// Data into the receive entry of message id `id`, now Complete.
    Data {
        /// Message id.
        id: u32,
    },
    /// Original data message stored by DMA.
    DataOrig,
    /// Dropped (no receive posted, or undeliverable).
    Discarded,
}

impl Niu {
    /// Starts recording message ends.
    pub fn enable_flows(&mut self) {
        self.flows = Some(Vec::new());
    }

    /// The message ends recorded since the last call.
    pub fn take_flows(&mut self) -> Vec<MessageEnd> {
        self.flows.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub(crate) fn flow_sent(&mut self, cycle: u64, queue: usize, tag: u64) {
        let node = self.node;
        if let Some(f) = &mut self.flows {
            f.push(MessageEnd::Sent {
                cycle,
                node,
                queue,
                tag,
            });
        }
    }

    /// What the message on ejection VC `vc` does if the flit taken next
    /// is its tail (None when not recording, or for RTS/CTS).
    pub(crate) fn delivery_on(&self, vc: usize) -> Option<Delivery> {
        self.flows.as_ref()?;
        match *self.rx.state(vc) {
            Rx::Thread { context, .. } => Some(Delivery::Thread { context }),
            Rx::Data { id, .. } => Some(Delivery::Data { id }),
            Rx::DataOrig { .. } => Some(Delivery::DataOrig),
            Rx::Discard => Some(Delivery::Discarded),
            _ => None,
        }
    }

    pub(crate) fn flow_received(&mut self, cycle: u64, tag: u64, what: Delivery) {
        let node = self.node;
        if let Some(f) = &mut self.flows {
            f.push(MessageEnd::Received {
                cycle,
                node,
                tag,
                what,
            });
        }
    }
}
