//! Disassembly: an instruction as written ([`Written`]), by default in the
//! alias form GNU objdump prints (chosen from the pseudo-instruction table,
//! see `alias.rs`) or in its raw form, and its text in the syntax the
//! assembler accepts.
//!
//! Branch and jump targets print as absolute addresses (`0x10010`); the
//! assembler reads a branch operand as a target address, so the text
//! reassembles to the same word at the same address, in either form.

use std::fmt;

use crate::{
    F_ABI, Field, Inst, Operand, PseudoSpec, RoundingMode, SendType, X_ABI, csr_by_number,
    fence_set_name,
};

/// One operand as written, before it is formatted: a consumer chooses the
/// notation (the assembler syntax here, GNU objdump's in `asm::objdump`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrittenOperand {
    /// Integer register.
    X(u8),
    /// Floating-point register.
    F(u8),
    /// Signed immediate, or the 5-bit immediate of the CSR instructions.
    Int(i32),
    /// Shift amount.
    Shamt(u8),
    /// Upper immediate of `lui`/`auipc` (unshifted).
    Upper(u32),
    /// Absolute address of a branch or jump target.
    Target(u32),
    /// CSR number.
    Csr(u16),
    /// `offset(base)` of loads, stores and `jalr`.
    Mem {
        /// Offset.
        offset: i32,
        /// Base register.
        base: u8,
    },
    /// `(base)` of the atomics.
    AmoMem(u8),
    /// Rounding mode.
    Rm(RoundingMode),
    /// Predecessor and successor sets of `fence`.
    Fence {
        /// Predecessor set (`iorw` bits).
        pred: u8,
        /// Successor set.
        succ: u8,
    },
    /// SCMP message type of `sendh`.
    SendType(SendType),
    /// A fixed keyword.
    Keyword(&'static str),
}

/// The most operands a written instruction has (`fmadd.d` with a rounding mode).
const MAX_OPERANDS: usize = 5;

/// An instruction as written: mnemonic, `.aq`/`.rl` suffix and operands.
#[derive(Clone, Copy, Debug)]
pub struct Written {
    /// Mnemonic, without the suffix.
    pub mnemonic: &'static str,
    /// `.aq`, `.rl`, `.aqrl` or empty.
    pub suffix: &'static str,
    /// The pseudo-instruction row printed, when an alias was chosen.
    pub alias: Option<&'static PseudoSpec>,
    operands: [WrittenOperand; MAX_OPERANDS],
    len: u8,
}

impl Written {
    pub(crate) fn new(mnemonic: &'static str, alias: Option<&'static PseudoSpec>) -> Written {
        Written {
            mnemonic,
            suffix: "",
            alias,
            operands: [WrittenOperand::Int(0); MAX_OPERANDS],
            len: 0,
        }
    }

    pub(crate) fn push(&mut self, operand: WrittenOperand) {
        self.operands[self.len as usize] = operand;
        self.len += 1;
    }

    /// The operands, in order.
    pub fn operands(&self) -> &[WrittenOperand] {
        &self.operands[..self.len as usize]
    }
}

/// An instruction at an address, ready to print in the assembler's syntax.
#[derive(Clone, Copy, Debug)]
pub struct Disasm<'a> {
    inst: &'a Inst,
    pc: u32,
    aliases: bool,
}

impl Inst {
    /// The instruction at `pc` in assembly syntax, in the alias form GNU
    /// objdump prints by default (`li a0, 5`, `ret`, `beqz a0, 0x10010`).
    pub fn display(&self, pc: u32) -> Disasm<'_> {
        Disasm {
            inst: self,
            pc,
            aliases: true,
        }
    }

    /// The instruction at `pc` as written: the first matching alias row of
    /// the pseudo-instruction table when `aliases`, else the raw form (which
    /// still prints GNU's canonical `unimp`).
    pub fn written(&self, pc: u32, aliases: bool) -> Written {
        crate::alias::alias_form(self, pc, aliases).unwrap_or_else(|| self.raw_form(pc, aliases))
    }

    fn raw_form(&self, pc: u32, aliases: bool) -> Written {
        let spec = self.op.spec();
        let mut w = Written::new(spec.mnemonic, None);
        for operand in spec.operands {
            let written = match *operand {
                Operand::AqRl => {
                    w.suffix = aqrl_suffix(self.aux);
                    continue;
                }
                // GNU's canonical forms leave out the rounding mode an
                // instruction takes by default.
                Operand::Rm(default) if self.aux == default as u8 => continue,
                // Decoded instructions have valid rounding modes and send
                // types; a hand-made one with a reserved value shows `?`.
                Operand::Rm(_) => RoundingMode::from_bits(self.aux)
                    .map_or(WrittenOperand::Keyword("?"), WrittenOperand::Rm),
                // A full fence prints as its alias `fence`.
                Operand::Fence if aliases && self.imm == 0xff => continue,
                Operand::Fence => WrittenOperand::Fence {
                    pred: (self.imm as u8) >> 4,
                    succ: (self.imm as u8) & 15,
                },
                Operand::Xd => WrittenOperand::X(self.rd),
                Operand::Xs1 => WrittenOperand::X(self.rs1),
                Operand::Xs2 => WrittenOperand::X(self.rs2),
                Operand::Xs3 => WrittenOperand::X(self.rs3),
                Operand::Fd => WrittenOperand::F(self.rd),
                Operand::Fs1 => WrittenOperand::F(self.rs1),
                Operand::Fs2 => WrittenOperand::F(self.rs2),
                Operand::Fs3 => WrittenOperand::F(self.rs3),
                Operand::ImmI => WrittenOperand::Int(self.imm),
                Operand::Shamt => WrittenOperand::Shamt(self.imm as u8),
                Operand::Uimm5 => WrittenOperand::Int(self.rs1 as i32),
                Operand::ImmU => WrittenOperand::Upper(self.imm as u32),
                Operand::Branch | Operand::Jump => {
                    WrittenOperand::Target(pc.wrapping_add(self.imm as u32))
                }
                Operand::Csr => WrittenOperand::Csr(self.imm as u16),
                Operand::LoadMem | Operand::StoreMem => WrittenOperand::Mem {
                    offset: self.imm,
                    base: self.rs1,
                },
                Operand::AmoMem => WrittenOperand::AmoMem(self.rs1),
                Operand::SendType => SendType::from_bits(self.get(Field::SendType) as u8)
                    .map_or(WrittenOperand::Keyword("?"), WrittenOperand::SendType),
                Operand::Keyword(k) => WrittenOperand::Keyword(k),
                // Written operands of pseudo-instructions only.
                Operand::Symbol | Operand::Imm32 => continue,
            };
            w.push(written);
        }
        w
    }

    /// Target address of a branch or jump at `pc`.
    pub fn target(&self, pc: u32) -> Option<u32> {
        self.op
            .spec()
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Branch | Operand::Jump))
            .then(|| pc.wrapping_add(self.imm as u32))
    }
}

impl Disasm<'_> {
    /// The raw form instead of the alias (`addi a0, zero, 5`).
    pub fn no_aliases(self) -> Self {
        Disasm {
            aliases: false,
            ..self
        }
    }
}

fn aqrl_suffix(bits: u8) -> &'static str {
    match bits & 3 {
        0 => "",
        1 => ".rl",
        2 => ".aq",
        _ => ".aqrl",
    }
}

impl fmt::Display for WrittenOperand {
    /// The operand in the assembler's syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WrittenOperand::X(r) => f.write_str(X_ABI[r as usize]),
            WrittenOperand::F(r) => f.write_str(F_ABI[r as usize]),
            WrittenOperand::Int(v) => write!(f, "{v}"),
            WrittenOperand::Shamt(v) => write!(f, "{v}"),
            WrittenOperand::Upper(v) | WrittenOperand::Target(v) => write!(f, "{v:#x}"),
            WrittenOperand::Csr(n) => match csr_by_number(n) {
                Some(csr) => f.write_str(csr.name),
                None => write!(f, "{n:#x}"),
            },
            WrittenOperand::Mem { offset, base } => write!(f, "{offset}({})", X_ABI[base as usize]),
            WrittenOperand::AmoMem(base) => write!(f, "({})", X_ABI[base as usize]),
            WrittenOperand::Rm(rm) => f.write_str(rm.name()),
            WrittenOperand::Fence { pred, succ } => {
                write!(f, "{}, {}", fence_set_name(pred), fence_set_name(succ))
            }
            WrittenOperand::SendType(t) => f.write_str(t.name()),
            WrittenOperand::Keyword(k) => f.write_str(k),
        }
    }
}

impl fmt::Display for Disasm<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let written = self.inst.written(self.pc, self.aliases);
        write!(f, "{}{}", written.mnemonic, written.suffix)?;
        for (i, operand) in written.operands().iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            write!(f, "{operand}")?;
        }
        Ok(())
    }
}
