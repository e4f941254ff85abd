//! Symbol directives: binding and visibility (`.globl`, `.weak`, `.hidden`
//! ...), `.type`, `.size`, `.set`/`.equ`/`.equiv`, `.comm`/`.lcomm`.

use crate::ast::{Expr, ExprKind, Operand};
use crate::diag::Diag;
use crate::expr::{EvalError, Value};
use crate::pass1::{Pass1, Stmt, eval_diag, split_top_level, trim_range};
use crate::unit::*;

impl Pass1<'_, '_> {
    pub(super) fn symbol_attributes(&mut self, st: &Stmt, name: &str, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        for op in ops {
            let Operand::Expr(e) = &op else { continue };
            let Some(sym) = e.as_sym() else {
                self.error(
                    st,
                    Diag::error(
                        st.span(e.start, e.end),
                        "expected a symbol name",
                        "not a name",
                    ),
                );
                continue;
            };
            let span = st.span(e.start, e.end);
            let s = self.symbol_mut(sym);
            if s.first_use.is_none() {
                s.first_use = Some(span);
            }
            match name {
                ".globl" | ".global" => {
                    if s.binding != Binding::Weak {
                        s.binding = Binding::Global;
                    }
                }
                ".weak" => s.binding = Binding::Weak,
                // GNU as: `.local` does not undo `.weak`, nor a `.comm`
                // already made (that symbol stays a global common).
                ".local" => {
                    s.declared_local = true;
                    if s.binding != Binding::Weak && !matches!(s.def, SymDef::Common(..)) {
                        s.binding = Binding::Local;
                    }
                }
                ".hidden" => s.visibility = 2,
                ".internal" => s.visibility = 1,
                _ => s.visibility = 3,
            }
        }
    }

    pub(super) fn type_directive(&mut self, st: &Stmt, from: usize) {
        // Read as text: the type may be written `@function`, `%function`,
        // `"function"` or `STT_FUNC`, which are not all expressions.
        let (raw, base) = st.raw_from(from);
        let raw = raw.to_string();
        let parts = split_top_level(&raw, ',');
        let (Some(&n), Some(&t)) = (parts.first(), parts.get(1)) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "`.type` needs a symbol and a type",
                    "expected `name, @type`",
                ),
            );
            return;
        };
        let (ns, ne) = trim_range(&raw, n);
        let sym = raw[ns..ne].to_string();
        if sym.is_empty() {
            return;
        }
        let (ts, te) = trim_range(&raw, t);
        let (s, en) = (base + ts as u32, base + te as u32);
        let text = raw[ts..te].trim_matches('"').trim_start_matches(['@', '%']);
        if matches!(text, "gnu_unique_object" | "STT_GNU_UNIQUE") {
            // GNU as: an object with binding STB_GNU_UNIQUE, whatever its
            // binding was.
            let s = self.symbol_mut(&sym);
            s.ty = SymType::Object;
            s.unique = true;
            return;
        }
        let ty = match text {
            "function" | "STT_FUNC" => SymType::Func,
            "gnu_indirect_function" | "STT_GNU_IFUNC" => SymType::Ifunc,
            "object" | "STT_OBJECT" => SymType::Object,
            "tls_object" | "STT_TLS" => SymType::Tls,
            "common" | "STT_COMMON" => SymType::Common,
            "notype" | "STT_NOTYPE" => SymType::NoType,
            other => {
                let d = Diag::error(
                    st.span(s, en),
                    format!("unknown symbol type `{other}`"),
                    "not a type",
                )
                .with_help("use @function, @object, @notype, @tls_object, @common, @gnu_indirect_function or @gnu_unique_object");
                self.error(st, d);
                return;
            }
        };
        self.symbol_mut(&sym).ty = ty;
    }

    pub(super) fn size_directive(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let (Some(Operand::Expr(n)), Some(Operand::Expr(v))) = (ops.first(), ops.get(1)) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "`.size` needs a symbol and a size",
                    "expected `name, size`",
                ),
            );
            return;
        };
        let Some(sym) = n.as_sym() else { return };
        let sym = sym.to_string();
        match self.eval1(st, v) {
            Ok(Value::Abs(size)) => self.symbol_mut(&sym).size = Some(size as u64),
            Ok(Value::Rel { .. }) | Err(EvalError::Defer(..)) => {
                let offset = self.section_size();
                self.add_fixup(st, FixKind::SymbolSize(sym.into()), v.clone(), offset);
            }
            Err(e) => {
                let d = eval_diag(st.file, e, "the size");
                self.error(st, d);
            }
        }
    }

    pub(super) fn comm(&mut self, st: &Stmt, name: &str, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let (Some(Operand::Expr(n)), Some(Operand::Expr(size))) = (ops.first(), ops.get(1)) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("`{name}` needs a symbol and a size"),
                    "expected `name, size[, align]`",
                ),
            );
            return;
        };
        let Some(sym) = n.as_sym().map(str::to_string) else {
            return;
        };
        let span = st.span(n.start, n.end);
        let Some(size) = self.absolute(st, size, "the size") else {
            return;
        };
        let align = match ops.get(2) {
            Some(Operand::Expr(a)) => match self.absolute(st, a, "the alignment") {
                Some(a) => a,
                None => return,
            },
            _ => (size.max(1) as u64).next_power_of_two().min(8) as i64,
        };
        if size < 0
            || size as u64 > MAX_SECTION_BYTES
            || align <= 0
            || !(align as u64).is_power_of_two()
        {
            self.error(
                st,
                Diag::error(
                    span,
                    format!("invalid `{name}` size or alignment"),
                    "out of range",
                ),
            );
            return;
        }
        let s = self.symbol_mut(&sym);
        // `.lcomm`, or `.comm` of a name declared `.local` (gcc's file-scope
        // `static` at -O0): this unit's own storage, never a common.
        let in_bss = name == ".lcomm" || s.declared_local;
        if s.is_defined() {
            if in_bss || !matches!(s.def, SymDef::Common(..)) {
                let first = s.def_span;
                let mut d = Diag::error(
                    span,
                    format!("symbol `{sym}` is already defined"),
                    "declared common here",
                );
                if let Some(f) = first {
                    d = d.with_note(f, "first defined here");
                }
                self.error(st, d);
            }
            return;
        }
        s.def_span = Some(span);
        if name == ".tls_common" {
            s.ty = SymType::Tls;
        }
        if in_bss {
            s.def = SymDef::Bss(size as u64, align as u64);
        } else {
            s.def = SymDef::Common(size as u64, align as u64);
            if s.binding == Binding::Local {
                s.binding = Binding::Global;
            }
        }
        if s.ty == SymType::NoType {
            s.ty = SymType::Object;
        }
    }

    /// The two symbol names of `.weakref`/`.symver`, or an error naming
    /// the directive's form.
    fn two_names(&mut self, st: &Stmt, c: &super::Call, form: &str) -> Option<(String, String)> {
        let (raw, _) = st.raw_from(c.from);
        let names: Vec<String> = split_top_level(raw, ',')
            .into_iter()
            .map(|r| {
                let (s, e) = trim_range(raw, r);
                raw[s..e].to_string()
            })
            .collect();
        match names.as_slice() {
            [a, b] if !a.is_empty() && !b.is_empty() => Some((a.clone(), b.clone())),
            _ => {
                let d = Diag::error(
                    c.head,
                    format!("`{}` needs two symbol names", c.name),
                    format!("expected `{form}`"),
                );
                self.error(st, d);
                None
            }
        }
    }

    /// `.weakref ALIAS, TARGET`: ALIAS stands for TARGET, which is a weak
    /// reference unless the file names it directly (GNU as).
    pub(super) fn weakref(&mut self, st: &Stmt, c: &super::Call) {
        let Some((alias, target)) = self.two_names(st, c, "alias, target") else {
            return;
        };
        let at = Expr::new(ExprKind::Sym(target.as_str().into()), 0, 0);
        self.eqv.insert(alias.as_str().into(), at);
        self.weakref_targets.entry(target.into()).or_insert(false);
    }

    /// `.symver NAME, NAME2@NODE`: a second name for NAME, with NAME's
    /// binding (GNU as; versions mean something only to a dynamic linker).
    pub(super) fn symver(&mut self, st: &Stmt, c: &super::Call) {
        let Some((name, versioned)) = self.two_names(st, c, "name, name@version") else {
            return;
        };
        let span = st.whole();
        let e = Expr::new(ExprKind::Sym(name.as_str().into()), 0, 0);
        self.assign(st, &versioned, span, e, false, false);
        let binding = self.symbol_mut(&name).binding;
        self.symbol_mut(&versioned).binding = binding;
    }

    /// `.set`, `.equ`, `.equiv`, `.eqv`.
    pub(super) fn set_directive(&mut self, st: &Stmt, c: &super::Call) {
        let Some(ops) = self.parse_operands(st, c.from) else {
            return;
        };
        match ops.as_slice() {
            [Operand::Expr(n), Operand::Expr(v)] if n.as_sym().is_some() => {
                let sym = n.as_sym().unwrap_or_default().to_string();
                let span = st.span(n.start, n.end);
                if c.name == ".eqv" {
                    self.eqv.insert(sym.as_str().into(), v.clone());
                }
                self.assign(st, &sym, span, v.clone(), true, c.name == ".equiv");
            }
            _ => self.error(
                st,
                Diag::error(
                    c.head,
                    format!("`{}` needs a symbol and a value", c.name),
                    "expected `name, value`",
                ),
            ),
        }
    }
}
