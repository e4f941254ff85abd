//! Simulation speed with messaging: simulated tile-instructions per second
//! on the 8x8 mesh for (a) `programs/ring.s`, every tile computing about
//! 3,000 instructions between Rendezvous exchanges with its ring
//! neighbours, and (b) `programs/pingpong.s`, tiles 0 and 1 passing a word
//! back and forth while the other 62 compute, each next to the
//! compute-only figure of the same work measured in the same run
//! (`ring.s` with `MESSAGES=0`: every tile runs the same loop without the
//! exchanges). Medians of several runs, per wall second and per CPU second
//! of the thread (the host is shared), and the ratio messaging/compute.
//! `SCMP_DEBUG_TIME=1` adds the synchronization figures of each run (rounds
//! of the global loop, rollbacks of optimistic runs) on stderr.
//!
//! `SCMP_BENCH_RUNS=5 cargo bench -p emu --bench messaging`; environment:
//! `SCMP_BENCH_RUNS` (default 5), `SCMP_BENCH_ROUNDS` (ring rounds,
//! default 200).

mod common;

use std::time::Instant;

use common::{env_or, median, thread_cpu_seconds};

use emu::{CapturedConsole, ConfigBuilder, Program, RunEnd, RunOptions, RunResult};

fn assemble(name: &str, defsyms: &[(&str, i64)]) -> Program {
    let path = format!("{}/benches/programs/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the bench program exists");
    let options = asm::Options {
        defsyms: defsyms.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..asm::Options::default()
    };
    let out = asm::assemble_sources(&[(path, text)], &options)
        .unwrap_or_else(|d| panic!("{name} does not assemble: {d}"));
    Program::from_elf(&out.elf).expect("the bench program loads")
}

struct Figures {
    wall: f64,
    cpu: f64,
    last: RunResult,
}

fn measure(program: &Program, runs: usize) -> Figures {
    let mut b = ConfigBuilder::new();
    b.set("boot.tiles=all").unwrap();
    let config = b.build().unwrap();
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..runs {
        let mut console = CapturedConsole::default();
        let c0 = thread_cpu_seconds();
        let t0 = Instant::now();
        let r = emu::run(&config, program, RunOptions::default(), &mut console).expect("runs");
        let secs = t0.elapsed().as_secs_f64();
        assert!(matches!(r.end, RunEnd::AllThreadsEnded), "{:?}", r.end);
        let instructions = r.stats.instructions as f64;
        wall.push(instructions / secs);
        if let (Some(a), Some(b)) = (c0, thread_cpu_seconds()) {
            cpu.push(instructions / (b - a));
        }
        last = Some(r);
    }
    Figures {
        wall: median(wall),
        cpu: if cpu.is_empty() {
            f64::NAN
        } else {
            median(cpu)
        },
        last: last.unwrap(),
    }
}

fn main() {
    let runs: usize = env_or("SCMP_BENCH_RUNS", 5);
    let rounds: i64 = env_or("SCMP_BENCH_ROUNDS", 200);
    let compute = assemble("ring.s", &[("ROUNDS", rounds), ("MESSAGES", 0)]);
    let ring = assemble("ring.s", &[("ROUNDS", rounds), ("MESSAGES", 1)]);
    let pingpong = assemble("pingpong.s", &[]);
    println!("8x8 mesh, modified NIU, medians of {runs} runs (M tile-instructions/s)");
    println!(
        "{:<28} {:>12} {:>10} {:>10} {:>14}",
        "case", "instructions", "wall", "CPU", "CPU vs compute"
    );
    let base = measure(&compute, runs);
    let print = |name: &str, f: &Figures| {
        println!(
            "{:<28} {:>12} {:>10.1} {:>10.1} {:>13.0}%",
            name,
            f.last.stats.instructions,
            f.wall / 1e6,
            f.cpu / 1e6,
            100.0 * f.cpu / base.cpu
        );
        let net = &f.last.stats.network;
        println!(
            "{:<28} cycles {}, messages {}, flits {}",
            "", f.last.stats.total_cycles, net.messages, net.flits
        );
    };
    print("compute only (ring.s, 0)", &base);
    print("ring exchange (ring.s)", &measure(&ring, runs));
    print("ping-pong (pingpong.s)", &measure(&pingpong, runs));
}
