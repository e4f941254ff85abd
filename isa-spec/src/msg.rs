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
//! Head-flit payload layout (ours; the thesis leaves it open):
//!
//! | bits  | field |
//! |-------|-------|
//! | 31:26 | X offset, signed, destination x − source x |
//! | 25:20 | Y offset, signed, destination y − source y |
//! | 19:17 | message type ([`MessageType`]) |
//! | 16    | data (send-and-receive): 1 = Rendezvous mode, 0 = Ready mode |
//! | 13:4  | RTS: source node id |
//! | 3:0   | RTS and CTS: context id (RTS: the sender's; CTS: the one granted) |
//! | 16:0  | original data: destination stride in words |
//!
//! The offsets reach ±31, so meshes up to 32 x 32 tiles (1024 node ids fit the
//! 10-bit RTS source field). Message formats:
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

/// Largest mesh dimension the head-flit offsets can address.
pub const MAX_MESH_DIM: u32 = 32;

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
/// channels by it.
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

    /// The type with code `bits`.
    pub fn from_bits(bits: u32) -> Option<MessageType> {
        Self::ALL.iter().copied().find(|t| *t as u32 == bits)
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
    /// Destination x minus source x, −31..=31.
    pub dx: i8,
    /// Destination y minus source y, −31..=31.
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

    /// The 32-bit head-flit payload.
    pub fn encode(&self) -> u32 {
        let mut p = ((self.dx as u32 & 0x3f) << 26)
            | ((self.dy as u32 & 0x3f) << 20)
            | ((self.ty as u32) << 17);
        match self.ty {
            MessageType::Thread => {}
            MessageType::Data => p |= (self.rendezvous as u32) << 16,
            MessageType::Rts => {
                p |= ((self.node as u32 & 0x3ff) << 4) | (self.context as u32 & 0xf)
            }
            MessageType::Cts => p |= self.context as u32 & 0xf,
            MessageType::DataOrig => p |= self.stride & MAX_STRIDE,
        }
        p
    }

    /// Decodes a head-flit payload; `None` for an unknown message type.
    pub fn decode(payload: u32) -> Option<Head> {
        let sext6 = |v: u32| (((v & 0x3f) as i8) << 2) >> 2;
        let ty = MessageType::from_bits((payload >> 17) & 7)?;
        let mut head = Head::new(sext6(payload >> 26), sext6(payload >> 20), ty);
        match ty {
            MessageType::Thread => {}
            MessageType::Data => head.rendezvous = payload & (1 << 16) != 0,
            MessageType::Rts => {
                head.node = ((payload >> 4) & 0x3ff) as u16;
                head.context = (payload & 0xf) as u8;
            }
            MessageType::Cts => head.context = (payload & 0xf) as u8,
            MessageType::DataOrig => head.stride = payload & MAX_STRIDE,
        }
        Some(head)
    }
}

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
