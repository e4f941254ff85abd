//! The LR/SC reservations of a tile's contexts.

use crate::hart::context::NO_RESERVATION;

/// LR reservations of a tile's contexts. A store to a reserved word breaks
/// every reservation of that word, so an `sc.w` fails when another context
/// wrote the word since its `lr.w`.
#[derive(Clone, Debug)]
pub struct Reservations {
    addrs: [u32; 16],
    /// Bit c set: context c holds a reservation.
    active: u16,
}

impl Default for Reservations {
    fn default() -> Self {
        Reservations {
            addrs: [NO_RESERVATION; 16],
            active: 0,
        }
    }
}

impl Reservations {
    #[inline(always)]
    pub(crate) fn on_store(&mut self, addr: u32) {
        if self.active != 0 {
            self.break_word(addr & !3);
        }
    }

    #[cold]
    fn break_word(&mut self, word: u32) {
        for c in 0..16 {
            if self.active & (1 << c) != 0 && self.addrs[c] == word {
                self.addrs[c] = NO_RESERVATION;
                self.active &= !(1 << c);
            }
        }
    }

    pub(crate) fn reserve(&mut self, context: usize, addr: u32) {
        self.addrs[context] = addr;
        self.active |= 1 << context;
    }

    /// Takes context's reservation away, returning whether it was on `addr`.
    pub(crate) fn take(&mut self, context: usize, addr: u32) -> bool {
        let held = self.active & (1 << context) != 0 && self.addrs[context] == addr;
        self.clear(context);
        held
    }

    /// Whether no context holds a reservation.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.active == 0
    }

    /// Drops a context's reservation (its thread ended).
    pub fn clear(&mut self, context: usize) {
        self.addrs[context] = NO_RESERVATION;
        self.active &= !(1 << context);
    }
}
