//! Operand parsing in the first pass: the fast path or the grammar, parse
//! errors as diagnostics, local label references resolved, and the warning
//! where a C reader would group an expression differently from GNU as.

use crate::ast::{BinOp, Expr, ExprKind, Operand};
use crate::diag::Diag;
use crate::lexer::Kind;

use super::{MAX_EXPR_OPERATORS, Pass1, Stmt};
use crate::unit::local_label_name;

impl Pass1<'_, '_> {
    /// Parses the statement's tokens from `from` as a comma-separated operand
    /// list, with local label references resolved.
    pub(crate) fn parse_operands(&mut self, st: &Stmt, from: usize) -> Option<Vec<Operand>> {
        self.parse_operand_tokens(st, from, st.tokens().len())
    }

    /// [`Self::parse_operands`] over the tokens `from..end` only.
    pub(crate) fn parse_operand_tokens(
        &mut self,
        st: &Stmt,
        from: usize,
        end: usize,
    ) -> Option<Vec<Operand>> {
        let toks = &st.tokens()[..end];
        if from >= toks.len() {
            return Some(Vec::new());
        }
        if let Some(mut ops) = crate::fastparse::simple_operands(&toks[from..], &st.text) {
            return self.lower_operands(st, &mut ops).then_some(ops);
        }
        if !self.expressions_shallow(st, from, end) {
            return None;
        }
        let text = st.text.clone();
        let iter = toks[from..].iter().map(|t| {
            if t.kind == Kind::Error {
                Err(crate::ast::ParseIssue {
                    message: format!(
                        "unexpected character `{}`",
                        &text[t.start as usize..t.end as usize]
                    ),
                    start: t.start,
                    end: t.end,
                })
            } else {
                Ok((t.start, t.kind, t.end))
            }
        });
        match self.sh.operands_parser.parse(&st.text, iter) {
            Ok(mut ops) => self.lower_operands(st, &mut ops).then_some(ops),
            Err(e) => {
                let d = self.parse_error(st, e);
                self.error(st, d);
                None
            }
        }
    }

    /// Whether each comma-separated operand from token `from` on has at most
    /// [`MAX_EXPR_OPERATORS`] operators and parentheses; reports the first
    /// that has more. The count bounds the depth of the expression tree, so
    /// evaluating (recursively) cannot overflow the stack.
    fn expressions_shallow(&mut self, st: &Stmt, from: usize, end: usize) -> bool {
        let (mut depth, mut operators) = (0u32, 0usize);
        for t in &st.tokens()[from..end] {
            match t.kind {
                Kind::Comma if depth == 0 => operators = 0,
                Kind::Ident | Kind::Int | Kind::LocalRef | Kind::Str | Kind::Char | Kind::Comma => {
                }
                Kind::RParen => depth = depth.saturating_sub(1),
                kind => {
                    depth += (kind == Kind::LParen) as u32;
                    operators += 1;
                    if operators > MAX_EXPR_OPERATORS {
                        self.error(
                            st,
                            Diag::error(
                                st.tok_span(*t),
                                "expression too deeply nested",
                                format!(
                                    "operator {operators} of this expression: at most {MAX_EXPR_OPERATORS} operators and parentheses"
                                ),
                            )
                            .with_help("split it with `.set` symbols"),
                        );
                        return false;
                    }
                }
            }
        }
        true
    }

    pub(crate) fn parse_error(
        &self,
        st: &Stmt,
        e: lalrpop_util::ParseError<u32, Kind, crate::ast::ParseIssue>,
    ) -> Diag {
        use lalrpop_util::ParseError::*;
        let expected_text = |expected: &[String]| {
            let names: Vec<String> = expected
                .iter()
                .map(|e| match e.trim_matches('"') {
                    "ident" => "a name".to_string(),
                    "int" => "a number".to_string(),
                    "str" => "a string".to_string(),
                    "localref" => "a local label reference".to_string(),
                    "char" => "a character".to_string(),
                    other => format!("`{other}`"),
                })
                .collect();
            if names.iter().any(|n| n == "a name") && names.iter().any(|n| n == "a number") {
                "expected a value: a number, a symbol, a register or `(`".to_string()
            } else if names.len() > 6 {
                "expected an operand or an operator".to_string()
            } else {
                format!("expected {}", names.join(", "))
            }
        };
        match e {
            UnrecognizedToken {
                token: (s, _, en),
                expected,
            } => {
                let found = &st.text[s as usize..en as usize];
                Diag::error(
                    st.span(s, en),
                    format!("unexpected `{found}`"),
                    expected_text(&expected),
                )
            }
            UnrecognizedEof { location, expected } => Diag::error(
                st.span(location, location),
                "unexpected end of statement",
                expected_text(&expected),
            ),
            InvalidToken { location } => Diag::error(
                st.span(location, location + 1),
                "invalid token",
                "not understood",
            ),
            ExtraToken { token: (s, _, en) } => {
                let found = &st.text[s as usize..en as usize];
                Diag::error(
                    st.span(s, en),
                    format!("unexpected `{found}`"),
                    "extra token",
                )
            }
            User { error } => Diag::error(st.span(error.start, error.end), error.message, "here"),
        }
    }

    /// Parses tokens from `from` as one expression.
    pub(crate) fn parse_expr_operand(&mut self, st: &Stmt, from: usize) -> Option<Expr> {
        let toks = st.tokens();
        if from >= toks.len() {
            let at = toks.last().map_or(0, |t| t.end);
            self.error(
                st,
                Diag::error(
                    st.span(at, at),
                    "missing expression",
                    "expected an expression here",
                ),
            );
            return None;
        }
        if !self.expressions_shallow(st, from, toks.len()) {
            return None;
        }
        let iter: Vec<_> = toks[from..]
            .iter()
            .map(|t| Ok((t.start, t.kind, t.end)))
            .collect();
        match self.sh.expr_parser.parse(&st.text, iter) {
            Ok(mut e) => match self.lower_locals(st, &mut e) {
                Ok(()) => {
                    self.warn_c_reading(st, &e);
                    Some(e)
                }
                Err(d) => {
                    self.error(st, d);
                    None
                }
            },
            Err(e) => {
                let d = self.parse_error(st, e);
                self.error(st, d);
                None
            }
        }
    }

    /// Resolves local label references in operands; false after an error.
    pub(crate) fn lower_operands(&mut self, st: &Stmt, ops: &mut [Operand]) -> bool {
        let mut ok = true;
        for op in ops {
            let result = match op {
                Operand::Expr(e) => self
                    .lower_locals(st, e)
                    .map(|()| self.warn_c_reading(st, e)),
                Operand::Mem { offset, base, .. } => self
                    .lower_locals(st, offset)
                    .and_then(|()| self.lower_locals(st, base))
                    .map(|()| self.warn_c_reading(st, offset)),
                _ => Ok(()),
            };
            if let Err(d) = result {
                self.error(st, d);
                ok = false;
            }
        }
        ok
    }

    /// Replaces `Nb`/`Nf` with the names of the label definitions they mean.
    pub(crate) fn lower_locals(&mut self, st: &Stmt, e: &mut Expr) -> Result<(), Diag> {
        match &mut e.kind {
            ExprKind::Local { label, forward } => {
                let count = self.local_counts.get(label).copied().unwrap_or(0);
                let n = if *forward {
                    count
                } else if count == 0 {
                    return Err(Diag::error(
                        st.span(e.start, e.end),
                        format!("no local label `{label}:` before this reference"),
                        format!("`{label}b` refers backwards"),
                    )
                    .with_help(format!("use `{label}f` for a label that comes later")));
                } else {
                    count - 1
                };
                e.kind = ExprKind::Sym(local_label_name(*label, n).into());
                Ok(())
            }
            ExprKind::Paren(inner) | ExprKind::Unary(_, inner) | ExprKind::Reloc(_, inner) => {
                self.lower_locals(st, inner)
            }
            ExprKind::Binary(_, a, b) => {
                self.lower_locals(st, a)?;
                self.lower_locals(st, b)
            }
            ExprKind::Sym(name) => {
                // A direct use of a `.weakref` target keeps it strong.
                // (Both maps are empty in compiler output: no hashing then.)
                if !self.weakref_targets.is_empty()
                    && let Some(direct) = self.weakref_targets.get_mut(name)
                {
                    *direct = true;
                }
                if !self.eqv.is_empty()
                    && let Some(def) = self.eqv.get(name)
                {
                    // `.eqv`: the expression itself, evaluated here. Its
                    // nodes take this use's span, so diagnostics point here.
                    let (start, end) = (e.start, e.end);
                    *e = def.clone();
                    respan(e, start, end);
                    // An operation stays one operand of what surrounds it.
                    if matches!(e.kind, ExprKind::Binary(..)) {
                        *e = Expr::new(ExprKind::Paren(Box::new(e.clone())), start, end);
                    }
                }
                Ok(())
            }
            ExprKind::Int(_) => Ok(()),
        }
    }

    /// Warns about each chain of binary operators in `e` that C would group
    /// differently from GNU as (whose grouping the value follows).
    pub(crate) fn warn_c_reading(&mut self, st: &Stmt, e: &Expr) {
        let mut found = Vec::new();
        c_readings(e, &st.text, &mut found);
        for (start, end, gnu, c) in found {
            let d = Diag::warning(
                st.span(start, end),
                "a C reader would group this expression differently",
                format!("GNU as reads `{gnu}`"),
            )
            .with_help(format!(
                "C reads `{c}`; add parentheses to say which you mean"
            ));
            self.error(st, d);
        }
    }
}

/// Gives `e` and every node under it the span `start..end`.
fn respan(e: &mut Expr, start: u32, end: u32) {
    e.start = start;
    e.end = end;
    match &mut e.kind {
        ExprKind::Paren(inner) | ExprKind::Unary(_, inner) | ExprKind::Reloc(_, inner) => {
            respan(inner, start, end)
        }
        ExprKind::Binary(_, a, b) => {
            respan(a, start, end);
            respan(b, start, end);
        }
        ExprKind::Int(_) | ExprKind::Sym(_) | ExprKind::Local { .. } => {}
    }
}

/// The chains of binary operators under `e` whose C grouping differs from
/// GNU as's: (start, end, GNU's reading, C's reading), both parenthesized.
fn c_readings(e: &Expr, text: &str, out: &mut Vec<(u32, u32, String, String)>) {
    match &e.kind {
        ExprKind::Binary(..) => {
            let mut leaves = Vec::new();
            let mut ops = Vec::new();
            let gnu = grouping(e, &mut leaves, &mut ops);
            if ops.iter().all(|op| op.c_rank().is_some()) {
                let mut at = 0;
                let c = c_grouping(&ops, &mut at, 0);
                if gnu != c {
                    let leaf_text: Vec<&str> = leaves
                        .iter()
                        .map(|l| &text[l.start as usize..l.end as usize])
                        .collect();
                    out.push((e.start, e.end, gnu.render(&leaf_text), c.render(&leaf_text)));
                }
            }
            for leaf in leaves {
                c_readings(leaf, text, out);
            }
        }
        ExprKind::Paren(inner) | ExprKind::Unary(_, inner) | ExprKind::Reloc(_, inner) => {
            c_readings(inner, text, out)
        }
        ExprKind::Int(_) | ExprKind::Sym(_) | ExprKind::Local { .. } => {}
    }
}

/// How a chain of binary operators groups its operands (numbered in order).
#[derive(PartialEq)]
enum Grouping {
    Leaf(usize),
    Node(BinOp, Box<Grouping>, Box<Grouping>),
}

impl Grouping {
    fn render(&self, leaves: &[&str]) -> String {
        match self {
            Grouping::Leaf(i) => leaves[*i].to_string(),
            Grouping::Node(op, a, b) => {
                let side = |g: &Grouping| match g {
                    Grouping::Leaf(_) => g.render(leaves),
                    Grouping::Node(..) => format!("({})", g.render(leaves)),
                };
                format!("{} {} {}", side(a), op.symbol(), side(b))
            }
        }
    }
}

/// GNU's grouping of the chain at `e` (the parse tree's), collecting its
/// operands and operators in source order.
fn grouping<'e>(e: &'e Expr, leaves: &mut Vec<&'e Expr>, ops: &mut Vec<BinOp>) -> Grouping {
    match &e.kind {
        ExprKind::Binary(op, a, b) => {
            let a = grouping(a, leaves, ops);
            ops.push(*op);
            let b = grouping(b, leaves, ops);
            Grouping::Node(*op, Box::new(a), Box::new(b))
        }
        _ => {
            leaves.push(e);
            Grouping::Leaf(leaves.len() - 1)
        }
    }
}

/// C's grouping of operands `*at..` joined by `ops` (precedence climbing,
/// left associative), taking operators of rank `min` and above.
fn c_grouping(ops: &[BinOp], at: &mut usize, min: u8) -> Grouping {
    let mut left = Grouping::Leaf(*at);
    while *at < ops.len() {
        let op = ops[*at];
        let rank = op.c_rank().unwrap_or(0);
        if rank < min {
            break;
        }
        *at += 1;
        let right = c_grouping(ops, at, rank + 1);
        left = Grouping::Node(op, Box::new(left), Box::new(right));
    }
    left
}
