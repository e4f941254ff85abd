//! The operations of the fast loop's table: what each entry does (with
//! the fused pairs), its register numbers, and the sub-operations of the
//! entries that say which in their immediate.

use isa_spec::Opcode;

/// The operation of a [`Fast`](super::Fast) entry: the instructions specialised when
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
    // dynamic rounding mode: first on the host FPU (`crate::hart::hardfloat`)
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
    pub(super) fn host_float(op: Opcode) -> Option<FastOp> {
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
pub(super) const DYNAMIC_ROUNDING: u8 = 7;

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
