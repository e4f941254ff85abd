//! A tile: local memory, predecoded text, thread contexts, the preemptive
//! round-robin scheduler and the cycle accounting of scmp-machine.md section 7.
//!
//! The tile advances on its own clock to a limit the machine gives it (an
//! epoch end). The hot loop ([`Tile::run_slice`]) runs one context's
//! straight-line instructions until its slice ends (limit, or quantum expiry
//! while another context is ready) or something needs the scheduler (host
//! call, yield, end of thread, messaging, fault). Suspended contexts and idle
//! tiles cost nothing per cycle: an idle tile jumps its clock forward.
//!
//! Over 600 lines: the scheduler and the slice loop (`Tile::run_slice`, the
//! hot path) are one piece; messaging, checkpoints and debugging have files
//! of their own.

mod checkpoint;
pub use checkpoint::Checkpoint;
mod debug;
mod messaging;
mod spin;
mod swap;
pub use swap::{CAUSE_SWAP_IN, CAUSE_SWAP_OUT, SwapVectors};

use std::sync::Arc;

use crate::fault::{FaultCause, FaultReport};
use crate::hart::context::{Context, ContextState, SuspendCause};
use crate::hart::csr::Identity;
use crate::hart::decode::{Decoded, DecodedText, Fast};
use crate::hart::effects::{Effects, Stop};
use crate::hart::execute::Hart;
use crate::hart::fast::{self, ExecCounts, FastEnv, FastExit, FastState};
use crate::hart::files::Files;
use crate::hart::host;
use crate::hart::memory::Memory;
use crate::hart::reservations::Reservations;
use crate::hart::service::{HostOutcome, OutputEvent};
use crate::hart::timing::CostTable;
use crate::trace::{TraceFilter, TraceRecord};

/// Why a tile stopped the whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// `exit`: the code, and the cycle at which the exit call retired.
    Exit {
        /// Exit code.
        code: i32,
        /// Cycle after the call.
        cycle: u64,
    },
    /// A guest fault.
    Fault(FaultReport),
}

impl Halt {
    /// The cycle at which the run ends because of it.
    pub fn cycle(&self) -> u64 {
        match self {
            Halt::Exit { cycle, .. } => *cycle,
            Halt::Fault(r) => r.cycle,
        }
    }
}

/// A messaging instruction a tile stopped at, for the NIU to take in the
/// cycle it issues (the tile's `now`).
#[derive(Clone, Copy, Debug)]
pub struct Parked {
    /// The issuing context.
    pub context: usize,
    /// The instruction.
    pub decoded: Decoded,
}

/// Where a tile is, for the machine's scheduling of tiles and network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileState {
    /// Has a context that can issue: it runs on its own clock.
    Runnable,
    /// Stopped before a messaging instruction issuing at `now`.
    Parked,
    /// Every thread is suspended: nothing issues until the NIU wakes one.
    Idle,
    /// No thread (a thread message can start one).
    Finished,
    /// Stopped the run (exit or fault).
    Halted,
}

/// Cycles of a tile by pipeline state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TileCounters {
    /// Cycles in which an instruction occupied the pipeline.
    pub issuing: u64,
    /// Cycles spent switching between contexts.
    pub switching: u64,
    /// Cycles with no ready context.
    pub idle: u64,
    /// Of `issuing`: the cycles of threads a thread message started
    /// (handlers), not boot threads.
    pub handler_issuing: u64,
    /// Of `issuing`: the cycles of poll iterations (see [`POLL_SPAN`]) and
    /// of messaging instructions that poll (`niu.wait = "poll"`).
    pub polling: u64,
    /// Of `polling`: the handlers' share.
    pub handler_polling: u64,
    /// `idle` by what the tile waited for: the cause of the suspension of
    /// the context that suspended last before it went idle
    /// ([`SuspendCause::ALL`] order), then no thread at all
    /// ([`IDLE_NO_THREAD`]).
    pub idle_by: [u64; IDLE_KINDS],
    /// Context-exhaustion exceptions raised (threads swapped out,
    /// `niu.context_exhausted = "swap"`).
    pub swaps_out: u64,
    /// Saved threads that resumed.
    pub swaps_in: u64,
}

/// A poll iteration: at most this many instructions of one thread ending
/// in a `yield` (the libraries' flag and slot waits take 4 a look; a
/// thread that yields after more work than this is not counted as
/// polling).
pub const POLL_SPAN: u64 = 32;

/// Kinds of idle time: one per [`SuspendCause`], then no thread.
pub const IDLE_KINDS: usize = SuspendCause::ALL.len() + 1;

/// The index in [`TileCounters::idle_by`] of a tile without a thread.
pub const IDLE_NO_THREAD: usize = SuspendCause::ALL.len();

/// Index of a wait site's polling cycles in [`Tile::sites`].
pub const SITE_POLLING: usize = 0;
/// Index of a wait site's idle cycles in [`Tile::sites`].
pub const SITE_IDLE: usize = 1;

/// The scheduler and stack parameters a tile needs.
#[derive(Clone, Debug)]
pub struct TileParams {
    /// Preemption quantum in cycles.
    pub quantum: u64,
    /// Cycles of a context switch.
    pub switch_cycles: u64,
    /// Memory size.
    pub memory_bytes: u64,
    /// Stack bytes per context.
    pub stack_bytes: u64,
    /// Contexts.
    pub contexts: u32,
    /// The context-exhaustion exception's handlers, with
    /// `niu.context_exhausted = "swap"`.
    pub swap: Option<SwapVectors>,
}

/// The tile's clock, its scheduler's state and its cycle counters: what a
/// checkpoint saves of the tile besides contexts, reservations and memory
/// (one struct, so that a field added here is saved and restored too).
#[derive(Clone, Debug, Default)]
struct Schedule {
    /// The tile's clock.
    now: u64,
    /// The context holding the pipeline.
    current: Option<usize>,
    /// The context that issued last (round robin starts after it).
    last_issuer: Option<usize>,
    /// When the current slice started (for the quantum).
    slice_start: u64,
    /// Contexts in state Ready.
    ready: u32,
    /// Contexts holding a thread.
    live: u32,
    /// Cycles by pipeline state.
    counters: TileCounters,
    /// The cycle its last thread ended, while it has none.
    finished_at: Option<u64>,
    /// No instruction issued at or after this cycle so far.
    issued_before: u64,
    /// What idle time is charged to: an [`TileCounters::idle_by`] index and
    /// the pc of the suspended context; `None` when a context's state
    /// changed since it was worked out.
    idle_reason: Option<(usize, Option<u32>)>,
}

/// One tile of the mesh.
pub struct Tile {
    /// Node id.
    pub id: u32,
    /// Local memory.
    pub memory: Memory,
    text: DecodedText,
    costs: Arc<CostTable>,
    /// Hardware thread contexts.
    pub contexts: Vec<Context>,
    reservations: Reservations,
    identity: Identity,
    /// The clock, the scheduler and the cycle counters.
    sched: Schedule,
    params: TileParams,
    /// A messaging instruction waiting for its NIU: the tile stopped before
    /// it, at `now`, with its context holding the pipeline.
    parked: Option<Parked>,
    /// Output written since the machine last collected it.
    pub output: Vec<OutputEvent>,
    /// Trace records since the machine last collected them.
    pub trace: Vec<TraceRecord>,
    /// Set when the tile stopped the run.
    halt: Option<Halt>,
    /// [`Tile::state`], worked out again (`refresh_state`) at the end of
    /// every public method that can change what it is made of (`halt`,
    /// `parked`, the scheduler's `live`, `ready` and `current`): the
    /// global loop asks for it several times per tile per round.
    state: TileState,
    /// Per context: the pc of the `sendh` of a message it has open (no
    /// tail yet). Only messaging instructions change it, never in an
    /// optimistic run, so the checkpoint need not hold it.
    pub open_message: Vec<Option<u32>>,
    /// Where polling and idle time went, by the code address of the
    /// polling `yield` or of the instruction the waited-for context
    /// suspended at: `(pc, [polling, idle])` ([`SITE_POLLING`],
    /// [`SITE_IDLE`]), in order of first use.
    pub sites: Vec<(u32, [u64; 2])>,
    /// The entry of `sites` charged last (poll loops charge one again and again).
    last_site: usize,
    /// While an optimistic run is unconfirmed: `sites` entries before it
    /// changed them, to put back on a rollback.
    sites_undo: Vec<(usize, [u64; 2])>,
    /// The state before an optimistic run, while it is not confirmed.
    checkpoint: Option<Box<Checkpoint>>,
    /// The clock at the checkpoint (its copy, beside the tile's hot fields:
    /// the global loop asks for it for every tile in every round).
    checkpoint_at: u64,
    /// Output events and trace records taken out so far (the checkpoint
    /// counts from the start).
    output_taken: usize,
    trace_taken: usize,
    /// The tile's view of the files its programs open (saved in a
    /// checkpoint).
    pub files: Files,
    /// Instructions by timing class, for the energy model (none unless
    /// `energy.enabled`).
    counts: Option<Box<ExecCounts>>,
    /// Whether the host has a fused multiply-add (asked once, for the fast
    /// loop's tables).
    host_fma: bool,
}

impl Tile {
    /// A tile with memory loaded from `image` segments (already checked).
    pub fn new(
        id: u32,
        identity: Identity,
        memory: Memory,
        text: DecodedText,
        costs: Arc<CostTable>,
        params: TileParams,
    ) -> Tile {
        let contexts = params.contexts as usize;
        Tile {
            id,
            memory,
            text,
            costs,
            contexts: (0..params.contexts).map(|_| Context::new()).collect(),
            reservations: Reservations::default(),
            identity,
            sched: Schedule {
                finished_at: Some(0),
                ..Schedule::default()
            },
            params,
            parked: None,
            output: Vec::new(),
            trace: Vec::new(),
            halt: None,
            state: TileState::Finished,
            open_message: vec![None; contexts],
            sites: Vec::new(),
            last_site: 0,
            sites_undo: Vec::new(),
            checkpoint: None,
            checkpoint_at: 0,
            output_taken: 0,
            trace_taken: 0,
            files: Files::default(),
            counts: None,
            host_fma: crate::hart::hardfloat::host_has_fma(),
        }
    }

    /// Counts the instructions it retires by timing class (the energy
    /// model's `energy.enabled`), from now on.
    pub fn count_instructions(&mut self) {
        self.counts = Some(Box::new(ExecCounts::new(self.text.fast.len())));
    }

    /// Instructions retired by timing class (`TimingClass as usize`), if
    /// counted; the loop's counts are folded in first.
    pub fn instructions_by_class(&mut self) -> Option<[u64; isa_spec::TimingClass::ALL.len()]> {
        let counts = self.counts.as_mut()?;
        counts.fold(&self.text.fast, &self.text.words);
        Some(counts.by_class)
    }

    /// The tile's clock: the cycle its next instruction issues at.
    pub fn now(&self) -> u64 {
        self.sched.now
    }

    /// Cycles by pipeline state.
    pub fn counters(&self) -> &TileCounters {
        &self.sched.counters
    }

    /// The cycle its last thread ended, while it has none.
    pub fn finished_at(&self) -> Option<u64> {
        self.sched.finished_at
    }

    /// No instruction issued at or after this cycle so far.
    pub fn issued_before(&self) -> u64 {
        self.sched.issued_before
    }

    /// The initial stack pointer of context `c`.
    pub fn stack_top(&self, c: usize) -> u32 {
        (self.params.memory_bytes - c as u64 * self.params.stack_bytes) as u32
    }

    /// Starts a thread at `pc` in the first free context; `None` if all are busy.
    pub fn start_thread(&mut self, pc: u32, args: &[u32]) -> Option<usize> {
        let c = self.contexts.iter().position(|c| !c.is_live())?;
        let sp = self.stack_top(c);
        let now = self.sched.now;
        self.contexts[c].start(pc, sp, args, now);
        self.sched.ready += 1;
        self.sched.live += 1;
        self.sched.finished_at = None;
        self.refresh_state();
        Some(c)
    }

    /// Whether the tile has no thread.
    pub fn is_finished(&self) -> bool {
        self.sched.finished_at.is_some()
    }

    /// Where the tile is.
    #[inline]
    pub fn state(&self) -> TileState {
        debug_assert_eq!(
            self.state,
            self.computed_state(),
            "tile {}: state not refreshed after a change",
            self.id
        );
        self.state
    }

    /// Why the tile stopped the run, if it did.
    #[inline]
    pub fn halt(&self) -> Option<&Halt> {
        self.halt.as_ref()
    }

    /// Takes back the halt (a debugger resuming past a fault).
    pub fn clear_halt(&mut self) {
        self.halt = None;
        self.refresh_state();
    }

    /// The messaging instruction waiting for its NIU, if any.
    #[inline]
    pub fn parked(&self) -> Option<Parked> {
        self.parked
    }

    /// Keeps `state` up to date after a change.
    #[inline]
    fn refresh_state(&mut self) {
        self.state = self.computed_state();
    }

    /// Where the tile is, from the fields that say it.
    fn computed_state(&self) -> TileState {
        if self.halt.is_some() {
            TileState::Halted
        } else if self.parked.is_some() {
            TileState::Parked
        } else if self.sched.live == 0 {
            TileState::Finished
        } else if self.sched.current.is_none() && self.sched.ready == 0 {
            TileState::Idle
        } else {
            TileState::Runnable
        }
    }

    /// Takes the output events stamped at or before `cut` (in order).
    pub fn take_output(&mut self, cut: u64) -> impl Iterator<Item = OutputEvent> + '_ {
        let keep = self
            .output
            .iter()
            .position(|e| e.cycle > cut)
            .unwrap_or(self.output.len());
        self.output_taken += keep;
        self.output.drain(..keep)
    }

    /// Takes the trace records stamped at or before `cut` (in order).
    pub fn take_trace(&mut self, cut: u64) -> impl Iterator<Item = TraceRecord> + '_ {
        let keep = self
            .trace
            .iter()
            .position(|r| r.cycle > cut)
            .unwrap_or(self.trace.len());
        self.trace_taken += keep;
        self.trace.drain(..keep)
    }

    /// Whether context `c` holds no thread.
    pub fn context_free(&self, c: usize) -> bool {
        !self.contexts[c].is_live()
    }

    /// Advances the tile until its clock reaches `limit`, it has no thread
    /// left, or it halts the run. `TRACE` records retired instructions that
    /// pass `filter` into [`Tile::trace`].
    pub fn run_until<const TRACE: bool>(&mut self, limit: u64, filter: &TraceFilter) {
        self.run_until_inner::<TRACE>(limit, filter);
        self.refresh_state();
        self.sched.issued_before = self.sched.issued_before.max(self.sched.now.min(limit));
    }

    fn run_until_inner<const TRACE: bool>(&mut self, limit: u64, filter: &TraceFilter) {
        // Only a stop (`handle_stop`) halts the run or parks the tile: asked
        // here and after one, not per slice.
        if self.halt.is_some() || self.parked.is_some() {
            return;
        }
        // A slice's stop, written by `run_slice` only when it stops (few
        // slices do): no record moved or allocated per slice.
        let mut stopped = None;
        while self.sched.now < limit {
            let c = match self.sched.current {
                Some(c) => c,
                None => match self.pick_next() {
                    Some(c) => {
                        self.dispatch(c);
                        continue;
                    }
                    None => {
                        if self.sched.live == 0 {
                            self.sched.finished_at.get_or_insert(self.sched.now);
                        }
                        // Every thread is suspended (or none is left):
                        // nothing issues until the NIU starts or wakes one;
                        // the clock waits (see `apply`).
                        return;
                    }
                },
            };
            let end = if self.sched.ready > 0 {
                let quantum_end = self.sched.slice_start + self.params.quantum;
                if self.sched.now >= quantum_end {
                    self.preempt(c);
                    continue;
                }
                limit.min(quantum_end)
            } else {
                limit
            };
            self.run_slice::<TRACE>(c, end, filter, &mut stopped);
            if let Some((stop, decoded)) = stopped.take() {
                self.handle_stop::<TRACE>(c, stop, decoded, filter);
                if self.halt.is_some() || self.parked.is_some() {
                    return;
                }
            }
        }
    }

    /// The next ready context in round-robin order after the last one to issue.
    fn pick_next(&self) -> Option<usize> {
        let n = self.contexts.len();
        let start = self.sched.last_issuer.map_or(0, |c| (c + 1).min(n));
        // start, start + 1, .., n - 1, 0, .., start - 1 (no division).
        (start..n)
            .chain(0..start)
            .find(|&c| self.contexts[c].state == ContextState::Ready)
    }

    fn dispatch(&mut self, c: usize) {
        if self.sched.last_issuer.is_some_and(|last| last != c) {
            self.sched.now += self.params.switch_cycles;
            self.sched.counters.switching += self.params.switch_cycles;
        }
        self.contexts[c].set_state(ContextState::Running, self.sched.now);
        self.sched.ready -= 1;
        self.sched.current = Some(c);
        self.sched.last_issuer = Some(c);
        self.sched.slice_start = self.sched.now;
        self.identity.context = c as u32;
    }

    fn preempt(&mut self, c: usize) {
        self.contexts[c].set_state(ContextState::Ready, self.sched.now);
        self.sched.ready += 1;
        self.sched.current = None;
    }

    /// Runs context `c` until the clock reaches `end` or an instruction stops
    /// the straight-line flow; writes that stop with the instruction into
    /// `stopped` (left as it is, `None`, when the slice reaches `end`).
    ///
    /// Untraced, the fast loop ([`crate::hart::fast`]) runs the frequent
    /// instructions and hands every other one to the general step
    /// (`step`); traced, every instruction takes the general step.
    fn run_slice<const TRACE: bool>(
        &mut self,
        c: usize,
        end: u64,
        filter: &TraceFilter,
        stopped: &mut Option<(Stop, Decoded)>,
    ) {
        let Tile {
            id,
            memory,
            text,
            costs,
            contexts,
            reservations,
            identity,
            sched,
            trace,
            counts,
            host_fma,
            ..
        } = self;
        let now = &mut sched.now;
        let words: &[Decoded] = &text.words;
        let fast: &[Fast] = &text.fast;
        let base = text.base;
        let start = *now;
        let ctx = &mut contexts[c];
        // The pc, the clock and the retired count live in registers during
        // the slice; the context gets them back when it ends.
        let mut st = FastState {
            pc: ctx.pc,
            clock: start,
            retired: 0,
        };
        // The fast loop relies on memory of at most 2 GiB (as configured).
        let use_fast = !TRACE && memory.len() <= 1 << 31;
        // One effects record for the slice, made at the first general
        // step (most slices take none): reset per instruction only when
        // tracing, so that the untraced steps do not touch it.
        let mut fx: Option<Effects> = None;
        while st.clock < end {
            // (A pc outside the table, where only a `jalr` goes, takes the
            // careful step straight away.)
            if use_fast && ((st.pc.wrapping_sub(base) >> 2) as usize) < words.len() {
                let (bytes, code_base, code_len, undo) = memory.fast_parts();
                let (counts_ptr, touched_ptr, note_starts) = match counts.as_deref_mut() {
                    Some(c) if undo.is_some() => (
                        c.pending.as_mut_ptr(),
                        &mut c.touched as *mut Vec<usize>,
                        !c.dense(),
                    ),
                    Some(c) => (c.entries.as_mut_ptr(), std::ptr::null_mut(), false),
                    None => (std::ptr::null_mut(), std::ptr::null_mut(), false),
                };
                let env = FastEnv {
                    base,
                    code_base,
                    code_len,
                    taken_extra: costs.branch_taken_extra,
                    undo,
                    counts: counts_ptr,
                    touched: touched_ptr,
                    note_starts,
                    fma: *host_fma,
                };
                let mem_words = bytes.as_chunks_mut::<4>().0;
                let exit = fast::run(
                    &mut *ctx,
                    c,
                    identity,
                    &mut *reservations,
                    mem_words,
                    fast,
                    &env,
                    &mut st,
                    end,
                );
                if exit == FastExit::End {
                    // The clock reached `end`, or the loop's cycle budget.
                    continue;
                }
                if let Some(s) = fast::stop_at(fast, base, st.pc) {
                    let i = (st.pc.wrapping_sub(base) >> 2) as usize;
                    *stopped = Some((s, words[i]));
                    break;
                }
            }
            // The general step's view of the context (made here, not per
            // slice: most slices never take it).
            let mut hart = Hart {
                ctx: &mut *ctx,
                index: c,
                mem: &mut *memory,
                reservations: &mut *reservations,
                id: identity,
                branch_taken_extra: costs.branch_taken_extra,
            };
            match step::<TRACE>(
                &mut hart,
                words,
                base,
                costs,
                &mut st,
                c,
                *id,
                filter,
                trace,
                fx.get_or_insert_with(Effects::default),
                counts.as_deref_mut(),
            ) {
                Step::Retired => {}
                Step::CodeWritten => break,
                Step::Stop(s, d) => {
                    *stopped = Some((s, d));
                    break;
                }
            }
        }
        let (pc, clock, retired) = (st.pc, st.clock, st.retired);
        ctx.pc = pc;
        let spent = clock - start;
        *now = clock;
        ctx.instret += retired;
        ctx.counters.running += spent;
        ctx.counters.instructions += retired;
        self.sched.counters.issuing += spent;
        if ctx.handler {
            self.sched.counters.handler_issuing += spent;
        }
        self.redecode_written_code();
    }

    /// Retires a scheduler-visible instruction of context `c`: its cycles,
    /// counters, trace record and the pc step.
    fn retire<const TRACE: bool>(
        &mut self,
        c: usize,
        decoded: &Decoded,
        effects: Effects,
        filter: &TraceFilter,
    ) {
        let ctx = &mut self.contexts[c];
        if TRACE && filter.wants(c as u32, self.sched.now) {
            self.trace.push(TraceRecord {
                cycle: self.sched.now,
                tile: self.id,
                context: c as u32,
                pc: ctx.pc,
                word: decoded.word,
                inst: decoded.inst.expect("a retired instruction decoded"),
                effects,
            });
        }
        if let Some(counts) = &mut self.counts {
            counts.retired(decoded);
        }
        let cost = decoded.cost as u64;
        self.sched.now += cost;
        self.sched.counters.issuing += cost;
        if ctx.handler {
            self.sched.counters.handler_issuing += cost;
        }
        ctx.counters.running += cost;
        ctx.counters.instructions += 1;
        ctx.instret += 1;
        ctx.pc = ctx.pc.wrapping_add(4);
    }

    fn fault(&mut self, c: usize, cause: FaultCause, word: Option<u32>) {
        self.halt = Some(Halt::Fault(FaultReport {
            tile: self.id,
            context: c as u32,
            pc: self.contexts[c].pc,
            cycle: self.sched.now,
            word,
            cause,
            last_trace: Vec::new(),
            symbol: None,
            callers: Vec::new(),
        }));
    }

    #[cold]
    fn handle_stop<const TRACE: bool>(
        &mut self,
        c: usize,
        stop: Stop,
        decoded: Decoded,
        filter: &TraceFilter,
    ) {
        let word = decoded.inst.map(|_| decoded.word).or(match stop {
            Stop::Fault(FaultCause::IllegalInstruction { word }) => Some(word),
            _ => None,
        });
        match stop {
            Stop::Fault(cause) => self.fault(c, cause, word),
            Stop::HostCall => {
                let ctx = &mut self.contexts[c];
                ctx.outside += 1;
                let before = (ctx.x[10], ctx.x[11]);
                let result = host::call(
                    ctx,
                    &mut self.memory,
                    &mut self.files,
                    self.sched.now,
                    self.id,
                    c as u32,
                    &mut self.output,
                );
                let after = (ctx.x[10], ctx.x[11]);
                // A file read may have written over code.
                if self.memory.code_was_written() {
                    self.redecode_written_code();
                }
                match result {
                    Err(cause) => self.fault(c, cause, word),
                    Ok(outcome) => {
                        let mut fx = Effects::default();
                        if TRACE && after.0 != before.0 {
                            fx.x = Some((10, after.0));
                        }
                        if TRACE && after.1 != before.1 {
                            fx.x2 = Some((11, after.1));
                        }
                        self.retire::<TRACE>(c, &decoded, fx, filter);
                        if let HostOutcome::Exit(code) = outcome {
                            self.halt = Some(Halt::Exit {
                                code,
                                cycle: self.sched.now,
                            });
                        }
                    }
                }
            }
            Stop::Yield => {
                let pc = self.contexts[c].pc;
                self.retire::<TRACE>(c, &decoded, Effects::default(), filter);
                let ctx = &mut self.contexts[c];
                let (instructions, running) = ctx.poll_mark;
                ctx.poll_mark = (ctx.counters.instructions, ctx.counters.running);
                let (span, cycles) = (
                    ctx.counters.instructions - instructions,
                    ctx.counters.running - running,
                );
                if span <= POLL_SPAN {
                    self.charge_polling(c, pc, cycles);
                }
                self.preempt(c);
            }
            Stop::EndThread => {
                if let Some(sendh) = self.open_message[c] {
                    // A message without its tail would hold its path
                    // through the network, or its send entry, for ever.
                    self.fault(
                        c,
                        FaultCause::Messaging {
                            mnemonic: "endt",
                            reason: format!(
                                "the thread ends with a message open: the sendh at {sendh:#010x} started it and no sende, send2e or sendme ended it (a message ends with its tail flit)"
                            ),
                        },
                        word,
                    );
                    return;
                }
                self.sched.idle_reason = None;
                self.retire::<TRACE>(c, &decoded, Effects::default(), filter);
                if self.swap_at_end(c) {
                    return;
                }
                self.contexts[c].set_state(ContextState::Free, self.sched.now);
                self.reservations.clear(c);
                self.sched.current = None;
                self.sched.live -= 1;
                if self.sched.live == 0 {
                    self.sched.finished_at = Some(self.sched.now);
                }
            }
            Stop::Return => {
                self.retire::<TRACE>(c, &decoded, Effects::default(), filter);
                self.trap_return(c);
            }
            Stop::CodeWritten => unreachable!("run_slice retires stores into the text itself"),
            Stop::Messaging => {
                // The NIU takes it in the network's cycle `now`.
                self.parked = Some(Parked {
                    context: c,
                    decoded,
                });
            }
        }
    }

    /// Charges `cycles` of context `c`'s issuing, at `pc`, to polling.
    pub(crate) fn charge_polling(&mut self, c: usize, pc: u32, cycles: u64) {
        self.sched.counters.polling += cycles;
        if self.contexts[c].handler {
            self.sched.counters.handler_polling += cycles;
        }
        self.charge_site(pc, SITE_POLLING, cycles);
    }

    /// Charges `cycles` of idle time to what the tile waits for.
    pub(crate) fn charge_idle(&mut self, cycles: u64) {
        self.sched.counters.idle += cycles;
        let (kind, pc) = match self.sched.idle_reason {
            Some(r) => r,
            None => {
                let r = self.why_idle();
                self.sched.idle_reason = Some(r);
                r
            }
        };
        self.sched.counters.idle_by[kind] += cycles;
        if let Some(pc) = pc {
            self.charge_site(pc, SITE_IDLE, cycles);
        }
    }

    fn charge_site(&mut self, pc: u32, what: usize, cycles: u64) {
        if cycles == 0 {
            return;
        }
        let i = match self.sites.get(self.last_site) {
            Some((p, _)) if *p == pc => self.last_site,
            _ => match self.sites.iter().position(|(p, _)| *p == pc) {
                Some(i) => i,
                None => {
                    self.sites.push((pc, [0; 2]));
                    self.sites.len() - 1
                }
            },
        };
        self.last_site = i;
        if self.memory.undo_active() {
            self.sites_undo.push((i, self.sites[i].1));
        }
        self.sites[i].1[what] += cycles;
    }

    /// What the tile waits for now that no context is ready: the cause and
    /// pc of the live context that suspended last, or no thread.
    fn why_idle(&self) -> (usize, Option<u32>) {
        self.contexts
            .iter()
            .filter_map(|ctx| match ctx.state {
                ContextState::Suspended(cause) => Some((ctx.state_since, cause, ctx.pc)),
                _ => None,
            })
            .max_by_key(|(since, _, _)| *since)
            .map_or((IDLE_NO_THREAD, None), |(_, cause, pc)| {
                let kind = SuspendCause::ALL
                    .iter()
                    .position(|c| *c == cause)
                    .expect("every cause is listed");
                (kind, Some(pc))
            })
    }

    /// Ends the tile's accounting at cycle `end`: idle time up to it, and the
    /// contexts' state times.
    pub fn close(&mut self, end: u64) {
        if self.sched.now < end {
            self.charge_idle(end - self.sched.now);
            self.sched.now = end;
        } else if self.sched.now > end {
            // The last instruction (or the switch to its context) was
            // still under way at the end: its cycles after the end do not
            // count.
            let mut over = self.sched.now - end;
            if self.sched.slice_start > end {
                let switching = (self.sched.slice_start - end)
                    .min(over)
                    .min(self.sched.counters.switching);
                self.sched.counters.switching -= switching;
                over -= switching;
                // The context switched to waited, Ready, until the switch
                // ended (its state changed then): not after the end.
                if let Some(c) = self.sched.current {
                    let ctx = &mut self.contexts[c];
                    let after = ctx.state_since.saturating_sub(end);
                    ctx.counters.ready_waiting -= after.min(ctx.counters.ready_waiting);
                    ctx.state_since = ctx.state_since.min(end);
                }
            }
            let issuing = over.min(self.sched.counters.issuing);
            self.sched.counters.issuing -= issuing;
            if let Some(c) = self.sched.last_issuer {
                let running = &mut self.contexts[c].counters.running;
                *running -= issuing.min(*running);
                if self.contexts[c].handler {
                    let h = &mut self.sched.counters.handler_issuing;
                    *h -= issuing.min(*h);
                }
            }
            // Polling is part of issuing.
            let c = &mut self.sched.counters;
            c.polling = c.polling.min(c.issuing);
            c.handler_polling = c.handler_polling.min(c.polling).min(c.handler_issuing);
            self.sched.now = end;
        }
        let now = self.sched.now;
        for ctx in &mut self.contexts {
            let state = ctx.state;
            ctx.set_state(state, now);
        }
    }
}

/// What one general step did.
enum Step {
    /// The instruction retired.
    Retired,
    /// It retired and stored into the text: the slice ends so that the tile
    /// decodes the written words again.
    CodeWritten,
    /// It stops the straight-line flow (not retired).
    Stop(Stop, Decoded),
}

/// Runs the instruction at `st.pc` the general way: any word, fetched from
/// the predecoded text or from memory, with its trace record.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn step<const TRACE: bool>(
    hart: &mut Hart<'_>,
    words: &[Decoded],
    base: u32,
    costs: &CostTable,
    st: &mut FastState,
    c: usize,
    id: u32,
    filter: &TraceFilter,
    trace: &mut Vec<TraceRecord>,
    fx: &mut Effects,
    counts: Option<&mut ExecCounts>,
) -> Step {
    let pc = st.pc;
    let clock = st.clock;
    let fetched: Decoded;
    let decoded: &Decoded = match words.get((pc.wrapping_sub(base) >> 2) as usize) {
        Some(d) => d,
        None => match hart.mem.fetch(pc) {
            Ok(word) => {
                fetched = Decoded::new(word, costs);
                &fetched
            }
            Err(cause) => {
                let d = Decoded {
                    inst: None,
                    word: 0,
                    cost: 0,
                };
                return Step::Stop(Stop::Fault(cause), d);
            }
        },
    };
    let Some(inst) = &decoded.inst else {
        let cause = FaultCause::IllegalInstruction { word: decoded.word };
        return Step::Stop(Stop::Fault(cause), *decoded);
    };
    if TRACE {
        *fx = Effects::default();
    }
    let cost = decoded.cost;
    let (next, extra, code_written) = match hart.execute::<TRACE>(inst, pc, clock, st.retired, fx) {
        Ok((next, extra)) => (next, extra, false),
        Err(Stop::CodeWritten) => (hart.ctx.pc, 0, true),
        Err(s) => return Step::Stop(s, *decoded),
    };
    if TRACE && filter.wants(c as u32, clock) {
        trace.push(TraceRecord {
            cycle: clock,
            tile: id,
            context: c as u32,
            pc,
            word: decoded.word,
            inst: *inst,
            effects: *fx,
        });
    }
    st.pc = next;
    st.clock = clock + (cost + extra) as u64;
    st.retired += 1;
    if let Some(counts) = counts {
        counts.retired(decoded);
    }
    if code_written {
        Step::CodeWritten
    } else {
        Step::Retired
    }
}
