//! What travels through the network: flits with the bookkeeping the
//! simulator keeps beside the 34 bits (which packet, for statistics and
//! traces), the router ports, and dimension-order routing on the head
//! flit's offsets.

use isa_spec::msg::{
    Flit, HEAD_X_SHIFT, HEAD_Y_SHIFT, OFFSET_BITS, head_dx, head_dy, head_has_type,
};

/// A router port. The numbering is BookSim2's for a 2-D mesh (port `2d` is
/// the positive direction of dimension `d`, `2d + 1` the negative one, the
/// local port last), so that round-robin orders agree with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Port {
    /// Towards x + 1.
    East = 0,
    /// Towards x - 1.
    West = 1,
    /// Towards y + 1 (node ids grow by the mesh width).
    South = 2,
    /// Towards y - 1.
    North = 3,
    /// The tile's NIU: injection into the router, ejection out of it.
    Local = 4,
}

/// Ports of a router.
pub const PORTS: usize = 5;

impl Port {
    /// Every port, by number.
    pub const ALL: [Port; PORTS] = [
        Port::East,
        Port::West,
        Port::South,
        Port::North,
        Port::Local,
    ];

    /// The port with number `i` (below [`PORTS`]).
    pub fn from_index(i: usize) -> Port {
        Port::ALL[i]
    }

    /// One-letter name in traces and reports.
    pub fn letter(self) -> char {
        match self {
            Port::East => 'E',
            Port::West => 'W',
            Port::South => 'S',
            Port::North => 'N',
            Port::Local => 'L',
        }
    }

    /// The port a link leaving through `self` enters at the neighbour.
    pub fn opposite(self) -> Port {
        match self {
            Port::East => Port::West,
            Port::West => Port::East,
            Port::South => Port::North,
            Port::North => Port::South,
            Port::Local => Port::Local,
        }
    }
}

/// Index of a packet in the network's packet table.
pub type PacketId = u32;

/// A flit in the network: the 34 architectural bits and its packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetFlit {
    /// The flit as the hardware has it (the head's offsets are updated at
    /// every hop, as SCMP routers do).
    pub flit: Flit,
    /// Its packet.
    pub packet: PacketId,
    /// Position in the packet, 0 for the head.
    pub seq: u16,
    /// Cycle it was injected (set by [`crate::network::Network::inject`]).
    pub injected: u64,
    /// Its packet's VC class (set by [`crate::network::Network::inject`]).
    pub class: u8,
}

impl NetFlit {
    /// Flit `seq` of `packet`, not injected yet.
    pub fn new(flit: Flit, packet: PacketId, seq: u16) -> NetFlit {
        NetFlit {
            flit,
            packet,
            seq,
            injected: 0,
            class: 0,
        }
    }

    /// Whether it starts a packet (H=1, T=0).
    #[inline]
    pub fn is_first(&self) -> bool {
        self.flit.head && !self.flit.tail
    }

    /// Whether it ends a packet (H=0, T=1; a tag flit has both flags).
    #[inline]
    pub fn is_last(&self) -> bool {
        self.flit.tail && !self.flit.head
    }
}

/// Dimension-order routing (X, then Y) of a head flit: the output port, and
/// the head payload with the offset of that hop counted down. A head whose
/// payload does not decode goes to the local port unchanged (the NIU
/// reports it); it cannot happen with heads the NIUs build.
pub fn route(payload: u32) -> (Port, u32) {
    // The offsets in place (isa_spec::msg's layout), without a full
    // decode: this runs for every head at every router.
    const DX: u32 = 1 << HEAD_X_SHIFT;
    const DY: u32 = 1 << HEAD_Y_SHIFT;
    const DY_FIELD: u32 = ((1 << OFFSET_BITS) - 1) << HEAD_Y_SHIFT;
    if !head_has_type(payload) {
        return (Port::Local, payload);
    }
    let dx = head_dx(payload);
    let dy = head_dy(payload);
    if dx > 0 {
        (Port::East, payload - DX)
    } else if dx < 0 {
        (Port::West, payload.wrapping_add(DX))
    } else if dy > 0 {
        (Port::South, payload - DY)
    } else if dy < 0 {
        // dy + 1 is at most 0: its field, without carrying into dx.
        (
            Port::North,
            (payload & !DY_FIELD) | (((dy + 1) as u32) << HEAD_Y_SHIFT & DY_FIELD),
        )
    } else {
        (Port::Local, payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_spec::msg::{Head, MessageType};

    #[test]
    fn x_first_then_y_then_local() {
        let h = |dx, dy| Head::new(dx, dy, MessageType::Data).encode();
        assert_eq!(route(h(2, -3)), (Port::East, h(1, -3)));
        assert_eq!(route(h(-1, 5)), (Port::West, h(0, 5)));
        assert_eq!(route(h(0, 5)), (Port::South, h(0, 4)));
        assert_eq!(route(h(0, -31)), (Port::North, h(0, -30)));
        assert_eq!(route(h(-63, 63)), (Port::West, h(-62, 63)));
        assert_eq!(route(h(0, -63)), (Port::North, h(0, -62)));
        assert_eq!(route(h(63, 0)), (Port::East, h(62, 0)));
        assert_eq!(route(h(0, 0)), (Port::Local, h(0, 0)));
    }

    #[test]
    fn other_head_fields_survive_a_hop() {
        let mut head = Head::new(-4, 1, MessageType::Rts);
        head.node = 4095;
        head.context = 15;
        let (port, after) = route(head.encode());
        assert_eq!(port, Port::West);
        let back = Head::decode(after).unwrap();
        assert_eq!(
            (back.dx, back.dy, back.node, back.context),
            (-3, 1, 4095, 15)
        );
        assert_eq!(back.ty, MessageType::Rts);
    }

    #[test]
    fn every_offset_pair_routes_as_a_full_decode_would() {
        for ty in MessageType::ALL {
            for dx in -63i8..=63 {
                for dy in -63i8..=63 {
                    let head = Head {
                        rendezvous: true,
                        node: 4095,
                        context: 9,
                        stride: isa_spec::msg::MAX_STRIDE,
                        ..Head::new(dx, dy, ty)
                    };
                    let fields = Head::decode(head.encode()).unwrap();
                    let (port, after) = route(head.encode());
                    let back = Head::decode(after).unwrap();
                    let (ex, ey, eport) = match (dx, dy) {
                        (x, _) if x > 0 => (x - 1, dy, Port::East),
                        (x, _) if x < 0 => (x + 1, dy, Port::West),
                        (_, y) if y > 0 => (0, y - 1, Port::South),
                        (_, y) if y < 0 => (0, y + 1, Port::North),
                        _ => (0, 0, Port::Local),
                    };
                    assert_eq!(
                        (port, back.dx, back.dy),
                        (eport, ex, ey),
                        "{ty:?} {dx} {dy}"
                    );
                    assert_eq!(
                        Head {
                            dx: ex,
                            dy: ey,
                            ..fields
                        },
                        back,
                        "{ty:?} {dx} {dy}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_head_without_a_type_goes_to_the_local_port_unchanged() {
        for payload in [0, 0xfe00_0000 | 0x1f, !(0x1f << 13)] {
            assert_eq!(Head::decode(payload), None);
            assert_eq!(route(payload), (Port::Local, payload));
        }
    }

    #[test]
    fn opposite_ports_pair_up() {
        for p in Port::ALL {
            assert_eq!(p.opposite().opposite(), p);
            assert_eq!(Port::from_index(p as usize), p);
        }
    }
}
