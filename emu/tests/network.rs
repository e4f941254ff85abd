//! The network under random traffic: every flit arrives exactly once, in
//! order within its packet, with its payload, the network drains, and
//! neither the order in which routers are visited nor the router core
//! (`sim.network_engine`) changes anything.

use std::collections::VecDeque;

use emu::config::{AllocatorKind, Config, NetworkConfig, NetworkEngine};
use emu::network::flit::NetFlit;
use emu::network::{NetEvent, Network, PacketInfo, VisitOrder};
use isa_spec::msg::{Flit, FlitKind, Head, MessageType};
use proptest::prelude::*;

/// A packet to send: source, destination, class, length, cycle it is
/// offered for injection.
#[derive(Clone, Debug)]
struct Offer {
    src: u32,
    dst: u32,
    class: u8,
    len: u16,
    at: u64,
}

/// What arrived: per offer index, the flits in arrival order.
type Arrivals = Vec<Vec<Flit>>;

fn flit_of(offer: &Offer, index: usize, seq: u16, width: u32) -> Flit {
    if seq == 0 {
        let dx = (offer.dst % width) as i32 - (offer.src % width) as i32;
        let dy = (offer.dst / width) as i32 - (offer.src / width) as i32;
        return Flit::new(
            FlitKind::Head,
            Head::new(dx as i8, dy as i8, MessageType::Thread).encode(),
        );
    }
    let kind = if seq + 1 == offer.len {
        FlitKind::Tail
    } else {
        FlitKind::Body
    };
    Flit::new(kind, ((index as u32) << 12) | seq as u32)
}

/// Runs the offers to completion; returns arrivals, the cycle the network
/// drained, and the trace.
fn drive(
    config: &NetworkConfig,
    width: u32,
    height: u32,
    classes: usize,
    offers: &[Offer],
    order: VisitOrder,
) -> (Arrivals, u64, Vec<NetEvent>) {
    drive_on(
        config,
        width,
        height,
        classes,
        offers,
        order,
        NetworkEngine::Reference,
    )
    .0
}

/// [`drive`] on `engine`; also gives the counters and the mean buffer
/// occupancy at the end.
fn drive_on(
    config: &NetworkConfig,
    width: u32,
    height: u32,
    classes: usize,
    offers: &[Offer],
    order: VisitOrder,
    engine: NetworkEngine,
) -> ((Arrivals, u64, Vec<NetEvent>), String) {
    let mut net = Network::new(width, height, config, classes, engine);
    net.set_visit_order(order);
    net.enable_trace();
    let nodes = (width * height) as usize;
    let mut queues: Vec<VecDeque<usize>> = vec![VecDeque::new(); nodes];
    // Per node: (offer, packet id, vc, next seq) being injected.
    let mut current: Vec<Option<(usize, u32, u8, u16)>> = vec![None; nodes];
    let mut pending: Vec<usize> = (0..offers.len()).collect();
    pending.sort_by_key(|&i| offers[i].at);
    let mut next_offer = 0;
    let mut arrivals: Arrivals = vec![Vec::new(); offers.len()];
    let mut trace = Vec::new();
    let mut delivered = 0;
    let total: usize = offers.iter().map(|o| o.len as usize).sum();
    let mut now = 0;
    loop {
        net.step(now);
        while next_offer < pending.len() && offers[pending[next_offer]].at <= now {
            let i = pending[next_offer];
            queues[offers[i].src as usize].push_back(i);
            next_offer += 1;
        }
        for node in 0..nodes as u32 {
            for vc in 0..net.vcs() as u8 {
                while let Some(f) = net.peek_ejected(node, vc).copied() {
                    let info = *net.packet(f.packet);
                    assert_eq!(info.dst, node, "a flit arrived at the wrong node");
                    arrivals[info.tag as usize].push(f.flit);
                    net.take_ejected(node, vc, now);
                    delivered += 1;
                }
            }
            let n = node as usize;
            if current[n].is_none()
                && let Some(&i) = queues[n].front()
            {
                let o = &offers[i];
                if let Some(vc) = net.free_injection_vc(node, o.class) {
                    queues[n].pop_front();
                    let id = net.new_packet(PacketInfo {
                        src: o.src,
                        dst: o.dst,
                        class: o.class,
                        len: o.len,
                        injected: now,
                        tail_injected: 0,
                        flow: 0,
                        tag: i as u64,
                    });
                    current[n] = Some((i, id, vc, 0));
                }
            }
            if let Some((i, id, vc, seq)) = current[n]
                && net.can_inject(node, vc)
            {
                let flit = flit_of(&offers[i], i, seq, width);
                net.inject(node, vc, NetFlit::new(flit, id, seq), now);
                current[n] = (seq + 1 < offers[i].len).then_some((i, id, vc, seq + 1));
            }
        }
        trace.extend(net.take_trace());
        assert!(!net.is_stalled(now), "stalled:\n{}", net.stall_report());
        if delivered == total && next_offer == pending.len() {
            assert_eq!(net.in_flight(), 0);
            // The last credits are on their way back.
            while let Some(at) = net.next_work() {
                assert!(at > now && at <= now + 64, "a credit far in the future");
                net.step(at);
            }
            net.check_at_rest().unwrap();
            let end = format!("{:?} {}", net.counters(), net.mean_buffered_flits(now + 1));
            return ((arrivals, now, trace), end);
        }
        now += 1;
        assert!(now < 1_000_000, "did not drain");
    }
}

fn check_arrivals(offers: &[Offer], arrivals: &Arrivals, width: u32) {
    for (i, o) in offers.iter().enumerate() {
        let got = &arrivals[i];
        assert_eq!(
            got.len(),
            o.len as usize,
            "packet {i} lost or duplicated flits"
        );
        // The head arrives with its offsets counted down to zero, its type intact.
        let head = Head::decode(got[0].payload).expect("a head");
        assert!(got[0].head && !got[0].tail);
        assert_eq!((head.dx, head.dy, head.ty), (0, 0, MessageType::Thread));
        for (seq, f) in got.iter().enumerate().skip(1) {
            assert_eq!(
                *f,
                flit_of(o, i, seq as u16, width),
                "packet {i} flit {seq}"
            );
        }
    }
}

fn offers_strategy() -> impl Strategy<Value = (u32, u32, usize, Vec<Offer>)> {
    (1u32..=5, 1u32..=5, 1usize..=4).prop_flat_map(|(w, h, classes)| {
        let nodes = w * h;
        let offer = (0..nodes, 0..nodes, 0..classes as u8, 2u16..=9, 0u64..200).prop_map(
            |(src, dst, class, len, at)| Offer {
                src,
                dst,
                class,
                len,
                at,
            },
        );
        (
            Just(w),
            Just(h),
            Just(classes),
            prop::collection::vec(offer, 1..120),
        )
    })
}

fn small_config(num_vcs: u32, buf: u32, delays: [u32; 4]) -> NetworkConfig {
    let mut c = Config::default().network;
    c.num_vcs = num_vcs;
    c.vc_buf_size = buf;
    c.routing_delay = delays[0];
    c.vc_alloc_delay = delays[1];
    c.sw_alloc_delay = delays[2];
    c.st_final_delay = delays[3];
    c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_flit_arrives_once_in_order(
        (w, h, classes, offers) in offers_strategy(),
        num_vcs in 1u32..=3,
        buf in 1u32..=5,
        delays in prop::array::uniform4(0u32..=2),
    ) {
        let config = small_config(num_vcs, buf, delays);
        let (arrivals, _, _) = drive(&config, w, h, classes, &offers, VisitOrder::Ascending);
        check_arrivals(&offers, &arrivals, w);
    }

    #[test]
    fn visiting_order_changes_nothing(
        (w, h, classes, offers) in offers_strategy(),
        seed in any::<u64>(),
    ) {
        let config = small_config(2, 2, [1, 1, 1, 1]);
        let a = drive(&config, w, h, classes, &offers, VisitOrder::Ascending);
        let d = drive(&config, w, h, classes, &offers, VisitOrder::Descending);
        let s = drive(&config, w, h, classes, &offers, VisitOrder::Shuffled(seed));
        prop_assert_eq!(&a.0, &d.0);
        prop_assert_eq!(a.1, d.1);
        prop_assert_eq!(&a.2, &d.2);
        prop_assert_eq!(&a.0, &s.0);
        prop_assert_eq!(a.1, s.1);
        prop_assert_eq!(&a.2, &s.2);
    }

    /// The fast core gives the reference's arrivals, trace, counters and
    /// occupancy, with several VC classes, both allocators, any delays and
    /// any visiting order.
    #[test]
    fn both_engines_agree(
        (w, h, classes, offers) in offers_strategy(),
        num_vcs in 1u32..=3,
        buf in 1u32..=5,
        delays in prop::array::uniform4(0u32..=2),
        input_first in any::<(bool, bool)>(),
        seed in any::<u64>(),
    ) {
        let mut config = small_config(num_vcs, buf, delays);
        let kind = |b| if b {
            AllocatorKind::SeparableInputFirst
        } else {
            AllocatorKind::SeparableOutputFirst
        };
        config.vc_allocator = kind(input_first.0);
        config.sw_allocator = kind(input_first.1);
        let order = match seed % 3 {
            0 => VisitOrder::Ascending,
            1 => VisitOrder::Descending,
            _ => VisitOrder::Shuffled(seed),
        };
        let run = |engine| drive_on(&config, w, h, classes, &offers, order, engine);
        let (a, a_end) = run(NetworkEngine::Reference);
        let (f, f_end) = run(NetworkEngine::Fast);
        prop_assert_eq!(&a.0, &f.0);
        prop_assert_eq!(a.1, f.1);
        prop_assert_eq!(&a.2, &f.2);
        prop_assert_eq!(a_end, f_end);
    }
}
