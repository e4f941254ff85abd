//! How a message is made up, each rule once for the NIU and the tile:
//! which messaging instructions open, add to and end the message a context
//! builds ([`message_part`]); which word of a part becomes the message's
//! tail ([`word_kind`]); and the pace of the NIU's DMA engines, one word of
//! memory a period in either direction ([`DmaPace`]).

use isa_spec::Opcode;
use isa_spec::msg::FlitKind;

/// What a messaging instruction does to the message its context builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessagePart {
    /// `sendh`: starts one (its head and second flit).
    Opens,
    /// `send`, `send2`, `sendm`: adds body words.
    Adds,
    /// `sende`, `send2e`, `sendme`: adds words, the last its tail.
    Ends,
    /// Any other instruction.
    None,
}

/// What `op` does to its context's open message.
pub fn message_part(op: Opcode) -> MessagePart {
    match op {
        Opcode::SendhT | Opcode::SendhD => MessagePart::Opens,
        Opcode::Send | Opcode::Send2 | Opcode::Sendm => MessagePart::Adds,
        Opcode::Sende | Opcode::Send2e | Opcode::Sendme => MessagePart::Ends,
        _ => MessagePart::None,
    }
}

/// The kind of a word's flit, with `left` words of its part still to go
/// (itself included) and `ends` whether the part ends the message: the
/// last word of an ending part is the tail.
pub fn word_kind(ends: bool, left: u32) -> FlitKind {
    if ends && left == 1 {
        FlitKind::Tail
    } else {
        FlitKind::Body
    }
}

/// A DMA engine's pace: after a word it moves (a `sendm` word read, a data
/// word stored), the next may move `niu.dma_cycles_per_word` cycles later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DmaPace {
    /// Cycle from which the next word may move.
    free: u64,
    /// Cycles a word takes.
    period: u64,
}

impl DmaPace {
    /// An engine that moves a word every `period` cycles, idle.
    pub fn new(period: u32) -> DmaPace {
        DmaPace {
            free: 0,
            period: period as u64,
        }
    }

    /// Whether a word may move at `now`.
    #[inline]
    pub fn ready(&self, now: u64) -> bool {
        now >= self.free
    }

    /// A word moved at `now`.
    #[inline]
    pub fn moved(&mut self, now: u64) {
        self.free = now + self.period;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_of_a_message() {
        assert_eq!(message_part(Opcode::SendhD), MessagePart::Opens);
        assert_eq!(message_part(Opcode::Send2), MessagePart::Adds);
        assert_eq!(message_part(Opcode::Sendme), MessagePart::Ends);
        assert_eq!(message_part(Opcode::Ldsr), MessagePart::None);
        assert_eq!(word_kind(true, 1), FlitKind::Tail);
        assert_eq!(word_kind(true, 2), FlitKind::Body);
        assert_eq!(word_kind(false, 1), FlitKind::Body);
    }

    #[test]
    fn a_word_a_period() {
        let mut d = DmaPace::new(3);
        assert!(d.ready(0));
        d.moved(10);
        assert!(!d.ready(12));
        assert!(d.ready(13));
    }
}
