//! The fast loop's threaded dispatch: a handler per [`FastOp`] (generated
//! from `for_each_fast_op!`), the tables of them, and what runs between two
//! handlers: charging cycles, ending a block, leaving the loop.
//!
//! A block is the run of entries up to and including the next control
//! transfer (`Fast::rest` of its first entry holds the accumulator step of
//! all of them). When the cycles left cover a block, the loop charges it
//! when it starts and runs its entries with no cycle check (the `BLOCKS`
//! table); an entry that cannot complete takes back its own and the later
//! entries' share. Near the end of a call a block may not fit: then the
//! loop goes on "carefully" (the other table), charging and checking each
//! instruction, so that it ends after the same instruction as ever. A fused
//! pair is one entry in blocks; carefully, each half runs alone.
//!
//! What each operation does is in `step` (one arm per form or operation).

use super::Env;
use super::step::{Flow, fp_call, step};
use crate::hart::context::Context;
use crate::hart::decode::{Fast, FastOp, Form, for_each_fast_op};
use crate::hart::hardfloat::host_has_fma;

/// A handler: runs the entry `e` and the ones after it (by calling their
/// handlers in tail position), and returns the accumulator when the loop
/// ends (with [`Env::exit`] and [`Env::at`] set).
///
/// Safety: `e` points into the table `env.code..env.code + env.code_entries`,
/// whose last entry is [`FastOp::Slow`], and `mem` at `env.mem_len` words.
pub(super) type Handler =
    unsafe fn(*const Fast, &mut Context, *mut [u8; 4], u64, &'static Table, &mut Env<'_>) -> u64;

/// A handler per [`FastOp`], indexed by `FastOp as usize`.
pub(super) struct Table([Handler; FastOp::ALL.len()]);

/// Why the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Exit {
    /// The call's cycles are spent; `at` is the next instruction.
    End,
    /// The instruction at `at` is for the careful step (it had no effect).
    Slow,
}

/// The counts of blocks started at an entry (in blocks). The counts are
/// laid out as `ExecCounts::entries` says: entry `i`'s start and stop at
/// `2i` and `2i + 1` (so that an entry's start is at its own offset in
/// the table, an entry being 16 bytes), its runs alone at `2n + i`.
pub(super) const START: usize = 0;
/// The counts of blocks stopped at an entry, which had no effect (in blocks).
pub(super) const STOP: usize = 1;
/// The counts of an entry retired alone (carefully).
pub(super) const SINGLE: usize = 2;

/// What a table counts (its `E`): nothing (the tables of before energy
/// accounting),
pub(super) const NONE: u8 = 0;
/// executions, each block start by a bare increment (a run that is not
/// optimistic, or an optimistic one whose block starts are summed densely
/// when it ends: `ExecCounts::dense`),
pub(super) const COUNTED: u8 = 1;
/// or executions, noting each block-start counter that leaves zero (an
/// optimistic run on a table too long to sum densely).
pub(super) const NOTED: u8 = 2;

/// Counts entry `e` in array `which` of `env.counts` (in an optimistic
/// run, the pending counts, noting the counter when it leaves zero). No
/// call: the handlers that inline it keep their registers.
///
/// Safety: `e` is an entry of the table and `env.counts` is not null.
#[inline(always)]
unsafe fn count(env: &mut Env<'_>, e: *const Fast, which: usize) {
    let entry = (e as usize - env.code as usize) / size_of::<Fast>();
    let i = if which == SINGLE {
        2 * env.code_entries + entry
    } else {
        2 * entry + which
    };
    // SAFETY: the arrays hold `code_entries` counts each.
    unsafe { bump(env, env.counts.add(i), !env.touched.is_null()) };
}

/// [`count`] of a block start, for the hot path: whether the counter is
/// noted when it leaves zero (`E` is [`NOTED`]) known when compiled.
///
/// Safety: as for [`count`].
#[inline(always)]
unsafe fn count_start<const E: u8>(env: &mut Env<'_>, e: *const Fast) {
    const { assert!(size_of::<Fast>() == 16) };
    // The entry's counter of blocks started (`start_delta` as documented).
    let counter = (e as usize).wrapping_add(env.start_delta) as *mut u64;
    // SAFETY: as in `count` (an entry's start is at its offset in the
    // table); `env.touched` is not null in the tables that note.
    unsafe { bump(env, counter, E == NOTED) };
}

/// Adds one to `counter`, a counter of `env.counts`; in an optimistic run
/// (`pending`), first notes its index in `env.touched` when it is zero.
///
/// Safety: `counter` is in `env.counts`; with `pending`, `env.touched`
/// has room (each counter is noted once: `fast::run`).
#[inline(always)]
unsafe fn bump(env: &mut Env<'_>, counter: *mut u64, pending: bool) {
    // SAFETY: the caller's contract.
    unsafe {
        if pending && *counter == 0 {
            note_touched(env, counter);
        }
        *counter += 1;
    }
}

/// Notes `counter` in `env.touched` (once per counter and optimistic run;
/// inline all the same: a call would cost every handler that inlines it
/// its registers).
///
/// Safety: as for [`bump`].
#[inline(always)]
unsafe fn note_touched(env: &mut Env<'_>, counter: *mut u64) {
    // SAFETY: the caller's contract.
    unsafe {
        *env.touched = counter.offset_from(env.counts) as usize;
        env.touched = env.touched.add(1);
    }
}

/// Runs the loop from `e`: its block charged at once when the cycles left
/// cover it, else carefully.
#[inline(always)]
pub(super) fn start(
    e: &Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    blocks: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    let charged = acc.wrapping_add(e.rest);
    // SAFETY: the caller took `e` from the table `env` describes, which ends
    // with a `Slow` entry; `mem` is its memory.
    unsafe {
        if (charged as i64) < 0 {
            dispatch(e, ctx, mem, acc, env.careful, env)
        } else {
            if !env.counts.is_null() {
                count(env, e, START);
            }
            dispatch(e, ctx, mem, charged, blocks, env)
        }
    }
}

/// Calls the handler of entry `n`.
#[inline(always)]
unsafe fn dispatch(
    n: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    // SAFETY: `n` is an entry of the table (the caller's contract).
    let op = unsafe { (*n).op } as usize;
    // SAFETY: every `FastOp` is below `FastOp::ALL.len()` (`ALL` lists them
    // in `repr` order); `n` as above.
    unsafe { (t.0.get_unchecked(op))(n, ctx, mem, acc, t, env) }
}

/// Leaves the loop: `at` is where to resume.
#[inline(always)]
fn exit(env: &mut Env<'_>, exit: Exit, at: *const Fast, acc: u64) -> u64 {
    env.exit = exit;
    env.at = at;
    acc
}

/// Entry `e` cannot complete the ordinary way: it had no effect, and the
/// loop returns with the pc on it (in blocks, its charge and the rest of its
/// block's taken back).
#[inline(always)]
unsafe fn stop<const B: bool, const E: u8>(e: *const Fast, acc: u64, env: &mut Env<'_>) -> u64 {
    // SAFETY: `e` is an entry (the caller's contract).
    let acc = if B {
        // Counting (`E`) is the table's, known when compiled: the tables
        // that do not count have no trace of it (`env.counts` is then null).
        if E != NONE {
            // SAFETY: as above.
            unsafe { count(env, e, STOP) };
        }
        acc.wrapping_sub(unsafe { (*e).rest })
    } else {
        acc
    };
    exit(env, Exit::Slow, e, acc)
}

/// Entry `e`, which does not end its block, retired: on to the next one
/// (carefully, charging `e` and ending the loop when the cycles are spent).
#[inline(always)]
unsafe fn next<const B: bool, const E: u8>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    mut acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    // SAFETY: `e` does not end its block, so it is not the last entry (a
    // `Slow` one).
    let n = unsafe { e.add(1) };
    if !B {
        if E != NONE {
            // SAFETY: `e` is an entry.
            unsafe { count(env, e, SINGLE) };
        }
        // SAFETY: `e` and `n` are entries.
        let own = unsafe { (*e).rest.wrapping_sub((*n).rest) };
        acc = acc.wrapping_add(own);
        if (acc as i64) < 0 {
            return exit(env, Exit::End, n, acc);
        }
    }
    // SAFETY: `n` is an entry.
    unsafe { dispatch(n, ctx, mem, acc, t, env) }
}

/// Control transfer `e` retired, to entry `n`, taking `extra` more cycles
/// (an accumulator step): the loop ends when the cycles are spent, else
/// the block at `n` starts (carefully when it does not fit).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn transfer<const B: bool, const E: u8, const U: bool>(
    e: *const Fast,
    n: *const Fast,
    extra: u64,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    mut acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    if !B {
        // SAFETY: `e` is an entry; it ends its block, so `rest` is its own.
        acc = acc.wrapping_add(unsafe { (*e).rest });
        if E != NONE {
            // SAFETY: as above.
            unsafe { count(env, e, SINGLE) };
        }
    }
    if !B || extra != 0 {
        acc = acc.wrapping_sub(extra);
        if (acc as i64) < 0 {
            return exit(env, Exit::End, n, acc);
        }
    }
    if B {
        // SAFETY: `n` is an entry (`step` checks every target).
        let charged = acc.wrapping_add(unsafe { (*n).rest });
        if (charged as i64) < 0 {
            // SAFETY: as above.
            return unsafe { dispatch(n, ctx, mem, acc, env.careful, env) };
        }
        acc = charged;
        if E != NONE {
            // SAFETY: as above.
            unsafe { count_start::<E>(env, n) };
        }
    }
    // SAFETY: as above.
    unsafe { dispatch(n, ctx, mem, acc, t, env) }
}

/// The handler of an operation that runs alone: `step`, then on.
#[inline(always)]
unsafe fn single_body<const OP: u8, const B: bool, const FMA: bool, const U: bool, const E: u8>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    // SAFETY: the handler's contract.
    unsafe {
        match step::<OP, B, FMA, U>(e, ctx, mem, acc, env) {
            Flow::Next => next::<B, E>(e, ctx, mem, acc, t, env),
            Flow::To(n, extra) => transfer::<B, E, U>(e, n, extra, ctx, mem, acc, t, env),
            Flow::Stop => stop::<B, E>(e, acc, env),
            Flow::Fp => fp_careful::<B, U, E>(e, ctx, mem, acc, t, env),
        }
    }
}

/// The handler's part of [`Flow::Fp`]: the careful step's F or D semantics
/// for entry `e` (which does not end its block), then on. Out of line, and
/// reached by a tail call, so that the FP handlers' fast path holds no call.
#[inline(never)]
unsafe fn fp_careful<const B: bool, const U: bool, const E: u8>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    // SAFETY: the handler's contract.
    unsafe {
        if fp_call(ctx, &*e) {
            next::<B, E>(e, ctx, mem, acc, t, env)
        } else {
            stop::<B, E>(e, acc, env)
        }
    }
}

/// [`single_body`] as a handler.
unsafe fn single<const OP: u8, const B: bool, const U: bool, const E: u8>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    // SAFETY: the handler's contract.
    unsafe { single_body::<OP, B, false, U, E>(e, ctx, mem, acc, t, env) }
}

/// [`single_body`] as a handler that may use the host's fused
/// multiply-add (only in code compiled with the feature).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn single_fma<const OP: u8, const B: bool, const U: bool, const E: u8>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    // SAFETY: the handler's contract.
    unsafe { single_body::<OP, B, true, U, E>(e, ctx, mem, acc, t, env) }
}

/// Elsewhere, a CPU with the fused multiply-add (`host_has_fma`) has it in
/// every build.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn single_fma<const OP: u8, const B: bool, const U: bool, const E: u8>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    // SAFETY: the handler's contract.
    unsafe { single_body::<OP, B, true, U, E>(e, ctx, mem, acc, t, env) }
}

/// The handler of a fused pair (blocks only): operation `A` on entry `e`,
/// then `C` on the next entry, with one dispatch.
unsafe fn pair<const A: u8, const C: u8, const U: bool, const E: u8>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    t: &'static Table,
    env: &mut Env<'_>,
) -> u64 {
    // SAFETY: the handler's contract; a pair's first entry does not end its
    // block, so the second is the next entry.
    unsafe {
        match step::<A, true, false, U>(e, ctx, mem, acc, env) {
            Flow::Next => single_body::<C, true, false, U, E>(e.add(1), ctx, mem, acc, t, env),
            Flow::To(n, extra) => transfer::<true, E, U>(e, n, extra, ctx, mem, acc, t, env),
            Flow::Stop => stop::<true, E>(e, acc, env),
            Flow::Fp => fp_careful::<true, U, E>(e, ctx, mem, acc, t, env),
        }
    }
}

macro_rules! define_tables {
    (
        own: [$($own:ident),* $(,)?],
        pairs: [$($pair:ident = $first:ident $second:ident),* $(,)?],
        rows: [$($form:ident $op:ident $args:tt,)*]
    ) => {
        /// The handler of `op`: in blocks (`B`) or carefully (a pair's
        /// first half alone), with the host's fused multiply-add (`FMA`)
        /// for the rounded FP arithmetic, for a run while memory logs
        /// stores for undo (`U`) or not.
        const fn handler<const B: bool, const FMA: bool, const U: bool, const E: u8>(
            op: FastOp,
        ) -> Handler {
            match op {
                $(FastOp::$own => single::<{ FastOp::$own as u8 }, B, U, E>,)*
                $(FastOp::$op if FMA && Form::$form.rounds() => {
                    single_fma::<{ FastOp::$op as u8 }, B, U, E>
                })*
                $(FastOp::$op => single::<{ FastOp::$op as u8 }, B, U, E>,)*
                $(FastOp::$pair if B => pair::<{ FastOp::$first as u8 }, { FastOp::$second as u8 }, U, E>,)*
                $(FastOp::$pair => single::<{ FastOp::$first as u8 }, false, U, E>,)*
            }
        }
    };
}

for_each_fast_op!(define_tables);

/// The table of every handler.
const fn table<const B: bool, const FMA: bool, const U: bool, const E: u8>() -> Table {
    let mut t = [handler::<B, FMA, U, E>(FastOp::Slow); FastOp::ALL.len()];
    let mut i = 0;
    while i < t.len() {
        t[FastOp::ALL[i] as usize] = handler::<B, FMA, U, E>(FastOp::ALL[i]);
        i += 1;
    }
    Table(t)
}

/// The (blocks, careful) pair of tables that count `E`, indexed
/// `[FMA][U]`.
const fn tables_of<const E: u8>() -> [[(Table, Table); 2]; 2] {
    [
        [
            (
                table::<true, false, false, E>(),
                table::<false, false, false, E>(),
            ),
            (
                table::<true, false, true, E>(),
                table::<false, false, true, E>(),
            ),
        ],
        [
            (
                table::<true, true, false, E>(),
                table::<false, true, false, E>(),
            ),
            (
                table::<true, true, true, E>(),
                table::<false, true, true, E>(),
            ),
        ],
    ]
}

/// The tables: in blocks or careful; with the host's fused multiply-add or
/// without; while memory logs stores for undo or not; counting executions
/// ([`COUNTED`]) or not ([`NONE`]). Indexed `[E][FMA][U]`, each the
/// (blocks, careful) pair.
static TABLES: [[[(Table, Table); 2]; 2]; 2] = [tables_of::<NONE>(), tables_of::<COUNTED>()];

/// The tables that note block starts ([`NOTED`]), for optimistic runs only
/// (memory logs stores for undo), indexed `[FMA]`.
static NOTED_TABLES: [(Table, Table); 2] = [
    (
        table::<true, false, true, NOTED>(),
        table::<false, false, true, NOTED>(),
    ),
    (
        table::<true, true, true, NOTED>(),
        table::<false, true, true, NOTED>(),
    ),
];

/// The tables in blocks and careful, for this host, for a run while
/// memory logs stores for undo (`undo`) or not, counting `count`
/// ([`NONE`], [`COUNTED`], [`NOTED`]: only while memory logs stores for
/// undo; else as [`COUNTED`]), on a host with a fused multiply-add
/// ([`host_has_fma`]) or not (`fma`).
pub(super) fn tables(undo: bool, count: u8, fma: bool) -> (&'static Table, &'static Table) {
    debug_assert_eq!(fma, host_has_fma());
    let fma = fma as usize;
    let (blocks, careful) = match count {
        NOTED if undo => &NOTED_TABLES[fma],
        NOTED => &TABLES[COUNTED as usize][fma][0],
        _ => &TABLES[count as usize][fma][undo as usize],
    };
    (blocks, careful)
}
