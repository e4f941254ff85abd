//! Public C programs built by `scmp cc` and by "GNU's build" (the same gcc
//! command line with GNU as in place of `scmp asm`) at `-O0 -g`, `-O2` and
//! `-O3 -mcmodel=medany`: the two linked images have the same loadable
//! bytes (every allocated section: name, address, size, contents; the
//! entry point and `PT_LOAD` segments, all the emulator loads), and ours
//! passes (exit status 0, output as the suite expects) wherever GNU's does.
//! GNU's build runs on `scmp run`; ours runs too when its image differs (the
//! same image runs the same on the deterministic emulator).
//!
//! The programs: c-testsuite's single-exec suite, the part whose licence
//! lets us vendor it (tests/c/suites/c-testsuite/README.md). Set
//! `SCMP_C_TESTSUITE` to a directory of `NAME.c` + `NAME.c.expected` (a
//! checkout's `tests/single-exec`, all 220) to run another set.
//!
//! What does not hold is listed with its reason in
//! tests/c/suites/c-testsuite/known.toml, and each entry is checked to
//! still hold (a fixed difference fails the test until its entry goes).
//! Fails (does not skip) when gcc, GNU binutils or picolibc is missing.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use object::elf;
use object::read::elf::{ElfFile32, ProgramHeader};
use object::{Object, ObjectSection};
use rayon::prelude::*;
use support::{Scratch, require_gnu, require_tool, scmp};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SUITE: &str = "tests/c/suites/c-testsuite";

/// The option sets of issue 30, by the name known.toml gives them.
const OPTION_SETS: &[(&str, &[&str])] = &[
    ("O0g", &["-O0", "-g"]),
    ("O2", &["-O2"]),
    ("O3medany", &["-O3", "-mcmodel=medany"]),
];

/// The longest suite program (00040.c, eight queens by brute force) runs
/// 1.31e9 cycles at -O0; a hang stops here.
const MAX_CYCLES: &str = "4000000000";

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Known {
    #[serde(default)]
    entry: Vec<Entry>,
}

/// One program whose two builds do not agree, or that GNU's build fails.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    program: String,
    /// Names from OPTION_SETS; absent: all of them.
    options: Option<Vec<String>>,
    /// `gnu-fails`: GNU's build does not compile or pass (ours is then only
    /// compared byte for byte); `bytes-differ`: the loadable bytes differ;
    /// `ours-fails`: GNU's build passes, ours does not.
    kind: String,
    reason: String,
    /// The program is not vendored (only in the full suite).
    #[serde(default)]
    full_suite_only: bool,
}

/// What happened to one program at one option set.
#[derive(Debug, Default)]
struct Outcome {
    /// Why ours or GNU's did not compile and link (both are tried).
    ours_build: Option<String>,
    gnu_build: Option<String>,
    same_bytes: Option<bool>,
    /// The first differing section, when the bytes differ.
    difference: String,
    ours_pass: bool,
    gnu_pass: bool,
    /// What a failing run printed, for the message.
    ours_run: String,
    gnu_run: String,
}

/// What the emulator loads from a linked ELF (emu/src/elf.rs: the entry
/// point and the `PT_LOAD` segments), and every allocated section: name ->
/// (address, size, bytes); the entry and segments under names in brackets.
type Image = BTreeMap<String, (u64, u64, Vec<u8>)>;

fn loaded(bytes: &[u8]) -> Image {
    let file = ElfFile32::<object::Endianness>::parse(bytes).expect("a 32-bit ELF");
    let mut image: Image = file
        .sections()
        .filter(|s| {
            matches!(s.flags(),
                object::SectionFlags::Elf { sh_flags, .. } if sh_flags.0 & elf::SHF_ALLOC.0 != 0)
        })
        .map(|s| {
            let name = s.name().unwrap_or("?").to_string();
            (
                name,
                (s.address(), s.size(), s.data().unwrap_or(&[]).to_vec()),
            )
        })
        .collect();
    image.insert("[entry]".into(), (file.entry(), 0, Vec::new()));
    let e = file.endian();
    for (i, ph) in file.elf_program_headers().iter().enumerate() {
        if ph.p_type(e) == elf::PT_LOAD {
            let data = ph.data(e, file.data()).expect("segment data").to_vec();
            let flags = ph.p_flags(e).0;
            let key = format!("[segment {i}, flags {flags:#x}]");
            image.insert(key, (ph.p_vaddr(e).into(), ph.p_memsz(e).into(), data));
        }
    }
    image
}

/// The first section where two images differ, described.
fn first_difference(ours: &Image, gnu: &Image) -> String {
    let names: BTreeSet<&String> = ours.keys().chain(gnu.keys()).collect();
    for name in names {
        match (ours.get(name), gnu.get(name)) {
            (Some(a), Some(b)) if a == b => {}
            (Some((oa, os, od)), Some((ga, gs, gd))) => {
                let at = od.iter().zip(gd).position(|(x, y)| x != y);
                return format!(
                    "{name}: ours at {oa:#x} size {os:#x}, GNU's at {ga:#x} size {gs:#x}, first differing byte at offset {at:?}"
                );
            }
            (a, _) => {
                let who = if a.is_some() {
                    "only ours"
                } else {
                    "only GNU's"
                };
                return format!("{name}: {who} has it");
            }
        }
    }
    "none".into()
}

/// Builds `source` with `scmp cc` and with its gcc line minus `-B` (GNU
/// as), both into `dir`: (ours, GNU's) as an ELF path or why not.
fn build(dir: &Path, source: &Path, opts: &[&str]) -> [Result<PathBuf, String>; 2] {
    let ours_elf = dir.join("ours.elf");
    let out = scmp()
        .arg("cc")
        .arg("-v")
        .args(opts)
        .arg(source)
        .arg("-o")
        .arg(&ours_elf)
        .output()
        .expect("scmp cc runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    // `scmp cc -v` prints the gcc command line first, space-separated.
    let line = stderr.lines().next().unwrap_or("").to_string();
    let ours = if out.status.success() {
        Ok(ours_elf.clone())
    } else {
        Err(stderr.clone())
    };
    let gnu_elf = dir.join("gnu.elf");
    let words: Vec<&str> = line.split(' ').collect();
    assert!(
        words.first() == Some(&"riscv64-unknown-elf-gcc")
            && words.iter().any(|w| w.starts_with("-B")),
        "scmp cc -v did not print its gcc line first: {stderr}"
    );
    let mut gnu_args: Vec<String> = words[1..]
        .iter()
        .filter(|w| !w.starts_with("-B"))
        .map(|w| w.to_string())
        .collect();
    // Same line, other output (a path without spaces, as the split needs).
    let at = gnu_args
        .iter()
        .position(|a| a == "-o")
        .expect("-o in the line");
    gnu_args[at + 1] = gnu_elf.display().to_string();
    let out = Command::new(words[0])
        .args(&gnu_args)
        .output()
        .expect("riscv64-unknown-elf-gcc runs");
    let gnu = if out.status.success() {
        Ok(gnu_elf)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    };
    [ours, gnu]
}

/// Runs `elf` on a tile: did it pass (status 0, output as expected), and
/// what it printed when not.
fn run(elf: &Path, expected: &str) -> (bool, String) {
    let out = scmp()
        .args(["run", "--max-cycles", MAX_CYCLES])
        .arg(elf)
        .stdin(Stdio::null())
        .output()
        .expect("scmp run runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let pass = out.status.success() && stdout == expected;
    let mut what = String::new();
    if !pass {
        what = format!(
            "status {:?}, stdout {:?}, stderr {:?}",
            out.status.code(),
            stdout.chars().take(300).collect::<String>(),
            String::from_utf8_lossy(&out.stderr)
                .chars()
                .take(300)
                .collect::<String>()
        );
    }
    (pass, what)
}

fn outcome(scratch: &Scratch, source: &Path, set: usize) -> Outcome {
    let stem = source.file_stem().unwrap().to_string_lossy();
    let dir = scratch.path(&format!("{stem}-{}", OPTION_SETS[set].0));
    std::fs::create_dir_all(&dir).unwrap();
    let expected = std::fs::read_to_string(source.with_extension("c.expected"))
        .unwrap_or_else(|e| panic!("{}.expected: {e}", source.display()));
    let [ours, gnu] = build(&dir, source, OPTION_SETS[set].1);
    let mut o = Outcome::default();
    if let Err(e) = &ours {
        o.ours_build = Some(e.clone());
    }
    match &gnu {
        Ok(elf) => (o.gnu_pass, o.gnu_run) = run(elf, &expected),
        Err(e) => o.gnu_build = Some(e.clone()),
    }
    if let (Ok(a), Ok(b)) = (&ours, &gnu) {
        let a = loaded(&std::fs::read(a).unwrap());
        let b = loaded(&std::fs::read(b).unwrap());
        o.same_bytes = Some(a == b);
        if a != b {
            o.difference = first_difference(&a, &b);
        }
    }
    // The emulator reads only what `loaded` compares and is deterministic:
    // the same image runs the same, so ours runs only when it differs.
    match (&ours, o.same_bytes) {
        (Ok(_), Some(true)) => (o.ours_pass, o.ours_run) = (o.gnu_pass, o.gnu_run.clone()),
        (Ok(elf), _) => (o.ours_pass, o.ours_run) = run(elf, &expected),
        (Err(_), _) => {}
    }
    let _ = std::fs::remove_dir_all(&dir);
    o
}

/// The programs: the vendored ones, or `SCMP_C_TESTSUITE`'s.
fn programs() -> (Vec<PathBuf>, bool) {
    let (dir, vendored) = match std::env::var_os("SCMP_C_TESTSUITE") {
        Some(d) => (PathBuf::from(d), false),
        None => (Path::new(ROOT).join(SUITE).join("single-exec"), true),
    };
    let mut list: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    list.sort();
    (list, vendored)
}

fn load_known() -> Vec<Entry> {
    let path = Path::new(ROOT).join(SUITE).join("known.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let known: Known = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for e in &known.entry {
        assert!(
            ["gnu-fails", "bytes-differ", "ours-fails"].contains(&e.kind.as_str()),
            "known.toml: {}: unknown kind {}",
            e.program,
            e.kind
        );
        for o in e.options.iter().flatten() {
            assert!(
                OPTION_SETS.iter().any(|(n, _)| n == o),
                "known.toml: {}: unknown option set {o}",
                e.program
            );
        }
        assert!(
            !e.reason.trim().is_empty(),
            "known.toml: {}: no reason",
            e.program
        );
        let vendored = Path::new(ROOT)
            .join(SUITE)
            .join("single-exec")
            .join(&e.program);
        assert!(
            vendored.exists() != e.full_suite_only,
            "known.toml: {}: full_suite_only must say whether it is vendored",
            e.program
        );
    }
    known.entry
}

/// Checks one outcome against the list: the problems found.
fn judge(program: &str, set: &str, o: &Outcome, known: &[Entry]) -> Vec<String> {
    let listed = |kind: &str| {
        known.iter().any(|e| {
            e.program == program
                && e.kind == kind
                && e.options
                    .as_ref()
                    .is_none_or(|v| v.iter().any(|s| s == set))
        })
    };
    let at = format!("{program} at {set}");
    let mut bad = Vec::new();
    let gnu_fails = !o.gnu_pass;
    let differs = o.same_bytes == Some(false) || (o.ours_build.is_some() != o.gnu_build.is_some());
    let ours_fails = o.gnu_pass && !o.ours_pass;
    for (kind, holds, what) in [
        (
            "gnu-fails",
            gnu_fails,
            format!(
                "GNU's build fails: {}{}",
                o.gnu_build.as_deref().unwrap_or(""),
                o.gnu_run
            ),
        ),
        (
            "bytes-differ",
            differs,
            format!(
                "the loadable bytes differ: {}{}",
                o.difference,
                o.ours_build.as_deref().unwrap_or("")
            ),
        ),
        (
            "ours-fails",
            ours_fails,
            format!(
                "ours fails where GNU's passes: {}{}",
                o.ours_build.as_deref().unwrap_or(""),
                o.ours_run
            ),
        ),
    ] {
        match (holds, listed(kind)) {
            (true, false) => bad.push(format!("{at}: {what}")),
            (false, true) => bad.push(format!(
                "{at}: listed as {kind} in known.toml but no longer so: remove the entry"
            )),
            _ => {}
        }
    }
    bad
}

#[test]
fn public_c_programs_build_to_gnus_bytes_and_pass_where_gnus_pass() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let known = load_known();
    let (list, vendored) = programs();
    if vendored {
        assert!(
            list.len() >= 151,
            "the vendored suite has {} programs",
            list.len()
        );
    }
    let scratch = Scratch::new("c-suites");
    let started = std::time::Instant::now();
    let jobs: Vec<(usize, usize)> = (0..list.len())
        .flat_map(|p| (0..OPTION_SETS.len()).map(move |s| (p, s)))
        .collect();
    let outcomes: Vec<Outcome> = jobs
        .par_iter()
        .map(|&(p, s)| outcome(&scratch, &list[p], s))
        .collect();
    let mut bad = Vec::new();
    let (mut same, mut ours_pass, mut gnu_pass) = (0, 0, 0);
    for (&(p, s), o) in jobs.iter().zip(&outcomes) {
        let program = list[p].file_name().unwrap().to_string_lossy();
        same += usize::from(o.same_bytes == Some(true));
        ours_pass += usize::from(o.ours_pass);
        gnu_pass += usize::from(o.gnu_pass);
        bad.extend(judge(&program, OPTION_SETS[s].0, o, &known));
    }
    println!(
        "{} programs x {} option sets = {} builds: {same} with the same loadable bytes, \
         {ours_pass} pass with ours, {gnu_pass} with GNU's, in {:.1} s",
        list.len(),
        OPTION_SETS.len(),
        jobs.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The comparison sees a difference: the same program at -O0 and -O2 (both
/// GNU's build) gives two images, and the first difference is named.
#[test]
fn the_image_comparison_sees_a_difference() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let scratch = Scratch::new("c-suites-compare");
    let source = Path::new(ROOT).join(SUITE).join("single-exec/00002.c");
    let image = |opt: &str| {
        let dir = scratch.path(opt);
        std::fs::create_dir_all(&dir).unwrap();
        let [ours, gnu] = build(&dir, &source, &[opt]);
        let (ours, gnu) = (ours.unwrap(), gnu.unwrap());
        let ours = loaded(&std::fs::read(ours).unwrap());
        assert_eq!(ours, loaded(&std::fs::read(gnu).unwrap()));
        assert!(ours.contains_key(".text") && ours.contains_key("[entry]"));
        assert!(ours.keys().any(|k| k.starts_with("[segment")));
        ours
    };
    let (o0, o2) = (image("-O0"), image("-O2"));
    assert_ne!(o0, o2);
    let first = first_difference(&o0, &o2);
    assert!(first.contains(": ") && first != "none", "{first}");
}
