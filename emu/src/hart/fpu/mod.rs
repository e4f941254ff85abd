//! RISC-V F and D semantics on raw bits: rounding modes, accrued flags,
//! canonical NaNs, NaN boxing, minimumNumber/maximumNumber, saturating
//! conversions, all bit-exact with `qemu-riscv32`.
//!
//! Why `rustc_apfloat`: host `f32`/`f64` arithmetic only rounds to nearest
//! even and reports no exception flags, but RISC-V needs five rounding modes
//! and exact fflags. rustc_apfloat (LLVM's APFloat in Rust, used by rustc and
//! Miri) gives correctly rounded add/sub/mul/div/fma/conversions under any
//! rounding mode with IEEE status flags. Around it, this module does what is
//! RISC-V-specific: NaN inputs are handled before APFloat sees them (RISC-V
//! returns the canonical NaN, raises NV only for signaling inputs, and NV for
//! inf*0 in fma even when the addend is a quiet NaN); APFloat detects
//! underflow tininess on the denormal-rounded result while RISC-V detects it
//! after rounding with an unbounded exponent, so a result that rounded up to
//! the smallest normal is recomputed with scaled operands to decide UF.
//! Square root (which APFloat lacks), the float-to-integer conversions,
//! the exact integer-to-float ones and the comparisons use the host, which
//! is exact for them: host sqrt is correctly rounded to nearest, and the
//! exact residual `x - r*r` gives the inexact flag and the correction for
//! the directed rounding modes.
//!
//! This is the reference: the fast loop's host-FPU path
//! (`crate::hart::hardfloat`) is checked against it bit for bit and falls back
//! to it.

use rustc_apfloat::ieee::{Double, Single};
use rustc_apfloat::{Float, FloatConvert, Round, Status};

/// fflags bits.
pub mod flags {
    /// Invalid operation.
    pub const NV: u8 = 0x10;
    /// Divide by zero.
    pub const DZ: u8 = 0x08;
    /// Overflow.
    pub const OF: u8 = 0x04;
    /// Underflow.
    pub const UF: u8 = 0x02;
    /// Inexact.
    pub const NX: u8 = 0x01;
}

/// The RISC-V canonical single NaN.
pub const CANONICAL_NAN_S: u32 = 0x7fc0_0000;
/// The RISC-V canonical double NaN.
pub const CANONICAL_NAN_D: u64 = 0x7ff8_0000_0000_0000;

/// A single in a 64-bit register: the upper half all ones.
#[inline]
pub fn box_s(bits: u32) -> u64 {
    0xffff_ffff_0000_0000 | bits as u64
}

/// The single held by a 64-bit register: an improperly boxed value reads as
/// the canonical NaN.
#[inline]
pub fn unbox_s(reg: u64) -> u32 {
    if reg >> 32 == 0xffff_ffff {
        reg as u32
    } else {
        CANONICAL_NAN_S
    }
}

/// The rounding mode of an instruction's 3-bit field: the field's, or
/// `frm`'s when the field is 7 (dynamic); `None` when that is not a mode.
#[inline(always)]
pub fn rounding(field: u8, frm: u8) -> Option<Round> {
    round_mode(if field == 7 { frm } else { field })
}

/// A rounding mode from the 3-bit encoding (5, 6, 7 are not modes).
#[inline]
pub fn round_mode(bits: u8) -> Option<Round> {
    Some(match bits {
        0 => Round::NearestTiesToEven,
        1 => Round::TowardZero,
        2 => Round::TowardNegative,
        3 => Round::TowardPositive,
        4 => Round::NearestTiesToAway,
        _ => return None,
    })
}

fn status_flags(s: Status) -> u8 {
    let mut f = 0;
    if s.contains(Status::INVALID_OP) {
        f |= flags::NV;
    }
    if s.contains(Status::DIV_BY_ZERO) {
        f |= flags::DZ;
    }
    if s.contains(Status::OVERFLOW) {
        f |= flags::OF;
    }
    if s.contains(Status::UNDERFLOW) {
        f |= flags::UF;
    }
    if s.contains(Status::INEXACT) {
        f |= flags::NX;
    }
    f
}

/// A binary floating-point format: the bits-level facts APFloat does not give.
pub trait Format: Float + Copy {
    /// Raw bits type width.
    const WIDTH: u32;
    /// The canonical NaN's bits.
    const CANONICAL_NAN: u64;
    /// Bits of the value.
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
    /// Value of bits.
    fn of(bits: u64) -> Self {
        Self::from_bits(bits as u128)
    }
    /// Whether bits encode a signaling NaN.
    fn is_snan_bits(bits: u64) -> bool {
        Self::of(bits).is_signaling()
    }
    /// The format's bits in an FP register value (for a single, see
    /// [`unbox_s`]).
    fn unbox(reg: u64) -> u64;
    /// A register value holding the format's bits (for a single, see
    /// [`box_s`]).
    fn rebox(bits: u64) -> u64;
}

impl Format for Single {
    const WIDTH: u32 = 32;
    const CANONICAL_NAN: u64 = CANONICAL_NAN_S as u64;
    #[inline]
    fn unbox(reg: u64) -> u64 {
        unbox_s(reg) as u64
    }
    #[inline]
    fn rebox(bits: u64) -> u64 {
        box_s(bits as u32)
    }
}

impl Format for Double {
    const WIDTH: u32 = 64;
    const CANONICAL_NAN: u64 = CANONICAL_NAN_D;
    #[inline]
    fn unbox(reg: u64) -> u64 {
        reg
    }
    #[inline]
    fn rebox(bits: u64) -> u64 {
        bits
    }
}

/// An arithmetic operation APFloat rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// a + b
    Add,
    /// a - b
    Sub,
    /// a * b
    Mul,
    /// a / b
    Div,
    /// a * b + c
    Madd,
    /// a * b - c
    Msub,
    /// -(a * b) + c
    Nmsub,
    /// -(a * b) - c
    Nmadd,
}

impl Arith {
    fn is_fused(self) -> bool {
        matches!(
            self,
            Arith::Madd | Arith::Msub | Arith::Nmsub | Arith::Nmadd
        )
    }
}

/// Whether |a| <= |b| (any values; APFloat's own comparison wants finite non-zero ones).
fn smaller<F: Format>(a: F, b: F) -> bool {
    a.abs() <= b.abs()
}

/// Computes `op` with the inputs multiplied by `2^sa`, `2^sb`, `2^sc`.
fn compute<F: Format>(
    op: Arith,
    a: F,
    b: F,
    c: F,
    rm: Round,
    (sa, sb, sc): (i32, i32, i32),
) -> rustc_apfloat::StatusAnd<F> {
    let scale = |x: F, s: i32| if s == 0 { x } else { x.scalbn(s) };
    let (a, b, c) = (scale(a, sa), scale(b, sb), scale(c, sc));
    match op {
        Arith::Add => a.add_r(b, rm),
        Arith::Sub => a.sub_r(b, rm),
        Arith::Mul => a.mul_r(b, rm),
        Arith::Div => a.div_r(b, rm),
        Arith::Madd => a.mul_add_r(b, c, rm),
        Arith::Msub => a.mul_add_r(b, -c, rm),
        Arith::Nmsub => (-a).mul_add_r(b, c, rm),
        Arith::Nmadd => (-a).mul_add_r(b, -c, rm),
    }
}

/// Scale exponents that multiply the exact result by `2^s` while keeping
/// the inputs exact: sums scale every term; products scale one factor (the
/// smaller one to go up, the larger one to go down); quotients scale the
/// numerator, or the denominator the other way when the numerator is small.
fn scales<F: Format>(op: Arith, a: F, b: F, s: i32) -> (i32, i32, i32) {
    let a_first = if s > 0 { smaller(a, b) } else { !smaller(a, b) };
    match op {
        Arith::Add | Arith::Sub => (s, s, 0),
        Arith::Mul if a_first => (s, 0, 0),
        Arith::Mul => (0, s, 0),
        Arith::Div if s > 0 || a.abs() >= F::from_u128(1).value => (s, 0, 0),
        Arith::Div => (0, -s, 0),
        _ if a_first => (s, 0, s),
        _ => (0, s, s),
    }
}

/// Whether the exact result, rounded to the format's precision with an
/// unbounded exponent, is below the smallest normal (RISC-V's tininess).
fn tiny_after_rounding<F: Format>(op: Arith, a: F, b: F, c: F, rm: Round) -> bool {
    const SCALE: i32 = 128;
    let scaled = compute(op, a, b, c, rm, scales(op, a, b, SCALE)).value;
    scaled.abs() < F::smallest_normalized().scalbn(SCALE)
}

/// Whether the exact result, rounded with an unbounded exponent, exceeds the
/// largest finite number. APFloat rounds an overflow to the largest finite
/// number (in the modes that round toward zero) without the overflow flag,
/// and that result also comes from exact values just above it that do not
/// overflow; halving the result tells them apart.
fn overflows<F: Format>(op: Arith, a: F, b: F, c: F, rm: Round) -> bool {
    let half = compute(op, a, b, c, rm, scales(op, a, b, -1)).value;
    half.is_infinite() || half.abs() > F::largest().scalbn(-1)
}

/// `op` on raw bits under rounding mode `rm`, accruing flags.
pub fn arith<F: Format>(op: Arith, a: u64, b: u64, c: u64, rm: Round, fflags: &mut u8) -> u64 {
    let (fa, fb, fc) = (F::of(a), F::of(b), F::of(c));
    let fused = op.is_fused();
    if fa.is_nan() || fb.is_nan() || (fused && fc.is_nan()) {
        let snan = fa.is_signaling() || fb.is_signaling() || (fused && fc.is_signaling());
        let inf_times_zero =
            fused && ((fa.is_infinite() && fb.is_zero()) || (fa.is_zero() && fb.is_infinite()));
        if snan || inf_times_zero {
            *fflags |= flags::NV;
        }
        return F::CANONICAL_NAN;
    }
    let r = compute(op, fa, fb, fc, rm, (0, 0, 0));
    let mut status = r.status;
    if r.value.is_nan() {
        *fflags |= status_flags(status);
        return F::CANONICAL_NAN;
    }
    if status.contains(Status::INEXACT)
        && !status.contains(Status::UNDERFLOW)
        && r.value.is_smallest_normalized()
        && tiny_after_rounding(op, fa, fb, fc, rm)
    {
        status |= Status::UNDERFLOW;
    }
    if status.contains(Status::INEXACT)
        && !status.contains(Status::OVERFLOW)
        && r.value.abs().bitwise_eq(F::largest())
        && overflows(op, fa, fb, fc, rm)
    {
        status |= Status::OVERFLOW;
    }
    *fflags |= status_flags(status);
    r.value.bits()
}

/// Square root of raw bits, accruing flags.
pub fn sqrt<F: Format>(x: u64, rm: Round, fflags: &mut u8) -> u64 {
    let fx = F::of(x);
    if fx.is_nan() {
        if fx.is_signaling() {
            *fflags |= flags::NV;
        }
        return F::CANONICAL_NAN;
    }
    if fx.is_zero() || fx.is_pos_infinity() {
        return x;
    }
    if fx.is_negative() {
        *fflags |= flags::NV;
        return F::CANONICAL_NAN;
    }
    // Host sqrt is correctly rounded to nearest; the residual x - r*r is exact
    // (computed in f64 for singles, by fma for doubles) and its sign says on
    // which side of the true root r lies.
    let (r, residual_sign) = if F::WIDTH == 32 {
        let xs = f32::from_bits(x as u32);
        let r = xs.sqrt();
        let residual = xs as f64 - (r as f64) * (r as f64);
        (r.to_bits() as u64, residual.partial_cmp(&0.0))
    } else {
        // The residual of a tiny x falls below the subnormal range and loses
        // its sign: work on x * 2^600 (an even power, so the root scales by
        // 2^300 exactly and stays normal either way).
        let tiny = f64::from_bits(x) < 1e-270;
        let xd = if tiny {
            f64::from_bits(x) * 2f64.powi(600)
        } else {
            f64::from_bits(x)
        };
        let r = xd.sqrt();
        let rr = Double::from_bits(r.to_bits() as u128);
        let residual = (-rr)
            .mul_add_r(
                rr,
                Double::from_bits(xd.to_bits() as u128),
                Round::NearestTiesToEven,
            )
            .value;
        let sign = if residual.is_zero() {
            std::cmp::Ordering::Equal
        } else if residual.is_negative() {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        };
        let r = directed(r.to_bits(), sign, rm);
        let r = if tiny {
            (f64::from_bits(r) * 2f64.powi(-300)).to_bits()
        } else {
            r
        };
        if sign != std::cmp::Ordering::Equal {
            *fflags |= flags::NX;
        }
        return r;
    };
    let sign = residual_sign.expect("the residual of a finite positive root is a number");
    if sign != std::cmp::Ordering::Equal {
        *fflags |= flags::NX;
    }
    directed(r, sign, rm)
}

/// Corrects a root rounded to nearest for the directed modes, from the sign
/// of `x - r*r` (the root of a float is never halfway between two floats,
/// so both nearest modes keep it).
fn directed(r: u64, sign: std::cmp::Ordering, rm: Round) -> u64 {
    match (rm, sign) {
        (Round::TowardZero | Round::TowardNegative, std::cmp::Ordering::Less) => r - 1,
        (Round::TowardPositive, std::cmp::Ordering::Greater) => r + 1,
        _ => r,
    }
}

/// Converts between formats (`fcvt.s.d`, `fcvt.d.s`).
pub fn convert<F: Format + FloatConvert<T>, T: Format>(x: u64, rm: Round, fflags: &mut u8) -> u64 {
    let fx = F::of(x);
    if fx.is_nan() {
        if fx.is_signaling() {
            *fflags |= flags::NV;
        }
        return T::CANONICAL_NAN;
    }
    let mut loses = false;
    let r = fx.convert_r(rm, &mut loses);
    let mut status = r.status;
    if status.contains(Status::INEXACT)
        && !status.contains(Status::UNDERFLOW)
        && r.value.is_smallest_normalized()
    {
        let scaled: T = fx.scalbn(128).convert_r(rm, &mut loses).value;
        if scaled.abs() < T::smallest_normalized().scalbn(128) {
            status |= Status::UNDERFLOW;
        }
    }
    if status.contains(Status::INEXACT)
        && !status.contains(Status::OVERFLOW)
        && r.value.abs().bitwise_eq(T::largest())
    {
        let half: T = fx.scalbn(-1).convert_r(rm, &mut loses).value;
        if half.is_infinite() || half.abs() > T::largest().scalbn(-1) {
            status |= Status::OVERFLOW;
        }
    }
    *fflags |= status_flags(status);
    r.value.bits()
}

/// The value as a host f64 (exact for both formats; NaN stays NaN).
fn to_host<F: Format>(x: u64) -> f64 {
    if F::WIDTH == 32 {
        f32::from_bits(x as u32) as f64
    } else {
        f64::from_bits(x)
    }
}

/// Float to integer (`fcvt.w[u].{s,d}`), saturating: NaN and too-large values
/// give the largest integer, too-small the smallest, with NV.
pub fn to_int<F: Format>(x: u64, signed: bool, rm: Round, fflags: &mut u8) -> u32 {
    let v = to_host::<F>(x);
    let (min, max) = if signed {
        (i32::MIN as f64, i32::MAX as f64)
    } else {
        (0.0, u32::MAX as f64)
    };
    let max_bits = if signed { i32::MAX as u32 } else { u32::MAX };
    let min_bits = if signed { i32::MIN as u32 } else { 0 };
    if v.is_nan() {
        *fflags |= flags::NV;
        return max_bits;
    }
    let r = match rm {
        Round::NearestTiesToEven => v.round_ties_even(),
        Round::TowardZero => v.trunc(),
        Round::TowardNegative => v.floor(),
        Round::TowardPositive => v.ceil(),
        Round::NearestTiesToAway => v.round(),
    };
    if r > max {
        *fflags |= flags::NV;
        return max_bits;
    }
    if r < min {
        *fflags |= flags::NV;
        return min_bits;
    }
    if r != v {
        *fflags |= flags::NX;
    }
    if signed { r as i32 as u32 } else { r as u32 }
}

/// Integer to float (`fcvt.{s,d}.w[u]`).
pub fn from_int<F: Format>(x: u32, signed: bool, rm: Round, fflags: &mut u8) -> u64 {
    let v = if signed { x as i32 as i64 } else { x as i64 };
    // Exact (no rounding, no flags) in a double, and in a single below 2^24:
    // then the host converts.
    if F::WIDTH == 64 {
        return (v as f64).to_bits();
    }
    if v.unsigned_abs() < 1 << 24 {
        return (v as f32).to_bits() as u64;
    }
    let r = if signed {
        F::from_i128_r(x as i32 as i128, rm)
    } else {
        F::from_u128_r(x as u128, rm)
    };
    *fflags |= status_flags(r.status);
    r.value.bits()
}

/// `feq`, `flt`, `fle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Quiet equality.
    Eq,
    /// Signaling less-than.
    Lt,
    /// Signaling less-or-equal.
    Le,
}

/// A comparison, 1 or 0.
pub fn compare<F: Format>(cmp: Compare, a: u64, b: u64, fflags: &mut u8) -> u32 {
    let (x, y) = (to_host::<F>(a), to_host::<F>(b));
    if x.is_nan() || y.is_nan() {
        let signaling = F::is_snan_bits(a) || F::is_snan_bits(b);
        if cmp != Compare::Eq || signaling {
            *fflags |= flags::NV;
        }
        return 0;
    }
    (match cmp {
        Compare::Eq => x == y,
        Compare::Lt => x < y,
        Compare::Le => x <= y,
    }) as u32
}

/// `fmin`/`fmax` (minimumNumber/maximumNumber, RISC-V 2.2+): a NaN operand
/// yields the other operand, two NaNs the canonical NaN, -0 < +0.
pub fn min_max<F: Format>(max: bool, a: u64, b: u64, fflags: &mut u8) -> u64 {
    let (x, y) = (to_host::<F>(a), to_host::<F>(b));
    if F::is_snan_bits(a) || F::is_snan_bits(b) {
        *fflags |= flags::NV;
    }
    match (x.is_nan(), y.is_nan()) {
        (true, true) => F::CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        _ => {
            let a_first = if x == y {
                // Equal values differ at most in the sign of zero.
                let a_negative = x.is_sign_negative();
                if max { !a_negative } else { a_negative }
            } else if max {
                x > y
            } else {
                x < y
            };
            if a_first { a } else { b }
        }
    }
}

/// `fclass`: the one-hot class mask.
pub fn classify<F: Format>(x: u64) -> u32 {
    let f = F::of(x);
    let neg = f.is_negative();
    let bit = if f.is_nan() {
        if f.is_signaling() { 8 } else { 9 }
    } else if f.is_infinite() {
        if neg { 0 } else { 7 }
    } else if f.is_zero() {
        if neg { 3 } else { 4 }
    } else if f.is_denormal() {
        if neg { 2 } else { 5 }
    } else if neg {
        1
    } else {
        6
    };
    1 << bit
}

/// Sign injection: `fsgnj` (kind 0), `fsgnjn` (1), `fsgnjx` (2).
pub fn sign_inject(width: u32, kind: u8, a: u64, b: u64) -> u64 {
    let sign = 1u64 << (width - 1);
    let s = match kind {
        0 => b & sign,
        1 => !b & sign,
        _ => (a ^ b) & sign,
    };
    (a & !sign) | s
}

#[cfg(test)]
mod tests;
