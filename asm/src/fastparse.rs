//! A fast path for the operand lists most statements have: each operand a
//! single name, number, character, local label reference, negated number,
//! `(name)` or `offset(name)`. It builds exactly the trees the LALRPOP
//! grammar builds (a property test checks this) and declines anything else,
//! which then goes to the grammar. The grammar's eleven precedence levels
//! cost a reduction each per primary; this path skips them for the common
//! case.

use crate::ast::{Expr, ExprKind, Operand, UnOp};
use crate::lexer::{Kind, Token, parse_char, parse_int};

fn primary(t: &Token, text: &str) -> Option<Expr> {
    let s = &text[t.start as usize..t.end as usize];
    let kind = match t.kind {
        Kind::Ident => ExprKind::Sym(s.into()),
        Kind::Int => ExprKind::Int(parse_int(s)? as i64),
        Kind::Char => ExprKind::Int(parse_char(s) as i64),
        Kind::LocalRef => ExprKind::Local {
            label: s[..s.len() - 1].parse().ok()?,
            forward: s.ends_with('f'),
        },
        _ => return None,
    };
    Some(Expr::new(kind, t.start, t.end))
}

/// A unary-level expression of one or two tokens: `x` or `-x`.
fn simple(toks: &[Token], text: &str) -> Option<Expr> {
    match toks {
        [t] => primary(t, text),
        [m, t] if m.kind == Kind::Minus && t.kind != Kind::Ident => {
            let inner = primary(t, text)?;
            Some(Expr::new(
                ExprKind::Unary(UnOp::Neg, Box::new(inner)),
                m.start,
                t.end,
            ))
        }
        _ => None,
    }
}

fn operand(toks: &[Token], text: &str) -> Option<Operand> {
    let n = toks.len();
    if n >= 3 && toks[n - 1].kind == Kind::RParen && toks[n - 3].kind == Kind::LParen {
        let inner = primary(&toks[n - 2], text)?;
        if n == 3 {
            let (l, r) = (toks[0].start, toks[2].end);
            return Some(Operand::Expr(Expr::new(
                ExprKind::Paren(Box::new(inner)),
                l,
                r,
            )));
        }
        let offset = simple(&toks[..n - 3], text)?;
        let start = offset.start;
        return Some(Operand::Mem {
            offset: Box::new(offset),
            base: Box::new(inner),
            start,
            end: toks[n - 1].end,
        });
    }
    simple(toks, text).map(Operand::Expr)
}

/// The operands of `toks`, or `None` when they need the full grammar.
pub fn simple_operands(toks: &[Token], text: &str) -> Option<Vec<Operand>> {
    let mut ops = Vec::with_capacity(4);
    for group in toks.split(|t| t.kind == Kind::Comma) {
        if group.is_empty() {
            return None;
        }
        ops.push(operand(group, text)?);
    }
    Some(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::OperandsParser;
    use crate::lexer::lex;
    use proptest::prelude::*;

    fn grammar(text: &str) -> Option<Vec<Operand>> {
        let toks: Vec<Token> = lex(text)
            .into_iter()
            .filter(|t| t.kind != Kind::Newline)
            .collect();
        let iter = toks
            .iter()
            .map(|t| Ok::<_, crate::ast::ParseIssue>((t.start, t.kind, t.end)));
        OperandsParser::new().parse(text, iter).ok()
    }

    fn fast(text: &str) -> Option<Vec<Operand>> {
        let toks: Vec<Token> = lex(text)
            .into_iter()
            .filter(|t| t.kind != Kind::Newline)
            .collect();
        simple_operands(&toks, text)
    }

    #[test]
    fn common_shapes_take_the_fast_path() {
        for text in [
            "a0, a1, a2",
            "a0, -12(sp)",
            "t0, (a1)",
            "x1, 0x7ff",
            "a0, 1b",
            "a0, 'c'",
            "s0, %lo(x)(a0)",
        ] {
            let f = fast(text);
            if text.contains('%') {
                assert_eq!(f, None, "{text}");
            } else {
                assert!(f.is_some(), "{text}");
                assert_eq!(f, grammar(text), "{text}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn fast_path_builds_the_grammars_trees(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("a0"), Just("x5"), Just("sym"), Just("12"), Just("0x1f"), Just("-"), Just("("),
                    Just(")"), Just(","), Just("'a'"), Just("1b"), Just("2f"), Just("+"), Just("*"), Just("077"),
                ],
                0..9,
            )
        ) {
            let text = parts.join(" ");
            if let Some(f) = fast(&text) {
                prop_assert_eq!(Some(f), grammar(&text), "{}", text);
            }
        }
    }
}
