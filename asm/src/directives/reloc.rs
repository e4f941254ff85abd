//! `.reloc OFFSET, TYPE[, EXPRESSION]`: a relocation written by hand, for
//! objects (`-c`), with the relocation types GNU as 2.40 accepts by name.

use crate::ast::{Expr, ExprKind, Operand};
use crate::diag::Diag;
use crate::expr::Value;
use crate::pass1::{Pass1, Stmt, eval_diag, nearest};
use crate::unit::*;

/// The RISC-V relocation types GNU as 2.40 takes in `.reloc` (its howto
/// table: not TLSDESC, GOT32_PCREL, PLT32 or the ULEB128 pair), and the
/// generic BFD names it maps to them.
const RELOC_TYPES: &[(&str, u32)] = &[
    ("R_RISCV_NONE", 0),
    ("R_RISCV_32", 1),
    ("R_RISCV_64", 2),
    ("R_RISCV_RELATIVE", 3),
    ("R_RISCV_COPY", 4),
    ("R_RISCV_JUMP_SLOT", 5),
    ("R_RISCV_TLS_DTPMOD32", 6),
    ("R_RISCV_TLS_DTPMOD64", 7),
    ("R_RISCV_TLS_DTPREL32", 8),
    ("R_RISCV_TLS_DTPREL64", 9),
    ("R_RISCV_TLS_TPREL32", 10),
    ("R_RISCV_TLS_TPREL64", 11),
    ("R_RISCV_BRANCH", 16),
    ("R_RISCV_JAL", 17),
    ("R_RISCV_CALL", 18),
    ("R_RISCV_CALL_PLT", 19),
    ("R_RISCV_GOT_HI20", 20),
    ("R_RISCV_TLS_GOT_HI20", 21),
    ("R_RISCV_TLS_GD_HI20", 22),
    ("R_RISCV_PCREL_HI20", 23),
    ("R_RISCV_PCREL_LO12_I", 24),
    ("R_RISCV_PCREL_LO12_S", 25),
    ("R_RISCV_HI20", 26),
    ("R_RISCV_LO12_I", 27),
    ("R_RISCV_LO12_S", 28),
    ("R_RISCV_TPREL_HI20", 29),
    ("R_RISCV_TPREL_LO12_I", 30),
    ("R_RISCV_TPREL_LO12_S", 31),
    ("R_RISCV_TPREL_ADD", 32),
    ("R_RISCV_ADD8", 33),
    ("R_RISCV_ADD16", 34),
    ("R_RISCV_ADD32", 35),
    ("R_RISCV_ADD64", 36),
    ("R_RISCV_SUB8", 37),
    ("R_RISCV_SUB16", 38),
    ("R_RISCV_SUB32", 39),
    ("R_RISCV_SUB64", 40),
    ("R_RISCV_ALIGN", 43),
    ("R_RISCV_RVC_BRANCH", 44),
    ("R_RISCV_RVC_JUMP", 45),
    ("R_RISCV_RVC_LUI", 46),
    ("R_RISCV_GPREL_I", 47),
    ("R_RISCV_GPREL_S", 48),
    ("R_RISCV_TPREL_I", 49),
    ("R_RISCV_TPREL_S", 50),
    ("R_RISCV_RELAX", 51),
    ("R_RISCV_SUB6", 52),
    ("R_RISCV_SET6", 53),
    ("R_RISCV_SET8", 54),
    ("R_RISCV_SET16", 55),
    ("R_RISCV_SET32", 56),
    ("R_RISCV_32_PCREL", 57),
    ("R_RISCV_IRELATIVE", 58),
    ("BFD_RELOC_NONE", 0),
    ("BFD_RELOC_32", 1),
    ("BFD_RELOC_64", 2),
];

impl Pass1<'_, '_> {
    /// `.reloc OFFSET, TYPE[, EXPRESSION]`: OFFSET a number (in the current
    /// section) or a place in it; the relocation is written as GNU as
    /// writes it, against EXPRESSION's symbol with its addend.
    pub(super) fn reloc_directive(&mut self, st: &Stmt, c: &super::Call) {
        let Some(ops) = self.parse_operands(st, c.from) else {
            return;
        };
        let (Some(Operand::Expr(at)), Some(Operand::Expr(ty))) = (ops.first(), ops.get(1)) else {
            self.error(
                st,
                Diag::error(
                    c.head,
                    "`.reloc` needs an offset and a type",
                    "expected `offset, type[, expression]`",
                ),
            );
            return;
        };
        let ty_span = st.span(ty.start, ty.end);
        let Some(number) = ty
            .as_sym()
            .and_then(|n| RELOC_TYPES.iter().find(|(name, _)| *name == n))
            .map(|&(_, k)| k)
        else {
            let mut d = Diag::error(
                ty_span,
                "unrecognized relocation type",
                "not a type GNU as knows by name",
            );
            if let Some(n) = ty.as_sym()
                && let Some(near) = nearest(n, RELOC_TYPES.iter().map(|(name, _)| *name))
            {
                d = d.with_help(format!("did you mean `{near}`?"));
            } else {
                d = d.with_help("write a name such as `R_RISCV_NONE` or `R_RISCV_32`");
            }
            self.error(st, d);
            return;
        };
        let offset = match self.eval1(st, at) {
            Ok(Value::Abs(v)) if v >= 0 => v,
            Ok(Value::Rel { section, offset })
                if section == self.cur && self.struct_at.is_none() =>
            {
                offset
            }
            Ok(_) => {
                let d = Diag::error(
                    st.span(at.start, at.end),
                    "`.reloc` offset must be in the current section",
                    "not a place here",
                )
                .with_help(
                    "write a number (the offset in this section), `.`, or a label of this section",
                );
                self.error(st, d);
                return;
            }
            Err(e) => {
                let d = eval_diag(st.file, e, "the offset");
                self.error(st, d);
                return;
            }
        };
        let expr = match ops.get(2) {
            Some(Operand::Expr(e)) => e.clone(),
            _ => Expr::new(ExprKind::Int(0), at.end, at.end),
        };
        let span = st.span(at.start, at.end);
        self.hand_relocs += 1;
        self.unit.sections[self.cur].fixups.push(Fixup {
            offset: offset.min(u32::MAX as i64) as u32,
            kind: FixKind::Reloc(number, self.hand_relocs),
            expr,
            span,
            ctx: st.ctx,
            relax: self.relax,
        });
    }
}
