//! `scmp noc` runs checked against the router's stage model: zero-load
//! latency, determinism, and the flit trace of a small run.

use std::collections::HashMap;

use emu::config::{Config, NetworkConfig, NetworkEngine};
use emu::network::{NetEvent, NetEventKind};
use emu::noc::{NocResult, Pattern, Traffic, run};

fn traffic(pattern: Pattern, w: u32, h: u32, rate: f64, packet_size: u32) -> Traffic {
    Traffic {
        width: w,
        height: h,
        pattern,
        rate,
        packet_size,
        warmup: 1000,
        cycles: 20_000,
        drain: 10_000,
        seed: 7,
    }
}

fn network(delays: [u32; 5]) -> NetworkConfig {
    let mut c = Config::default().network;
    [
        c.routing_delay,
        c.vc_alloc_delay,
        c.sw_alloc_delay,
        c.st_final_delay,
        c.link_delay,
    ] = delays;
    c
}

/// Without contention a packet of `p` flits over `hops` routers takes the
/// injection link, then per router its pipeline (routing, VC and switch
/// allocation, switch traversal) and the link after it (the last one is the
/// ejection link), then its other flits one a cycle, plus the cycle in which
/// the terminal takes the tail.
fn zero_load(delays: [u32; 5], hops: f64, p: u32) -> f64 {
    let link = delays[4] as f64;
    link + hops * delays.iter().sum::<u32>() as f64 + (p - 1) as f64 + 1.0
}

#[test]
fn zero_load_latency_follows_the_stage_model() {
    // Bit-complement on 4x4 sends over 2, 4 or 6 links: three exact latencies.
    // Packets up to a VC buffer long (4 flits) never wait for a credit;
    // longer ones need deeper buffers.
    for delays in [
        [0, 0, 0, 1, 1],
        [1, 1, 1, 1, 1],
        [2, 0, 1, 1, 2],
        [0, 1, 0, 2, 1],
    ] {
        for (p, buffer) in [(2, 4), (4, 4), (7, 16)] {
            let config = NetworkConfig {
                vc_buf_size: buffer,
                ..network(delays)
            };
            let r = run(
                &config,
                NetworkEngine::Reference,
                &traffic(Pattern::BitComplement, 4, 4, 0.001, p),
                None,
            )
            .unwrap();
            let what = format!("delays {delays:?}, {p}-flit packets");
            assert!(r.packets_arrived > 30, "{what}: too few packets");
            assert_eq!(r.packet_latency.min, zero_load(delays, 3.0, p), "{what}");
            assert_eq!(r.packet_latency.max, zero_load(delays, 7.0, p), "{what}");
            let mean = zero_load(delays, r.hops, p);
            assert!((r.packet_latency.avg - mean).abs() < 1e-9, "{what}");
            assert!(!r.saturated);
        }
    }
}

fn without_host_time(mut r: NocResult) -> NocResult {
    r.wall_seconds = 0.0;
    r.cycles_per_second = 0.0;
    r
}

#[test]
fn same_seed_same_figures() {
    let config = Config::default().network;
    let t = traffic(Pattern::Uniform, 4, 4, 0.3, 4);
    let a = without_host_time(run(&config, NetworkEngine::Reference, &t, None).unwrap());
    let b = without_host_time(run(&config, NetworkEngine::Reference, &t, None).unwrap());
    assert_eq!(a, b);
    let other = without_host_time(
        run(
            &config,
            NetworkEngine::Reference,
            &Traffic { seed: 8, ..t },
            None,
        )
        .unwrap(),
    );
    assert_ne!(a.packet_latency, other.packet_latency);
    // Loaded but below saturation: queues make latency exceed zero load.
    assert!(a.packet_latency.avg > zero_load([0, 0, 0, 1, 1], a.hops, 4));
    assert!((a.accepted_flit_rate - 0.3).abs() < 0.02, "{a:?}");
}

/// The 7-flit packets of the test above do wait for credits with 4-flit
/// buffers, so latency exceeds the stage model.
#[test]
fn shallow_buffers_stall_long_packets() {
    let r = run(
        &network([1, 1, 1, 1, 1]),
        NetworkEngine::Reference,
        &traffic(Pattern::BitComplement, 4, 4, 0.001, 7),
        None,
    )
    .unwrap();
    assert!(r.packet_latency.min > zero_load([1, 1, 1, 1, 1], 3.0, 7));
}

fn manhattan(a: u32, b: u32, w: u32) -> u32 {
    (a % w).abs_diff(b % w) + (a / w).abs_diff(b / w)
}

#[test]
fn trace_of_a_small_run() {
    let config = Config::default().network;
    let t = Traffic {
        warmup: 0,
        cycles: 40,
        drain: 1000,
        seed: 3,
        ..traffic(Pattern::Uniform, 3, 3, 0.1, 3)
    };
    let mut events: Vec<NetEvent> = Vec::new();
    let mut sink = |e: &NetEvent| events.push(*e);
    let r = run(&config, NetworkEngine::Reference, &t, Some(&mut sink)).unwrap();
    assert!(r.packets_arrived > 5);

    // Each flit is injected once at its source, goes through every router
    // on its path once, one router after another in cycle order, and is
    // ejected once at its destination.
    let mut in_flight: HashMap<(u32, u16), (u64, u32)> = HashMap::new();
    let mut injected_at: HashMap<(u32, u16), u64> = HashMap::new();
    let (mut injected, mut ejected) = (0, 0);
    let mut last_cycle = 0;
    for e in &events {
        assert!(e.cycle >= last_cycle, "trace out of cycle order: {e:?}");
        last_cycle = e.cycle;
        let flit = (e.packet, e.seq);
        match e.kind {
            NetEventKind::Injected { .. } => {
                assert_eq!(e.node, e.src);
                assert!(in_flight.insert(flit, (e.cycle, 0)).is_none(), "{e:?}");
                injected_at.insert(flit, e.cycle);
                injected += 1;
            }
            NetEventKind::Forwarded { .. } => {
                let (cycle, routers) = in_flight.get_mut(&flit).expect("injected");
                assert!(e.cycle > *cycle, "{e:?}");
                assert_eq!(
                    manhattan(e.src, e.node, 3),
                    *routers,
                    "router {} is not the next on the path: {e:?}",
                    e.node
                );
                *cycle = e.cycle;
                *routers += 1;
            }
            NetEventKind::Ejected { .. } => {
                assert_eq!(e.node, e.dst);
                let (_, routers) = in_flight.remove(&flit).expect("injected");
                assert_eq!(routers, manhattan(e.src, e.dst, 3) + 1, "{e:?}");
                ejected += 1;
            }
        }
    }
    // The run stops once every packet created during measurement has
    // arrived; only later ones may still be on their way.
    for flit in in_flight.keys() {
        assert!(injected_at[flit] >= t.warmup + t.cycles, "{flit:?} lost");
    }
    assert_eq!(ejected + in_flight.len(), injected);
    assert!(ejected as u64 >= r.packets_arrived * 3);
    let text: Vec<String> = events.iter().map(NetEvent::line).collect();
    insta::assert_snapshot!(text.join("\n"));
}

/// The largest mesh (64x64, `isa_spec::msg::MAX_MESH_DIM`): bit complement
/// sends from (x, y) to (63 - x, 63 - y), up to 126 hops with offsets of
/// ±63 in both dimensions. At a rate this low no two packets meet, so every
/// one takes exactly the stage model's time, on both engines alike.
#[test]
fn the_largest_mesh_routes_at_zero_load() {
    let delays = [1, 1, 1, 1, 1];
    let t = Traffic {
        warmup: 0,
        cycles: 300,
        drain: 3000,
        ..traffic(Pattern::BitComplement, 64, 64, 0.0002, 4)
    };
    let mut results = Vec::new();
    for engine in [NetworkEngine::Reference, NetworkEngine::Fast] {
        let r = run(&network(delays), engine, &t, None).unwrap();
        assert!(r.packets_arrived > 30, "{engine:?}: too few packets");
        assert!(r.hops > 40.0, "{engine:?}: {} hops on average", r.hops);
        assert!(r.packet_latency.max > zero_load(delays, 100.0, 4));
        let mean = zero_load(delays, r.hops, 4);
        assert!((r.packet_latency.avg - mean).abs() < 1e-9, "{engine:?}");
        results.push(without_host_time(r));
    }
    assert_eq!(results[0], results[1], "the engines differ");
}
