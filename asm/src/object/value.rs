//! The value of a fixup's expression as the object sees it: a linear
//! combination of symbols ([`Linear`]: this file's labels, addresses with no
//! name, external symbols) and what a fixup makes of it ([`Target`]).

use super::{Linear, MAX_DEPTH, Target, Term, Writer1, err};
use crate::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::diag::Diag;
use crate::expr::{EvalError, Resolver, Value, eval};
use crate::source::Span;
use crate::unit::*;

struct NoSymbols;
impl Resolver for NoSymbols {
    fn symbol(&mut self, _: &str, start: u32, end: u32) -> Result<Value, EvalError> {
        Err(EvalError::Invalid(
            "not a number".into(),
            String::new(),
            start,
            end,
        ))
    }
}

fn constant(e: &Expr) -> Option<Linear> {
    match eval(e, &mut NoSymbols) {
        Ok(Value::Abs(v)) => Some(Linear {
            constant: v,
            terms: Vec::new(),
        }),
        _ => None,
    }
}

impl<'u> Writer1<'u> {
    /// The value of `e` (written in `file`, with the location counter at
    /// `section`, `offset`) as a linear combination of symbols.
    pub(super) fn linear(
        &self,
        e: &Expr,
        here: (usize, u64),
        depth: u32,
    ) -> Result<Linear, (String, u32, u32)> {
        let too_complex = || {
            (
                "this expression cannot be a relocation: only `symbol + number` or `a - b` can"
                    .to_string(),
                e.start,
                e.end,
            )
        };
        if depth > MAX_DEPTH {
            return Err(("symbol definitions nest too deeply".into(), e.start, e.end));
        }
        Ok(match &e.kind {
            ExprKind::Int(v) => Linear {
                constant: *v,
                terms: Vec::new(),
            },
            ExprKind::Paren(x) => self.linear(x, here, depth)?,
            ExprKind::Sym(n) if &**n == "." => Linear {
                constant: 0,
                terms: vec![(Term::Here(here.0, here.1), 1)],
            },
            ExprKind::Sym(n) => {
                let Some(sym) = self.unit.symbols.get(n.as_ref()) else {
                    return Ok(Linear {
                        constant: 0,
                        terms: vec![(Term::External(n.to_string()), 1)],
                    });
                };
                match &sym.def {
                    SymDef::Value(Value::Abs(v)) => Linear {
                        constant: *v,
                        terms: Vec::new(),
                    },
                    SymDef::Value(Value::Rel { section, offset }) => Linear {
                        constant: 0,
                        terms: vec![(Term::Label(n.to_string(), *section, *offset as u64), 1)],
                    },
                    SymDef::Deferred(x, _, section, offset) => {
                        let v = self.linear(x, (*section, *offset), depth + 1)?;
                        // `.set alias, label`: relocations name the alias.
                        match v.terms.as_slice() {
                            [(Term::Label(_, s, o), 1)] => Linear {
                                constant: 0,
                                terms: vec![(
                                    Term::Label(n.to_string(), *s, (*o as i64 + v.constant) as u64),
                                    1,
                                )],
                            },
                            _ => v,
                        }
                    }
                    SymDef::Common(..) | SymDef::Bss(..) | SymDef::Undefined => Linear {
                        constant: 0,
                        terms: vec![(Term::External(n.to_string()), 1)],
                    },
                }
            }
            ExprKind::Unary(UnOp::Plus, x) => self.linear(x, here, depth)?,
            ExprKind::Unary(UnOp::Neg, x) => {
                Linear::default().add(self.linear(x, here, depth)?, -1)
            }
            ExprKind::Binary(BinOp::Add, a, b) => self
                .linear(a, here, depth)?
                .add(self.linear(b, here, depth)?, 1),
            ExprKind::Binary(BinOp::Sub, a, b) => self
                .linear(a, here, depth)?
                .add(self.linear(b, here, depth)?, -1),
            ExprKind::Unary(op, x) => {
                let x = self.linear(x, here, depth)?;
                if !x.terms.is_empty() {
                    return Err(too_complex());
                }
                let e2 = Expr::new(
                    ExprKind::Unary(*op, Box::new(Expr::new(ExprKind::Int(x.constant), 0, 0))),
                    0,
                    0,
                );
                constant(&e2).ok_or_else(too_complex)?
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.linear(a, here, depth)?, self.linear(b, here, depth)?);
                // Differences of labels in one section fold away first; two
                // addresses of one section compare by their difference.
                let (x, y) = (self.fold(x, false), self.fold(y, false));
                let comparison = matches!(
                    op,
                    BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
                );
                let (x, y) = if comparison && !(x.terms.is_empty() && y.terms.is_empty()) {
                    (self.fold(x.add(y, -1), false), Linear::default())
                } else {
                    (x, y)
                };
                if !x.terms.is_empty() || !y.terms.is_empty() {
                    return Err(too_complex());
                }
                let e2 = Expr::new(
                    ExprKind::Binary(
                        *op,
                        Box::new(Expr::new(ExprKind::Int(x.constant), 0, 0)),
                        Box::new(Expr::new(ExprKind::Int(y.constant), 0, 0)),
                    ),
                    0,
                    0,
                );
                constant(&e2).ok_or_else(too_complex)?
            }
            ExprKind::Local { .. } | ExprKind::Reloc(..) => return Err(too_complex()),
        })
    }

    /// Folds `a - b` of two addresses in one section into a number, unless
    /// the section is code and `keep_code` (the linker may change the
    /// distance: GNU as 2.40 leaves it to the linker with or without
    /// relaxation).
    pub(super) fn fold(&self, mut v: Linear, keep_code: bool) -> Linear {
        let place = |t: &Term| match t {
            Term::Label(_, s, o) | Term::Here(s, o) => Some((*s, *o)),
            Term::External(_) => None,
        };
        loop {
            let pair = v.terms.iter().enumerate().find_map(|(i, (t, c))| {
                let (s, _) = place(t)?;
                if keep_code && self.unit.sections[s].class.is_code() {
                    return None;
                }
                v.terms.iter().enumerate().find_map(|(j, (u, d))| {
                    (j != i && place(u).is_some_and(|(s2, _)| s2 == s) && c.signum() != d.signum())
                        .then_some((i, j))
                })
            });
            let Some((i, j)) = pair else { break };
            let (ti, ci) = v.terms[i].clone();
            let (tj, cj) = v.terms[j].clone();
            let step = ci.signum();
            let (oi, oj) = (place(&ti).unwrap().1 as i64, place(&tj).unwrap().1 as i64);
            v.constant = v.constant.wrapping_add(step * (oi - oj));
            v.terms[i].1 -= step;
            v.terms[j].1 += step;
            let _ = cj;
            v.terms.retain(|(_, c)| *c != 0);
        }
        v
    }

    pub(super) fn target(&self, fx: &Fixup, section: usize) -> Result<Target, Diag> {
        let v = self
            .linear(&fx.expr, (section, fx.offset as u64), 0)
            .map_err(|(m, s, e)| Diag {
                ctx: fx.ctx,
                ..Diag::error(
                    Span {
                        file: fx.span.file,
                        start: s,
                        end: e,
                    },
                    m,
                    "here",
                )
            })?;
        let v = self.fold(v, true);
        let mut plus = v.terms.iter().filter(|(_, c)| *c == 1).map(|(t, _)| t);
        let mut minus = v.terms.iter().filter(|(_, c)| *c == -1).map(|(t, _)| t);
        let bad = v.terms.iter().any(|(_, c)| c.abs() != 1);
        match (plus.next(), plus.next(), minus.next(), minus.next(), bad) {
            (None, _, None, _, false) => Ok(Target::Abs(v.constant)),
            (Some(p), None, None, _, false) => Ok(Target::Sym(p.clone(), v.constant)),
            (Some(p), None, Some(m), None, false) => {
                Ok(Target::Diff(p.clone(), m.clone(), v.constant))
            }
            _ => Err(err(
                fx,
                "this value cannot be a relocation",
                "more symbols than `symbol + number` or `a - b`",
            )),
        }
    }
}
