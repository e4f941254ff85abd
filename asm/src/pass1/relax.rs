//! Branch relaxation, as GNU as does it: a conditional branch whose target
//! is out of its ±4 KiB reach, not defined in the same section of the same
//! file, weak, or a number is written as the inverted branch over a `jal`
//! (8 bytes). A branch to a target not known yet is written short and
//! checked when the file ends; if it must grow, the file is assembled again
//! with it long (`crate::assemble_sources`), until no branch has to grow
//! (growing only ever lengthens distances, so this ends).

use isa_spec::{Field, Opcode};

use crate::ast::{Expr, ExprKind};
use crate::expr::{Value, eval};
use crate::unit::{Binding, FixKind};

use super::symbols::UnitResolver;
use super::{Built, Pass1, Stmt};
use crate::source::Span;

/// A short branch to a target not known when it was written.
#[derive(Clone, Debug)]
pub(crate) struct BranchCheck {
    ordinal: u32,
    section: usize,
    offset: u64,
    expr: Expr,
    file: u32,
}

/// The branch with the opposite condition (same operands).
pub(crate) fn inverse(op: Opcode) -> Option<Opcode> {
    Some(match op {
        Opcode::Beq => Opcode::Bne,
        Opcode::Bne => Opcode::Beq,
        Opcode::Blt => Opcode::Bge,
        Opcode::Bge => Opcode::Blt,
        Opcode::Bltu => Opcode::Bgeu,
        Opcode::Bgeu => Opcode::Bltu,
        _ => return None,
    })
}

/// Whether `e` names a symbol and not `.` (whose value at the end of the
/// pass is the section's end, not the branch's place).
fn names_symbol(e: &Expr) -> bool {
    fn walk(e: &Expr, sym: &mut bool, dot: &mut bool) {
        match &e.kind {
            ExprKind::Sym(n) if &**n == "." => *dot = true,
            ExprKind::Sym(_) | ExprKind::Local { .. } => *sym = true,
            ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Reloc(_, x) => walk(x, sym, dot),
            ExprKind::Binary(_, a, b) => {
                walk(a, sym, dot);
                walk(b, sym, dot);
            }
            ExprKind::Int(_) => {}
        }
    }
    let (mut sym, mut dot) = (false, false);
    walk(e, &mut sym, &mut dot);
    sym && !dot
}

fn reach(offset: i64) -> bool {
    Field::ImmB.check(offset).is_ok()
}

impl Pass1<'_, '_> {
    /// Writes a conditional branch, short or long (see the module).
    pub(crate) fn emit_branch(&mut self, st: &Stmt, mut b: Built, span: Span) {
        let ordinal = self.branch_ordinal;
        self.branch_ordinal += 1;
        let Some(at) = b
            .fixes
            .iter()
            .position(|(k, _)| *k == FixKind::PcRel(Field::ImmB))
        else {
            // Target known and in reach (`pc_relative` decided).
            return self.emit_word(st, b, span);
        };
        let expr = b.fixes[at].1.clone();
        let pc = self.section_size();
        let long = self.long_branches.contains(&ordinal)
            || match self.eval1(st, &expr) {
                // A label of this section or one of its subsections (at
                // its final offset).
                Ok(Value::Rel { section, offset })
                    if self.parent_of(section) == self.parent_of(self.cur) =>
                {
                    let rel = offset - pc as i64;
                    let long = !reach(rel) || self.weak_target(&expr);
                    // Known now: encoded now, unless an object keeps the
                    // relocation for the linker.
                    if !long && !self.sh.opts.relocatable {
                        b.fixes.remove(at);
                        b.inst.imm = rel as i32;
                    }
                    if !long && names_symbol(&expr) {
                        // Checked again at the end: a later `.weak` makes
                        // it long too (GNU as decides at the end). `.`
                        // is not a symbol that can become weak (and would
                        // be the section's end there).
                        self.check_branch_at_end(st, ordinal, pc, &expr);
                    }
                    long
                }
                Ok(_) => true,
                Err(_) => {
                    self.check_branch_at_end(st, ordinal, pc, &expr);
                    false
                }
            };
        if !long {
            return self.emit_word(st, b, span);
        }
        let op = inverse(b.inst.op).expect("only conditional branches come here");
        b.inst.op = op;
        b.inst.imm = 8;
        b.fixes.remove(at);
        self.emit_word(st, b, span);
        let mut jal = Built::new(Opcode::Jal);
        jal.fixes.push((FixKind::PcRel(Field::ImmJ), expr));
        self.emit_word(st, jal, span);
    }

    /// Records a short branch whose target `branches_to_lengthen` checks
    /// again once the file is read.
    fn check_branch_at_end(&mut self, st: &Stmt, ordinal: u32, pc: u64, expr: &Expr) {
        self.branch_checks.push(BranchCheck {
            ordinal,
            section: self.cur,
            offset: pc,
            expr: expr.clone(),
            file: st.file,
        });
    }

    /// Whether the branch target names a weak symbol (GNU as writes such a
    /// branch long: the definition that wins may lie anywhere).
    fn weak_target(&self, expr: &Expr) -> bool {
        let mut todo = vec![expr];
        while let Some(e) = todo.pop() {
            match &e.kind {
                ExprKind::Sym(n)
                    if self
                        .unit
                        .symbols
                        .get(n.as_ref())
                        .is_some_and(|s| s.binding == Binding::Weak) =>
                {
                    return true;
                }
                ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Reloc(_, x) => todo.push(x),
                ExprKind::Binary(_, a, b) => todo.extend([&**a, &**b]),
                _ => {}
            }
        }
        false
    }

    /// Whether `expr` names an address in code (a label there, or `.` in
    /// code): a value the linker may change when it relaxes.
    pub(crate) fn mentions_code_address(&self, expr: &Expr) -> bool {
        self.mentions_address(expr, true)
    }

    /// Whether `expr` names an address (a label or `.`), in code only when
    /// `code_only`.
    pub(crate) fn mentions_address(&self, expr: &Expr, code_only: bool) -> bool {
        let counts = |section: usize| !code_only || self.unit.sections[section].class.is_code();
        let mut todo = vec![expr];
        while let Some(e) = todo.pop() {
            match &e.kind {
                ExprKind::Sym(n) if &**n == "." && counts(self.cur) => {
                    return true;
                }
                ExprKind::Sym(n) if &**n == "." => {}
                ExprKind::Sym(n) => {
                    if let Some(sym) = self.unit.symbols.get(n.as_ref())
                        && let crate::unit::SymDef::Value(Value::Rel { section, .. }) = sym.def
                        && counts(section)
                    {
                        return true;
                    }
                }
                ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Reloc(_, x) => todo.push(x),
                ExprKind::Binary(_, a, b) => todo.extend([&**a, &**b]),
                _ => {}
            }
        }
        false
    }

    /// The short branches written in this pass whose targets turned out out
    /// of reach or elsewhere: their ordinals (empty when none).
    /// Moves the pending branch checks to renumbered sections.
    pub(crate) fn remap_branch_checks(&mut self, map: &dyn Fn(usize) -> usize) {
        for c in &mut self.branch_checks {
            c.section = map(c.section);
        }
    }

    pub(crate) fn branches_to_lengthen(&mut self) -> Vec<u32> {
        let checks = std::mem::take(&mut self.branch_checks);
        let mut more = Vec::new();
        let mut scratch = Vec::new();
        for c in checks {
            let mut r = UnitResolver {
                unit: &mut self.unit,
                cur: c.section,
                absolute_dot: None,
                file: c.file,
                warnings: &mut scratch,
            };
            let short = match eval(&c.expr, &mut r) {
                Ok(Value::Rel { section, offset }) if section == c.section => {
                    reach(offset - c.offset as i64) && !self.weak_target(&c.expr)
                }
                _ => false,
            };
            if !short {
                more.push(c.ordinal);
            }
        }
        more
    }
}
