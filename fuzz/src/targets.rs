//! The fuzz targets' bodies, one function per target (`fuzz_targets/NAME.rs`
//! hands libFuzzer's input to `targets::NAME`): here, so that a stable
//! build can run them too. Its test runs every target over the inputs the
//! repository holds for it (the seeds `fuzz/run` starts libFuzzer from,
//! which include the inputs of past findings), in CI without a nightly
//! toolchain (docs/fuzzing.md).

use arbitrary::Unstructured;

use crate::{assemble as assemble_generated, check_stats, config, messaging_program};

/// Largest input the assembler target assembles (`fuzz/run` also sets
/// libFuzzer's `-max_len` to it).
pub const MAX_ASM_INPUT: usize = 4096;

/// The whole assembler: any text gives an executable or diagnostics, never
/// a panic; an executable reads back through our own `objdump`. Fast and
/// bounded, so that a campaign runs thousands of inputs a second: inputs
/// over 4 KiB are passed over, runaway `.rept` counts and macro recursion
/// stop at small limits, the first pass stops at 100 diagnostics (inputs
/// that make a thousand errors took most of the time, repeating the same
/// few paths; users' limit is 1,000), the listing, the objdump and the
/// rendering of diagnostics run on one input in 64 (chosen by the input's
/// bytes, so that one input always takes the same path), and inputs naming
/// device or process files (`/dev/stdin`, `/dev/urandom`, ...) are passed
/// over: `.include` and `.incbin` of those would block or differ between
/// runs.
pub fn assemble(data: &[u8]) {
    if data.len() > MAX_ASM_INPUT {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if ["/dev/", "/proc/", "/sys/"]
        .iter()
        .any(|p| text.contains(p))
    {
        return;
    }
    let hash = data.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    });
    let sample = hash % 64 == 0;
    let opts = asm::Options {
        listing: sample,
        max_statements: 20_000,
        max_expansions: 2_000,
        max_expansion_bytes: 8 << 20,
        max_errors: 100,
        ..asm::Options::default()
    };
    match asm::assemble_sources(&[("fuzz.s".to_string(), text.to_string())], &opts) {
        Ok(out) => {
            if sample {
                asm::objdump::dump(&out.elf, "fuzz.elf", &show_all())
                    .expect("our own ELF reads back");
            }
        }
        Err(diags) => {
            assert!(diags.error_count() > 0);
            if sample {
                let _ = diags.render(false);
            }
        }
    }
}

/// The readers of ELF files: any bytes given to the emulator's loader and
/// to the disassembler (`scmp objdump`) give a program or an error, never a
/// panic.
pub fn load_elf(data: &[u8]) {
    if let Ok(program) = emu::Program::from_elf(data) {
        let _ = program.check_fits(8 << 20, 1 << 20);
        let _ = program.text_range();
    }
    let _ = asm::objdump::dump(data, "fuzz.elf", &show_all());
}

fn show_all() -> asm::objdump::Show {
    asm::objdump::Show {
        disassemble: true,
        symbols: true,
        headers: true,
        contents: true,
        ..Default::default()
    }
}

/// The emulator with random words: the first bytes choose a mesh (up to
/// 4x4), which tiles boot, how many threads, lockstep or not; the rest are
/// instruction words (up to 4096), loaded at 0x10000 on every tile. Every
/// run ends (an exit, a fault report, the cycle limit or a deadlock
/// report) with statistics that add up, never a panic, a hang or a failed
/// internal check.
pub fn run_random(data: &[u8]) {
    let [shape, threads, rest @ ..] = data else {
        return;
    };
    let words: Vec<u32> = rest
        .chunks_exact(4)
        .take(4096)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if words.is_empty() {
        return;
    }
    let settings = [
        format!("mesh.width={}", 1 + (shape & 3)),
        format!("mesh.height={}", 1 + ((shape >> 2) & 3)),
        format!(
            "boot.tiles={}",
            if shape & 16 != 0 { "all" } else { "first" }
        ),
        format!(
            "niu.design={}",
            if shape & 32 != 0 {
                "original"
            } else {
                "modified"
            }
        ),
        format!("boot.threads={}", 1 + (threads & 3)),
        "tile.memory_bytes=1048576".to_string(),
        "tile.stack_bytes=4096".to_string(),
        "network.stall_cycles=3000".to_string(),
        "sim.max_cycles=20000".to_string(),
    ];
    let config = config(&settings);
    let program = emu::Program::from_words(0x10000, &words);
    let (result, _) = crate::run_untraced(&config, &program, shape & 64 != 0);
    check_stats(&result.stats);
}

/// Whole messaging programs (structure-aware, [`crate::generate`]): the
/// first byte chooses lockstep and the epoch, the rest the program. Every
/// run ends (exit, fault, cycle limit or deadlock report) with statistics
/// that add up, never a panic, a hang or a failed internal check (fuzz
/// builds keep debug assertions). `SCMP_FUZZ_PRINT=1` prints the program
/// of an input.
pub fn messaging(data: &[u8]) {
    let [mode, rest @ ..] = data else { return };
    let mut u = Unstructured::new(rest);
    let Ok(g) = messaging_program(&mut u) else {
        return;
    };
    crate::print_if_asked(&g);
    let mut config = config(&g.settings);
    config.sim.epoch_cycles = [7, 64, 4096, 1 << 20][(mode >> 1 & 3) as usize];
    let program = assemble_generated(&g);
    let (result, _) = crate::run_untraced(&config, &program, mode & 1 != 0);
    check_stats(&result.stats);
}

/// The generated messaging programs, each run traced in the default mode,
/// in lockstep, with a 7-cycle and a 2^20-cycle epoch and other router
/// visiting orders, and untraced (also in lockstep): the end, output,
/// statistics and trace must be the same ([`crate::differential`]).
/// `SCMP_FUZZ_PRINT=1` prints the program of an input.
pub fn differential(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(g) = messaging_program(&mut u) else {
        return;
    };
    crate::print_if_asked(&g);
    let config = config(&g.settings);
    let program = assemble_generated(&g);
    crate::differential(&config, &program);
}

/// A random source GNU as takes (`gnudiff::random_source`, its choices
/// read from the input's bytes) assembled by GNU as and by us: the objects
/// (sections, bytes, relocations, symbols, groups, attributes) and the
/// images GNU ld links from them, relaxed and not, must be the same
/// (`gnudiff::differences`). Passes over every input where GNU's tools are
/// not installed. `SCMP_FUZZ_PRINT=1` prints the source of an input.
pub fn gnu_differential(data: &[u8]) {
    static TOOLS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if !*TOOLS.get_or_init(gnudiff::gnu_tools_present) {
        return;
    }
    let text = gnudiff::random_source(&mut Bytes(data));
    if std::env::var_os("SCMP_FUZZ_PRINT").is_some() {
        eprintln!("{text}");
    }
    let dir = std::env::temp_dir().join(format!("scmp-fuzz-gnudiff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let mut linked = 0;
    match gnudiff::differences(&dir, "input", &text, &mut linked) {
        Ok(why) if why.is_empty() => {}
        Ok(why) => panic!(
            "ours differs from GNU as:\n{}\n--- source ---\n{text}",
            why.join("\n")
        ),
        Err(e) => panic!("the generator wrote what GNU as refuses:\n{e}\n--- source ---\n{text}"),
    }
}

/// The generator's choices from fuzzer bytes: each the next eight bytes
/// (zeros once they run out) modulo the range.
struct Bytes<'d>(&'d [u8]);

impl gnudiff::Choices for Bytes<'_> {
    fn below(&mut self, n: u64) -> u64 {
        let take = self.0.len().min(8);
        let mut word = [0u8; 8];
        word[..take].copy_from_slice(&self.0[..take]);
        self.0 = &self.0[take..];
        u64::from_le_bytes(word) % n.max(1)
    }
}

/// A target's body.
pub type Target = fn(&[u8]);

/// The targets by name, as `fuzz/run` names them.
pub const TARGETS: [(&str, Target); 6] = [
    ("assemble", assemble),
    ("load_elf", load_elf),
    ("run_random", run_random),
    ("messaging", messaging),
    ("differential", differential),
    ("gnu_differential", gnu_differential),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// The directories `fuzz/run` gives libFuzzer as a target's seeds.
    fn seed_dirs(target: &str) -> Vec<PathBuf> {
        let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = fuzz.parent().unwrap();
        let mut dirs = vec![fuzz.join("seeds").join(target)];
        if target == "assemble" {
            for d in ["programs", "tests/asm", "stressmarks/lib", "examples"] {
                dirs.push(root.join(d));
            }
        }
        dirs
    }

    /// Every file under `dir`, in name order (libFuzzer reads corpus
    /// directories recursively).
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    /// Every target passes over every input the repository holds for it:
    /// its seeds, the inputs of past findings among them (a regression
    /// fails here, on stable, without a fuzzing run).
    #[test]
    fn every_target_passes_its_seeds() {
        for (target, run) in TARGETS {
            let mut inputs = Vec::new();
            for dir in seed_dirs(target) {
                files(&dir, &mut inputs);
            }
            assert!(inputs.len() >= 3, "{target}: seeds in the repository");
            for path in &inputs {
                let data = std::fs::read(path).unwrap();
                let outcome = std::panic::catch_unwind(|| run(&data));
                assert!(
                    outcome.is_ok(),
                    "fuzz target {target} fails on {} (`fuzz/run repro {target} {}`)",
                    path.display(),
                    path.display()
                );
            }
            eprintln!("{target}: {} inputs", inputs.len());
        }
    }

    /// A small deterministic random generator (xorshift64).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// The tokens of `fuzz/dict/asm.dict` (libFuzzer's dictionary format:
    /// one quoted string a line, `\xNN` and `\"` escapes).
    fn dictionary() -> Vec<Vec<u8>> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("dict/asm.dict");
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter_map(|l| l.strip_prefix('"')?.strip_suffix('"'))
            .map(|t| {
                let (b, mut out, mut i) = (t.as_bytes(), Vec::new(), 0);
                while i < b.len() {
                    match (b[i], b.get(i + 1)) {
                        (b'\\', Some(b'x')) if i + 3 < b.len() => {
                            out.push(u8::from_str_radix(&t[i + 2..i + 4], 16).unwrap());
                            i += 4;
                        }
                        (b'\\', Some(&c)) => {
                            out.push(c);
                            i += 2;
                        }
                        (c, _) => {
                            out.push(c);
                            i += 1;
                        }
                    }
                }
                out
            })
            .collect()
    }

    /// `data` with a few random mutations (as libFuzzer's, without its
    /// coverage feedback): bytes changed, ranges cut or repeated,
    /// dictionary tokens inserted.
    fn mutate(rng: &mut Rng, data: &[u8], dict: &[Vec<u8>], max_len: usize) -> Vec<u8> {
        let mut d = data.to_vec();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(d.len() + 1);
            match rng.below(5) {
                0 if at < d.len() => d[at] = rng.next() as u8,
                1 if at < d.len() => {
                    let end = (at + 1 + rng.below(32)).min(d.len());
                    d.drain(at..end);
                }
                2 if at < d.len() => {
                    let end = (at + 1 + rng.below(64)).min(d.len());
                    let piece = d[at..end].to_vec();
                    let to = rng.below(d.len() + 1);
                    d.splice(to..to, piece);
                }
                3 if !dict.is_empty() => {
                    let t = &dict[rng.below(dict.len())];
                    d.splice(at..at, t.iter().copied());
                }
                _ => d.insert(at.min(d.len()), rng.next() as u8),
            }
        }
        d.truncate(max_len);
        d
    }

    /// Random inputs, a fixed number per target, from a fixed seed
    /// (`SCMP_FUZZ_SEED=N` for others): mutated seeds for the assembler
    /// (with the dictionary) and the ELF readers, random bytes for the
    /// targets that make programs of any bytes. Not coverage-guided, but a
    /// stable build in CI explores past the seeds with it; an input that
    /// fails is written to `fuzz/artifacts/TARGET/` for `fuzz/run repro`.
    #[test]
    fn every_target_passes_random_inputs() {
        let seed = std::env::var("SCMP_FUZZ_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0x2545_f491_4f6c_dd1du64);
        let mut rng = Rng(seed | 1);
        let dict = dictionary();
        for (target, run) in TARGETS {
            let mut seeds = Vec::new();
            for dir in seed_dirs(target) {
                files(&dir, &mut seeds);
            }
            let seeds: Vec<Vec<u8>> = seeds.iter().map(|p| std::fs::read(p).unwrap()).collect();
            let (count, mutated) = match target {
                "assemble" => (5000, true),
                "load_elf" => (3000, true),
                "run_random" => (500, false),
                "messaging" => (300, false),
                _ => (20, false),
            };
            for k in 0..count {
                let data = if mutated {
                    let base = &seeds[rng.below(seeds.len())];
                    let base = &base[..base.len().min(MAX_ASM_INPUT)];
                    let d: &[Vec<u8>] = if target == "assemble" { &dict } else { &[] };
                    mutate(&mut rng, base, d, 1 << 16)
                } else {
                    let n = 16 + rng.below(1500);
                    (0..n).map(|_| (rng.next() >> 24) as u8).collect()
                };
                if std::panic::catch_unwind(|| run(&data)).is_err() {
                    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("artifacts")
                        .join(target);
                    std::fs::create_dir_all(&dir).unwrap();
                    let file = dir.join(format!("smoke-{seed}-{k}"));
                    std::fs::write(&file, &data).unwrap();
                    panic!(
                        "fuzz target {target} fails on random input {k} of SCMP_FUZZ_SEED={seed}: `fuzz/run repro {target} {}`",
                        file.display()
                    );
                }
            }
        }
    }
}
