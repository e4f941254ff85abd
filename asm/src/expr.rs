//! Expression evaluation, with GNU as's semantics: 64-bit values, `>>` a
//! logical shift, comparisons -1 for true, a shift count outside 0..=63 gives
//! 0 and a division by zero divides by 1, each with GNU's warning.
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

    /// A warning about a value that was computed (message, label, where);
    /// evaluations that end deferred or in an error report none.
    fn warn(&mut self, _warning: EvalWarning) {}
}

/// A warning of a finished evaluation: message, label and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWarning {
    /// What GNU as warns about too.
    pub message: String,
    /// The label under the operation.
    pub label: String,
    /// First byte of the operation.
    pub start: u32,
    /// One past its last byte.
    pub end: u32,
}

/// An instruction operand's constant as GNU as reads it for RV32: a value
/// that fits 32 bits unsigned is taken as its signed 32-bit reading, so
/// `addi a0, a0, 0xffffffff` adds -1.
pub fn rv32_operand(v: i64) -> i64 {
    if (0..=0xffff_ffff).contains(&v) {
        v as u32 as i32 as i64
    } else {
        v
    }
}

fn invalid(e: &Expr, message: impl Into<String>, label: impl Into<String>) -> EvalError {
    EvalError::Invalid(message.into(), label.into(), e.start, e.end)
}

/// Evaluates `expr`; its warnings go to `r` when it has a value.
pub fn eval(expr: &Expr, r: &mut dyn Resolver) -> Result<Value, EvalError> {
    let mut warnings = Vec::new();
    let value = eval_noting(expr, r, &mut warnings)?;
    for w in warnings {
        r.warn(w);
    }
    Ok(value)
}

fn eval_noting(
    expr: &Expr,
    r: &mut dyn Resolver,
    warnings: &mut Vec<EvalWarning>,
) -> Result<Value, EvalError> {
    match &expr.kind {
        ExprKind::Int(v) => Ok(Value::Abs(*v)),
        ExprKind::Sym(name) => r.symbol(name, expr.start, expr.end),
        ExprKind::Local { .. } => Err(invalid(
            expr,
            "local label reference here is not supported",
            "local label reference",
        )),
        ExprKind::Paren(inner) => eval_noting(inner, r, warnings),
        ExprKind::Reloc(op, _) => Err(invalid(
            expr,
            format!("`{}` must be the whole operand", op.name()),
            "relocation operator inside an expression",
        )),
        ExprKind::Unary(op, inner) => {
            let v = eval_noting(inner, r, warnings)?;
            match (op, v) {
                (UnOp::Plus, v) => Ok(v),
                (_, Value::Rel { .. }) => Err(EvalError::Defer(None, expr.start, expr.end)),
                (UnOp::Neg, Value::Abs(a)) => Ok(Value::Abs(a.wrapping_neg())),
                (UnOp::Not, Value::Abs(a)) => Ok(Value::Abs(!a)),
                (UnOp::LogNot, Value::Abs(a)) => Ok(Value::Abs((a == 0) as i64)),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let x = eval_noting(a, r, warnings);
            let y = eval_noting(b, r, warnings);
            // Report a real error before a deferral from the other side.
            let (x, y) = match (x, y) {
                (Err(e @ EvalError::Invalid(..)), _) | (_, Err(e @ EvalError::Invalid(..))) => {
                    return Err(e);
                }
                (Err(e), _) | (_, Err(e)) => return Err(e),
                (Ok(x), Ok(y)) => (x, y),
            };
            binary(expr, *op, x, y, warnings)
        }
    }
}

fn binary(
    expr: &Expr,
    op: BinOp,
    x: Value,
    y: Value,
    warnings: &mut Vec<EvalWarning>,
) -> Result<Value, EvalError> {
    use Value::*;
    let defer = || Err(EvalError::Defer(None, expr.start, expr.end));
    let mut warn = |message: String, label: &str| {
        warnings.push(EvalWarning {
            message,
            label: label.to_string(),
            start: expr.start,
            end: expr.end,
        })
    };
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
            let truth = |t: bool| if t { -1 } else { 0 };
            let v = match op {
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::Div | BinOp::Rem if a == i64::MIN && b == -1 => {
                    // GNU as 2.40 dies of a floating-point exception here.
                    return Err(invalid(
                        expr,
                        "division overflows 64 bits",
                        "-0x8000000000000000 divided by -1",
                    ));
                }
                BinOp::Div | BinOp::Rem => {
                    let b = if b == 0 {
                        warn(
                            "division by zero".into(),
                            "divides by zero (GNU as divides by 1)",
                        );
                        1
                    } else {
                        b
                    };
                    if op == BinOp::Div { a / b } else { a % b }
                }
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Shl | BinOp::Shr => {
                    if (0..64).contains(&b) {
                        if op == BinOp::Shl {
                            a << b
                        } else {
                            ((a as u64) >> b) as i64
                        }
                    } else {
                        warn(
                            format!("shift count out of range ({b} is not between 0 and 63)"),
                            "gives 0",
                        );
                        0
                    }
                }
                BinOp::Lt => truth(a < b),
                BinOp::Gt => truth(a > b),
                BinOp::Le => truth(a <= b),
                BinOp::Ge => truth(a >= b),
                BinOp::Eq => truth(a == b),
                BinOp::Ne => truth(a != b),
                BinOp::And => a & b,
                BinOp::Xor => a ^ b,
                BinOp::Or => a | b,
                BinOp::OrNot => a | !b,
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

    // Each value here is GNU as 2.40's (`.dword` of the expression).
    #[test]
    fn gnu_precedence_and_results() {
        assert_eq!(value("1 + 2 * 3"), Ok(Value::Abs(7)));
        assert_eq!(value("1 << 2 + 1"), Ok(Value::Abs(5)));
        assert_eq!(value("2 * 3 + 4 | 8"), Ok(Value::Abs(18)));
        assert_eq!(value("1 | 2 & 3 ^ 4"), Ok(Value::Abs(7)));
        assert_eq!(value("1 == 1 + 2"), Ok(Value::Abs(0)));
        assert_eq!(value("1 == 1"), Ok(Value::Abs(-1)));
        assert_eq!(value("-(3) * ~0"), Ok(Value::Abs(3)));
        assert_eq!(value("5 > 3 && 2 == 2"), Ok(Value::Abs(1)));
        assert_eq!(value("'a' + 1"), Ok(Value::Abs(98)));
        assert_eq!(value("7 % 4 - 010"), Ok(Value::Abs(-5)));
        assert_eq!(value("((-1) << 32 >> 63) * -1"), Ok(Value::Abs(-1)));
        assert_eq!(value("3 ! 1"), Ok(Value::Abs(-1)));
        assert_eq!(value("3 !! 5"), Ok(Value::Abs(6)));
        assert_eq!(value("!!5"), Ok(Value::Abs(1)));
        assert_eq!(value("-7 / 2"), Ok(Value::Abs(-3)));
    }

    #[test]
    fn gnu_warnings_keep_gnu_values() {
        assert_eq!(value("5 / 0"), Ok(Value::Abs(5)));
        assert_eq!(value("5 % 0"), Ok(Value::Abs(0)));
        assert_eq!(value("1 << 64"), Ok(Value::Abs(0)));
        assert_eq!(value("7 >> -1"), Ok(Value::Abs(0)));
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
    fn division_overflow_is_an_error() {
        assert!(matches!(
            value("(-0x7fffffffffffffff - 1) / -1"),
            Err(EvalError::Invalid(..))
        ));
    }
}
