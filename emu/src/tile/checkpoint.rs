//! Optimistic runs: a tile's checkpoint, taken before it runs past what
//! is certain, its confirmation, and the rollback that replays the tile
//! from it when the network brings something the run did not see.

use super::{Schedule, Tile};
use crate::hart::context::Context;
use crate::hart::files::Files;
use crate::hart::reservations::Reservations;
use crate::trace::TraceFilter;

/// A tile's state at the start of an optimistic run (memory is in its
/// undo log), to go back to if the network brings something the run did
/// not see.
#[derive(Clone, Debug, Default)]
pub struct Checkpoint {
    /// The contexts that held a thread (the others cannot change in an
    /// optimistic run: only the NIU starts threads, and never in one).
    contexts: Vec<(usize, Context)>,
    reservations: Reservations,
    /// The clock, the scheduler and the counters, whole.
    sched: Schedule,
    output_len: usize,
    trace_len: usize,
    /// The tile's files (contents are shared until written).
    files: Files,
}

impl Tile {
    /// Saves the state before an optimistic run (the tile is runnable).
    pub fn checkpoint(&mut self) {
        debug_assert!(self.halt.is_none() && self.parked.is_none());
        let mut cp = self.checkpoint.take().unwrap_or_default();
        cp.contexts.clear();
        cp.contexts.extend(
            self.contexts
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_live())
                .map(|(i, c)| (i, c.clone())),
        );
        cp.reservations.clone_from(&self.reservations);
        cp.sched.clone_from(&self.sched);
        cp.files.clone_from(&self.files);
        cp.output_len = self.output_taken + self.output.len();
        cp.trace_len = self.trace_taken + self.trace.len();
        self.checkpoint = Some(cp);
        self.checkpoint_at = self.sched.now;
        self.sites_undo.clear();
        if let Some(counts) = &mut self.counts {
            counts.checkpoint();
        }
        self.memory.begin_undo();
    }

    /// The cycle of the checkpoint, while an optimistic run is unconfirmed.
    #[inline]
    pub fn checkpoint_cycle(&self) -> Option<u64> {
        self.memory.undo_active().then_some(self.checkpoint_at)
    }

    /// Confirms the optimistic run: nothing can change it any more.
    pub fn commit(&mut self) {
        if self.memory.undo_active() {
            self.memory.commit_undo();
            self.sites_undo.clear();
            if let Some(counts) = &mut self.counts {
                counts.commit();
            }
        }
    }

    /// Goes back to the checkpoint, then runs again (now with certainty) up
    /// to the instructions issuing before `until`.
    pub fn rollback<const TRACE: bool>(&mut self, until: u64, filter: &TraceFilter) {
        let Some(cp) = self
            .checkpoint
            .as_ref()
            .filter(|_| self.memory.undo_active())
        else {
            return;
        };
        // The certain run before the checkpoint issued nothing at or after
        // `until` (its last instruction may still be under way then).
        debug_assert!(
            cp.sched.issued_before <= until,
            "tile {}: a rollback to {until} finds the checkpoint's certain run past it ({})",
            self.id,
            cp.sched.issued_before
        );
        for (i, c) in &cp.contexts {
            self.contexts[*i].clone_from(c);
        }
        self.reservations.clone_from(&cp.reservations);
        self.sched.clone_from(&cp.sched);
        self.files.clone_from(&cp.files);
        self.output.truncate(cp.output_len - self.output_taken);
        self.trace.truncate(cp.trace_len - self.trace_taken);
        for (i, old) in self.sites_undo.drain(..).rev() {
            self.sites[i].1 = old;
        }
        self.halt = None;
        self.parked = None;
        // (`run_until` below refreshes the tile's state.)
        self.identity.context = self.sched.current.unwrap_or(0) as u32;
        if let Some(counts) = &mut self.counts {
            counts.rollback();
        }
        self.memory.rollback_undo();
        self.redecode_written_code();
        self.run_until::<TRACE>(until, filter);
    }
}
