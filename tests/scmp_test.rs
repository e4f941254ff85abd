//! `scmp test` end to end, as a user works with it: a new program's
//! snapshot is written as pending and fails; `--accept` takes it; a change
//! to the program shows as a diff naming the first differing cycle, tile,
//! context and instruction; `--review` rejects or accepts it from the
//! answers on stdin; CI mode (`--check`, `CI=true`) writes nothing and fails
//! on anything new, changed or pending; directories, globs and header
//! options (defsym, trace filters) work.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scmp-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `scmp test ARGS` in `dir` with `input` on stdin, without `CI` set
/// unless `ci`.
fn scmp_test(dir: &Path, args: &[&str], input: &str, ci: bool) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_scmp"));
    cmd.arg("test")
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if ci {
        cmd.env("CI", "true");
    }
    let mut child = cmd.spawn().expect("scmp runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let Output {
        status,
        stdout,
        stderr,
        ..
    } = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    (status.code().expect("exited"), text)
}

const COUNTER: &str = "# run: mesh=1x1 defsym=STEP=1
    .text
    .globl _start
_start:
    li a0, 0
    addi a0, a0, STEP
    addi a0, a0, 2
    li a7, 93
    ecall
";

#[test]
fn new_accept_change_review_check() {
    let dir = scratch("flow");
    std::fs::write(dir.join("counter.s"), COUNTER).unwrap();
    // A helper source without `# run:` is not a program of its own.
    std::fs::write(dir.join("helper.s"), "nop\n").unwrap();

    let (code, out) = scmp_test(&dir, &[], "", false);
    assert_eq!(code, 1, "{out}");
    // A new snapshot is one line (how the run ended, the sections' sizes),
    // not a dump of every section as a difference from nothing.
    assert!(
        out.contains(
            "NEW     ./counter.s: no snapshot yet; end: exit(3); statistics 7 lines, trace 5 lines"
        ),
        "{out}"
    );
    assert!(!out.contains("differs"), "{out}");
    assert!(!out.contains("stderr"), "{out}");
    assert!(!out.contains("helper"), "{out}");
    let pending = std::fs::read_to_string(dir.join("counter.snap.new")).unwrap();
    assert!(
        pending
            .starts_with("---\nsource: scmp test\ninput_file: counter.s\n---\n## end\nexit(3)\n"),
        "{pending}"
    );
    assert!(!dir.join("counter.snap").exists());

    // CI mode fails on the new snapshot and writes nothing.
    std::fs::remove_file(dir.join("counter.snap.new")).unwrap();
    let (code, out) = scmp_test(&dir, &["counter.s"], "", true);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("not written (CI mode)"), "{out}");
    assert!(!dir.join("counter.snap.new").exists());

    let (code, out) = scmp_test(&dir, &["--accept"], "", false);
    assert_eq!(code, 0, "{out}");
    let snap = std::fs::read_to_string(dir.join("counter.snap")).unwrap();
    assert_eq!(snap, pending);
    let (code, out) = scmp_test(&dir, &["--check", "counter.s"], "", false);
    assert_eq!(
        (code, out.contains("ok      counter.s")),
        (0, true),
        "{out}"
    );

    // A change: the diff says where the runs part.
    std::fs::write(dir.join("counter.s"), COUNTER.replace("a0, 2", "a0, 5")).unwrap();
    let (code, out) = scmp_test(&dir, &["counter.s"], "", false);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("DIFFERS counter.s"), "{out}");
    assert!(out.contains("  end: differs"), "{out}");
    assert!(out.contains("    - exit(3)\n    + exit(6)"), "{out}");
    assert!(
        out.contains("first difference at cycle 2, tile 0, context 0, pc 00010008: add a0, a0, 5"),
        "{out}"
    );
    assert!(
        !out.contains("## statistics"),
        "only the differing lines: {out}"
    );
    assert!(dir.join("counter.snap.new").exists());
    let (code, out) = scmp_test(&dir, &["--check"], "", false);
    assert_eq!(code, 1, "{out}");

    // Review: reject keeps the old snapshot, accept takes the new one.
    let (code, out) = scmp_test(&dir, &["--review", "counter.s"], "r\n", false);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("accept [a], reject [r] or skip [s]?"), "{out}");
    assert!(out.contains("rejected"), "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.join("counter.snap")).unwrap(),
        snap
    );
    assert!(!dir.join("counter.snap.new").exists());
    let (code, out) = scmp_test(&dir, &["--review", "counter.s"], "a\n", false);
    assert_eq!(code, 0, "{out}");
    let (code, out) = scmp_test(&dir, &["counter.s"], "", true);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 matched"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn globs_header_filters_and_bad_paths() {
    let dir = scratch("glob");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let traced = "# run: mesh=2x1 boot=all trace-tiles=1 trace-events=inst\n.text\n.globl _start\n_start:\n    csrr a0, nodeid\n    li a7, 93\n    ecall\n";
    std::fs::write(dir.join("sub/two.s"), traced).unwrap();
    let (code, out) = scmp_test(&dir, &["--accept", "sub/*.s"], "", false);
    assert_eq!(code, 0, "{out}");
    let snap = std::fs::read_to_string(dir.join("sub/two.snap")).unwrap();
    let trace = snap.split("## trace\n").nth(1).unwrap();
    assert!(!trace.is_empty(), "{snap}");
    assert!(
        trace
            .lines()
            .all(|l| l.split_whitespace().nth(1) == Some("t1")),
        "only tile 1's instructions: {trace}"
    );

    let (code, out) = scmp_test(&dir, &["nothing/*.s"], "", false);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("`nothing/*.s` matches no program"), "{out}");
    let (code, out) = scmp_test(&dir, &["missing.s"], "", false);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("missing.s: no such file or directory"),
        "{out}"
    );

    std::fs::write(dir.join("bad.s"), "# run: mesh=2x1 colour=red\nnop\n").unwrap();
    let (code, out) = scmp_test(&dir, &["bad.s"], "", false);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAILED  bad.s: bad.s:1: in the `# run:` line, `colour=red`"),
        "{out}"
    );
    // A bad value of a configuration key, on the header's own line.
    std::fs::write(
        dir.join("bad.s"),
        "# a program
# run: threads=99
nop
",
    )
    .unwrap();
    let (code, out) = scmp_test(&dir, &["bad.s"], "", false);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAILED  bad.s: bad.s:2: in the `# run:` line: "),
        "{out}"
    );
    std::fs::write(dir.join("bad.s"), "# run: mesh=1x1\n addi a0, a0\n").unwrap();
    let (code, out) = scmp_test(&dir, &["bad.s"], "", false);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("bad.s:2:"), "the assembler's report: {out}");
    assert!(
        out.contains("FAILED  bad.s: assembly failed with 1 error"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `-I` in a `# run:` line (relative to the source) and `trace=`: what a
/// snapshot keeps of the trace.
#[test]
fn run_line_includes_and_trace_keep() {
    let dir = scratch("include-keep");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("inc/value.inc"), ".equ VALUE, 7\n").unwrap();
    let sub = dir.join("progs");
    std::fs::create_dir_all(&sub).unwrap();
    let program = |keep: &str| {
        format!(
            "# run: mesh=1x1 -I../inc trace={keep}\n    .include \"value.inc\"\n    .text\n    .globl _start\n_start:\n    li t0, 3000\n1:  addi t0, t0, -1\n    bnez t0, 1b\n    li a0, VALUE\n    li a7, 93\n    ecall\n"
        )
    };
    for (keep, expect) in [
        ("full", ""),
        ("summary", "summary (trace=summary"),
        ("none", ""),
    ] {
        std::fs::write(sub.join("p.s"), program(keep)).unwrap();
        let _ = std::fs::remove_file(sub.join("p.snap"));
        let (code, out) = scmp_test(&dir, &["--accept", "progs/p.s"], "", false);
        assert_eq!(code, 0, "{keep}: {out}");
        let snap = std::fs::read_to_string(sub.join("p.snap")).unwrap();
        assert!(snap.contains("## end\nexit(7)\n"), "{keep}: {snap}");
        let trace = snap.split("## trace\n").nth(1).unwrap();
        match keep {
            "full" => assert_eq!(trace.lines().filter(|l| !l.is_empty()).count(), 6005),
            "summary" => {
                assert!(trace.starts_with(expect), "{trace}");
                assert!(trace.contains("6005 lines") && trace.contains("fnv1a-64 "));
                assert!(trace.lines().count() < 30);
            }
            _ => assert_eq!(trace, "", "{keep}"),
        }
        // The snapshot it wrote matches the next run.
        let (code, out) = scmp_test(&dir, &["--check", "progs/p.s"], "", false);
        assert_eq!(code, 0, "{keep}: {out}");
    }
    // Without -I the include is not found: the directory came from the line.
    std::fs::write(sub.join("p.s"), program("none").replace(" -I../inc", "")).unwrap();
    let (code, out) = scmp_test(&dir, &["--check", "progs/p.s"], "", false);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("value.inc"), "{out}");
}
