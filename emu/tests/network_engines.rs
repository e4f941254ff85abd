//! The differential test of the two router cores (`sim.network_engine`):
//! random `scmp noc` configurations (mesh, VCs, buffer depth, the five
//! delays, both allocators, packet size, pattern, load up to past
//! saturation) run on the reference and on the fast core must give the
//! same figures, counters and trace, event for event. The raw network with
//! several VC classes and every visiting order is compared in
//! `network.rs`, programs in `tests/messaging_props.rs` and
//! `scmp test --cross-check` (every program and stressmark).
//!
//! `SCMP_ENGINE_DIFF_CASES` sets the number of random configurations
//! (default 150, a few seconds).

use emu::config::{AllocatorKind, Config, NetworkConfig, NetworkEngine};
use emu::network::NetEvent;
use emu::noc::{NocResult, Pattern, Traffic, run};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A run's figures without the host's time, its trace lines, or its stall
/// report.
fn run_on(config: &NetworkConfig, engine: NetworkEngine, t: &Traffic) -> (String, Vec<String>) {
    let mut lines = Vec::new();
    let mut sink = |e: &NetEvent| lines.push(e.line());
    let figures = match run(config, engine, t, Some(&mut sink)) {
        Ok(r) => format!(
            "{:?}",
            NocResult {
                wall_seconds: 0.0,
                cycles_per_second: 0.0,
                ..r
            }
        ),
        Err(report) => format!("stalled: {report}"),
    };
    (figures, lines)
}

fn random_case(rng: &mut Pcg64Mcg) -> (NetworkConfig, Traffic) {
    let mut c = Config::default().network;
    c.num_vcs = rng.random_range(1..=6);
    c.vc_buf_size = rng.random_range(1..=8);
    c.routing_delay = rng.random_range(0..=2);
    c.vc_alloc_delay = rng.random_range(0..=2);
    c.sw_alloc_delay = rng.random_range(0..=2);
    c.st_final_delay = rng.random_range(0..=2);
    c.credit_delay = rng.random_range(1..=2);
    c.link_delay = rng.random_range(1..=2);
    let kind = |b: bool| {
        if b {
            AllocatorKind::SeparableInputFirst
        } else {
            AllocatorKind::SeparableOutputFirst
        }
    };
    c.vc_allocator = kind(rng.random_bool(0.5));
    c.sw_allocator = kind(rng.random_bool(0.5));
    let (width, height): (u32, u32) = (rng.random_range(1..=6), rng.random_range(1..=6));
    let square = width == height && width.is_power_of_two();
    let pattern = loop {
        let p = match rng.random_range(0..6) {
            0 | 1 => Pattern::Uniform,
            2 => Pattern::Neighbor,
            3 => Pattern::Tornado,
            4 if square => Pattern::Transpose,
            5 if square => Pattern::BitComplement,
            _ => continue,
        };
        if p.check(width, height).is_ok() {
            break p;
        }
    };
    let t = Traffic {
        width,
        height,
        pattern,
        // From nearly idle to past saturation.
        rate: [0.01, 0.05, 0.1, 0.2, 0.35, 0.6, 0.9][rng.random_range(0..7)],
        packet_size: rng.random_range(2..=9),
        warmup: 100,
        cycles: 600,
        drain: 1500,
        seed: rng.random(),
    };
    (c, t)
}

#[test]
fn both_engines_give_the_same_runs_under_random_traffic() {
    let cases: usize = std::env::var("SCMP_ENGINE_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let mut rng = Pcg64Mcg::seed_from_u64(29);
    let mut events = 0;
    for case in 0..cases {
        let (config, traffic) = random_case(&mut rng);
        let (a, ta) = run_on(&config, NetworkEngine::Reference, &traffic);
        let (b, tb) = run_on(&config, NetworkEngine::Fast, &traffic);
        let what = format!("case {case}: {config:?} {traffic:?}");
        assert_eq!(a, b, "{what}");
        assert_eq!(ta.len(), tb.len(), "{what}");
        if let Some(k) = (0..ta.len()).find(|&k| ta[k] != tb[k]) {
            panic!(
                "{what}: trace line {k} differs:\n  reference {}\n  fast      {}",
                ta[k], tb[k]
            );
        }
        events += ta.len();
    }
    // The cases did move flits (a test of nothing would pass too).
    assert!(
        events > cases * 100,
        "{events} trace events in {cases} cases"
    );
}

/// The configuration of the validation figures (docs/network.md), 8x8
/// under uniform traffic at three loads, the full trace compared.
#[test]
fn both_engines_agree_on_the_validation_configuration() {
    let mut b = emu::config::ConfigBuilder::new();
    for key in [
        "network.num_vcs=4",
        "network.routing_delay=1",
        "network.vc_alloc_delay=1",
        "network.sw_alloc_delay=1",
    ] {
        b.set(key).unwrap();
    }
    let config = b.build().unwrap().network;
    for rate in [0.05, 0.2, 0.45] {
        let t = Traffic {
            width: 8,
            height: 8,
            pattern: Pattern::Uniform,
            rate,
            packet_size: 4,
            warmup: 500,
            cycles: 2000,
            drain: 5000,
            seed: 1,
        };
        let a = run_on(&config, NetworkEngine::Reference, &t);
        let b = run_on(&config, NetworkEngine::Fast, &t);
        assert_eq!(a.0, b.0, "rate {rate}");
        assert!(a.1 == b.1, "rate {rate}: the traces differ");
    }
}
