//! The untraced fast loop: runs a context's frequent instructions from the
//! [`Fast`] table with threaded dispatch, and returns to the careful step
//! (`Tile::run_slice`, `execute`) for everything else.
//!
//! The rule that keeps it exact: an instruction the loop cannot complete
//! the ordinary way (a fault, a store into the text, a store while a
//! reservation is held, a pc outside the table, any [`FastOp::Slow`] word)
//! is left with no effect at all, and the loop returns with the pc on it;
//! the careful step then runs that instruction as it always does. So the
//! loop only has to agree with `Hart::execute` on the ordinary case: both
//! are generated from one table of operations (`semantics::for_each_op!`),
//! each form implemented once per dispatcher (here in `handlers`); the CSR
//! and the rarer FP instructions even run the same code (`csr_op`,
//! `fp_compute`, which change nothing when they fail), and the FP
//! arithmetic first tries the host FPU, `crate::hart::hardfloat`, bit-exact
//! with the soft path the careful step runs.
//!
//! Threaded dispatch: every [`FastOp`] has a handler function, and every
//! handler ends by calling the next entry's handler through a table of
//! function pointers, in tail position, with the loop's state in its
//! arguments (entry, context, memory, accumulator, table, environment: six
//! arguments, all in host registers). An optimizing build turns those calls
//! into jumps (three host instructions of dispatch per instruction, each
//! handler its own indirect jump, and a handler's calls out of line cost no
//! other handler its registers); nothing relies on that for correctness:
//! one call of [`run`] runs at most [`MAX_BUDGET`] cycles, and every
//! instruction takes at least one, so the chain is that deep at most where
//! the calls stay calls (a debug build).
//!
//! Cycles are charged a block at a time and common pairs of instructions
//! are fused (see `handlers`).

mod counts;
mod handlers;
mod step;
mod words;

pub use counts::ExecCounts;

use crate::hart::context::Context;
use crate::hart::csr::Identity;
use crate::hart::decode::{Fast, FastOp, StopKind};
use crate::hart::effects::Stop;
use crate::hart::reservations::Reservations;
use handlers::{Exit, Table, tables};

/// What the handlers (`handlers`) and the operations (`step`) share
/// besides their arguments.
struct Env<'a> {
    /// Words of memory.
    pub mem_len: usize,
    /// The table.
    pub code: *const Fast,
    /// Its entries.
    pub code_entries: usize,
    /// Address of the first text word.
    pub base: u32,
    /// Stores to `store_base..store_base + store_len` (wrapping) go the
    /// careful way: the text, or all of memory while a reservation is held.
    pub store_base: u32,
    /// Length of that range.
    pub store_len: u32,
    /// The text range whose stores are code writes.
    pub code_base: u32,
    /// Its length.
    pub code_len: u32,
    /// Extra cycles of a taken branch, as an accumulator step (`<< 32`).
    pub taken_extra: u64,
    /// See [`FastEnv::undo`].
    pub undo: Option<(&'a [u32], u32)>,
    /// The tile's reservations.
    pub reservations: &'a mut Reservations,
    /// The context's number.
    pub index: usize,
    /// Identity CSRs.
    pub id: &'a Identity,
    /// The tile cycle at which the accumulator's high half reaches zero.
    pub clock_end: u64,
    /// The context's `instret` when the accumulator's low half is zero.
    pub instret_start: u64,
    /// The careful table (of the same build as the one running).
    pub careful: &'static Table,
    /// Execution counts for the energy model, or null: three counts per
    /// entry (see `handlers::START`, `STOP`, `SINGLE`); in
    /// an optimistic run, the pending ones.
    pub counts: *mut u64,
    /// While memory logs stores for undo (an optimistic run), with
    /// `counts`: where the index of the next counter of `counts` to leave
    /// zero goes (room for every counter); else null.
    pub touched: *mut usize,
    /// `counts` less the table's address: an entry's address plus this is
    /// its count of blocks started (an entry is 16 bytes, the size of its
    /// start and stop counts).
    pub start_delta: usize,
    /// Out: why the loop ended.
    pub exit: Exit,
    /// Out: where it ended.
    pub at: *const Fast,
}

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
    /// The clock reached the slice end (or the call's budget).
    End,
    /// The instruction at the pc is for the careful step.
    Slow,
}

/// Where the text lies and which stores must go the careful way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastEnv<'a> {
    /// Address of the first text word.
    pub base: u32,
    /// The text range the memory notes code writes in (a store there, or an
    /// `sc.w` there, goes the careful way).
    pub code_base: u32,
    /// Length of that range.
    pub code_len: u32,
    /// Extra cycles of a taken branch.
    pub taken_extra: u32,
    /// While memory logs stores for undo (an optimistic run): per page, the
    /// generation in which it was saved, and the current one. A store to a
    /// page not saved in this generation goes the careful way, which saves
    /// it first.
    pub undo: Option<(&'a [u32], u32)>,
    /// Execution counts for the energy model (see [`ExecCounts`]), or null:
    /// in an optimistic run, the pending ones.
    pub counts: *mut u64,
    /// With `counts`, in an optimistic run: the indices of the pending
    /// counters that are not zero (see [`ExecCounts`]), with room for all
    /// of them; else null.
    pub touched: *mut Vec<usize>,
    /// With `touched`: whether block starts are noted there too (else
    /// their pending counters are summed densely: [`ExecCounts`]).
    pub note_starts: bool,
    /// Whether the host has a fused multiply-add
    /// ([`crate::hart::hardfloat::host_has_fma`]; the caller asks once,
    /// not per call).
    pub fma: bool,
}

/// The most cycles one call runs (the accumulator's high half is an i32,
/// and the handlers' chain is this deep at most where its tail calls stay
/// calls: see the module's doc); small in tests, so that they exercise a
/// call that stops short of `end`.
const MAX_BUDGET: u64 = if cfg!(test) {
    1000
} else if cfg!(debug_assertions) {
    2048
} else {
    1 << 14
};

/// Runs from `state` until the clock reaches `end` (or has advanced by
/// [`MAX_BUDGET`] cycles, after which the caller calls again) or an
/// instruction needs the careful step. `x[0]` is zero and stays so (an
/// entry that may write it zeroes it again). `mem` is the tile memory as
/// little-endian words (at most 2 GiB); `id` the identity CSRs; `index` the
/// context's number (its reservation). `code` is the text's table, which
/// ends with a [`FastOp::Slow`] entry.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
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
    let base = env.base;
    let start = state.pc.wrapping_sub(base) as usize >> 2;
    if state.clock >= end {
        return FastExit::End;
    }
    if start >= code.len() || code.last().is_none_or(|e| e.op != FastOp::Slow) {
        // Outside the table (where only a `jalr` goes).
        return FastExit::Slow;
    }
    // One register counts both: the high half is the cycles left minus one
    // (so that it is negative once the slice's cycles are spent), the low
    // half the instructions retired. Instructions add their steps (their
    // cycles off the high half, one to the low half; at most 2^31 per call,
    // no carry), a block's at once (`Fast::rest`). The sign of the sum ends
    // the run, and it is not negative whenever the loop returns for another
    // reason.
    let budget = (end - state.clock).min(MAX_BUDGET);
    let acc = (budget - 1) << 32;
    // Stores go the careful way while any context holds a reservation (it
    // breaks them): then the whole memory is the range that does.
    let (store_base, store_len) = if reservations.is_empty() {
        (env.code_base, env.code_len)
    } else {
        (0, u32::MAX)
    };
    let counting = if env.counts.is_null() {
        handlers::NONE
    } else if env.note_starts && !env.touched.is_null() {
        handlers::NOTED
    } else {
        handlers::COUNTED
    };
    let (blocks, careful) = tables(env.undo.is_some(), counting, env.fma);
    // An optimistic run notes the pending counters it makes non-zero.
    let touched_cursor = if env.touched.is_null() {
        std::ptr::null_mut()
    } else {
        // SAFETY: the caller's list, not otherwise used during the call.
        let touched = unsafe { &mut *env.touched };
        debug_assert!(touched.capacity() >= 3 * code.len());
        // SAFETY: within its capacity, room for every counter.
        unsafe { touched.as_mut_ptr().add(touched.len()) }
    };
    let mut loop_env = Env {
        mem_len: mem.len(),
        code: code.as_ptr(),
        code_entries: code.len(),
        base,
        store_base,
        store_len,
        code_base: env.code_base,
        code_len: env.code_len,
        taken_extra: (env.taken_extra as u64) << 32,
        undo: env.undo,
        reservations,
        index,
        id,
        clock_end: state.clock + budget - 1,
        instret_start: ctx.instret + state.retired,
        careful,
        counts: env.counts,
        touched: touched_cursor,
        start_delta: (env.counts as usize).wrapping_sub(code.as_ptr() as usize),
        exit: Exit::End,
        at: code[start..].as_ptr(),
    };
    let acc = handlers::start(
        &code[start],
        ctx,
        mem.as_mut_ptr(),
        acc,
        blocks,
        &mut loop_env,
    );
    if !env.touched.is_null() {
        // SAFETY: as above; the loop wrote the indices up to its cursor,
        // each counter's once (it notes a counter only when it is zero).
        unsafe {
            let touched = &mut *env.touched;
            let written = loop_env
                .touched
                .offset_from(touched.as_ptr().add(touched.len()))
                as usize;
            debug_assert!(touched.len() + written <= touched.capacity());
            touched.set_len(touched.len() + written);
        }
    }
    let left = (acc as i64) >> 32;
    // The entry to resume at (an index into `code`).
    let at = (loop_env.at as usize - code.as_ptr() as usize) / size_of::<Fast>();
    state.clock += (budget as i64 - 1 - left) as u64;
    state.retired += acc & 0xffff_ffff;
    state.pc = base.wrapping_add(4 * at as u32);
    match loop_env.exit {
        Exit::End => {
            debug_assert!(left < 0);
            FastExit::End
        }
        Exit::Slow => FastExit::Slow,
    }
}

/// The stop of the instruction at `pc`, when it is a [`FastOp::Stop`]
/// entry (the loop returned for it; the careful step would only find that
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

#[cfg(test)]
mod tests;
