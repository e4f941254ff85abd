//! `scmp run` stopped by SIGINT or SIGTERM: it ends at the current cycle
//! with a report of every live context, exit status 130, and every output
//! file it was asked for complete and valid up to that cycle.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Every tile spins; tile 0 says when it has started.
const SPIN: &str = "# run: mesh=2x2 boot=all
    .text
    .globl _start
_start:
    csrr t0, nodeid
    bnez t0, loop
    la a0, started
    li a7, 23555          # print_string
    ecall
loop:
    addi t1, t1, 1
    j loop
    .data
started: .asciz \"started\\n\"
";

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("scmp-interrupt-{}-{name}", std::process::id()))
}

fn interrupted_by(signal: &str) {
    let source = temp(&format!("{signal}-spin.s"));
    std::fs::write(&source, SPIN).unwrap();
    let [json, stats, trace, timeline] = ["run.json", "stats.json", "trace.txt", "timeline.json"]
        .map(|n| temp(&format!("{signal}-{n}")));
    let mut child = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("run")
        .arg(&source)
        .arg("--json")
        .arg(&json)
        .arg("--stats=json")
        .arg("--stats-file")
        .arg(&stats)
        .arg(format!("--trace={}", trace.display()))
        .args(["--trace-cycles", "0..200"])
        .arg("--timeline")
        .arg(&timeline)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("scmp runs");
    // The program prints once the run (and the signal handler) is going.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.ends_with("started\n"), "{line:?}");
    let kill = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let cycle: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("interrupted at cycle "))
        .and_then(|l| l.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no report: {stderr}"));
    // Every live context with its pc and label; identical lines grouped.
    assert!(
        stderr.contains("context 0 at pc 0x0001") && stderr.contains("<loop"),
        "{stderr}"
    );
    assert!(
        stderr.contains("tiles 0-3 context 0")
            || (stderr.contains("tile 0 context 0") && stderr.contains("tiles 1-3 context 0")),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("stopped by SIG{signal} at cycle {cycle}")));

    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("--json is JSON");
    assert_eq!(record["end"], "interrupted");
    assert_eq!(record["exit_status"], 130);
    assert_eq!(record["total_cycles"], cycle);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).expect("stats are JSON");
    assert_eq!(s["total_cycles"], cycle);
    // Each of the 4 spinning tiles issued every cycle up to the stop.
    let instructions = s["instructions"].as_u64().unwrap();
    assert!(
        instructions > 0 && instructions <= 4 * cycle,
        "{instructions} in {cycle}"
    );
    let t: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&timeline).unwrap())
        .expect("the timeline is complete JSON");
    assert!(t["traceEvents"].as_array().is_some_and(|e| !e.is_empty()));
    let trace_text = std::fs::read_to_string(&trace).unwrap();
    assert!(trace_text.lines().count() > 100, "the trace was flushed");
    for f in [source, json, stats, trace, timeline] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn sigint_stops_at_the_current_cycle_with_a_report_and_complete_files() {
    interrupted_by("INT");
}

#[test]
fn sigterm_does_the_same() {
    interrupted_by("TERM");
}
