//! Syntax trees of operands and expressions, as the grammar builds them.
//!
//! Positions are byte offsets in the statement's file; the statement knows
//! which file.

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `~x`
    Not,
    /// `!x`
    LogNot,
}

/// A binary operator. Precedence is GNU as's ([`BinOp::rank`]), not C's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>` (logical, of the 64-bit value)
    Shr,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    And,
    /// `^`
    Xor,
    /// `|`
    Or,
    /// `!` between two operands: `a | ~b` (GNU as)
    OrNot,
    /// `&&`
    LogAnd,
    /// `||`
    LogOr,
}

impl BinOp {
    /// GNU as's precedence, higher binds tighter: `* / % << >>` (5), then
    /// `| & ^ !` (4), then `+ -` (3), then the comparisons (2), `&&` (1), `||` (0).
    pub fn rank(self) -> u8 {
        use BinOp::*;
        match self {
            Mul | Div | Rem | Shl | Shr => 5,
            Or | OrNot | Xor | And => 4,
            Add | Sub => 3,
            Eq | Ne | Lt | Gt | Le | Ge => 2,
            LogAnd => 1,
            LogOr => 0,
        }
    }

    /// C's precedence, higher binds tighter; `None` for operators C lacks.
    pub fn c_rank(self) -> Option<u8> {
        use BinOp::*;
        Some(match self {
            Mul | Div | Rem => 9,
            Add | Sub => 8,
            Shl | Shr => 7,
            Lt | Gt | Le | Ge => 6,
            Eq | Ne => 5,
            And => 4,
            Xor => 3,
            Or => 2,
            LogAnd => 1,
            LogOr => 0,
            OrNot => return None,
        })
    }

    /// How the operator is written.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&",
            Xor => "^",
            Or => "|",
            OrNot => "!",
            LogAnd => "&&",
            LogOr => "||",
        }
    }
}

/// A relocation-style operator `%name(expr)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocOp {
    /// `%hi(x)`: upper 20 bits, rounded for a following `%lo`.
    Hi,
    /// `%lo(x)`: lower 12 bits, signed.
    Lo,
    /// `%pcrel_hi(x)`: upper 20 bits of `x - pc`.
    PcrelHi,
    /// `%pcrel_lo(label)`: lower 12 bits of the `%pcrel_hi` at `label`.
    PcrelLo,
    /// `%tprel_hi(x)`: upper 20 bits of thread-local `x`'s offset from the
    /// thread pointer (local-exec TLS, as gcc writes `__thread` accesses).
    TprelHi,
    /// `%tprel_lo(x)`: its lower 12 bits.
    TprelLo,
    /// `%tprel_add(x)`: the marker on the `add rd, rs, tp, %tprel_add(x)`
    /// between them (no bits; the linker may relax the sequence).
    TprelAdd,
}

impl RelocOp {
    /// The operator named `name`.
    pub fn from_name(name: &str) -> Option<RelocOp> {
        Some(match name {
            "hi" => RelocOp::Hi,
            "lo" => RelocOp::Lo,
            "pcrel_hi" => RelocOp::PcrelHi,
            "pcrel_lo" => RelocOp::PcrelLo,
            "tprel_hi" => RelocOp::TprelHi,
            "tprel_lo" => RelocOp::TprelLo,
            "tprel_add" => RelocOp::TprelAdd,
            _ => return None,
        })
    }

    /// The operator's name.
    pub fn name(self) -> &'static str {
        match self {
            RelocOp::Hi => "%hi",
            RelocOp::Lo => "%lo",
            RelocOp::PcrelHi => "%pcrel_hi",
            RelocOp::PcrelLo => "%pcrel_lo",
            RelocOp::TprelHi => "%tprel_hi",
            RelocOp::TprelLo => "%tprel_lo",
            RelocOp::TprelAdd => "%tprel_add",
        }
    }
}

/// An expression node.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

/// Expression kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Integer literal.
    Int(i64),
    /// Symbol (or register, keyword: decided by context); `.` is the location counter.
    Sym(Box<str>),
    /// Local label reference `Nb` / `Nf`.
    Local {
        /// The label number.
        label: u32,
        /// `f` (true) or `b`.
        forward: bool,
    },
    /// Parenthesized expression (kept: `(a0)` is a memory operand).
    Paren(Box<Expr>),
    /// Unary operation.
    Unary(UnOp, Box<Expr>),
    /// Binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `%op(expr)`.
    Reloc(RelocOp, Box<Expr>),
}

impl Expr {
    /// A node spanning `start..end`.
    pub fn new(kind: ExprKind, start: u32, end: u32) -> Expr {
        Expr { kind, start, end }
    }

    /// The name, when the expression is a bare symbol.
    pub fn as_sym(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Sym(s) => Some(s),
            _ => None,
        }
    }
}

/// One comma-separated operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// Nothing between two commas.
    Empty(u32),
    /// An expression (a register name is a symbol expression).
    Expr(Expr),
    /// `offset(base)`.
    Mem {
        /// The offset.
        offset: Box<Expr>,
        /// The base (a register name).
        base: Box<Expr>,
        /// First byte.
        start: u32,
        /// One past the last byte.
        end: u32,
    },
    /// A string literal (positions include the quotes).
    Str(u32, u32),
    /// `@name`, as in `.type f, @function` (positions of the name).
    Type(u32, u32),
}

impl Operand {
    /// Byte range.
    pub fn range(&self) -> (u32, u32) {
        match self {
            Operand::Empty(p) => (*p, *p),
            Operand::Expr(e) => (e.start, e.end),
            Operand::Mem { start, end, .. } => (*start, *end),
            Operand::Str(s, e) | Operand::Type(s, e) => (*s, *e),
        }
    }
}

/// A parse error the grammar's actions report.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseIssue {
    /// What is wrong.
    pub message: String,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}
