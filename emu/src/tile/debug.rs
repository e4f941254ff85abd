//! The debugger's access to a tile: breakpoints and memory writes.

use super::Tile;
use crate::fault::FaultCause;
use crate::hart::semihost::EBREAK_WORD as EBREAK;

impl Tile {
    /// Debugger: makes the instruction at `pc` fault as `ebreak` does
    /// (a software breakpoint; memory keeps its word, so the program does
    /// not see it), or (`on` false) decodes the word from memory again.
    /// False when `pc` is not a word of the text.
    pub fn set_breakpoint(&mut self, pc: u32, on: bool) -> bool {
        let end = self.text.base + self.text.len_bytes();
        if pc < self.text.base || pc >= end || !pc.is_multiple_of(4) {
            return false;
        }
        let word = if on {
            EBREAK
        } else {
            self.memory.load_u32(pc).expect("the text lies in memory")
        };
        self.text.redecode(pc, word, &self.costs);
        true
    }

    /// Debugger: writes `bytes` at `addr`; text words written are decoded
    /// again (breakpoints there are gone).
    pub fn debug_write(&mut self, addr: u32, bytes: &[u8]) -> Result<(), FaultCause> {
        self.memory.slice(addr, bytes.len() as u32)?;
        self.memory.write_bytes(addr, bytes);
        let end = (addr as u64 + bytes.len() as u64).min(u32::MAX as u64) as u32;
        let mut a = (addr & !3).max(self.text.base);
        while a < end.min(self.text.base + self.text.len_bytes()) {
            self.set_breakpoint(a, false);
            a += 4;
        }
        Ok(())
    }
}
