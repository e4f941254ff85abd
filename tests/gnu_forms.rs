//! GNU as's RV32G mnemonics and operand forms, found from its own behaviour
//! and checked byte for byte: candidate names are the words of the `as`
//! binary (its opcode table is in it), kept when GNU as knows them as
//! mnemonics; each is then written with every operand shape over a small
//! alphabet, and the lines GNU as accepts must assemble (and link) to GNU's
//! bytes here, except the two kinds of line the README lists as deliberate
//! differences.

mod support;

use std::collections::{BTreeSet, HashMap};
use std::process::Command;

use support::*;

/// Operands of every kind a form can take; `L` is a label near the line.
const ALPHABET: &[&str] = &[
    "a1", "fa1", "5", "L", "8(a2)", "(a2)", "rtz", "fcsr", "rw", "%lo(L)",
];
/// Four- and five-operand shapes use these (registers and a rounding mode).
const LONG_ALPHABET: &[&str] = &["a1", "fa1", "5", "(a2)", "rtz"];
/// GNU's privileged mnemonics: SCMP has none but `mret` (compared with the
/// rest), and we say so (see the README).
const PRIVILEGED: &[&str] = &[
    "sret",
    "uret",
    "dret",
    "hret",
    "wfi",
    "sfence.vm",
    "sfence.vma",
];
/// Names GNU as reads as symbols where a line needs an address.
const REGISTER_LIKE: &[&str] = &["a1", "fa1", "rtz", "fcsr", "rw", "a2"];

fn gnu_as() -> std::path::PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("riscv64-unknown-elf-as"))
        .find(|p| p.exists())
        .expect("riscv64-unknown-elf-as on PATH")
}

/// Assembles `lines` with GNU as; returns the (0-based) indices it rejects.
fn gnu_rejects(dir: &Scratch, lines: &[String]) -> BTreeSet<usize> {
    let path = dir.path("probe.s");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = Command::new("riscv64-unknown-elf-as")
        .args(["-march=rv32g", "-mabi=ilp32d", "-o"])
        .arg(dir.path("probe.o"))
        .arg(&path)
        .output()
        .expect("GNU as runs");
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(": Error:"))
        .filter_map(|l| l.split(':').nth(1)?.parse::<usize>().ok())
        .map(|n| n - 1)
        .collect()
}

/// The mnemonics GNU as knows for RV32G.
fn gnu_mnemonics(dir: &Scratch) -> Vec<String> {
    let binary = std::fs::read(gnu_as()).unwrap();
    let mut names = BTreeSet::new();
    let is_name = |w: &[u8]| {
        w.first().is_some_and(u8::is_ascii_lowercase)
            && !w.ends_with(b".")
            && !w.windows(2).any(|p| p == b"..")
    };
    // The linker merges a string into the tail of a longer one, so every
    // suffix of a word is a candidate too.
    for word in binary.split(|b| !(b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'.')) {
        for i in 0..word.len() {
            if is_name(&word[i..]) && word.len() - i <= 20 {
                names.insert(String::from_utf8_lossy(&word[i..]).into_owned());
            }
        }
    }
    let names: Vec<String> = names.into_iter().collect();
    let path = dir.path("names.s");
    std::fs::write(&path, names.join("\n") + "\n").unwrap();
    let out = Command::new("riscv64-unknown-elf-as")
        .args(["-march=rv32g", "-o"])
        .arg(dir.path("names.o"))
        .arg(&path)
        .output()
        .unwrap();
    let unknown: BTreeSet<usize> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains("unrecognized opcode") || l.contains("unknown pseudo-op"))
        .filter_map(|l| l.split(':').nth(1)?.parse::<usize>().ok())
        .collect();
    names
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !unknown.contains(&(i + 1)))
        .map(|(_, n)| n)
        .filter(|n| !n.starts_with('.'))
        .collect()
}

fn shapes() -> Vec<Vec<&'static str>> {
    let mut out: Vec<Vec<&str>> = vec![vec![]];
    let mut last: Vec<Vec<&str>> = vec![vec![]];
    for arity in 1..=4 {
        let alphabet = if arity == 4 { LONG_ALPHABET } else { ALPHABET };
        let base = if arity == 4 {
            // Four-operand shapes start from three-operand ones over the long alphabet.
            last.iter()
                .filter(|s| s.iter().all(|o| LONG_ALPHABET.contains(o)))
                .cloned()
                .collect()
        } else {
            last.clone()
        };
        last = base
            .iter()
            .flat_map(|s| alphabet.iter().map(move |o| [s.clone(), vec![*o]].concat()))
            .collect();
        out.extend(last.iter().cloned());
    }
    out
}

fn line(mnemonic: &str, shape: &[&str]) -> String {
    format!("{mnemonic} {}", shape.join(", "))
}

/// Lines GNU as takes whose address operand is a register or keyword name
/// (GNU reads it as a symbol), or an absolute number (GNU relaxes a branch
/// to it): per line, the relocations of its own section say which.
fn excused(dir: &Scratch, lines: &[String]) -> BTreeSet<usize> {
    let mut src = String::new();
    for (i, l) in lines.iter().enumerate() {
        src += &format!(".section .t{i},\"ax\"\n{l}\n");
    }
    let path = dir.path("excuse.s");
    std::fs::write(&path, src).unwrap();
    let obj = dir.path("excuse.o");
    let ok = Command::new("riscv64-unknown-elf-as")
        .args(["-march=rv32g", "-mabi=ilp32d", "-o"])
        .arg(&obj)
        .arg(&path)
        .status()
        .unwrap()
        .success();
    assert!(ok, "GNU as accepted these lines one by one");
    let dump = Command::new("riscv64-unknown-elf-objdump")
        .arg("-r")
        .arg(&obj)
        .output()
        .unwrap();
    let mut out = BTreeSet::new();
    let mut section: Option<usize> = None;
    for l in String::from_utf8_lossy(&dump.stdout).lines() {
        if let Some(rest) = l.strip_prefix("RELOCATION RECORDS FOR [.t") {
            section = rest.trim_end_matches("]:").parse().ok();
        } else if let Some(i) = section {
            let symbol = l.split_whitespace().nth(2).unwrap_or("");
            let name = symbol.split(['+', '-']).next().unwrap_or("");
            if REGISTER_LIKE.contains(&name) || name == "*ABS*" {
                out.insert(i);
            }
        }
    }
    out
}

#[test]
fn every_gnu_form_assembles_to_gnus_bytes() {
    require_gnu();
    let dir = Scratch::new("forms");
    let mnemonics = gnu_mnemonics(&dir);
    assert!(
        mnemonics.len() >= 200
            && ["add", "jr", "fmv.x.s", "sext.b", "frsr"]
                .iter()
                .all(|m| mnemonics.iter().any(|n| n == m)),
        "mnemonic discovery found only {} names: {mnemonics:?}",
        mnemonics.len()
    );
    let accepted = gnu_accepted_lines(&dir, &mnemonics);
    assert!(
        accepted.len() > 500,
        "GNU accepted only {} lines",
        accepted.len()
    );
    check_ours_take_what_gnu_takes(&dir, &accepted);
}

/// Every mnemonic in every operand shape, and the four-operand lines GNU
/// takes with one more operand: the lines GNU as accepts.
fn gnu_accepted_lines(dir: &Scratch, mnemonics: &[String]) -> Vec<String> {
    let shapes = shapes();
    let mut candidates = Vec::new();
    for m in mnemonics {
        for s in &shapes {
            candidates.push(line(m, s));
        }
    }
    let mut probe = vec!["L:".to_string()];
    probe.extend(candidates.iter().cloned());
    let rejected = gnu_rejects(dir, &probe);
    let mut accepted: Vec<String> = probe
        .iter()
        .enumerate()
        .filter(|(i, _)| *i > 0 && !rejected.contains(i))
        .map(|(_, l)| l.clone())
        .collect();
    // Five operands: the accepted four-operand lines and one more.
    let five: Vec<String> = accepted
        .iter()
        .filter(|l| l.matches(',').count() == 3)
        .flat_map(|l| LONG_ALPHABET.iter().map(move |o| format!("{l}, {o}")))
        .collect();
    let mut probe5 = vec!["L:".to_string()];
    probe5.extend(five);
    let rejected5 = gnu_rejects(dir, &probe5);
    accepted.extend(
        probe5
            .iter()
            .enumerate()
            .filter(|(i, _)| *i > 0 && !rejected5.contains(i))
            .map(|(_, l)| l.clone()),
    );
    accepted
}

/// The lines GNU accepts: we take each (or its rejection is excused) and
/// assemble the rest to GNU as + ld's bytes.
fn check_ours_take_what_gnu_takes(dir: &Scratch, accepted: &[String]) {
    // Which of them we reject (each line alone would be slow: one file, and
    // every diagnostic names its line).
    let ours_src = format!("    .globl _start\n_start:\nL:\n{}\n", accepted.join("\n"));
    let ours_rejected: BTreeSet<usize> =
        match asm::assemble_sources(&[("forms.s".into(), ours_src)], &asm::Options::default()) {
            Ok(_) => BTreeSet::new(),
            Err(d) => d
                .list
                .iter()
                .filter(|x| x.severity == asm::Severity::Error)
                .filter_map(|x| d.location(x).rsplit(':').nth(1)?.parse::<usize>().ok())
                .map(|n| n - 4)
                .collect(),
        };
    let rejected_lines: Vec<String> = ours_rejected.iter().map(|&i| accepted[i].clone()).collect();
    let excuses = excused(dir, &rejected_lines);
    let unexcused: Vec<&String> = rejected_lines
        .iter()
        .enumerate()
        .filter(|(i, l)| {
            !excuses.contains(i) && !PRIVILEGED.contains(&l.split(' ').next().unwrap_or(""))
        })
        .map(|(_, l)| l)
        .collect();
    assert!(
        unexcused.is_empty(),
        "GNU as accepts these lines, we reject them:\n{}",
        unexcused
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );

    // The rest: the same bytes as GNU as + ld.
    let both: Vec<String> = accepted
        .iter()
        .enumerate()
        .filter(|(i, _)| !ours_rejected.contains(i))
        .map(|(_, l)| l.clone())
        .collect();
    let src = vec![(
        "both.s".to_string(),
        format!("    .globl _start\n_start:\nL:\n{}\n", both.join("\n")),
    )];
    let opts = asm::Options {
        listing: true,
        ..asm::Options::default()
    };
    let ours = asm::assemble_sources(&src, &opts).unwrap_or_else(|d| panic!("{}", d.render(false)));
    let placement: Vec<(String, u64)> = ours
        .image
        .sections
        .iter()
        .filter(|s| s.size > 0)
        .map(|s| (s.name.to_string(), s.addr))
        .collect();
    let gnu = gnu_build(dir, &src, &[], &placement).expect("GNU as + ld build the accepted lines");
    compare_sections(
        &sections(&ours.elf),
        &sections(&gnu),
        &[".text"],
        &ours.lines,
    )
    .unwrap_or_else(|e| panic!("GNU forms differ:\n{e}"));
    let mut per_mnemonic: HashMap<&str, usize> = HashMap::new();
    for l in &both {
        *per_mnemonic
            .entry(l.split(' ').next().unwrap())
            .or_default() += 1;
    }
    assert!(
        per_mnemonic.len() >= 180,
        "only {} mnemonics compared byte for byte",
        per_mnemonic.len()
    );
}
