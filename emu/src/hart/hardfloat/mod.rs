//! The host-FPU fast path of the F and D arithmetic (QEMU's "hardfloat",
//! 2018): add, subtract, multiply, divide, square root and the fused
//! multiply-adds on the host's floating point, bit-exact with the soft path
//! of [`crate::hart::fpu`], which stays the reference and the fallback.
//!
//! The host rounds to nearest even and raises no flags we can see, so the
//! fast path is only taken in round-to-nearest-even (the caller checks the
//! rounding mode) and only where the flags can be decided cheaply:
//! - a result that is NaN, infinite, zero (except the exact zeros noted
//!   below) or at most the smallest normal goes the soft way: RISC-V's
//!   canonical NaN and NV, overflow, and underflow with tininess detected
//!   after rounding all need the soft path's care. A normal finite result
//!   above the smallest normal means no NV, DZ, OF or UF: only NX is left.
//! - NX already set in `fflags` (it is sticky, and real code sets it early)
//!   needs nothing more. Otherwise an exact error term decides it: the
//!   remainder of a two-sum for addition; for multiply, divide and square
//!   root the residual `a*b - r`, `a - r*b`, `a - r*r`, exact in `f64` for
//!   singles and through the host's fused multiply-add for doubles, taken
//!   only where the residual's granule is above the subnormal range (a
//!   nonzero residual then cannot round to zero). A fused multiply-add's
//!   own error has no cheap exact form: without NX it goes the soft way.
//!
//! A fused multiply-add must be one rounding: the host's `fma` instruction,
//! which not every x86-64 has. The functions take `FMA`, true only in code
//! compiled with the feature (see `crate::hart::fast`) after a run-time check
//! ([`host_has_fma`]); without it, fused operations and the double
//! residuals go the soft way (`f64::mul_add` would otherwise be a slow
//! libm call).

use std::ops::{Add, Div, Mul, Neg, Sub};

use crate::hart::fpu::{Arith, box_s, flags};

#[cfg(test)]
mod tests;

/// Whether the host CPU has a fused multiply-add instruction (checked once,
/// then cached by std).
#[inline]
pub(crate) fn host_has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("fma")
    }
    #[cfg(target_arch = "aarch64")]
    {
        true
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// A host floating-point type standing for a RISC-V format.
pub(crate) trait HostFloat:
    Copy
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Bits of the smallest positive normal number.
    const MIN_NORMAL: u64;
    /// Bits of positive infinity.
    const INFINITY: u64;
    /// Width of the exponent field's shift (the fraction's width).
    const FRACTION_BITS: u32;
    /// The value held by a register, `None` for an improperly boxed single
    /// (the soft path reads it as the canonical NaN).
    fn from_reg(reg: u64) -> Option<Self>;
    /// The register value of a result.
    fn to_reg(self) -> u64;
    /// The bits of the magnitude.
    fn magnitude(self) -> u64;
    /// Whether the value is a zero of either sign.
    fn is_zero(self) -> bool;
    /// Whether the sign bit is set.
    fn is_negative(self) -> bool;
    /// Correctly rounded square root.
    fn root(self) -> Self;
    /// `self * b + c` rounded once: only called with `FMA`.
    fn fused(self, b: Self, c: Self) -> Self;
    /// Whether `a * b != r`, `r` the product rounded to nearest, or `None`
    /// when that cannot be decided cheaply and exactly.
    fn product_inexact<const FMA: bool>(a: Self, b: Self, r: Self) -> Option<bool>;
    /// Whether `a != r * b`, `r` the quotient `a / b` rounded, or `None`.
    fn quotient_inexact<const FMA: bool>(a: Self, b: Self, r: Self) -> Option<bool>;
    /// Whether `a != r * r`, `r` the square root of `a` rounded, or `None`.
    fn root_inexact<const FMA: bool>(a: Self, r: Self) -> Option<bool>;

    /// The biased exponent field, at least 1 (a subnormal's scale is the
    /// smallest normal's): `ulp(x) = 2^(this - bias - fraction bits)`.
    #[inline(always)]
    fn scale(self) -> i32 {
        ((self.magnitude() >> Self::FRACTION_BITS) as i32).max(1)
    }
}

/// The methods both host types implement alike.
macro_rules! host_float_common {
    ($t:ty) => {
        #[inline(always)]
        fn magnitude(self) -> u64 {
            (self.abs().to_bits()) as u64
        }
        #[inline(always)]
        fn is_zero(self) -> bool {
            self == 0.0
        }
        #[inline(always)]
        fn is_negative(self) -> bool {
            self.is_sign_negative()
        }
        #[inline(always)]
        fn root(self) -> $t {
            self.sqrt()
        }
        #[inline(always)]
        fn fused(self, b: $t, c: $t) -> $t {
            self.mul_add(b, c)
        }
    };
}

impl HostFloat for f64 {
    const MIN_NORMAL: u64 = 0x0010_0000_0000_0000;
    const INFINITY: u64 = 0x7ff0_0000_0000_0000;
    const FRACTION_BITS: u32 = 52;

    #[inline(always)]
    fn from_reg(reg: u64) -> Option<f64> {
        Some(f64::from_bits(reg))
    }
    #[inline(always)]
    fn to_reg(self) -> u64 {
        self.to_bits()
    }
    host_float_common!(f64);
    // The residuals are multiples of the product of the two ulps (2^(ea +
    // eb - 2150) with biased scales): at least the smallest subnormal
    // 2^-1074 when ea + eb >= 1076, so a nonzero residual rounds to nonzero.
    #[inline(always)]
    fn product_inexact<const FMA: bool>(a: f64, b: f64, r: f64) -> Option<bool> {
        (FMA && a.scale() + b.scale() >= 1076).then(|| a.fused(b, -r) != 0.0)
    }
    #[inline(always)]
    fn quotient_inexact<const FMA: bool>(a: f64, b: f64, r: f64) -> Option<bool> {
        (FMA && r.scale() + b.scale() >= 1076).then(|| (-r).fused(b, a) != 0.0)
    }
    #[inline(always)]
    fn root_inexact<const FMA: bool>(a: f64, r: f64) -> Option<bool> {
        (FMA && 2 * r.scale() >= 1076).then(|| (-r).fused(r, a) != 0.0)
    }
}

impl HostFloat for f32 {
    const MIN_NORMAL: u64 = 0x0080_0000;
    const INFINITY: u64 = 0x7f80_0000;
    const FRACTION_BITS: u32 = 23;

    #[inline(always)]
    fn from_reg(reg: u64) -> Option<f32> {
        (reg >> 32 == 0xffff_ffff).then_some(f32::from_bits(reg as u32))
    }
    #[inline(always)]
    fn to_reg(self) -> u64 {
        box_s(self.to_bits())
    }
    host_float_common!(f32);
    // Products of two singles are exact in f64 (48 bits, exponents far
    // inside its range).
    #[inline(always)]
    fn product_inexact<const FMA: bool>(a: f32, b: f32, r: f32) -> Option<bool> {
        Some(a as f64 * b as f64 != r as f64)
    }
    #[inline(always)]
    fn quotient_inexact<const FMA: bool>(a: f32, b: f32, r: f32) -> Option<bool> {
        Some(a as f64 != r as f64 * b as f64)
    }
    #[inline(always)]
    fn root_inexact<const FMA: bool>(a: f32, r: f32) -> Option<bool> {
        Some(a as f64 != r as f64 * r as f64)
    }
}

/// Whether `r` is finite, normal and above the smallest normal: then the
/// operation raised at most NX.
#[inline(always)]
fn clear_of_edges<F: HostFloat>(r: F) -> bool {
    r.magnitude().wrapping_sub(F::MIN_NORMAL + 1) < F::INFINITY - F::MIN_NORMAL - 1
}

/// The error of `r = a + b` rounded to nearest is zero (Knuth's two-sum,
/// exact whenever `r` is finite).
#[inline(always)]
fn sum_inexact<F: HostFloat>(a: F, b: F, r: F) -> bool {
    let b_part = r - a;
    let a_part = r - b_part;
    !((a - a_part) + (b - b_part)).is_zero()
}

/// Sets NX when `inexact` says so; `None` (undecidable here) sends the
/// operation the soft way.
#[inline(always)]
fn note_inexact(inexact: Option<bool>, fflags: &mut u8) -> Option<()> {
    if inexact? {
        *fflags |= flags::NX;
    }
    Some(())
}

/// `op` on register values in round-to-nearest-even, accruing fflags, or
/// `None` (and nothing changed) when the soft path must decide. `c` is only
/// read by the fused operations.
#[inline(always)]
pub(crate) fn arith<F: HostFloat, const FMA: bool>(
    op: Arith,
    a: u64,
    b: u64,
    c: u64,
    fflags: &mut u8,
) -> Option<u64> {
    let (x, y) = (F::from_reg(a)?, F::from_reg(b)?);
    let known_inexact = *fflags & flags::NX != 0;
    let r = match op {
        Arith::Add | Arith::Sub => {
            let y = if op == Arith::Sub { -y } else { y };
            let r = x + y;
            if !clear_of_edges(r) {
                // A zero sum of finite numbers is exact (no flags).
                return r.is_zero().then(|| r.to_reg());
            }
            if !known_inexact && sum_inexact(x, y, r) {
                *fflags |= flags::NX;
            }
            r
        }
        Arith::Mul => {
            let r = x * y;
            if !clear_of_edges(r) {
                // A zero factor (the other finite) gives an exact zero.
                return (r.is_zero() && (x.is_zero() || y.is_zero())).then(|| r.to_reg());
            }
            if !known_inexact {
                note_inexact(F::product_inexact::<FMA>(x, y, r), fflags)?;
            }
            r
        }
        Arith::Div => {
            let r = x / y;
            if !clear_of_edges(r) {
                return (r.is_zero() && x.is_zero()).then(|| r.to_reg());
            }
            if !known_inexact {
                note_inexact(F::quotient_inexact::<FMA>(x, y, r), fflags)?;
            }
            r
        }
        Arith::Madd | Arith::Msub | Arith::Nmsub | Arith::Nmadd => {
            if !FMA || !known_inexact {
                return None;
            }
            let z = F::from_reg(c)?;
            let x = if matches!(op, Arith::Nmsub | Arith::Nmadd) {
                -x
            } else {
                x
            };
            let z = if matches!(op, Arith::Msub | Arith::Nmadd) {
                -z
            } else {
                z
            };
            let r = x.fused(y, z);
            if !clear_of_edges(r) {
                return None;
            }
            r
        }
    };
    Some(r.to_reg())
}

/// Square root of a register value in round-to-nearest-even, or `None`.
#[inline(always)]
pub(crate) fn sqrt<F: HostFloat, const FMA: bool>(a: u64, fflags: &mut u8) -> Option<u64> {
    let x = F::from_reg(a)?;
    // Positive, finite and normal: zeros, subnormals and the rest are
    // left to the soft path.
    if !clear_of_edges(x) || x.is_negative() {
        return None;
    }
    let r = x.root();
    if *fflags & flags::NX == 0 {
        note_inexact(F::root_inexact::<FMA>(x, r), fflags)?;
    }
    Some(r.to_reg())
}
