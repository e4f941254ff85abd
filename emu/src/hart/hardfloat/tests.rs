//! The fast path against the soft path, bit for bit in results and flags:
//! random and edge-case operands (zeros, subnormals, infinities, NaNs with
//! payloads, improperly boxed singles, values near overflow and underflow,
//! cancelling sums, products and quotients at the smallest normal, exact
//! results), every arithmetic operation of both formats, with and without
//! NX already set and the other flags in any state, with and without the
//! host's fused multiply-add. Where the fast path declines, it must have
//! changed nothing.
//!
//! `SCMP_HARDFLOAT_CASES` sets the cases per operation and format (CI runs
//! the default; a large run: `SCMP_HARDFLOAT_CASES=2000000 cargo test
//! --release -p emu hardfloat -- --nocapture`).

use rustc_apfloat::Round;
use rustc_apfloat::ieee::{Double, Single};

use super::{HostFloat, arith, host_has_fma, sqrt};
use crate::hart::fpu::{self, Arith, Format, box_s, flags};
use crate::test_rng::Rng;

/// A format's layout, for building operands from fields.
#[derive(Clone, Copy)]
struct Layout {
    fraction_bits: u32,
    exponent_bits: u32,
}

impl Layout {
    fn bias(self) -> u64 {
        (1 << (self.exponent_bits - 1)) - 1
    }
    fn max_exponent(self) -> u64 {
        (1 << self.exponent_bits) - 1
    }
    fn make(self, negative: bool, exponent: u64, fraction: u64) -> u64 {
        let sign = (negative as u64) << (self.fraction_bits + self.exponent_bits);
        sign | exponent.min(self.max_exponent()) << self.fraction_bits
            | fraction & ((1 << self.fraction_bits) - 1)
    }
    fn one_ulp_away(self, rng: &mut Rng, bits: u64) -> u64 {
        let width = self.fraction_bits + self.exponent_bits + 1;
        let mask = if width == 64 {
            u64::MAX
        } else {
            (1 << width) - 1
        };
        let delta = rng.below(5);
        (if rng.below(2) == 0 {
            bits.wrapping_add(delta)
        } else {
            bits.wrapping_sub(delta)
        }) & mask
    }

    /// An operand, from a mix of classes.
    fn operand(self, rng: &mut Rng) -> u64 {
        let negative = rng.below(2) == 0;
        let random_fraction = rng.next();
        let bias = self.bias();
        let p = self.fraction_bits as u64 + 1;
        let max = self.max_exponent();
        let exponent_in = |rng: &mut Rng, lo: u64, hi: u64| lo + rng.below(hi - lo + 1);
        match rng.below(20) {
            0 | 1 => {
                let quiet = 1 << (self.fraction_bits - 1);
                let specials = [
                    self.make(negative, 0, 0),
                    self.make(negative, max, 0),
                    self.make(false, max, quiet),
                    self.make(negative, max, quiet | random_fraction),
                    // Signaling: quiet bit clear, payload nonzero.
                    self.make(negative, max, (random_fraction & (quiet - 1)) | 1),
                    self.make(negative, 0, 1),
                    self.make(negative, 0, u64::MAX),
                    self.make(negative, 1, 0),
                    self.make(negative, 1, 1),
                    self.make(negative, max - 1, u64::MAX),
                    self.make(negative, max - 1, 0),
                    self.make(negative, bias, 0),
                    self.make(negative, bias, 1),
                ];
                specials[rng.below(specials.len() as u64) as usize]
            }
            2..=4 => rng.next(),
            5 | 6 => {
                let e = exponent_in(rng, 0, p + 3);
                self.make(negative, e, random_fraction)
            }
            7 | 8 => {
                let e = exponent_in(rng, max - p - 3, max - 1);
                self.make(negative, e, random_fraction)
            }
            // Halfway to either edge: products and quotients of two of
            // these reach the edges.
            9 => {
                let e = exponent_in(rng, bias / 2 - 30, bias / 2 + 30);
                self.make(negative, e, random_fraction)
            }
            10 => {
                let e = exponent_in(rng, bias + bias / 2 - 30, bias + bias / 2 + 30);
                self.make(negative, e, random_fraction)
            }
            11..=14 => {
                // Few significant bits: often exact results.
                let keep = rng.below(p);
                let fraction = random_fraction & !((1 << (p - 1 - keep.min(p - 1))) - 1);
                let e = exponent_in(rng, bias - 20, bias + 20);
                self.make(negative, e, fraction)
            }
            _ => {
                let e = exponent_in(rng, bias - 60, bias + 60);
                self.make(negative, e, random_fraction)
            }
        }
    }
}

const DOUBLE: Layout = Layout {
    fraction_bits: 52,
    exponent_bits: 11,
};
const SINGLE: Layout = Layout {
    fraction_bits: 23,
    exponent_bits: 8,
};

/// One format under test.
trait Case: Format {
    type Host: HostFloat;
    const LAYOUT: Layout;
    /// A register value holding `bits` (singles NaN-boxed, sometimes not).
    fn reg(rng: &mut Rng, bits: u64) -> u64;
    fn value(reg: u64) -> u64;
    fn host(bits: u64) -> Self::Host;
    fn bits_of(h: Self::Host) -> u64;
    /// The register value of a soft result.
    fn reg_of(bits: u64) -> u64;
}

impl Case for Double {
    type Host = f64;
    const LAYOUT: Layout = DOUBLE;
    fn reg(_: &mut Rng, bits: u64) -> u64 {
        bits
    }
    fn value(reg: u64) -> u64 {
        reg
    }
    fn host(bits: u64) -> f64 {
        f64::from_bits(bits)
    }
    fn bits_of(h: f64) -> u64 {
        h.to_bits()
    }
    fn reg_of(bits: u64) -> u64 {
        bits
    }
}

impl Case for Single {
    type Host = f32;
    const LAYOUT: Layout = SINGLE;
    fn reg(rng: &mut Rng, bits: u64) -> u64 {
        if rng.below(200) == 0 {
            bits | (rng.next() << 32 & 0x7fff_ffff_0000_0000)
        } else {
            box_s(bits as u32)
        }
    }
    fn value(reg: u64) -> u64 {
        fpu::unbox_s(reg) as u64
    }
    fn host(bits: u64) -> f32 {
        f32::from_bits(bits as u32)
    }
    fn bits_of(h: f32) -> u64 {
        h.to_bits() as u64
    }
    fn reg_of(bits: u64) -> u64 {
        box_s(bits as u32)
    }
}

/// The operands of one case: mostly independent, sometimes built to meet
/// at an edge (cancellation, a product or quotient at the smallest normal,
/// an addend cancelling the product).
fn operands<F: Case>(rng: &mut Rng, op: Option<Arith>) -> (u64, u64, u64) {
    let l = F::LAYOUT;
    let a = l.operand(rng);
    let mut b = l.operand(rng);
    let mut c = l.operand(rng);
    let ha = F::host(a);
    let min_normal = F::host(F::Host::MIN_NORMAL);
    if rng.below(4) == 0 {
        b = match op {
            Some(Arith::Add) => l.one_ulp_away(rng, a ^ l.make(true, 0, 0)),
            Some(Arith::Sub) => l.one_ulp_away(rng, a),
            Some(Arith::Mul) => l.one_ulp_away(rng, F::bits_of(min_normal / ha)),
            Some(Arith::Div) => l.one_ulp_away(rng, F::bits_of(ha / min_normal)),
            _ => b,
        };
    }
    if op.is_some_and(|op| op as u8 >= Arith::Madd as u8) && rng.below(3) == 0 {
        let product = F::host(a) * F::host(b);
        c = l.one_ulp_away(rng, F::bits_of(-product));
    }
    (F::reg(rng, a), F::reg(rng, b), F::reg(rng, c))
}

fn initial_flags(rng: &mut Rng) -> u8 {
    match rng.below(3) {
        0 => 0,
        1 => flags::NX,
        _ => rng.below(32) as u8,
    }
}

/// How often the fast path answered, by whether NX was set before.
#[derive(Default, Debug)]
struct Taken {
    cases: u64,
    with_nx: u64,
    without_nx: u64,
}

const RNE: Round = Round::NearestTiesToEven;

type FastArith = fn(Arith, u64, u64, u64, &mut u8) -> Option<u64>;
type FastSqrt = fn(u64, &mut u8) -> Option<u64>;

/// Runs `cases` cases of one operation: `case` draws the operands and
/// fflags, computes the soft and the fast result from them and names the
/// case; the fast one must equal the soft one, or be declined with the
/// flags untouched.
fn check<F: Case>(
    cases: u64,
    seed: u64,
    mut case: impl FnMut(&mut Rng, &mut u8, &mut u8) -> (u64, Option<u64>, String),
) -> Taken {
    let mut rng = Rng(seed | 1);
    let mut taken = Taken::default();
    for _ in 0..cases {
        let before = initial_flags(&mut rng);
        let (mut soft_flags, mut fast_flags) = (before, before);
        let (soft, fast, at) = case(&mut rng, &mut soft_flags, &mut fast_flags);
        let at = format!("{at}, fflags before {before:#x}");
        taken.cases += 1;
        match fast {
            Some(r) => {
                assert_eq!(r, F::reg_of(soft), "{at}: result");
                assert_eq!(fast_flags, soft_flags, "{at}: fflags");
                if before & flags::NX != 0 {
                    taken.with_nx += 1;
                } else {
                    taken.without_nx += 1;
                }
            }
            None => assert_eq!(fast_flags, before, "{at}: declined but changed fflags"),
        }
    }
    taken
}

fn check_arith<F: Case>(op: Arith, fast: FastArith, cases: u64, seed: u64) -> Taken {
    check::<F>(cases, seed, |rng, soft_flags, fast_flags| {
        let (a, b, c) = operands::<F>(rng, Some(op));
        let (x, y, z) = (F::value(a), F::value(b), F::value(c));
        let soft = fpu::arith::<F>(op, x, y, z, RNE, soft_flags);
        let fast = fast(op, a, b, c, fast_flags);
        (soft, fast, format!("{op:?} {a:#x} {b:#x} {c:#x}"))
    })
}

fn check_sqrt<F: Case>(fast: FastSqrt, cases: u64, seed: u64) -> Taken {
    check::<F>(cases, seed, |rng, soft_flags, fast_flags| {
        let (a, _, _) = operands::<F>(rng, None);
        let soft = fpu::sqrt::<F>(F::value(a), RNE, soft_flags);
        (soft, fast(a, fast_flags), format!("sqrt {a:#x}"))
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn arith_with_fma<F: HostFloat>(op: Arith, a: u64, b: u64, c: u64, fl: &mut u8) -> Option<u64> {
    arith::<F, true>(op, a, b, c, fl)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn sqrt_with_fma<F: HostFloat>(a: u64, fl: &mut u8) -> Option<u64> {
    sqrt::<F, true>(a, fl)
}

/// The fast-path functions with and (when the host has it) without the
/// fused multiply-add.
fn variants<F: HostFloat>() -> Vec<(&'static str, FastArith, FastSqrt)> {
    let mut v: Vec<(&'static str, FastArith, FastSqrt)> = vec![(
        "without fma",
        |op, a, b, c, fl| arith::<F, false>(op, a, b, c, fl),
        |a, fl| sqrt::<F, false>(a, fl),
    )];
    if host_has_fma() {
        #[cfg(target_arch = "x86_64")]
        v.push((
            "with fma",
            // SAFETY: the host has the instruction (checked above).
            |op, a, b, c, fl| unsafe { arith_with_fma::<F>(op, a, b, c, fl) },
            |a, fl| unsafe { sqrt_with_fma::<F>(a, fl) },
        ));
        #[cfg(not(target_arch = "x86_64"))]
        v.push((
            "with fma",
            |op, a, b, c, fl| arith::<F, true>(op, a, b, c, fl),
            |a, fl| sqrt::<F, true>(a, fl),
        ));
    }
    v
}

const OPS: [Arith; 8] = [
    Arith::Add,
    Arith::Sub,
    Arith::Mul,
    Arith::Div,
    Arith::Madd,
    Arith::Msub,
    Arith::Nmsub,
    Arith::Nmadd,
];

fn cases() -> u64 {
    std::env::var("SCMP_HARDFLOAT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            100_000
        } else {
            1_000_000
        })
}

fn differential<F: Case>(name: &str) {
    let cases = cases();
    for (variant, fast, fast_sqrt) in variants::<F::Host>() {
        let with_fma = variant == "with fma";
        for (i, op) in OPS.into_iter().enumerate() {
            let taken = check_arith::<F>(op, fast, cases, 0x1234_5678 + i as u64 * 7919);
            eprintln!("{name} {op:?} {variant}: {taken:?}");
            // The generator reaches the fast path, and not only there.
            let fast_total = taken.with_nx + taken.without_nx;
            let fused = op as u8 >= Arith::Madd as u8;
            if !fused || with_fma {
                assert!(fast_total > cases / 5, "{name} {op:?} {variant}: {taken:?}");
                assert!(fast_total < cases, "{name} {op:?} {variant}: {taken:?}");
                assert!(taken.with_nx > 0, "{name} {op:?} {variant}: {taken:?}");
            }
            // Without NX the error term decides (a fused operation's has no
            // cheap form; nor a double's without the host fma: then only
            // exact zeros are taken).
            let exact_term = !fused && (with_fma || F::Host::FRACTION_BITS < 52 || i < 2);
            if exact_term {
                assert!(
                    taken.without_nx > cases / 10,
                    "{name} {op:?} {variant}: {taken:?}"
                );
            }
        }
        let taken = check_sqrt::<F>(fast_sqrt, cases, 0x9abc_def0);
        eprintln!("{name} sqrt {variant}: {taken:?}");
        assert!(taken.with_nx > 0, "{name} sqrt {variant}: {taken:?}");
        let exact_term = with_fma || F::Host::FRACTION_BITS < 52;
        assert_eq!(
            taken.without_nx > 0,
            exact_term,
            "{name} sqrt {variant}: {taken:?}"
        );
    }
}

#[test]
fn double_fast_path_matches_soft_path() {
    differential::<Double>("double");
}

#[test]
fn single_fast_path_matches_soft_path() {
    differential::<Single>("single");
}

#[test]
fn fast_path_declines_what_needs_the_soft_path() {
    let mut fl = 0;
    let nan = f64::NAN.to_bits();
    let one = 1f64.to_bits();
    // NaN inputs and results (canonical NaN, NV), overflow, underflow.
    assert_eq!(arith::<f64, false>(Arith::Add, nan, one, 0, &mut fl), None);
    let inf = f64::INFINITY.to_bits();
    assert_eq!(arith::<f64, false>(Arith::Sub, inf, inf, 0, &mut fl), None);
    let max = f64::MAX.to_bits();
    assert_eq!(arith::<f64, false>(Arith::Mul, max, max, 0, &mut fl), None);
    let tiny = f64::MIN_POSITIVE.to_bits();
    assert_eq!(
        arith::<f64, false>(Arith::Mul, tiny, tiny, 0, &mut fl),
        None
    );
    assert_eq!(arith::<f64, false>(Arith::Div, one, 0, 0, &mut fl), None);
    assert_eq!(sqrt::<f64, false>((-1f64).to_bits(), &mut fl), None);
    // An improperly boxed single.
    assert_eq!(
        arith::<f32, false>(Arith::Add, 0x3f80_0000, box_s(0x3f80_0000), 0, &mut fl),
        None
    );
    assert_eq!(fl, 0);
    // Exact results: no flags; inexact ones: NX.
    assert_eq!(
        arith::<f64, false>(Arith::Add, one, one, 0, &mut fl),
        Some(2f64.to_bits())
    );
    assert_eq!(fl, 0);
    let third = arith::<f32, false>(
        Arith::Div,
        box_s(1f32.to_bits()),
        box_s(3f32.to_bits()),
        0,
        &mut fl,
    );
    assert_eq!(third, Some(box_s((1f32 / 3.0).to_bits())));
    assert_eq!(fl, flags::NX);
}
