//! How often each instruction of a tile's text ran, for the energy model
//! (`energy.enabled`): the fast loop counts, per entry of its table, the
//! blocks it started there, the blocks that stopped there (the entry had
//! no effect, nor the rest of its block), and the entries it ran alone
//! (carefully); the careful step and the tile's own instructions count by
//! timing class. An entry ran as often as the blocks started at or before
//! it in its block, less those that stopped at or before it, plus its runs
//! alone: one count per block in the loop, not per instruction.
//!
//! An optimistic run (a tile's checkpoint, memory logging stores for undo)
//! may be rolled back: its loop counts go to a second set of counters,
//! `pending`, added to the confirmed ones when the run is confirmed and
//! zeroed when it is rolled back; the class counts go back to their value
//! at the checkpoint. Which pending counters to visit then: those of
//! blocks started and stopped, on a table of at most [`DENSE_ENTRIES`]
//! entries, all of them (the loop counts a block start by a bare
//! increment, as in a run that is not optimistic); on a longer table, and
//! for the runs alone (rare), those listed in `touched`, where the loop notes a counter when
//! it leaves zero (a test and a branch more per block, but work in
//! proportion to the counters touched, not to the table).

use isa_spec::TimingClass;

use crate::hart::decode::{Decoded, Fast};

/// The longest table whose pending block start and stop counters are
/// summed densely when an optimistic run ends (a host-speed choice, no
/// part of the model: summing 1,024 counters costs about what the
/// checkpoint itself does, a thousand or two host instructions, and saves
/// about five per block run).
pub const DENSE_ENTRIES: usize = 512;

/// Instructions retired by timing class, and the fast loop's counts.
#[derive(Debug, Default)]
pub struct ExecCounts {
    /// Retired instructions by [`TimingClass`] (`as usize`), folded from
    /// the loop's counts by [`ExecCounts::fold`].
    pub by_class: [u64; TimingClass::ALL.len()],
    /// The loop's confirmed counts, three per entry of the table (`n`
    /// entries): entry `i`'s blocks started at `2i`, stopped at `2i + 1`,
    /// its runs alone at `2n + i`.
    pub entries: Vec<u64>,
    /// An optimistic run's loop counts, laid out as `entries`.
    pub pending: Vec<u64>,
    /// The indices of the counters of `pending` that are not zero, each
    /// once (but for block starts and stops on a dense table, which may
    /// or may not be listed); its capacity is `pending`'s length (the loop writes into
    /// it with no check: `fast::run`).
    pub touched: Vec<usize>,
    /// `by_class` at the checkpoint of an optimistic run.
    saved: Option<[u64; TimingClass::ALL.len()]>,
}

impl ExecCounts {
    /// Counts for a table of `len` entries.
    pub fn new(len: usize) -> ExecCounts {
        ExecCounts {
            by_class: [0; TimingClass::ALL.len()],
            entries: vec![0; 3 * len],
            pending: vec![0; 3 * len],
            touched: Vec::with_capacity(3 * len),
            saved: None,
        }
    }

    /// Counts one retired instruction of `d` (the careful step, the
    /// tile's own instructions).
    #[inline]
    pub fn retired(&mut self, d: &Decoded) {
        if let Some(inst) = &d.inst {
            self.by_class[inst.op.timing() as usize] += 1;
        }
    }

    /// Whether the table is short enough that the pending block starts and
    /// stops are summed densely ([`DENSE_ENTRIES`]): then the loop does
    /// not note the starts in `touched`.
    pub fn dense(&self) -> bool {
        self.entries.len() <= 3 * DENSE_ENTRIES
    }

    /// Adds the pending counts to `entries` (`keep`) or drops them, and
    /// zeroes them.
    fn settle_pending(&mut self, keep: bool) {
        // The listed counters, but for block starts and stops on a dense
        // table (all visited below: not twice).
        let from = if self.dense() {
            self.entries.len() / 3 * 2
        } else {
            0
        };
        for &i in &self.touched {
            if i >= from {
                if keep {
                    self.entries[i] += self.pending[i];
                }
                self.pending[i] = 0;
            }
        }
        self.touched.clear();
        let (entries, pending) = (&mut self.entries[..from], &mut self.pending[..from]);
        if keep {
            for (e, p) in entries.iter_mut().zip(pending.iter()) {
                *e += *p;
            }
        }
        pending.iter_mut().for_each(|p| *p = 0);
    }

    /// An optimistic run starts (the pending counts are zero: the one
    /// before was confirmed or rolled back).
    pub fn checkpoint(&mut self) {
        debug_assert!(self.touched.is_empty());
        self.saved = Some(self.by_class);
    }

    /// The optimistic run is confirmed: its counts stand.
    pub fn commit(&mut self) {
        self.settle_pending(true);
        self.saved = None;
    }

    /// The optimistic run is rolled back: its counts go.
    pub fn rollback(&mut self) {
        self.settle_pending(false);
        if let Some(saved) = self.saved.take() {
            self.by_class = saved;
        }
    }

    /// Adds the loop's counts over `fast` (the table; `words` its
    /// instructions) to `by_class` and clears them: before the table
    /// changes (code written) and at the end of a run. In an optimistic
    /// run the confirmed counts also go into the checkpoint's class
    /// counts (a rollback keeps them), the pending ones only into
    /// `by_class`.
    pub fn fold(&mut self, fast: &[Fast], words: &[Decoded]) {
        let len = fast.len();
        if self.entries.len() != 3 * len {
            *self = ExecCounts {
                by_class: self.by_class,
                saved: self.saved,
                ..ExecCounts::new(len)
            };
            return;
        }
        let confirmed = ran_by_class(&self.entries, fast, words);
        for (c, n) in confirmed.iter().enumerate() {
            self.by_class[c] += n;
            if let Some(saved) = &mut self.saved {
                saved[c] += n;
            }
        }
        self.entries.iter_mut().for_each(|c| *c = 0);
        if self.saved.is_some() {
            let pending = ran_by_class(&self.pending, fast, words);
            for (c, n) in pending.iter().enumerate() {
                self.by_class[c] += n;
            }
            self.settle_pending(false);
        }
    }
}

/// The instructions the loop's counts `entries` (laid out as
/// [`ExecCounts::entries`]) say ran, by timing class.
fn ran_by_class(
    entries: &[u64],
    fast: &[Fast],
    words: &[Decoded],
) -> [u64; TimingClass::ALL.len()] {
    let len = fast.len();
    let (started_stopped, alone) = entries.split_at(2 * len);
    let mut by_class = [0u64; TimingClass::ALL.len()];
    let mut running: i64 = 0;
    for i in 0..len {
        running += started_stopped[2 * i] as i64 - started_stopped[2 * i + 1] as i64;
        debug_assert!(running >= 0, "entry {i}: more blocks stopped than started");
        let ran = running as u64 + alone[i];
        if ran > 0
            && let Some(d) = words.get(i)
            && let Some(inst) = &d.inst
        {
            by_class[inst.op.timing() as usize] += ran;
        }
        if fast[i].op.ends_block() {
            running = 0;
        }
    }
    by_class
}
