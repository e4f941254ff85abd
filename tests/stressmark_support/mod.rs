//! Helpers shared by the stressmark tests: where the programs are, and
//! their snapshots checked through `scmp test`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root (the programs' paths are relative to it).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The programs (sources with a `# run:` line) of a folder, sorted.
pub fn programs_in(folder: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("# run:"))
        .collect();
    files.sort();
    files
}

/// Runs `scmp test --check` (and `extra` flags) on `files`, requiring every
/// one to match its snapshot.
pub fn scmp_test_check(files: &[PathBuf], extra: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(["test", "--check"])
        .args(extra)
        .args(files)
        .current_dir(root())
        .output()
        .expect("scmp runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "scmp test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let n = files.len();
    assert!(
        stdout.contains(&format!(
            "scmp test: {n} programs: {n} matched, 0 accepted, 0 rejected, 0 pending, 0 failed"
        )),
        "{stdout}"
    );
}

/// Assembles `text` (named `name`: `.include` searches its directory) with
/// the `# run:` line's definitions, those of `extra` replacing them, and
/// runs it untraced as the line says: the definitions, the end and stdout.
pub fn run_source(
    name: &str,
    text: &str,
    extra: &[(String, i64)],
) -> (Vec<(String, i64)>, emu::RunEnd, String) {
    let header = emu::snapshot::RunHeader::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let config = header.config().unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut defsyms: Vec<(String, i64)> = header
        .defsyms
        .iter()
        .filter(|(n, _)| extra.iter().all(|(e, _)| e != n))
        .cloned()
        .collect();
    defsyms.extend(extra.iter().cloned());
    let options = asm::Options {
        defsyms: defsyms.clone(),
        ..asm::Options::default()
    };
    let elf = asm::assemble_sources(&[(name.to_string(), text.to_string())], &options)
        .unwrap_or_else(|d| panic!("{name}: {d}"))
        .elf;
    let program = emu::Program::from_elf(&elf).unwrap();
    let (result, console) = crate::emu_support::run_untraced(&config, &program);
    (
        defsyms,
        result.end,
        String::from_utf8_lossy(&console.stdout).into_owned(),
    )
}

pub use stressmarks::printed::skip_thread_prefix as strip_thread_prefix;

/// The result lines (`name values...`) of an output whose name is one of
/// `names`, without the thread prefix.
pub fn result_lines(stdout: &str, names: &[&str]) -> Vec<String> {
    stdout
        .lines()
        .map(strip_thread_prefix)
        .filter(|l| names.contains(&l.split_whitespace().next().unwrap_or("")))
        .map(str::to_string)
        .collect()
}
