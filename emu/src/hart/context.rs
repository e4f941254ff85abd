//! A hardware thread context: 32 integer and 32 floating-point registers,
//! pc, fcsr, the LR/SC reservation, its scheduling state and counters.

/// Why a context is suspended (it costs no issue slots meanwhile).
///
/// The NIU of the network issue suspends and wakes contexts; every cause it
/// will use has a name here so the statistics keep one column per cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SuspendCause {
    /// `waits`: until a send-table entry is Complete.
    WaitSend,
    /// `waitr`: until a receive-table entry is Complete.
    WaitReceive,
    /// A send instruction found its transmission queue full.
    QueueFull,
    /// Original NIU: a `sendm` copy or another context's message holds the
    /// transmission queue.
    NiuBusy,
    /// `sendh` or `str` on a message id whose entry is in use.
    IdInUse,
    /// `sendh` or `str` found the send or receive table full.
    TableFull,
}

impl SuspendCause {
    /// Every cause, in statistics order.
    pub const ALL: [SuspendCause; 6] = [
        SuspendCause::WaitSend,
        SuspendCause::WaitReceive,
        SuspendCause::QueueFull,
        SuspendCause::NiuBusy,
        SuspendCause::IdInUse,
        SuspendCause::TableFull,
    ];

    /// Name in statistics.
    pub fn name(self) -> &'static str {
        match self {
            SuspendCause::WaitSend => "wait_send",
            SuspendCause::WaitReceive => "wait_receive",
            SuspendCause::QueueFull => "queue_full",
            SuspendCause::NiuBusy => "niu_busy",
            SuspendCause::IdInUse => "id_in_use",
            SuspendCause::TableFull => "table_full",
        }
    }
}

/// Scheduling state of a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContextState {
    /// No thread: the context can be given to a new one.
    Free,
    /// Has a thread waiting for the pipeline.
    Ready,
    /// Has the pipeline.
    Running,
    /// Waiting for an event.
    Suspended(SuspendCause),
}

/// A context's part in the context-exhaustion exception
/// (`niu.context_exhausted = "swap"`, see `Tile::swap_out`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SwapRole {
    /// Its thread runs its own code.
    #[default]
    None,
    /// It runs the handler that saves its thread (`scmp_swap_out`), up to
    /// the handler's `endt`, which frees the context.
    Out,
    /// It runs the handler that restores a saved thread (`scmp_swap_in`),
    /// up to the handler's `mret`.
    In,
}

/// Per-context counters, accumulated at state changes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContextCounters {
    /// Instructions retired.
    pub instructions: u64,
    /// Cycles its instructions occupied the pipeline.
    pub running: u64,
    /// Cycles it was ready but another context had the pipeline (or the
    /// pipeline was switching).
    pub ready_waiting: u64,
    /// Cycles suspended, by [`SuspendCause`] (indexed as `SuspendCause::ALL`).
    pub suspended: [u64; SuspendCause::ALL.len()],
    /// Threads that have run in this context.
    pub threads: u64,
}

/// Marks "no reservation" (no aligned word address has these bits).
pub const NO_RESERVATION: u32 = u32::MAX;

/// One hardware thread context.
#[derive(Clone, Debug)]
pub struct Context {
    /// Integer registers; `x[0]` is kept zero.
    pub x: [u32; 32],
    /// Floating-point registers (singles NaN-boxed).
    pub f: [u64; 32],
    /// Program counter.
    pub pc: u32,
    /// Accrued exception flags (fcsr bits 4:0).
    pub fflags: u8,
    /// Dynamic rounding mode (fcsr bits 7:5).
    pub frm: u8,
    /// Address of the LR reservation, or [`NO_RESERVATION`].
    pub reservation: u32,
    /// Scheduling state.
    pub state: ContextState,
    /// Cycle at which `state` was entered (for the counters).
    pub state_since: u64,
    /// Counters.
    pub counters: ContextCounters,
    /// Instructions retired by the current thread (the `instret` CSR).
    pub instret: u64,
    /// The machine-mode CSRs a C runtime writes (`isa_spec::MACHINE_CSRS`
    /// order): plain registers with no effect.
    pub machine_csrs: [u32; 5],
    /// For a timeline: every state entered and when, while recording
    /// (a checkpoint's copy takes an optimistic run's changes back too).
    pub history: Option<Vec<(u64, ContextState)>>,
    /// Whether its thread was started by a thread message (a handler),
    /// not at boot.
    pub handler: bool,
    /// Its instructions and running cycles at its thread's last `yield`
    /// (or start): what the next `yield` measures a poll iteration from.
    pub poll_mark: (u64, u64),
    /// Times its threads looked outside the machine's state: host services
    /// (`ecall`, semihosting: the console, input, the clock) and reads of
    /// the clock CSRs (`cycle`, `time`, `instret` and their high halves).
    /// The livelock watch (`machine/spin.rs`) takes a recurring state for
    /// proof only when no thread did so in between.
    pub outside: u64,
    /// Its part in the context-exhaustion exception.
    pub swap: SwapRole,
    /// Threads saved on this context's stack by the exception handler,
    /// to resume here, the last saved first, as the threads that took the
    /// context end.
    pub swapped: u32,
}

impl Context {
    /// A free context.
    pub fn new() -> Context {
        Context {
            x: [0; 32],
            f: [0; 32],
            pc: 0,
            fflags: 0,
            frm: 0,
            reservation: NO_RESERVATION,
            state: ContextState::Free,
            state_since: 0,
            counters: ContextCounters::default(),
            instret: 0,
            machine_csrs: [0; 5],
            history: None,
            handler: false,
            poll_mark: (0, 0),
            outside: 0,
            swap: SwapRole::None,
            swapped: 0,
        }
    }

    /// Moves to `state` at cycle `now`, adding the time spent in the old state
    /// to its counter.
    pub fn set_state(&mut self, state: ContextState, now: u64) {
        let spent = now.saturating_sub(self.state_since);
        match self.state {
            ContextState::Free => {}
            ContextState::Ready => self.counters.ready_waiting += spent,
            // Running time is counted per instruction (it excludes the cycles
            // the pipeline spent switching to this context).
            ContextState::Running => {}
            ContextState::Suspended(cause) => {
                let i = SuspendCause::ALL
                    .iter()
                    .position(|c| *c == cause)
                    .expect("every cause is listed");
                self.counters.suspended[i] += spent;
            }
        }
        self.state = state;
        self.state_since = now;
        if let Some(h) = &mut self.history {
            h.push((now, state));
        }
    }

    /// Starts a new thread at `pc` with stack pointer `sp` and arguments in
    /// `a0..` (registers cleared otherwise).
    pub fn start(&mut self, pc: u32, sp: u32, args: &[u32], now: u64) {
        self.x = [0; 32];
        self.f = [0; 32];
        self.x[2] = sp;
        for (i, a) in args.iter().take(8).enumerate() {
            self.x[10 + i] = *a;
        }
        self.pc = pc;
        self.fflags = 0;
        self.frm = 0;
        self.reservation = NO_RESERVATION;
        self.instret = 0;
        self.poll_mark = (self.counters.instructions, self.counters.running);
        self.counters.threads += 1;
        self.set_state(ContextState::Ready, now);
    }

    /// Whether the context holds a live thread.
    pub fn is_live(&self) -> bool {
        self.state != ContextState::Free
    }
}

impl Default for Context {
    fn default() -> Self {
        Context::new()
    }
}
