//! Speed against a fixed baseline (issue 17): the `scmp` binary of this
//! tree next to the one of an earlier commit (default `8731c33`, main
//! before the speed work), on the same inputs, in paired runs (every
//! binary once per round, the order alternating), with the medians of
//! wall and user CPU seconds and of the per-round ratios.
//!
//! ```sh
//! nice -n 10 cargo bench --bench baseline
//! SCMP_BENCH_RUNS=5 SCMP_BENCH_ONLY=matrix,ring cargo bench --bench baseline
//! ```
//!
//! Cases (`SCMP_BENCH_ONLY`, comma-separated; all by default):
//! - `matrix`: Matrix on 4x4 with 3,000 rows (`CG_DIM=3000`), both designs;
//! - `nb15`: Neighborhood with 15-bit pixels on 4x4, both designs;
//! - `lu`: LU factorization (Ready mode, 512x512, the chapter-6 default
//!   size) on one tile: double-precision loads, arithmetic and stores,
//!   no messages, the interpreter's floating-point path;
//! - `ring`: `emu/benches/programs/ring.s` on 8x8 (a Rendezvous exchange
//!   with the ring neighbours every ~3,000 instructions) and the same
//!   work without the exchanges, with the ratio of their speeds
//!   (instructions per user CPU second);
//! - `noc`: `scmp noc` on 8x8, uniform traffic at 0.1 flits/node/cycle in
//!   BookSim2's reference configuration (docs/network.md), and BookSim2
//!   itself with the same configuration when `SCMP_BENCH_BOOKSIM` names
//!   its `booksim` executable: simulated cycles per user CPU second;
//! - `guests`: the gcc-built integer loop and C mix of
//!   `emu/benches/guest/` on one tile, and on libriscv's emulator when
//!   `SCMP_BENCH_LIBRISCV` names its `rvlinux` (see `emu/benches/guest`);
//! - `threads`: host-thread scaling of this tree's binary alone
//!   (`--host-threads N` for each N of `SCMP_BENCH_HOST_THREADS`, default
//!   `1,2`; wall time is what counts): a 1,024-tile compute-only run
//!   (ring.s without exchanges on 32x32) and Neighborhood 11-bit on 8x8
//!   (send-and-receive). Left out, with a note, for a binary without the
//!   option.
//!
//! The baseline: `SCMP_BASELINE_BIN` names a built `scmp` to use;
//! otherwise the commit `SCMP_BASELINE_COMMIT` (default `8731c33`) is
//! exported with `git archive` into `target/baseline/COMMIT/src` and built
//! there once (`cargo build --release`, its own target directory; some
//! minutes). Every case runs the programs of that exported tree with both
//! binaries, so that both simulate the same inputs; each run's results
//! (cycles, instructions, output; the noc's latencies) must be the same
//! for both binaries, and a case whose results differ says so.
//!
//! Other settings: `SCMP_BENCH_RUNS` (rounds, default 3),
//! `SCMP_BENCH_RING_ROUNDS` (ring rounds, default 1,000),
//! `SCMP_BENCH_WIDE_ROUNDS` (rounds of the 1,024-tile run, default 200).
//! The machine is usually shared: the load average at the start and the
//! end is printed with the figures, and user CPU time is the steadier
//! measure of the two when others run.
//!
//! Over 600 lines: the cases, the paired runner and the report of one
//! benchmark.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

/// The commit the speed work started from.
const DEFAULT_BASELINE: &str = "8731c33";

/// BookSim2's reference configuration (docs/network.md, "Validation"),
/// with longer sample periods so that a run takes long enough to time.
const BOOKSIM_CONFIG: &str = "topology = mesh; k = 8; n = 2; routing_function = dim_order;
router = iq; num_vcs = 4; vc_buf_size = 4; packet_size = 4;
routing_delay = 1; vc_alloc_delay = 1; sw_alloc_delay = 1; st_final_delay = 1; credit_delay = 1;
vc_allocator = separable_input_first; sw_allocator = separable_input_first;
traffic = uniform; injection_process = bernoulli; injection_rate_uses_flits = 1;
injection_rate = 0.1; sim_type = latency;
warmup_periods = 1; sample_period = 20000; max_samples = 3;
";

/// Our side of the same configuration (`scmp noc`'s keys).
const NOC_ARGS: &[&str] = &[
    "noc",
    "--set",
    "num_vcs=4",
    "--set",
    "routing_delay=1",
    "--set",
    "vc_alloc_delay=1",
    "--set",
    "sw_alloc_delay=1",
    "--rate",
    "0.1",
    "--json",
];

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    v[v.len() / 2]
}

/// User CPU seconds of the children waited for so far.
fn children_user_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    assert_eq!(rc, 0, "getrusage");
    ru.ru_utime.tv_sec as f64 + ru.ru_utime.tv_usec as f64 * 1e-6
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// One timed run: its seconds, what it computed (`key`, compared between
/// binaries) and how much it simulated (`work`: instructions or cycles).
#[derive(Clone, Debug)]
struct Sample {
    wall: f64,
    user: f64,
    key: String,
    work: f64,
    /// The guest's exit code, where there is one.
    exit: Option<i64>,
}

/// Runs `command` to its end: wall and user CPU seconds, standard output.
/// A failure stops the benchmark unless `any_status` (BookSim2 ends with
/// status 255 after a normal run).
fn timed(command: &mut Command, any_status: bool) -> (f64, f64, String) {
    let u0 = children_user_seconds();
    let t0 = Instant::now();
    let out = command
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    let wall = t0.elapsed().as_secs_f64();
    let user = children_user_seconds() - u0;
    assert!(
        any_status || out.status.success(),
        "{command:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    (
        wall,
        user,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A binary under test.
struct Scmp {
    name: String,
    path: PathBuf,
}

impl Scmp {
    /// `scmp run ARGS --json FILE`: its result's cycles, instructions,
    /// end and output are the key; instructions the work.
    fn run(&self, args: &[String], scratch: &Path) -> Sample {
        let json = scratch.join(format!("{}.json", self.name));
        let (wall, user, _) = timed(
            Command::new(&self.path)
                .arg("run")
                .args(args)
                .arg("--json")
                .arg(&json),
            // A guest's exit code is the run's exit status.
            true,
        );
        let text = std::fs::read_to_string(&json).expect("scmp run wrote its JSON");
        let v: Value = serde_json::from_str(&text).expect("scmp run's JSON");
        assert!(
            matches!(v["end"].as_str(), Some("exit" | "all_threads_ended")),
            "{} run {args:?} ended with {}",
            self.path.display(),
            v["end"]
        );
        let key = format!(
            "{} cycles, {} instructions, end {}, output {:016x}",
            v["total_cycles"],
            v["instructions"],
            v["end"],
            fnv(v["output"].as_str().unwrap_or("").as_bytes())
        );
        Sample {
            wall,
            user,
            key,
            work: v["instructions"].as_f64().unwrap_or(f64::NAN),
            exit: v["exit_status"].as_i64(),
        }
    }

    fn noc(&self) -> Sample {
        let (wall, user, stdout) = timed(Command::new(&self.path).args(NOC_ARGS), false);
        let v: Value = serde_json::from_str(&stdout).expect("scmp noc's JSON");
        Sample {
            wall,
            user,
            key: format!(
                "{} cycles, packet latency {}",
                v["cycles"], v["packet_latency_avg"]
            ),
            work: v["cycles"].as_f64().unwrap_or(f64::NAN),
            exit: None,
        }
    }

    fn supports(&self, option: &str) -> bool {
        Command::new(&self.path)
            .args(["run", "--help"])
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(option))
    }
}

/// FNV-1a: a short fingerprint of a run's output.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// Runs every closure once per round, in alternating order, `runs`
/// rounds; the samples by closure.
fn paired(runs: usize, variants: &[&dyn Fn() -> Sample]) -> Vec<Vec<Sample>> {
    let mut out = vec![Vec::new(); variants.len()];
    for round in 0..runs {
        let order: Vec<usize> = if round % 2 == 0 {
            (0..variants.len()).collect()
        } else {
            (0..variants.len()).rev().collect()
        };
        for v in order {
            out[v].push(variants[v]());
        }
    }
    out
}

/// The median of the per-round ratios `a / b` of `f`.
fn ratio(a: &[Sample], b: &[Sample], f: impl Fn(&Sample) -> f64) -> f64 {
    median(a.iter().zip(b).map(|(x, y)| f(x) / f(y)).collect())
}

fn same_results(label: &str, a: &[Sample], b: &[Sample]) -> bool {
    let keys = |s: &[Sample]| {
        let mut k: Vec<&str> = s.iter().map(|s| s.key.as_str()).collect();
        k.dedup();
        k.join(" | ")
    };
    let (ka, kb) = (keys(a), keys(b));
    if ka != kb {
        println!("  !! {label}: results differ: baseline {ka}; ours {kb}");
    }
    ka == kb
}

/// Prints one row: medians of both binaries and ours/baseline speed.
fn row(label: &str, base: &[Sample], ours: &[Sample]) {
    let same = same_results(label, base, ours);
    println!(
        "{label:<34} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>7.2}x {:>7.2}x  {}",
        median(base.iter().map(|s| s.wall).collect()),
        median(base.iter().map(|s| s.user).collect()),
        median(ours.iter().map(|s| s.wall).collect()),
        median(ours.iter().map(|s| s.user).collect()),
        ratio(base, ours, |s| s.user),
        ratio(base, ours, |s| s.wall),
        if same { "same results" } else { "DIFFERENT" }
    );
}

/// The baseline's source tree and binary, built if needed.
fn baseline(repo: &Path, target: &Path) -> (PathBuf, PathBuf) {
    let commit = std::env::var("SCMP_BASELINE_COMMIT").unwrap_or(DEFAULT_BASELINE.into());
    let dir = target.join("baseline").join(&commit);
    let src = dir.join("src");
    if !src.join("Cargo.toml").exists() {
        std::fs::create_dir_all(&src).expect("the baseline's directory");
        let archive = Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(["archive", &commit])
            .output()
            .expect("git runs");
        assert!(
            archive.status.success(),
            "git archive {commit}: {}",
            String::from_utf8_lossy(&archive.stderr)
        );
        let mut tar = Command::new("tar")
            .arg("-x")
            .arg("-C")
            .arg(&src)
            .stdin(Stdio::piped())
            .spawn()
            .expect("tar runs");
        use std::io::Write;
        tar.stdin
            .take()
            .expect("piped")
            .write_all(&archive.stdout)
            .expect("tar takes the archive");
        assert!(tar.wait().expect("tar ends").success(), "tar -x");
    }
    if let Ok(bin) = std::env::var("SCMP_BASELINE_BIN") {
        return (src, bin.into());
    }
    let bin = dir.join("target/release/scmp");
    if !bin.exists() {
        println!("building the baseline {commit} in {} (once)", dir.display());
        let cargo = std::env::var("CARGO").unwrap_or("cargo".into());
        // The tree lies inside this repository: without GIT_DIR its build
        // script would take this checkout's commit for its own and build
        // again whenever it moves.
        let status = Command::new(cargo)
            .current_dir(&src)
            .env("GIT_DIR", dir.join("no-git"))
            .args([
                "build",
                "--release",
                "--locked",
                "--bin",
                "scmp",
                "--target-dir",
            ])
            .arg(dir.join("target"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the baseline {commit}");
    }
    (src, bin)
}

/// Builds a guest program of `emu/benches/guest` with gcc.
fn build_guest(tree: &Path, scratch: &Path, source: &str) -> PathBuf {
    let out = scratch.join(source.replace(".c", ".elf"));
    let status = Command::new("riscv64-unknown-elf-gcc")
        .args(["-O2", "-march=rv32g", "-mabi=ilp32d", "-nostdlib", "-o"])
        .arg(&out)
        .arg(tree.join("emu/benches/guest").join(source))
        .status()
        .expect("riscv64-unknown-elf-gcc runs");
    assert!(status.success(), "gcc {source}");
    out
}

/// The words of `s`, as arguments.
fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// What every case needs: the rounds, the scratch directory, the
/// baseline's source tree and both binaries.
struct Bench {
    runs: usize,
    scratch: PathBuf,
    tree: PathBuf,
    base: Scmp,
    ours: Scmp,
}

impl Bench {
    /// A file of the baseline's tree, as an argument.
    fn src(&self, p: &str) -> String {
        self.tree.join(p).display().to_string()
    }

    /// `scmp run ARGS` on both binaries, paired: (baseline, ours).
    fn pair(&self, args: Vec<String>) -> (Vec<Sample>, Vec<Sample>) {
        let s = self.scratch.as_path();
        let (base, ours) = (&self.base, &self.ours);
        let r = paired(self.runs, &[&|| base.run(&args, s), &|| ours.run(&args, s)]);
        let mut r = r.into_iter();
        (r.next().unwrap(), r.next().unwrap())
    }
}

/// The first line of `scmp --version`.
fn version(s: &Scmp) -> String {
    Command::new(&s.path)
        .arg("--version")
        .output()
        .map(|o| {
            let text = String::from_utf8_lossy(&o.stdout);
            text.lines().next().unwrap_or("").to_string()
        })
        .unwrap_or_default()
}

/// The binaries, the load and the table's heading.
fn header(b: &Bench) {
    println!(
        "baseline: {} ({})\nours:     {} ({})",
        version(&b.base),
        b.base.path.display(),
        version(&b.ours),
        b.ours.path.display()
    );
    println!(
        "programs of {}; medians of {} paired runs; load average at the start: {}",
        b.tree.display(),
        b.runs,
        load_average()
    );
    println!(
        "{:<34} {:>17} {:>17} {:>17}",
        "", "baseline (s)", "ours (s)", "ours/baseline"
    );
    println!(
        "{:<34} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "case", "wall", "user", "wall", "user", "user", "wall"
    );
}

/// `matrix`: Matrix on 4x4 with 3,000 rows, both designs.
fn matrix(b: &Bench) {
    for (design, file) in [("original", "cg_am.s"), ("modified", "cg_sr.s")] {
        let mut args = vec![b.src(&format!("stressmarks/matrix/{file}"))];
        args.extend(words(&format!(
            "--mesh 4x4 --boot all --niu {design} --defsym CG_DIM=3000"
        )));
        let (bs, os) = b.pair(args);
        row(&format!("Matrix 4x4, 3,000 rows, {design}"), &bs, &os);
    }
}

/// `nb15`: Neighborhood with 15-bit pixels on 4x4, both designs.
fn nb15(b: &Bench) {
    for (design, file) in [("original", "nb_am.s"), ("modified", "nb_sr.s")] {
        let mut args = vec![b.src(&format!("stressmarks/neighborhood/{file}"))];
        args.extend(words(&format!(
            "--mesh 4x4 --boot all --niu {design} --defsym NB_BITS=15"
        )));
        let (bs, os) = b.pair(args);
        row(&format!("Neighborhood 15-bit 4x4, {design}"), &bs, &os);
    }
}

/// `lu`: LU factorization on one tile.
fn lu(b: &Bench) {
    let mut args = vec![b.src("stressmarks/lu/lu_sr_ready.s")];
    args.extend(words("--mesh 1x1 --boot all --niu modified"));
    let (bs, os) = b.pair(args);
    row("LU 512x512, 1 tile (double precision)", &bs, &os);
}

/// `ring`: the ring exchange and the same work without it.
fn ring(b: &Bench, notes: &mut Vec<String>) {
    let rounds: u32 = env_or("SCMP_BENCH_RING_ROUNDS", 1000);
    let ring = |messages: u32| {
        let mut args = vec![b.src("emu/benches/programs/ring.s")];
        args.extend(words("--mesh 8x8 --boot all --niu modified"));
        args.extend([
            "--defsym".into(),
            format!("ROUNDS={rounds}"),
            "--defsym".into(),
            format!("MESSAGES={messages}"),
        ]);
        args
    };
    let (bc, oc) = b.pair(ring(0));
    row("8x8 compute only (ring.s, 0)", &bc, &oc);
    let (br, or) = b.pair(ring(1));
    row("8x8 ring exchange (ring.s)", &br, &or);
    // Instructions per user second, ring over compute, paired by round.
    let speed = |s: &Sample| s.work / s.user;
    notes.push(format!(
        "ring exchange / compute only on 8x8 (instructions per user CPU second): baseline {:.0}%, ours {:.0}% (target: at least 70%)",
        100.0 * ratio(&br, &bc, speed),
        100.0 * ratio(&or, &oc, speed)
    ));
}

/// `noc`: `scmp noc` on both binaries, and BookSim2 when given.
fn noc(b: &Bench, notes: &mut Vec<String>) {
    let booksim = std::env::var("SCMP_BENCH_BOOKSIM").ok();
    let config = b.scratch.join("booksim.cfg");
    std::fs::write(&config, BOOKSIM_CONFIG).expect("the BookSim2 configuration");
    let run_booksim = || {
        let (wall, user, stdout) = timed(
            Command::new(booksim.as_ref().expect("asked for"))
                .arg(&config)
                .stderr(Stdio::null()),
            true,
        );
        let cycles: f64 = stdout
            .split("Time taken is ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next()?.parse().ok())
            .expect("BookSim2 prints the cycles it simulated");
        Sample {
            wall,
            user,
            key: String::new(),
            work: cycles,
            exit: None,
        }
    };
    let bn = || b.base.noc();
    let on = || b.ours.noc();
    let mut variants: Vec<&dyn Fn() -> Sample> = vec![&bn, &on];
    if booksim.is_some() {
        variants.push(&run_booksim);
    }
    let r = paired(b.runs, &variants);
    row("noc 8x8 uniform 0.1 (BookSim2 cfg)", &r[0], &r[1]);
    let speed = |s: &Sample| s.work / s.user;
    match r.get(2) {
        Some(bs) => notes.push(format!(
            "noc 8x8 uniform 0.1, cycles per user CPU second: ours {:.0}, baseline {:.0}, BookSim2 {:.0}: ours/BookSim2 {:.1}x, baseline/BookSim2 {:.1}x (target: at least 30x)",
            median(r[1].iter().map(speed).collect()),
            median(r[0].iter().map(speed).collect()),
            median(bs.iter().map(speed).collect()),
            ratio(&r[1], bs, speed),
            ratio(&r[0], bs, speed),
        )),
        None => notes.push("noc: no SCMP_BENCH_BOOKSIM, no BookSim2 ratio".into()),
    }
}

/// `guests`: the gcc-built guests on one tile, and on libriscv when given.
fn guests(b: &Bench, notes: &mut Vec<String>) {
    let libriscv = std::env::var("SCMP_BENCH_LIBRISCV").ok();
    for (name, source) in [("integer loop", "intloop.c"), ("C mix", "cmix.c")] {
        let elf = build_guest(&b.tree, &b.scratch, source);
        let args = vec![elf.display().to_string(), "--mesh".into(), "1x1".into()];
        let s = b.scratch.as_path();
        let bg = || b.base.run(&args, s);
        let og = || b.ours.run(&args, s);
        let l = || {
            let (wall, user, stdout) = timed(
                Command::new(libriscv.as_ref().expect("asked for"))
                    .arg(&elf)
                    .stderr(Stdio::null()),
                true,
            );
            let exit = stdout
                .split("exit code = ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next()?.parse().ok());
            assert!(exit.is_some(), "libriscv gave no exit code for {source}");
            Sample {
                wall,
                user,
                key: String::new(),
                work: f64::NAN,
                exit,
            }
        };
        let mut variants: Vec<&dyn Fn() -> Sample> = vec![&bg, &og];
        if libriscv.is_some() {
            variants.push(&l);
        }
        let r = paired(b.runs, &variants);
        row(&format!("1 tile, {name} (gcc -O2)"), &r[0], &r[1]);
        if let Some(lr) = r.get(2) {
            assert!(
                lr.iter().all(|l| l.exit == r[1][0].exit),
                "{name}: libriscv's exit code differs from ours"
            );
            notes.push(format!(
                "{name}, user CPU time over libriscv's: ours {:.2}, baseline {:.2} (target: at most 1.0)",
                ratio(&r[1], lr, |s| s.user),
                ratio(&r[0], lr, |s| s.user),
            ));
        }
    }
    if libriscv.is_none() {
        notes.push("guests: no SCMP_BENCH_LIBRISCV, no libriscv ratios".into());
    }
}

/// `threads`: host-thread scaling of this tree's binary alone.
fn threads(b: &Bench, notes: &mut Vec<String>) {
    if !b.ours.supports("--host-threads") {
        notes.push("threads: this binary has no --host-threads".into());
        return;
    }
    let threads: Vec<usize> = std::env::var("SCMP_BENCH_HOST_THREADS")
        .unwrap_or("1,2".into())
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    let wide_rounds: u32 = env_or("SCMP_BENCH_WIDE_ROUNDS", 200);
    let mut wide = vec![b.src("emu/benches/programs/ring.s")];
    wide.extend(words("--mesh 32x32 --boot all --niu modified"));
    wide.extend([
        "--defsym".into(),
        format!("ROUNDS={wide_rounds}"),
        "--defsym".into(),
        "MESSAGES=0".into(),
    ]);
    let mut nb11 = vec![b.src("stressmarks/neighborhood/nb_sr.s")];
    nb11.extend(words(
        "--mesh 8x8 --boot all --niu modified --defsym NB_BITS=11",
    ));
    for (label, args) in [
        ("1,024 tiles compute only", wide),
        ("Neighborhood 11-bit 8x8, modified", nb11),
    ] {
        let with = |n: usize| {
            let mut a = args.clone();
            a.extend(["--host-threads".into(), n.to_string()]);
            a
        };
        let all: Vec<Vec<String>> = threads.iter().map(|&n| with(n)).collect();
        let (s, ours) = (b.scratch.as_path(), &b.ours);
        let closures: Vec<Box<dyn Fn() -> Sample>> = all
            .iter()
            .map(|a| Box::new(move || ours.run(a, s)) as Box<dyn Fn() -> Sample>)
            .collect();
        let refs: Vec<&dyn Fn() -> Sample> = closures.iter().map(|b| b.as_ref()).collect();
        let r = paired(b.runs, &refs);
        let mut line = format!("{label}, host threads:");
        for (k, n) in threads.iter().enumerate() {
            same_results(&format!("{label}, {n} threads"), &r[0], &r[k]);
            line += &format!(
                " {n}: {:.2} s wall ({:.2} user, {:.2}x of {} thread{})",
                median(r[k].iter().map(|s| s.wall).collect()),
                median(r[k].iter().map(|s| s.user).collect()),
                ratio(&r[0], &r[k], |s| s.wall),
                threads[0],
                if threads[0] == 1 { "" } else { "s" },
            );
        }
        notes.push(line);
    }
}

fn main() {
    let runs: usize = env_or("SCMP_BENCH_RUNS", 3);
    let only = std::env::var("SCMP_BENCH_ONLY").unwrap_or_default();
    let wanted = |name: &str| only.is_empty() || only.split(',').any(|w| w == name);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("baseline-bench");
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target/tmp has a parent")
        .to_path_buf();
    let (tree, base_bin) = baseline(repo, &target);
    let b = Bench {
        runs,
        scratch,
        tree,
        base: Scmp {
            name: "baseline".into(),
            path: base_bin,
        },
        ours: Scmp {
            name: "ours".into(),
            path: env!("CARGO_BIN_EXE_scmp").into(),
        },
    };
    header(&b);
    let mut notes = Vec::new();
    if wanted("matrix") {
        matrix(&b);
    }
    if wanted("nb15") {
        nb15(&b);
    }
    if wanted("lu") {
        lu(&b);
    }
    if wanted("ring") {
        ring(&b, &mut notes);
    }
    if wanted("noc") {
        noc(&b, &mut notes);
    }
    if wanted("guests") {
        guests(&b, &mut notes);
    }
    if wanted("threads") {
        threads(&b, &mut notes);
    }
    for n in notes {
        println!("{n}");
    }
    println!("load average at the end: {}", load_average());
}
