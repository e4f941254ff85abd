//! Which alias the disassembler prints for an instruction: the first row of
//! the pseudo-instruction table ([`crate::PSEUDOS`]) marked for disassembly
//! whose expansion is that one instruction, with the row's written operands
//! read back from the instruction's fields.
//!
//! A row matches when every field its expansion sets to a constant (or
//! leaves unbound, which means zero) has that value, and the fields bound to
//! one written register operand (`fmv.s rd, rs` sets rs1 and rs2) agree.

use std::sync::OnceLock;

use crate::{
    Bind, Disassembly, Expansion, Field, Inst, Opcode, Operand, PSEUDOS, PseudoSpec, Written,
    WrittenOperand,
};

/// `li rd, imm` of a value that fits 12 bits: `addi rd, zero, imm`.
const LI_BINDS: &[(Field, Bind)] = &[(Field::Rd, Bind::Arg(0)), (Field::ImmI, Bind::Arg(1))];

impl PseudoSpec {
    /// The instruction this form stands for, and where its fields come from,
    /// when the form is one instruction (for `li`, its 12-bit form).
    pub fn single_instruction(&'static self) -> Option<(Opcode, &'static [(Field, Bind)])> {
        match &self.expansion {
            Expansion::Insts([template]) => Some((template.op, template.binds)),
            Expansion::LoadImmediate => Some((Opcode::Addi, LI_BINDS)),
            _ => None,
        }
    }
}

/// The rows the disassembler may print, by opcode, in table order.
fn printable_rows(op: Opcode) -> &'static [&'static PseudoSpec] {
    static ROWS: OnceLock<Vec<Vec<&'static PseudoSpec>>> = OnceLock::new();
    let rows = ROWS.get_or_init(|| {
        let mut rows = vec![Vec::new(); Opcode::ALL.len()];
        for spec in PSEUDOS {
            if spec.disassembly == Disassembly::Input {
                continue;
            }
            if let Some((op, _)) = spec.single_instruction() {
                rows[op as usize].push(spec);
            }
        }
        rows
    });
    &rows[op as usize]
}

fn is_register(field: Field) -> bool {
    matches!(field, Field::Rd | Field::Rs1 | Field::Rs2 | Field::Rs3)
}

/// The alias form of `inst` at `pc`, if a printable row matches it (with
/// `aliases` off, only the rows printed always).
pub(crate) fn alias_form(inst: &Inst, pc: u32, aliases: bool) -> Option<Written> {
    printable_rows(inst.op)
        .iter()
        .filter(|row| aliases || row.disassembly == Disassembly::Always)
        .find_map(|row| read_back(inst, row, pc))
}

/// `row`'s written form of `inst`, or `None` when the row does not match.
fn read_back(inst: &Inst, row: &'static PseudoSpec, pc: u32) -> Option<Written> {
    let (op, binds) = row.single_instruction()?;
    debug_assert_eq!(op, inst.op);
    let mut regs: [Option<u8>; 4] = [None; 4];
    let mut values: [Option<i32>; 4] = [None; 4];
    for field in op.spec().fields() {
        let value = inst.get(field);
        match binds.iter().find(|(f, _)| *f == field).map(|(_, b)| *b) {
            None if value != 0 => return None,
            None => {}
            Some(Bind::Const(c)) if value != c => return None,
            Some(Bind::Const(_)) => {}
            Some(Bind::Arg(i)) if is_register(field) => {
                let slot = &mut regs[i as usize];
                if slot.is_some_and(|r| r as i32 != value) {
                    return None;
                }
                *slot = Some(value as u8);
            }
            Some(Bind::Arg(i)) => values[i as usize] = Some(value),
            Some(Bind::PcrelHi(_) | Bind::PcrelLo(_)) => return None,
        }
    }
    let mut written = Written::new(row.mnemonic, Some(row));
    for (i, operand) in row.operands.iter().enumerate() {
        let reg = || regs[i].expect("a register operand is bound to a register field");
        let value = || values[i].expect("an immediate operand is bound to a field");
        written.push(match operand {
            Operand::Xd | Operand::Xs1 | Operand::Xs2 | Operand::Xs3 => WrittenOperand::X(reg()),
            Operand::Fd | Operand::Fs1 | Operand::Fs2 | Operand::Fs3 => WrittenOperand::F(reg()),
            Operand::ImmI | Operand::Imm32 | Operand::Uimm5 => WrittenOperand::Int(value()),
            Operand::Shamt => WrittenOperand::Shamt(value() as u8),
            Operand::ImmU => WrittenOperand::Upper(value() as u32),
            Operand::Branch | Operand::Jump => {
                WrittenOperand::Target(pc.wrapping_add(value() as u32))
            }
            Operand::Csr => WrittenOperand::Csr(value() as u16),
            Operand::LoadMem | Operand::StoreMem => WrittenOperand::Mem {
                offset: value(),
                base: reg(),
            },
            Operand::AmoMem => WrittenOperand::AmoMem(reg()),
            other => unreachable!("`{}` prints no {other:?} operand", row.mnemonic),
        });
    }
    Some(written)
}
