//! The operations of the fast loop's table ([`FastOp`]), generated from
//! the table of the core's operations (`semantics::for_each_op!`) with the
//! operations of their own form and the fused pairs; the entries'
//! register numbers ([`Reg`]) and what a stop entry stops for
//! ([`StopKind`]).

use isa_spec::CoreOp;

/// Calls `$callback! { own: [..], pairs: [..], rows: [..] }`: the fast
/// loop's operations of their own form, the fused pairs (`Fused = First
/// Second`: the first operation's entry, then the second's, with one
/// dispatch), and the table's rows (see `semantics::for_each_op!`). The enum
/// [`FastOp`], the predecoder's choice of an operation and the fast loop's
/// handler table are generated from it, so they list the same operations.
macro_rules! for_each_fast_op {
    ($callback:ident) => {
        $crate::hart::semantics::for_each_op! {
            $callback
            own: [
                Slow, Nop, Const, Jal, J, Jalr, Jr, Flw, Fld, Fsw, Fsd, Fp,
                FsgnjD, FsgnjnD, FsgnjxD, FmvXW, FmvWX, FcvtDW, FcvtDWu, FeqD, FltD, FleD,
                Csr, Stop, Lr, Sc,
            ],
            pairs: [
                LuiAddi = Const Addi, AddiAddi = Addi Addi, AddiLw = Addi Lw,
                AddiBeq = Addi Beq, AddiBne = Addi Bne, AddiBlt = Addi Blt,
                AddiBge = Addi Bge, AddiBltu = Addi Bltu, AddiBgeu = Addi Bgeu,
                SlliAdd = Slli Add, AddLw = Add Lw, AddBne = Add Bne, AddiAndi = Addi Andi,
                MulAdd = Mul Add, XorBne = Xor Bne, LwLw = Lw Lw, LwAddi = Lw Addi,
                FldFld = Fld Fld,
            ],
        }
    };
}
pub(crate) use for_each_fast_op;

/// The form of a table row's operation (`semantics::for_each_op!`, whose
/// rows name these variants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `rd = f(rs1, rs2)`.
    AluRr,
    /// `rd = f(rs1, imm)`.
    AluRi,
    /// A conditional branch.
    Branch,
    /// A load of a width into `rd`.
    Load,
    /// A store of a width.
    Store,
    /// An atomic read-modify-write of a word.
    Amo,
    /// Rounded F or D arithmetic.
    FpArith,
    /// F or D square root.
    FpSqrt,
}

impl Form {
    /// Whether the form is rounded F or D arithmetic (the fast loop may use
    /// the host's fused multiply-add for it).
    pub const fn rounds(self) -> bool {
        matches!(self, Form::FpArith | Form::FpSqrt)
    }
}

macro_rules! define_fast_ops {
    (
        own: [$($own:ident),* $(,)?],
        pairs: [$($pair:ident = $first:ident $second:ident),* $(,)?],
        rows: [$($form:ident $op:ident $args:tt,)*]
    ) => {
        /// The operation of a [`Fast`](super::Fast) entry: a row of the
        /// core's operation table (named as its instruction), an operation
        /// of its own form, or a fused pair. Everything the fast loop does
        /// not run is [`FastOp::Slow`] (see `for_each_fast_op!`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum FastOp {
            $($own,)*
            $($op,)*
            $($pair,)*
        }

        impl FastOp {
            /// Every operation, in `repr` order.
            pub const ALL: &'static [FastOp] = &[
                $(FastOp::$own,)*
                $(FastOp::$op,)*
                $(FastOp::$pair,)*
            ];

            /// The operation and form of a table row's instruction.
            pub fn of_row(op: CoreOp) -> Option<(FastOp, Form)> {
                Some(match op {
                    $(CoreOp::$op => (FastOp::$op, Form::$form),)*
                    _ => return None,
                })
            }

            /// The form of a table row's operation (`None` for the others).
            pub const fn form(self) -> Option<Form> {
                match self {
                    $(FastOp::$op => Some(Form::$form),)*
                    _ => None,
                }
            }

            /// Whether an entry ends a block: the control transfers, and the
            /// entries the loop always returns for.
            pub fn ends_block(self) -> bool {
                matches!(
                    self,
                    FastOp::J | FastOp::Jal | FastOp::Jalr | FastOp::Jr | FastOp::Slow
                        | FastOp::Stop
                ) || matches!(self.form(), Some(Form::Branch))
            }

            /// The operation of a pair fusing `self` and then `second`, if any.
            pub fn fused(self, second: FastOp) -> Option<FastOp> {
                match (self, second) {
                    $((FastOp::$first, FastOp::$second) => Some(FastOp::$pair),)*
                    _ => None,
                }
            }

            /// The entry's own operation: for a fused pair, its first.
            #[inline]
            pub fn alone(self) -> FastOp {
                match self {
                    $(FastOp::$pair => FastOp::$first,)*
                    op => op,
                }
            }
        }
    };
}

for_each_fast_op!(define_fast_ops);

/// The rounding mode field meaning "dynamic" (`frm`).
pub(super) const DYNAMIC_ROUNDING: u8 = 7;

/// A register number: an enum of 32 values, so that the compiler knows an
/// index into a 32-entry register file is in range (no mask, no check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Reg {
    R0,
    R1,
    R2,
    R3,
    R4,
    R5,
    R6,
    R7,
    R8,
    R9,
    R10,
    R11,
    R12,
    R13,
    R14,
    R15,
    R16,
    R17,
    R18,
    R19,
    R20,
    R21,
    R22,
    R23,
    R24,
    R25,
    R26,
    R27,
    R28,
    R29,
    R30,
    R31,
}

impl Reg {
    const ALL: [Reg; 32] = [
        Reg::R0,
        Reg::R1,
        Reg::R2,
        Reg::R3,
        Reg::R4,
        Reg::R5,
        Reg::R6,
        Reg::R7,
        Reg::R8,
        Reg::R9,
        Reg::R10,
        Reg::R11,
        Reg::R12,
        Reg::R13,
        Reg::R14,
        Reg::R15,
        Reg::R16,
        Reg::R17,
        Reg::R18,
        Reg::R19,
        Reg::R20,
        Reg::R21,
        Reg::R22,
        Reg::R23,
        Reg::R24,
        Reg::R25,
        Reg::R26,
        Reg::R27,
        Reg::R28,
        Reg::R29,
        Reg::R30,
        Reg::R31,
    ];

    /// Register `n & 31`.
    pub fn new(n: u8) -> Reg {
        Reg::ALL[n as usize & 31]
    }

    /// Its index.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What a [`FastOp::Stop`] entry stops for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
#[allow(missing_docs)]
pub enum StopKind {
    HostCall,
    EndThread,
    Yield,
    Messaging,
}
