//! Small texts of `scmp run` a newcomer meets (issue 31): `--mesh -1x2` is
//! refused as a size (not with clap's "use `-- -1`" tip, wrong for `run`),
//! and a long run shows progress lines on a pipe with `--progress`.

mod support;

use std::process::Command;

use support::*;

fn scmp(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap()
}

#[test]
fn a_negative_mesh_size_is_refused_as_a_size() {
    let out = scmp(&["run", "--mesh", "-1x2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--mesh -1x2: `-1` is not a size"), "{err}");
    assert!(!err.contains("-- -1"), "{err}");
}

#[test]
fn progress_lines_reach_a_pipe_when_asked() {
    let dir = Scratch::new("progress");
    let prog = dir.path("count.s");
    // Counts for ever (never the same state twice: no livelock), until
    // the cycle limit.
    std::fs::write(
        &prog,
        "    .text\n    .globl _start\n_start:\n1:  addi a0, a0, 1\n    j 1b\n",
    )
    .unwrap();
    let p = prog.to_str().unwrap();
    let out = scmp(&["run", p, "--max-cycles", "20000000", "--progress", "0.05"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(124), "{err}");
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("scmp: ") && l.contains("simulated cycles/s"))
        .collect();
    assert!(!lines.is_empty(), "no progress line on a pipe:\n{err}");
    assert!(lines[0].contains("of 64 tiles running"), "{}", lines[0]);
    // Without it, a short run on a pipe stays quiet (the first plain line
    // comes after a minute).
    let out = scmp(&["run", p, "--max-cycles", "100000"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("simulated cycles/s"), "{err}");
    // --progress takes seconds above 0, and not more than a Duration holds
    // (1e30 panicked in Duration::from_secs_f64).
    for (bad, says) in [("0", "above 0"), ("1e30", "too long"), ("-1", "above 0")] {
        let out = scmp(&["run", p, &format!("--progress={bad}")]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains(says) && !err.contains("panicked"),
            "{bad}: {err}"
        );
    }
}
