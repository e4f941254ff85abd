//! The predecoded text: every word of the executable segments decoded once,
//! with its cycle cost, so the interpreter never decodes in its loop.
//!
//! Two parallel tables: [`Decoded`] (the instruction as the ISA defines it,
//! for the general interpreter, traces and faults) and [`Fast`] (the same
//! word prepared for the untraced fast loop of `crate::hart::fast`: specialised
//! operation, registers, immediate or branch target, cycles).
//!
//! All tiles load the same image, so they share the tables (an `Arc`); a
//! tile that stores into its text gets its own copy (copy on write) with the
//! written words decoded again.

mod fast_entry;
mod fast_op;

use std::sync::Arc;

use isa_spec::Inst;

pub use fast_entry::{Fast, fast_step};
pub(crate) use fast_op::for_each_fast_op;
pub use fast_op::{FastOp, Form, Reg, StopKind};

use crate::hart::timing::CostTable;

/// One predecoded word.
#[derive(Clone, Copy, Debug)]
pub struct Decoded {
    /// The instruction, or `None` for a word that is none.
    pub inst: Option<Inst>,
    /// The raw word.
    pub word: u32,
    /// Cycles (for a branch: when not taken).
    pub cost: u32,
}

impl Decoded {
    /// Decodes `word`.
    pub fn new(word: u32, costs: &CostTable) -> Decoded {
        let inst = Inst::decode(word);
        Decoded {
            inst,
            word,
            cost: inst.map(|i| costs.cost(i.op)).unwrap_or(1),
        }
    }
}

/// The predecoded words of `base..base + 4 * len`.
#[derive(Clone, Debug)]
pub struct DecodedText {
    /// Address of the first word.
    pub base: u32,
    /// The words.
    pub words: Arc<Vec<Decoded>>,
    /// The same words for the fast loop, and after them one
    /// [`FastOp::Slow`] entry, so that the loop needs no check for running
    /// off the end.
    pub(crate) fast: Arc<Vec<Fast>>,
}

impl DecodedText {
    /// Decodes the words of `bytes` at `base`.
    pub fn new(base: u32, bytes: &[u8], costs: &CostTable) -> DecodedText {
        let words: Vec<Decoded> = bytes
            .chunks_exact(4)
            .map(|c| Decoded::new(u32::from_le_bytes([c[0], c[1], c[2], c[3]]), costs))
            .collect();
        let len = words.len();
        let mut fast: Vec<Fast> = words
            .iter()
            .enumerate()
            .map(|(i, d)| Fast::new(d, base.wrapping_add(4 * i as u32), base, len))
            .chain([Fast::SLOW])
            .collect();
        // (The last entry, `Slow`, is a block of one.)
        let mut block_after = 1;
        for i in (0..len).rev() {
            block_after = link(&mut fast, i, block_after);
            fuse(&mut fast, i);
        }
        DecodedText {
            base,
            words: Arc::new(words),
            fast: Arc::new(fast),
        }
    }

    /// Bytes covered.
    pub fn len_bytes(&self) -> u32 {
        4 * self.words.len() as u32
    }

    /// Replaces the word at `addr` (inside the table) after a store.
    pub fn redecode(&mut self, addr: u32, word: u32, costs: &CostTable) {
        let i = ((addr - self.base) / 4) as usize;
        let len = self.words.len();
        let d = Decoded::new(word, costs);
        Arc::make_mut(&mut self.words)[i] = d;
        let fast = Arc::make_mut(&mut self.fast);
        fast[i] = Fast::new(&d, addr, self.base, len);
        // The block through `i` (each entry's `rest` counts the later
        // entries of its block) back to the end of an earlier block.
        let mut block_after = fast[i + 1..]
            .iter()
            .position(|e| e.op.ends_block())
            .map_or(0, |n| n + 1);
        let mut j = i;
        loop {
            if j != i {
                // (Undoes a long block's cut, see `link`; it may come back.)
                let addr = self.base.wrapping_add(4 * j as u32);
                fast[j] = Fast::new(&self.words[j], addr, self.base, len);
            }
            block_after = link(fast, j, block_after);
            fuse(fast, j);
            if j == 0 || fast[j - 1].op.ends_block() {
                break;
            }
            j -= 1;
        }
    }
}

/// The longest block: a longer straight line is cut by an entry that the
/// general interpreter runs ([`FastOp::Slow`]), so that a block's cycles
/// (at most 1001 per instruction) stay far below the 2^31 the fast loop's
/// accumulator counts. Small in tests, so that they cut blocks.
const BLOCK_LIMIT: usize = if cfg!(test) { 16 } else { 1 << 16 };

/// Fuses entry `i` with the next one when they make a fused pair (with the
/// next entry's own operation: when that entry starts a pair too, a jump to
/// it takes that pair, running on from `i` does not).
fn fuse(fast: &mut [Fast], i: usize) {
    if let Some(f) = fast[i].op.fused(fast[i + 1].op.alone()) {
        fast[i].op = f;
    }
}

/// Adds to entry `i`'s `rest` (its own step) the `rest` of the entry after
/// it when `i` does not end its block, cutting a block that would grow
/// longer than [`BLOCK_LIMIT`]. The entries after `i` are linked already,
/// and `block_after` of them are in the block after `i`. Returns how many
/// are in the block from `i` on.
fn link(fast: &mut [Fast], i: usize, block_after: usize) -> usize {
    if fast[i].op.ends_block() {
        return 1;
    }
    if block_after >= BLOCK_LIMIT {
        fast[i] = Fast::SLOW;
        return 1;
    }
    fast[i].rest = fast[i].rest.wrapping_add(fast[i + 1].rest);
    block_after + 1
}

#[cfg(test)]
mod tests {
    use isa_spec::Opcode;

    use super::*;
    use crate::ConfigBuilder;

    /// Words of the kinds blocks and pairs are made of (and undecodable
    /// ones), mostly in long straight lines.
    fn word(seed: &mut u64) -> u32 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let pick = |n: u64| (*seed >> 20) % n;
        let mut i = Inst::with_defaults(match pick(40) {
            0 => Opcode::Lui,
            1..=12 => Opcode::Addi,
            13..=16 => Opcode::Slli,
            17..=20 => Opcode::Add,
            21..=24 => Opcode::Lw,
            25 => Opcode::Bne,
            26 => Opcode::Jal,
            27 => Opcode::Ecall,
            28 => return 0,
            _ => Opcode::Sub,
        });
        i.rd = 1 + (*seed % 7) as u8;
        i.rs1 = (*seed >> 3) as u8 % 8;
        i.rs2 = (*seed >> 6) as u8 % 8;
        i.imm = if matches!(i.op, Opcode::Bne | Opcode::Jal) {
            8
        } else {
            4
        };
        i.encode().unwrap()
    }

    /// Every entry's `rest` is its own step plus the next entry's unless it
    /// ends a block; no block is longer than the limit; a fused entry's pair
    /// is its own operation and the next entry's.
    fn check(text: &DecodedText) -> (usize, usize) {
        let (mut cuts, mut pairs) = (0, 0);
        let fast = &text.fast;
        let len = text.words.len();
        assert_eq!(fast[len], Fast::SLOW);
        let mut block = 0;
        for i in (0..len).rev() {
            let e = fast[i];
            let d = &text.words[i];
            let own = Fast::new(d, text.base + 4 * i as u32, text.base, len);
            if e.op.ends_block() {
                if e.op != own.op {
                    // A long block's cut.
                    assert_eq!(e, Fast::SLOW, "entry {i}");
                    cuts += 1;
                } else {
                    assert_eq!(e.rest, own.rest, "entry {i}");
                }
                block = 1;
            } else {
                assert_eq!(e.rest, own.rest.wrapping_add(fast[i + 1].rest), "entry {i}");
                assert_eq!(e.op.alone(), own.op, "entry {i}");
                let pair = own.op.fused(fast[i + 1].op.alone());
                assert_eq!(e.op, pair.unwrap_or(own.op), "entry {i}");
                pairs += pair.is_some() as usize;
                block += 1;
                assert!(block <= BLOCK_LIMIT, "entry {i}");
            }
        }
        (cuts, pairs)
    }

    #[test]
    fn blocks_and_pairs_stay_consistent_when_words_change() {
        let config = ConfigBuilder::new().build().unwrap();
        let costs = CostTable::new(&config.timing);
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let (mut cuts, mut pairs) = (0, 0);
        let mut count = |(c, p)| {
            cuts += c;
            pairs += p;
        };
        for round in 0..50 {
            let n = 1 + (round * 7) % 90;
            let bytes: Vec<u8> = (0..n).flat_map(|_| word(&mut seed).to_le_bytes()).collect();
            let mut text = DecodedText::new(0x1000, &bytes, &costs);
            count(check(&text));
            for _ in 0..40 {
                let at = 0x1000 + 4 * (seed % n as u64) as u32;
                let w = word(&mut seed);
                text.redecode(at, w, &costs);
                count(check(&text));
            }
        }
        assert!(cuts > 100 && pairs > 1000, "{cuts} cuts, {pairs} pairs");
    }
}
