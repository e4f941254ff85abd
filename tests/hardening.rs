//! The command line on inputs a new user gives it (issue 10): no panic, no
//! runaway, one exit status and one error style for bad input, the usual
//! spellings of flags, early checks of output paths and trace filters, a
//! program's `# run:` line, `.S` preprocessing, compressed and misaligned
//! code refused at load, statistics that end at the run's end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn scmp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("scmp runs")
}

fn program(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("programs")
        .join(name)
        .display()
        .to_string()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("scmp-hardening-{}-{name}", std::process::id()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

fn write(name: &str, contents: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

/// Bad input: status 2, no panic, the given words in the message.
fn fails_cleanly(out: &Output, words: &[&str]) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for w in words {
        assert!(stderr.contains(w), "`{w}` missing in: {stderr}");
    }
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    let elf = temp("pipe.elf");
    let src = write("pipe.s", ".rept 20000\nnop\n.endr\n");
    assert!(
        scmp(&["asm", &src, "-o", elf.to_str().unwrap()])
            .status
            .success()
    );
    for args in [
        vec!["objdump", "-d", elf.to_str().unwrap()],
        vec!["asm", "-l", &src, "-o", elf.to_str().unwrap()],
        vec!["config"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_scmp"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read nothing and close the pipe, as `| head -0` would.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn misaligned_text_bases_and_code_are_refused() {
    let out = scmp(&["asm", &program("hello.s"), "--text-base", "0x10001"]);
    fails_cleanly(&out, &["not a multiple of 4"]);
    // An ELF whose code segment is misaligned (patched from a good one).
    let elf = temp("misaligned.elf");
    assert!(
        scmp(&["asm", &program("hello.s"), "-o", elf.to_str().unwrap()])
            .status
            .success()
    );
    let mut bytes = std::fs::read(&elf).unwrap();
    let phoff = u32::from_le_bytes(bytes[28..32].try_into().unwrap()) as usize;
    // The first program header is the code segment: p_vaddr at +8, p_paddr at +12.
    for at in [phoff + 8, phoff + 12] {
        let v = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) + 2;
        bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    std::fs::write(&elf, &bytes).unwrap();
    let out = scmp(&["run", elf.to_str().unwrap()]);
    fails_cleanly(&out, &["code segment at 0x00010002 is not 4-byte aligned"]);
    // The RVC flag: gcc's default -march has compressed instructions.
    bytes[36] |= 1;
    std::fs::write(&elf, &bytes).unwrap();
    let out = scmp(&["run", elf.to_str().unwrap()]);
    fails_cleanly(&out, &["compressed instructions", "-march=rv32g"]);
    let _ = std::fs::remove_file(elf);
}

#[test]
fn one_exit_status_and_one_style_for_bad_input() {
    let undefined = write("undef.s", "li a0, UNDEF\n");
    let out = scmp(&["asm", &undefined, "-o", temp("u.elf").to_str().unwrap()]);
    fails_cleanly(&out, &["undefined symbol `UNDEF`", "undef.s:1:8"]);
    assert_eq!(
        text(&out.stderr).matches("undefined symbol").count(),
        1,
        "reported once: {}",
        text(&out.stderr)
    );
    let out = scmp(&["run", &undefined]);
    fails_cleanly(
        &out,
        &["undef.s:1:8", "error: assembly failed with 1 error"],
    );
    assert!(
        !text(&out.stderr).contains("│   ×"),
        "not nested: {}",
        text(&out.stderr)
    );
    for args in [
        vec!["asm", "/nonexistent.s"],
        vec!["objdump", "/nonexistent.elf"],
        vec!["run", "/nonexistent.elf"],
    ] {
        let out = scmp(&args);
        fails_cleanly(&out, &["error: cannot read /nonexistent"]);
        // One line, no source snippet quoting the message.
        assert_eq!(
            text(&out.stderr).lines().count(),
            1,
            "{}",
            text(&out.stderr)
        );
    }
    let out = scmp(&["objdump", &undefined]);
    fails_cleanly(&out, &["error:", "not an ELF"]);
}

#[test]
fn flag_values_after_a_space() {
    let out = scmp(&["run", &program("hello.s"), "--stats", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stats: serde_json::Value = serde_json::from_str(&text(&out.stderr)).unwrap();
    assert_eq!(stats["tiles"][0]["tile"], 0);
    let trace = temp("spaced.trace");
    let out = scmp(&[
        "run",
        "--trace",
        trace.to_str().unwrap(),
        &program("hello.s"),
    ]);
    fails_cleanly(&out, &["trace file goes after `=`", "taken for a program"]);
}

#[test]
fn output_paths_and_trace_filters_are_checked_before_the_run() {
    let out = scmp(&[
        "run",
        &program("hello.s"),
        "--stats",
        "--stats-file",
        "/nonexistent/dir/stats.txt",
    ]);
    fails_cleanly(&out, &["cannot create the statistics file"]);
    assert!(out.stdout.is_empty(), "the program did not run");
    let hello = program("hello.s");
    for (flag, value, words) in [
        ("--trace-cycles", "500..100", &["the window is empty"][..]),
        ("--trace-tiles", "99", &["99 is beyond the 64 tiles"][..]),
        (
            "--trace-contexts",
            "16",
            &["16 is beyond the 16 contexts"][..],
        ),
        ("--trace-tiles", "3-1", &["the range is empty"][..]),
        ("--trace-tiles", "99999999999", &["is too large"][..]),
        (
            "--trace-cycles",
            "0..99999999999999999999",
            &["is too large"][..],
        ),
    ] {
        let out = scmp(&[
            "run",
            &hello,
            "--mesh",
            "8x8",
            "--trace=/dev/null",
            flag,
            value,
        ]);
        fails_cleanly(&out, words);
    }
}

#[test]
fn run_honours_the_programs_run_line() {
    let out = scmp(&["run", &program("spmd.s")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // mesh=2x2 boot=all: four tiles, and no fifth.
    assert!(
        stdout.contains("[t3 c0]") && !stdout.contains("[t4 c0]"),
        "{stdout}"
    );
    // An explicit flag wins.
    let out = scmp(&[
        "run",
        &program("spmd.s"),
        "--boot",
        "first",
        "--mesh",
        "1x1",
    ]);
    assert!(!text(&out.stdout).contains("[t1"), "{}", text(&out.stdout));
    let bad = write("badrun.s", "# run: meshes=2\n.text\nendt\n");
    fails_cleanly(
        &scmp(&["run", &bad]),
        &["badrun.s:1: in the `# run:` line", "meshes=2"],
    );
}

#[test]
fn dot_capital_s_sources_are_preprocessed() {
    let src = write(
        "pre.S",
        "#define CODE 40\n#ifdef EXTRA\n#define MORE 2\n#else\n#define MORE 0\n#endif\n.text\n.globl _start\n_start:\n  li a0, CODE + MORE\n  li a7, 93\n  ecall\n",
    );
    assert_eq!(scmp(&["run", &src]).status.code(), Some(40));
    assert_eq!(scmp(&["run", &src, "-D", "EXTRA"]).status.code(), Some(42));
    let elf = temp("pre.elf");
    let out = scmp(&["asm", &src, "-DEXTRA", "-o", elf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        scmp(&["run", elf.to_str().unwrap()]).status.code(),
        Some(42)
    );
    let broken = write("broken.S", "#if\n");
    fails_cleanly(&scmp(&["run", &broken]), &["C preprocessor", "failed"]);
}

#[test]
fn statistics_end_at_the_runs_end() {
    // Tile 0 exits early while tile 1 still computes.
    let out = scmp(&["run", &program("exit_early.s"), "--stats=json"]);
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stderr));
    let stats: serde_json::Value = serde_json::from_str(&text(&out.stderr)).unwrap();
    let total = stats["total_cycles"].as_u64().unwrap();
    let tiles = stats["tiles"].as_array().unwrap();
    assert_eq!(tiles.len(), 2);
    for t in tiles {
        let cycles = t["cycles"].as_u64().unwrap();
        assert!(
            cycles <= total,
            "tile {} ran {cycles} cycles of {total}",
            t["tile"]
        );
    }
}

#[test]
fn version_and_help_say_what_they_should() {
    let out = scmp(&["--version"]);
    let v = text(&out.stdout);
    assert!(
        v.contains("commit ") && v.contains("RV32G") && v.contains("semihosting"),
        "{v}"
    );
    let help = text(&scmp(&["run", "--help"]).stdout);
    for default in ["[default: 8x8]", "[default: 1]", "[default: first"] {
        assert!(help.contains(default), "{default} missing in {help}");
    }
}
