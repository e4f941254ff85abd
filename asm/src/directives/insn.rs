//! `.insn`: an instruction written as its fields, in GNU as's formats
//! (`r`, `r4`, `i`, `s`, `b`/`sb`, `u`, `j`/`uj`) or as a raw value
//! (`.insn VALUE`, `.insn LENGTH, VALUE`). It is how GNU as spells the SCMP
//! instructions and any custom one.

use isa_spec::{Field, parse_freg, parse_xreg};

use crate::ast::Operand;
use crate::diag::Diag;
use crate::instr::Imm;
use crate::lexer::Kind;
use crate::pass1::{Pass1, Stmt};
use crate::source::Span;

/// GNU as's names of the major opcodes.
const OPCODE_NAMES: &[(&str, u32)] = &[
    ("LOAD", 0x03),
    ("LOAD_FP", 0x07),
    ("CUSTOM_0", 0x0b),
    ("MISC_MEM", 0x0f),
    ("OP_IMM", 0x13),
    ("AUIPC", 0x17),
    ("OP_IMM_32", 0x1b),
    ("STORE", 0x23),
    ("STORE_FP", 0x27),
    ("CUSTOM_1", 0x2b),
    ("AMO", 0x2f),
    ("OP", 0x33),
    ("LUI", 0x37),
    ("OP_32", 0x3b),
    ("MADD", 0x43),
    ("MSUB", 0x47),
    ("NMSUB", 0x4b),
    ("NMADD", 0x4f),
    ("OP_FP", 0x53),
    ("OP_V", 0x57),
    ("CUSTOM_2", 0x5b),
    ("BRANCH", 0x63),
    ("JALR", 0x67),
    ("JAL", 0x6f),
    ("SYSTEM", 0x73),
    ("CUSTOM_3", 0x7b),
];

/// The operand kinds of a format after the opcode, in order.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    /// A function code of this many bits, at this bit position.
    Func(u32, u32),
    /// A register (integer or floating point) into this field.
    Reg(Field),
    /// An immediate into this field.
    Imm(Field),
    /// `imm(rs1)` with the immediate into this field.
    Mem(Field),
    /// A target address, pc-relative into this field.
    Target(Field),
}

use Part::*;

const F3: Part = Func(3, 12);
const F7: Part = Func(7, 25);
const F2: Part = Func(2, 25);

/// Every format: names, then the operand kinds after the opcode.
const FORMATS: &[(&[&str], &[Part])] = &[
    (
        &["r"],
        &[F3, F7, Reg(Field::Rd), Reg(Field::Rs1), Reg(Field::Rs2)],
    ),
    (
        &["r", "r4"],
        &[
            F3,
            F2,
            Reg(Field::Rd),
            Reg(Field::Rs1),
            Reg(Field::Rs2),
            Reg(Field::Rs3),
        ],
    ),
    (
        &["i"],
        &[F3, Reg(Field::Rd), Reg(Field::Rs1), Imm(Field::ImmI)],
    ),
    (&["i"], &[F3, Reg(Field::Rd), Mem(Field::ImmI)]),
    (&["s"], &[F3, Reg(Field::Rs2), Mem(Field::ImmS)]),
    (
        &["b", "sb"],
        &[F3, Reg(Field::Rs1), Reg(Field::Rs2), Target(Field::ImmB)],
    ),
    (&["u"], &[Reg(Field::Rd), Imm(Field::ImmU)]),
    (&["j", "uj"], &[Reg(Field::Rd), Target(Field::ImmJ)]),
];

/// The length in bytes of an instruction by its low bits, as the RISC-V
/// encoding says (2, 4, 6 or 8; `None` for longer ones).
fn insn_length(value: u64) -> Option<u64> {
    if value & 3 != 3 {
        Some(2)
    } else if value & 0x1f != 0x1f {
        Some(4)
    } else if value & 0x3f == 0x1f {
        Some(6)
    } else if value & 0x7f == 0x3f {
        Some(8)
    } else {
        None
    }
}

impl Pass1<'_, '_> {
    pub(super) fn insn(&mut self, st: &Stmt, c: &super::Call) {
        self.place_pending_loc();
        let toks = st.tokens();
        let format = toks
            .get(c.from)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| st.tok_text(*t).to_ascii_lowercase());
        let is_format = format
            .as_deref()
            .is_some_and(|f| FORMATS.iter().any(|(names, _)| names.contains(&f)));
        let from = if is_format { c.from + 1 } else { c.from };
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let result = match format.filter(|_| is_format) {
            Some(f) => self.insn_format(st, &f, &ops),
            None => self.insn_raw(st, c.head, &ops),
        };
        if let Err(d) = result {
            self.error(st, d);
        }
    }

    fn insn_raw(&mut self, st: &Stmt, head: Span, ops: &[Operand]) -> Result<(), Diag> {
        let values: Vec<&crate::ast::Expr> = ops
            .iter()
            .filter_map(|o| match o {
                Operand::Expr(e) => Some(e),
                _ => None,
            })
            .collect();
        if values.len() != ops.len() || !(1..=2).contains(&ops.len()) {
            return Err(Diag::error(
                st.whole(),
                "`.insn` needs a format or a value",
                "expected `.insn FORMAT, ...`, `.insn VALUE` or `.insn LENGTH, VALUE`",
            )
            .with_help("formats: r, r4, i, s, b, u, j"));
        }
        let value_expr = values[values.len() - 1];
        let span = st.span(value_expr.start, value_expr.end);
        let Some(value) = self.absolute(st, value_expr, "the instruction value") else {
            return Ok(());
        };
        let natural = insn_length(value as u64);
        let length = match values.len() {
            2 => match self.absolute(st, values[0], "the instruction length") {
                Some(l) => Some(l as u64),
                None => return Ok(()),
            },
            _ => natural,
        };
        let fits = |l: u64| l >= 8 || (value as u64) >> (8 * l) == 0;
        match length {
            Some(l) if natural == Some(l) && fits(l) => {
                self.emit(st, &value.to_le_bytes()[..l as usize], span);
                Ok(())
            }
            _ => Err(Diag::error(
                span,
                "value conflicts with instruction length",
                "not an instruction of that length",
            )
            .with_help(
                "the low bits give the length: not 11 is 2 bytes, 11 with bits 4:2 not 111 is 4 bytes",
            )
            .with_note(head, "as GNU as reads it")),
        }
    }

    fn insn_format(&mut self, st: &Stmt, format: &str, ops: &[Operand]) -> Result<(), Diag> {
        let candidates: Vec<&[Part]> = FORMATS
            .iter()
            .filter(|(names, parts)| names.contains(&format) && parts.len() + 1 == ops.len())
            .map(|(_, parts)| *parts)
            .collect();
        let Some(&parts) = candidates.first() else {
            let forms: Vec<String> = FORMATS
                .iter()
                .filter(|(names, _)| names.contains(&format))
                .map(|(_, p)| format!("{} operands after `{format}`", p.len() + 1))
                .collect();
            return Err(Diag::error(
                st.whole(),
                format!("wrong number of operands for `.insn {format}`"),
                "operands",
            )
            .with_help(format!("`.insn {format}` takes {}", forms.join(" or "))));
        };
        let opcode = self.insn_opcode(st, &ops[0])?;
        let mut word = opcode;
        let mut fixes = Vec::new();
        for (part, o) in parts.iter().zip(&ops[1..]) {
            let span = {
                let (s, e) = o.range();
                st.span(s, e)
            };
            match *part {
                Func(bits, at) => {
                    let e = self.expr_operand(st, o)?;
                    let v = self
                        .absolute(st, e, "the function code")
                        .ok_or_else(|| Diag::error(span, "function code must be known", "here"))?;
                    if !(0..1 << bits).contains(&v) {
                        let name = match bits {
                            3 => "funct3",
                            2 => "funct2",
                            _ => "funct7",
                        };
                        return Err(Diag::error(
                            span,
                            format!("bad value for {name} field"),
                            format!("must be 0..={}", (1 << bits) - 1),
                        ));
                    }
                    word |= (v as u32) << at;
                }
                Reg(field) => word |= field.insert(self.any_reg(st, o)? as i32),
                Imm(field) => {
                    let e = self.expr_operand(st, o)?;
                    match self.immediate(st, e, field)? {
                        Imm::Known(v) => word |= field.insert(v as i32),
                        Imm::Fix(kind, e) => fixes.push((kind, e)),
                    }
                }
                Mem(field) => {
                    let (offset, base) = self.memory(st, o)?;
                    word |= Field::Rs1.insert(base as i32);
                    if let Some(e) = offset {
                        match self.immediate(st, e, field)? {
                            Imm::Known(v) => word |= field.insert(v as i32),
                            Imm::Fix(kind, e) => fixes.push((kind, e)),
                        }
                    }
                }
                Target(field) => {
                    let e = self.expr_operand(st, o)?;
                    match self.pc_relative(st, e, field)? {
                        Imm::Known(v) => word |= field.insert(v as i32),
                        Imm::Fix(kind, e) => fixes.push((kind, e)),
                    }
                }
            }
        }
        let offset = self.section_size();
        self.emit(st, &word.to_le_bytes(), st.whole());
        self.cfi_after_insn(false, &fixes);
        for (kind, e) in fixes {
            self.add_fixup(st, kind, e, offset);
        }
        Ok(())
    }

    /// The major opcode: a name or a number whose low bits say "32 bits".
    fn insn_opcode(&mut self, st: &Stmt, o: &Operand) -> Result<u32, Diag> {
        let e = self.expr_operand(st, o)?;
        let span = st.span(e.start, e.end);
        if let Some(name) = e.as_sym()
            && let Some((_, v)) = OPCODE_NAMES.iter().find(|(n, _)| *n == name)
        {
            return Ok(*v);
        }
        let v = self
            .absolute(st, e, "the opcode")
            .ok_or_else(|| Diag::error(span, "opcode must be known", "here"))?;
        if !(0..128).contains(&v) || v & 3 != 3 {
            return Err(Diag::error(
                span,
                "bad value for opcode field",
                "must be 0..=127 with the low 2 bits 11",
            ));
        }
        if v & 0x1f == 0x1f {
            // GNU as would emit a longer instruction here; SCMP's are 32 bits.
            return Err(Diag::error(
                span,
                format!("opcode {v:#x} is that of an instruction longer than 32 bits"),
                "bits 4:2 are 111",
            )
            .with_help(
                "SCMP instructions are 32 bits; write longer words with `.insn LENGTH, VALUE`",
            ));
        }
        Ok(v as u32)
    }

    /// A register of either file (`.insn` does not say which).
    fn any_reg(&mut self, st: &Stmt, o: &Operand) -> Result<u8, Diag> {
        let name = match o {
            Operand::Expr(e) => e.as_sym(),
            _ => None,
        };
        name.and_then(|n| parse_xreg(n).or_else(|| parse_freg(n)))
            .ok_or_else(|| {
                let (s, e) = o.range();
                Diag::error(
                    st.span(s, e),
                    format!(
                        "expected a register, found `{}`",
                        &st.text[s as usize..e as usize]
                    ),
                    "not a register",
                )
            })
    }
}
