//! Guest programs built with gcc (the integer loop, the C mix, the double
//! matrix product alone, FP micro-loops), run on one tile and, side by side,
//! on libriscv's emulator (interpreter) and on Spike when their executables
//! are given: wall time of whole runs, paired (every simulator once per
//! round), medians, and our speed as ratios to theirs.
//!
//! Environment: `SCMP_BENCH_LIBRISCV` (libriscv's `rvlinux`: its
//! `emulator/` built with CMake, `-DCMAKE_BUILD_TYPE=Release
//! -DRISCV_BINARY_TRANSLATION=OFF -DRISCV_LIBTCC=OFF`) and
//! `SCMP_BENCH_SPIKE` (`spike`: `configure && make`), each optional, both
//! built outside this repository from their public sources;
//! `SCMP_BENCH_GUESTS` (comma-separated workload names; all by default).
//! Every simulator must end each program with the same exit code (a
//! checksum of its results), else the benchmark stops.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use emu::{ConfigBuilder, Program, RunEnd, RunOptions};

/// One guest program: its source, the defines that select it, and how many
/// FP operations it does (for the micro-loops' time per operation).
struct Workload {
    name: &'static str,
    source: &'static str,
    defines: &'static [&'static str],
    fp_ops: Option<u64>,
}

/// The FP micro-loops' iterations (eight operations each).
const FP_ITERATIONS: u64 = 2_000_000;

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "integer loop",
        source: "intloop.c",
        defines: &[],
        fp_ops: None,
    },
    Workload {
        name: "C mix",
        source: "cmix.c",
        defines: &[],
        fp_ops: None,
    },
    Workload {
        name: "double matmul",
        source: "cmix.c",
        defines: &["-DPARTS=4"],
        fp_ops: None,
    },
    Workload {
        name: "fadd.d loop",
        source: "fploops.c",
        defines: &["-DOP=1"],
        fp_ops: Some(8 * FP_ITERATIONS),
    },
    Workload {
        name: "fmul.d loop",
        source: "fploops.c",
        defines: &["-DOP=2"],
        fp_ops: Some(8 * FP_ITERATIONS),
    },
    Workload {
        name: "fmadd.d loop",
        source: "fploops.c",
        defines: &["-DOP=3"],
        fp_ops: Some(8 * FP_ITERATIONS),
    },
    Workload {
        name: "fdiv.d loop",
        source: "fploops.c",
        defines: &["-DOP=4"],
        fp_ops: Some(8 * FP_ITERATIONS),
    },
];

/// Builds `w` with gcc: the plain program, and the one for Spike's bare
/// machine (`-DHTIF`).
fn build(w: &Workload, htif: bool) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/guest");
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("guest");
    std::fs::create_dir_all(&out_dir).expect("the bench's temporary directory");
    let stem = w.name.replace([' ', '.'], "-");
    let out = out_dir.join(format!("{stem}{}.elf", if htif { "-htif" } else { "" }));
    let mut gcc = Command::new("riscv64-unknown-elf-gcc");
    gcc.args(["-O2", "-march=rv32g", "-mabi=ilp32d", "-nostdlib"])
        .args(w.defines)
        .args(htif.then_some("-DHTIF"))
        .arg("-o")
        .arg(&out)
        .arg(dir.join(w.source));
    let status = gcc
        .status()
        .expect("riscv64-unknown-elf-gcc runs (the benchmark builds its guests with it)");
    assert!(status.success(), "gcc failed on {}", w.source);
    out
}

/// A simulator in the comparison.
enum Simulator {
    Us,
    Other {
        name: &'static str,
        command: PathBuf,
        args: &'static [&'static str],
        htif: bool,
        /// Where the guest's exit code is.
        exit: ExitReport,
    },
}

/// How a simulator reports the guest's exit code.
#[derive(Clone, Copy)]
enum ExitReport {
    /// As its own exit status.
    Status,
    /// On standard output, after this text.
    Printed(&'static str),
}

impl Simulator {
    fn name(&self) -> &'static str {
        match self {
            Simulator::Us => "us",
            Simulator::Other { name, .. } => name,
        }
    }

    /// Runs `elf` (or `htif_elf`); the seconds taken, the exit code and
    /// the instructions retired (ours only).
    fn run(&self, elf: &Path, htif_elf: &Path) -> (f64, i32, Option<u64>) {
        match self {
            Simulator::Us => {
                let start = Instant::now();
                let bytes = std::fs::read(elf).expect("the guest was built");
                let program = Program::from_elf(&bytes).expect("the guest loads");
                let mut b = ConfigBuilder::new();
                b.set("mesh.width=1").unwrap();
                b.set("mesh.height=1").unwrap();
                let config = b.build().unwrap();
                let result = emu::run(
                    &config,
                    &program,
                    RunOptions::default(),
                    &mut emu::NullConsole,
                )
                .expect("the guest loads");
                let seconds = start.elapsed().as_secs_f64();
                let RunEnd::Exit(code) = result.end else {
                    panic!("{}: {:?}", elf.display(), result.end);
                };
                (seconds, code, Some(result.stats.instructions))
            }
            Simulator::Other {
                command,
                args,
                htif,
                name,
                exit,
            } => {
                let start = Instant::now();
                let output = Command::new(command)
                    .args(*args)
                    .arg(if *htif { htif_elf } else { elf })
                    .output()
                    .unwrap_or_else(|e| panic!("{name} ({}): {e}", command.display()));
                let seconds = start.elapsed().as_secs_f64();
                let code = match exit {
                    ExitReport::Status => output.status.code(),
                    ExitReport::Printed(before) => {
                        let text = String::from_utf8_lossy(&output.stdout);
                        text.split_once(before)
                            .and_then(|(_, rest)| rest.split_whitespace().next()?.parse().ok())
                    }
                };
                let code = code.unwrap_or_else(|| {
                    panic!("{name} gave no exit code for {}: {output:?}", elf.display())
                });
                (seconds, code, None)
            }
        }
    }
}

fn simulators() -> Vec<Simulator> {
    let mut v = vec![Simulator::Us];
    if let Ok(path) = std::env::var("SCMP_BENCH_LIBRISCV") {
        v.push(Simulator::Other {
            name: "libriscv",
            command: path.into(),
            args: &[],
            htif: false,
            exit: ExitReport::Printed("exit code = "),
        });
    }
    if let Ok(path) = std::env::var("SCMP_BENCH_SPIKE") {
        v.push(Simulator::Other {
            name: "Spike",
            command: path.into(),
            // The guest's stack top is the end of this memory.
            args: &["--isa=rv32imafd", "-m0x10000:0x7f0000"],
            htif: true,
            exit: ExitReport::Status,
        });
    }
    v
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Runs every wanted workload on every simulator `runs` times and prints
/// one table.
pub fn compare(runs: usize) {
    let sims = simulators();
    let wanted = std::env::var("SCMP_BENCH_GUESTS").unwrap_or_default();
    let wanted = |name: &str| wanted.is_empty() || wanted.split(',').any(|w| w == name);
    if sims.len() == 1 {
        println!(
            "(no SCMP_BENCH_LIBRISCV or SCMP_BENCH_SPIKE: our figures alone; see the module doc)"
        );
    }
    let names: Vec<&str> = sims.iter().map(|s| s.name()).collect();
    println!(
        "guest programs, 1 tile, wall seconds (median of {runs} paired runs) -> M simulated instructions/s [ns per FP op]; ratio = our speed / theirs"
    );
    for w in WORKLOADS.iter().filter(|w| wanted(w.name)) {
        let (elf, htif_elf) = (build(w, false), build(w, true));
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); sims.len()];
        let mut instructions = 0;
        for _ in 0..runs {
            let mut expected = None;
            for (s, sim) in sims.iter().enumerate() {
                let (seconds, code, retired) = sim.run(&elf, &htif_elf);
                times[s].push(seconds);
                if let Some(n) = retired {
                    instructions = n;
                }
                match expected {
                    None => expected = Some(code),
                    Some(e) => assert_eq!(
                        code,
                        e,
                        "{}: {} exits with {code}, we with {e}",
                        w.name,
                        sim.name()
                    ),
                }
            }
        }
        let medians: Vec<f64> = times.into_iter().map(median).collect();
        let mut line = format!("{:>14} ({:>4} M instr):", w.name, instructions / 1_000_000);
        for (s, t) in medians.iter().enumerate() {
            let rate = instructions as f64 / t / 1e6;
            line += &format!("  {} {rate:.0} M/s", names[s]);
            if let Some(ops) = w.fp_ops {
                line += &format!(" [{:.1} ns]", t * 1e9 / ops as f64);
            }
            if s > 0 {
                line += &format!(" (ratio {:.2})", t / medians[0]);
            }
        }
        println!("{line}");
    }
}
