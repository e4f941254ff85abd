//! The predecoded text: every word of the executable segments decoded once,
//! with its cycle cost, so the interpreter never decodes in its loop.
//!
//! Two parallel tables: [`Decoded`] (the instruction as the ISA defines it,
//! for the general interpreter, traces and faults) and [`Fast`] (the same
//! word prepared for the untraced fast loop of `crate::fast`: specialised
//! operation, registers, immediate or branch target, cycles).
//!
//! All tiles load the same image, so they share the tables (an `Arc`); a
//! tile that stores into its text gets its own copy (copy on write) with the
//! written words decoded again.

use std::sync::Arc;

use isa_spec::{Extension, Inst, Opcode};

use crate::timing::CostTable;

/// One predecoded word.
#[derive(Clone, Copy, Debug)]
pub struct Decoded {
    /// The instruction, or `None` for a word that is none.
    pub inst: Option<Inst>,
    /// The raw word.
    pub word: u32,
    /// Cycles (for a branch: when not taken).
    pub cost: u32,
}

impl Decoded {
    /// Decodes `word`.
    pub fn new(word: u32, costs: &CostTable) -> Decoded {
        let inst = Inst::decode(word);
        Decoded {
            inst,
            word,
            cost: inst.map(|i| costs.cost(i.op)).unwrap_or(1),
        }
    }
}

/// The operation of a [`Fast`] entry: the instructions specialised when
/// they are decoded so that the fast loop has no checks a
/// word can decide beforehand. Everything else is [`FastOp::Slow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum FastOp {
    /// Run by the general interpreter: undecodable words, `ebreak`, loads
    /// into `x0`, branches and jumps whose target is misaligned or outside
    /// the table (and, after the last word, the end of the table).
    Slow,
    /// Only takes its cycles: fences, and ALU instructions writing `x0`.
    Nop,
    /// `x[rd] = imm` (`lui`, and `auipc` with its pc folded in).
    Const,
    /// `jal` with a link: `x[rd]` = the return address, go to text index `imm`.
    Jal,
    /// `jal x0`: go to text index `imm`.
    J,
    /// `jalr` with a link.
    Jalr,
    /// `jalr x0`.
    Jr,
    Beq,
    Bne,
    Blt,
    Bge,
    Bltu,
    Bgeu,
    Lb,
    Lh,
    Lw,
    Lbu,
    Lhu,
    Sb,
    Sh,
    Sw,
    Addi,
    Slti,
    Sltiu,
    Xori,
    Ori,
    Andi,
    Slli,
    Srli,
    Srai,
    Add,
    Sub,
    Sll,
    Slt,
    Sltu,
    Xor,
    Srl,
    Sra,
    Or,
    And,
    Mul,
    /// `mulh`, `mulhsu`, `mulhu`, `div`, `divu`, `rem`, `remu` (out of
    /// line): `imm` says which, as a [`MulDiv`].
    MulDiv,
    /// `flw` (`rd` an FP register; any, `f0` too).
    Flw,
    /// `fld`.
    Fld,
    /// `fsw` (`rs2` an FP register).
    Fsw,
    /// `fsd`.
    Fsd,
    /// Any other F or D instruction (out of line): `imm` holds the opcode
    /// in bits 7:0, `rs3` in 15:8 and the rounding mode field in 23:16.
    Fp,
    // The F and D arithmetic with a static round-to-nearest-even or the
    // dynamic rounding mode: first on the host FPU (`crate::hardfloat`)
    // when the mode is round-to-nearest-even, else as `Fp` (`imm` as there,
    // and bits 31:24 all ones for the dynamic mode, so that `frm` masked
    // by them is zero exactly when the host's rounding applies).
    FaddS,
    FsubS,
    FmulS,
    FdivS,
    FsqrtS,
    FmaddS,
    FmsubS,
    FnmsubS,
    FnmaddS,
    FaddD,
    FsubD,
    FmulD,
    FdivD,
    FsqrtD,
    FmaddD,
    FmsubD,
    FnmsubD,
    FnmaddD,
    // F and D instructions that never round (flags only for NaN compares):
    // inline, the general code for what they leave (`imm` as for `Fp`, and
    // bits 31:24 all ones when the rounding mode is dynamic).
    FsgnjD,
    FsgnjnD,
    FsgnjxD,
    FmvXW,
    FmvWX,
    FcvtDW,
    FcvtDWu,
    FeqD,
    FltD,
    FleD,
    /// A CSR instruction (out of line): `imm` holds the CSR number in bits
    /// 15:0 and the opcode in 23:16.
    Csr,
    /// An instruction that only stops the slice for the tile to act
    /// (`ecall`, `endt`, `yield`, messaging): `imm` says which, as a
    /// [`StopKind`].
    Stop,
    /// `lr.w` (address `rs1`; `rd` may be 0).
    Lr,
    /// `sc.w` (address `rs1`; `rd` may be 0).
    Sc,
    /// An AMO (`amoswap.w` .. `amomaxu.w`, address `rs1`): `imm` says
    /// which, as an [`Amo`]. `rd` may be 0 (the loop zeroes `x0` again).
    Amo,
    // Fused pairs: the first instruction's operation (its operands in this
    // entry) and then the second's (the next entry, in the same block),
    // with one dispatch: see [`FastOp::fused`].
    LuiAddi,
    AddiAddi,
    AddiLw,
    AddiBeq,
    AddiBne,
    AddiBlt,
    AddiBge,
    AddiBltu,
    AddiBgeu,
    SlliAdd,
    AddLw,
    AddBne,
    AddiAndi,
    MulAdd,
    XorBne,
    LwLw,
    LwAddi,
    FldFld,
}

/// The fused pairs: (first, second, fused). Common in compiled code: a
/// constant built in two, a pointer or counter step before a load, a mask
/// or the loop's branch, an index scaled then added, a multiply-accumulate,
/// loads in a row.
const FUSED: [(FastOp, FastOp, FastOp); 18] = [
    (FastOp::Const, FastOp::Addi, FastOp::LuiAddi),
    (FastOp::Addi, FastOp::Addi, FastOp::AddiAddi),
    (FastOp::Addi, FastOp::Lw, FastOp::AddiLw),
    (FastOp::Addi, FastOp::Beq, FastOp::AddiBeq),
    (FastOp::Addi, FastOp::Bne, FastOp::AddiBne),
    (FastOp::Addi, FastOp::Blt, FastOp::AddiBlt),
    (FastOp::Addi, FastOp::Bge, FastOp::AddiBge),
    (FastOp::Addi, FastOp::Bltu, FastOp::AddiBltu),
    (FastOp::Addi, FastOp::Bgeu, FastOp::AddiBgeu),
    (FastOp::Slli, FastOp::Add, FastOp::SlliAdd),
    (FastOp::Add, FastOp::Lw, FastOp::AddLw),
    (FastOp::Add, FastOp::Bne, FastOp::AddBne),
    (FastOp::Addi, FastOp::Andi, FastOp::AddiAndi),
    (FastOp::Mul, FastOp::Add, FastOp::MulAdd),
    (FastOp::Xor, FastOp::Bne, FastOp::XorBne),
    (FastOp::Lw, FastOp::Lw, FastOp::LwLw),
    (FastOp::Lw, FastOp::Addi, FastOp::LwAddi),
    (FastOp::Fld, FastOp::Fld, FastOp::FldFld),
];

impl FastOp {
    /// Whether the fast loop runs the entry only in its variant with calls
    /// (the instruction may need code out of line).
    pub fn needs_calls(self) -> bool {
        matches!(
            self,
            FastOp::Fp
                | FastOp::Csr
                | FastOp::Lr
                | FastOp::Sc
                | FastOp::FaddS
                | FastOp::FsubS
                | FastOp::FmulS
                | FastOp::FdivS
                | FastOp::FsqrtS
                | FastOp::FmaddS
                | FastOp::FmsubS
                | FastOp::FnmsubS
                | FastOp::FnmaddS
                | FastOp::FaddD
                | FastOp::FsubD
                | FastOp::FmulD
                | FastOp::FdivD
                | FastOp::FsqrtD
                | FastOp::FmaddD
                | FastOp::FmsubD
                | FastOp::FnmsubD
                | FastOp::FnmaddD
                | FastOp::FsgnjD
                | FastOp::FsgnjnD
                | FastOp::FsgnjxD
                | FastOp::FmvXW
                | FastOp::FmvWX
                | FastOp::FcvtDW
                | FastOp::FcvtDWu
                | FastOp::FeqD
                | FastOp::FltD
                | FastOp::FleD
        )
    }

    /// Whether an entry ends a block: the control transfers, and the
    /// entries the loop always returns for.
    pub fn ends_block(self) -> bool {
        matches!(
            self,
            FastOp::J
                | FastOp::Jal
                | FastOp::Jalr
                | FastOp::Jr
                | FastOp::Beq
                | FastOp::Bne
                | FastOp::Blt
                | FastOp::Bge
                | FastOp::Bltu
                | FastOp::Bgeu
                | FastOp::Slow
                | FastOp::Stop
        )
    }

    /// The operation of a pair fusing `self` and then `second`, if any.
    pub fn fused(self, second: FastOp) -> Option<FastOp> {
        FUSED
            .iter()
            .find(|&&(a, b, _)| a == self && b == second)
            .map(|&(_, _, f)| f)
    }

    /// The entry's own operation: for a fused pair, its first.
    #[inline]
    pub fn alone(self) -> FastOp {
        match FUSED.iter().find(|&&(_, _, f)| f == self) {
            Some(&(first, _, _)) => first,
            None => self,
        }
    }

    /// The inline operation of an F or D instruction, if it has one.
    fn host_float(op: Opcode) -> Option<FastOp> {
        Some(match op {
            Opcode::FaddS => FastOp::FaddS,
            Opcode::FsubS => FastOp::FsubS,
            Opcode::FmulS => FastOp::FmulS,
            Opcode::FdivS => FastOp::FdivS,
            Opcode::FsqrtS => FastOp::FsqrtS,
            Opcode::FmaddS => FastOp::FmaddS,
            Opcode::FmsubS => FastOp::FmsubS,
            Opcode::FnmsubS => FastOp::FnmsubS,
            Opcode::FnmaddS => FastOp::FnmaddS,
            Opcode::FaddD => FastOp::FaddD,
            Opcode::FsubD => FastOp::FsubD,
            Opcode::FmulD => FastOp::FmulD,
            Opcode::FdivD => FastOp::FdivD,
            Opcode::FsqrtD => FastOp::FsqrtD,
            Opcode::FmaddD => FastOp::FmaddD,
            Opcode::FmsubD => FastOp::FmsubD,
            Opcode::FnmsubD => FastOp::FnmsubD,
            Opcode::FnmaddD => FastOp::FnmaddD,
            Opcode::FsgnjD => FastOp::FsgnjD,
            Opcode::FsgnjnD => FastOp::FsgnjnD,
            Opcode::FsgnjxD => FastOp::FsgnjxD,
            Opcode::FmvXW => FastOp::FmvXW,
            Opcode::FmvWX => FastOp::FmvWX,
            Opcode::FcvtDW => FastOp::FcvtDW,
            Opcode::FcvtDWu => FastOp::FcvtDWu,
            Opcode::FeqD => FastOp::FeqD,
            Opcode::FltD => FastOp::FltD,
            Opcode::FleD => FastOp::FleD,
            _ => return None,
        })
    }
}

/// The rounding mode field meaning "dynamic" (`frm`).
const DYNAMIC_ROUNDING: u8 = 7;

/// A register number: an enum of 32 values, so that the compiler knows an
/// index into a 32-entry register file is in range (no mask, no check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Reg {
    R0,
    R1,
    R2,
    R3,
    R4,
    R5,
    R6,
    R7,
    R8,
    R9,
    R10,
    R11,
    R12,
    R13,
    R14,
    R15,
    R16,
    R17,
    R18,
    R19,
    R20,
    R21,
    R22,
    R23,
    R24,
    R25,
    R26,
    R27,
    R28,
    R29,
    R30,
    R31,
}

impl Reg {
    const ALL: [Reg; 32] = [
        Reg::R0,
        Reg::R1,
        Reg::R2,
        Reg::R3,
        Reg::R4,
        Reg::R5,
        Reg::R6,
        Reg::R7,
        Reg::R8,
        Reg::R9,
        Reg::R10,
        Reg::R11,
        Reg::R12,
        Reg::R13,
        Reg::R14,
        Reg::R15,
        Reg::R16,
        Reg::R17,
        Reg::R18,
        Reg::R19,
        Reg::R20,
        Reg::R21,
        Reg::R22,
        Reg::R23,
        Reg::R24,
        Reg::R25,
        Reg::R26,
        Reg::R27,
        Reg::R28,
        Reg::R29,
        Reg::R30,
        Reg::R31,
    ];

    /// Register `n & 31`.
    pub fn new(n: u8) -> Reg {
        Reg::ALL[n as usize & 31]
    }

    /// Its index.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The operation of a [`FastOp::MulDiv`] entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
#[allow(missing_docs)]
pub enum MulDiv {
    Mulh,
    Mulhsu,
    Mulhu,
    Div,
    Divu,
    Rem,
    Remu,
}

impl MulDiv {
    /// Every one, in `repr` order.
    pub const ALL: [MulDiv; 7] = [
        MulDiv::Mulh,
        MulDiv::Mulhsu,
        MulDiv::Mulhu,
        MulDiv::Div,
        MulDiv::Divu,
        MulDiv::Rem,
        MulDiv::Remu,
    ];
}

/// What a [`FastOp::Stop`] entry stops for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
#[allow(missing_docs)]
pub enum StopKind {
    HostCall,
    EndThread,
    Yield,
    Messaging,
}

/// The operation of a [`FastOp::Amo`] entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
#[allow(missing_docs)]
pub enum Amo {
    Swap,
    Add,
    Xor,
    And,
    Or,
    Min,
    Max,
    Minu,
    Maxu,
}

impl Amo {
    /// Every one, in `repr` order.
    pub const ALL: [Amo; 9] = [
        Amo::Swap,
        Amo::Add,
        Amo::Xor,
        Amo::And,
        Amo::Or,
        Amo::Min,
        Amo::Max,
        Amo::Minu,
        Amo::Maxu,
    ];
}

/// One word prepared for the fast loop (16 bytes). Register numbers are
/// below 32. An ALU, load or jump entry never has `rd` 0 (ALU instructions
/// writing `x0` become [`FastOp::Nop`], loads into it [`FastOp::Slow`],
/// jumps [`FastOp::J`]/[`FastOp::Jr`]); AMO, LR/SC, FP and CSR entries may,
/// and the loop zeroes `x0` again after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fast {
    /// Operation.
    pub op: FastOp,
    /// Destination register.
    pub rd: Reg,
    /// Source register 1.
    pub rs1: Reg,
    /// Source register 2.
    pub rs2: Reg,
    /// Immediate (shift amounts masked); for [`FastOp::Const`] the value;
    /// for a branch or `jal` the text index of the target.
    pub imm: u32,
    /// What the fast loop adds to its accumulator for this instruction and
    /// the rest of its block (up to the next entry that ends one, see
    /// [`FastOp::ends_block`]; a branch counted as not taken): their cycles
    /// times `-2^32`, plus their number. The accumulator's high half counts
    /// the slice's cycles down, its low half the instructions retired up.
    pub rest: u64,
}

/// The accumulator step of an instruction taking `cycles`.
#[inline]
pub const fn fast_step(cycles: u32) -> u64 {
    1u64.wrapping_sub((cycles as u64) << 32)
}

impl Fast {
    const SLOW: Fast = Fast {
        op: FastOp::Slow,
        rd: Reg::R0,
        rs1: Reg::R0,
        rs2: Reg::R0,
        imm: 0,
        rest: 0,
    };

    /// Prepares `decoded`, the word at `pc`, in a table of `len` words at
    /// `base`.
    pub fn new(decoded: &Decoded, pc: u32, base: u32, len: usize) -> Fast {
        let Some(inst) = decoded.inst else {
            return Fast::SLOW;
        };
        let imm = inst.imm as u32;
        let mut f = Fast {
            op: FastOp::Slow,
            rd: Reg::new(inst.rd),
            rs1: Reg::new(inst.rs1),
            rs2: Reg::new(inst.rs2),
            imm,
            rest: fast_step(decoded.cost),
        };
        // A branch or jump target as a text index, when it is aligned and
        // inside the table (otherwise the general interpreter runs it).
        let target = |t: u32| -> Option<u32> {
            let i = t.wrapping_sub(base) >> 2;
            (t & 3 == 0 && (i as usize) < len).then_some(i)
        };
        let rd0 = inst.rd == 0;
        let writes = |f: &mut Fast, op: FastOp| f.op = if rd0 { FastOp::Nop } else { op };
        match inst.op {
            Opcode::Lui => {
                f.imm = imm << 12;
                writes(&mut f, FastOp::Const);
            }
            Opcode::Auipc => {
                f.imm = pc.wrapping_add(imm << 12);
                writes(&mut f, FastOp::Const);
            }
            Opcode::Jal => {
                if let Some(i) = target(pc.wrapping_add(imm)) {
                    f.imm = i;
                    f.op = if rd0 { FastOp::J } else { FastOp::Jal };
                }
            }
            Opcode::Jalr => {
                f.op = if rd0 { FastOp::Jr } else { FastOp::Jalr };
            }
            Opcode::Beq | Opcode::Bne | Opcode::Blt | Opcode::Bge | Opcode::Bltu | Opcode::Bgeu => {
                if let Some(i) = target(pc.wrapping_add(imm)) {
                    f.imm = i;
                    f.op = match inst.op {
                        Opcode::Beq => FastOp::Beq,
                        Opcode::Bne => FastOp::Bne,
                        Opcode::Blt => FastOp::Blt,
                        Opcode::Bge => FastOp::Bge,
                        Opcode::Bltu => FastOp::Bltu,
                        _ => FastOp::Bgeu,
                    };
                }
            }
            Opcode::Lb | Opcode::Lh | Opcode::Lw | Opcode::Lbu | Opcode::Lhu => {
                if !rd0 {
                    f.op = match inst.op {
                        Opcode::Lb => FastOp::Lb,
                        Opcode::Lh => FastOp::Lh,
                        Opcode::Lw => FastOp::Lw,
                        Opcode::Lbu => FastOp::Lbu,
                        _ => FastOp::Lhu,
                    };
                }
            }
            Opcode::Sb => f.op = FastOp::Sb,
            Opcode::Sh => f.op = FastOp::Sh,
            Opcode::Sw => f.op = FastOp::Sw,
            Opcode::Flw => f.op = FastOp::Flw,
            Opcode::Fld => f.op = FastOp::Fld,
            Opcode::Fsw => f.op = FastOp::Fsw,
            Opcode::Fsd => f.op = FastOp::Fsd,
            Opcode::Csrrw
            | Opcode::Csrrs
            | Opcode::Csrrc
            | Opcode::Csrrwi
            | Opcode::Csrrsi
            | Opcode::Csrrci => {
                f.op = FastOp::Csr;
                f.imm = (inst.op as u32) << 16 | (inst.imm as u32 & 0xffff);
            }
            Opcode::Ecall => {
                f.op = FastOp::Stop;
                f.imm = StopKind::HostCall as u32;
            }
            op if op.spec().extension == Extension::Scmp => {
                f.op = FastOp::Stop;
                f.imm = match op {
                    Opcode::Endt => StopKind::EndThread,
                    Opcode::Yield => StopKind::Yield,
                    _ => StopKind::Messaging,
                } as u32;
            }
            Opcode::LrW => f.op = FastOp::Lr,
            Opcode::ScW => f.op = FastOp::Sc,
            Opcode::AmoswapW
            | Opcode::AmoaddW
            | Opcode::AmoxorW
            | Opcode::AmoandW
            | Opcode::AmoorW
            | Opcode::AmominW
            | Opcode::AmomaxW
            | Opcode::AmominuW
            | Opcode::AmomaxuW => {
                f.op = FastOp::Amo;
                f.imm = match inst.op {
                    Opcode::AmoswapW => Amo::Swap,
                    Opcode::AmoaddW => Amo::Add,
                    Opcode::AmoxorW => Amo::Xor,
                    Opcode::AmoandW => Amo::And,
                    Opcode::AmoorW => Amo::Or,
                    Opcode::AmominW => Amo::Min,
                    Opcode::AmomaxW => Amo::Max,
                    Opcode::AmominuW => Amo::Minu,
                    _ => Amo::Maxu,
                } as u32;
            }
            op if matches!(op.spec().extension, Extension::F | Extension::D) => {
                f.op = FastOp::Fp;
                f.imm = op as u32 | (inst.rs3 as u32) << 8 | (inst.aux as u32) << 16;
                if let Some(host) = FastOp::host_float(op) {
                    if inst.aux == DYNAMIC_ROUNDING {
                        f.op = host;
                        f.imm |= 0xff << 24;
                    } else if inst.aux == 0 {
                        f.op = host;
                    }
                }
            }
            Opcode::Fence | Opcode::FenceTso | Opcode::FenceI => f.op = FastOp::Nop,
            op => {
                let alu = match op {
                    Opcode::Addi => FastOp::Addi,
                    Opcode::Slti => FastOp::Slti,
                    Opcode::Sltiu => FastOp::Sltiu,
                    Opcode::Xori => FastOp::Xori,
                    Opcode::Ori => FastOp::Ori,
                    Opcode::Andi => FastOp::Andi,
                    Opcode::Slli => FastOp::Slli,
                    Opcode::Srli => FastOp::Srli,
                    Opcode::Srai => FastOp::Srai,
                    Opcode::Add => FastOp::Add,
                    Opcode::Sub => FastOp::Sub,
                    Opcode::Sll => FastOp::Sll,
                    Opcode::Slt => FastOp::Slt,
                    Opcode::Sltu => FastOp::Sltu,
                    Opcode::Xor => FastOp::Xor,
                    Opcode::Srl => FastOp::Srl,
                    Opcode::Sra => FastOp::Sra,
                    Opcode::Or => FastOp::Or,
                    Opcode::And => FastOp::And,
                    Opcode::Mul => FastOp::Mul,
                    Opcode::Mulh
                    | Opcode::Mulhsu
                    | Opcode::Mulhu
                    | Opcode::Div
                    | Opcode::Divu
                    | Opcode::Rem
                    | Opcode::Remu => {
                        f.imm = match op {
                            Opcode::Mulh => MulDiv::Mulh,
                            Opcode::Mulhsu => MulDiv::Mulhsu,
                            Opcode::Mulhu => MulDiv::Mulhu,
                            Opcode::Div => MulDiv::Div,
                            Opcode::Divu => MulDiv::Divu,
                            Opcode::Rem => MulDiv::Rem,
                            _ => MulDiv::Remu,
                        } as u32;
                        FastOp::MulDiv
                    }
                    _ => return Fast::SLOW,
                };
                if matches!(alu, FastOp::Slli | FastOp::Srli | FastOp::Srai) {
                    f.imm = imm & 31;
                }
                writes(&mut f, alu);
            }
        }
        f
    }
}

/// The predecoded words of `base..base + 4 * len`.
#[derive(Clone, Debug)]
pub struct DecodedText {
    /// Address of the first word.
    pub base: u32,
    /// The words.
    pub words: Arc<Vec<Decoded>>,
    /// The same words for the fast loop, and after them one
    /// [`FastOp::Slow`] entry, so that the loop needs no check for running
    /// off the end.
    pub(crate) fast: Arc<Vec<Fast>>,
}

impl DecodedText {
    /// Decodes the words of `bytes` at `base`.
    pub fn new(base: u32, bytes: &[u8], costs: &CostTable) -> DecodedText {
        let words: Vec<Decoded> = bytes
            .chunks_exact(4)
            .map(|c| Decoded::new(u32::from_le_bytes([c[0], c[1], c[2], c[3]]), costs))
            .collect();
        let len = words.len();
        let mut fast: Vec<Fast> = words
            .iter()
            .enumerate()
            .map(|(i, d)| Fast::new(d, base.wrapping_add(4 * i as u32), base, len))
            .chain([Fast::SLOW])
            .collect();
        // (The last entry, `Slow`, is a block of one.)
        let mut block_after = 1;
        for i in (0..len).rev() {
            block_after = link(&mut fast, i, block_after);
            fuse(&mut fast, i);
        }
        DecodedText {
            base,
            words: Arc::new(words),
            fast: Arc::new(fast),
        }
    }

    /// Bytes covered.
    pub fn len_bytes(&self) -> u32 {
        4 * self.words.len() as u32
    }

    /// Replaces the word at `addr` (inside the table) after a store.
    pub fn redecode(&mut self, addr: u32, word: u32, costs: &CostTable) {
        let i = ((addr - self.base) / 4) as usize;
        let len = self.words.len();
        let d = Decoded::new(word, costs);
        Arc::make_mut(&mut self.words)[i] = d;
        let fast = Arc::make_mut(&mut self.fast);
        fast[i] = Fast::new(&d, addr, self.base, len);
        // The block through `i` (each entry's `rest` counts the later
        // entries of its block) back to the end of an earlier block.
        let mut block_after = fast[i + 1..]
            .iter()
            .position(|e| e.op.ends_block())
            .map_or(0, |n| n + 1);
        let mut j = i;
        loop {
            if j != i {
                // (Undoes a long block's cut, see `link`; it may come back.)
                let addr = self.base.wrapping_add(4 * j as u32);
                fast[j] = Fast::new(&self.words[j], addr, self.base, len);
            }
            block_after = link(fast, j, block_after);
            fuse(fast, j);
            if j == 0 || fast[j - 1].op.ends_block() {
                break;
            }
            j -= 1;
        }
    }
}

/// The longest block: a longer straight line is cut by an entry that the
/// general interpreter runs ([`FastOp::Slow`]), so that a block's cycles
/// (at most 1001 per instruction) stay far below the 2^31 the fast loop's
/// accumulator counts. Small in tests, so that they cut blocks.
const BLOCK_LIMIT: usize = if cfg!(test) { 16 } else { 1 << 16 };

/// Fuses entry `i` with the next one when they make a fused pair (with the
/// next entry's own operation: when that entry starts a pair too, a jump to
/// it takes that pair, running on from `i` does not).
fn fuse(fast: &mut [Fast], i: usize) {
    if let Some(f) = fast[i].op.fused(fast[i + 1].op.alone()) {
        fast[i].op = f;
    }
}

/// Adds to entry `i`'s `rest` (its own step) the `rest` of the entry after
/// it when `i` does not end its block, cutting a block that would grow
/// longer than [`BLOCK_LIMIT`]. The entries after `i` are linked already,
/// and `block_after` of them are in the block after `i`. Returns how many
/// are in the block from `i` on.
fn link(fast: &mut [Fast], i: usize, block_after: usize) -> usize {
    if fast[i].op.ends_block() {
        return 1;
    }
    if block_after >= BLOCK_LIMIT {
        fast[i] = Fast::SLOW;
        return 1;
    }
    fast[i].rest = fast[i].rest.wrapping_add(fast[i + 1].rest);
    block_after + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ConfigBuilder;

    /// Words of the kinds blocks and pairs are made of (and undecodable
    /// ones), mostly in long straight lines.
    fn word(seed: &mut u64) -> u32 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let pick = |n: u64| (*seed >> 20) % n;
        let mut i = Inst::with_defaults(match pick(40) {
            0 => Opcode::Lui,
            1..=12 => Opcode::Addi,
            13..=16 => Opcode::Slli,
            17..=20 => Opcode::Add,
            21..=24 => Opcode::Lw,
            25 => Opcode::Bne,
            26 => Opcode::Jal,
            27 => Opcode::Ecall,
            28 => return 0,
            _ => Opcode::Sub,
        });
        i.rd = 1 + (*seed % 7) as u8;
        i.rs1 = (*seed >> 3) as u8 % 8;
        i.rs2 = (*seed >> 6) as u8 % 8;
        i.imm = if matches!(i.op, Opcode::Bne | Opcode::Jal) {
            8
        } else {
            4
        };
        i.encode().unwrap()
    }

    /// Every entry's `rest` is its own step plus the next entry's unless it
    /// ends a block; no block is longer than the limit; a fused entry's pair
    /// is its own operation and the next entry's.
    fn check(text: &DecodedText) -> (usize, usize) {
        let (mut cuts, mut pairs) = (0, 0);
        let fast = &text.fast;
        let len = text.words.len();
        assert_eq!(fast[len], Fast::SLOW);
        let mut block = 0;
        for i in (0..len).rev() {
            let e = fast[i];
            let d = &text.words[i];
            let own = Fast::new(d, text.base + 4 * i as u32, text.base, len);
            if e.op.ends_block() {
                if e.op != own.op {
                    // A long block's cut.
                    assert_eq!(e, Fast::SLOW, "entry {i}");
                    cuts += 1;
                } else {
                    assert_eq!(e.rest, own.rest, "entry {i}");
                }
                block = 1;
            } else {
                assert_eq!(e.rest, own.rest.wrapping_add(fast[i + 1].rest), "entry {i}");
                assert_eq!(e.op.alone(), own.op, "entry {i}");
                let pair = own.op.fused(fast[i + 1].op.alone());
                assert_eq!(e.op, pair.unwrap_or(own.op), "entry {i}");
                pairs += pair.is_some() as usize;
                block += 1;
                assert!(block <= BLOCK_LIMIT, "entry {i}");
            }
        }
        (cuts, pairs)
    }

    #[test]
    fn blocks_and_pairs_stay_consistent_when_words_change() {
        let config = ConfigBuilder::new().build().unwrap();
        let costs = CostTable::new(&config.timing);
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let (mut cuts, mut pairs) = (0, 0);
        let mut count = |(c, p)| {
            cuts += c;
            pairs += p;
        };
        for round in 0..50 {
            let n = 1 + (round * 7) % 90;
            let bytes: Vec<u8> = (0..n).flat_map(|_| word(&mut seed).to_le_bytes()).collect();
            let mut text = DecodedText::new(0x1000, &bytes, &costs);
            count(check(&text));
            for _ in 0..40 {
                let at = 0x1000 + 4 * (seed % n as u64) as u32;
                let w = word(&mut seed);
                text.redecode(at, w, &costs);
                count(check(&text));
            }
        }
        assert!(cuts > 100 && pairs > 1000, "{cuts} cuts, {pairs} pairs");
    }
}
