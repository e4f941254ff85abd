//! Flits and message formats (thesis 3.2, 5.3; Figures 3.1, 3.2, 5.5).
//!
//! A flit is 34 bits: a head flag, a tail flag and a 32-bit payload.
//!
//! | H | T | flit |
//! |---|---|------|
//! | 1 | 0 | head: routing offsets, message type, type-specific bits |
//! | 1 | 1 | tag: handler address (thread) or message id (data) |
//! | 0 | 0 | body |
//! | 0 | 1 | tail: the last flit of a message |
//!
//! Head-flit payload layout (ours; the thesis leaves it open, Figure 5.5
//! gives only the fields' order): two 7-bit signed offsets, then a message
//! type code whose length depends on the type, shorter for the types with
//! more fields (an expanding opcode), then the type's fields:
//!
//! | bits  | field |
//! |-------|-------|
//! | 31:25 | X offset, signed, destination x − source x |
//! | 24:18 | Y offset, signed, destination y − source y |
//! | 17    | `1`: original data; 16:0 destination stride in words |
//! | 17:16 | `01`: RTS; 15:4 source node id, 3:0 the sender's context |
//! | 17:15 | `001`: data (send-and-receive); 14: 1 = Rendezvous mode, 0 = Ready mode |
//! | 17:14 | `0001`: thread |
//! | 17:13 | `00001`: CTS; 3:0 the context granted |
//! | 17:13 | `00000`: no message type (the head does not decode) |
//!
//! The offsets reach ±63, so meshes up to 64 x 64 tiles ([`MAX_MESH_DIM`];
//! its 4,096 node ids fit the RTS's 12-bit source field). Why a code of
//! varying length: with 3 fixed type bits the RTS (14 + 3 + 12 + 4 bits)
//! and the original data header (14 + 3 + 17) would not fit 32 bits.
//! [`head_dx`], [`head_dy`] and [`head_has_type`] read a payload in place
//! for the routers.
//!
//! Message formats:
//!
//! - Thread: head, tag (handler address), body flits filling `a0..a7` in order, the last one a tail.
//! - Data (send-and-receive): head, tag (message id), data flits, the last one a tail.
//! - Data (original active messages): head (with stride), address flit, data flits, tail.
//! - RTS: head (source node and context), tail (message id).
//! - CTS: head (context), tail (message id).

/// How reports write a message id. The hardware sees 32 bits; the C
/// libraries' convention (`SCMP_ID` in `c/include/scmp.h`) packs a kind
/// (bits 31..28, 0xF the libraries' collectives), a step (27..12) and an
/// index (11..0). An id below 0x1000 is written as it is; a larger one in
/// hex with its parts: `0x20000001 (SCMP_ID(2, 0, 1))`.
pub fn message_id_text(id: u32) -> String {
    if id < 0x1000 {
        return id.to_string();
    }
    let (kind, step, index) = (id >> 28, (id >> 12) & 0xffff, id & 0xfff);
    let whose = if kind == 0xf {
        ", a library collective's"
    } else {
        ""
    };
    format!("{id:#010x} (SCMP_ID({kind}, {step}, {index}){whose})")
}

#[cfg(test)]
mod id_tests {
    #[test]
    fn ids_are_written_with_their_parts() {
        assert_eq!(super::message_id_text(9), "9");
        assert_eq!(
            super::message_id_text(536_870_913),
            "0x20000001 (SCMP_ID(2, 0, 1))"
        );
        assert_eq!(
            super::message_id_text(0xf001_2403),
            "0xf0012403 (SCMP_ID(15, 18, 1027), a library collective's)"
        );
    }
}

/// Bits of each head-flit offset (signed).
pub const OFFSET_BITS: u32 = 7;

/// Largest offset magnitude a head flit carries: 63.
pub const MAX_OFFSET: i32 = (1 << (OFFSET_BITS - 1)) - 1;

/// Largest mesh dimension the head-flit offsets can address: 64.
pub const MAX_MESH_DIM: u32 = MAX_OFFSET as u32 + 1;

/// Bits of the RTS head's source node id: every node of the largest mesh.
pub const NODE_BITS: u32 = 12;
const _: () = assert!(MAX_MESH_DIM * MAX_MESH_DIM <= 1 << NODE_BITS);

/// Lowest bit of the X offset in a head payload (31:25).
pub const HEAD_X_SHIFT: u32 = 32 - OFFSET_BITS;

/// Lowest bit of the Y offset in a head payload (24:18).
pub const HEAD_Y_SHIFT: u32 = HEAD_X_SHIFT - OFFSET_BITS;

/// The longest type code (CTS's `00001`), in bits.
const TYPE_CODE_MAX_BITS: u32 = 5;

/// Lowest bit of the longest type code (13).
const TYPE_CODE_LOW: u32 = HEAD_Y_SHIFT - TYPE_CODE_MAX_BITS;

/// The X offset of a head payload, sign-extended (no full decode: the
/// routers read it at every hop).
#[inline]
pub const fn head_dx(payload: u32) -> i32 {
    (payload as i32) >> HEAD_X_SHIFT
}

/// The Y offset of a head payload, sign-extended.
#[inline]
pub const fn head_dy(payload: u32) -> i32 {
    ((payload << OFFSET_BITS) as i32) >> HEAD_X_SHIFT
}

/// Whether a head payload carries a message type (its type code is not
/// all zeros), that is whether [`Head::decode`] gives a head.
#[inline]
pub const fn head_has_type(payload: u32) -> bool {
    (payload >> TYPE_CODE_LOW) & ((1 << TYPE_CODE_MAX_BITS) - 1) != 0
}

/// Hardware thread contexts per tile that the RTS/CTS context field can name.
pub const MAX_CONTEXTS: u32 = 16;

/// Argument flits a thread message carries at most: one per argument
/// register, a0..a7, of the thread it starts.
pub const THREAD_ARGS: usize = 8;

/// What kind of flit a flit is, from its head and tail flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlitKind {
    /// H=1 T=0: first flit of a message, carries routing information.
    Head,
    /// H=1 T=1: tag flit (handler address or message id).
    Tag,
    /// H=0 T=0: body flit.
    Body,
    /// H=0 T=1: last flit of a message.
    Tail,
}

/// A 34-bit flit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Flit {
    /// Head flag.
    pub head: bool,
    /// Tail flag.
    pub tail: bool,
    /// 32-bit payload.
    pub payload: u32,
}

impl Flit {
    /// A flit of the given kind.
    pub const fn new(kind: FlitKind, payload: u32) -> Flit {
        let (head, tail) = match kind {
            FlitKind::Head => (true, false),
            FlitKind::Tag => (true, true),
            FlitKind::Body => (false, false),
            FlitKind::Tail => (false, true),
        };
        Flit {
            head,
            tail,
            payload,
        }
    }

    /// The flit's kind.
    pub const fn kind(self) -> FlitKind {
        match (self.head, self.tail) {
            (true, false) => FlitKind::Head,
            (true, true) => FlitKind::Tag,
            (false, false) => FlitKind::Body,
            (false, true) => FlitKind::Tail,
        }
    }

    /// The 34 bits as a number: H at bit 33, T at bit 32, payload below.
    pub const fn bits(self) -> u64 {
        ((self.head as u64) << 33) | ((self.tail as u64) << 32) | self.payload as u64
    }

    /// The flit held in the low 34 bits of `bits`.
    pub const fn from_bits(bits: u64) -> Flit {
        Flit {
            head: bits & (1 << 33) != 0,
            tail: bits & (1 << 32) != 0,
            payload: bits as u32,
        }
    }
}

/// Message type carried in a head flit. The routers partition virtual
/// channels by it. The discriminant numbers the types for counters and
/// statistics; the head flit carries the type's code ([`Self::code_bits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum MessageType {
    /// Creates a thread at the destination.
    Thread = 0,
    /// Send-and-receive data message (tag = message id).
    Data = 1,
    /// Rendezvous request to send.
    Rts = 2,
    /// Rendezvous clear to send.
    Cts = 3,
    /// Original active-message data message (address flit, stride in head).
    DataOrig = 4,
}

impl MessageType {
    /// Every message type.
    pub const ALL: [MessageType; 5] = [
        MessageType::Thread,
        MessageType::Data,
        MessageType::Rts,
        MessageType::Cts,
        MessageType::DataOrig,
    ];

    /// Length in bits of the type's code in a head flit: that many bits,
    /// zeros then a one, from bit 17 down (module documentation).
    pub const fn code_bits(self) -> u32 {
        match self {
            MessageType::DataOrig => 1,
            MessageType::Rts => 2,
            MessageType::Data => 3,
            MessageType::Thread => 4,
            MessageType::Cts => 5,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            MessageType::Thread => "thread",
            MessageType::Data => "data",
            MessageType::Rts => "rts",
            MessageType::Cts => "cts",
            MessageType::DataOrig => "data-orig",
        }
    }
}

/// The decoded payload of a head flit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Head {
    /// Destination x minus source x, −63..=63.
    pub dx: i8,
    /// Destination y minus source y, −63..=63.
    pub dy: i8,
    /// Message type.
    pub ty: MessageType,
    /// Data: Rendezvous (true) or Ready (false) mode.
    pub rendezvous: bool,
    /// RTS: source node id.
    pub node: u16,
    /// RTS: sender's context; CTS: context granted.
    pub context: u8,
    /// Original data: destination stride in words (17 bits).
    pub stride: u32,
}

/// Largest destination stride in words, in both designs: what the original
/// data header's 17-bit field carries; the modified NIU's `str` takes the
/// same (the thesis gives the receive entry's address field 21 bits, for
/// the 8 MB memory's words, and no width for its stride), so a buffer is
/// described the same way in both.
pub const MAX_STRIDE: u32 = (1 << 17) - 1;

impl Head {
    /// A head with only offsets and type set.
    pub const fn new(dx: i8, dy: i8, ty: MessageType) -> Head {
        Head {
            dx,
            dy,
            ty,
            rendezvous: false,
            node: 0,
            context: 0,
            stride: 0,
        }
    }

    /// The 32-bit head-flit payload. Offsets beyond ±[`MAX_OFFSET`] and
    /// fields beyond their widths are cut to their bits.
    pub fn encode(&self) -> u32 {
        let offset_mask = (1 << OFFSET_BITS) - 1;
        let mut p = ((self.dx as u32 & offset_mask) << HEAD_X_SHIFT)
            | ((self.dy as u32 & offset_mask) << HEAD_Y_SHIFT)
            | (1 << (HEAD_Y_SHIFT - self.ty.code_bits()));
        match self.ty {
            MessageType::Thread => {}
            MessageType::Data => p |= (self.rendezvous as u32) << RENDEZVOUS_BIT,
            MessageType::Rts => {
                p |= ((self.node as u32 & ((1 << NODE_BITS) - 1)) << CONTEXT_BITS)
                    | (self.context as u32 & CONTEXT_MASK)
            }
            MessageType::Cts => p |= self.context as u32 & CONTEXT_MASK,
            MessageType::DataOrig => p |= self.stride & MAX_STRIDE,
        }
        p
    }

    /// Decodes a head-flit payload; `None` for a type code of all zeros.
    pub fn decode(payload: u32) -> Option<Head> {
        if !head_has_type(payload) {
            return None;
        }
        // The code's length is one more than its leading zeros.
        let field = (payload >> TYPE_CODE_LOW) & ((1 << TYPE_CODE_MAX_BITS) - 1);
        let bits = field.leading_zeros() - (32 - TYPE_CODE_MAX_BITS) + 1;
        let ty = *MessageType::ALL.iter().find(|t| t.code_bits() == bits)?;
        let mut head = Head::new(head_dx(payload) as i8, head_dy(payload) as i8, ty);
        match ty {
            MessageType::Thread => {}
            MessageType::Data => head.rendezvous = payload & (1 << RENDEZVOUS_BIT) != 0,
            MessageType::Rts => {
                head.node = ((payload >> CONTEXT_BITS) & ((1 << NODE_BITS) - 1)) as u16;
                head.context = (payload & CONTEXT_MASK) as u8;
            }
            MessageType::Cts => head.context = (payload & CONTEXT_MASK) as u8,
            MessageType::DataOrig => head.stride = payload & MAX_STRIDE,
        }
        Some(head)
    }
}

/// Bits of the RTS and CTS context field (3:0): [`MAX_CONTEXTS`] contexts.
const CONTEXT_BITS: u32 = 4;
const CONTEXT_MASK: u32 = (1 << CONTEXT_BITS) - 1;
const _: () = assert!(MAX_CONTEXTS == 1 << CONTEXT_BITS);

/// The data header's mode bit (14), just below its 3-bit type code.
const RENDEZVOUS_BIT: u32 = HEAD_Y_SHIFT - 4;

// Each type's fields lie below its code (the code of `n` bits takes bits
// 17 down to HEAD_Y_SHIFT - n): the stride's 17 bits under the 1-bit
// code, the RTS's node and context under the 2-bit one, and so on.
const _: () = assert!(MAX_STRIDE < 1 << (HEAD_Y_SHIFT - 1));
const _: () = assert!(NODE_BITS + CONTEXT_BITS <= HEAD_Y_SHIFT - 2);
const _: () = assert!(RENDEZVOUS_BIT < HEAD_Y_SHIFT - 3);
const _: () = assert!(CONTEXT_BITS <= TYPE_CODE_LOW);

/// State of a send-table entry as `ldss` returns it (thesis Table 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SendState {
    /// No entry for the message id.
    Empty = 0b00,
    /// `sendh` accepted; the message has not started to leave.
    InUse = 0b01,
    /// The message is being transmitted (or waits for CTS).
    InProgress = 0b10,
    /// The message has left the node.
    Complete = 0b11,
}

/// State of a receive-table entry as `ldsr` returns it (thesis Table 5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ReceiveState {
    /// No entry for the message id.
    Empty = 0b000,
    /// `str` posted; no data yet.
    InUse = 0b001,
    /// Data is being stored.
    InProgress = 0b010,
    /// An RTS arrived before the matching `str`.
    RtsReceived = 0b011,
    /// All data stored.
    Complete = 0b111,
}

impl SendState {
    /// Every state, by encoding.
    pub const ALL: [SendState; 4] = [
        SendState::Empty,
        SendState::InUse,
        SendState::InProgress,
        SendState::Complete,
    ];

    /// The thesis's name of the state (Table 5.1), in traces, reports and
    /// docs/isa.md.
    pub fn name(self) -> &'static str {
        match self {
            SendState::Empty => "Empty",
            SendState::InUse => "In Use",
            SendState::InProgress => "In Progress",
            SendState::Complete => "Complete",
        }
    }
}

impl ReceiveState {
    /// Every state, by encoding.
    pub const ALL: [ReceiveState; 5] = [
        ReceiveState::Empty,
        ReceiveState::InUse,
        ReceiveState::InProgress,
        ReceiveState::RtsReceived,
        ReceiveState::Complete,
    ];

    /// The thesis's name of the state (Table 5.2), in traces, reports and
    /// docs/isa.md.
    pub fn name(self) -> &'static str {
        match self {
            ReceiveState::Empty => "Empty",
            ReceiveState::InUse => "In Use",
            ReceiveState::InProgress => "In Progress",
            ReceiveState::RtsReceived => "RTS Received",
            ReceiveState::Complete => "Complete",
        }
    }
}

/// Packs the second operand of `sendm`/`sendme`: stride (words) in bits 31:16,
/// count (words) in bits 15:0.
pub const fn pack_stride_count(stride: u16, count: u16) -> u32 {
    ((stride as u32) << 16) | count as u32
}

/// Unpacks the second operand of `sendm`/`sendme` into (stride, count).
pub const fn unpack_stride_count(value: u32) -> (u16, u16) {
    ((value >> 16) as u16, value as u16)
}
