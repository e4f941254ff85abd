//! Pseudo-instructions and aliases: one row per written form, each with the
//! table instructions it stands for.
//!
//! A row reads `shown "mnemonic" [written operands] => Opcode {field = bind, ...};
//! ... "description"`, where `shown` says what the disassembler does with
//! the form ([`Disassembly`]): `alias` rows are printed by default, the
//! first matching row in table order (GNU objdump's choices and order for
//! RV32G), `always` rows even with `-M no-aliases`, `input` rows never.
//! A bind is `A(i)` (the i-th written operand), a constant
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
    /// `la`: `auipc` + `addi` pc-relative, or `li` when the address is a
    /// constant (as GNU as does); under `.option pic`, `auipc` + `lw` of
    /// the symbol's GOT entry.
    LoadAddress,
    /// `lla`: as `la`, but pc-relative under `.option pic` too.
    LoadLocalAddress,
    /// `la.tls.ie`/`la.tls.gd`: `auipc` of the thread-local symbol's GOT
    /// entry (initial exec) or pair (general dynamic), then `lw`/`addi`.
    LoadTlsAddress(TlsModel),
}

/// The thread-local access models of `la.tls.*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlsModel {
    /// `la.tls.ie`: the symbol's offset from `tp`, loaded from the GOT.
    InitialExec,
    /// `la.tls.gd`: the address of its GOT pair, for `__tls_get_addr`.
    GeneralDynamic,
}

/// Whether the disassembler prints a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disassembly {
    /// Printed for the instruction it matches unless aliases are off.
    Alias,
    /// Printed even with aliases off (GNU objdump's `unimp`).
    Always,
    /// Accepted on input only.
    Input,
}

/// One written form of a pseudo-instruction or alias.
#[derive(Debug)]
pub struct PseudoSpec {
    /// Whether disassembly prints the form.
    pub disassembly: Disassembly,
    /// Mnemonic.
    pub mnemonic: &'static str,
    /// Written operands, in order.
    pub operands: &'static [Operand],
    /// What it assembles to.
    pub expansion: Expansion,
    /// One line for the reference.
    pub description: &'static str,
}

impl PseudoSpec {
    /// A call to a symbol anywhere (`call`, `tail`): `auipc` + `jalr`
    /// through `%pcrel_hi`/`%pcrel_lo` of its last operand, a symbol, which
    /// GNU as lets a program write as `f@plt`.
    pub fn is_far_call(&self) -> bool {
        let last = self.operands.len().checked_sub(1);
        let symbol_last = last.is_some_and(|i| self.operands[i] == Operand::Symbol);
        let hi_lo = |t: &Template, op: Opcode, pcrel: fn(&Bind) -> bool| {
            t.op == op && t.binds.iter().any(|(_, b)| pcrel(b))
        };
        symbol_last
            && matches!(self.expansion, Expansion::Insts([a, b])
                if hi_lo(a, Opcode::Auipc, |b| matches!(b, Bind::PcrelHi(_)))
                    && hi_lo(b, Opcode::Jalr, |b| matches!(b, Bind::PcrelLo(_))))
    }
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
        $shown:ident $mnemonic:literal [$($operand:expr),*] =>
        $( $op:ident { $($field:ident = $bind:expr),* } );+ ; $description:literal
    )*) => {
        /// Every pseudo-instruction and alias form, GNU as's for RV32G.
        pub static PSEUDOS: &[PseudoSpec] = &[$(
            {
                #[allow(unused_imports)]
                use Operand::*;
                PseudoSpec {
                    disassembly: pseudos!(@shown $shown),
                    mnemonic: $mnemonic,
                    operands: &[$($operand),*],
                    expansion: pseudos!(@expansion $( $op { $($field = $bind),* } );+),
                    description: $description,
                }
            }
        ),*];
    };
    (@shown alias) => { Disassembly::Alias };
    (@shown always) => { Disassembly::Always };
    (@shown input) => { Disassembly::Input };
    (@expansion LoadImmediate {}) => { Expansion::LoadImmediate };
    (@expansion LoadAddress {}) => { Expansion::LoadAddress };
    (@expansion LoadLocalAddress {}) => { Expansion::LoadLocalAddress };
    (@expansion LoadTlsIe {}) => { Expansion::LoadTlsAddress(TlsModel::InitialExec) };
    (@expansion LoadTlsGd {}) => { Expansion::LoadTlsAddress(TlsModel::GeneralDynamic) };
    (@expansion $( $op:ident { $($field:ident = $bind:expr),* } );+) => {
        Expansion::Insts(&[$(
            Template { op: Opcode::$op, binds: &[$((Field::$field, $bind)),*] }
        ),+])
    };
}

#[rustfmt::skip]
pseudos! {
    alias  "nop"      []                     => Addi {};                                           "no operation"
    alias  "li"       [Xd, Imm32]            => LoadImmediate {};                                  "rd = any 32-bit value: addi, lui, or lui + addi"
    alias  "mv"       [Xd, Xs1]              => Addi { Rd = A(0), Rs1 = A(1) };                    "rd = rs1"
    input  "move"     [Xd, Xs1]              => Addi { Rd = A(0), Rs1 = A(1) };                    "rd = rs1 (older name of mv)"
    alias  "not"      [Xd, Xs1]              => Xori { Rd = A(0), Rs1 = A(1), ImmI = C(-1) };      "rd = ~rs1"
    alias  "neg"      [Xd, Xs1]              => Sub { Rd = A(0), Rs2 = A(1) };                     "rd = -rs1"
    alias  "seqz"     [Xd, Xs1]              => Sltiu { Rd = A(0), Rs1 = A(1), ImmI = C(1) };      "rd = rs1 == 0"
    alias  "snez"     [Xd, Xs1]              => Sltu { Rd = A(0), Rs2 = A(1) };                    "rd = rs1 != 0"
    alias  "sltz"     [Xd, Xs1]              => Slt { Rd = A(0), Rs1 = A(1) };                     "rd = rs1 < 0"
    alias  "sgtz"     [Xd, Xs1]              => Slt { Rd = A(0), Rs2 = A(1) };                     "rd = rs1 > 0"
    input  "sgt"      [Xd, Xs1, Xs2]         => Slt { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };         "rd = rs1 > rs2 (signed)"
    input  "sgtu"     [Xd, Xs1, Xs2]         => Sltu { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 > rs2 (unsigned)"
    alias  "zext.b"   [Xd, Xs1]              => Andi { Rd = A(0), Rs1 = A(1), ImmI = C(255) };     "rd = rs1[7:0] zero-extended"
    input  "sext.b"   [Xd, Xs1]              => Slli { Rd = A(0), Rs1 = A(1), Shamt = C(24) };
                                                Srai { Rd = A(0), Rs1 = A(0), Shamt = C(24) };     "rd = rs1[7:0] sign-extended (two shifts without Zbb)"
    input  "sext.h"   [Xd, Xs1]              => Slli { Rd = A(0), Rs1 = A(1), Shamt = C(16) };
                                                Srai { Rd = A(0), Rs1 = A(0), Shamt = C(16) };     "rd = rs1[15:0] sign-extended (two shifts without Zbb)"
    input  "zext.h"   [Xd, Xs1]              => Slli { Rd = A(0), Rs1 = A(1), Shamt = C(16) };
                                                Srli { Rd = A(0), Rs1 = A(0), Shamt = C(16) };     "rd = rs1[15:0] zero-extended (two shifts without Zbb)"
    // Register-register mnemonics with an immediate: the `i` forms.
    alias  "add"      [Xd, Xs1, ImmI]        => Addi { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "addi"
    alias  "and"      [Xd, Xs1, ImmI]        => Andi { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "andi"
    alias  "or"       [Xd, Xs1, ImmI]        => Ori { Rd = A(0), Rs1 = A(1), ImmI = A(2) };        "ori"
    alias  "xor"      [Xd, Xs1, ImmI]        => Xori { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "xori"
    input  "slt"      [Xd, Xs1, ImmI]        => Slti { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "slti"
    input  "sltu"     [Xd, Xs1, ImmI]        => Sltiu { Rd = A(0), Rs1 = A(1), ImmI = A(2) };      "sltiu"
    alias  "sll"      [Xd, Xs1, Shamt]       => Slli { Rd = A(0), Rs1 = A(1), Shamt = A(2) };      "slli"
    alias  "srl"      [Xd, Xs1, Shamt]       => Srli { Rd = A(0), Rs1 = A(1), Shamt = A(2) };      "srli"
    alias  "sra"      [Xd, Xs1, Shamt]       => Srai { Rd = A(0), Rs1 = A(1), Shamt = A(2) };      "srai"
    // Branches against zero and with swapped operands.
    alias  "beqz"     [Xs1, Branch]          => Beq { Rs1 = A(0), ImmB = A(1) };                   "if rs1 == 0 then pc = target"
    alias  "bnez"     [Xs1, Branch]          => Bne { Rs1 = A(0), ImmB = A(1) };                   "if rs1 != 0 then pc = target"
    alias  "blez"     [Xs1, Branch]          => Bge { Rs2 = A(0), ImmB = A(1) };                   "if rs1 <= 0 then pc = target"
    alias  "bgez"     [Xs1, Branch]          => Bge { Rs1 = A(0), ImmB = A(1) };                   "if rs1 >= 0 then pc = target"
    alias  "bltz"     [Xs1, Branch]          => Blt { Rs1 = A(0), ImmB = A(1) };                   "if rs1 < 0 then pc = target"
    alias  "bgtz"     [Xs1, Branch]          => Blt { Rs2 = A(0), ImmB = A(1) };                   "if rs1 > 0 then pc = target"
    input  "bgt"      [Xs1, Xs2, Branch]     => Blt { Rs1 = A(1), Rs2 = A(0), ImmB = A(2) };       "if rs1 > rs2 (signed) then pc = target"
    input  "ble"      [Xs1, Xs2, Branch]     => Bge { Rs1 = A(1), Rs2 = A(0), ImmB = A(2) };       "if rs1 <= rs2 (signed) then pc = target"
    input  "bgtu"     [Xs1, Xs2, Branch]     => Bltu { Rs1 = A(1), Rs2 = A(0), ImmB = A(2) };      "if rs1 > rs2 (unsigned) then pc = target"
    input  "bleu"     [Xs1, Xs2, Branch]     => Bgeu { Rs1 = A(1), Rs2 = A(0), ImmB = A(2) };      "if rs1 <= rs2 (unsigned) then pc = target"
    // Jumps.
    alias  "j"        [Jump]                 => Jal { ImmJ = A(0) };                               "pc = target"
    alias  "jal"      [Jump]                 => Jal { Rd = R(RA), ImmJ = A(0) };                   "ra = pc + 4; pc = target"
    alias  "ret"      []                     => Jalr { Rs1 = R(RA) };                              "pc = ra"
    alias  "jr"       [Xs1]                  => Jalr { Rs1 = A(0) };                               "pc = rs1"
    input  "jr"       [Xs1, ImmI]            => Jalr { Rs1 = A(0), ImmI = A(1) };                  "pc = rs1 + imm12"
    alias  "jr"       [LoadMem]              => Jalr { ImmI = A(0), Rs1 = A(0) };                  "pc = rs1 + imm12"
    alias  "jalr"     [Xs1]                  => Jalr { Rd = R(RA), Rs1 = A(0) };                   "ra = pc + 4; pc = rs1"
    input  "jalr"     [Xs1, ImmI]            => Jalr { Rd = R(RA), Rs1 = A(0), ImmI = A(1) };      "ra = pc + 4; pc = rs1 + imm12"
    alias  "jalr"     [LoadMem]              => Jalr { Rd = R(RA), ImmI = A(0), Rs1 = A(0) };      "ra = pc + 4; pc = rs1 + imm12"
    alias  "jalr"     [Xd, Xs1]              => Jalr { Rd = A(0), Rs1 = A(1) };                    "rd = pc + 4; pc = rs1"
    input  "jalr"     [Xd, Xs1, ImmI]        => Jalr { Rd = A(0), Rs1 = A(1), ImmI = A(2) };       "rd = pc + 4; pc = rs1 + imm12"
    input  "call"     [Symbol]               => Auipc { Rd = R(RA), ImmU = HI(0) };
                                                Jalr { Rd = R(RA), Rs1 = R(RA), ImmI = LO(0) };    "call a routine anywhere: ra = return address"
    input  "call"     [Xd, Symbol]           => Auipc { Rd = R(T1), ImmU = HI(1) };
                                                Jalr { Rd = A(0), Rs1 = R(T1), ImmI = LO(1) };     "call a routine anywhere: rd = return address (t1 holds the address)"
    input  "tail"     [Symbol]               => Auipc { Rd = R(T1), ImmU = HI(0) };
                                                Jalr { Rs1 = R(T1), ImmI = LO(0) };                "jump anywhere (t1 holds the address)"
    input  "jump"     [Symbol, Xs1]          => Auipc { Rd = A(1), ImmU = HI(0) };
                                                Jalr { Rs1 = A(1), ImmI = LO(0) };                 "jump anywhere (rs1 holds the address)"
    // Addresses and accesses of symbols, pc-relative.
    input  "la"       [Xd, Symbol]           => LoadAddress {};                                    "rd = address of symbol"
    input  "lla"      [Xd, Symbol]           => LoadLocalAddress {};                                  "rd = address of symbol"
    input  "la.tls.ie" [Xd, Symbol]          => LoadTlsIe {};                                        "rd = offset of thread-local symbol from tp, from the GOT"
    input  "la.tls.gd" [Xd, Symbol]          => LoadTlsGd {};                                        "rd = address of thread-local symbol's GOT pair"
    input  "lb"       [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                                Lb { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };        "rd = sext(mem8[symbol])"
    input  "lh"       [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                                Lh { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };        "rd = sext(mem16[symbol])"
    input  "lw"       [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                                Lw { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };        "rd = mem32[symbol]"
    input  "lbu"      [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                                Lbu { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };       "rd = zext(mem8[symbol])"
    input  "lhu"      [Xd, Symbol]           => Auipc { Rd = A(0), ImmU = HI(1) };
                                                Lhu { Rd = A(0), Rs1 = A(0), ImmI = LO(1) };       "rd = zext(mem16[symbol])"
    input  "sb"       [Xs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                                Sb { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };       "mem8[symbol] = rs2 (rs1 holds the address)"
    input  "sh"       [Xs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                                Sh { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };       "mem16[symbol] = rs2 (rs1 holds the address)"
    input  "sw"       [Xs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                                Sw { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };       "mem32[symbol] = rs2 (rs1 holds the address)"
    input  "flw"      [Fd, Symbol, Xs1]      => Auipc { Rd = A(2), ImmU = HI(1) };
                                                Flw { Rd = A(0), Rs1 = A(2), ImmI = LO(1) };       "rd = mem32[symbol] (rs1 holds the address)"
    input  "fld"      [Fd, Symbol, Xs1]      => Auipc { Rd = A(2), ImmU = HI(1) };
                                                Fld { Rd = A(0), Rs1 = A(2), ImmI = LO(1) };       "rd = mem64[symbol] (rs1 holds the address)"
    input  "fsw"      [Fs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                                Fsw { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };      "mem32[symbol] = rs2 (rs1 holds the address)"
    input  "fsd"      [Fs2, Symbol, Xs1]     => Auipc { Rd = A(2), ImmU = HI(1) };
                                                Fsd { Rs2 = A(0), Rs1 = A(2), ImmS = LO(1) };      "mem64[symbol] = rs2 (rs1 holds the address)"
    // CSRs: those by name come before the generic forms, since the
    // disassembler prints the first alias row that matches.
    always "unimp"    []                     => Csrrw { Csr = C(CYCLE as i32) };                   "an illegal instruction (a write to the read-only cycle CSR)"
    alias  "rdcycle"  [Xd]                   => Csrrs { Rd = A(0), Csr = C(CYCLE as i32) };        "rd = cycle"
    alias  "rdcycleh" [Xd]                   => Csrrs { Rd = A(0), Csr = C(CYCLEH as i32) };       "rd = cycleh"
    alias  "rdtime"   [Xd]                   => Csrrs { Rd = A(0), Csr = C(TIME as i32) };         "rd = time"
    alias  "rdtimeh"  [Xd]                   => Csrrs { Rd = A(0), Csr = C(TIMEH as i32) };        "rd = timeh"
    alias  "rdinstret" [Xd]                  => Csrrs { Rd = A(0), Csr = C(INSTRET as i32) };      "rd = instret"
    alias  "rdinstreth" [Xd]                 => Csrrs { Rd = A(0), Csr = C(INSTRETH as i32) };     "rd = instreth"
    // Floating-point CSRs.
    alias  "frcsr"    [Xd]                   => Csrrs { Rd = A(0), Csr = C(FCSR as i32) };         "rd = fcsr"
    input  "frsr"     [Xd]                   => Csrrs { Rd = A(0), Csr = C(FCSR as i32) };         "rd = fcsr (older name of frcsr)"
    alias  "fscsr"    [Xs1]                  => Csrrw { Csr = C(FCSR as i32), Rs1 = A(0) };        "fcsr = rs1"
    alias  "fscsr"    [Xd, Xs1]              => Csrrw { Rd = A(0), Csr = C(FCSR as i32), Rs1 = A(1) }; "rd = fcsr; fcsr = rs1"
    input  "fssr"     [Xs1]                  => Csrrw { Csr = C(FCSR as i32), Rs1 = A(0) };        "fcsr = rs1 (older name of fscsr)"
    input  "fssr"     [Xd, Xs1]              => Csrrw { Rd = A(0), Csr = C(FCSR as i32), Rs1 = A(1) }; "rd = fcsr; fcsr = rs1 (older name of fscsr)"
    alias  "frrm"     [Xd]                   => Csrrs { Rd = A(0), Csr = C(FRM as i32) };          "rd = frm"
    alias  "fsrm"     [Xs1]                  => Csrrw { Csr = C(FRM as i32), Rs1 = A(0) };         "frm = rs1"
    alias  "fsrm"     [Xd, Xs1]              => Csrrw { Rd = A(0), Csr = C(FRM as i32), Rs1 = A(1) }; "rd = frm; frm = rs1"
    alias  "fsrmi"    [Xd, Uimm5]            => Csrrwi { Rd = A(0), Csr = C(FRM as i32), Uimm5 = A(1) }; "rd = frm; frm = uimm5"
    input  "fsrmi"    [Uimm5]                => Csrrwi { Csr = C(FRM as i32), Uimm5 = A(0) };      "frm = uimm5"
    alias  "frflags"  [Xd]                   => Csrrs { Rd = A(0), Csr = C(FFLAGS as i32) };       "rd = fflags"
    alias  "fsflags"  [Xs1]                  => Csrrw { Csr = C(FFLAGS as i32), Rs1 = A(0) };      "fflags = rs1"
    alias  "fsflags"  [Xd, Xs1]              => Csrrw { Rd = A(0), Csr = C(FFLAGS as i32), Rs1 = A(1) }; "rd = fflags; fflags = rs1"
    alias  "fsflagsi" [Xd, Uimm5]            => Csrrwi { Rd = A(0), Csr = C(FFLAGS as i32), Uimm5 = A(1) }; "rd = fflags; fflags = uimm5"
    input  "fsflagsi" [Uimm5]                => Csrrwi { Csr = C(FFLAGS as i32), Uimm5 = A(0) };   "fflags = uimm5"
    // Any CSR.
    alias  "csrr"     [Xd, Csr]              => Csrrs { Rd = A(0), Csr = A(1) };                   "rd = csr"
    alias  "csrw"     [Csr, Xs1]             => Csrrw { Csr = A(0), Rs1 = A(1) };                  "csr = rs1"
    alias  "csrw"     [Csr, Uimm5]           => Csrrwi { Csr = A(0), Uimm5 = A(1) };               "csr = uimm5"
    alias  "csrs"     [Csr, Xs1]             => Csrrs { Csr = A(0), Rs1 = A(1) };                  "csr |= rs1"
    alias  "csrs"     [Csr, Uimm5]           => Csrrsi { Csr = A(0), Uimm5 = A(1) };               "csr |= uimm5"
    alias  "csrc"     [Csr, Xs1]             => Csrrc { Csr = A(0), Rs1 = A(1) };                  "csr &= ~rs1"
    alias  "csrc"     [Csr, Uimm5]           => Csrrci { Csr = A(0), Uimm5 = A(1) };               "csr &= ~uimm5"
    input  "csrwi"    [Csr, Uimm5]           => Csrrwi { Csr = A(0), Uimm5 = A(1) };               "csr = uimm5"
    input  "csrsi"    [Csr, Uimm5]           => Csrrsi { Csr = A(0), Uimm5 = A(1) };               "csr |= uimm5"
    input  "csrci"    [Csr, Uimm5]           => Csrrci { Csr = A(0), Uimm5 = A(1) };               "csr &= ~uimm5"
    alias  "csrrw"    [Xd, Csr, Uimm5]       => Csrrwi { Rd = A(0), Csr = A(1), Uimm5 = A(2) };    "csrrwi"
    alias  "csrrs"    [Xd, Csr, Uimm5]       => Csrrsi { Rd = A(0), Csr = A(1), Uimm5 = A(2) };    "csrrsi"
    alias  "csrrc"    [Xd, Csr, Uimm5]       => Csrrci { Rd = A(0), Csr = A(1), Uimm5 = A(2) };    "csrrci"
    // Floating point.
    alias  "fmv.s"    [Fd, Fs1]              => FsgnjS { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };      "rd = rs1 (single)"
    alias  "fabs.s"   [Fd, Fs1]              => FsgnjxS { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };     "rd = |rs1| (single)"
    alias  "fneg.s"   [Fd, Fs1]              => FsgnjnS { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };     "rd = -rs1 (single)"
    alias  "fmv.d"    [Fd, Fs1]              => FsgnjD { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };      "rd = rs1 (double)"
    alias  "fabs.d"   [Fd, Fs1]              => FsgnjxD { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };     "rd = |rs1| (double)"
    alias  "fneg.d"   [Fd, Fs1]              => FsgnjnD { Rd = A(0), Rs1 = A(1), Rs2 = A(1) };     "rd = -rs1 (double)"
    input  "fmv.x.s"  [Xd, Fs1]              => FmvXW { Rd = A(0), Rs1 = A(1) };                   "rd = bits of rs1 (older name of fmv.x.w)"
    input  "fmv.s.x"  [Fd, Xs1]              => FmvWX { Rd = A(0), Rs1 = A(1) };                   "rd = bits of rs1 (older name of fmv.w.x)"
    input  "fgt.s"    [Xd, Fs1, Fs2]         => FltS { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 > rs2 (single)"
    input  "fge.s"    [Xd, Fs1, Fs2]         => FleS { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 >= rs2 (single)"
    input  "fgt.d"    [Xd, Fs1, Fs2]         => FltD { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 > rs2 (double)"
    input  "fge.d"    [Xd, Fs1, Fs2]         => FleD { Rd = A(0), Rs1 = A(2), Rs2 = A(1) };        "rd = rs1 >= rs2 (double)"
    // System.
    input  "sbreak"   []                     => Ebreak {};                                         "ebreak (older name)"
    input  "scall"    []                     => Ecall {};                                          "ecall (older name)"
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
/// pseudo-instructions' (each once). Made once: the assembler's "did you
/// mean" walks it for every unknown mnemonic.
pub fn all_mnemonics() -> impl Iterator<Item = &'static str> {
    static ALL: OnceLock<Vec<&'static str>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut seen = std::collections::HashSet::new();
        crate::mnemonics()
            .chain(
                PSEUDOS
                    .iter()
                    .map(|s| s.mnemonic)
                    .filter(|m| crate::rows_for_mnemonic(m).is_empty()),
            )
            .filter(|m| seen.insert(*m))
            .collect()
    })
    .iter()
    .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The far calls are GNU's `call` and `tail` forms (which take `f@plt`),
    /// not `jump`, whose symbol is not last (GNU refuses `jump f@plt, t0`).
    #[test]
    fn far_calls_are_call_and_tail() {
        let mut calls: Vec<&str> = PSEUDOS
            .iter()
            .filter(|p| p.is_far_call())
            .map(|p| p.mnemonic)
            .collect();
        calls.dedup();
        assert_eq!(calls, ["call", "tail"]);
        assert!(PSEUDOS.iter().any(|p| p.mnemonic == "jump"));
    }
}
