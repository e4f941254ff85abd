//! The fast loop's position in the [`Fast`] table: a pointer that moves to
//! the next entry with no end check, which the table's shape makes safe.

use crate::hart::decode::{Fast, FastOp};

/// The next entry to run, in a table whose last entry is a
/// [`FastOp::Slow`] (checked on creation). The loop stops at such an entry
/// without taking another, and every jump goes through [`Cursor::jump`],
/// which checks its target, so [`Cursor::take`] never reads past the end.
pub(crate) struct Cursor<'a> {
    code: &'a [Fast],
    next: *const Fast,
}

impl<'a> Cursor<'a> {
    /// At entry `start`, `None` when that is outside `code` or `code` does
    /// not end with a `Slow` entry.
    #[inline(always)]
    pub fn new(code: &'a [Fast], start: usize) -> Option<Cursor<'a>> {
        let ends_slow = code.last().is_some_and(|e| e.op == FastOp::Slow);
        (ends_slow && start < code.len()).then(|| Cursor {
            code,
            next: code[start..].as_ptr(),
        })
    }

    /// The next entry; the cursor moves past it. The caller must not take
    /// again after taking a `Slow` entry (it stops there).
    #[inline(always)]
    pub fn take(&mut self) -> &'a Fast {
        debug_assert!(self.index() < self.code.len());
        // SAFETY: `next` points into `code`: it starts there, `jump` keeps
        // it there, and it moves one entry at a time, never past the last
        // (a `Slow` entry, after which the caller does not take again).
        unsafe {
            let e = &*self.next;
            self.next = self.next.add(1);
            e
        }
    }

    /// The next entry, without moving. The caller must peek only when the
    /// cursor is at an entry: at the start (checked) or after a jump
    /// (checked), or after taking an entry that does not end a block (the
    /// last entry ends one).
    #[inline(always)]
    pub fn peek(&self) -> &'a Fast {
        debug_assert!(self.index() < self.code.len());
        // SAFETY: as for `take`; the caller peeks only at an entry.
        unsafe { &*self.next }
    }

    /// The number of entries of the table.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// Moves to entry `to`; `false` (and no move) when it is outside the
    /// table.
    #[inline(always)]
    pub fn jump(&mut self, to: usize) -> bool {
        match self.code.get(to) {
            Some(e) => {
                self.next = e;
                true
            }
            None => false,
        }
    }

    /// The index of the next entry.
    #[inline(always)]
    pub fn index(&self) -> usize {
        (self.next as usize - self.code.as_ptr() as usize) / size_of::<Fast>()
    }
}
