//! Tests of the soft F and D semantics (`super`).

use super::*;

const RNE: Round = Round::NearestTiesToEven;

fn s(x: f32) -> u64 {
    x.to_bits() as u64
}

#[test]
fn add_flags_and_rounding() {
    let mut fl = 0;
    let r = arith::<Single>(Arith::Add, s(1.0), s(2.0), 0, RNE, &mut fl);
    assert_eq!((r, fl), (s(3.0), 0));
    let r = arith::<Single>(Arith::Div, s(1.0), s(3.0), 0, Round::TowardZero, &mut fl);
    assert_eq!(r, 0x3eaa_aaaa);
    assert_eq!(fl, flags::NX);
    let r = arith::<Single>(
        Arith::Div,
        s(1.0),
        s(3.0),
        0,
        Round::TowardPositive,
        &mut fl,
    );
    assert_eq!(r, 0x3eaa_aaab);
    let mut fl = 0;
    let r = arith::<Single>(Arith::Div, s(1.0), s(0.0), 0, RNE, &mut fl);
    assert_eq!((r, fl), (s(f32::INFINITY), flags::DZ));
    let mut fl = 0;
    let r = arith::<Single>(
        Arith::Sub,
        s(f32::INFINITY),
        s(f32::INFINITY),
        0,
        RNE,
        &mut fl,
    );
    assert_eq!((r, fl), (CANONICAL_NAN_S as u64, flags::NV));
    let mut fl = 0;
    let r = arith::<Single>(
        Arith::Add,
        s(1.0),
        s(-1.0),
        0,
        Round::TowardNegative,
        &mut fl,
    );
    assert_eq!(r, s(-0.0));
}

#[test]
fn nans_are_canonical_and_snan_signals() {
    let mut fl = 0;
    let qnan_payload = 0x7fc0_1234;
    let r = arith::<Single>(Arith::Mul, qnan_payload, s(1.0), 0, RNE, &mut fl);
    assert_eq!((r, fl), (CANONICAL_NAN_S as u64, 0));
    let r = arith::<Single>(Arith::Mul, 0x7f80_0001, s(1.0), 0, RNE, &mut fl);
    assert_eq!((r, fl), (CANONICAL_NAN_S as u64, flags::NV));
    let mut fl = 0;
    let r = arith::<Single>(
        Arith::Madd,
        s(f32::INFINITY),
        s(0.0),
        CANONICAL_NAN_S as u64,
        RNE,
        &mut fl,
    );
    assert_eq!((r, fl), (CANONICAL_NAN_S as u64, flags::NV));
}

#[test]
fn underflow_tininess_after_rounding() {
    // 0x1.fffffep-127 * (1 + 2^-23)... choose a product that rounds up to
    // the smallest normal only in the denormal-rounded view.
    let min_normal = f32::MIN_POSITIVE;
    let mut fl = 0;
    // Exactly representable with 24 bits but not as a denormal: tiny.
    let x = (min_normal as f64) * (1.0 - 2f64.powi(-24));
    let r = arith::<Double>(Arith::Mul, x.to_bits(), 1f64.to_bits(), 0, RNE, &mut fl);
    assert_eq!(f64::from_bits(r), x);
    let mut fl = 0;
    let r = convert::<Double, Single>(x.to_bits(), RNE, &mut fl);
    assert_eq!(r, s(min_normal));
    assert_eq!(fl, flags::UF | flags::NX);
    // Above the rounding boundary the unbounded result is the smallest
    // normal itself: inexact, not tiny.
    let mut fl = 0;
    let y = (min_normal as f64) * (1.0 - 2f64.powi(-26));
    let r = convert::<Double, Single>(y.to_bits(), RNE, &mut fl);
    assert_eq!((r, fl), (s(min_normal), flags::NX));
}

#[test]
fn overflow_to_largest_finite_sets_of() {
    // Found by the qemu differential test: -2^31 / 1e-40 rounded up.
    let mut fl = 0;
    let r = arith::<Single>(
        Arith::Div,
        0xcf00_0000,
        0x0001_1680,
        0,
        Round::TowardPositive,
        &mut fl,
    );
    assert_eq!((r, fl), (0xff7f_ffff, flags::OF | flags::NX));
    // Just above the largest finite (max + half an ulp, below 2^128),
    // rounded toward zero: no overflow.
    let mut fl = 0;
    let r = arith::<Single>(
        Arith::Add,
        s(f32::MAX),
        0x7300_0000, // 2^103
        0,
        Round::TowardZero,
        &mut fl,
    );
    assert_eq!((r, fl), (s(f32::MAX), flags::NX));
    let mut fl = 0;
    let r = arith::<Single>(
        Arith::Add,
        s(f32::MAX),
        s(f32::MAX),
        0,
        Round::TowardZero,
        &mut fl,
    );
    assert_eq!((r, fl), (s(f32::MAX), flags::OF | flags::NX));
    let mut fl = 0;
    let r = convert::<Double, Single>(1e300f64.to_bits(), Round::TowardZero, &mut fl);
    assert_eq!((r, fl), (s(f32::MAX), flags::OF | flags::NX));
}

#[test]
fn sqrt_directed_rounding() {
    let mut fl = 0;
    assert_eq!(sqrt::<Single>(s(4.0), RNE, &mut fl), s(2.0));
    assert_eq!(fl, 0);
    let down = sqrt::<Single>(s(2.0), Round::TowardZero, &mut fl);
    let up = sqrt::<Single>(s(2.0), Round::TowardPositive, &mut fl);
    assert_eq!(up, down + 1);
    assert_eq!(fl, flags::NX);
    assert!(f32::from_bits(down as u32) < std::f32::consts::SQRT_2 + 1e-7);
    let mut fl = 0;
    assert_eq!(
        sqrt::<Double>((-1f64).to_bits(), RNE, &mut fl),
        CANONICAL_NAN_D
    );
    assert_eq!(fl, flags::NV);
    assert_eq!(
        sqrt::<Double>((-0f64).to_bits(), RNE, &mut fl),
        (-0f64).to_bits()
    );
}

#[test]
fn conversions_saturate() {
    let mut fl = 0;
    assert_eq!(
        to_int::<Single>(s(f32::NAN), true, RNE, &mut fl),
        i32::MAX as u32
    );
    assert_eq!(fl, flags::NV);
    let mut fl = 0;
    assert_eq!(to_int::<Single>(s(-1.5), false, RNE, &mut fl), 0);
    assert_eq!(fl, flags::NV);
    let mut fl = 0;
    assert_eq!(
        to_int::<Single>(s(-0.5), false, Round::TowardZero, &mut fl),
        0
    );
    assert_eq!(fl, flags::NX);
    let mut fl = 0;
    assert_eq!(to_int::<Double>(2.5f64.to_bits(), true, RNE, &mut fl), 2);
    assert_eq!(
        to_int::<Double>(2.5f64.to_bits(), true, Round::NearestTiesToAway, &mut fl),
        3
    );
    assert_eq!(
        to_int::<Double>((-2.5f64).to_bits(), true, Round::TowardNegative, &mut fl),
        -3i32 as u32
    );
    let mut fl = 0;
    assert_eq!(
        from_int::<Single>(16_777_217, true, RNE, &mut fl),
        s(16_777_216.0)
    );
    assert_eq!(fl, flags::NX);
}

#[test]
fn exact_int_conversions_match_apfloat() {
    // The host converts what is exact; apfloat stays the reference.
    let mut x: u32 = 0x1234_5678;
    for i in 0..20_000u32 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let v = if i % 3 == 0 { x >> (i % 32) } else { x };
        for signed in [false, true] {
            for rm in 0..5 {
                let rm = round_mode(rm).unwrap();
                let reference = |single: bool| {
                    let r = match (single, signed) {
                        (true, true) => Single::from_i128_r(v as i32 as i128, rm).map(|f| f.bits()),
                        (true, false) => Single::from_u128_r(v as u128, rm).map(|f| f.bits()),
                        (false, true) => {
                            Double::from_i128_r(v as i32 as i128, rm).map(|f| f.bits())
                        }
                        (false, false) => Double::from_u128_r(v as u128, rm).map(|f| f.bits()),
                    };
                    (r.value, status_flags(r.status))
                };
                let mut fl = 0;
                let r = from_int::<Single>(v, signed, rm, &mut fl);
                assert_eq!((r, fl), reference(true), "{v:#x} {signed} {rm:?}");
                let mut fl = 0;
                let r = from_int::<Double>(v, signed, rm, &mut fl);
                assert_eq!((r, fl), reference(false), "{v:#x} {signed} {rm:?}");
            }
        }
    }
}

#[test]
fn min_max_and_classify() {
    let mut fl = 0;
    assert_eq!(min_max::<Single>(false, s(0.0), s(-0.0), &mut fl), s(-0.0));
    assert_eq!(min_max::<Single>(true, s(-0.0), s(0.0), &mut fl), s(0.0));
    assert_eq!(
        min_max::<Single>(true, CANONICAL_NAN_S as u64, s(1.0), &mut fl),
        s(1.0)
    );
    assert_eq!(fl, 0);
    assert_eq!(
        min_max::<Single>(true, 0x7f80_0001, 0x7f80_0001, &mut fl),
        CANONICAL_NAN_S as u64
    );
    assert_eq!(fl, flags::NV);
    assert_eq!(classify::<Single>(s(-f32::INFINITY)), 1);
    assert_eq!(classify::<Single>(s(1e-40)), 1 << 5);
    assert_eq!(classify::<Single>(0x7f80_0001), 1 << 8);
    assert_eq!(unbox_s(0x0000_0000_3f80_0000), CANONICAL_NAN_S);
    assert_eq!(unbox_s(box_s(0x3f80_0000)), 0x3f80_0000);
}
