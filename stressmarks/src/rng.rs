//! The DIS generator (spec section 1): Numerical Recipes' `ran1`, a
//! Park–Miller minimal standard generator (multiplier 16807, modulus
//! 2³¹ − 1, Schrage's factorization) behind a 32-entry Bays–Durham shuffle,
//! and the DIS helpers built on it. Bit-exact with the C code and with
//! `stressmarks/lib/dis_rng.s`.

/// The modulus, 2³¹ − 1.
const MODULUS: i32 = 2_147_483_647;
/// Schrage's quotient and remainder of the modulus by 16807.
const SCHRAGE_Q: i32 = 127_773;
const SCHRAGE_R: i32 = 2836;
const MULTIPLIER: i32 = 16807;
/// Entries of the shuffle table.
pub const TABLE: usize = 32;
/// Steps `init` runs (the first 8 fill nothing: NR's warm-up).
const WARM_UP: usize = TABLE + 8;
/// `iy >> 26` indexes the table: 2²⁶ = 1 + (2³¹ − 2)/32, NR's `NDIV`.
const INDEX_SHIFT: u32 = 26;
/// NR's `RNMX = 1 − EPS` with `EPS = 1.2e-7`: `rand_num` stays below 1.
const LARGEST_DOUBLE: f64 = 0.99999988;
/// What `rand_num` returns above `LARGEST_DOUBLE`: `RNMX` as a float, 1 − 2⁻²³.
pub const LARGEST_BITS: u32 = 0x3F7F_FFFE;

/// One Park–Miller step by Schrage's method: `16807·s mod (2³¹ − 1)`
/// without overflowing 32 bits.
pub fn step(s: i32) -> i32 {
    let k = s / SCHRAGE_Q;
    let next = MULTIPLIER * (s - k * SCHRAGE_Q) - SCHRAGE_R * k;
    if next < 0 { next + MODULUS } else { next }
}

/// The generator's state: the same 34 words, in the same order, as the
/// assembly library's state block (`s`, `iy`, `iv[32]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran1 {
    /// The Park–Miller state.
    pub s: i32,
    /// The last shuffled output; its top bits pick the next table entry.
    pub iy: i32,
    /// The shuffle table.
    pub iv: [i32; TABLE],
}

impl Ran1 {
    /// A generator seeded as DIS's `randInit(seed)`; seeds are meant to be
    /// in `[−2³¹ + 1, −1]`, and any other value starts from state 1 as NR
    /// does for 0 (`s = max(1, −seed)`, wrapping).
    pub fn init(seed: i32) -> Ran1 {
        let mut s = seed.wrapping_neg().max(1);
        let mut iv = [0; TABLE];
        for j in (0..WARM_UP).rev() {
            s = step(s);
            if j < TABLE {
                iv[j] = s;
            }
        }
        Ran1 { s, iy: iv[0], iv }
    }

    /// The next uniform deviate in (0, 1), a float: the double product
    /// `iy · (1/(2³¹ − 1))` rounded once to f32, clamped to 1 − 2⁻²³.
    pub fn rand_num(&mut self) -> f32 {
        self.s = step(self.s);
        let j = (self.iy >> INDEX_SHIFT) as usize;
        self.iy = self.iv[j];
        self.iv[j] = self.s;
        let u = (f64::from(self.iy) * (1.0 / f64::from(MODULUS))) as f32;
        if f64::from(u) > LARGEST_DOUBLE {
            f32::from_bits(LARGEST_BITS)
        } else {
            u
        }
    }

    /// DIS `randomUInt(lo, hi)` (also `randInt`): `lo + trunc(u ·f32
    /// f32(hi − lo + 1))`, the product a float product. `hi − lo + 1` must
    /// fit in 32 signed bits; both sides wrap alike when it does not.
    pub fn rand_int(&mut self, lo: i32, hi: i32) -> i32 {
        let span = hi.wrapping_sub(lo).wrapping_add(1) as f32;
        let u = self.rand_num();
        lo.wrapping_add((u * span) as i32)
    }

    /// DIS `randomFloat(lo, hi)`: `(u ·f32 (hi −f32 lo)) +f32 lo`.
    pub fn random_float(&mut self, lo: f32, hi: f32) -> f32 {
        let u = self.rand_num();
        u * (hi - lo) + lo
    }

    /// DIS `randomNonZeroFloat(lo, hi, eps)`: `v = f32(f64(u)·f64(hi −f32
    /// lo) + f64(lo))`, then moved `eps` away from zero when `|v| < eps`
    /// (the spec's `fabs` test, not the public code's integer one).
    pub fn random_non_zero_float(&mut self, lo: f32, hi: f32, eps: f32) -> f32 {
        let u = self.rand_num();
        let v = (f64::from(u) * f64::from(hi - lo) + f64::from(lo)) as f32;
        if v.abs() < eps {
            if v >= 0.0 { v + eps } else { v - eps }
        } else {
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_deviates_of_seed_minus_one_match_the_dis_header() {
        let mut g = Ran1::init(-1);
        let bits: Vec<u32> = (0..5).map(|_| g.rand_num().to_bits()).collect();
        assert_eq!(
            bits,
            [0x3ED4FDDE, 0x3DBC5817, 0x3F41A41E, 0x3F079A6F, 0x3F6E3116]
        );
    }

    #[test]
    fn first_integers_of_seed_minus_one_match_the_dis_header() {
        let mut g = Ran1::init(-1);
        let ints: Vec<i32> = (0..5).map(|_| g.rand_int(0, 499)).collect();
        assert_eq!(ints, [207, 45, 378, 264, 465]);
    }

    #[test]
    fn schrage_step_is_16807_times_s_modulo_2_pow_31_minus_1() {
        for s in [1, 2, 16806, 127772, 127773, 127774, 1 << 30, MODULUS - 1] {
            let exact = (i64::from(s) * 16807 % i64::from(MODULUS)) as i32;
            assert_eq!(step(s), exact, "s = {s}");
        }
    }

    #[test]
    fn seeds_outside_the_range_start_from_one() {
        assert_eq!(Ran1::init(0), Ran1::init(-1));
        assert_eq!(Ran1::init(5), Ran1::init(-1));
        assert_eq!(Ran1::init(i32::MIN), Ran1::init(-1));
        assert_ne!(Ran1::init(-2), Ran1::init(-1));
    }

    /// The assembly clamps by comparing bits; for positive floats that is
    /// the spec's double compare.
    #[test]
    fn the_clamp_is_a_bit_compare_at_0x3f7ffffe() {
        let below = f64::from(f32::from_bits(LARGEST_BITS - 1));
        let at = f64::from(f32::from_bits(LARGEST_BITS));
        assert!(below <= LARGEST_DOUBLE && at > LARGEST_DOUBLE);
        // The largest iy gives the largest product, which rounds to 1.0.
        let top = (f64::from(MODULUS - 1) * (1.0 / f64::from(MODULUS))) as f32;
        assert_eq!(top, 1.0);
        let mut g = Ran1::init(-1);
        g.iy = MODULUS - 1;
        g.iv = [MODULUS - 1; TABLE];
        assert_eq!(g.rand_num().to_bits(), LARGEST_BITS);
    }

    #[test]
    fn random_non_zero_float_moves_small_values_by_eps() {
        let mut g = Ran1::init(-3);
        let mut nudged = 0;
        for _ in 0..10_000 {
            let v = g.random_non_zero_float(-1.0, 1.0, 0.25);
            assert!(v.abs() >= 0.25 || v == 0.0, "{v}");
            assert!((-1.25..=1.25).contains(&v), "{v}");
            if v.abs() > 0.25 && v.abs() < 0.5 {
                nudged += 1;
            }
        }
        // A quarter of the draws land in (−0.25, 0.25) and move to ±[0.25, 0.5).
        assert!(nudged > 3_000, "{nudged}");
    }

    #[test]
    fn rand_int_stays_in_range() {
        let mut g = Ran1::init(-12345);
        for _ in 0..10_000 {
            let v = g.rand_int(-7, 12);
            assert!((-7..=12).contains(&v));
        }
    }
}
