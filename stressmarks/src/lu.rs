//! LU factorization (spec section 5): SPLASH-2's blocked LU without
//! pivoting, on SPLASH-2's `InitA` matrix. Blocks are `b × b`, contiguous
//! and column-major inside, as the programs store them.

use crate::check::Report;
use crate::params::{self, Params, in_range};
use crate::printed::Printed;

/// Parameters (spec table: defaults here, [`LuParams::test`] for CI).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LuParams {
    /// Matrix side, a multiple of `b`.
    pub n: usize,
    /// Block side (the programs' `B`).
    pub b: usize,
}

impl Default for LuParams {
    fn default() -> Self {
        LuParams { n: 512, b: 16 }
    }
}

impl LuParams {
    /// The spec's test size.
    pub fn test() -> Self {
        LuParams { n: 64, b: 8 }
    }

    /// Blocks per side.
    pub fn blocks(&self) -> usize {
        self.n / self.b
    }
}

impl Params for LuParams {
    const NAMES: &'static [&'static str] = &["n", "B"];

    fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        match name {
            "n" => self.n = in_range(name, value, 1, 8192)? as usize,
            "B" | "b" => self.b = in_range("B", value, 1, 8192)? as usize,
            _ => return Err(params::unknown::<Self>("lu", name)),
        }
        Ok(())
    }

    fn assignments(&self) -> Vec<(String, i64)> {
        params::named([("n", self.n as i64), ("B", self.b as i64)])
    }

    fn validate(&self) -> Result<(), String> {
        if !self.n.is_multiple_of(self.b) {
            return Err(format!(
                "n = {} is not a multiple of B = {}",
                self.n, self.b
            ));
        }
        Ok(())
    }
}

/// `lrand48` as `srand48(seed)` leaves it: 48-bit state
/// `X = 0x5DEECE66D·X + 0xB mod 2⁴⁸`, output `X >> 17`.
#[derive(Clone, Debug)]
pub struct Lrand48 {
    x: u64,
}

impl Lrand48 {
    /// `srand48(seed)`: the seed's low 32 bits above 0x330E.
    pub fn new(seed: u32) -> Lrand48 {
        Lrand48 {
            x: (u64::from(seed) << 16) | 0x330E,
        }
    }

    /// The next value in `[0, 2³¹)`.
    pub fn next_value(&mut self) -> u32 {
        self.x = (0x5_DEEC_E66D_u64.wrapping_mul(self.x).wrapping_add(0xB)) & ((1 << 48) - 1);
        (self.x >> 17) as u32
    }
}

/// SPLASH-2's `MAXRAND`, left from `rand()`: `lrand48` values are divided
/// by it anyway (the spec keeps it).
const MAXRAND: f64 = 32767.0;

/// A square matrix in the programs' layout: block (I, J) at
/// `(I + J·blocks)·b²` (blocks column-major), element (i, j) of a block at
/// `i + j·b`.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockMatrix {
    /// Side.
    pub n: usize,
    /// Block side.
    pub b: usize,
    /// The elements.
    pub data: Vec<f64>,
}

impl BlockMatrix {
    fn index(&self, i: usize, j: usize) -> usize {
        let (b, nb) = (self.b, self.n / self.b);
        ((i / b) + (j / b) * nb) * b * b + (i % b) + (j % b) * b
    }

    /// Element (i, j).
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.data[self.index(i, j)]
    }

    fn set(&mut self, i: usize, j: usize, v: f64) {
        let k = self.index(i, j);
        self.data[k] = v;
    }

    /// Block (I, J), column-major.
    pub fn block(&self, bi: usize, bj: usize) -> &[f64] {
        let len = self.b * self.b;
        let start = (bi + bj * (self.n / self.b)) * len;
        &self.data[start..start + len]
    }

    /// The elements in column-major order of the whole matrix.
    pub fn column_major(&self) -> Vec<f64> {
        (0..self.n)
            .flat_map(|j| (0..self.n).map(move |i| (i, j)))
            .map(|(i, j)| self.get(i, j))
            .collect()
    }
}

/// SPLASH-2 `InitA`: columns outer, rows inner, `lrand48()/32767.0`, ×10
/// on the diagonal; and `rhs_i = Σ_j A(i, j)` in ascending j.
pub fn input(p: &LuParams) -> (BlockMatrix, Vec<f64>) {
    let mut a = BlockMatrix {
        n: p.n,
        b: p.b,
        data: vec![0.0; p.n * p.n],
    };
    let mut rng = Lrand48::new(1);
    for j in 0..p.n {
        for i in 0..p.n {
            let mut v = f64::from(rng.next_value()) / MAXRAND;
            if i == j {
                v *= 10.0;
            }
            a.set(i, j, v);
        }
    }
    let rhs = (0..p.n)
        .map(|i| (0..p.n).fold(0.0, |s, j| s + a.get(i, j)))
        .collect();
    (a, rhs)
}

/// Step 1: factors the diagonal block `d` into L (lower, with its
/// diagonal) and unit-upper U.
fn factor_diagonal(d: &mut [f64], b: usize) {
    for k in 0..b {
        for j in k + 1..b {
            d[k + j * b] /= d[k + k * b];
            let dkj = d[k + j * b];
            for i in k + 1..b {
                d[i + j * b] -= dkj * d[i + k * b];
            }
        }
    }
}

/// Step 2: a column-perimeter block, `A_IK · U_KK⁻¹`.
fn column_perimeter(a: &mut [f64], d: &[f64], b: usize) {
    for k in 0..b {
        for j in k + 1..b {
            let dkj = d[k + j * b];
            for i in 0..b {
                a[i + j * b] -= dkj * a[i + k * b];
            }
        }
    }
}

/// Step 3: a row-perimeter block, `L_KK⁻¹ · A_KJ`.
fn row_perimeter(a: &mut [f64], d: &[f64], b: usize) {
    for k in 0..b {
        for j in 0..b {
            a[k + j * b] /= d[k + k * b];
            let akj = a[k + j * b];
            for i in k + 1..b {
                a[i + j * b] -= akj * d[i + k * b];
            }
        }
    }
}

/// Step 4: an interior block, `A_IJ − L_IK · U_KJ`, each element's updates
/// in ascending k.
fn interior(a: &mut [f64], l: &[f64], u: &[f64], b: usize) {
    for j in 0..b {
        for k in 0..b {
            let ukj = u[k + j * b];
            for i in 0..b {
                a[i + j * b] -= ukj * l[i + k * b];
            }
        }
    }
}

/// Factors `a` in place, block step by block step as the spec orders it.
pub fn factor(a: &mut BlockMatrix) {
    let (b, nb) = (a.b, a.n / a.b);
    let len = b * b;
    let at = |bi: usize, bj: usize| (bi + bj * nb) * len;
    for bk in 0..nb {
        let kk = at(bk, bk);
        factor_diagonal(&mut a.data[kk..kk + len], b);
        let d = a.data[kk..kk + len].to_vec();
        for bi in bk + 1..nb {
            let s = at(bi, bk);
            column_perimeter(&mut a.data[s..s + len], &d, b);
        }
        for bj in bk + 1..nb {
            let s = at(bk, bj);
            row_perimeter(&mut a.data[s..s + len], &d, b);
        }
        for bj in bk + 1..nb {
            let u = a.data[at(bk, bj)..at(bk, bj) + len].to_vec();
            for bi in bk + 1..nb {
                let l = a.data[at(bi, bk)..at(bi, bk) + len].to_vec();
                let s = at(bi, bj);
                interior(&mut a.data[s..s + len], &l, &u, b);
            }
        }
    }
}

/// The solve check: forward substitution with L (`y_j /= L(j,j)`, then
/// `y_i −= L(i,j)·y_j` for i > j), back substitution with unit U (j
/// descending, `y_i −= U(i,j)·y_j` for i < j), and `max |y_i − 1|`.
pub fn solve_error(lu: &BlockMatrix, rhs: &[f64]) -> f64 {
    let n = lu.n;
    let mut y = rhs.to_vec();
    for j in 0..n {
        y[j] /= lu.get(j, j);
        for i in j + 1..n {
            y[i] -= lu.get(i, j) * y[j];
        }
    }
    for j in (0..n).rev() {
        for i in 0..j {
            y[i] -= lu.get(i, j) * y[j];
        }
    }
    y.iter().fold(0.0, |m: f64, v| m.max((v - 1.0).abs()))
}

/// What a program leaves and prints.
#[derive(Clone, Debug, PartialEq)]
pub struct LuOutputs {
    /// The factored matrix (left in memory, or printed as `matrix`, every
    /// element in column-major order of the whole matrix). `None` when the
    /// program printed none.
    pub matrix: Option<BlockMatrix>,
    /// `solve_error`: `max |y − 1|` of the solve check.
    pub solve_error: f64,
    /// `checksum`: the sum of all entries in column-major order, from +0.
    pub checksum: f64,
}

/// The largest acceptable `solve_error` (the spec's; SPLASH-2 takes 1e-5).
pub const SOLVE_TOLERANCE: f64 = 1e-6;
/// The checksum's tolerance, relative to the sum of the entries'
/// magnitudes: a program that reduces it across tiles adds in another order
/// (our decision; the spec fixes none).
pub const CHECKSUM_TOLERANCE: f64 = 1e-12;

impl LuOutputs {
    /// The outputs of a factored matrix.
    pub fn of(lu: &BlockMatrix, rhs: &[f64]) -> Self {
        LuOutputs {
            matrix: Some(lu.clone()),
            solve_error: solve_error(lu, rhs),
            checksum: lu.column_major().iter().fold(0.0, |s, v| s + v),
        }
    }

    /// Reads `solve_error`, `checksum` and, when printed, `matrix` (n² values
    /// in column-major order).
    pub fn from_printed(printed: &Printed, p: &LuParams) -> Result<Self, String> {
        let matrix = if printed.has("matrix") {
            let values = printed.f64s("matrix")?;
            if values.len() != p.n * p.n {
                return Err(format!(
                    "`matrix` has {} values, not n² = {}",
                    values.len(),
                    p.n * p.n
                ));
            }
            let mut m = BlockMatrix {
                n: p.n,
                b: p.b,
                data: vec![0.0; p.n * p.n],
            };
            for (k, v) in values.into_iter().enumerate() {
                m.set(k % p.n, k / p.n, v);
            }
            Some(m)
        } else {
            None
        };
        Ok(LuOutputs {
            matrix,
            solve_error: printed.f64("solve_error")?,
            checksum: printed.f64("checksum")?,
        })
    }

    /// Compares with the reference: the matrix bit for bit (when there is
    /// one), `solve_error ≤ 1e-6`, the checksum within
    /// [`CHECKSUM_TOLERANCE`] of the entries' magnitudes.
    pub fn check(&self, reference: &Self) -> Report {
        let mut r = Report::default();
        if let (Some(got), Some(want)) = (&self.matrix, &reference.matrix) {
            r.bits_all("matrix", &got.column_major(), &want.column_major());
        }
        if self.solve_error.is_nan() || self.solve_error > SOLVE_TOLERANCE {
            r.differ(format!(
                "solve_error: {:e} is above {SOLVE_TOLERANCE:e}",
                self.solve_error
            ));
        }
        let magnitude = reference
            .matrix
            .as_ref()
            .map(|m| m.data.iter().map(|v| v.abs()).sum())
            .unwrap_or(reference.checksum.abs());
        r.absolute(
            "checksum",
            self.checksum,
            reference.checksum,
            CHECKSUM_TOLERANCE * magnitude,
        );
        r
    }
}

/// The reference results.
pub fn reference(p: &LuParams) -> LuOutputs {
    let (mut a, rhs) = input(p);
    factor(&mut a);
    LuOutputs::of(&a, &rhs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lrand48_of_seed_one_starts_as_the_spec_says() {
        let mut r = Lrand48::new(1);
        let v: Vec<u32> = (0..3).map(|_| r.next_value()).collect();
        assert_eq!(v, [89400484, 976015093, 1792756325]);
    }

    #[test]
    fn the_first_element_is_the_spec_value() {
        let (a, rhs) = input(&LuParams::test());
        assert_eq!(a.get(0, 0), 27283.695181127354);
        assert_eq!(a.get(1, 0), 976015093.0 / 32767.0);
        assert_eq!(a.block(0, 0)[1], a.get(1, 0));
        assert_eq!(a.block(1, 0)[0], a.get(8, 0), "blocks column-major");
        assert_eq!(rhs.len(), 64);
    }

    /// The unblocked right-looking elimination: the spec says any loop
    /// order keeping each element's updates in ascending k gives the same
    /// bits.
    #[test]
    fn the_blocked_factorization_equals_the_unblocked_one_bit_for_bit() {
        for p in [
            LuParams::test(),
            LuParams { n: 24, b: 3 },
            LuParams { n: 16, b: 16 },
        ] {
            let (mut blocked, _) = input(&p);
            let mut plain = blocked.clone();
            factor(&mut blocked);
            let n = p.n;
            for k in 0..n {
                for j in k + 1..n {
                    let v = plain.get(k, j) / plain.get(k, k);
                    plain.set(k, j, v);
                }
                for j in k + 1..n {
                    for i in k + 1..n {
                        let v = plain.get(i, j) - plain.get(k, j) * plain.get(i, k);
                        plain.set(i, j, v);
                    }
                }
            }
            let (b, u) = (blocked.column_major(), plain.column_major());
            assert!(
                b.iter().zip(&u).all(|(x, y)| x.to_bits() == y.to_bits()),
                "{p:?}"
            );
        }
    }

    #[test]
    fn l_times_u_is_a_and_the_solve_recovers_ones() {
        let p = LuParams::test();
        let (a, rhs) = input(&p);
        let out = reference(&p);
        let lu = out.matrix.as_ref().unwrap();
        let n = p.n;
        for i in 0..n {
            for j in 0..n {
                let sum: f64 = (0..=i.min(j))
                    .map(|k| lu.get(i, k) * if k == j { 1.0 } else { lu.get(k, j) })
                    .sum();
                let scale = a.get(i, j).abs().max(1.0);
                assert!((sum - a.get(i, j)).abs() <= 1e-9 * scale, "({i},{j})");
            }
        }
        assert!(out.solve_error < 1e-10, "{}", out.solve_error);
        assert_eq!(solve_error(lu, &rhs), out.solve_error);
    }

    /// The spec measured max |y − 1| = 2e-10 at n = 512.
    #[test]
    fn the_default_size_solves_to_the_measured_error() {
        let out = reference(&LuParams::default());
        assert!(
            (1e-10..4e-10).contains(&out.solve_error),
            "{:e}",
            out.solve_error
        );
    }

    #[test]
    fn printed_outputs_check_bit_for_bit() {
        let p = LuParams { n: 16, b: 4 };
        let want = reference(&p);
        let m = want.matrix.as_ref().unwrap();
        let mut text = format!(
            "solve_error {:?}\nchecksum {:?}\nmatrix",
            want.solve_error, want.checksum
        );
        for v in m.column_major() {
            text += &format!(" {:#018x}", v.to_bits());
        }
        let got = LuOutputs::from_printed(&Printed::parse(&text), &p).unwrap();
        assert!(got.check(&want).is_ok(), "{}", got.check(&want));
        let mut wrong = got.clone();
        let w = wrong.matrix.as_mut().unwrap();
        w.data[5] = f64::from_bits(w.data[5].to_bits() ^ 1);
        wrong.solve_error = 1e-3;
        wrong.checksum += want.checksum.abs() * 1e-6;
        assert_eq!(
            wrong.check(&want).differences.len(),
            3,
            "{}",
            wrong.check(&want)
        );
        let without = Printed::parse("solve_error 1e-12\nchecksum 0");
        assert!(
            LuOutputs::from_printed(&without, &p)
                .unwrap()
                .matrix
                .is_none()
        );
    }
}
