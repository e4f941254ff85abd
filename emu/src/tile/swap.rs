//! The context-exhaustion exception on the tile's side
//! (`niu.context_exhausted = "swap"`, thesis 3.4: "thread messages will
//! block at its NIU until some threads finish, or the exception handler
//! can swap threads into memory").
//!
//! The NIU picks the thread (`niu/receive.rs`); the tile raises the
//! exception in its context: `mepc` takes its pc, `mcause` the cause, and
//! the context (made ready if it was suspended; its instruction issues
//! again when the thread resumes) runs the runtime's handler at
//! `scmp_swap_out`, which saves the thread on its own stack and ends
//! (`endt`), freeing the context for the thread message. The next thread
//! started in that context starts its stack below the saved one. When a
//! thread ends in a context that holds saved threads, the context is not
//! freed: it runs `scmp_swap_in`, which restores the last thread saved
//! there and returns to it with `mret`. Everything the handlers do is
//! instructions, timed as any other (stressmarks/lib/swap.s).

use super::Tile;
use crate::hart::context::{ContextState, SwapRole};
use crate::hart::csr::machine_index;

/// `mcause` of the exception that swaps a thread out (a cause number
/// RISC-V leaves for custom use).
pub const CAUSE_SWAP_OUT: u32 = 24;
/// `mcause` when a saved thread resumes in its context.
pub const CAUSE_SWAP_IN: u32 = 25;

/// The runtime's two handlers (the program's symbols `scmp_swap_out` and
/// `scmp_swap_in`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapVectors {
    /// Saves the thread of the context it runs in and frees the context.
    pub out: u32,
    /// Restores the last thread saved in its context and returns to it.
    pub resume: u32,
}

impl Tile {
    /// Whether context `c`'s thread may be swapped out now, and if so
    /// whether it is suspended and since when it has been in its state: a
    /// live thread that does not hold the pipeline and is not in a swap
    /// handler (`None` otherwise, or without `niu.context_exhausted =
    /// "swap"`).
    pub fn swap_candidate(&self, c: usize) -> Option<(bool, u64)> {
        self.params.swap?;
        let ctx = &self.contexts[c];
        if ctx.swap != SwapRole::None || self.sched.current == Some(c) {
            return None;
        }
        match ctx.state {
            ContextState::Ready => Some((false, ctx.state_since)),
            ContextState::Suspended(_) => Some((true, ctx.state_since)),
            ContextState::Free | ContextState::Running => None,
        }
    }

    /// Raises the context-exhaustion exception in context `c`, seen from
    /// cycle `at` (the NIU chose it by [`Tile::swap_candidate`]).
    pub(super) fn swap_out(&mut self, at: u64, c: usize) {
        let Some(v) = self.params.swap else {
            return;
        };
        self.reservations.clear(c);
        let ctx = &mut self.contexts[c];
        debug_assert!(ctx.is_live() && ctx.swap == SwapRole::None);
        ctx.machine_csrs[machine_index(isa_spec::MEPC)] = ctx.pc;
        ctx.machine_csrs[machine_index(isa_spec::MCAUSE)] = CAUSE_SWAP_OUT;
        ctx.pc = v.out;
        ctx.swap = SwapRole::Out;
        if matches!(ctx.state, ContextState::Suspended(_)) {
            ctx.set_state(ContextState::Ready, at);
            self.sched.ready += 1;
        }
        self.sched.counters.swaps_out += 1;
    }

    /// At context `c`'s `endt` (retired): true when the context goes on
    /// with a saved thread's restoring (`scmp_swap_in`) instead of being
    /// freed. The swap-out handler's own `endt` frees it, with one more
    /// thread saved there.
    pub(super) fn swap_at_end(&mut self, c: usize) -> bool {
        let Some(v) = self.params.swap else {
            return false;
        };
        let ctx = &mut self.contexts[c];
        if ctx.swap == SwapRole::Out {
            ctx.swap = SwapRole::None;
            ctx.swapped += 1;
            return false;
        }
        if ctx.swapped == 0 {
            return false;
        }
        ctx.swapped -= 1;
        ctx.swap = SwapRole::In;
        ctx.machine_csrs[machine_index(isa_spec::MCAUSE)] = CAUSE_SWAP_IN;
        ctx.pc = v.resume;
        self.sched.counters.swaps_in += 1;
        true
    }

    /// The stack pointer a thread started in free context `c` begins with:
    /// below the threads saved there (where the swap-out handler left its
    /// `sp`), or the top of the context's stack.
    pub(super) fn start_sp(&self, c: usize) -> u32 {
        let ctx = &self.contexts[c];
        if ctx.swapped > 0 {
            ctx.x[2]
        } else {
            self.stack_top(c)
        }
    }

    /// `mret` (retired) in context `c`: back to `mepc`, the end of a swap
    /// handler.
    pub(super) fn trap_return(&mut self, c: usize) {
        let ctx = &mut self.contexts[c];
        ctx.pc = ctx.machine_csrs[machine_index(isa_spec::MEPC)];
        ctx.swap = SwapRole::None;
    }
}
