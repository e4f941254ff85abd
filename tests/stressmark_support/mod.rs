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
