//! The fast loop against the general interpreter: random programs run
//! untraced (fast loop) and traced (every instruction the general way)
//! must end alike, with the same statistics, output, registers, pcs,
//! counters and memory.

use std::collections::VecDeque;

use isa_spec::{Extension, HostService, Inst, Opcode, Operand};

use crate::machine::{Machine, RunOptions, TraceOptions, TraceSink};
use crate::test_rng::Rng;
use crate::{CapturedConsole, ConfigBuilder, Program, RunResult, TraceFilter};

const TEXT: u32 = 0x10000;
/// Every F and D instruction.
fn fp_ops() -> Vec<Opcode> {
    Opcode::ALL
        .iter()
        .copied()
        .filter(|op| matches!(op.spec().extension, Extension::F | Extension::D))
        .collect()
}
const BRANCHES: &[Opcode] = &[
    Opcode::Beq,
    Opcode::Bne,
    Opcode::Blt,
    Opcode::Bge,
    Opcode::Bltu,
    Opcode::Bgeu,
];
const DEST: &[u8] = &[0, 1, 5, 6, 7, 10, 11, 12, 13, 14, 15];
const SRC: &[u8] = &[0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
const ALU: &[Opcode] = &[
    Opcode::Lui,
    Opcode::Auipc,
    Opcode::Addi,
    Opcode::Slti,
    Opcode::Sltiu,
    Opcode::Xori,
    Opcode::Ori,
    Opcode::Andi,
    Opcode::Slli,
    Opcode::Srli,
    Opcode::Srai,
    Opcode::Add,
    Opcode::Sub,
    Opcode::Sll,
    Opcode::Slt,
    Opcode::Sltu,
    Opcode::Xor,
    Opcode::Srl,
    Opcode::Sra,
    Opcode::Or,
    Opcode::And,
    Opcode::Mul,
    Opcode::Mulh,
    Opcode::Mulhsu,
    Opcode::Mulhu,
    Opcode::Div,
    Opcode::Divu,
    Opcode::Rem,
    Opcode::Remu,
];

fn enc(i: Inst) -> u32 {
    i.encode().unwrap_or_else(|e| panic!("{i:?}: {e:?}"))
}

fn inst(op: Opcode, rd: u8, rs1: u8, rs2: u8, imm: i32) -> u32 {
    let mut i = Inst::with_defaults(op);
    i.rd = rd;
    i.rs1 = rs1;
    i.rs2 = rs2;
    i.imm = imm;
    enc(i)
}

/// A branch or jump offset from word `at` of `n`: mostly to another
/// word of the program, sometimes misaligned or far outside it.
fn offset(rng: &mut Rng, at: usize, n: usize, limit: i32, odd: u64) -> i32 {
    match rng.below(odd) {
        0 => 2,
        1 => -4 * (at as i32) - 64,
        _ => {
            let back = rng.below(3) == 0;
            let k = rng.below(12) as i32 + 1;
            let k = if back {
                -k.min(at as i32)
            } else {
                k.min((n - at) as i32)
            };
            (4 * k).clamp(-limit, limit - 2)
        }
    }
}

/// `n` random words (after a prologue that points s0 at data and s1 at
/// the text), then `endt`. Each word is drawn from one group (by the
/// first `rng.below(100)`, the groups' shares below); a group that needs
/// more than one word pushes the first ones itself.
fn program(rng: &mut Rng, n: usize) -> Vec<u32> {
    // One program in four has many faults, the others few: the odds of
    // a misaligned access or target, a breakpoint or a random word.
    let odd = if rng.below(4) == 0 { 20 } else { 400 };
    let mut w = prologue(rng);
    let pro = w.len();
    while w.len() < pro + n {
        let s = Slot {
            odd,
            n,
            pro,
            at: w.len() - pro,
            rd: rng.pick(DEST),
            rs1: rng.pick(SRC),
            rs2: rng.pick(SRC),
        };
        let word = match rng.below(100) {
            0..=29 => alu(rng, &s),
            30..=44 => load(rng, &s),
            45..=56 => store(rng, &s),
            57..=68 => {
                let op = rng.pick(BRANCHES);
                inst(op, 0, s.rs1, s.rs2, offset(rng, s.at, n, 4096, odd))
            }
            69..=72 => inst(
                Opcode::Jal,
                rng.pick(&[0, 1, 5]),
                0,
                0,
                offset(rng, s.at, n, 1 << 20, odd),
            ),
            73..=75 => jalr(rng, &s),
            76..=78 => csr(rng, &s),
            79 => store_between_lr_sc(rng, &s, &mut w),
            80..=82 => atomic(rng, &s),
            83..=86 => fp(rng, &s),
            87 => host_service(rng, &s, &mut w),
            88..=89 => inst(Opcode::Fence, 0, 0, 0, 0),
            90 => inst(Opcode::Yield, 0, 0, 0, 0),
            91 if rng.below(odd / 20) == 0 => inst(Opcode::Ebreak, 0, 0, 0, 0),
            92 if rng.below(odd / 20) == 0 => rng.next() as u32,
            93..=96 => fused_pair(rng, &s, &mut w),
            _ => inst(Opcode::Addi, s.rd, s.rd, 0, 1),
        };
        w.push(word);
    }
    w.push(inst(Opcode::Endt, 0, 0, 0, 0));
    w
}

/// What the generator of one random word knows: the fault odds, the
/// program's size, where the word goes, and the registers drawn for it.
struct Slot {
    odd: u64,
    n: usize,
    /// The prologue's length in words.
    pro: usize,
    /// The word's index after the prologue.
    at: usize,
    rd: u8,
    rs1: u8,
    rs2: u8,
}

/// Points s0 at data and s1 at the text; random values in the scratch
/// registers, singles and doubles in f0..f7.
fn prologue(rng: &mut Rng) -> Vec<u32> {
    let mut w = vec![
        inst(Opcode::Lui, 8, 0, 0, 0x20),
        inst(Opcode::Lui, 9, 0, 0, (TEXT >> 12) as i32),
    ];
    for (i, r) in [5u8, 6, 7, 10, 11, 12, 13, 14, 15].into_iter().enumerate() {
        w.push(inst(Opcode::Lui, r, 0, 0, rng.below(1 << 20) as i32));
        w.push(inst(Opcode::Addi, r, r, 0, rng.below(4096) as i32 - 2048));
        if i < 8 {
            let op = if i % 2 == 0 {
                Opcode::FmvWX
            } else {
                Opcode::FcvtDW
            };
            let mut f = Inst::with_defaults(op);
            f.rd = i as u8;
            f.rs1 = r;
            w.push(enc(f));
        }
    }
    w
}

/// An integer operation, with a random immediate of its kind.
fn alu(rng: &mut Rng, s: &Slot) -> u32 {
    let op = rng.pick(ALU);
    let imm = match op {
        Opcode::Lui | Opcode::Auipc => rng.below(1 << 20) as i32,
        Opcode::Slli | Opcode::Srli | Opcode::Srai => rng.below(32) as i32,
        _ => rng.below(4096) as i32 - 2048,
    };
    inst(op, s.rd, s.rs1, s.rs2, imm)
}

/// An integer load from data, the stack or the text.
fn load(rng: &mut Rng, s: &Slot) -> u32 {
    let (op, width) = rng.pick(&[
        (Opcode::Lb, 1),
        (Opcode::Lbu, 1),
        (Opcode::Lh, 2),
        (Opcode::Lhu, 2),
        (Opcode::Lw, 4),
    ]);
    let base = rng.pick(&[8, 8, 8, 2, 9]);
    let mut imm = (rng.below(32) as i32 - 16) * width;
    if base == 2 {
        // Below the stack top.
        imm = -imm.abs() - width;
    }
    if rng.below(s.odd) == 0 {
        imm += 1;
    }
    inst(op, s.rd, base, 0, imm)
}

/// An integer store to data, the stack or (rarely) the text.
fn store(rng: &mut Rng, s: &Slot) -> u32 {
    let (op, width) = rng.pick(&[(Opcode::Sb, 1), (Opcode::Sh, 2), (Opcode::Sw, 4)]);
    let (base, mut imm) = match rng.below(s.odd / 4) {
        // Into the text: code written.
        0 => (9, 4 * rng.below(s.n as u64 + 2) as i32),
        1..=4 => (2, -(rng.below(16) as i32 + 1) * width),
        _ => (8, (rng.below(32) as i32 - 16) * width),
    };
    if rng.below(s.odd) == 0 {
        imm += 1;
    }
    inst(op, 0, base, s.rs2, imm)
}

/// A `jalr` to the link register, or into (or past) the text.
fn jalr(rng: &mut Rng, s: &Slot) -> u32 {
    let (base, imm) = if rng.below(2) == 0 {
        let misaligned = rng.below(s.odd / 10) == 0;
        (1, if misaligned { 2 } else { rng.pick(&[0, 4, 1]) })
    } else {
        (9, 4 * (s.pro + rng.below(s.n as u64 + 4) as usize) as i32)
    };
    inst(Opcode::Jalr, rng.pick(&[0, 1, 5]), base, 0, imm)
}

/// A counter read, or an access to the FP CSRs.
fn csr(rng: &mut Rng, s: &Slot) -> u32 {
    if rng.below(5) < 3 {
        let csr = rng.pick(&[
            isa_spec::CYCLE,
            isa_spec::INSTRET,
            isa_spec::TIME,
            isa_spec::CYCLEH,
            isa_spec::INSTRETH,
        ]);
        return inst(Opcode::Csrrs, s.rd, 0, 0, csr as i32);
    }
    // The FP CSRs, written too (a reserved frm makes the next dynamic
    // rounding fault), sometimes a read-only or unknown one.
    let op = rng.pick(&[
        Opcode::Csrrw,
        Opcode::Csrrs,
        Opcode::Csrrc,
        Opcode::Csrrwi,
        Opcode::Csrrsi,
        Opcode::Csrrci,
    ]);
    let csr = match rng.below(s.odd / 4) {
        0 => isa_spec::CYCLE,
        1 => 0x7ff,
        _ => rng.pick(&[isa_spec::FFLAGS, isa_spec::FRM, isa_spec::FCSR]),
    };
    let src = if matches!(op, Opcode::Csrrw | Opcode::Csrrs | Opcode::Csrrc) {
        s.rs1
    } else {
        rng.below(32) as u8
    };
    inst(op, s.rd, src, 0, csr as i32)
}

/// A store into the reserved word between lr.w and sc.w (the sc.w must
/// fail): pushes the lr.w and the store, returns the sc.w.
fn store_between_lr_sc(rng: &mut Rng, s: &Slot, w: &mut Vec<u32>) -> u32 {
    let mut lr = Inst::with_defaults(Opcode::LrW);
    lr.rd = s.rd;
    lr.rs1 = 8;
    w.push(enc(lr));
    let (op, offset) = rng.pick(&[(Opcode::Sw, 0), (Opcode::Sh, 2), (Opcode::Sb, 3)]);
    w.push(inst(op, 0, 8, s.rs2, offset));
    let mut sc = Inst::with_defaults(Opcode::ScW);
    sc.rd = rng.pick(DEST);
    sc.rs1 = 8;
    sc.rs2 = s.rs2;
    enc(sc)
}

/// An lr.w, sc.w or AMO.
fn atomic(rng: &mut Rng, s: &Slot) -> u32 {
    let op = rng.pick(&[
        Opcode::LrW,
        Opcode::ScW,
        Opcode::LrW,
        Opcode::ScW,
        Opcode::LrW,
        Opcode::ScW,
        Opcode::AmoswapW,
        Opcode::AmoaddW,
        Opcode::AmoxorW,
        Opcode::AmoandW,
        Opcode::AmoorW,
        Opcode::AmominW,
        Opcode::AmomaxW,
        Opcode::AmominuW,
        Opcode::AmomaxuW,
    ]);
    let mut i = Inst::with_defaults(op);
    i.rd = s.rd;
    // Mostly data; sometimes the text (a code write) or any register
    // (misaligned, out of range).
    i.rs1 = match rng.below(s.odd / 4) {
        0 => 9,
        1 => s.rs1,
        _ => 8,
    };
    i.rs2 = s.rs2;
    enc(i)
}

/// An F or D instruction (a load or store one time in three), its
/// operands at random.
fn fp(rng: &mut Rng, s: &Slot) -> u32 {
    let op = if rng.below(3) == 0 {
        rng.pick(&[Opcode::Flw, Opcode::Fld, Opcode::Fsw, Opcode::Fsd])
    } else {
        rng.pick(&fp_ops())
    };
    let mut i = Inst::with_defaults(op);
    for operand in op.spec().operands {
        match *operand {
            Operand::Xd => i.rd = s.rd,
            Operand::Xs1 => i.rs1 = s.rs1,
            Operand::Fd => i.rd = rng.below(8) as u8,
            Operand::Fs1 => i.rs1 = rng.below(8) as u8,
            Operand::Fs2 => i.rs2 = rng.below(8) as u8,
            Operand::Fs3 => i.rs3 = rng.below(8) as u8,
            Operand::Rm(_) => {
                i.aux = if rng.below(s.odd / 4) == 0 {
                    5
                } else {
                    rng.pick(&[0, 1, 2, 3, 4, 7, 7, 7])
                }
            }
            Operand::LoadMem | Operand::StoreMem => {
                let width = if matches!(op, Opcode::Fld | Opcode::Fsd) {
                    8
                } else {
                    4
                };
                i.rs1 = 8;
                i.imm = (rng.below(16) as i32 - 8) * width;
                if rng.below(s.odd) == 0 {
                    i.imm += 4;
                }
            }
            _ => {}
        }
    }
    // A reserved rounding mode may not encode: then a nop.
    i.encode()
        .unwrap_or_else(|_| inst(Opcode::Addi, 0, 0, 0, 0))
}

/// A host service (a0 is what it is): pushes the `li a7`, returns the
/// `ecall`.
fn host_service(rng: &mut Rng, s: &Slot, w: &mut Vec<u32>) -> u32 {
    let service = rng.pick(&[
        HostService::PrintInt,
        HostService::PrintHex,
        HostService::ReadCycle,
    ]);
    let number = match rng.below(s.odd / 2) {
        0 => 7,
        _ if rng.below(8) == 0 => HostService::Exit.spec().number,
        _ => service.spec().number,
    };
    w.push(inst(Opcode::Lui, 17, 0, 0, ((number + 0x800) >> 12) as i32));
    let lo = (number as i32) - (((number + 0x800) >> 12) << 12) as i32;
    w.push(inst(Opcode::Addi, 17, 17, 0, lo));
    inst(Opcode::Ecall, 0, 0, 0, 0)
}

/// A pair the loop fuses (or nearly: registers at random, loads that may
/// fault or misalign, branches anywhere): pushes the first, returns the
/// second.
fn fused_pair(rng: &mut Rng, s: &Slot, w: &mut Vec<u32>) -> u32 {
    let (rd, rs1, rs2, odd) = (s.rd, s.rs1, s.rs2, s.odd);
    let load_offset = |rng: &mut Rng, width: i32| {
        width * (rng.below(8) as i32 - 4) + (rng.below(odd / 4) == 0) as i32 * 4
    };
    let first = rng.pick(&[
        Opcode::Lui,
        Opcode::Addi,
        Opcode::Slli,
        Opcode::Add,
        Opcode::Mul,
        Opcode::Xor,
        Opcode::Lw,
        Opcode::Fld,
    ]);
    let imm = match first {
        Opcode::Lui => rng.below(1 << 20) as i32,
        Opcode::Slli => rng.below(32) as i32,
        Opcode::Lw => load_offset(rng, 4),
        Opcode::Fld => load_offset(rng, 8),
        _ => rng.below(64) as i32 - 32,
    };
    let base = rng.pick(&[8, 8, 8, rs1]);
    w.push(match first {
        Opcode::Lw | Opcode::Fld => inst(first, rd, base, 0, imm),
        _ => inst(first, rd, rs1, rs2, imm),
    });
    let second = if rng.below(2) == 0 {
        rng.pick(&[
            Opcode::Addi,
            Opcode::Andi,
            Opcode::Add,
            Opcode::Lw,
            Opcode::Fld,
        ])
    } else {
        rng.pick(BRANCHES)
    };
    let (a, b) = (rng.pick(&[rd, rs1]), rng.pick(&[rd, rs2]));
    let dest = rng.pick(DEST);
    match second {
        Opcode::Addi | Opcode::Andi => inst(second, dest, a, 0, rng.below(64) as i32),
        Opcode::Add => inst(second, dest, a, b, 0),
        Opcode::Lw => inst(second, dest, rng.pick(&[8, 8, rd]), 0, load_offset(rng, 4)),
        Opcode::Fld => inst(second, dest % 8, 8, 0, load_offset(rng, 8)),
        _ => inst(second, 0, a, b, offset(rng, s.at + 1, s.n, 4096, odd)),
    }
}

struct Outcome {
    result: RunResult,
    console: CapturedConsole,
    machine: Machine,
}

fn run(config: &crate::Config, program: &Program, traced: bool) -> Outcome {
    let options = RunOptions {
        trace: traced.then(|| TraceOptions {
            filter: TraceFilter::default(),
            sink: TraceSink::Last(1, VecDeque::new()),
        }),
        ..RunOptions::default()
    };
    let mut machine = Machine::new(config, program, options).expect("the program loads");
    let mut console = CapturedConsole::default();
    let result = machine.run(&mut console);
    Outcome {
        result,
        console,
        machine,
    }
}

fn compare(seed: u64, a: &Outcome, b: &Outcome) {
    assert_eq!(a.result.end, b.result.end, "seed {seed}: end");
    assert_eq!(a.result.stats, b.result.stats, "seed {seed}: statistics");
    assert_eq!(a.console.stdout, b.console.stdout, "seed {seed}: stdout");
    assert_eq!(a.console.stderr, b.console.stderr, "seed {seed}: stderr");
    for (ta, tb) in a.machine.tiles().iter().zip(b.machine.tiles()) {
        assert_eq!(ta.now(), tb.now(), "seed {seed}: tile {} clock", ta.id);
        assert_eq!(ta.counters(), tb.counters(), "seed {seed}: tile {}", ta.id);
        for (c, (ca, cb)) in ta.contexts.iter().zip(&tb.contexts).enumerate() {
            let at = format!("seed {seed}: tile {} context {c}", ta.id);
            assert_eq!(ca.x, cb.x, "{at}: x");
            assert_eq!(ca.f, cb.f, "{at}: f");
            assert_eq!(ca.pc, cb.pc, "{at}: pc");
            assert_eq!(ca.instret, cb.instret, "{at}: instret");
            assert_eq!(ca.state, cb.state, "{at}: state");
            assert_eq!(ca.counters, cb.counters, "{at}: counters");
            assert_eq!((ca.fflags, ca.frm), (cb.fflags, cb.frm), "{at}: fcsr");
            assert_eq!(ca.reservation, cb.reservation, "{at}: reservation");
        }
        let len = ta.memory.len() as u32;
        assert!(
            ta.memory.slice(0, len).unwrap() == tb.memory.slice(0, len).unwrap(),
            "seed {seed}: tile {} memory",
            ta.id
        );
    }
}

#[test]
fn fast_loop_agrees_with_the_general_interpreter() {
    let cases: u64 = std::env::var("SCMP_FAST_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let mut ends = std::collections::BTreeMap::<&str, u32>::new();
    let mut retired = 0;
    for seed in 1..=cases {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let n = 8 + rng.below(120) as usize;
        let words = program(&mut rng, n);
        let mut b = ConfigBuilder::new();
        for s in [
            "mesh.width=2".to_string(),
            "mesh.height=1".to_string(),
            "boot.tiles=all".to_string(),
            format!("boot.threads={}", 1 + rng.below(3)),
            format!("scheduler.quantum={}", rng.pick(&[3, 8, 64, 1000])),
            format!("sim.max_cycles={}", rng.pick(&[500, 3000, 20000])),
            format!("sim.epoch_cycles={}", rng.pick(&[7, 64, 4096])),
            format!("timing.branch={}", rng.pick(&[0, 1, 5])),
            format!("timing.load={}", rng.pick(&[0, 1, 3])),
            format!("timing.jump={}", rng.pick(&[0, 1, 2])),
            format!("timing.alu={}", rng.pick(&[0, 0, 1])),
            "tile.memory_bytes=1048576".to_string(),
            "tile.stack_bytes=4096".to_string(),
        ] {
            b.set(&s).unwrap();
        }
        let config = b.build().unwrap();
        let program = Program::from_words(TEXT, &words);
        let fast = run(&config, &program, false);
        let general = run(&config, &program, true);
        compare(seed, &fast, &general);
        let end = match &fast.result.end {
            crate::RunEnd::AllThreadsEnded => "ended",
            crate::RunEnd::Exit(_) => "exit",
            crate::RunEnd::Fault(r) => r.cause.kind(),
            crate::RunEnd::CycleLimit(_) => "cycle limit",
            crate::RunEnd::Deadlock(_) => "deadlock",
            crate::RunEnd::Interrupted(_) => unreachable!("no monitor stops these runs"),
        };
        *ends.entry(end).or_default() += 1;
        retired += fast.result.stats.instructions;
    }
    eprintln!("{cases} programs, {retired} instructions: {ends:?}");
    // The programs end in every way (the generator is not degenerate).
    for end in [
        "ended",
        "exit",
        "cycle limit",
        "illegal instruction",
        "access fault",
    ] {
        assert!(ends.contains_key(end), "no `{end}`: {ends:?}");
    }
}
