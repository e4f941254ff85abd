//! What the machine's livelock watch (`machine/spin.rs`) compares of a
//! tile between two looks: everything its future depends on but its memory
//! (which the watch digests itself) and its clock.

use super::{Tile, TileState};
use crate::hart::context::ContextState;

impl Tile {
    /// Appends to `out` the tile's state that its instructions can see or
    /// that decides what they do next, with its clock left out: every
    /// context's thread state, and for a live one its pc, registers, FP
    /// state, reservation and machine CSRs; the scheduler (the context
    /// holding the pipeline, the one that issued last, the cycles into the
    /// current slice, up to the quantum); the parked instruction's context; the open
    /// messages; the counts of threads started and of looks outside
    /// ([`crate::hart::context::Context::outside`]), which only grow, so
    /// that equal keys mean none happened in between. Returns false for a
    /// halted tile (appending nothing).
    pub fn spin_key(&self, out: &mut Vec<u8>) -> bool {
        if self.halt.is_some() {
            return false;
        }
        let s = &self.sched;
        let mut words: Vec<u64> = vec![
            u64::from(self.id),
            s.current.map_or(u64::MAX, |c| c as u64),
            s.last_issuer.map_or(u64::MAX, |c| c as u64),
            // Past the quantum, the slice's age no longer matters: the
            // next ready context preempts at once.
            s.now.saturating_sub(s.slice_start).min(self.params.quantum),
            u64::from(s.ready),
            u64::from(s.live),
            self.parked.map_or(u64::MAX, |p| p.context as u64),
        ];
        for (c, ctx) in self.contexts.iter().enumerate() {
            let state = match ctx.state {
                ContextState::Free => 0,
                ContextState::Ready => 1,
                ContextState::Running => 2,
                ContextState::Suspended(cause) => 3 + cause as u64,
            };
            words.extend([
                state,
                ctx.counters.threads,
                ctx.outside,
                self.open_message[c].map_or(u64::MAX, u64::from),
            ]);
            if !ctx.is_live() {
                continue;
            }
            words.extend([
                u64::from(ctx.pc),
                u64::from(ctx.fflags),
                u64::from(ctx.frm),
                u64::from(ctx.reservation),
                u64::from(ctx.handler),
            ]);
            words.extend(ctx.x.iter().map(|&r| u64::from(r)));
            words.extend(ctx.f.iter().copied());
            words.extend(ctx.machine_csrs.iter().map(|&r| u64::from(r)));
        }
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(format!("{:?}", self.reservations).as_bytes());
        true
    }

    /// Whether a context can issue (the tile runs, or waits for its NIU to
    /// take a messaging instruction): otherwise only its NIU can change it.
    pub fn can_issue(&self) -> bool {
        matches!(self.state(), TileState::Runnable | TileState::Parked)
    }
}
