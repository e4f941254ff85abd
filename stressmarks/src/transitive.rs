//! Transitive Closure (spec section 4): Floyd–Warshall on a random graph of
//! u32 weights, `NO_PATH` (2³¹ − 1) standing for infinity.

use crate::check::Report;
use crate::params::{self, Params, in_range};
use crate::printed::Printed;
use crate::rng::Ran1;

/// No edge: large enough to act as infinity, small enough that two add
/// without overflowing a u32.
pub const NO_PATH: u32 = 0x7FFF_FFFF;

/// Parameters (spec table: defaults here, [`TransitiveParams::test`] for CI).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransitiveParams {
    /// Generator seed.
    pub seed: i32,
    /// Vertices.
    pub n: usize,
    /// Edges drawn (a later draw of the same edge overwrites it).
    pub m: usize,
    /// The largest weight.
    pub wmax: i32,
}

impl Default for TransitiveParams {
    fn default() -> Self {
        TransitiveParams {
            seed: -1,
            n: 500,
            m: 2500,
            wmax: 255,
        }
    }
}

impl TransitiveParams {
    /// The spec's test size.
    pub fn test() -> Self {
        TransitiveParams {
            n: 40,
            m: 100,
            ..Self::default()
        }
    }
}

impl Params for TransitiveParams {
    const NAMES: &'static [&'static str] = &["seed", "n", "m", "wmax"];

    fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        match name {
            "seed" => self.seed = params::seed(value)?,
            "n" => self.n = in_range(name, value, 8, 16384)? as usize,
            "m" => self.m = in_range(name, value, 0, 16384 * 16384)? as usize,
            "wmax" => self.wmax = in_range(name, value, 0, 255)? as i32,
            _ => return Err(params::unknown::<Self>("transitive", name)),
        }
        Ok(())
    }

    fn assignments(&self) -> Vec<(String, i64)> {
        params::named([
            ("seed", self.seed.into()),
            ("n", self.n as i64),
            ("m", self.m as i64),
            ("wmax", self.wmax.into()),
        ])
    }

    fn validate(&self) -> Result<(), String> {
        in_range("m", self.m as i64, 0, (self.n * self.n) as i64).map(|_| ())
    }
}

/// The distance matrix the generator makes, row-major: `m` draws of
/// `a, b, w`, each setting `D[b][a] = w`.
pub fn input(p: &TransitiveParams) -> Vec<u32> {
    let n = p.n;
    let mut d = vec![NO_PATH; n * n];
    let mut g = Ran1::init(p.seed);
    let last = n as i32 - 1;
    for _ in 0..p.m {
        let a = g.rand_int(0, last) as usize;
        let b = g.rand_int(0, last) as usize;
        let w = g.rand_int(0, p.wmax) as u32;
        d[b * n + a] = w;
    }
    d
}

/// Floyd–Warshall in place. With non-negative weights row k and column k
/// do not change during step k, so in place equals double-buffered.
pub fn closure(d: &mut [u32], n: usize) {
    for k in 0..n {
        let row_k: Vec<u32> = d[k * n..(k + 1) * n].to_vec();
        for row in d.chunks_exact_mut(n) {
            let dik = row[k];
            for (dij, &dkj) in row.iter_mut().zip(&row_k) {
                *dij = (*dij).min(dik + dkj);
            }
        }
    }
}

/// What the program prints: the u32 wrapping sums of each row's and each
/// column's entries other than `NO_PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransitiveOutputs {
    /// `row_sums`: one per row.
    pub row_sums: Vec<u32>,
    /// `col_sums`: one per column.
    pub col_sums: Vec<u32>,
}

impl TransitiveOutputs {
    /// The sums of a closed distance matrix.
    pub fn of(d: &[u32], n: usize) -> Self {
        let mut row_sums = vec![0u32; n];
        let mut col_sums = vec![0u32; n];
        for (i, row) in d.chunks_exact(n).enumerate() {
            for (j, &v) in row.iter().enumerate() {
                if v != NO_PATH {
                    row_sums[i] = row_sums[i].wrapping_add(v);
                    col_sums[j] = col_sums[j].wrapping_add(v);
                }
            }
        }
        TransitiveOutputs { row_sums, col_sums }
    }

    /// Reads `row_sums` and `col_sums` from a program's output.
    pub fn from_printed(printed: &Printed) -> Result<Self, String> {
        Ok(TransitiveOutputs {
            row_sums: printed.u32s("row_sums")?,
            col_sums: printed.u32s("col_sums")?,
        })
    }

    /// Compares with the reference: every sum exactly.
    pub fn check(&self, reference: &Self) -> Report {
        let mut r = Report::default();
        r.exact_all("row_sums", &self.row_sums, &reference.row_sums);
        r.exact_all("col_sums", &self.col_sums, &reference.col_sums);
        r
    }
}

/// The reference results.
pub fn reference(p: &TransitiveParams) -> TransitiveOutputs {
    let mut d = input(p);
    closure(&mut d, p.n);
    TransitiveOutputs::of(&d, p.n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shortest paths by Bellman–Ford from every source, as a second opinion.
    fn bellman_ford(d: &[u32], n: usize) -> Vec<u32> {
        let mut out = vec![NO_PATH; n * n];
        for s in 0..n {
            let dist = &mut out[s * n..(s + 1) * n];
            dist.copy_from_slice(&d[s * n..(s + 1) * n]);
            for _ in 0..n {
                for u in 0..n {
                    if dist[u] == NO_PATH {
                        continue;
                    }
                    for v in 0..n {
                        let w = d[u * n + v];
                        if w != NO_PATH && dist[u] + w < dist[v] {
                            dist[v] = dist[u] + w;
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_closure_is_the_shortest_paths() {
        let p = TransitiveParams::test();
        let d = input(&p);
        let mut closed = d.clone();
        closure(&mut closed, p.n);
        assert_eq!(closed, bellman_ford(&d, p.n));
        assert!(
            closed.iter().any(|&v| v != NO_PATH && v > 255),
            "paths of several edges"
        );
    }

    #[test]
    fn the_input_draws_m_edges_of_weight_up_to_wmax() {
        let p = TransitiveParams::test();
        let d = input(&p);
        let edges = d.iter().filter(|&&v| v != NO_PATH).count();
        // Repeated (a, b) draws overwrite: at most m, nearly m on 1600 cells.
        assert!((90..=100).contains(&edges), "{edges}");
        assert!(d.iter().all(|&v| v == NO_PATH || v <= 255));
    }

    #[test]
    fn the_first_edge_is_the_generators_first_three_draws() {
        let p = TransitiveParams::test();
        let mut g = Ran1::init(-1);
        let (a, b) = (g.rand_int(0, 39) as usize, g.rand_int(0, 39) as usize);
        let w = g.rand_int(0, 255) as u32;
        let d = input(&TransitiveParams { m: 1, ..p });
        assert_eq!(d[b * 40 + a], w);
        assert_eq!(d.iter().filter(|&&v| v != NO_PATH).count(), 1);
    }

    #[test]
    fn outputs_read_back_from_print_and_check_exactly() {
        let p = TransitiveParams::test();
        let want = reference(&p);
        let mut text = String::from("row_sums");
        for v in &want.row_sums {
            text += &format!(" {}", *v as i32);
        }
        text += "\ncol_sums";
        for v in &want.col_sums {
            text += &format!(" {v:#x}");
        }
        let got = TransitiveOutputs::from_printed(&Printed::parse(&text)).unwrap();
        assert!(got.check(&want).is_ok());
        let mut wrong = got.clone();
        wrong.col_sums[3] += 1;
        let report = wrong.check(&want);
        assert_eq!(report.differences.len(), 1, "{report}");
    }

    #[test]
    fn parameters_are_set_by_name_within_the_spec_ranges() {
        let p = TransitiveParams::with(&[("n".into(), 64), ("m".into(), 10)]).unwrap();
        assert_eq!((p.n, p.m, p.wmax), (64, 10, 255));
        assert!(
            TransitiveParams::with(&[("n".into(), 4)])
                .unwrap_err()
                .contains("n = 4")
        );
        assert!(
            TransitiveParams::with(&[("k".into(), 4)])
                .unwrap_err()
                .contains("no parameter `k`")
        );
        assert!(TransitiveParams::with(&[("n".into(), 8), ("m".into(), 65)]).is_err());
        assert!(TransitiveParams::with(&[("seed".into(), 0)]).is_err());
    }
}
