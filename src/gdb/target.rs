//! The machine as gdbstub's target: one tile's contexts are the threads
//! (thread id = context + 1), its registers and memory are read and
//! written, software breakpoints decode the word as `ebreak` in that tile's
//! text only (memory keeps the program's word), watchpoints look at the
//! loads and stores the tile's trace records. The machine runs in lockstep,
//! and is looked at after every cycle: a breakpoint stops the whole mesh
//! before the instruction issues, a single step ends when the thread has
//! retired one instruction (the other threads and tiles run meanwhile, as
//! time passes for them too).

use std::collections::BTreeSet;
use std::num::NonZeroUsize;

use emu::fault::{FaultCause, NIU_CONTEXT};
use emu::hart::context::ContextState;
use emu::hart::csr::Identity;
use emu::tile::Halt;
use emu::{Machine, RunEnd, RunResult, StdConsole};
use gdbstub::common::{Signal, Tid};
use gdbstub::stub::MultiThreadStopReason;
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::base::multithread::{
    MultiThreadBase, MultiThreadResume, MultiThreadResumeOps, MultiThreadSchedulerLocking,
    MultiThreadSchedulerLockingOps, MultiThreadSingleStep, MultiThreadSingleStepOps,
};
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwWatchpoint, HwWatchpointOps, SwBreakpoint, SwBreakpointOps,
    WatchKind,
};
use gdbstub::target::ext::thread_extra_info::{ThreadExtraInfo, ThreadExtraInfoOps};
use gdbstub::target::{Target, TargetError, TargetResult};

use super::arch::{CSRS, ContextRegs, ScmpRv32};

/// Steps of the global loop between looks at the connection (for Ctrl-C).
const STEPS_PER_POLL: u32 = 4096;

/// A watched range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Watch {
    addr: u32,
    len: u32,
    kind: WatchKind,
}

/// The machine, the debugged tile and the debugger's state.
pub struct Debuggee {
    /// The machine (lockstep, the tile's instructions traced).
    pub machine: Machine,
    /// The tile whose contexts are the threads.
    pub tile: usize,
    console: StdConsole,
    breakpoints: BTreeSet<u32>,
    watchpoints: Vec<Watch>,
    /// The context to single-step, if any.
    step: Option<usize>,
    /// A halt of the tile already reported as a signal.
    halt_reported: bool,
    /// The run's end, once it came.
    pub result: Option<RunResult>,
}

fn context_of(tid: Tid) -> usize {
    tid.get() - 1
}

fn tid_of(context: usize) -> Tid {
    NonZeroUsize::new(context + 1).expect("context + 1 is not zero")
}

/// The signal GDB shows for a fault.
fn signal_of(cause: &FaultCause) -> Signal {
    match cause {
        FaultCause::Breakpoint => Signal::SIGTRAP,
        FaultCause::IllegalInstruction { .. }
        | FaultCause::UnknownCsr { .. }
        | FaultCause::ReadOnlyCsr { .. }
        | FaultCause::InvalidRoundingMode { .. } => Signal::SIGILL,
        FaultCause::Misaligned { .. } | FaultCause::MisalignedTarget { .. } => Signal::SIGBUS,
        FaultCause::OutOfRange { .. } => Signal::SIGSEGV,
        _ => Signal::SIGABRT,
    }
}

/// What GDB is told when the run ends.
pub fn end_reason(end: &RunEnd) -> MultiThreadStopReason<u32> {
    match end {
        RunEnd::AllThreadsEnded => MultiThreadStopReason::Exited(0),
        RunEnd::Exit(code) => MultiThreadStopReason::Exited(*code as u8),
        RunEnd::Fault(report) => MultiThreadStopReason::Terminated(signal_of(&report.cause)),
        RunEnd::CycleLimit(_) => MultiThreadStopReason::Terminated(Signal::SIGXCPU),
        RunEnd::Deadlock(_) => MultiThreadStopReason::Terminated(Signal::SIGABRT),
        RunEnd::Interrupted(_) => MultiThreadStopReason::Terminated(Signal::SIGINT),
    }
}

impl Debuggee {
    /// The debugger's view of `machine`'s tile `tile`.
    pub fn new(machine: Machine, tile: usize) -> Debuggee {
        Debuggee {
            machine,
            tile,
            console: StdConsole,
            breakpoints: BTreeSet::new(),
            watchpoints: Vec::new(),
            step: None,
            halt_reported: false,
            result: None,
        }
    }

    fn identity(&self, context: usize) -> Identity {
        let config = self.machine.config();
        Identity {
            node: self.tile as u32,
            context: context as u32,
            width: config.mesh.width,
            height: config.mesh.height,
            contexts: config.tile.contexts,
            clock_hz: config.tile.clock_hz,
        }
    }

    fn check_tid(&self, tid: Tid) -> TargetResult<usize, Self> {
        let c = context_of(tid);
        if c < self.machine.tiles()[self.tile].contexts.len() {
            Ok(c)
        } else {
            Err(TargetError::NonFatal)
        }
    }

    /// Runs until something stops it (`Some`), or for a while (`None`:
    /// the caller looks at the connection and calls again).
    pub fn run_for_a_while(&mut self) -> Option<MultiThreadStopReason<u32>> {
        if let Some(r) = &self.result {
            return Some(end_reason(&r.end));
        }
        let Debuggee {
            machine,
            tile,
            console,
            breakpoints,
            watchpoints,
            step,
            halt_reported,
            ..
        } = self;
        let (tile, step) = (*tile, *step);
        let mut found = None;
        let mut steps = 0;
        let ended = machine.run_until(console, &mut |m| {
            steps += 1;
            let t = &mut m.tiles_mut()[tile];
            if let Some(Halt::Fault(report)) = t.halt()
                && !*halt_reported
            {
                let context = report.context as usize;
                if report.cause == FaultCause::Breakpoint
                    && report.context != NIU_CONTEXT
                    && breakpoints.contains(&report.pc)
                {
                    // The debugger's breakpoint: no fault, the instruction
                    // issues when the thread goes on.
                    t.clear_halt();
                    found = Some(MultiThreadStopReason::SwBreak(tid_of(context)));
                } else {
                    // A real fault: shown where it happened; going on ends the run.
                    *halt_reported = true;
                    let signal = signal_of(&report.cause);
                    found = Some(if report.context == NIU_CONTEXT {
                        MultiThreadStopReason::Signal(signal)
                    } else {
                        MultiThreadStopReason::SignalWithThread {
                            tid: tid_of(context),
                            signal,
                        }
                    });
                }
                t.trace.clear();
                return true;
            }
            for record in std::mem::take(&mut t.trace) {
                let fx = &record.effects;
                let accesses = [
                    fx.load.map(|(a, w)| (a, w as u32, false)),
                    fx.store.map(|(a, _, w)| (a, w as u32, true)),
                ];
                for (addr, width, store) in accesses.into_iter().flatten() {
                    let hit = watchpoints.iter().find(|w| {
                        let kind_fits = match w.kind {
                            WatchKind::Write => store,
                            WatchKind::Read => !store,
                            WatchKind::ReadWrite => true,
                        };
                        kind_fits && addr < w.addr + w.len && w.addr < addr + width
                    });
                    if let Some(w) = hit {
                        found = Some(MultiThreadStopReason::Watch {
                            tid: tid_of(record.context as usize),
                            kind: w.kind,
                            addr: w.addr,
                        });
                    }
                }
                if found.is_none() && step == Some(record.context as usize) {
                    found = Some(MultiThreadStopReason::SignalWithThread {
                        tid: tid_of(record.context as usize),
                        signal: Signal::SIGTRAP,
                    });
                }
            }
            found.is_some() || steps >= STEPS_PER_POLL
        });
        if let Some(result) = ended {
            let reason = end_reason(&result.end);
            self.result = Some(result);
            return Some(reason);
        }
        found
    }
}

impl Target for Debuggee {
    type Arch = ScmpRv32;
    type Error = String;

    fn base_ops(&mut self) -> BaseOps<'_, ScmpRv32, String> {
        BaseOps::MultiThread(self)
    }

    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }
}

impl MultiThreadBase for Debuggee {
    fn read_registers(&mut self, regs: &mut ContextRegs, tid: Tid) -> TargetResult<(), Self> {
        let c = self.check_tid(tid)?;
        let id = self.identity(c);
        let t = &self.machine.tiles()[self.tile];
        let ctx = &t.contexts[c];
        regs.x = ctx.x;
        regs.pc = ctx.pc;
        regs.f = ctx.f;
        for (i, csr) in [isa_spec::FFLAGS, isa_spec::FRM, isa_spec::FCSR]
            .into_iter()
            .chain(CSRS)
            .enumerate()
        {
            let value = emu::hart::csr::read(ctx, &id, t.now(), ctx.instret, csr).unwrap_or(0);
            match i {
                0..3 => regs.fcsr[i] = value,
                _ => regs.csrs[i - 3] = value,
            }
        }
        Ok(())
    }

    fn write_registers(&mut self, regs: &ContextRegs, tid: Tid) -> TargetResult<(), Self> {
        let c = self.check_tid(tid)?;
        let mut before = ContextRegs::default();
        self.read_registers(&mut before, tid)?;
        let ctx = &mut self.machine.tiles_mut()[self.tile].contexts[c];
        ctx.x = regs.x;
        ctx.x[0] = 0;
        ctx.pc = regs.pc;
        ctx.f = regs.f;
        // GDB writes every register back: the ones that changed count
        // (fcsr over fflags and frm; read-only CSRs keep their values).
        let fp = [isa_spec::FFLAGS, isa_spec::FRM, isa_spec::FCSR];
        for (i, csr) in fp.into_iter().enumerate() {
            if regs.fcsr[i] != before.fcsr[i] {
                let _ = emu::hart::csr::write(ctx, csr, regs.fcsr[i]);
            }
        }
        for (i, csr) in CSRS.into_iter().enumerate() {
            if regs.csrs[i] != before.csrs[i] {
                emu::hart::csr::write(ctx, csr, regs.csrs[i]).map_err(|_| TargetError::NonFatal)?;
            }
        }
        Ok(())
    }

    fn read_addrs(&mut self, start: u32, data: &mut [u8], _tid: Tid) -> TargetResult<usize, Self> {
        let memory = &self.machine.tiles()[self.tile].memory;
        let available = (memory.len() as u64).saturating_sub(start as u64);
        let n = (data.len() as u64).min(available) as usize;
        if n == 0 {
            return Err(TargetError::NonFatal);
        }
        let bytes = memory
            .slice(start, n as u32)
            .map_err(|_| TargetError::NonFatal)?;
        data[..n].copy_from_slice(bytes);
        Ok(n)
    }

    fn write_addrs(&mut self, start: u32, data: &[u8], _tid: Tid) -> TargetResult<(), Self> {
        let tile = &mut self.machine.tiles_mut()[self.tile];
        tile.debug_write(start, data)
            .map_err(|_| TargetError::NonFatal)?;
        // Breakpoints in the written range stay.
        let end = start as u64 + data.len() as u64;
        for &pc in &self.breakpoints {
            if (pc as u64) + 4 > start as u64 && (pc as u64) < end {
                tile.set_breakpoint(pc, true);
            }
        }
        Ok(())
    }

    fn list_active_threads(&mut self, active: &mut dyn FnMut(Tid)) -> Result<(), String> {
        for c in 0..self.machine.tiles()[self.tile].contexts.len() {
            active(tid_of(c));
        }
        Ok(())
    }

    fn support_resume(&mut self) -> Option<MultiThreadResumeOps<'_, Self>> {
        Some(self)
    }

    fn support_thread_extra_info(&mut self) -> Option<ThreadExtraInfoOps<'_, Self>> {
        Some(self)
    }
}

impl MultiThreadResume for Debuggee {
    fn resume(&mut self) -> Result<(), String> {
        Ok(())
    }

    fn clear_resume_actions(&mut self) -> Result<(), String> {
        self.step = None;
        Ok(())
    }

    fn set_resume_action_continue(&mut self, _: Tid, _: Option<Signal>) -> Result<(), String> {
        Ok(())
    }

    fn support_single_step(&mut self) -> Option<MultiThreadSingleStepOps<'_, Self>> {
        Some(self)
    }

    fn support_scheduler_locking(&mut self) -> Option<MultiThreadSchedulerLockingOps<'_, Self>> {
        Some(self)
    }
}

/// GDB asks for the other threads to stay put while it steps one off a
/// breakpoint. The tile's scheduler cannot hold contexts without changing
/// the timing it models, so they run as time passes: the step ends when the
/// stepped thread has retired one instruction, and other contexts may have
/// retired a few meanwhile (the round-robin scheduler's turns).
impl MultiThreadSchedulerLocking for Debuggee {
    fn set_resume_action_scheduler_lock(&mut self) -> Result<(), String> {
        Ok(())
    }
}

impl MultiThreadSingleStep for Debuggee {
    fn set_resume_action_step(&mut self, tid: Tid, _: Option<Signal>) -> Result<(), String> {
        self.step = Some(context_of(tid));
        Ok(())
    }
}

impl Breakpoints for Debuggee {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

impl SwBreakpoint for Debuggee {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        let set = self.machine.tiles_mut()[self.tile].set_breakpoint(addr, true);
        if set {
            self.breakpoints.insert(addr);
        }
        Ok(set)
    }

    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        if !self.breakpoints.remove(&addr) {
            return Ok(false);
        }
        Ok(self.machine.tiles_mut()[self.tile].set_breakpoint(addr, false))
    }
}

impl HwWatchpoint for Debuggee {
    fn add_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        self.watchpoints.push(Watch { addr, len, kind });
        Ok(true)
    }

    fn remove_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        let w = Watch { addr, len, kind };
        let Some(i) = self.watchpoints.iter().position(|x| *x == w) else {
            return Ok(false);
        };
        self.watchpoints.remove(i);
        Ok(true)
    }
}

impl ThreadExtraInfo for Debuggee {
    fn thread_extra_info(&self, tid: Tid, buf: &mut [u8]) -> Result<usize, String> {
        let c = context_of(tid);
        let Some(ctx) = self.machine.tiles()[self.tile].contexts.get(c) else {
            return Ok(0);
        };
        let state = match ctx.state {
            ContextState::Free => "free".to_string(),
            ContextState::Ready => "ready".to_string(),
            ContextState::Running => "running".to_string(),
            ContextState::Suspended(cause) => format!("suspended: {}", cause.name()),
        };
        let text = format!("tile {} context {c}, {state}", self.tile);
        let n = text.len().min(buf.len());
        buf[..n].copy_from_slice(&text.as_bytes()[..n]);
        Ok(n)
    }
}
