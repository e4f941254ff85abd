//! `.insn`: an instruction written as its fields.

use crate::pass1::*;

impl Pass1<'_, '_> {
    pub(super) fn insn(&mut self, _st: &Stmt, _c: &super::Call) {}
}
