//! Network speed: simulated cycles per second of `scmp noc` on the 8x8 mesh
//! under uniform random traffic at 0.05, 0.1 and 0.2 flits/node/cycle, with
//! the BookSim2 reference configuration (iq router, DOR, 4 VCs of 4 flits,
//! 4-flit packets, every delay 1). Prints the median of several runs per
//! wall second and per CPU second of the thread (the host is shared).
//!
//! `SCMP_BENCH_RUNS=5 cargo bench -p emu --bench noc`; environment:
//! `SCMP_BENCH_RUNS` (default 5), `SCMP_NOC_CYCLES` (measured cycles per
//! run, default 50,000 after 10,000 of warm-up).

mod common;

use std::time::Instant;

use common::{env_or, median, thread_cpu_seconds};

use emu::ConfigBuilder;
use emu::noc::{Pattern, Traffic};

fn main() {
    let runs: usize = env_or("SCMP_BENCH_RUNS", 5);
    let cycles: u64 = env_or("SCMP_NOC_CYCLES", 50_000);
    let mut b = ConfigBuilder::new();
    for key in [
        "network.num_vcs=4",
        "network.vc_buf_size=4",
        "network.routing_delay=1",
        "network.vc_alloc_delay=1",
        "network.sw_alloc_delay=1",
        "network.st_final_delay=1",
        "network.credit_delay=1",
    ] {
        b.set(key).unwrap();
    }
    let built = b.build().unwrap();
    let (config, engine) = (built.network, built.sim.network_engine);
    for rate in [0.05, 0.1, 0.2] {
        let traffic = Traffic {
            width: 8,
            height: 8,
            pattern: Pattern::Uniform,
            rate,
            packet_size: 4,
            warmup: 10_000,
            cycles,
            drain: 50_000,
            seed: 1,
        };
        let (mut wall, mut cpu) = (Vec::new(), Vec::new());
        let mut latency = 0.0;
        for _ in 0..runs {
            let c0 = thread_cpu_seconds();
            let t0 = Instant::now();
            let r = emu::noc::run(&config, engine, &traffic, None).expect("no stall");
            let w = t0.elapsed().as_secs_f64();
            wall.push(r.cycles as f64 / w);
            if let (Some(a), Some(b)) = (c0, thread_cpu_seconds()) {
                cpu.push(r.cycles as f64 / (b - a));
            }
            latency = r.packet_latency.avg;
        }
        print!(
            "8x8 uniform {rate:.2} flits/node/cycle: {:.0} cycles per wall second",
            median(wall)
        );
        if !cpu.is_empty() {
            print!(", {:.0} per CPU second", median(cpu));
        }
        println!(" (median of {runs}; packet latency {latency:.2})");
    }
}
