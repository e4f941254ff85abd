//! Disassembly in the syntax the assembler accepts.
//!
//! Branch and jump targets print as absolute addresses (`0x10010`); the
//! assembler reads a branch operand as a target address, so the text
//! reassembles to the same word at the same address.

use std::fmt;

use crate::{
    F_ABI, Field, Inst, Operand, RoundingMode, SendType, X_ABI, csr_by_number, fence_set_name,
};

/// An instruction at an address, ready to print.
#[derive(Clone, Copy, Debug)]
pub struct Disasm<'a> {
    inst: &'a Inst,
    pc: u32,
}

impl Inst {
    /// The instruction in assembly syntax, for an instruction at `pc`.
    /// `{:#}` pads the mnemonic to a column.
    pub fn display(&self, pc: u32) -> Disasm<'_> {
        Disasm { inst: self, pc }
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

fn aqrl_suffix(bits: u8) -> &'static str {
    match bits & 3 {
        0 => "",
        1 => ".rl",
        2 => ".aq",
        _ => ".aqrl",
    }
}

impl fmt::Display for Disasm<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inst = self.inst;
        let spec = inst.op.spec();
        let suffix = if spec.has_aqrl() {
            aqrl_suffix(inst.aux)
        } else {
            ""
        };
        let mut texts: Vec<String> = Vec::with_capacity(4);
        for operand in spec.operands {
            let text = match *operand {
                Operand::Rm(default) => {
                    if inst.aux == default as u8 {
                        continue;
                    }
                    RoundingMode::from_bits(inst.aux)
                        .map(RoundingMode::name)
                        .unwrap_or("?")
                        .to_string()
                }
                Operand::Fence => {
                    if inst.imm == 0xff {
                        continue;
                    }
                    let sets = inst.imm as u8;
                    format!(
                        "{}, {}",
                        fence_set_name(sets >> 4),
                        fence_set_name(sets & 15)
                    )
                }
                Operand::Xd => X_ABI[inst.rd as usize].to_string(),
                Operand::Xs1 => X_ABI[inst.rs1 as usize].to_string(),
                Operand::Xs2 => X_ABI[inst.rs2 as usize].to_string(),
                Operand::Xs3 => X_ABI[inst.rs3 as usize].to_string(),
                Operand::Fd => F_ABI[inst.rd as usize].to_string(),
                Operand::Fs1 => F_ABI[inst.rs1 as usize].to_string(),
                Operand::Fs2 => F_ABI[inst.rs2 as usize].to_string(),
                Operand::Fs3 => F_ABI[inst.rs3 as usize].to_string(),
                Operand::ImmI | Operand::Shamt => inst.imm.to_string(),
                Operand::Uimm5 => inst.rs1.to_string(),
                Operand::ImmU => format!("{:#x}", inst.imm),
                Operand::Branch | Operand::Jump => {
                    format!("{:#x}", self.pc.wrapping_add(inst.imm as u32))
                }
                Operand::Csr => match csr_by_number(inst.imm as u16) {
                    Some(csr) => csr.name.to_string(),
                    None => format!("{:#x}", inst.imm),
                },
                Operand::LoadMem | Operand::StoreMem => {
                    format!("{}({})", inst.imm, X_ABI[inst.rs1 as usize])
                }
                Operand::AmoMem => format!("({})", X_ABI[inst.rs1 as usize]),
                Operand::SendType => SendType::from_bits(inst.get(Field::SendType) as u8)
                    .map(SendType::name)
                    .unwrap_or("?")
                    .to_string(),
                Operand::Keyword(k) => k.to_string(),
                // Written operands of pseudo-instructions only.
                Operand::AqRl | Operand::Symbol | Operand::Imm32 => continue,
            };
            texts.push(text);
        }
        if texts.is_empty() {
            return write!(f, "{}{}", spec.mnemonic, suffix);
        }
        if f.alternate() {
            let width = 8usize
                .saturating_sub(spec.mnemonic.len() + suffix.len())
                .max(1);
            write!(f, "{}{}{:width$}", spec.mnemonic, suffix, "")?;
        } else {
            write!(f, "{}{} ", spec.mnemonic, suffix)?;
        }
        f.write_str(&texts.join(", "))
    }
}
