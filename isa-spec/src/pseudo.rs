//! Pseudo-instructions and aliases: one row per written form, each with the
//! table instructions it stands for.
//!
//! A row reads `"mnemonic" [written operands] => Opcode {field = bind, ...}; ...
//! "description"`. A bind is `A(i)` (the i-th written operand), a constant
//! (`R(n)` a register number, `C(v)` a value), or the halves of a
//! pc-relative address `HI(i)`/`LO(i)` (`%pcrel_hi` into an `auipc`,
//! `%pcrel_lo` of that `auipc` into the next instruction). Fields a row does
//! not bind are zero (the `x0` register). The forms are GNU as 2.40's for
//! `-march=rv32g`; the assembler's lookup, its "did you mean" help,
//! `docs/isa.md` and the GNU cross-checks derive from this table.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::{
    CYCLE, CYCLEH, FCSR, FFLAGS, FRM, Field, INSTRET, INSTRETH, Opcode, Operand, TIME, TIMEH,
};

/// Where a field of an expanded instruction takes its value from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bind {
    /// The written operand at this index (for a memory operand, its offset
    /// or its base register, by the field).
    Arg(u8),
    /// A constant (a register number for register fields).
    Const(i32),
    /// `%pcrel_hi` of the written operand at this index (the `auipc`).
    PcrelHi(u8),
    /// `%pcrel_lo` of the written operand at this index, relative to the
    /// `auipc` just before.
    PcrelLo(u8),
}

/// One instruction of an expansion.
#[derive(Debug)]
pub struct Template {
    /// The table row.
    pub op: Opcode,
    /// Values of its fields.
    pub binds: &'static [(Field, Bind)],
}

/// What a pseudo-instruction row stands for.
#[derive(Debug)]
pub enum Expansion {
    /// These instructions, in order.
    Insts(&'static [Template]),
    /// `li`: `addi`, `lui` or `lui` + `addi`, by the value (or `addi` of a
    /// `%lo`), as GNU as chooses.
    LoadImmediate,
    /// `la`/`lla`: `auipc` + `addi` pc-relative, or `li` when the address
    /// is a constant (as GNU as does).
    LoadAddress,
}

/// One written form of a pseudo-instruction or alias.
#[derive(Debug)]
pub struct PseudoSpec {
    /// Mnemonic.
    pub mnemonic: &'static str,
    /// Written operands, in order.
    pub operands: &'static [Operand],
    /// What it assembles to.
    pub expansion: Expansion,
    /// One line for the reference.
    pub description: &'static str,
}

#[allow(non_snake_case)]
const fn A(i: u8) -> Bind {
    Bind::Arg(i)
}
#[allow(non_snake_case)]
const fn R(n: i32) -> Bind {
    Bind::Const(n)
}
#[allow(non_snake_case)]
const fn C(v: i32) -> Bind {
    Bind::Const(v)
}
#[allow(non_snake_case)]
const fn HI(i: u8) -> Bind {
    Bind::PcrelHi(i)
}
#[allow(non_snake_case)]
const fn LO(i: u8) -> Bind {
    Bind::PcrelLo(i)
}
const RA: i32 = 1;
const T1: i32 = 6;

macro_rules! pseudos {
    ($(
        $mnemonic:literal [$($operand:expr),*] =>
        $( $op:ident { $($field:ident = $bind:expr),* } );+ ; $description:literal
    )*) => {
        /// Every pseudo-instruction and alias form, GNU as's for RV32G.
        pub static PSEUDOS: &[PseudoSpec] = &[$(
            {
                #[allow(unused_imports)]
                use Operand::*;
                PseudoSpec {
                    mnemonic: $mnemonic,
                    operands: &[$($operand),*],
                    expansion: pseudos!(@expansion $( $op { $($field = $bind),* } );+),
                    description: $description,
                }
            }
        ),*];
    };
    (@expansion LoadImmediate {}) => { Expansion::LoadImmediate };
    (@expansion LoadAddress {}) => { Expansion::LoadAddress };
    (@expansion $( $op:ident { $($field:ident = $bind:expr),* } );+) => {
        Expansion::Insts(&[$(
            Template { op: Opcode::$op, binds: &[$((Field::$field, $bind)),*] }
        ),+])
    };
}

#[rustfmt::skip]
pseudos! {
    "nop"      []                     => Addi {};                                           "no operation"
    "li"       [Xd, Imm32]            => LoadImmediate {};                                  "rd = any 32-bit value: addi, lui, or lui + addi"
    "mv"       [Xd, Xs1]              => Addi { Rd = A(0), Rs1 = A(1) };                    "rd = rs1"
    "move"     [Xd, Xs1]              => Addi { Rd = A(0), Rs1 = A(1) };                    "rd = rs1 (older name of mv)"
    "not"      [Xd, Xs1]              => Xori { Rd = A(0), Rs1 = A(1), ImmI = C(-1) };      "rd = ~rs1"
    "neg"      [Xd, Xs1]              => Sub { Rd = A(0), Rs2 = A(1) };                     "rd = -rs1"
    "seqz"     [Xd, Xs1]              => Sltiu { Rd = A(0), Rs1 = A(1), ImmI = C(1) };      "rd = rs1 == 0"
    "snez"     [Xd, Xs1]              => Sltu { Rd = A(0), Rs2 = A(1) };                    "rd = rs1 != 0"
    "sltz"     [Xd, Xs1]              => Slt { Rd = A(0), Rs1 = A(1) };                     "rd = rs1 < 0"
    "sgtz"     [Xd, Xs1]              => Slt { Rd = A(0), Rs2 = A(1) };                     "rd = rs1 > 0"
    "sgt"      [Xd, Xs1, Xs2]         => Slt { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };         "rd = rs1 > rs2 (signed)"
    "sgtu"     [Xd, Xs1, Xs2]         => Sltu { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 > rs2 (unsigned)"
    "zext.b"   [Xd, Xs1]              => Andi { Rd = A(0), Rs1 = A(1), ImmI = C(255) };     "rd = rs1[7:0] zero-extended"
    "sext.b"   [Xd, Xs1]              => Slli { Rd = A(0), Rs1 = A(1), Shamt = C(24) };
                                         Srai { Rd = A(0), Rs1 = A(0), Shamt = C(24) };     "rd = rs1[7:0] sign-extended (two shifts without Zbb)"
    "sext.h"   [Xd, Xs1]              => Slli { Rd = A(0), Rs1 = A(1), Shamt = C(16) };
                                         Srai { Rd = A(0), Rs1 = A(0), Shamt = C(16) };     "rd = rs1[15:0] sign-extended (two shifts without Zbb)"
    "zext.h"   [Xd, Xs1]              => Slli { Rd = A(0), Rs1 = A(1), Shamt = C(16) };
                                         Srli { Rd = A(0), Rs1 = A(0), Shamt = C(16) };     "rd = rs1[15:0] zero-extended (two shifts without Zbb)"
    // Register-register mnemonics with an immediate: the `i` forms.
    "add"      [Xd, Xs1, ImmI]        => Addi { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "addi"
    "and"      [Xd, Xs1, ImmI]        => Andi { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "andi"
    "or"       [Xd, Xs1, ImmI]        => Ori { Rd = A(0), Rs1 = A(1), ImmI = A(2) };        "ori"
    "xor"      [Xd, Xs1, ImmI]        => Xori { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "xori"
    "slt"      [Xd, Xs1, ImmI]        => Slti { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "slti"
    "sltu"     [Xd, Xs1, ImmI]        => Sltiu { Rd = A(0), Rs1 = A(1), ImmI = A(2) };      "sltiu"
    "sll"      [Xd, Xs1, Shamt]       => Slli { Rd = A(0), Rs1 = A(1), Shamt = A(2) };      "slli"
    "srl"      [Xd, Xs1, Shamt]       => Srli { Rd = A(0), Rs1 = A(1), Shamt = A(2) };      "srli"
    "sra"      [Xd, Xs1, Shamt]       => Srai { Rd = A(0), Rs1 = A(1), Shamt = A(2) };      "srai"
    // Branches against zero and with swapped operands.
    "beqz"     [Xs1, Branch]          => Beq { Rs1 = A(0), ImmB = A(1) };                   "if rs1 == 0 then pc = target"
    "bnez"     [Xs1, Branch]          => Bne { Rs1 = A(0), ImmB = A(1) };                   "if rs1 != 0 then pc = target"
    "blez"     [Xs1, Branch]          => Bge { Rs2 = A(0), ImmB = A(1) };                   "if rs1 <= 0 then pc = target"
    "bgez"     [Xs1, Branch]          => Bge { Rs1 = A(0), ImmB = A(1) };                   "if rs1 >= 0 then pc = target"
    "bltz"     [Xs1, Branch]          => Blt { Rs1 = A(0), ImmB = A(1) };                   "if rs1 < 0 then pc = target"
    "bgtz"     [Xs1, Branch]          => Blt { Rs2 = A(0), ImmB = A(1) };                   "if rs1 > 0 then pc = target"
    "bgt"      [Xs1, Xs2, Branch]     => Blt { Rs1 = A(1), Rs2 = A(0), ImmB = A(2) };       "if rs1 > rs2 (signed) then pc = target"
    "ble"      [Xs1, Xs2, Branch]     => Bge { Rs1 = A(1), Rs2 = A(0), ImmB = A(2) };       "if rs1 <= rs2 (signed) then pc = target"
    "bgtu"     [Xs1, Xs2, Branch]     => Bltu { Rs1 = A(1), Rs2 = A(0), ImmB = A(2) };      "if rs1 > rs2 (unsigned) then pc = target"
    "bleu"     [Xs1, Xs2, Branch]     => Bgeu { Rs1 = A(1), Rs2 = A(0), ImmB = A(2) };      "if rs1 <= rs2 (unsigned) then pc = target"
    // Jumps.
    "j"        [Jump]                 => Jal { ImmJ = A(0) };                               "pc = target"
    "jal"      [Jump]                 => Jal { Rd = R(RA), ImmJ = A(0) };                   "ra = pc + 4; pc = target"
    "jr"       [Xs1]                  => Jalr { Rs1 = A(0) };                               "pc = rs1"
    "jr"       [Xs1, ImmI]            => Jalr { Rs1 = A(0), ImmI = A(1) };                  "pc = rs1 + imm12"
    "jr"       [LoadMem]              => Jalr { ImmI = A(0), Rs1 = A(0) };                  "pc = rs1 + imm12"
    "jalr"     [Xs1]                  => Jalr { Rd = R(RA), Rs1 = A(0) };                   "ra = pc + 4; pc = rs1"
    "jalr"     [Xs1, ImmI]            => Jalr { Rd = R(RA), Rs1 = A(0), ImmI = A(1) };      "ra = pc + 4; pc = rs1 + imm12"
    "jalr"     [LoadMem]              => Jalr { Rd = R(RA), ImmI = A(0), Rs1 = A(0) };      "ra = pc + 4; pc = rs1 + imm12"
    "jalr"     [Xd, Xs1]              => Jalr { Rd = A(0), Rs1 = A(1) };                    "rd = pc + 4; pc = rs1"
    "jalr"     [Xd, Xs1, ImmI]        => Jalr { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "rd = pc + 4; pc = rs1 + imm12"
    "ret"      []                     => Jalr { Rs1 = R(RA) };                              "pc = ra"
    "call"     [Symbol]               => Auipc { Rd = R(RA), ImmU = HI(0) };
                                         Jalr { Rd = R(RA), Rs1 = R(RA), ImmI = LO(0) };    "call a routine anywhere: ra = return address"
    "call"     [Xd, Symbol]           => Auipc { Rd = R(T1), ImmU = HI(1) };
                                         Jalr { Rd = A(0), Rs1 = R(T1), ImmI = LO(1) };     "call a routine anywhere: rd = return address (t1 holds the address)"
    "tail"     [Symbol]               => Auipc { Rd = R(T1), ImmU = HI(0) };
                                         Jalr { Rs1 = R(T1), ImmI = LO(0) };                "jump anywhere (t1 holds the address)"
    "jump"     [Symbol, Xs1]          => Auipc { Rd = A(1), ImmU = HI(0) };
                                         Jalr { Rs1 = A(1), ImmI = LO(0) };                 "jump anywhere (rs1 holds the address)"
    // Addresses and accesses of symbols, pc-relative.
    "la"       [Xd, Symbol]           => LoadAddress {};                                    "rd = address of symbol"
    "lla"      [Xd, Symbol]           => LoadAddress {};                                    "rd = address of symbol"
    "lb"       [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                         Lb { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };        "rd = sext(mem8[symbol])"
    "lh"       [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                         Lh { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };        "rd = sext(mem16[symbol])"
    "lw"       [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                         Lw { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };        "rd = mem32[symbol]"
    "lbu"      [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                         Lbu { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };       "rd = zext(mem8[symbol])"
    "lhu"      [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                         Lhu { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };       "rd = zext(mem16[symbol])"
    "sb"       [Xs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                         Sb { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };       "mem8[symbol] = rs2 (rs1 holds the address)"
    "sh"       [Xs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                         Sh { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };       "mem16[symbol] = rs2 (rs1 holds the address)"
    "sw"       [Xs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                         Sw { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };       "mem32[symbol] = rs2 (rs1 holds the address)"
    "flw"      [Fd, Symbol, Xs1]      => Auipc { Rd = A(2), ImmU = HI(1) };
                                         Flw { Rd = A(0), Rs1 = A(2), ImmI = LO(1) };       "rd = mem32[symbol] (rs1 holds the address)"
    "fld"      [Fd, Symbol, Xs1]      => Auipc { Rd = A(2), ImmU = HI(1) };
                                         Fld { Rd = A(0), Rs1 = A(2), ImmI = LO(1) };       "rd = mem64[symbol] (rs1 holds the address)"
    "fsw"      [Fs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                         Fsw { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };      "mem32[symbol] = rs2 (rs1 holds the address)"
    "fsd"      [Fs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                         Fsd { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };      "mem64[symbol] = rs2 (rs1 holds the address)"
    // CSRs.
    "csrr"     [Xd, Csr]              => Csrrs { Rd = A(0), Csr = A(1) };                   "rd = csr"
    "csrw"     [Csr, Xs1]             => Csrrw { Csr = A(0), Rs1 = A(1) };                  "csr = rs1"
    "csrw"     [Csr, Uimm5]           => Csrrwi { Csr = A(0), Uimm5 = A(1) };               "csr = uimm5"
    "csrs"     [Csr, Xs1]             => Csrrs { Csr = A(0), Rs1 = A(1) };                  "csr |= rs1"
    "csrs"     [Csr, Uimm5]           => Csrrsi { Csr = A(0), Uimm5 = A(1) };               "csr |= uimm5"
    "csrc"     [Csr, Xs1]             => Csrrc { Csr = A(0), Rs1 = A(1) };                  "csr &= ~rs1"
    "csrc"     [Csr, Uimm5]           => Csrrci { Csr = A(0), Uimm5 = A(1) };               "csr &= ~uimm5"
    "csrwi"    [Csr, Uimm5]           => Csrrwi { Csr = A(0), Uimm5 = A(1) };               "csr = uimm5"
    "csrsi"    [Csr, Uimm5]           => Csrrsi { Csr = A(0), Uimm5 = A(1) };               "csr |= uimm5"
    "csrci"    [Csr, Uimm5]           => Csrrci { Csr = A(0), Uimm5 = A(1) };               "csr &= ~uimm5"
    "csrrw"    [Xd, Csr, Uimm5]       => Csrrwi { Rd = A(0), Csr = A(1), Uimm5 = A(2) };    "csrrwi"
    "csrrs"    [Xd, Csr, Uimm5]       => Csrrsi { Rd = A(0), Csr = A(1), Uimm5 = A(2) };    "csrrsi"
    "csrrc"    [Xd, Csr, Uimm5]       => Csrrci { Rd = A(0), Csr = A(1), Uimm5 = A(2) };    "csrrci"
    "rdcycle"  [Xd]                   => Csrrs { Rd = A(0), Csr = C(CYCLE as i32) };        "rd = cycle"
    "rdcycleh" [Xd]                   => Csrrs { Rd = A(0), Csr = C(CYCLEH as i32) };       "rd = cycleh"
    "rdtime"   [Xd]                   => Csrrs { Rd = A(0), Csr = C(TIME as i32) };         "rd = time"
    "rdtimeh"  [Xd]                   => Csrrs { Rd = A(0), Csr = C(TIMEH as i32) };        "rd = timeh"
    "rdinstret" [Xd]                  => Csrrs { Rd = A(0), Csr = C(INSTRET as i32) };      "rd = instret"
    "rdinstreth" [Xd]                 => Csrrs { Rd = A(0), Csr = C(INSTRETH as i32) };     "rd = instreth"
    // Floating-point CSRs.
    "frcsr"    [Xd]                   => Csrrs { Rd = A(0), Csr = C(FCSR as i32) };         "rd = fcsr"
    "frsr"     [Xd]                   => Csrrs { Rd = A(0), Csr = C(FCSR as i32) };         "rd = fcsr (older name of frcsr)"
    "fscsr"    [Xs1]                  => Csrrw { Csr = C(FCSR as i32), Rs1 = A(0) };        "fcsr = rs1"
    "fscsr"    [Xd, Xs1]              => Csrrw { Rd = A(0), Csr = C(FCSR as i32), Rs1 = A(1) }; "rd = fcsr; fcsr = rs1"
    "fssr"     [Xs1]                  => Csrrw { Csr = C(FCSR as i32), Rs1 = A(0) };        "fcsr = rs1 (older name of fscsr)"
    "fssr"     [Xd, Xs1]              => Csrrw { Rd = A(0), Csr = C(FCSR as i32), Rs1 = A(1) }; "rd = fcsr; fcsr = rs1 (older name of fscsr)"
    "frrm"     [Xd]                   => Csrrs { Rd = A(0), Csr = C(FRM as i32) };          "rd = frm"
    "fsrm"     [Xs1]                  => Csrrw { Csr = C(FRM as i32), Rs1 = A(0) };         "frm = rs1"
    "fsrm"     [Xd, Xs1]              => Csrrw { Rd = A(0), Csr = C(FRM as i32), Rs1 = A(1) }; "rd = frm; frm = rs1"
    "fsrmi"    [Uimm5]                => Csrrwi { Csr = C(FRM as i32), Uimm5 = A(0) };      "frm = uimm5"
    "fsrmi"    [Xd, Uimm5]            => Csrrwi { Rd = A(0), Csr = C(FRM as i32), Uimm5 = A(1) }; "rd = frm; frm = uimm5"
    "frflags"  [Xd]                   => Csrrs { Rd = A(0), Csr = C(FFLAGS as i32) };       "rd = fflags"
    "fsflags"  [Xs1]                  => Csrrw { Csr = C(FFLAGS as i32), Rs1 = A(0) };      "fflags = rs1"
    "fsflags"  [Xd, Xs1]              => Csrrw { Rd = A(0), Csr = C(FFLAGS as i32), Rs1 = A(1) }; "rd = fflags; fflags = rs1"
    "fsflagsi" [Uimm5]                => Csrrwi { Csr = C(FFLAGS as i32), Uimm5 = A(0) };   "fflags = uimm5"
    "fsflagsi" [Xd, Uimm5]            => Csrrwi { Rd = A(0), Csr = C(FFLAGS as i32), Uimm5 = A(1) }; "rd = fflags; fflags = uimm5"
    // Floating point.
    "fmv.s"    [Fd, Fs1]              => FsgnjS { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };      "rd = rs1 (single)"
    "fabs.s"   [Fd, Fs1]              => FsgnjxS { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };     "rd = |rs1| (single)"
    "fneg.s"   [Fd, Fs1]              => FsgnjnS { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };     "rd = -rs1 (single)"
    "fmv.d"    [Fd, Fs1]              => FsgnjD { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };      "rd = rs1 (double)"
    "fabs.d"   [Fd, Fs1]              => FsgnjxD { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };     "rd = |rs1| (double)"
    "fneg.d"   [Fd, Fs1]              => FsgnjnD { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };     "rd = -rs1 (double)"
    "fmv.x.s"  [Xd, Fs1]              => FmvXW { Rd = A(0), Rs1 = A(1) };                   "rd = bits of rs1 (older name of fmv.x.w)"
    "fmv.s.x"  [Fd, Xs1]              => FmvWX { Rd = A(0), Rs1 = A(1) };                   "rd = bits of rs1 (older name of fmv.w.x)"
    "fgt.s"    [Xd, Fs1, Fs2]         => FltS { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 > rs2 (single)"
    "fge.s"    [Xd, Fs1, Fs2]         => FleS { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 >= rs2 (single)"
    "fgt.d"    [Xd, Fs1, Fs2]         => FltD { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 > rs2 (double)"
    "fge.d"    [Xd, Fs1, Fs2]         => FleD { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 >= rs2 (double)"
    // System.
    "unimp"    []                     => Csrrw { Csr = C(CYCLE as i32) };                   "an illegal instruction (a write to the read-only cycle CSR)"
    "sbreak"   []                     => Ebreak {};                                         "ebreak (older name)"
    "scall"    []                     => Ecall {};                                          "ecall (older name)"
}

/// The pseudo-instruction and alias rows of a mnemonic, in table order.
pub fn pseudos_for_mnemonic(mnemonic: &str) -> &'static [&'static PseudoSpec] {
    static MAP: OnceLock<HashMap<&'static str, Vec<&'static PseudoSpec>>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut map: HashMap<&'static str, Vec<&'static PseudoSpec>> = HashMap::new();
        for spec in PSEUDOS {
            map.entry(spec.mnemonic).or_default().push(spec);
        }
        map
    });
    map.get(mnemonic).map(Vec::as_slice).unwrap_or(&[])
}

/// Every mnemonic the assembler knows: the instructions' then the
/// pseudo-instructions' (each once).
pub fn all_mnemonics() -> impl Iterator<Item = &'static str> {
    let pseudo = PSEUDOS
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            !PSEUDOS[..*i].iter().any(|p| p.mnemonic == s.mnemonic)
                && crate::rows_for_mnemonic(s.mnemonic).is_empty()
        })
        .map(|(_, s)| s.mnemonic);
    crate::mnemonics().chain(pseudo)
}
