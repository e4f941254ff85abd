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
//! may be rolled back: its loop counts wait in a log, applied when the run
//! is confirmed and dropped when it is rolled back, and the class counts
//! go back to their value at the checkpoint.

use isa_spec::TimingClass;

use crate::hart::decode::{Decoded, Fast};

/// Instructions retired by timing class, and the fast loop's counts.
#[derive(Debug, Default)]
pub struct ExecCounts {
    /// Retired instructions by [`TimingClass`] (`as usize`), folded from
    /// the loop's counts by [`ExecCounts::fold`].
    pub by_class: [u64; TimingClass::ALL.len()],
    /// The loop's counts: starts, stops, alone; each the table's length.
    pub entries: Vec<u64>,
    /// An optimistic run's loop counts: addresses of counters in
    /// `entries` (which is not reallocated while the log holds any).
    pub log: Vec<usize>,
    /// `by_class` at the checkpoint of an optimistic run.
    saved: Option<[u64; TimingClass::ALL.len()]>,
}

impl ExecCounts {
    /// Counts for a table of `len` entries.
    pub fn new(len: usize) -> ExecCounts {
        ExecCounts {
            by_class: [0; TimingClass::ALL.len()],
            entries: vec![0; 3 * len],
            log: Vec::new(),
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

    /// Adds the log's counts to `entries` and clears it.
    fn apply_log(&mut self) {
        let range = self.entries.as_mut_ptr_range();
        for &a in &self.log {
            debug_assert!((range.start as usize..range.end as usize).contains(&a));
            // SAFETY: the loop logged addresses of counters in `entries`
            // (`fast::run`), which has not been reallocated since: only
            // `fold` replaces it, and it clears the log first.
            unsafe { *(a as *mut u64) += 1 };
        }
        self.log.clear();
    }

    /// An optimistic run starts.
    pub fn checkpoint(&mut self) {
        self.log.clear();
        self.saved = Some(self.by_class);
    }

    /// The optimistic run is confirmed: its counts stand.
    pub fn commit(&mut self) {
        self.apply_log(); // and clears it
        self.saved = None;
    }

    /// The optimistic run is rolled back: its counts go.
    pub fn rollback(&mut self) {
        self.log.clear();
        if let Some(saved) = self.saved.take() {
            self.by_class = saved;
        }
    }

    /// Adds the loop's counts over `fast` (the table; `words` its
    /// instructions) to `by_class` and clears them: before the table
    /// changes (code written) and at the end of a run. In an optimistic
    /// run the confirmed counts also go into the checkpoint's class
    /// counts (a rollback keeps them), the log's only into `by_class`.
    pub fn fold(&mut self, fast: &[Fast], words: &[Decoded]) {
        let len = fast.len();
        if self.entries.len() != 3 * len {
            self.entries = vec![0; 3 * len];
            self.log.clear();
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
        if !self.log.is_empty() {
            self.apply_log();
            let pending = ran_by_class(&self.entries, fast, words);
            for (c, n) in pending.iter().enumerate() {
                self.by_class[c] += n;
            }
            self.entries.iter_mut().for_each(|c| *c = 0);
        }
    }
}

/// The instructions the loop's counts `entries` (starts, stops, alone)
/// say ran, by timing class.
fn ran_by_class(
    entries: &[u64],
    fast: &[Fast],
    words: &[Decoded],
) -> [u64; TimingClass::ALL.len()] {
    let len = fast.len();
    let (starts, rest) = entries.split_at(len);
    let (stops, alone) = rest.split_at(len);
    let mut by_class = [0u64; TimingClass::ALL.len()];
    let mut running: i64 = 0;
    for i in 0..len {
        running += starts[i] as i64 - stops[i] as i64;
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
