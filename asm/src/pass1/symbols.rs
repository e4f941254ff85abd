//! Symbols in the first pass: evaluation against the unit's symbols
//! (deferring what only the second pass knows), labels and assignments.

use crate::ast::Expr;
use crate::diag::Diag;
use crate::expr::{EvalError, EvalWarning, Resolver, Value, eval};
use crate::lexer::{Kind, Token};
use crate::source::Span;
use crate::unit::*;

use super::{Pass1, Stmt};

/// First-pass symbol resolution in a unit.
pub(crate) struct UnitResolver<'u> {
    pub unit: &'u mut Unit,
    pub cur: usize,
    /// `.` when it is in the absolute section (after `.struct`).
    pub absolute_dot: Option<i64>,
    pub file: u32,
    pub warnings: &'u mut Vec<(u32, EvalWarning)>,
}

impl Resolver for UnitResolver<'_> {
    fn warn(&mut self, w: EvalWarning) {
        self.warnings.push((self.file, w));
    }

    fn symbol(&mut self, name: &str, start: u32, end: u32) -> Result<Value, EvalError> {
        if name == "."
            && let Some(v) = self.absolute_dot
        {
            return Ok(Value::Abs(v));
        }
        if name == "." {
            return Ok(Value::Rel {
                section: self.cur,
                offset: self.unit.sections[self.cur].size as i64,
            });
        }
        let span = Span {
            file: self.file,
            start,
            end,
        };
        let sym = self
            .unit
            .symbols
            .entry(name.into())
            .or_insert_with(Symbol::undefined);
        if sym.first_use.is_none() {
            sym.first_use = Some(span);
        }
        match &sym.def {
            SymDef::Value(v) => Ok(*v),
            _ => Err(EvalError::Defer(Some(name.to_string()), start, end)),
        }
    }
}

/// Turns a first-pass evaluation error into a diagnostic.
pub(crate) fn eval_diag(file: u32, e: EvalError, what: &str) -> Diag {
    match e {
        EvalError::Invalid(msg, label, s, en) => Diag::error(
            Span {
                file,
                start: s,
                end: en,
            },
            msg,
            label,
        ),
        EvalError::Defer(Some(name), s, en) => Diag::error(
            Span {
                file,
                start: s,
                end: en,
            },
            format!("{what} must be known at this point"),
            format!("`{}` is not defined yet", display_name(&name)),
        )
        .with_help("define the symbol before this line"),
        EvalError::Defer(None, s, en) => Diag::error(
            Span {
                file,
                start: s,
                end: en,
            },
            format!("{what} must be known at this point"),
            "depends on addresses the assembler knows only at the end",
        ),
    }
}

/// A symbol name as the user wrote it (numeric local labels shown as `N`).
pub fn display_name(name: &str) -> String {
    match name.split_once('\u{2}') {
        Some((n, _)) => format!("{n} (local label)"),
        None => name.to_string(),
    }
}

impl Pass1<'_, '_> {
    /// Evaluates in the first pass.
    pub(crate) fn eval1(&mut self, st: &Stmt, e: &Expr) -> Result<Value, EvalError> {
        let mut r = UnitResolver {
            unit: &mut self.unit,
            cur: self.cur,
            absolute_dot: self.struct_at,
            file: st.file,
            warnings: &mut self.eval_warnings,
        };
        eval(e, &mut r)
    }

    /// Evaluates to a number now, or reports why not.
    pub(crate) fn absolute(&mut self, st: &Stmt, e: &Expr, what: &str) -> Option<i64> {
        match self.eval1(st, e) {
            Ok(Value::Abs(v)) => Some(v),
            Ok(Value::Rel { .. }) => {
                let d = Diag::error(
                    st.span(e.start, e.end),
                    format!("{what} must be a number"),
                    "this is an address",
                );
                self.error(st, d);
                None
            }
            Err(err) => {
                let d = eval_diag(st.file, err, what);
                self.error(st, d);
                None
            }
        }
    }

    pub(crate) fn define_label(&mut self, st: &Stmt, tok: Token) {
        let span = st.tok_span(tok);
        let name: Box<str> = if tok.kind == Kind::Int {
            let text = st.tok_text(tok);
            let Ok(n) = text.parse::<u32>() else {
                let d = Diag::error(
                    span,
                    format!("invalid local label `{text}`"),
                    "not a label number",
                );
                self.error(st, d);
                return;
            };
            let count = self.local_counts.entry(n).or_insert(0);
            let name = local_label_name(n, *count);
            *count += 1;
            name.into()
        } else {
            st.tok_text(tok).into()
        };
        let value = match self.struct_at {
            Some(v) => Value::Abs(v),
            None => Value::Rel {
                section: self.cur,
                offset: self.unit.sections[self.cur].size as i64,
            },
        };
        let sym = self
            .unit
            .symbols
            .entry(name.clone())
            .or_insert_with(Symbol::undefined);
        if sym.is_defined() {
            let first = sym.def_span;
            let mut d = Diag::error(
                span,
                format!("symbol `{}` is already defined", display_name(&name)),
                "defined again here",
            );
            if let Some(f) = first {
                d = d.with_note(f, "first defined here");
            }
            self.error(st, d);
            return;
        }
        sym.def = SymDef::Value(value);
        sym.def_span = Some(span);
        sym.is_label = true;
    }

    pub(crate) fn assign(
        &mut self,
        st: &Stmt,
        name: &str,
        span: Span,
        expr: Expr,
        redefinable: bool,
        equiv: bool,
    ) {
        if name == "." {
            // `. = expr` moves the location counter like `.org`.
            self.org(st, &expr, None);
            return;
        }
        let expr_alias: Option<Box<str>> = expr.as_sym().filter(|n| *n != ".").map(Into::into);
        let value = self.eval1(st, &expr);
        let def = match value {
            Ok(v) => SymDef::Value(v),
            Err(EvalError::Defer(..)) => SymDef::Deferred(
                Box::new(expr),
                st.file,
                self.cur,
                self.unit.sections[self.cur].size,
            ),
            Err(e) => {
                let d = eval_diag(st.file, e, "the value");
                self.error(st, d);
                return;
            }
        };
        let sym = self
            .unit
            .symbols
            .entry(name.into())
            .or_insert_with(Symbol::undefined);
        if sym.is_defined() && (equiv || sym.is_label || !sym.redefinable) {
            let first = sym.def_span;
            let mut d = Diag::error(
                span,
                format!("symbol `{name}` is already defined"),
                "defined again here",
            );
            if let Some(f) = first {
                d = d.with_note(f, "first defined here");
            }
            if !sym.is_label && !equiv {
                d = d.with_help("`.set` and `=` may redefine a symbol that `.set` or `=` defined");
            }
            self.error(st, d);
            return;
        }
        sym.alias_of = expr_alias.filter(|t| **t != *name);
        sym.def = def;
        sym.def_span = Some(span);
        sym.redefinable = redefinable;
    }

    pub(crate) fn symbol_mut(&mut self, name: &str) -> &mut Symbol {
        self.unit
            .symbols
            .entry(name.into())
            .or_insert_with(Symbol::undefined)
    }
}
