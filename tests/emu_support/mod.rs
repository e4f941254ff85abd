//! Helpers shared by the emulator's integration tests: assembling programs
//! and capturing an untraced run's output and statistics.
//!
//! Programs go through the project's assembler (`asm::assemble_sources`).
//! `SCMP_TEST_ASSEMBLER=gnu` assembles them with GNU binutils instead
//! (`riscv64-unknown-elf-as -march=rv32g` and `ld -Ttext=0x10000`), a cross
//! check of the emulator against the real tools: the qemu differential test
//! passes either way; the program snapshots record the project assembler's
//! data layout (GNU ld places .data elsewhere, so addresses differ).

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use emu::{CapturedConsole, Config, Program, RunOptions, RunResult};

/// Assembles one source text into an ELF.
pub fn assemble(name: &str, text: &str) -> Result<Vec<u8>, String> {
    if std::env::var("SCMP_TEST_ASSEMBLER").as_deref() == Ok("gnu") {
        return assemble_gnu(name, text);
    }
    asm::assemble_sources(
        &[(name.to_string(), text.to_string())],
        &asm::Options::default(),
    )
    .map(|o| o.elf)
    .map_err(|d| format!("{name}: the assembler failed:\n{d}"))
}

fn assemble_gnu(name: &str, text: &str) -> Result<Vec<u8>, String> {
    let dir = std::env::temp_dir().join(format!(
        "scmp-test-{}-{}",
        std::process::id(),
        name.replace(['/', '.'], "_")
    ));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let src = dir.join("prog.s");
    let obj = dir.join("prog.o");
    let elf = dir.join("prog");
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let run = |cmd: &mut Command| -> Result<(), String> {
        let out = cmd
            .output()
            .map_err(|e| format!("{name}: cannot run {cmd:?}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{name}: {cmd:?} failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    run(Command::new("riscv64-unknown-elf-as")
        .args(["-march=rv32g", "-mabi=ilp32d", "-mno-relax", "-o"])
        .arg(&obj)
        .arg(&src))?;
    run(Command::new("riscv64-unknown-elf-ld")
        .args([
            "-m",
            "elf32lriscv",
            "--no-relax",
            "-Ttext=0x10000",
            "-e",
            "_start",
            "-o",
        ])
        .arg(&elf)
        .arg(&obj))?;
    let bytes = std::fs::read(&elf).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(bytes)
}

/// Assembles a file.
pub fn assemble_file(path: &Path) -> Result<Vec<u8>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    assemble(&name, &text)
}

/// Runs `program` with `config` without tracing (the trace must not change
/// a run: snapshot runs, traced, are compared with this).
pub fn run_untraced(config: &Config, program: &Program) -> (RunResult, CapturedConsole) {
    run_untraced_with(config, program, false)
}

/// [`run_untraced`], with tiles and network in lockstep or not.
pub fn run_untraced_with(
    config: &Config,
    program: &Program,
    lockstep: bool,
) -> (RunResult, CapturedConsole) {
    let options = RunOptions {
        fault_trace_lines: 8,
        lockstep,
        ..RunOptions::default()
    };
    let mut console = CapturedConsole::default();
    let result = emu::run(config, program, options, &mut console).expect("the program loads");
    (result, console)
}
