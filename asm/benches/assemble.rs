//! Assembler speed: a generated 200,000-line source, assembled to an ELF
//! executable in memory; median of several runs, in lines per second. When
//! GNU as (`riscv64-unknown-elf-as`) is installed, the same file through it
//! (to an object file, with process start-up), and the ratio.
//!
//! `cargo bench -p asm --bench assemble` (`SCMP_BENCH_RUNS` sets the runs).
//!
//! A plain harness rather than criterion: the figure wanted is one median per
//! tool measured in the same run, next to an external program's, which
//! criterion's statistics do not cover.

use std::fmt::Write;
use std::process::Command;
use std::time::{Duration, Instant};

const LINES: usize = 200_000;

/// A source with the mix of a real program: instructions of every kind,
/// pseudo-instructions, labels, branches, comments, data.
fn source() -> String {
    let regs = ["a0", "a1", "a2", "a3", "t0", "t1", "s0", "s1", "ra", "sp"];
    let mut seed = 0x1234_5678_u64;
    let mut rnd = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut s = String::with_capacity(LINES * 28);
    s.push_str("    .text\n    .globl _start\n_start:\n");
    let mut lines = 3;
    let mut i = 0;
    while lines < LINES - 20 {
        let r = |k: u64| regs[(k % regs.len() as u64) as usize];
        let (a, b, c) = (rnd(10), rnd(10), rnd(10));
        let _ = match i % 12 {
            0 => writeln!(
                s,
                "L{i}: addi {}, {}, {}",
                r(a),
                r(b),
                rnd(4096) as i64 - 2048
            ),
            1 => writeln!(s, "    add {}, {}, {}", r(a), r(b), r(c)),
            2 => writeln!(s, "    lw {}, {}({})", r(a), rnd(512) * 4, r(b)),
            3 => writeln!(s, "    sw {}, -{}({})  # spill", r(a), rnd(512) * 4, r(b)),
            4 => writeln!(s, "    beq {}, {}, L{}", r(a), r(b), i - 4),
            5 => writeln!(s, "    li {}, {}", r(a), rnd(1 << 32) as i64 - (1 << 31)),
            6 => writeln!(s, "    fadd.d fa0, fa1, fa2"),
            7 => writeln!(s, "    slli {}, {}, {}", r(a), r(b), rnd(32)),
            8 => writeln!(s, "    mul {}, {}, {}", r(a), r(b), r(c)),
            9 => writeln!(s, "    jal ra, L{}", i - 9),
            10 => writeln!(s, "    la {}, table + {}", r(a), rnd(64) * 4),
            _ => writeln!(s, "    bnez {}, 1f\n1:  mv {}, {}", r(a), r(b), r(c)),
        };
        lines += if i % 12 == 11 { 2 } else { 1 };
        i += 1;
    }
    s.push_str("    .data\ntable:\n");
    while lines < LINES {
        let _ = writeln!(s, "    .word {}, table + {}", rnd(1 << 31), rnd(64) * 4);
        lines += 1;
    }
    s
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("SCMP_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    let text = source();
    let lines = text.lines().count();
    let sources = vec![("bench.s".to_string(), text.clone())];
    let opts = asm::Options::default();
    // One warm-up, which must succeed.
    let out =
        asm::assemble_sources(&sources, &opts).unwrap_or_else(|d| panic!("{}", d.render(false)));
    let mut ours = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let out = asm::assemble_sources(&sources, &opts).expect("assembles");
        ours.push(t.elapsed());
        std::hint::black_box(out.elf.len());
    }
    let ours = median(ours);
    let ours_rate = lines as f64 / ours.as_secs_f64();
    println!(
        "source: {lines} lines, {} bytes; output: {} bytes of ELF",
        text.len(),
        out.elf.len()
    );
    println!(
        "scmp asm : median {:>8.1} ms over {runs} runs  {:>10.0} lines/s",
        ours.as_secs_f64() * 1e3,
        ours_rate
    );

    let dir = std::env::temp_dir().join(format!("scmp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("bench.s");
    std::fs::write(&path, &text).expect("write source");
    let gnu = |path: &std::path::Path| {
        Command::new("riscv64-unknown-elf-as")
            .args(["-march=rv32g", "-mabi=ilp32d", "-mno-relax", "-o"])
            .arg(dir.join("bench.o"))
            .arg(path)
            .status()
    };
    match gnu(&path) {
        Ok(s) if s.success() => {
            let mut times = Vec::new();
            for _ in 0..runs {
                let t = Instant::now();
                gnu(&path).expect("GNU as runs");
                times.push(t.elapsed());
            }
            let g = median(times);
            let g_rate = lines as f64 / g.as_secs_f64();
            println!(
                "GNU as   : median {:>8.1} ms over {runs} runs  {:>10.0} lines/s",
                g.as_secs_f64() * 1e3,
                g_rate
            );
            println!(
                "ratio    : scmp asm is {:.2}x the speed of GNU as",
                ours_rate / g_rate
            );
        }
        _ => println!("GNU as   : not installed (riscv64-unknown-elf-as); no comparison"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
