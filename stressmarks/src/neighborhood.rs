//! Neighborhood (spec section 2): the GLCM sum and difference histograms of
//! a random image of thick shaded lines, and each pair class's entropy and
//! energy.

use crate::check::Report;
use crate::params::{self, Params, in_range};
use crate::printed::Printed;
use crate::rng::Ran1;

/// Parameters (spec table: defaults here, [`NeighborhoodParams::test`] for
/// CI; the thesis ran `bits` 7, 11 and 15).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeighborhoodParams {
    /// Generator seed.
    pub seed: i32,
    /// Pixel width in bits.
    pub bits: u32,
    /// Image side (even).
    pub dim: usize,
    /// Line segments drawn.
    pub lines: u32,
    /// Smallest line thickness.
    pub tmin: i32,
    /// Largest line thickness.
    pub tmax: i32,
    /// Short pair distance.
    pub ds: usize,
    /// Long pair distance.
    pub dl: usize,
}

impl Default for NeighborhoodParams {
    fn default() -> Self {
        NeighborhoodParams {
            seed: -1,
            bits: 11,
            dim: 1536,
            lines: 256,
            tmin: 8,
            tmax: 64,
            ds: 4,
            dl: 16,
        }
    }
}

impl NeighborhoodParams {
    /// The spec's test size.
    pub fn test() -> Self {
        NeighborhoodParams {
            seed: -1,
            bits: 7,
            dim: 64,
            lines: 8,
            tmin: 2,
            tmax: 8,
            ds: 2,
            dl: 8,
        }
    }

    /// The largest pixel value, `2^bits − 1`.
    pub fn max_pixel(&self) -> u32 {
        (1 << self.bits) - 1
    }

    /// Bins of each histogram, `2^(bits+1) − 1`.
    pub fn bins(&self) -> usize {
        (1 << (self.bits + 1)) - 1
    }

    /// The pair classes `(dx, dy)`, in output order: 0°, 45°, 90°, 135° at
    /// the short distance, then at the long one.
    pub fn classes(&self) -> [(i64, i64); CLASSES] {
        let (s, l) = (self.ds as i64, self.dl as i64);
        [
            (s, 0),
            (s, s),
            (0, s),
            (-s, s),
            (l, 0),
            (l, l),
            (0, l),
            (-l, l),
        ]
    }
}

/// Pair classes.
pub const CLASSES: usize = 8;

impl Params for NeighborhoodParams {
    const NAMES: &'static [&'static str] =
        &["seed", "bits", "dim", "lines", "tmin", "tmax", "ds", "dl"];

    fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        match name {
            "seed" => self.seed = params::seed(value)?,
            "bits" => self.bits = in_range(name, value, 7, 15)? as u32,
            "dim" => self.dim = in_range(name, value, 2, 4096)? as usize,
            "lines" => self.lines = in_range(name, value, 1, 65536)? as u32,
            "tmin" => self.tmin = in_range(name, value, 1, 4095)? as i32,
            "tmax" => self.tmax = in_range(name, value, 1, 4095)? as i32,
            "ds" => self.ds = in_range(name, value, 1, 4095)? as usize,
            "dl" => self.dl = in_range(name, value, 1, 4095)? as usize,
            _ => return Err(params::unknown::<Self>("neighborhood", name)),
        }
        Ok(())
    }

    fn assignments(&self) -> Vec<(String, i64)> {
        params::named([
            ("seed", self.seed.into()),
            ("bits", self.bits.into()),
            ("dim", self.dim as i64),
            ("lines", self.lines.into()),
            ("tmin", self.tmin.into()),
            ("tmax", self.tmax.into()),
            ("ds", self.ds as i64),
            ("dl", self.dl as i64),
        ])
    }

    fn validate(&self) -> Result<(), String> {
        let dim = self.dim as i64;
        if !self.dim.is_multiple_of(2) {
            return Err(format!("dim = {} is not even", self.dim));
        }
        if !(1 <= self.tmin && self.tmin <= self.tmax && i64::from(self.tmax) < dim) {
            return Err(format!(
                "thickness needs 1 <= tmin <= tmax < dim: tmin = {}, tmax = {}, dim = {dim}",
                self.tmin, self.tmax
            ));
        }
        for (name, d) in [("ds", self.ds), ("dl", self.dl)] {
            in_range(name, d as i64, 1, dim - 1)?;
        }
        Ok(())
    }
}

/// The image, row-major, 16-bit pixels.
pub fn input(p: &NeighborhoodParams) -> Vec<u16> {
    let dim = p.dim as i64;
    let mut image = vec![0u16; p.dim * p.dim];
    let mut g = Ran1::init(p.seed);
    let last_cell = (dim * dim - 1) as i32;
    let max_pixel = p.max_pixel() as i32;
    for _ in 0..p.lines {
        let start = g.rand_int(0, last_cell);
        let mut end = g.rand_int(0, last_cell);
        while end == start {
            end = g.rand_int(0, last_cell);
        }
        let t = g.rand_int(p.tmin, p.tmax);
        let v0 = g.rand_int(0, max_pixel);
        let v1 = g.rand_int(0, max_pixel);
        let line = Line {
            from: (i64::from(start) / dim, i64::from(start) % dim),
            to: (i64::from(end) / dim, i64::from(end) % dim),
            thickness: i64::from(t),
            shades: (v0, v1),
        };
        line.draw(&mut image, dim);
    }
    image
}

/// A segment: (row, column) ends, thickness, shades at the ends.
struct Line {
    from: (i64, i64),
    to: (i64, i64),
    thickness: i64,
    shades: (i32, i32),
}

impl Line {
    /// Thick Bresenham along the longer axis (columns when `|dc| > |dr|`,
    /// rows otherwise, ties included), the shade stepped linearly in f32,
    /// each step painting `thickness` pixels across, clipped to the image.
    fn draw(&self, image: &mut [u16], dim: i64) {
        let (dr, dc) = (self.to.0 - self.from.0, self.to.1 - self.from.1);
        let along_columns = dc.abs() > dr.abs();
        // (main, cross) coordinates: the main axis steps every time.
        let (main0, cross0, d_main, d_cross) = if along_columns {
            (self.from.1, self.from.0, dc, dr)
        } else {
            (self.from.0, self.from.1, dr, dc)
        };
        let sgn = |v: i64| if v < 0 { -1 } else { 1 };
        let (long, short) = (d_main.abs(), d_cross.abs());
        let inc = (self.shades.1 as f32 - self.shades.0 as f32) / long as f32;
        let mut val = self.shades.0 as f32;
        let mut e = 2 * short - long;
        let mut cross = cross0;
        let half = self.thickness / 2;
        for step in 0..=long {
            let main = main0 + step * sgn(d_main);
            // Saturating, as fcvt.wu.s: a shade a rounding below 0 is 0.
            let shade = val as u16;
            let across = (cross - half).max(0)..(cross + self.thickness - half).min(dim);
            for other in across {
                let (r, c) = if along_columns {
                    (other, main)
                } else {
                    (main, other)
                };
                image[(r * dim + c) as usize] = shade;
            }
            val += inc;
            if e >= 0 {
                cross += sgn(d_cross);
                e -= 2 * long;
            }
            e += 2 * short;
        }
    }
}

/// One class's histograms.
struct Histograms {
    sum: Vec<u32>,
    diff: Vec<u32>,
    pairs: u64,
}

/// Counts the pairs `(I[r][c], I[r+dy][c+dx])` of a class.
fn histograms(image: &[u16], p: &NeighborhoodParams, (dx, dy): (i64, i64)) -> Histograms {
    let dim = p.dim as i64;
    let max_pixel = p.max_pixel() as usize;
    let mut sum = vec![0u32; p.bins()];
    let mut diff = vec![0u32; p.bins()];
    let columns = if dx >= 0 { 0..dim - dx } else { -dx..dim };
    for r in 0..dim - dy {
        let row = &image[(r * dim) as usize..((r + 1) * dim) as usize];
        let partner = &image[((r + dy) * dim) as usize..((r + dy + 1) * dim) as usize];
        for c in columns.clone() {
            let g = row[c as usize] as usize;
            let h = partner[(c + dx) as usize] as usize;
            sum[g + h] += 1;
            diff[g + max_pixel - h] += 1;
        }
    }
    let pairs = ((dim - dy.abs()) * (dim - dx.abs())) as u64;
    Histograms { sum, diff, pairs }
}

/// `Σ (i + 1)·count[i] mod 2³²`, the debug checksum of a histogram.
fn histogram_check(counts: &[u32]) -> u32 {
    counts.iter().enumerate().fold(0u32, |s, (i, &c)| {
        s.wrapping_add((i as u32 + 1).wrapping_mul(c))
    })
}

/// What the program prints: per class (in [`NeighborhoodParams::classes`]
/// order) the entropy and the energy, and the exact debug values.
#[derive(Clone, Debug, PartialEq)]
pub struct NeighborhoodOutputs {
    /// `entropy`: `f32(H)`, 8 values.
    pub entropy: Vec<f32>,
    /// `energy`: `f32(Es·Ed)`, 8 values.
    pub energy: Vec<f32>,
    /// `pairs`: N per class (debug; `None` when not printed).
    pub pairs: Option<Vec<u32>>,
    /// `sum_check`: the sum histogram's checksum per class (debug).
    pub sum_check: Option<Vec<u32>>,
    /// `diff_check`: the difference histogram's checksum per class (debug).
    pub diff_check: Option<Vec<u32>>,
}

/// Tolerance of entropy and energy, relative (`ln` is software on RV32G).
pub const TOLERANCE: f64 = 1e-6;

/// Entropy and energy of a class, bins ascending, the sum bin before the
/// difference bin.
fn texture(h: &Histograms) -> (f32, f32) {
    let scale = 1.0 / h.pairs as f64;
    let (mut entropy, mut es, mut ed) = (0.0f64, 0.0f64, 0.0f64);
    for (&s_count, &d_count) in h.sum.iter().zip(&h.diff) {
        if s_count > 0 {
            let s = f64::from(s_count) * scale;
            entropy -= s * s.ln();
            es += s * s;
        }
        if d_count > 0 {
            let s = f64::from(d_count) * scale;
            entropy -= s * s.ln();
            ed += s * s;
        }
    }
    (entropy as f32, (es * ed) as f32)
}

/// The results of an image.
pub fn compute(image: &[u16], p: &NeighborhoodParams) -> NeighborhoodOutputs {
    let mut out = NeighborhoodOutputs {
        entropy: Vec::new(),
        energy: Vec::new(),
        pairs: Some(Vec::new()),
        sum_check: Some(Vec::new()),
        diff_check: Some(Vec::new()),
    };
    for class in p.classes() {
        let h = histograms(image, p, class);
        let (entropy, energy) = texture(&h);
        out.entropy.push(entropy);
        out.energy.push(energy);
        for (list, v) in [
            (&mut out.pairs, h.pairs as u32),
            (&mut out.sum_check, histogram_check(&h.sum)),
            (&mut out.diff_check, histogram_check(&h.diff)),
        ] {
            list.as_mut().expect("filled here").push(v);
        }
    }
    out
}

impl NeighborhoodOutputs {
    /// Reads `entropy`, `energy` and the debug values that were printed.
    pub fn from_printed(printed: &Printed) -> Result<Self, String> {
        let optional = |name: &str| printed.has(name).then(|| printed.u32s(name)).transpose();
        Ok(NeighborhoodOutputs {
            entropy: printed.f32s("entropy")?,
            energy: printed.f32s("energy")?,
            pairs: optional("pairs")?,
            sum_check: optional("sum_check")?,
            diff_check: optional("diff_check")?,
        })
    }

    /// Compares with the reference: entropy and energy within
    /// [`TOLERANCE`], the debug values (those printed) exactly.
    pub fn check(&self, reference: &Self) -> Report {
        let mut r = Report::default();
        for (name, got, want) in [
            ("entropy", &self.entropy, &reference.entropy),
            ("energy", &self.energy, &reference.energy),
        ] {
            if got.len() != want.len() {
                r.differ(format!(
                    "{name}: got {} values, expected {}",
                    got.len(),
                    want.len()
                ));
                continue;
            }
            for (i, (g, w)) in got.iter().zip(want).enumerate() {
                r.relative(
                    &format!("{name}[{i}]"),
                    f64::from(*g),
                    f64::from(*w),
                    TOLERANCE,
                );
            }
        }
        for (name, got, want) in [
            ("pairs", &self.pairs, &reference.pairs),
            ("sum_check", &self.sum_check, &reference.sum_check),
            ("diff_check", &self.diff_check, &reference.diff_check),
        ] {
            if let (Some(got), Some(want)) = (got, want) {
                r.exact_all(name, got, want);
            }
        }
        r
    }
}

/// The reference results.
pub fn reference(p: &NeighborhoodParams) -> NeighborhoodOutputs {
    compute(&input(p), p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_horizontal_line_is_shaded_linearly_and_thick() {
        let dim = 16;
        let mut image = vec![0u16; dim * dim];
        Line {
            from: (5, 2),
            to: (5, 12),
            thickness: 3,
            shades: (0, 100),
        }
        .draw(&mut image, dim as i64);
        let row = |r: usize| &image[r * dim..(r + 1) * dim];
        assert_eq!(row(5)[2], 0);
        assert_eq!(row(5)[12], 100);
        assert_eq!(row(5)[7], 50);
        // t = 3: rows r-1 ..= r+1.
        assert_eq!(row(4), row(5));
        assert_eq!(row(6), row(5));
        assert!(row(3).iter().chain(row(7)).all(|&v| v == 0));
        assert_eq!(row(5)[1], 0);
        assert_eq!(row(5)[13], 0);
    }

    #[test]
    fn a_steep_line_walks_rows_and_clips_at_the_edge() {
        let dim = 8i64;
        let mut image = vec![0u16; 64];
        // Up and to the left, columns 1..0, rows 7..0: the row walk; t = 4
        // paints columns c-2 ..= c+1, clipped at column 0.
        Line {
            from: (7, 1),
            to: (0, 0),
            thickness: 4,
            shades: (70, 0),
        }
        .draw(&mut image, dim);
        assert_eq!(image[7 * 8], 70);
        assert_eq!(image[7 * 8 + 2], 70);
        assert_eq!(image[7 * 8 + 3], 0);
        assert_eq!(image[0], 0);
        // Every row got painted.
        assert!((1..7).all(|r| image[r * 8] > 0), "{image:?}");
    }

    #[test]
    fn the_test_image_has_lines_of_the_drawn_shades() {
        let p = NeighborhoodParams::test();
        let image = input(&p);
        let painted = image.iter().filter(|&&v| v > 0).count();
        assert!(painted > 200, "{painted} of 4096 painted");
        assert!(image.iter().all(|&v| u32::from(v) <= p.max_pixel()));
    }

    #[test]
    fn histograms_count_every_pair_once() {
        let p = NeighborhoodParams::test();
        let image = input(&p);
        for class in p.classes() {
            let h = histograms(&image, &p, class);
            let n: u64 = h.sum.iter().map(|&c| u64::from(c)).sum();
            assert_eq!(n, h.pairs, "{class:?}");
            assert_eq!(h.diff.iter().map(|&c| u64::from(c)).sum::<u64>(), h.pairs);
        }
        // A blank image: every pair is (0, 0), entropy 0 and energy 1 (up
        // to N·(1/N) rounding below 1).
        let blank = compute(&vec![0; 64 * 64], &p);
        assert!(
            blank.entropy.iter().all(|&e| e.abs() < 1e-12),
            "{:?}",
            blank.entropy
        );
        assert!(
            blank.energy.iter().all(|&e| (e - 1.0).abs() < 1e-6),
            "{:?}",
            blank.energy
        );
    }

    /// The spec: the default image is 84% non-zero, and a tile counts
    /// about 18.7 M pairs.
    #[test]
    fn the_default_image_is_84_percent_painted_with_18_7_m_pairs() {
        let p = NeighborhoodParams::default();
        let image = input(&p);
        let painted = image.iter().filter(|&&v| v > 0).count() as f64 / image.len() as f64;
        assert!((0.835..0.845).contains(&painted), "{painted}");
        let pairs: u64 = p
            .classes()
            .iter()
            .map(|&(dx, dy)| ((1536 - dx.abs()) * (1536 - dy)) as u64)
            .sum();
        assert!((18_650_000..18_750_000).contains(&pairs), "{pairs}");
        let out = compute(&image, &p);
        assert_eq!(
            out.pairs
                .unwrap()
                .iter()
                .map(|&n| u64::from(n))
                .sum::<u64>(),
            pairs
        );
    }

    #[test]
    fn outputs_are_in_range_and_classes_differ() {
        let out = reference(&NeighborhoodParams::test());
        assert_eq!(out.entropy.len(), CLASSES);
        // At most ln(bins) per histogram, so at most 2 ln(255) in all.
        assert!(
            out.entropy
                .iter()
                .all(|&e| e > 0.0 && e < 2.0 * 255f32.ln())
        );
        assert!(out.energy.iter().all(|&e| e > 0.0 && e < 1.0));
        assert_ne!(out.entropy[0], out.entropy[4]);
        assert_eq!(out.pairs.as_ref().unwrap()[0], 64 * 62);
        assert_eq!(out.pairs.as_ref().unwrap()[5], 56 * 56);
    }

    #[test]
    fn printed_outputs_check_within_tolerance() {
        let want = reference(&NeighborhoodParams::test());
        let mut text = String::from("entropy");
        for v in &want.entropy {
            text += &format!(" {:?}", f64::from(*v));
        }
        text += "\nenergy";
        for v in &want.energy {
            text += &format!(" {:#010x}", v.to_bits() + 1);
        }
        text += "\nsum_check";
        for v in want.sum_check.as_ref().unwrap() {
            text += &format!(" {v}");
        }
        let got = NeighborhoodOutputs::from_printed(&Printed::parse(&text)).unwrap();
        assert!(
            got.check(&want).is_ok(),
            "one ulp is within 1e-6: {}",
            got.check(&want)
        );
        let mut wrong = got.clone();
        wrong.energy[2] *= 1.00001;
        wrong.sum_check.as_mut().unwrap()[0] ^= 1;
        assert_eq!(
            wrong.check(&want).differences.len(),
            2,
            "{}",
            wrong.check(&want)
        );
    }

    #[test]
    fn thickness_and_distances_are_checked_against_dim() {
        let p =
            NeighborhoodParams::with(&[("dim".into(), 32), ("tmax".into(), 16), ("dl".into(), 32)]);
        assert!(p.unwrap_err().contains("dl = 32"));
        let p = NeighborhoodParams::with(&[("tmin".into(), 65)]);
        assert!(p.unwrap_err().contains("tmin <= tmax"));
        assert!(NeighborhoodParams::with(&[("dim".into(), 63)]).is_err());
        let p = NeighborhoodParams::with(&[("bits".into(), 15)]).unwrap();
        assert_eq!((p.max_pixel(), p.bins()), (32767, 65535));
    }
}
