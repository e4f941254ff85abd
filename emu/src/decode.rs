//! The predecoded text: every word of the executable segments decoded once,
//! with its cycle cost, so the interpreter never decodes in its loop.
//!
//! All tiles load the same image, so they share one table (an `Arc`); a tile
//! that stores into its text gets its own copy (copy on write) with the
//! written words decoded again.

use std::sync::Arc;

use isa_spec::Inst;

use crate::timing::CostTable;

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
}

impl DecodedText {
    /// Decodes the words of `bytes` at `base`.
    pub fn new(base: u32, bytes: &[u8], costs: &CostTable) -> DecodedText {
        let words = bytes
            .chunks_exact(4)
            .map(|c| Decoded::new(u32::from_le_bytes([c[0], c[1], c[2], c[3]]), costs))
            .collect();
        DecodedText {
            base,
            words: Arc::new(words),
        }
    }

    /// Bytes covered.
    pub fn len_bytes(&self) -> u32 {
        4 * self.words.len() as u32
    }

    /// Replaces the word at `addr` (inside the table) after a store.
    pub fn redecode(&mut self, addr: u32, word: u32, costs: &CostTable) {
        let i = ((addr - self.base) / 4) as usize;
        Arc::make_mut(&mut self.words)[i] = Decoded::new(word, costs);
    }
}
