//! Simulation speed: simulated instructions per second of host time, for one
//! tile running a compute loop, for an 8x8 mesh whose 64 tiles all run it,
//! and for one tile running it on 16 contexts (a slice switch every 64
//! cycles). Prints the median of several runs (a benchmark, not a timed
//! test).
//!
//! `CARGO_TARGET_DIR=/work/target-emu SCMP_BENCH_RUNS=9 cargo bench -p emu
//! --bench throughput` (release profile). Environment: `SCMP_BENCH_RUNS`
//! (default 5), `SCMP_BENCH_ITERATIONS` (loop iterations of the single
//! tile, default 12_000_000; each mesh tile runs a 64th and each context a
//! 16th, so every case simulates about 100 M instructions),
//! `SCMP_BENCH_ONLY` (comma-separated cases among `1`, `64`, `16ctx`,
//! `guests`; all by default), e.g. for `valgrind --tool=callgrind` with
//! `SCMP_BENCH_RUNS=1 SCMP_BENCH_ITERATIONS=1000000 SCMP_BENCH_ONLY=1`.
//!
//! `guests`: gcc-built programs (the same integer loop, a C mix, its double
//! matrix product alone, `fadd.d`/`fmul.d`/`fmadd.d`/`fdiv.d` loops; sources
//! in `benches/guest/`) on one tile, side by side with libriscv and Spike
//! when `SCMP_BENCH_LIBRISCV` and `SCMP_BENCH_SPIKE` name their executables
//! (see `guest/mod.rs`).
//!
//! Measured on the 2-core development machine (Intel Xeon VM, other
//! sessions' builds running now and then), per CPU second, medians of 7:
//! 1 tile 711 to 865 M, 64 tiles 712 to 849 M, 16 contexts 592 to 627 M
//! (the same code measured 15% apart at different times of the session);
//! the code before issue 12 (main at 2f77417) in the same session: 619,
//! 620 and 533 M. callgrind (1M iterations): 17.0 host instructions per
//! simulated instruction in the fast loop for one tile (22.9 before),
//! 24.8 with 16 contexts for the whole process.
//!
//! `guests`, medians of 11 paired wall-clock runs, our speed over theirs
//! (libriscv's emulator with binary translation off, Spike), before issue
//! 12 -> after: integer loop 0.73 -> 0.81 of libriscv, 1.19 -> 1.48 of
//! Spike; C mix 0.34 -> 0.92 and 1.15 -> 3.0; its double matmul 0.10 ->
//! 1.02 and 1.07 -> 10.1; `fadd.d` 58 -> 1.9 ns per operation (libriscv
//! 1.5, Spike 34), `fmul.d` 56 -> 1.8 (1.5, 35), `fmadd.d` 64 -> 1.8 (4.1,
//! 39), `fdiv.d` 92 -> 2.1 (1.5, 32). Whole-process CPU time of the `scmp`
//! binary against libriscv's (`perf stat -r 5`) puts us closer: integer
//! loop 0.90 to 0.95, C mix 1.04 to 1.05. The fast loop is sensitive to
//! code placement: this bench's binary runs it 10-15% slower than the
//! `scmp` binary, and moving code between files moved the `scmp` figures
//! by as much; aligning branches (`RUSTFLAGS="-C
//! llvm-args=-x86-branches-within-32B-boundaries"`, the JCC-erratum
//! mitigation) made the `scmp` binary 8-15% faster on this Xeon, this
//! bench's binary no faster.
//!
//! What limits it now: per instruction, the fast loop (`emu::hart::fast`)
//! dispatches threaded (each handler ends with an indirect jump to the
//! next entry's handler, issue 18.1; before, one match in a loop) and reads
//! its operands from the register file in memory (dependent instructions
//! pay a store-to-load forwarding); cycles are charged per block and
//! common pairs are fused, so that part is small. Threaded dispatch cut
//! callgrind's count on the gcc guests by 19-25% (integer loop 3.29 G ->
//! 2.45 G host instructions, 12.4 per simulated instruction; C mix 5.42 G
//! -> 4.40 G). With many contexts, each slice costs about 300
//! host instructions of scheduling and loop entry and exit (about 5 per
//! instruction at quantum 64). FP arithmetic runs on the host FPU in the
//! common case (`emu::hart::hardfloat`); its cost is the FP register file in
//! memory and the range check on every result.

mod guest;

use std::time::Instant;

use emu::{ConfigBuilder, Program, RunEnd, RunOptions};
use isa_spec::{Inst, Opcode};

fn enc(op: Opcode, rd: u8, rs1: u8, rs2: u8, imm: i32) -> u32 {
    let mut i = Inst::with_defaults(op);
    i.rd = rd;
    i.rs1 = rs1;
    i.rs2 = rs2;
    i.imm = imm;
    i.encode().expect("the benchmark's instructions encode")
}

/// A compute loop of ALU, load, store and branch instructions, then `endt`.
fn compute_loop(iterations: u32) -> Program {
    const T0: u8 = 5;
    const T1: u8 = 6;
    const T2: u8 = 7;
    const T3: u8 = 28;
    const T4: u8 = 29;
    const T5: u8 = 30;
    const SP: u8 = 2;
    let hi = (iterations + 0x800) >> 12;
    let lo = iterations as i32 - (hi << 12) as i32;
    let words = [
        enc(Opcode::Lui, T5, 0, 0, hi as i32),
        enc(Opcode::Addi, T5, T5, 0, lo),
        // loop:
        enc(Opcode::Addi, T0, T0, 0, 1),
        enc(Opcode::Add, T1, T1, T0, 0),
        enc(Opcode::Xor, T2, T2, T1, 0),
        enc(Opcode::Slli, T3, T2, 0, 1),
        enc(Opcode::Sw, 0, SP, T3, -8),
        enc(Opcode::Lw, T4, SP, 0, -8),
        enc(Opcode::Add, T1, T1, T4, 0),
        enc(Opcode::Addi, T5, T5, 0, -1),
        enc(Opcode::Bne, 0, T5, 0, -32),
        enc(Opcode::Endt, 0, 0, 0, 0),
    ];
    Program::from_words(0x10000, &words)
}

/// CPU time of this thread in seconds (Linux schedstat, nanoseconds): the
/// host may be running other work, and the rate per CPU second is what a
/// core of this machine delivers.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn median(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn measure(label: &str, mesh: (u32, u32), threads: u32, iterations: u32, runs: usize) {
    let mut b = ConfigBuilder::new();
    b.set(&format!("mesh.width={}", mesh.0)).unwrap();
    b.set(&format!("mesh.height={}", mesh.1)).unwrap();
    b.set("boot.tiles=all").unwrap();
    b.set(&format!("boot.threads={threads}")).unwrap();
    let config = b.build().unwrap();
    let program = compute_loop(iterations);
    let mut wall_rates = Vec::new();
    let mut cpu_rates = Vec::new();
    let mut instructions = 0;
    for _ in 0..runs {
        let cpu_start = thread_cpu_seconds();
        let start = Instant::now();
        let result = emu::run(
            &config,
            &program,
            RunOptions::default(),
            &mut emu::NullConsole,
        )
        .expect("the program loads");
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(result.end, RunEnd::AllThreadsEnded);
        instructions = result.stats.instructions;
        wall_rates.push(instructions as f64 / seconds);
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_seconds()) {
            cpu_rates.push(instructions as f64 / (b - a));
        }
    }
    let (med, min, max) = median(wall_rates);
    println!(
        "{label}: {:.1} M simulated instructions per wall second (median of {runs}, min {:.1}, max {:.1}; {instructions} instructions per run)",
        med / 1e6,
        min / 1e6,
        max / 1e6
    );
    if !cpu_rates.is_empty() {
        let (med, min, max) = median(cpu_rates);
        println!(
            "{label}: {:.1} M simulated instructions per CPU second (median of {runs}, min {:.1}, max {:.1})",
            med / 1e6,
            min / 1e6,
            max / 1e6
        );
    }
}

fn main() {
    let runs = std::env::var("SCMP_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let iterations: u32 = std::env::var("SCMP_BENCH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12_000_000);
    let only = std::env::var("SCMP_BENCH_ONLY").unwrap_or_default();
    let wanted = |name: &str| only.is_empty() || only.split(',').any(|w| w == name);
    if wanted("1") {
        measure("1 tile (1x1)", (1, 1), 1, iterations, runs);
    }
    if wanted("64") {
        measure(
            "64 tiles (8x8), aggregate",
            (8, 8),
            1,
            iterations / 64,
            runs,
        );
    }
    if wanted("16ctx") {
        measure(
            "1 tile, 16 contexts (quantum 64)",
            (1, 1),
            16,
            iterations / 16,
            runs,
        );
    }
    if wanted("guests") {
        guest::compare(runs);
    }
}
