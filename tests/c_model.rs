//! `scmp cc` and the two programming models (issue 31): a program that
//! calls the other model's routines fails at compile time with gcc's error
//! at the call, naming the `--model` flag it needs (scmp.h declares them
//! with `__attribute__((error))`), and every compile or link error exits
//! with status 2 (bad input), not gcc's 1.

mod support;

use std::path::Path;
use std::process::Output;

use support::*;

fn cc(args: &[&str], source: &Path, out: &Path) -> Output {
    scmp()
        .arg("cc")
        .args(args)
        .arg(source)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

fn require_c() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
}

/// Active messages: tile 1 writes a value into tile 0's `value`, then
/// raises its flag.
const AM: &str = r#"#include <scmp.h>
int value;
volatile int flag;
int main(void) {
    if (scmp_node_id() == 1) {
        sendDataIntValue(0, &value, 42);
        sendDataIntValue(0, (int *)&flag, 1);
        return 0;
    }
    amWaitFlag(&flag);
    return value;
}
"#;

/// Send and receive: the same with a message id.
const SR: &str = r#"#include <scmp.h>
int value;
int main(void) {
    if (scmp_node_id() == 1) {
        SCMPSendInt(0, 7, 42);
        SCMPWaitSend(7);
        SCMPClearSend(7);
        return 0;
    }
    SCMPReceive(7, &value, 1);
    SCMPWaitReceive(7);
    SCMPClearReceive(7);
    return value;
}
"#;

#[test]
fn the_other_models_routines_fail_at_compile_time_naming_the_flag() {
    require_c();
    let dir = Scratch::new("c-model");
    let (am, sr, elf) = (dir.path("am.c"), dir.path("sr.c"), dir.path("x.elf"));
    std::fs::write(&am, AM).unwrap();
    std::fs::write(&sr, SR).unwrap();
    for opt in ["-O0", "-O2"] {
        // Active messages without --model am (sr is the default).
        let out = cc(&[opt], &am, &elf);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("am.c:6:")
                && stderr.contains("sendDataIntValue is a routine of the am model: compile with `scmp cc --model am` (and run with --niu original)"),
            "{stderr}"
        );
        assert!(
            stderr.contains("amWaitFlag is a routine of the am model"),
            "{stderr}"
        );
        assert!(!stderr.contains("implicit declaration"), "{stderr}");
        assert!(!stderr.contains("undefined reference"), "{stderr}");
        // Send and receive under --model am.
        let out = cc(&["--model", "am", opt], &sr, &elf);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("SCMPSendInt is a routine of the sr model: compile with `scmp cc --model sr` (and run with --niu modified)"),
            "{stderr}"
        );
    }
    // Each with its own model builds and runs: tile 0 returns 42.
    for (source, model, niu) in [(&am, "am", "original"), (&sr, "sr", "modified")] {
        let out = cc(&["--model", model, "-O1"], source, &elf);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = scmp()
            .arg("run")
            .arg(&elf)
            .args(["--mesh", "2x1", "--boot", "all", "--niu", niu])
            .output()
            .unwrap();
        assert_eq!(
            run.status.code(),
            Some(42),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
}

#[test]
fn a_compile_error_exits_with_status_2() {
    require_c();
    let dir = Scratch::new("c-model-syntax");
    let bad = dir.path("bad.c");
    std::fs::write(&bad, "int main(void) { return 0 }\n").unwrap();
    let out = cc(&[], &bad, &dir.path("bad.elf"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.c:1:"));
}

/// Target flags `scmp run` would refuse are refused up front, naming the
/// flag and what the tiles run.
#[test]
fn target_flags_the_tiles_do_not_run_are_refused_before_gcc() {
    require_c();
    let dir = Scratch::new("c-model-march");
    let src = dir.path("ok.c");
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    let elf = dir.path("ok.elf");
    for (flags, says) in [
        (&["-march=rv32gc"][..], "not c (compressed instructions"),
        (&["-march=rv64g"][..], "the tiles are RV32"),
        (&["-march=rv32imafd_zba"][..], "not zba"),
        (&["-mabi=lp64"][..], "scmp cc links ilp32d only"),
        (&["-mabi=ilp32"][..], "scmp cc links ilp32d only"),
        (&["-march=rv32ima"][..], "has no D extension"),
        (&["-march=rv32"][..], "names no base ISA"),
        // `_m` is the M extension (as in rv32im), not an unknown `m`.
        (&["-march=rv32i_m"][..], "has no D extension"),
        // Letters the tiles run, but no 32-bit picolibc for the string.
        (
            &["-march=rv32imafd_zicsr_zifencei"][..],
            "no library for this target",
        ),
    ] {
        let out = cc(flags, &src, &elf);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {err}");
        assert!(err.contains(says), "{flags:?}: {err}");
        assert!(!elf.exists(), "{flags:?} compiled");
    }
    for flags in [
        &["-march=rv32g"][..],
        &["-march=rv32imafd", "-mabi=ilp32d"][..],
    ] {
        let out = cc(flags, &src, &elf);
        assert!(
            out.status.success(),
            "{flags:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// An assembler error in what gcc wrote keeps gcc's temporary `.s` beside
/// the output (gcc deletes it) and the errors name the kept file.
#[test]
fn an_assembler_error_keeps_the_assembly_and_names_it() {
    require_c();
    let dir = Scratch::new("c-model-asm-error");
    let src = dir.path("inline.c");
    std::fs::write(
        &src,
        "int main(void) {\n    __asm__ volatile(\"addi a0, a0, nonsense +\");\n    return 0;\n}\n",
    )
    .unwrap();
    let out = cc(&[], &src, &dir.path("inline.elf"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let kept = dir.path("inline.failed.s");
    let text = std::fs::read_to_string(&kept).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert!(text.contains("nonsense +"), "{text}");
    let shown = kept.display().to_string();
    assert!(
        err.contains(&format!("[{shown}:")),
        "the errors name {shown}: {err}"
    );
    assert!(err.contains(&format!("is kept as {shown}")), "{err}");
}
