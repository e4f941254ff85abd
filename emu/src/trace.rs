//! The instruction trace: one record per retired instruction (cycle, tile,
//! context, pc, word, disassembly, effects), its filters, and its text form.
//!
//! Records are kept per tile during an epoch and written merged in
//! (cycle, tile) order, so the bytes do not depend on the simulation order.

use std::ops::Range;

use isa_spec::{F_ABI, Inst, X_ABI};

use crate::hart::effects::Effects;
use crate::labels::Labels;

/// The first line of a trace file: the columns of an instruction record.
/// Effects are `reg=value` for a register written, `loadN[addr]` for an
/// N-bit load, `memN[addr]=value` for an N-bit store, `fflags=`/`frm=` for
/// FP state changed, and `taken` for a branch or jump that was taken.
pub const TRACE_HEADER: &str =
    "#    cycle tile ctx       pc: word      instruction                       effects";

/// One retired instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceRecord {
    /// Tile cycle at which it issued.
    pub cycle: u64,
    /// Tile.
    pub tile: u32,
    /// Context.
    pub context: u32,
    /// Address.
    pub pc: u32,
    /// Raw word.
    pub word: u32,
    /// Decoded instruction.
    pub inst: Inst,
    /// What it changed.
    pub effects: Effects,
}

impl TraceRecord {
    /// The trace line (without newline); `labels` name branch and jump
    /// targets (`j 0x10008 <loop>`).
    pub fn line(&self, labels: &Labels) -> String {
        let mut text = self.inst.display(self.pc).to_string();
        if let Some(label) = self.inst.target(self.pc).and_then(|t| labels.describe(t)) {
            text.push(' ');
            text.push_str(&label);
        }
        let mut s = format!(
            "{:>10} t{:<3} c{:<2} {:08x}: {:08x}  {text:<33} ",
            self.cycle, self.tile, self.context, self.pc, self.word,
        );
        let fx = &self.effects;
        let mut parts: Vec<String> = Vec::new();
        if let Some((r, v)) = fx.x {
            parts.push(format!("{}={v:#010x}", X_ABI[r as usize]));
        }
        if let Some((r, v)) = fx.x2 {
            parts.push(format!("{}={v:#010x}", X_ABI[r as usize]));
        }
        if let Some((r, v)) = fx.f {
            parts.push(format!("{}={v:#018x}", F_ABI[r as usize]));
        }
        if let Some((addr, w)) = fx.load {
            parts.push(format!("load{}[{addr:#010x}]", 8 * w));
        }
        if let Some((addr, v, w)) = fx.store {
            let digits = 2 * w as usize;
            parts.push(format!(
                "mem{}[{addr:#010x}]={v:#0width$x}",
                8 * w,
                width = digits + 2
            ));
        }
        if let Some(f) = fx.fflags {
            parts.push(format!("fflags={f:#04x}"));
        }
        if let Some(m) = fx.frm {
            parts.push(format!("frm={m}"));
        }
        if fx.taken {
            parts.push("taken".to_string());
        }
        s.push_str(&parts.join(" "));
        let trimmed = s.trim_end().len();
        s.truncate(trimmed);
        s
    }
}

/// Which records to keep (the default, [`TraceFilter::ALL`]: every one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFilter {
    /// Tiles (None: all).
    pub tiles: Option<Vec<Range<u32>>>,
    /// Contexts (None: all).
    pub contexts: Option<Vec<Range<u32>>>,
    /// Cycle window (None: all).
    pub cycles: Option<Range<u64>>,
    /// Kinds of records (None: all).
    pub kinds: Option<TraceKinds>,
}

/// Kinds of trace records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceKinds {
    /// Retired instructions.
    pub instructions: bool,
    /// Flits injected, forwarded and ejected.
    pub network: bool,
    /// NIU events: table entries, threads created, messages discarded,
    /// contexts woken.
    pub niu: bool,
}

impl TraceKinds {
    /// Parses a list of `inst`, `net`, `niu` (or `all`).
    pub fn parse(text: &str) -> Result<TraceKinds, String> {
        let mut k = TraceKinds::default();
        for part in text.split(',') {
            match part.trim() {
                "inst" | "instructions" => k.instructions = true,
                "net" | "network" => k.network = true,
                "niu" => k.niu = true,
                "all" => {
                    k = TraceKinds {
                        instructions: true,
                        network: true,
                        niu: true,
                    }
                }
                other => {
                    return Err(format!(
                        "`{other}` is not a kind of trace record (inst, net, niu, all)"
                    ));
                }
            }
        }
        Ok(k)
    }
}

fn in_ranges(ranges: &Option<Vec<Range<u32>>>, v: u32) -> bool {
    ranges
        .as_ref()
        .is_none_or(|rs| rs.iter().any(|r| r.contains(&v)))
}

impl Default for TraceFilter {
    fn default() -> Self {
        Self::ALL
    }
}

impl TraceFilter {
    /// The filter that keeps everything, as a constant (what the untraced
    /// runs pass, unread: built once rather than per tile run).
    pub const ALL: TraceFilter = TraceFilter {
        tiles: None,
        contexts: None,
        cycles: None,
        kinds: None,
    };

    /// Whether instruction records are wanted.
    pub fn wants_instructions(&self) -> bool {
        self.kinds.is_none_or(|k| k.instructions)
    }

    /// Whether network (flit) records are wanted.
    pub fn wants_network(&self) -> bool {
        self.kinds.is_none_or(|k| k.network)
    }

    /// Whether NIU records are wanted.
    pub fn wants_niu(&self) -> bool {
        self.kinds.is_none_or(|k| k.niu)
    }

    /// Whether a network or NIU record at `node` and `cycle` passes.
    pub fn wants_event(&self, node: u32, cycle: u64) -> bool {
        self.wants_tile(node) && self.cycles.as_ref().is_none_or(|r| r.contains(&cycle))
    }

    /// Whether any record of `tile` can pass.
    pub fn wants_tile(&self, tile: u32) -> bool {
        in_ranges(&self.tiles, tile)
    }

    /// Whether instruction records of `tile` can pass.
    pub fn wants_tile_instructions(&self, tile: u32) -> bool {
        self.wants_instructions() && self.wants_tile(tile)
    }

    /// Whether a record passes (the tile was checked already).
    #[inline]
    pub fn wants(&self, context: u32, cycle: u64) -> bool {
        in_ranges(&self.contexts, context)
            && self.cycles.as_ref().is_none_or(|r| r.contains(&cycle))
    }

    /// Parses a list like `0,3-5,7` (inclusive ranges) into half-open ranges.
    pub fn parse_list(text: &str) -> Result<Vec<Range<u32>>, String> {
        text.split(',')
            .map(|part| {
                let part = part.trim();
                let (a, b) = match part.split_once('-') {
                    Some((a, b)) => (a.trim(), b.trim()),
                    None => (part, part),
                };
                let a: u32 = parse_number(a, part, "a number or a range like 2-5")?;
                let b: u32 = parse_number(b, part, "a number or a range like 2-5")?;
                if b < a {
                    return Err(format!("`{part}`: the range is empty"));
                }
                Ok(a..b + 1)
            })
            .collect()
    }

    /// Parses a cycle window `A..B` (half open), `A..` or `..B`.
    pub fn parse_cycles(text: &str) -> Result<Range<u64>, String> {
        let (a, b) = text
            .split_once("..")
            .ok_or_else(|| format!("`{text}` is not a cycle window like 100..200"))?;
        let num = |s: &str, default: u64| -> Result<u64, String> {
            if s.trim().is_empty() {
                Ok(default)
            } else {
                parse_number(s.trim(), text, "a cycle window like 100..200")
            }
        };
        let window = num(a, 0)?..num(b, u64::MAX)?;
        if window.is_empty() {
            return Err(format!("`{text}`: the window is empty (A..B needs A < B)"));
        }
        Ok(window)
    }
}

/// A decimal number of type `T` from `digits`, part of `whole`; the error
/// says whether it is no number or one too large.
fn parse_number<T: std::str::FromStr<Err = std::num::ParseIntError>>(
    digits: &str,
    whole: &str,
    expected: &str,
) -> Result<T, String> {
    digits.parse().map_err(|e: std::num::ParseIntError| {
        use std::num::IntErrorKind::PosOverflow;
        if *e.kind() == PosOverflow {
            format!("`{digits}` in `{whole}` is too large")
        } else {
            format!("`{whole}` is not {expected}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_spec::Opcode;

    #[test]
    fn line_format() {
        let mut inst = Inst::new(Opcode::Addi);
        inst.rd = 10;
        inst.imm = 42;
        let r = TraceRecord {
            cycle: 7,
            tile: 1,
            context: 2,
            pc: 0x10000,
            word: inst.encode().unwrap(),
            inst,
            effects: Effects {
                x: Some((10, 42)),
                ..Effects::default()
            },
        };
        let labels: Labels = [(0x10000, "loop".to_string())].into_iter().collect();
        assert_eq!(
            r.line(&labels),
            "         7 t1   c2  00010000: 02a00513  li a0, 42                         a0=0x0000002a"
        );
        // A taken branch back to a label, and one beyond it.
        let mut branch = Inst::new(Opcode::Bne);
        branch.rs1 = 10;
        branch.imm = -8;
        let taken = TraceRecord {
            pc: 0x10008,
            word: branch.encode().unwrap(),
            inst: branch,
            effects: Effects {
                taken: true,
                ..Effects::default()
            },
            ..r
        };
        assert_eq!(
            taken.line(&labels),
            "         7 t1   c2  00010008: fe051ce3  bnez a0, 0x10000 <loop>           taken"
        );
        let later = TraceRecord {
            pc: 0x1000c,
            ..taken
        };
        assert_eq!(
            later.line(&labels),
            "         7 t1   c2  0001000c: fe051ce3  bnez a0, 0x10004 <loop+0x4>       taken"
        );
        // Text longer than the column keeps a space before the effects.
        let mut fma = Inst::new(Opcode::FmaddD);
        (fma.rd, fma.rs1, fma.rs2, fma.rs3, fma.aux) = (30, 31, 26, 27, 4);
        let wide = TraceRecord {
            word: fma.encode().unwrap(),
            inst: fma,
            effects: Effects {
                f: Some((30, 0)),
                ..Effects::default()
            },
            ..r
        };
        assert!(
            wide.line(&Labels::default())
                .ends_with("fmadd.d ft10, ft11, fs10, fs11, rmm ft10=0x0000000000000000"),
            "{}",
            wide.line(&Labels::default())
        );
    }

    #[test]
    fn filters_parse() {
        assert_eq!(TraceFilter::parse_list("0,3-5").unwrap(), vec![0..1, 3..6]);
        assert!(TraceFilter::parse_list("5-3").is_err());
        assert!(TraceFilter::parse_list("x").is_err());
        assert_eq!(TraceFilter::parse_cycles("10..20").unwrap(), 10..20);
        assert_eq!(TraceFilter::parse_cycles("..20").unwrap(), 0..20);
        let f = TraceFilter {
            contexts: Some(TraceFilter::parse_list("1").unwrap()),
            cycles: Some(5..10),
            ..TraceFilter::default()
        };
        assert!(f.wants(1, 5) && !f.wants(0, 5) && !f.wants(1, 10));
    }
}
