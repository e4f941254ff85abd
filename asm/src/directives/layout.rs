//! Layout directives: alignment (`.align`, `.p2align`, `.balign` and their
//! fill-width forms), `.org`, `.nops`.

use crate::ast::Operand;
use crate::diag::Diag;
use crate::pass1::{Pass1, Stmt};
use crate::unit::MAX_SECTION_BYTES;

impl Pass1<'_, '_> {
    pub(super) fn align_directive(&mut self, st: &Stmt, name: &str, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let mut vals: [Option<i64>; 3] = [None; 3];
        for (i, op) in ops.iter().take(3).enumerate() {
            if let Operand::Expr(e) = op {
                vals[i] = self.absolute(st, e, "the alignment argument");
                if vals[i].is_none() {
                    return;
                }
            }
        }
        let Some(amount) = vals[0] else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("`{name}` needs an alignment"),
                    "missing alignment",
                ),
            );
            return;
        };
        let width = match name {
            ".balignw" | ".p2alignw" => 2,
            ".balignl" | ".p2alignl" => 4,
            _ => 1,
        };
        let bytes = if name.starts_with(".balign") {
            amount.max(1) as u64
        } else {
            if !(0..=16).contains(&amount) {
                let span = st.whole();
                self.error(
                    st,
                    Diag::error(
                        span,
                        format!("invalid alignment 2^{amount}"),
                        "must be 0..=16",
                    ),
                );
                return;
            }
            1u64 << amount
        };
        self.align_to(st, bytes, vals[1], vals[2], width);
    }

    pub(super) fn org_directive(&mut self, st: &Stmt, c: &super::Call) {
        let Some(ops) = self.parse_operands(st, c.from) else {
            return;
        };
        let fill = match ops.get(1) {
            Some(Operand::Expr(f)) => self.absolute(st, f, "the fill value"),
            _ => None,
        };
        match ops.first() {
            Some(Operand::Expr(e)) => self.org(st, e, fill),
            _ => self.error(
                st,
                Diag::error(c.head, "`.org` needs an offset", "missing offset"),
            ),
        }
    }

    pub(super) fn nops(&mut self, st: &Stmt, c: &super::Call) {
        let Some(ops) = self.parse_operands(st, c.from) else {
            return;
        };
        if let Some(Operand::Expr(e)) = ops.first()
            && let Some(n) = self.absolute(st, e, "the size")
        {
            if n < 0 || n as u64 > MAX_SECTION_BYTES {
                self.error(
                    st,
                    Diag::error(st.span(e.start, e.end), "invalid size", "out of range"),
                );
            } else {
                self.pad(Some(st), n as u64, None, 1);
            }
        }
    }
}
