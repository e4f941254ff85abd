//! The untraced fast loop: runs a context's frequent instructions from the
//! [`Fast`] table with the pc (as a position in the table), the clock and
//! the retired count in registers, and returns to the general interpreter
//! (`Tile::run_slice`) for everything else.
//!
//! The rule that keeps it exact: an instruction the loop cannot complete
//! the ordinary way (a fault, a store into the text, a store while a
//! reservation is held, a pc outside the table, any [`FastOp::Slow`] word)
//! is left with no effect at all, and the loop returns with the pc on it;
//! the general interpreter then runs that instruction as it always does.
//! So the loop only has to agree with `Hart::execute` on the ordinary case
//! (the CSR and the rarer FP instructions even run the same code,
//! `fp_compute` and `csr_op`, which change nothing when they fail; the FP
//! arithmetic first tries the host FPU, `crate::hart::hardfloat`, bit-exact with
//! the soft path the general interpreter runs).
//!
//! The loop is compiled twice: without calls (the integer, memory, AMO and
//! jump instructions; it returns for FP arithmetic, CSR, LR and SC) and
//! with them (and that once more with the host's fused multiply-add); a
//! slice switches to the second at the first instruction that needs it,
//! because calls in the loop cost the other instructions registers. The
//! context, the memory words, the reservations and the table are separate
//! arguments so that the compiler knows they do not alias. Cycles are
//! charged a block at a time and common pairs of instructions are fused
//! (see `entries`).

mod cursor;
mod entries;
mod ops;

use crate::hart::context::Context;
use crate::hart::csr::Identity;
use crate::hart::decode::{Fast, FastOp, StopKind};
use crate::hart::effects::Stop;
use crate::hart::hardfloat::host_has_fma;
use crate::hart::reservations::Reservations;
use cursor::Cursor;
use entries::{Exit, LoopState, entries};

/// The state the loop carries, in and out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastState {
    /// Program counter.
    pub pc: u32,
    /// Tile cycle.
    pub clock: u64,
    /// Instructions retired in the slice.
    pub retired: u64,
}

/// Why the loop returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FastExit {
    /// The clock reached the slice end.
    End,
    /// The instruction at the pc is for the general interpreter.
    Slow,
}

/// Where the text lies and which stores must go the general way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastEnv<'a> {
    /// Address of the first text word.
    pub base: u32,
    /// Stores to `store_base..store_base + store_len` (wrapping) go the
    /// general way: the range the memory notes as code writes, or all of
    /// memory while an LR reservation is held (the general way breaks it).
    pub store_base: u32,
    /// Length of that range.
    pub store_len: u32,
    /// Extra cycles of a taken branch.
    pub taken_extra: u32,
    /// While memory logs stores for undo (an optimistic run): per page, the
    /// generation in which it was saved, and the current one. A store to a
    /// page not saved in this generation goes the general way, which saves
    /// it first.
    pub undo: Option<(&'a [u32], u32)>,
}

/// The most cycles one call runs (the accumulator's high half is an i32);
/// small in tests, so that they exercise a call that stops short of `end`.
const MAX_BUDGET: u64 = if cfg!(test) { 1000 } else { i32::MAX as u64 };

/// Runs from `state` until the clock reaches `end` (or has advanced by
/// [`MAX_BUDGET`] cycles, after which the caller calls again) or an instruction
/// needs the general interpreter. `x[0]` is zero and stays so (an entry
/// that may write it zeroes it again). `mem` is the tile memory as
/// little-endian words (at most 2 GiB); `id` the identity CSRs; `index` the
/// context's number (its reservation).
///
/// `CALLS`: whether the loop runs [`FastOp::Fp`] and [`FastOp::Csr`]
/// entries (through calls out of line) and [`FastOp::Lr`] and
/// [`FastOp::Sc`] ones, or returns for them. Calls in the loop cost the
/// other instructions registers, so a slice starts without them (see
/// [`needs_calls`]). With them, LR/SC change the reservations during the
/// loop, so stores and AMOs look at `reservations` (and `env`'s store range
/// is the text alone); without, `env` says it all.
///
/// With calls, the loop is compiled once more with the host's fused
/// multiply-add (see [`crate::hart::hardfloat`]), and that one runs when the CPU
/// has it.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) fn run<const CALLS: bool>(
    ctx: &mut Context,
    index: usize,
    id: &Identity,
    reservations: &mut Reservations,
    mem: &mut [[u8; 4]],
    code: &[Fast],
    env: &FastEnv<'_>,
    state: &mut FastState,
    end: u64,
) -> FastExit {
    if CALLS && host_has_fma() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has the instructions the feature enables.
        return unsafe { run_with_fma(ctx, index, id, reservations, mem, code, env, state, end) };
        #[cfg(not(target_arch = "x86_64"))]
        return run_loop::<true, true>(ctx, index, id, reservations, mem, code, env, state, end);
    }
    run_loop::<CALLS, false>(ctx, index, id, reservations, mem, code, env, state, end)
}

/// [`run`] with calls, compiled for CPUs with the fused multiply-add.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
#[allow(clippy::too_many_arguments)]
fn run_with_fma(
    ctx: &mut Context,
    index: usize,
    id: &Identity,
    reservations: &mut Reservations,
    mem: &mut [[u8; 4]],
    code: &[Fast],
    env: &FastEnv<'_>,
    state: &mut FastState,
    end: u64,
) -> FastExit {
    run_loop::<true, true>(ctx, index, id, reservations, mem, code, env, state, end)
}

/// The loop of [`run`]; `FMA`: whether it may use the host's fused
/// multiply-add (only in code compiled with the feature).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run_loop<const CALLS: bool, const FMA: bool>(
    ctx: &mut Context,
    index: usize,
    id: &Identity,
    reservations: &mut Reservations,
    mem: &mut [[u8; 4]],
    code: &[Fast],
    env: &FastEnv<'_>,
    state: &mut FastState,
    end: u64,
) -> FastExit {
    if state.clock >= end {
        return FastExit::End;
    }
    let base = env.base;
    let start = state.pc.wrapping_sub(base) as usize >> 2;
    let Some(mut cursor) = Cursor::new(code, start) else {
        // Outside the table (where only a `jalr` goes).
        return FastExit::Slow;
    };
    // One register counts both: the high half is the cycles left minus one
    // (so that it is negative once the slice's cycles are spent), the low
    // half the instructions retired. Instructions add their steps (their
    // cycles off the high half, one to the low half; at most 2^31 per call,
    // no carry), a block's at once (`Fast::rest`). The sign of the sum ends
    // the run, and it is not negative whenever the loop returns for another
    // reason, so the exit needs no variable of its own.
    let budget = (end - state.clock).min(MAX_BUDGET);
    let mut acc = (budget - 1) << 32;
    let mut loop_state = LoopState {
        cursor: &mut cursor,
        acc: &mut acc,
        clock: state.clock + budget - 1,
        instret: ctx.instret + state.retired,
    };
    let mut exit =
        entries::<CALLS, FMA, true>(ctx, index, id, reservations, mem, env, &mut loop_state);
    if exit == Exit::Careful {
        exit =
            entries::<CALLS, FMA, false>(ctx, index, id, reservations, mem, env, &mut loop_state);
    }
    let left = (acc as i64) >> 32;
    let after = pc_of(base, &cursor);
    state.clock += (budget as i64 - 1 - left) as u64;
    state.retired += acc & 0xffff_ffff;
    if exit == Exit::End {
        debug_assert!(left < 0);
        // The last instruction retired: the cursor is at the next one.
        state.pc = after;
        FastExit::End
    } else {
        // The cursor is past the instruction that did not run. (It
        // cannot have run off the table: that ends with a `Slow` entry.)
        state.pc = after.wrapping_sub(4);
        FastExit::Slow
    }
}

/// The stop of the instruction at `pc`, when it is a [`FastOp::Stop`]
/// entry (the loop returned for it; the general step would only find that
/// it stops).
pub(crate) fn stop_at(code: &[Fast], base: u32, pc: u32) -> Option<Stop> {
    let e = code.get(pc.wrapping_sub(base) as usize >> 2)?;
    (e.op == FastOp::Stop).then_some(match e.imm {
        k if k == StopKind::HostCall as u32 => Stop::HostCall,
        k if k == StopKind::EndThread as u32 => Stop::EndThread,
        k if k == StopKind::Yield as u32 => Stop::Yield,
        _ => Stop::Messaging,
    })
}

/// Whether the loop without calls returned for the instruction at `pc`
/// because it needs them.
pub(crate) fn needs_calls(code: &[Fast], base: u32, pc: u32) -> bool {
    code.get(pc.wrapping_sub(base) as usize >> 2)
        .is_some_and(|e| e.op.needs_calls())
}

/// The address of the cursor's next entry.
#[inline(always)]
pub(super) fn pc_of(base: u32, cursor: &Cursor) -> u32 {
    base.wrapping_add(4 * cursor.index() as u32)
}

#[cfg(test)]
mod tests;
