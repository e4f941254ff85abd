//! Optimistic runs: a tile's checkpoint, taken before it runs past what
//! is certain, its confirmation, and the rollback that replays the tile
//! from it when the network brings something the run did not see.

use super::{Tile, TileCounters};
use crate::hart::context::Context;
use crate::hart::reservations::Reservations;
use crate::trace::TraceFilter;

/// A tile's state at the start of an optimistic run (memory is in its
/// undo log), to go back to if the network brings something the run did
/// not see.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The contexts that held a thread (the others cannot change in an
    /// optimistic run: only the NIU starts threads, and never in one).
    contexts: Vec<(usize, Context)>,
    reservations: Reservations,
    now: u64,
    current: Option<usize>,
    last_issuer: Option<usize>,
    slice_start: u64,
    ready: u32,
    live: u32,
    counters: TileCounters,
    output_len: usize,
    trace_len: usize,
    finished_at: Option<u64>,
    issued_before: u64,
    idle_reason: Option<(usize, Option<u32>)>,
}

impl Tile {
    /// Saves the state before an optimistic run (the tile is runnable).
    pub fn checkpoint(&mut self) {
        debug_assert!(self.halt.is_none() && self.parked.is_none());
        let mut cp = self.checkpoint.take().unwrap_or_else(|| {
            Box::new(Checkpoint {
                contexts: Vec::new(),
                reservations: Reservations::default(),
                now: 0,
                current: None,
                last_issuer: None,
                slice_start: 0,
                ready: 0,
                live: 0,
                counters: TileCounters::default(),
                output_len: 0,
                trace_len: 0,
                finished_at: None,
                issued_before: 0,
                idle_reason: None,
            })
        });
        cp.contexts.clear();
        cp.contexts.extend(
            self.contexts
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_live())
                .map(|(i, c)| (i, c.clone())),
        );
        cp.reservations.clone_from(&self.reservations);
        cp.now = self.now;
        cp.current = self.current;
        cp.last_issuer = self.last_issuer;
        cp.slice_start = self.slice_start;
        cp.ready = self.ready;
        cp.live = self.live;
        cp.counters = self.counters.clone();
        cp.output_len = self.output_taken + self.output.len();
        cp.trace_len = self.trace_taken + self.trace.len();
        cp.finished_at = self.finished_at;
        cp.issued_before = self.issued_before;
        cp.idle_reason = self.idle_reason;
        self.checkpoint = Some(cp);
        self.sites_undo.clear();
        self.memory.begin_undo();
    }

    /// The cycle of the checkpoint, while an optimistic run is unconfirmed.
    pub fn checkpoint_cycle(&self) -> Option<u64> {
        self.checkpoint
            .as_ref()
            .filter(|_| self.memory.undo_active())
            .map(|c| c.now)
    }

    /// Confirms the optimistic run: nothing can change it any more.
    pub fn commit(&mut self) {
        if self.memory.undo_active() {
            self.memory.commit_undo();
            self.sites_undo.clear();
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
        debug_assert!(
            cp.now <= until.max(cp.now),
            "a checkpoint before the effect"
        );
        for (i, c) in &cp.contexts {
            self.contexts[*i].clone_from(c);
        }
        self.reservations.clone_from(&cp.reservations);
        self.now = cp.now;
        self.current = cp.current;
        self.last_issuer = cp.last_issuer;
        self.slice_start = cp.slice_start;
        self.ready = cp.ready;
        self.live = cp.live;
        self.counters = cp.counters.clone();
        self.output.truncate(cp.output_len - self.output_taken);
        self.trace.truncate(cp.trace_len - self.trace_taken);
        self.finished_at = cp.finished_at;
        self.issued_before = cp.issued_before;
        self.idle_reason = cp.idle_reason;
        for (i, old) in self.sites_undo.drain(..).rev() {
            self.sites[i].1 = old;
        }
        self.halt = None;
        self.parked = None;
        self.identity.context = self.current.unwrap_or(0) as u32;
        self.memory.rollback_undo();
        self.redecode_written_code();
        self.run_until::<TRACE>(until, filter);
    }
}
