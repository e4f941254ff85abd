//! Synthetic traffic patterns: where a packet from a node goes (BookSim2's
//! definitions on a `W x H` mesh, node = y * W + x).

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// A destination pattern.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    /// Every node, the source included, equally likely.
    Uniform,
    /// (x, y) sends to (y, x); needs a square mesh.
    Transpose,
    /// (x, y) sends to (W - 1 - x, H - 1 - y).
    BitComplement,
    /// With probability `fraction` to `node`, else uniform.
    Hotspot {
        /// The hot node.
        node: u32,
        /// Share of packets that go to it.
        fraction: f64,
    },
    /// (x, y) sends to ((x + 1) mod W, (y + 1) mod H).
    Neighbor,
    /// (x, y) sends to ((x + ceil(W/2) - 1) mod W, (y + ceil(H/2) - 1) mod
    /// H): each coordinate almost halfway round (BookSim2's tornado on a
    /// k-ary mesh, per dimension here so that W and H may differ).
    Tornado,
    /// The node id rotated left by one bit (power-of-two meshes).
    Shuffle,
    /// The node id's bits reversed (power-of-two meshes).
    BitRev,
    /// A fixed random permutation of the nodes, chosen by `seed`.
    RandPerm {
        /// Chooses the permutation.
        seed: u64,
    },
    /// To the next node (id + 1, wrapping) with probability 1/3, else to
    /// itself (BookSim2's diagonal).
    Diagonal,
    /// To `src mod (N/2)` in the lower or the upper half of the ids, each
    /// with probability 1/2 (BookSim2's asymmetric).
    Asymmetric,
}

/// A bijection of `0..n` chosen by `seed`: a 4-round Feistel network over
/// the smallest even number of bits that holds `n`, cycle-walking back into
/// `0..n` (so that the pattern needs no table).
fn permute(seed: u64, x: u32, n: u32) -> u32 {
    let bits = (32 - (n.max(2) - 1).leading_zeros())
        .max(2)
        .next_multiple_of(2);
    let half = bits / 2;
    let mask = (1u32 << half) - 1;
    let round = |r: u64, v: u32| -> u32 {
        // SplitMix64 of (seed, round, half value).
        let mut z = seed ^ (r << 56) ^ v as u64;
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u32 & mask
    };
    let mut v = x;
    loop {
        let (mut l, mut r) = (v >> half, v & mask);
        for k in 0..4 {
            (l, r) = (r, l ^ round(k, r));
        }
        v = (l << half) | r;
        if v < n {
            return v;
        }
    }
}

impl Pattern {
    /// Parses `uniform`, `transpose`, `bitcomp`, `neighbor`, `tornado`,
    /// `shuffle`, `bitrev`, `randperm[:SEED]`, `diagonal`, `asymmetric` or
    /// `hotspot:NODE:FRACTION`.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        Ok(match text {
            "uniform" => Pattern::Uniform,
            "transpose" => Pattern::Transpose,
            "bitcomp" | "bit-complement" => Pattern::BitComplement,
            "neighbor" | "neighbour" => Pattern::Neighbor,
            "tornado" => Pattern::Tornado,
            "shuffle" => Pattern::Shuffle,
            "bitrev" => Pattern::BitRev,
            "randperm" => Pattern::RandPerm { seed: 0 },
            "diagonal" => Pattern::Diagonal,
            "asymmetric" => Pattern::Asymmetric,
            _ => {
                let parts: Vec<&str> = text.split(':').collect();
                match parts.as_slice() {
                    ["randperm", seed] => Pattern::RandPerm {
                        seed: seed.parse().map_err(|_| {
                            format!("`{text}`: the permutation seed `{seed}` is not a number")
                        })?,
                    },
                    ["hotspot", node, fraction] => {
                        let node = node.parse::<u32>().map_err(|_| {
                            format!("`{text}`: the hotspot node `{node}` is not a node number")
                        })?;
                        let fraction = fraction.parse::<f64>().ok().filter(|f| (0.0..=1.0).contains(f)).ok_or_else(|| {
                            format!("`{text}`: the hotspot fraction `{fraction}` is not a number in 0..=1")
                        })?;
                        Pattern::Hotspot { node, fraction }
                    }
                    _ => {
                        return Err(format!(
                            "unknown traffic pattern `{text}` (uniform, transpose, bitcomp, neighbor, tornado, shuffle, bitrev, randperm[:SEED], diagonal, asymmetric, hotspot:NODE:FRACTION)"
                        ));
                    }
                }
            }
        })
    }

    /// Checks the pattern against a mesh.
    pub fn check(&self, width: u32, height: u32) -> Result<(), String> {
        match *self {
            Pattern::Transpose if width != height => Err(format!(
                "transpose traffic needs a square mesh, not {width}x{height}"
            )),
            Pattern::Shuffle | Pattern::BitRev if !(width * height).is_power_of_two() => {
                Err(format!(
                    "{} traffic needs a power-of-two number of nodes, not {width}x{height}",
                    self.name()
                ))
            }
            Pattern::Asymmetric if width * height < 2 => {
                Err("asymmetric traffic needs at least 2 nodes".to_string())
            }
            Pattern::Hotspot { node, .. } if node >= width * height => Err(format!(
                "hotspot node {node} is not on the {width}x{height} mesh (0..={})",
                width * height - 1
            )),
            _ => Ok(()),
        }
    }

    /// The destination of a packet from `src`.
    pub fn destination(&self, src: u32, width: u32, height: u32, rng: &mut Pcg64Mcg) -> u32 {
        let (x, y) = (src % width, src / width);
        let nodes = width * height;
        match *self {
            Pattern::Uniform => rng.random_range(0..nodes),
            Pattern::Transpose => x * width + y,
            Pattern::BitComplement => (height - 1 - y) * width + (width - 1 - x),
            Pattern::Neighbor => ((y + 1) % height) * width + (x + 1) % width,
            Pattern::Tornado => {
                let shift = |c: u32, k: u32| (c + k.div_ceil(2) - 1) % k;
                shift(y, height) * width + shift(x, width)
            }
            Pattern::Shuffle => {
                let shifted = src << 1;
                (shifted & (nodes - 1)) | u32::from(shifted & nodes != 0)
            }
            Pattern::BitRev => {
                let bits = nodes.trailing_zeros();
                if bits == 0 {
                    0
                } else {
                    src.reverse_bits() >> (32 - bits)
                }
            }
            Pattern::RandPerm { seed } => permute(seed, src, nodes),
            Pattern::Diagonal => {
                if rng.random_range(0..3) == 0 {
                    (src + 1) % nodes
                } else {
                    src
                }
            }
            Pattern::Asymmetric => {
                let half = nodes / 2;
                src % half + if rng.random_bool(0.5) { half } else { 0 }
            }
            Pattern::Hotspot { node, fraction } => {
                if rng.random_bool(fraction) {
                    node
                } else {
                    rng.random_range(0..nodes)
                }
            }
        }
    }

    /// Name as parsed.
    pub fn name(&self) -> String {
        match *self {
            Pattern::Uniform => "uniform".into(),
            Pattern::Transpose => "transpose".into(),
            Pattern::BitComplement => "bitcomp".into(),
            Pattern::Neighbor => "neighbor".into(),
            Pattern::Tornado => "tornado".into(),
            Pattern::Shuffle => "shuffle".into(),
            Pattern::BitRev => "bitrev".into(),
            Pattern::RandPerm { seed } => format!("randperm:{seed}"),
            Pattern::Diagonal => "diagonal".into(),
            Pattern::Asymmetric => "asymmetric".into(),
            Pattern::Hotspot { node, fraction } => format!("hotspot:{node}:{fraction}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn permutations_on_8x8() {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let d = |p: Pattern, s: u32, rng: &mut Pcg64Mcg| p.destination(s, 8, 8, rng);
        // (3, 1) = node 11.
        assert_eq!(d(Pattern::Transpose, 11, &mut rng), 8 * 3 + 1);
        assert_eq!(d(Pattern::BitComplement, 11, &mut rng), 6 * 8 + 4);
        assert_eq!(d(Pattern::Neighbor, 63, &mut rng), 0);
        assert_eq!(d(Pattern::Neighbor, 11, &mut rng), 2 * 8 + 4);
        for s in 0..64 {
            let t = d(Pattern::Transpose, s, &mut rng);
            assert_eq!(d(Pattern::Transpose, t, &mut rng), s);
            let b = d(Pattern::BitComplement, s, &mut rng);
            assert_eq!(b, 63 - s, "bit complement of a 6-bit id");
        }
    }

    #[test]
    fn uniform_covers_every_node_and_hotspot_prefers_its_node() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut seen = [0u32; 16];
        for _ in 0..16_000 {
            seen[Pattern::Uniform.destination(5, 4, 4, &mut rng) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        let hot = Pattern::Hotspot {
            node: 3,
            fraction: 0.5,
        };
        let to_hot = (0..10_000)
            .filter(|_| hot.destination(0, 4, 4, &mut rng) == 3)
            .count();
        // 0.5 + 0.5 / 16 of the packets.
        assert!((5000..5600).contains(&to_hot), "{to_hot}");
    }

    #[test]
    fn parse_and_check() {
        assert_eq!(Pattern::parse("bitcomp").unwrap(), Pattern::BitComplement);
        assert_eq!(
            Pattern::parse("hotspot:9:0.25").unwrap(),
            Pattern::Hotspot {
                node: 9,
                fraction: 0.25
            }
        );
        assert!(Pattern::parse("hotspot:x:0.2").unwrap_err().contains("`x`"));
        assert!(Pattern::parse("hotspot:1:2").unwrap_err().contains("0..=1"));
        assert!(Pattern::parse("tornadoes").unwrap_err().contains("uniform"));
        assert_eq!(
            Pattern::parse("randperm:5").unwrap(),
            Pattern::RandPerm { seed: 5 }
        );
        assert!(Pattern::Shuffle.check(3, 2).is_err());
        assert!(Pattern::BitRev.check(4, 2).is_ok());
        assert!(Pattern::Transpose.check(4, 2).is_err());
        assert!(
            Pattern::Hotspot {
                node: 16,
                fraction: 0.1
            }
            .check(4, 4)
            .is_err()
        );
        assert!(Pattern::Uniform.check(3, 5).is_ok());
    }

    /// BookSim2's definitions (traffic.cpp), on 8x8 and 4x2.
    #[test]
    fn booksim2_permutations() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let d = |p: Pattern, s: u32, w, h, rng: &mut Pcg64Mcg| p.destination(s, w, h, rng);
        // Tornado on 8x8: each coordinate + 3 mod 8; (1, 6) -> (4, 1).
        assert_eq!(d(Pattern::Tornado, 6 * 8 + 1, 8, 8, &mut rng), 8 + 4);
        // Shuffle: rotate the 6-bit id left; bit reverse.
        assert_eq!(d(Pattern::Shuffle, 0b100101, 8, 8, &mut rng), 0b001011);
        assert_eq!(d(Pattern::BitRev, 0b100110, 8, 8, &mut rng), 0b011001);
        assert_eq!(d(Pattern::BitRev, 0b001, 4, 2, &mut rng), 0b100);
        for p in [
            Pattern::Tornado,
            Pattern::Shuffle,
            Pattern::BitRev,
            Pattern::RandPerm { seed: 9 },
        ] {
            for (w, h) in [(8, 8), (4, 2), (5, 3)] {
                if p.check(w, h).is_err() {
                    continue;
                }
                let mut seen = vec![false; (w * h) as usize];
                for s in 0..w * h {
                    let t = d(p, s, w, h, &mut rng) as usize;
                    assert!(!seen[t], "{p:?} on {w}x{h} is a permutation");
                    seen[t] = true;
                }
            }
        }
        // Another seed, another permutation.
        let a: Vec<u32> = (0..64).map(|s| permute(1, s, 64)).collect();
        let b: Vec<u32> = (0..64).map(|s| permute(2, s, 64)).collect();
        assert_ne!(a, b);
        // Diagonal: to itself 2/3 of the time, else the next node.
        let next = (0..9000)
            .filter(|_| d(Pattern::Diagonal, 63, 8, 8, &mut rng) == 0)
            .count();
        assert!((2700..3300).contains(&next), "{next}");
        // Asymmetric: src mod 32, in either half.
        let mut halves = [0; 2];
        for _ in 0..1000 {
            let t = d(Pattern::Asymmetric, 45, 8, 8, &mut rng);
            assert_eq!(t % 32, 13);
            halves[(t / 32) as usize] += 1;
        }
        assert!(halves.iter().all(|&n| n > 400), "{halves:?}");
    }
}
