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
    // dx = -1 (0x7f), dy = 2, RTS (code 01) from node 0xabc, context 9.
    let head = Head {
        node: 0xabc,
        context: 9,
        ..Head::new(-1, 2, MessageType::Rts)
    };
    let p = head.encode();
    assert_eq!(p >> 25, 0x7f);
    assert_eq!((p >> 18) & 0x7f, 2);
    assert_eq!((p >> 16) & 3, 0b01);
    assert_eq!((p >> 4) & 0xfff, 0xabc);
    assert_eq!(p & 0xf, 9);
    assert_eq!(
        Head::new(63, -63, MessageType::Thread).encode(),
        (63 << 25) | (0x41 << 18) | (0b0001 << 14)
    );
    let data = Head {
        rendezvous: true,
        ..Head::new(31, -31, MessageType::Data)
    };
    assert_eq!(
        (data.encode() >> 14) & 0xf,
        0b0011,
        "code 001, then the mode bit"
    );
    let cts = Head {
        context: 15,
        ..Head::new(0, 0, MessageType::Cts)
    };
    assert_eq!(cts.encode(), (0b00001 << 13) | 15);
    let orig = Head {
        stride: MAX_STRIDE,
        ..Head::new(0, 0, MessageType::DataOrig)
    };
    assert_eq!(orig.encode(), (1 << 17) | MAX_STRIDE);
    assert_eq!(MAX_STRIDE, (1 << 17) - 1);
    assert_eq!(
        Head::decode(0xfe00_0000 | 0x1fff),
        None,
        "type code 00000 is no message type"
    );
    assert_eq!((MAX_MESH_DIM, MAX_OFFSET), (64, 63));
}

#[test]
fn stride_and_count_pack_into_one_register() {
    assert_eq!(pack_stride_count(3, 100), 0x0003_0064);
    assert_eq!(unpack_stride_count(0xffff_0001), (0xffff, 1));
}

fn head_strategy() -> impl Strategy<Value = Head> {
    (
        -MAX_OFFSET as i8..=MAX_OFFSET as i8,
        -MAX_OFFSET as i8..=MAX_OFFSET as i8,
        0usize..5,
        any::<bool>(),
        0u16..1 << NODE_BITS,
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
    fn every_payload_decodes_to_one_that_encodes_back(payload in any::<u32>()) {
        // The bits a head's type does not use are dropped; the rest come back.
        if let Some(head) = Head::decode(payload) {
            prop_assert_eq!(Head::decode(head.encode()), Some(head));
            let used = head.encode();
            prop_assert_eq!(payload & used, used);
        } else {
            prop_assert!(!head_has_type(payload));
        }
    }

    #[test]
    fn flit_bits_round_trip(bits in 0u64..(1 << 34)) {
        prop_assert_eq!(Flit::from_bits(bits).bits(), bits);
    }
}
