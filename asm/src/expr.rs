//! Expression evaluation.
//!
//! In the first pass a value is absolute or an offset in a section of the
//! unit being assembled; anything that needs a symbol not defined yet, or an
//! operation on addresses the first pass cannot do (such as `sym >> 12`), is
//! deferred to the second pass, when every section has its address and every
//! value is absolute.

use crate::ast::{BinOp, Expr, ExprKind, UnOp};

/// A value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A number.
    Abs(i64),
    /// An offset in a section of the current unit (first pass only).
    Rel {
        /// Section index in the unit.
        section: usize,
        /// Offset from the section's start.
        offset: i64,
    },
}

/// Why an expression has no value (yet).
#[derive(Clone, Debug, PartialEq)]
pub enum EvalError {
    /// Needs what only the second pass knows; the name (if a symbol) and where.
    Defer(Option<String>, u32, u32),
    /// Wrong: message, label, and where.
    Invalid(String, String, u32, u32),
}

/// What the evaluator asks about symbols.
pub trait Resolver {
    /// The value of a symbol (`.` is the location counter).
    fn symbol(&mut self, name: &str, start: u32, end: u32) -> Result<Value, EvalError>;
}

fn invalid(e: &Expr, message: impl Into<String>, label: impl Into<String>) -> EvalError {
    EvalError::Invalid(message.into(), label.into(), e.start, e.end)
}

/// Evaluates `expr`.
pub fn eval(expr: &Expr, r: &mut dyn Resolver) -> Result<Value, EvalError> {
    match &expr.kind {
        ExprKind::Int(v) => Ok(Value::Abs(*v)),
        ExprKind::Sym(name) => r.symbol(name, expr.start, expr.end),
        ExprKind::Local { .. } => Err(invalid(
            expr,
            "local label reference here is not supported",
            "local label reference",
        )),
        ExprKind::Paren(inner) => eval(inner, r),
        ExprKind::Reloc(op, _) => Err(invalid(
            expr,
            format!("`{}` must be the whole operand", op.name()),
            "relocation operator inside an expression",
        )),
        ExprKind::Unary(op, inner) => {
            let v = eval(inner, r)?;
            match (op, v) {
                (UnOp::Plus, v) => Ok(v),
                (_, Value::Rel { .. }) => Err(EvalError::Defer(None, expr.start, expr.end)),
                (UnOp::Neg, Value::Abs(a)) => Ok(Value::Abs(a.wrapping_neg())),
                (UnOp::Not, Value::Abs(a)) => Ok(Value::Abs(!a)),
                (UnOp::LogNot, Value::Abs(a)) => Ok(Value::Abs((a == 0) as i64)),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let x = eval(a, r);
            let y = eval(b, r);
            // Report a real error before a deferral from the other side.
            let (x, y) = match (x, y) {
                (Err(e @ EvalError::Invalid(..)), _) | (_, Err(e @ EvalError::Invalid(..))) => {
                    return Err(e);
                }
                (Err(e), _) | (_, Err(e)) => return Err(e),
                (Ok(x), Ok(y)) => (x, y),
            };
            binary(expr, *op, x, y)
        }
    }
}

fn binary(expr: &Expr, op: BinOp, x: Value, y: Value) -> Result<Value, EvalError> {
    use Value::*;
    let defer = || Err(EvalError::Defer(None, expr.start, expr.end));
    match (op, x, y) {
        (BinOp::Add, Rel { section, offset }, Abs(b))
        | (BinOp::Add, Abs(b), Rel { section, offset }) => Ok(Rel {
            section,
            offset: offset.wrapping_add(b),
        }),
        (BinOp::Sub, Rel { section, offset }, Abs(b)) => Ok(Rel {
            section,
            offset: offset.wrapping_sub(b),
        }),
        (
            BinOp::Sub,
            Rel {
                section: s1,
                offset: o1,
            },
            Rel {
                section: s2,
                offset: o2,
            },
        ) if s1 == s2 => Ok(Abs(o1.wrapping_sub(o2))),
        (_, Abs(a), Abs(b)) => {
            let v = match op {
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::Div | BinOp::Rem if b == 0 => {
                    return Err(invalid(
                        expr,
                        "division by zero in expression",
                        "divides by zero",
                    ));
                }
                BinOp::Div => a.wrapping_div(b),
                BinOp::Rem => a.wrapping_rem(b),
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Shl => {
                    if (0..64).contains(&b) {
                        a.wrapping_shl(b as u32)
                    } else {
                        0
                    }
                }
                BinOp::Shr => a.wrapping_shr(b.clamp(0, 63) as u32),
                BinOp::Lt => (a < b) as i64,
                BinOp::Gt => (a > b) as i64,
                BinOp::Le => (a <= b) as i64,
                BinOp::Ge => (a >= b) as i64,
                BinOp::Eq => (a == b) as i64,
                BinOp::Ne => (a != b) as i64,
                BinOp::And => a & b,
                BinOp::Xor => a ^ b,
                BinOp::Or => a | b,
                BinOp::LogAnd => (a != 0 && b != 0) as i64,
                BinOp::LogOr => (a != 0 || b != 0) as i64,
            };
            Ok(Abs(v))
        }
        // Everything else on addresses is known once sections have addresses.
        _ => defer(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::ExprParser;
    use crate::lexer::{Kind, lex};

    struct NoSymbols;
    impl Resolver for NoSymbols {
        fn symbol(&mut self, name: &str, s: u32, e: u32) -> Result<Value, EvalError> {
            match name {
                "a" => Ok(Value::Rel {
                    section: 0,
                    offset: 8,
                }),
                "b" => Ok(Value::Rel {
                    section: 0,
                    offset: 20,
                }),
                "c" => Ok(Value::Rel {
                    section: 1,
                    offset: 0,
                }),
                _ => Err(EvalError::Defer(Some(name.to_string()), s, e)),
            }
        }
    }

    fn value(text: &str) -> Result<Value, EvalError> {
        let tokens = lex(text);
        let iter = tokens
            .iter()
            .filter(|t| t.kind != Kind::Newline)
            .map(|t| Ok((t.start, t.kind, t.end)));
        let expr = ExprParser::new().parse(text, iter).expect("parses");
        eval(&expr, &mut NoSymbols)
    }

    #[test]
    fn c_precedence() {
        assert_eq!(value("1 + 2 * 3"), Ok(Value::Abs(7)));
        assert_eq!(value("1 << 2 + 1"), Ok(Value::Abs(8)));
        assert_eq!(value("1 | 2 & 3 ^ 4"), Ok(Value::Abs(1 | ((2 & 3) ^ 4))));
        assert_eq!(value("-(3) * ~0"), Ok(Value::Abs(3)));
        assert_eq!(value("5 > 3 && 2 == 2"), Ok(Value::Abs(1)));
        assert_eq!(value("'a' + 1"), Ok(Value::Abs(98)));
        assert_eq!(value("7 % 4 - 010"), Ok(Value::Abs(-5)));
    }

    #[test]
    fn label_differences_are_absolute() {
        assert_eq!(value("b - a"), Ok(Value::Abs(12)));
        assert_eq!(
            value("a + 4"),
            Ok(Value::Rel {
                section: 0,
                offset: 12
            })
        );
        assert!(matches!(value("c - a"), Err(EvalError::Defer(..))));
        assert!(matches!(value("a >> 2"), Err(EvalError::Defer(..))));
        assert!(matches!(value("x + 1"), Err(EvalError::Defer(Some(n), ..)) if n == "x"));
    }

    #[test]
    fn division_by_zero_is_an_error() {
        assert!(matches!(value("1 / (2 - 2)"), Err(EvalError::Invalid(..))));
    }
}
