//! The cost of energy accounting (`energy.enabled`: tiles count their
//! instructions by timing class; docs/energy.md): paired runs of the same
//! program with it off and on, alternating, per CPU second of the thread,
//! medians, and the ratio on/off. The cases: `ring.s` without messages (64
//! tiles computing: the fast loop's cost), `ring.s` with its Rendezvous
//! exchanges (optimistic runs, whose counts stay pending until confirmed),
//! and `pingpong.s`. With it off the handlers are those of before (a
//! separate table, chosen once per call of the loop); what remains is the
//! network's switch counter and the end-of-run arithmetic.
//!
//! `SCMP_BENCH_RUNS=9 cargo bench -p emu --bench energy`; environment:
//! `SCMP_BENCH_RUNS` (pairs, default 5), `SCMP_BENCH_ROUNDS` (ring rounds,
//! default 200), `SCMP_BENCH_ONLY` (`off` or `on`: one run of each case
//! with counting off or on, nothing printed but the instructions: for
//! `valgrind --tool=callgrind`, whose instruction counts are the steady
//! figure on a shared host; `SCMP_BENCH_CASE=0`, `1` or `2` runs one case).
//!
//! Measured (2-core shared VM; callgrind instruction counts of the whole
//! process, nothing subtracted: `SCMP_BENCH_ROUNDS=20 SCMP_BENCH_CASE=c
//! SCMP_BENCH_ONLY=off|on valgrind --tool=callgrind
//! target/release/deps/energy-*`): compute only 70.45 M off, 74.53 M on
//! (+5.8%; of it 1.0 M sizing the link's wire, once per process); ring
//! exchange 122.13 M, 126.61 M (+3.7%); ping-pong 195.54 M, 202.05 M
//! (+3.3%). Paired wall-clock medians of 9 (`SCMP_BENCH_RUNS=9`, 200
//! rounds) swing by several percent on this host: two runs of the bench
//! gave 1.005x and 1.057x, 1.047x and 1.018x, 1.043x and 0.949x.
//! With counting off the loop runs the handlers of before; the end-of-run
//! energy is computed only when on.

mod common;

use common::{env_or, median, thread_cpu_seconds};

use emu::{CapturedConsole, Config, ConfigBuilder, Program, RunEnd, RunOptions};

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

/// CPU seconds of one run, and its instructions.
fn one(config: &Config, program: &Program) -> (f64, u64) {
    let mut console = CapturedConsole::default();
    let c0 = thread_cpu_seconds().expect("Linux schedstat");
    let r = emu::run(config, program, RunOptions::default(), &mut console).expect("runs");
    let c1 = thread_cpu_seconds().expect("Linux schedstat");
    assert!(matches!(r.end, RunEnd::AllThreadsEnded), "{:?}", r.end);
    if config.energy.enabled {
        let e = r.stats.energy.as_ref().expect("energy");
        let counted: u64 = e
            .instructions_by_class
            .as_ref()
            .expect("counts")
            .values()
            .sum();
        assert_eq!(counted, r.stats.instructions);
    }
    (c1 - c0, r.stats.instructions)
}

fn main() {
    let runs: usize = env_or("SCMP_BENCH_RUNS", 5);
    let rounds: i64 = env_or("SCMP_BENCH_ROUNDS", 200);
    let mut b = ConfigBuilder::new();
    b.set("boot.tiles=all").unwrap();
    let off = b.build().unwrap();
    let mut on = off.clone();
    on.energy.enabled = true;
    let cases = [
        (
            "compute only (ring.s, 0)",
            assemble("ring.s", &[("ROUNDS", rounds), ("MESSAGES", 0)]),
        ),
        (
            "ring exchange (ring.s)",
            assemble("ring.s", &[("ROUNDS", rounds), ("MESSAGES", 1)]),
        ),
        ("ping-pong (pingpong.s)", assemble("pingpong.s", &[])),
    ];
    if let Ok(only) = std::env::var("SCMP_BENCH_ONLY") {
        let config = if only == "on" { &on } else { &off };
        let case = std::env::var("SCMP_BENCH_CASE").ok();
        for (i, (name, program)) in cases.iter().enumerate() {
            if case.as_ref().is_some_and(|c| *c != i.to_string()) {
                continue;
            }
            let (_, n) = one(config, program);
            println!("{name}: {n} tile-instructions, counting {only}");
        }
        return;
    }
    println!(
        "8x8 mesh, modified NIU, {runs} pairs of runs, medians (M tile-instructions per CPU second)"
    );
    println!("{:<28} {:>10} {:>10} {:>10}", "case", "off", "on", "on/off");
    for (name, program) in &cases {
        let (mut a, mut b, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let (t_off, n) = one(&off, program);
            let (t_on, _) = one(&on, program);
            a.push(n as f64 / t_off);
            b.push(n as f64 / t_on);
            ratio.push(t_on / t_off);
        }
        println!(
            "{:<28} {:>10.1} {:>10.1} {:>9.3}x",
            name,
            median(a) / 1e6,
            median(b) / 1e6,
            median(ratio)
        );
    }
}
