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
}

impl Pattern {
    /// Parses `uniform`, `transpose`, `bitcomp`, `neighbor` or
    /// `hotspot:NODE:FRACTION`.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        Ok(match text {
            "uniform" => Pattern::Uniform,
            "transpose" => Pattern::Transpose,
            "bitcomp" | "bit-complement" => Pattern::BitComplement,
            "neighbor" | "neighbour" => Pattern::Neighbor,
            _ => {
                let parts: Vec<&str> = text.split(':').collect();
                match parts.as_slice() {
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
                            "unknown traffic pattern `{text}` (uniform, transpose, bitcomp, neighbor, hotspot:NODE:FRACTION)"
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
        assert!(Pattern::parse("tornado").unwrap_err().contains("uniform"));
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
}
