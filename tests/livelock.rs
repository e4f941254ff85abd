//! The livelock watch (issue 31, docs/network.md, "Livelock"): a run whose
//! threads only poll state that nothing will change ends in well under a
//! second with a report (exit status 125), and a run that computes, keeps
//! a counter in memory or waits on the clock is never stopped. A report of
//! a multi-tile run where only tile 0 booted says so and names `--boot all`.
//! Also the first hour's other texts of `scmp run` (a C source given to it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scmp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(args)
        .output()
        .expect("scmp runs")
}

fn temp(name: &str, text: &str) -> String {
    let path: PathBuf =
        std::env::temp_dir().join(format!("scmp-livelock-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// The cycle of a `no progress at cycle N` report.
fn reported_cycle(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("error: no progress at cycle "))
        .and_then(|l| l.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no livelock report: {stderr}"))
}

/// `programs/gather.s` (tile 0 polls every other tile's id with `ldsr`)
/// without its `# run:` line, as a user's own program would be.
fn gather_without_header() -> String {
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/gather.s"))
            .unwrap();
    let body: String = source
        .lines()
        .filter(|l| !l.starts_with("# run:"))
        .map(|l| format!("{l}\n"))
        .collect();
    temp("gather.s", &body)
}

#[test]
fn a_polling_gather_without_boot_all_ends_at_once_naming_the_flag() {
    let program = gather_without_header();
    let started = std::time::Instant::now();
    let out = scmp(&["run", &program, "--mesh", "8x8"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "{stderr}");
    // Before: 10^10 cycles (ten minutes) of silence.
    let cycle = reported_cycle(&stderr);
    assert!(cycle < 10_000_000, "found late, at {cycle}: {stderr}");
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    assert!(
        stderr.contains("a livelock: 1 context keeps running"),
        "{stderr}"
    );
    assert!(
        stderr.contains("tile 0 context 0 at pc") && stderr.contains("): running"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "repeats (looked at every sim.spin_check_cycles):\n  tile 0 in the same state at cycles"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("note: only tile 0 booted (boot.tiles = \"first\", the default without --boot): 63 of the 64 tiles never ran a thread. To start every tile at the entry point, run with --boot all"),
        "{stderr}"
    );
    // The same program with every tile booted gathers and exits 0.
    let out = scmp(&["run", &program, "--mesh", "8x8", "--boot", "all"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn every_tile_polling_for_an_id_nobody_sends_is_a_livelock_without_a_note() {
    let program = temp(
        "poll_all.s",
        "    .text
    .globl _start
_start:
    li s1, 5
    csrr s2, nodeid
1:  ldsr t0, s1             # the state of id 5: Empty for ever
    addi t1, s2, 1
    bnez t0, 2f
    j 1b
2:  li a7, 93
    ecall
",
    );
    let out = scmp(&["run", &program, "--mesh", "4x4", "--boot", "all"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "{stderr}");
    assert!(reported_cycle(&stderr) < 1_000_000, "{stderr}");
    assert!(
        stderr.contains("a livelock: 16 contexts keep running"),
        "{stderr}"
    );
    assert!(!stderr.contains("note:"), "every tile booted: {stderr}");
}

/// `tests/livelock/cts_polling.s`: a message whose RTS is never answered
/// keeps its flits in the sender's transmission queue while the receiver
/// polls (`ldsr`) for an id nobody sends. A queue waiting for its CTS is
/// no work under way, so the watch looks and finds the poll repeating.
#[test]
fn a_receiver_polling_while_a_message_waits_for_its_cts_is_a_livelock() {
    let program = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/livelock/cts_polling.s");
    let program = program.to_str().unwrap();
    for mode in [
        &[][..],
        &["--lockstep"][..],
        &["--set", "sim.epoch_cycles=7"][..],
    ] {
        let mut args = vec!["run", program];
        args.extend_from_slice(mode);
        let out = scmp(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(125), "{mode:?}: {stderr}");
        // Before: the run went on to its cycle limit of 1,000,000 (exit 124).
        assert!(reported_cycle(&stderr) < 100_000, "{mode:?}: {stderr}");
        assert!(
            stderr.contains("a livelock: 1 context keeps running"),
            "{mode:?}: {stderr}"
        );
        assert!(
            stderr.contains(
                "context 0's Rendezvous send of message id 5 to node 1 waits for its CTS"
            ),
            "{mode:?}: {stderr}"
        );
        assert!(
            stderr.contains("tile 1 in the same state at cycles"),
            "{mode:?}: {stderr}"
        );
    }
}

#[test]
fn a_counter_kept_in_memory_is_never_taken_for_a_livelock() {
    // The registers come back to the same values every iteration (t1 and
    // t3 are rewritten before the branch); only the word in memory counts.
    let program = temp(
        "memory_counter.s",
        "    .text
    .globl _start
_start:
    la a0, count
    li t2, 400000
1:  lw t0, 0(a0)
    addi t0, t0, 1
    sw t0, 0(a0)
    li t0, 0
    lw t1, 0(a0)
    sltu t3, t1, t2
    li t1, 0
    bnez t3, 1b
    li a0, 7
    li a7, 93
    ecall
    .data
count: .word 0
",
    );
    let out = scmp(&["run", &program]);
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stderr));
}

#[test]
fn waiting_on_the_clock_is_never_taken_for_a_livelock() {
    // t0 is 0 at every look until cycle 2^22: only the clock moves it.
    let program = temp(
        "clock_wait.s",
        "    .text
    .globl _start
_start:
1:  csrr t0, cycle
    srli t0, t0, 22
    beqz t0, 1b
    li a0, 5
    li a7, 93
    ecall
",
    );
    let out = scmp(&["run", &program]);
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
}

#[test]
fn a_long_compute_phase_between_messages_runs_to_its_end() {
    // Tile 1 computes for about 3 million cycles, then sends tile 0 the
    // word it waits for (tile 0 polls the entry with ldsr all along).
    let program = temp(
        "compute_then_send.s",
        "    .text
    .globl _start
_start:
    csrr s0, nodeid
    li s1, 9                # message id
    bnez s0, sender
    la s2, buf
    li t1, 1
    str s1, s2, t1
1:  ldsr t0, s1
    li t1, 7                # Complete
    bne t0, t1, 1b
    rmr s1
    lw a0, 0(s2)
    li a7, 93
    ecall
sender:
    li t0, 1000000
2:  addi t0, t0, -1
    bnez t0, 2b
    li a0, 0
    sendh a0, ready, s1
    li t0, 42
    sende t0
    waits s1
    rms s1
    endt
    .data
buf: .word 0
",
    );
    let out = scmp(&["run", &program, "--mesh", "2x1", "--boot", "all"]);
    assert_eq!(out.status.code(), Some(42), "{}", text(&out.stderr));
}

#[test]
fn the_watch_can_be_turned_off_and_the_cycle_limit_names_boot_all() {
    let program = gather_without_header();
    let out = scmp(&[
        "run",
        &program,
        "--mesh",
        "8x8",
        "--set",
        "sim.spin_check_cycles=0",
        "--max-cycles",
        "2000000",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(124), "{stderr}");
    assert!(
        stderr.contains("note: only tile 0 booted") && stderr.contains("--boot all"),
        "{stderr}"
    );
}

#[test]
fn a_waiting_deadlock_of_a_run_where_only_tile_0_booted_names_boot_all() {
    let program = temp(
        "wait_alone.s",
        "    .text
    .globl _start
_start:
    li s1, 3
    la s2, buf
    li t1, 1
    str s1, s2, t1
    waitr s1
    li a7, 93
    ecall
    .data
buf: .word 0
",
    );
    let out = scmp(&["run", &program, "--mesh", "2x2"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "{stderr}");
    assert!(stderr.starts_with("error: deadlock at cycle"), "{stderr}");
    assert!(
        stderr.contains("note: only tile 0 booted (boot.tiles = \"first\", the default without --boot): 3 of the 4 tiles never ran a thread"),
        "{stderr}"
    );
    // One tile: nothing to say.
    let out = scmp(&["run", &program, "--mesh", "1x1"]);
    assert!(
        !text(&out.stderr).contains("note:"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn running_a_c_source_suggests_scmp_cc() {
    let program = temp("prog.c", "int main(void) { return 0; }\n");
    let out = scmp(&["run", &program]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no ELF magic number: it is C source, which scmp run does not compile; build it first with `scmp cc ")
            && stderr.contains("prog.c -O2 -o prog.elf`"),
        "{stderr}"
    );
}

#[test]
fn a_run_line_value_the_configuration_refuses_names_file_and_line() {
    let program = temp(
        "header.s",
        "# run: mesh=2x1 niu=modifed
    .text
    .globl _start
_start:
    li a7, 93
    ecall
",
    );
    let out = scmp(&["run", &program]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{program}:1: in the `# run:` line: "))
            && stderr.contains("modifed")
            && stderr.contains("niu.design"),
        "{stderr}"
    );
}

#[test]
fn the_readme_first_program_runs_as_the_walkthrough_says() {
    let first = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/asm/first.s")
        .display()
        .to_string();
    let out = scmp(&[
        "run",
        &first,
        "--mesh",
        "4x4",
        "--boot",
        "all",
        "--raw-output",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "1240");
    // Without --boot all: a deadlock whose report names the flag.
    let out = scmp(&["run", &first, "--mesh", "4x4"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "{stderr}");
    assert!(stderr.contains("run with --boot all"), "{stderr}");
}
