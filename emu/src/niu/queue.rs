//! Transmission queues: flits waiting for the injection channel, each
//! stamped with the cycle from which the NIU may take it (instructions
//! enqueue at the end of their cycle). In the modified NIU a `sendm` puts
//! two pseudo-flits in the queue ([`Entry::Stream`], thesis 5.5) that the
//! NIU expands into data flits read from memory when they reach the front.

use std::collections::VecDeque;

use isa_spec::msg::Flit;

/// A queue entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A flit.
    Flit(Flit),
    /// `count` words from `addr`, `stride` words apart, streamed from
    /// memory; with `last`, the final word is the message's tail (`sendme`).
    /// Takes two slots.
    Stream {
        /// Address of the next word.
        addr: u32,
        /// Stride in words.
        stride: u32,
        /// Words left.
        count: u32,
        /// Whether the last word ends the message.
        last: bool,
    },
}

impl Entry {
    /// Slots it takes.
    pub fn slots(&self) -> usize {
        match self {
            Entry::Flit(_) => 1,
            Entry::Stream { .. } => 2,
        }
    }
}

/// A transmission queue of `capacity` slots.
#[derive(Clone, Debug)]
pub struct TxQueue {
    entries: VecDeque<(Entry, u64)>,
    used: usize,
    capacity: usize,
    /// Stream entries queued.
    streams: usize,
}

impl TxQueue {
    /// An empty queue.
    pub fn new(capacity: usize) -> TxQueue {
        TxQueue {
            entries: VecDeque::with_capacity(capacity),
            used: 0,
            capacity,
            streams: 0,
        }
    }

    /// Free slots.
    pub fn free(&self) -> usize {
        self.capacity - self.used
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Slots in use.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Appends `entry`, takeable from cycle `ready_at`. The caller checked
    /// the room.
    pub fn push(&mut self, entry: Entry, ready_at: u64) {
        debug_assert!(entry.slots() <= self.free(), "queue overflow");
        self.used += entry.slots();
        self.streams += matches!(entry, Entry::Stream { .. }) as usize;
        self.entries.push_back((entry, ready_at));
    }

    /// The front entry if it may be taken at `now`.
    pub fn front(&self, now: u64) -> Option<&Entry> {
        self.entries
            .front()
            .filter(|(_, at)| *at <= now)
            .map(|(e, _)| e)
    }

    /// Whether a `sendm` stream is queued (it will read memory).
    pub fn has_stream(&self) -> bool {
        self.streams > 0
    }

    /// The cycle from which the front entry may be taken.
    pub fn front_ready_at(&self) -> u64 {
        self.entries.front().map_or(0, |(_, at)| *at)
    }

    /// The entry after the front (the tag behind a head), whenever queued.
    pub fn second(&self) -> Option<&Entry> {
        self.entries.get(1).map(|(e, _)| e)
    }

    /// Removes the front entry.
    pub fn pop(&mut self) -> Option<Entry> {
        let (e, _) = self.entries.pop_front()?;
        self.used -= e.slots();
        self.streams -= matches!(e, Entry::Stream { .. }) as usize;
        Some(e)
    }

    /// Replaces the front stream entry by its remainder (one word taken).
    pub fn advance_stream(&mut self) {
        if let Some((
            Entry::Stream {
                addr,
                stride,
                count,
                ..
            },
            _,
        )) = self.entries.front_mut()
        {
            *addr = addr.wrapping_add(stride.wrapping_mul(4));
            *count -= 1;
        }
    }
}

/// The original NIU's `sendm`: words copied from memory into the queue,
/// one per DMA period, before the NIU accepts another messaging instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copier {
    /// The context that issued it.
    pub context: usize,
    /// Address of the next word.
    pub addr: u32,
    /// Stride in words.
    pub stride: u32,
    /// Words left.
    pub count: u32,
    /// Whether the last word is the tail (`sendme`).
    pub last: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_spec::msg::FlitKind;

    #[test]
    fn slots_and_readiness() {
        let mut q = TxQueue::new(4);
        q.push(Entry::Flit(Flit::new(FlitKind::Head, 1)), 10);
        q.push(
            Entry::Stream {
                addr: 0x100,
                stride: 2,
                count: 3,
                last: true,
            },
            10,
        );
        assert_eq!(q.free(), 1);
        assert_eq!(q.front(9), None, "not before its cycle");
        assert!(matches!(q.front(10), Some(Entry::Flit(_))));
        q.pop();
        q.advance_stream();
        assert_eq!(
            q.front(10),
            Some(&Entry::Stream {
                addr: 0x108,
                stride: 2,
                count: 2,
                last: true
            })
        );
        q.pop();
        assert!(q.is_empty());
        assert_eq!(q.free(), 4);
    }
}
