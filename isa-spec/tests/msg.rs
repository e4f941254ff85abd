//! Flit and head-flit formats: round trips and the documented bit layout.

use isa_spec::msg::*;
use proptest::prelude::*;

#[test]
fn flit_kinds_follow_the_head_and_tail_flags() {
    for (kind, h, t) in [
        (FlitKind::Head, true, false),
        (FlitKind::Tag, true, true),
        (FlitKind::Body, false, false),
        (FlitKind::Tail, false, true),
    ] {
        let f = Flit::new(kind, 0xdead_beef);
        assert_eq!((f.head, f.tail, f.kind()), (h, t, kind));
        assert_eq!(f.bits() >> 32, ((h as u64) << 1) | t as u64);
        assert_eq!(Flit::from_bits(f.bits()), f);
    }
}

#[test]
fn head_fields_sit_where_the_documentation_says() {
    // dx = -1 (0x3f), dy = 2, RTS from node 0x155, context 9.
    let head = Head {
        node: 0x155,
        context: 9,
        ..Head::new(-1, 2, MessageType::Rts)
    };
    let p = head.encode();
    assert_eq!(p >> 26, 0x3f);
    assert_eq!((p >> 20) & 0x3f, 2);
    assert_eq!((p >> 17) & 7, MessageType::Rts as u32);
    assert_eq!((p >> 4) & 0x3ff, 0x155);
    assert_eq!(p & 0xf, 9);
    let data = Head {
        rendezvous: true,
        ..Head::new(31, -31, MessageType::Data)
    };
    assert_eq!(data.encode() & (1 << 16), 1 << 16);
    let orig = Head {
        stride: MAX_STRIDE,
        ..Head::new(0, 0, MessageType::DataOrig)
    };
    assert_eq!(orig.encode() & MAX_STRIDE, MAX_STRIDE);
    assert_eq!(
        Head::decode(7 << 17),
        None,
        "type code 7 is no message type"
    );
}

#[test]
fn stride_and_count_pack_into_one_register() {
    assert_eq!(pack_stride_count(3, 100), 0x0003_0064);
    assert_eq!(unpack_stride_count(0xffff_0001), (0xffff, 1));
}

fn head_strategy() -> impl Strategy<Value = Head> {
    (
        -31i8..=31,
        -31i8..=31,
        0usize..5,
        any::<bool>(),
        0u16..1024,
        0u8..16,
        0u32..=MAX_STRIDE,
    )
        .prop_map(|(dx, dy, t, rendezvous, node, context, stride)| {
            let ty = MessageType::ALL[t];
            let mut h = Head::new(dx, dy, ty);
            // Only the fields of the type are carried.
            match ty {
                MessageType::Thread => {}
                MessageType::Data => h.rendezvous = rendezvous,
                MessageType::Rts => {
                    h.node = node;
                    h.context = context;
                }
                MessageType::Cts => h.context = context,
                MessageType::DataOrig => h.stride = stride,
            }
            h
        })
}

proptest! {
    #[test]
    fn head_decode_inverts_encode(head in head_strategy()) {
        prop_assert_eq!(Head::decode(head.encode()), Some(head));
    }

    #[test]
    fn flit_bits_round_trip(bits in 0u64..(1 << 34)) {
        prop_assert_eq!(Flit::from_bits(bits).bits(), bits);
    }
}
