//! Nothing a program does makes the emulator panic or hang: random words
//! (mostly valid instructions of every kind, some not) run as code on
//! several contexts end with a fault, an exit, the end of all threads, a
//! reported deadlock or the cycle limit, and the statistics add up, under
//! either NIU design (messaging instructions are among the opcodes).

use emu::{CapturedConsole, ConfigBuilder, Program, RunEnd, RunOptions};
use isa_spec::{Inst, Opcode};
use proptest::prelude::*;

/// A word that is usually an instruction (any opcode, random fields) and
/// sometimes random bits.
fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => (0..Opcode::ALL.len(), any::<u32>()).prop_map(|(i, bits)| {
            let spec = Opcode::ALL[i].spec();
            // Random field bits under the opcode's fixed bits.
            let w = (bits & !spec.mask) | spec.match_bits;
            match Inst::decode(w) {
                Some(inst) => inst.encode().unwrap_or(w),
                None => w,
            }
        }),
        1 => any::<u32>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_code_ends_cleanly(
        words in prop::collection::vec(word(), 1..64),
        threads in 1u32..4,
        original in any::<bool>(),
    ) {
        let sets = ["mesh.height=1", "tile.stack_bytes=4096", "scheduler.quantum=8"];
        let result = run_cleanly(&words, threads, original, 20000, &sets)?;
        for t in &result.stats.tiles {
            prop_assert_eq!(t.issuing + t.switching + t.idle, t.cycles);
            prop_assert!(t.instructions <= t.issuing);
            let running: u64 = t.contexts.iter().map(|c| c.running).sum();
            prop_assert_eq!(running, t.issuing);
        }
    }

    #[test]
    fn random_messaging_ends_cleanly(
        nodes in prop::collection::vec(0i32..4, 2),
        id in 0i32..4,
        addr in prop_oneof![10 => Just(0x400), 10 => Just(0x404), 1 => Just(0x401)],
        other in prop::sample::select(vec![0x400, 0, 1999, -4]),
        (original, blocks) in any::<bool>()
            .prop_flat_map(|o| (Just(o), prop::collection::vec(block(o), 1..16))),
        threads in 1u32..4,
    ) {
        // x10..x15 hold plausible operands (x10, x11 nodes, x12 an id or
        // stride, x13 an address, x14 a handler or anything, x15 a sendm
        // stride/count word), then random SCMP instructions use them.
        let mut words: Vec<u32> = nodes
            .iter()
            .chain(&[id, addr, other])
            .enumerate()
            .map(|(k, v)| {
                let li = Inst { op: Opcode::Addi, rd: 10 + k as u8, rs1: 0, rs2: 0, rs3: 0, aux: 0, imm: *v };
                li.encode().unwrap()
            })
            .collect();
        // x15 = stride 1, count 2 (a sendm operand).
        words.push(Inst { op: Opcode::Lui, rd: 15, rs1: 0, rs2: 0, rs3: 0, aux: 0, imm: 0x10 }.encode().unwrap());
        words.push(Inst { op: Opcode::Addi, rd: 15, rs1: 15, rs2: 0, rs3: 0, aux: 0, imm: 2 }.encode().unwrap());
        for (op, rs1, rs2, rs3, aux) in blocks.into_iter().flatten() {
            let inst = Inst { op, rd: 5, rs1, rs2, rs3, aux, imm: 0 };
            words.push(inst.encode().unwrap());
        }
        words.push(Inst { op: Opcode::Endt, rd: 0, rs1: 0, rs2: 0, rs3: 0, aux: 0, imm: 0 }.encode().unwrap());
        let sets = [
            "mesh.height=2",
            "tile.contexts=4",
            "niu.queue_flits=4",
            "niu.send_table_entries=2",
        ];
        let result = run_cleanly(&words, threads, original, 50000, &sets)?;
        let net = &result.stats.network;
        for t in &net.types {
            prop_assert!(t.messages_received <= t.messages_sent, "{:?}", t);
        }
    }
}

/// Runs `words` from 0x10000 on every tile of a 2-wide mesh (`sets` adds
/// keys) with `threads` threads and checks that it ended in one of the
/// clean ways.
fn run_cleanly(
    words: &[u32],
    threads: u32,
    original: bool,
    max_cycles: u64,
    sets: &[&str],
) -> Result<emu::RunResult, TestCaseError> {
    let mut b = ConfigBuilder::new();
    let design = if original { "original" } else { "modified" };
    for key in [
        "mesh.width=2".to_string(),
        "boot.tiles=all".into(),
        format!("boot.threads={threads}"),
        format!("sim.max_cycles={max_cycles}"),
        "tile.memory_bytes=1048576".into(),
        format!("niu.design=\"{design}\""),
    ]
    .iter()
    .map(String::as_str)
    .chain(sets.iter().copied())
    {
        b.set(key).unwrap();
    }
    let config = b.build().unwrap();
    let program = Program::from_words(0x10000, words);
    let mut console = CapturedConsole::default();
    let options = RunOptions {
        fault_trace_lines: 4,
        ..RunOptions::default()
    };
    let result = emu::run(&config, &program, options, &mut console).unwrap();
    match &result.end {
        RunEnd::CycleLimit(limit) => prop_assert_eq!(*limit, max_cycles),
        RunEnd::Fault(report) => prop_assert!(report.to_string().contains("guest fault")),
        RunEnd::Deadlock(report) => {
            let text = report.to_string();
            prop_assert!(text.starts_with("deadlock at") || text.starts_with("no progress at"))
        }
        RunEnd::Interrupted(_) => prop_assert!(false, "nothing interrupts these runs"),
        RunEnd::Exit(_) | RunEnd::AllThreadsEnded => {}
    }
    Ok(result)
}

/// An SCMP instruction with registers from x10..x15 and a send type.
type Op = (Opcode, u8, u8, u8, u8);

fn op(choices: &'static [Opcode]) -> impl Strategy<Value = Op> {
    (
        prop::sample::select(choices),
        10u8..16,
        10u8..16,
        10u8..16,
        0u8..3,
    )
}

/// A header of the design's kinds to a node in x10 or x11 (sometimes any
/// register): original, thread or addressed data; modified, thread, Ready
/// or Rendezvous.
fn header(original: bool) -> impl Strategy<Value = Op> {
    let node = prop_oneof![30 => 10u8..12, 1 => 12u8..16];
    let kind = if original {
        prop_oneof![Just((Opcode::SendhT, 0u8)), Just((Opcode::SendhD, 0u8))].boxed()
    } else {
        (0u8..3).prop_map(|t| (Opcode::SendhT, t)).boxed()
    };
    // Thread: handler x14 (the entry or elsewhere); data: id x12 or
    // address x13 with stride x12.
    (kind, node, prop_oneof![Just(12u8), Just(13), Just(14)]).prop_map(|((op, ty), rs1, rs2)| {
        let rs2 = match (op, ty) {
            (Opcode::SendhD, _) => 13,
            (_, 0) => 14,
            _ => rs2,
        };
        (op, rs1, rs2, 12, ty)
    })
}

/// Mostly a whole message (a header, bodies, an end), sometimes any one
/// SCMP instruction.
fn block(original: bool) -> impl Strategy<Value = Vec<Op>> {
    const BODY: [Opcode; 3] = [Opcode::Send, Opcode::Send2, Opcode::Sendm];
    const END: [Opcode; 3] = [Opcode::Sende, Opcode::Send2e, Opcode::Sendme];
    // sendm/sendme read memory at x13 with the count word x15.
    let fix = |(op, rs1, rs2, rs3, aux): Op| match op {
        Opcode::Sendm | Opcode::Sendme => (op, 13, 15, rs3, aux),
        _ => (op, rs1, rs2, rs3, aux),
    };
    prop_oneof![
        3 => (header(original), prop::collection::vec(op(&BODY), 0..3), op(&END)).prop_map(move |(h, b, e)| {
            let mut v = vec![h];
            v.extend(b.into_iter().map(fix));
            v.push(fix(e));
            v
        }),
        1 => op(&SCMP).prop_map(|o| vec![o]),
    ]
}

/// The SCMP instructions.
const SCMP: [Opcode; 17] = [
    Opcode::SendhT,
    Opcode::SendhD,
    Opcode::Send,
    Opcode::Sende,
    Opcode::Send2,
    Opcode::Send2e,
    Opcode::Sendm,
    Opcode::Sendme,
    Opcode::Ldss,
    Opcode::Ldsr,
    Opcode::Str,
    Opcode::Rms,
    Opcode::Rmr,
    Opcode::Endt,
    Opcode::Yield,
    Opcode::Waits,
    Opcode::Waitr,
];
