//! Messaging misuse that fuzzing and adversarial programs found (issue 19),
//! in both NIU designs: each case ends the same way (the same fault, with
//! its tile, context, pc and cause) traced and untraced, in lockstep and
//! with a short epoch, and the designs agree where the rule is common.

mod emu_support;

use emu::snapshot::SnapshotOptions;
use emu::{ConfigBuilder, FaultCause, Program, RunEnd};
use emu_support::{run_untraced, run_untraced_with};

const DESIGNS: [&str; 2] = ["original", "modified"];

/// Runs `source` on a `mesh` with the first tile booted, in `design`:
/// untraced, traced (every record), in lockstep and with a 7-cycle epoch.
/// Every way must end the same; that end is returned.
fn end_of(source: &str, mesh: (u32, u32), design: &str) -> RunEnd {
    run_all_ways(source, mesh, design, "first").0
}

/// [`end_of`] with `boot` tiles booted; also returns the output.
fn run_all_ways(source: &str, mesh: (u32, u32), design: &str, boot: &str) -> (RunEnd, String) {
    let elf = emu_support::assemble("case.s", source).unwrap();
    let program = Program::from_elf(&elf).unwrap();
    let mut builder = ConfigBuilder::new();
    for setting in [
        format!("mesh.width={}", mesh.0),
        format!("mesh.height={}", mesh.1),
        format!("niu.design={design}"),
        format!("boot.tiles={boot}"),
        "sim.max_cycles=100000".to_string(),
    ] {
        builder.set(&setting).unwrap();
    }
    let config = builder.build().unwrap();
    let (quiet, console) = run_untraced(&config, &program);
    let traced = emu::snapshot::run(&config, &program, &SnapshotOptions::default()).unwrap();
    assert_eq!(
        traced.result.end, quiet.end,
        "{design}: tracing changes the end"
    );
    assert_eq!(
        traced.console, console,
        "{design}: tracing changes the output"
    );
    assert_eq!(
        traced.result.stats, quiet.stats,
        "{design}: tracing changes the statistics"
    );
    let (lockstep, _) = run_untraced_with(&config, &program, true);
    assert_eq!(
        lockstep.end, quiet.end,
        "{design}: lockstep changes the end"
    );
    assert_eq!(
        lockstep.stats, quiet.stats,
        "{design}: lockstep changes the statistics"
    );
    let mut short = config.clone();
    short.sim.epoch_cycles = 7;
    let (epoch, _) = run_untraced(&short, &program);
    assert_eq!(epoch.end, quiet.end, "{design}: epoch 7 changes the end");
    assert_eq!(
        epoch.stats, quiet.stats,
        "{design}: epoch 7 changes the statistics"
    );
    (
        quiet.end,
        String::from_utf8_lossy(&console.stdout).into_owned(),
    )
}

/// The fault `end` reports: tile, context, pc and its cause in words.
fn fault(end: &RunEnd) -> (u32, u32, u32, String) {
    match end {
        RunEnd::Fault(r) => (r.tile, r.context, r.pc, r.cause.to_string()),
        other => panic!("expected a fault, the run ended: {other:?}"),
    }
}

/// The address of label `name` in `source`.
fn symbol(source: &str, name: &str) -> u32 {
    let out = asm::assemble_sources(
        &[("case.s".to_string(), source.to_string())],
        &asm::Options::default(),
    )
    .unwrap();
    let sym = out.image.symbols.iter().find(|s| s.name == name);
    sym.unwrap_or_else(|| panic!("no symbol {name}")).value as u32
}

/// Bug 2: a thread message whose handler is not a multiple of 4 faults at
/// its `sendh` (untraced, it ran from the word below; traced on the
/// receiver, it could fault there instead).
#[test]
fn a_misaligned_thread_handler_faults_at_the_sendh() {
    for offset in [1, 2, 3] {
        let source = format!(
            "    .globl _start\n_start:\n    li s0, 1\n    la s1, work\n    addi s1, s1, {offset}\n\
             sendh_here:\n    sendh s0, thread, s1\n    send2e a0, a1\n    endt\n\
             work:\n    li a0, 7\n    li a7, 0x5c00\n    ecall\n    li a7, 93\n    ecall\n"
        );
        let at = symbol(&source, "sendh_here");
        let work = symbol(&source, "work");
        for design in DESIGNS {
            let (tile, context, pc, cause) = fault(&end_of(&source, (2, 1), design));
            assert_eq!((tile, context, pc), (0, 0, at), "{design}");
            assert!(
                cause.contains(&format!(
                    "thread handler {:#010x} is not a multiple of 4",
                    work + offset
                )),
                "{design}: {cause}"
            );
        }
    }
}

/// A misaligned `jr` faults at the `jr`, traced or not: the rule the thread
/// handler follows.
#[test]
fn a_misaligned_jump_faults_at_the_jump() {
    let source = "    .globl _start\n_start:\n    la t0, there\n    addi t0, t0, 2\nhere:\n    jr t0\nthere:\n    li a7, 93\n    ecall\n";
    let at = symbol(source, "here");
    let there = symbol(source, "there");
    for design in DESIGNS {
        let end = end_of(source, (1, 1), design);
        let RunEnd::Fault(r) = &end else {
            panic!("{end:?}")
        };
        assert_eq!((r.tile, r.context, r.pc), (0, 0, at));
        assert_eq!(r.cause, FaultCause::MisalignedTarget { target: there + 2 });
    }
}

/// A data message to tile 1's `buf` (2 words: 11 and 22), `STRIDE` words
/// apart, in either design (`ORIGINAL` set: a data header with the address
/// and stride, then a flag message; else a Rendezvous message into a
/// receive posted by `str`). Tile 1 prints the two words where they landed.
const STRIDED: &str = r#"
    .globl _start
_start:
    csrr s0, nodeid
    bnez s0, receiver
    li a0, 11
    li a1, 22
    li t0, 1
.if ORIGINAL
    la t1, buf
    li t2, STRIDE
at_header:
    sendh t0, data, t1, t2
    send2e a0, a1
    li t3, 1                # then the flag (messages arrive in order)
    la t4, flag
    li t5, 1
    sendh t0, data, t4, t5
    sende t3
.else
    li s1, 9
    sendh t0, rdv, s1
    send2e a0, a1
    waits s1
    rms s1
.endif
    endt
receiver:
    la s2, buf
.if ORIGINAL
    la t0, flag
1:  lw t1, 0(t0)
    beqz t1, 1b
.else
    li s1, 9
    li t2, STRIDE
at_str:
    str s1, s2, t2
    waitr s1
    rmr s1
.endif
    lw a0, 0(s2)
    li a7, 0x5c00           # print_int
    ecall
    li a0, ' '
    li a7, 0x5c02           # print_char
    ecall
    li t0, STRIDE
    slli t0, t0, 2
    add t0, t0, s2
    lw a0, 0(t0)
    li a7, 0x5c00
    ecall
    li a0, 0
    li a7, 93
    ecall
    .data
flag: .word 0
buf:  .word 0
"#;

fn strided(design: &str, stride: u32) -> String {
    let original = (design == "original") as u32;
    format!(".set ORIGINAL, {original}\n.set STRIDE, {stride}\n{STRIDED}")
}

/// Item 4: one rule for destination strides in both designs. Up to 131,071
/// words (the original data header's 17 bits) the words land `stride`
/// apart in both; a larger one (0x40000000 and 0xffffffff wrap the address
/// space) faults where it is given: the original's `sendh`, the modified
/// NIU's `str`.
#[test]
fn one_stride_rule_in_both_designs() {
    for design in DESIGNS {
        for stride in [0, 1, 7, 131_071] {
            let (end, out) = run_all_ways(&strided(design, stride), (2, 1), design, "all");
            assert_eq!(end, RunEnd::Exit(0), "{design} stride {stride}: {out}");
            let expected = if stride == 0 { "22 22" } else { "11 22" };
            assert!(out.contains(expected), "{design} stride {stride}: {out}");
        }
        for stride in [131_072u32, 0x4000_0000, 0xffff_ffff] {
            let source = strided(design, stride);
            let (at, tile) = match design {
                "original" => (symbol(&source, "at_header"), 0),
                _ => (symbol(&source, "at_str"), 1),
            };
            let (end, _) = run_all_ways(&source, (2, 1), design, "all");
            let (t, context, pc, cause) = fault(&end);
            assert_eq!(
                (t, context, pc),
                (tile, 0, at),
                "{design} stride {stride:#x}"
            );
            let words =
                format!("destination stride {stride} ({stride:#x}) is more than 131071 words");
            assert!(
                cause.contains(&words),
                "{design} stride {stride:#x}: {cause}"
            );
        }
    }
}

/// Item 6: `rms`/`rmr` of an id that has no entry (never used, or removed
/// already) fault at the instruction, as `waits`/`waitr` of one do; the
/// original NIU, which has no tables, faults on them whatever the id.
#[test]
fn removing_an_id_with_no_entry_faults() {
    for (op, what) in [("rms", "send"), ("rmr", "receive")] {
        let source = format!(
            "    .globl _start\n_start:\n    li s1, 42\nat:\n    {op} s1\n    li a7, 93\n    ecall\n"
        );
        let at = symbol(&source, "at");
        let (tile, context, pc, cause) = fault(&end_of(&source, (1, 1), "modified"));
        assert_eq!((tile, context, pc), (0, 0, at));
        let words = format!("no {what} of message id 42 is in the table: nothing to remove");
        assert!(cause.contains(&words), "{cause}");
        let (tile, context, pc, cause) = fault(&end_of(&source, (1, 1), "original"));
        assert_eq!((tile, context, pc), (0, 0, at));
        assert!(cause.contains("tables are the modified NIU's"), "{cause}");
    }
    // A second removal of a Complete entry: the first removed it.
    let source = "    .globl _start\n_start:\n    li s0, 0\n    li s1, 5\n    sendh s0, ready, s1\n    sende s1\n    waits s1\n    rms s1\nat:\n    rms s1\n    li a7, 93\n    ecall\n";
    let at = symbol(source, "at");
    let (tile, context, pc, cause) = fault(&end_of(source, (1, 1), "modified"));
    assert_eq!((tile, context, pc), (0, 0, at));
    assert!(
        cause.contains("no send of message id 5 is in the table"),
        "{cause}"
    );
}
