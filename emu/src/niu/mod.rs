//! The network interface unit (NIU) of a tile, in both organizations of the
//! thesis (`niu.design`): the original active-message NIU (chapter 3: one
//! transmission queue, data messages that carry their destination address
//! and are stored by DMA without notification) and the modified
//! send-and-receive NIU (chapter 5: a transmission queue per context, send
//! and receive tables, Ready and Rendezvous modes).
//!
//! The NIU lives on the network side of the simulation: the machine calls
//! [`Niu::issue`] for a messaging instruction in the cycle it issues, and
//! [`Niu::cycle`] once per cycle while the NIU has work, after the
//! network's own step of that cycle. What the NIU does to its tile comes
//! back as [`Effect`]s stamped with the cycle from which the tile sees them
//! (the cycle after the NIU's work): memory words stored by DMA, threads
//! started by thread messages, suspended contexts woken, faults. It reads
//! tile memory (`sendm` buffers) and context states through a
//! [`TileView`] that the machine provides as of the current cycle.
//!
//! Split by concern: [`tables`] (the send-and-receive state machines of
//! thesis Tables 5.1 and 5.2 and section 5.6.2: states, events, transitions,
//! and the tables that change only through them), [`queue`] (transmission
//! queues), `issue` (the messaging instructions), `transmit` (injection),
//! `receive` (ejection: thread starts, DMA, the Rendezvous handshake) with
//! `eject` (the ejection state machine), [`message`] (which instructions
//! open and end a message, its tail word, the DMA's pace),
//! `wait` (contexts suspended on the NIU and their wake-up), [`flows`]
//! (messages' ends, for timelines).
//!
//! Over 600 lines: the NIU's state and its cycle in both designs are one
//! piece; the tables, queues, issue, transmit, receive, waits and reports
//! have files of their own.

mod eject;
pub mod flows;
mod idle;
mod issue;
pub mod message;
pub mod queue;
mod receive;
pub mod report;
pub mod stats;
pub mod tables;
#[cfg(test)]
mod tests;
mod transmit;
mod wait;

use std::collections::VecDeque;

use isa_spec::msg::{Flit, MessageType, ReceiveState, SendState, THREAD_ARGS};

use crate::config::{NiuConfig, NiuDesign};
use crate::fault::FaultCause;
use crate::hart::context::SuspendCause;
use crate::network::Network;
use eject::Ejection;
use message::DmaPace;
use queue::TxQueue;
use tables::{
    QueueState, ReceiveEntry, ReceiveEvent, ReceiveStep, ReceiveTable, SendEvent, SendStep,
    SendTable, TableFull,
};
use transmit::Holder;
use wait::{Changed, Wait};

/// What the machine's scheduling asks of an NIU after its work
/// ([`Niu::status`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NiuStatus {
    /// [`Niu::is_busy`].
    pub busy: bool,
    /// Busy, and [`Niu::touches_tile`].
    pub touches: bool,
    /// [`Niu::needs_cycle`].
    pub needs_cycle: bool,
}

/// What the NIU made of a messaging instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NiuOutcome {
    /// Done; the value for `rd` if the instruction has one (`ldss`, `ldsr`).
    Done(Option<u32>),
    /// The context suspends; the instruction issues again when it wakes.
    Suspend(SuspendCause),
    /// Polling: the instruction takes its cycles and issues again (the pc
    /// stays).
    Repeat,
    /// A guest fault.
    Fault(FaultCause),
}

/// Something the NIU does to its tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileEffect {
    /// DMA stores a word.
    Write {
        /// Address (word-aligned, in range).
        addr: u32,
        /// Value.
        value: u32,
    },
    /// A thread message starts a thread in a context the NIU reserved.
    StartThread {
        /// The context.
        context: usize,
        /// Handler address.
        pc: u32,
        /// a0..a7.
        args: [u32; THREAD_ARGS],
    },
    /// The context-exhaustion exception in the context of a thread that
    /// does not hold the pipeline (`niu.context_exhausted = "swap"`): it
    /// runs the runtime's handler, which saves the thread and frees the
    /// context for the thread message waiting.
    SwapOut {
        /// The context.
        context: usize,
    },
    /// A suspended context may issue again.
    Wake {
        /// The context.
        context: usize,
    },
    /// The NIU faults (a message it cannot deliver).
    Fault(FaultCause),
}

/// A [`TileEffect`] and the cycle from which the tile sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// First cycle at which instructions see it.
    pub at: u64,
    /// What.
    pub what: TileEffect,
}

/// The NIU's view of its tile at the current cycle.
pub trait TileView {
    /// The word at `addr` (word-aligned) as the tile's memory holds it now.
    fn read_word(&mut self, addr: u32) -> Result<u32, FaultCause>;
    /// Whether context `c` holds no thread.
    fn context_free(&self, c: usize) -> bool;
    /// Whether context `c`'s thread may be swapped out (it does not hold
    /// the pipeline and is not in a swap handler): whether it is
    /// suspended, and since when it is in its state; `None` if not, or
    /// without `niu.context_exhausted = "swap"`.
    fn swap_candidate(&self, c: usize) -> Option<(bool, u64)>;
}

/// VC class (set) of a message type under a design: original 2 sets
/// (thread, data), modified 4 (thread, data, RTS, CTS).
pub fn class_of(design: NiuDesign, ty: MessageType) -> u8 {
    match (design, ty) {
        (_, MessageType::Thread) => 0,
        (_, MessageType::Data | MessageType::DataOrig) => 1,
        (NiuDesign::Modified, MessageType::Rts) => 2,
        (NiuDesign::Modified, MessageType::Cts) => 3,
        // The original NIU sends no RTS or CTS.
        (NiuDesign::Original, MessageType::Rts | MessageType::Cts) => 1,
    }
}

/// VC classes of a design.
pub fn classes(design: NiuDesign) -> usize {
    match design {
        NiuDesign::Original => 2,
        NiuDesign::Modified => 4,
    }
}

/// Counters of one NIU.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NiuCounters {
    /// Messages injected, by [`MessageType`] code.
    pub messages_sent: [u64; 5],
    /// Flits injected, by message type code.
    pub flits_sent: [u64; 5],
    /// Messages taken in completely, by message type code.
    pub messages_received: [u64; 5],
    /// Ready-mode messages discarded for want of a posted receive.
    pub discarded: u64,
    /// Context-exhaustion exceptions raised (`niu.context_exhausted =
    /// "swap"`): threads swapped out for a thread message.
    pub swaps: u64,
    /// Cycles a flit waited in an ejection buffer, by reason: no free
    /// context, receive entry busy (Ready data or RTS), table full
    /// (finished waits; see `eject_waiting` for the total at a cycle).
    pub eject_blocked: [u64; 3],
    /// Cycles transmission queues waited for a CTS (finished waits; see
    /// `cts_waiting` for the total at a cycle). Waits for a free injection
    /// VC or its credit are not counted here: the per-message breakdown's
    /// queueing and injection stages contain them.
    pub cts_waited: u64,
    /// Thread and data messages taken in: latency and its stages.
    pub messages: stats::MessageStats,
    /// Words moved by DMA between memory and the network (the energy
    /// model's activity).
    pub dma_words: u64,
    /// Send- and receive-table entry updates (the energy model's activity).
    pub table_accesses: u64,
}

/// What the NIU noted about the message being taken in on an ejection VC
/// when its head came.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HeadSeen {
    /// Its type (None: none yet).
    pub ty: Option<MessageType>,
    /// Cycle its first instruction issued at the source.
    pub created: u64,
    /// Cycle its head was injected.
    pub injected: u64,
    /// Cycle its head was taken here.
    pub taken: u64,
}

/// The message a context is building with `sendh` ... `sende`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OpenMessage {
    pub ty: MessageType,
    /// Body flits enqueued so far (a thread message takes at most 8).
    pub body: u32,
}

/// An RTS or CTS waiting to be injected, or being injected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ControlMessage {
    pub dst: u32,
    pub flits: [Flit; 2],
    /// Cycle from which it may be injected.
    pub ready_at: u64,
}

/// An NIU event in the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NiuEvent {
    /// Cycle.
    pub cycle: u64,
    /// Node.
    pub node: u32,
    /// What happened.
    pub kind: NiuEventKind,
}

/// Kinds of NIU trace events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NiuEventKind {
    /// A send-table entry changed (Empty: removed).
    SendEntry {
        /// Message id.
        id: u32,
        /// New state.
        state: SendState,
    },
    /// A receive-table entry changed (Empty: removed).
    ReceiveEntry {
        /// Message id.
        id: u32,
        /// New state.
        state: ReceiveState,
    },
    /// A thread message will start a thread.
    ThreadCreated {
        /// Context.
        context: usize,
        /// Handler.
        pc: u32,
        /// Sending node.
        from: u32,
    },
    /// A data message was discarded (no posted receive).
    Discarded {
        /// Message id.
        id: u32,
        /// Sending node.
        from: u32,
    },
    /// A suspended context was woken.
    Woken {
        /// Context.
        context: usize,
    },
    /// The context-exhaustion exception: the thread in `context` is
    /// swapped out for a thread message from `from`.
    SwapOut {
        /// Context.
        context: usize,
        /// Whether its thread was suspended (otherwise ready).
        suspended: bool,
        /// The thread message's sending node.
        from: u32,
    },
}

impl NiuEvent {
    /// The trace line.
    pub fn line(&self) -> String {
        let what = match self.kind {
            NiuEventKind::SendEntry { id, state } => {
                format!("send    id {id}: {}", state.name())
            }
            NiuEventKind::ReceiveEntry { id, state } => {
                format!("receive id {id}: {}", state.name())
            }
            NiuEventKind::ThreadCreated { context, pc, from } => {
                format!("thread  c{context} at {pc:#010x} from node {from}")
            }
            NiuEventKind::Discarded { id, from } => {
                format!("discard id {id} from node {from}: no receive posted")
            }
            NiuEventKind::Woken { context } => format!("wake    c{context}"),
            NiuEventKind::SwapOut {
                context,
                suspended,
                from,
            } => format!(
                "swap    c{context} ({}) out for a thread message from node {from}",
                if suspended { "suspended" } else { "ready" }
            ),
        };
        format!("{:>10} n{:<3} niu {what}", self.cycle, self.node)
    }
}

/// One tile's NIU.
pub struct Niu {
    pub(crate) node: u32,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) memory_bytes: u64,
    pub(crate) config: NiuConfig,
    /// Modified NIU: each queue's progress towards the channel.
    pub(crate) qstate: Vec<QueueState>,
    /// The type of the message each queue is injecting.
    pub(crate) current_type: Vec<MessageType>,
    /// Threads to start: the reserved context, the cycle from which it is
    /// ready, its pc and arguments (emitted the cycle before, so that every
    /// effect is seen from the cycle after the NIU's).
    pub(crate) starting: Vec<(usize, u64, u32, [u32; THREAD_ARGS])>,
    /// Trace events, when tracing.
    pub(crate) trace: Option<Vec<NiuEvent>>,
    /// Transmission queues: one (original) or one per context (modified).
    pub(crate) queues: Vec<TxQueue>,
    /// Per context: the message it is building.
    pub(crate) open: Vec<Option<OpenMessage>>,
    /// Original NIU: the context whose message occupies the queue's tail
    /// end (others wait until its tail is in).
    pub(crate) owner: Option<usize>,
    /// Original NIU: a `sendm` copying memory into the queue.
    pub(crate) copier: Option<queue::Copier>,
    /// RTS and CTS messages to inject, in order.
    pub(crate) control: VecDeque<ControlMessage>,
    /// The control message being injected: its VC, packet and next flit.
    pub(crate) control_vc: Option<(u8, crate::network::flit::PacketId, u16)>,
    /// Queues whose front message may be injected, first come first served.
    pub(crate) ready: VecDeque<usize>,
    /// The queue holding the injection channel.
    pub(crate) holder: Option<Holder>,
    /// The transmit DMA's pace (`sendm` words read).
    pub(crate) tx_dma: DmaPace,
    /// Send and receive tables (modified NIU).
    pub(crate) send: SendTable,
    pub(crate) recv: ReceiveTable,
    /// Data and thread messages sent so far (for their flow ids).
    pub(crate) flows_sent: u64,
    /// Per queue: the cycle its RTS went out (while it waits for the CTS).
    pub(crate) cts_since: Vec<u64>,
    /// Per ejection VC: the message being taken in (the ejection state
    /// machine), and its head's times (`rx_head`).
    pub(crate) rx: Ejection,
    /// A bit per transmission queue holding entries, per queue with a
    /// `sendm` stream queued, and per queue in the Empty state (its front
    /// not looked at yet).
    pub(crate) filled: u32,
    pub(crate) streaming: u32,
    pub(crate) unlooked: u32,
    pub(crate) rx_head: Vec<HeadSeen>,
    /// Receive entries that went Complete, and when, until an instruction
    /// sees it (for wake-up times).
    pub(crate) completed: Vec<(u32, u64)>,
    /// Round-robin start among ejection VCs.
    pub(crate) rx_next: usize,
    /// Per ejection VC: why its front flit is not taken and since when
    /// (counted as a span, so the count does not depend on whether the
    /// network side stepped this NIU up to the run's end).
    pub(crate) rx_blocked: Vec<Option<(usize, u64)>>,
    /// The receive DMA's pace (data words stored).
    pub(crate) rx_dma: DmaPace,
    /// Contexts reserved for thread messages being received.
    pub(crate) reserved: u32,
    /// Reserved contexts whose thread start went out this cycle (released
    /// next cycle, once the tile has applied it).
    pub(crate) releasing: u32,
    /// Per ejection VC: the context whose thread the context-exhaustion
    /// exception is swapping out for the thread message at its front
    /// (`niu.context_exhausted = "swap"`); the message waits for that
    /// context, which no other message may take.
    pub(crate) swap_for: Vec<Option<usize>>,
    /// Contexts suspended on the NIU and what they wait for.
    pub(crate) waiting: Vec<(usize, Wait)>,
    /// What a waiting context may wait for that changed since the last
    /// wake-up check, by kind ([`wait::Changed`]: room in a queue, the copy
    /// or the queue's owner, the send table, the receive table, the waiting
    /// list): the check looks only at the contexts whose wait is of a kind
    /// that changed.
    pub(crate) changed: u8,
    /// Effects for the tile, in the order they happened.
    pub(crate) effects: Vec<Effect>,
    /// Counters.
    pub counters: NiuCounters,
    /// Message ends, when recording for a timeline.
    pub(crate) flows: Option<Vec<flows::MessageEnd>>,
    /// Per table entry (receive table?, id): the cycle it entered its
    /// state, for reports (`report`).
    pub(crate) since: Vec<(bool, u32, u64)>,
    /// The first Ready-mode messages discarded, for reports.
    pub(crate) discards: Vec<report::Discard>,
}

impl Niu {
    /// The NIU of `node` on a `width x height` mesh, with `contexts`
    /// contexts, `memory_bytes` of tile memory and `vcs` VCs on its
    /// router's local port.
    pub fn new(
        node: u32,
        (width, height): (u32, u32),
        contexts: usize,
        memory_bytes: u64,
        vcs: usize,
        config: &NiuConfig,
    ) -> Niu {
        let queues = match config.design {
            NiuDesign::Original => 1,
            NiuDesign::Modified => contexts,
        };
        Niu {
            node,
            width,
            height,
            memory_bytes,
            qstate: vec![QueueState::Empty; queues],
            current_type: vec![MessageType::Thread; queues],
            starting: Vec::new(),
            trace: None,
            config: config.clone(),
            queues: (0..queues)
                .map(|_| TxQueue::new(config.queue_flits as usize))
                .collect(),
            open: vec![None; contexts],
            owner: None,
            copier: None,
            control: VecDeque::new(),
            control_vc: None,
            ready: VecDeque::new(),
            holder: None,
            tx_dma: DmaPace::new(config.dma_cycles_per_word),
            send: SendTable::new(config.send_table_entries as usize),
            recv: ReceiveTable::new(config.receive_table_entries as usize),
            cts_since: vec![0; queues],
            flows_sent: 0,
            rx: Ejection::new(vcs),
            filled: 0,
            streaming: 0,
            // At most MAX_CONTEXTS (16) queues.
            unlooked: (1 << queues) - 1,
            rx_head: vec![HeadSeen::default(); vcs],
            completed: Vec::new(),
            rx_next: 0,
            rx_blocked: vec![None; vcs],
            rx_dma: DmaPace::new(config.dma_cycles_per_word),
            reserved: 0,
            releasing: 0,
            swap_for: vec![None; vcs],
            waiting: Vec::new(),
            changed: 0,
            effects: Vec::new(),
            counters: NiuCounters::default(),
            flows: None,
            since: Vec::new(),
            discards: Vec::new(),
        }
    }

    /// The design.
    pub fn design(&self) -> NiuDesign {
        self.config.design
    }

    /// The send table.
    pub fn send_table(&self) -> &SendTable {
        &self.send
    }

    /// The receive table.
    pub fn receive_table(&self) -> &ReceiveTable {
        &self.recv
    }

    /// One cycle of NIU work, after the network's step of cycle `now`: take
    /// in at most one flit, inject at most one, wake contexts that can
    /// proceed.
    pub fn cycle(&mut self, now: u64, net: &mut Network, view: &mut dyn TileView) {
        self.receive(now, net, view);
        self.transmit(now, net, view);
        self.wake_ready(now + 1);
    }

    /// Starts recording trace events.
    pub fn enable_trace(&mut self) {
        self.trace = Some(Vec::new());
    }

    /// Trace events since the last call.
    pub fn take_trace(&mut self) -> Vec<NiuEvent> {
        self.trace.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn event(&mut self, cycle: u64, kind: NiuEventKind) {
        if let Some(t) = &mut self.trace {
            t.push(NiuEvent {
                cycle,
                node: self.node,
                kind,
            });
        }
    }

    /// Applies a send-table event to `id` (see `tables.rs`), tracing the
    /// entry when it changes.
    pub(crate) fn send_event(
        &mut self,
        now: u64,
        id: u32,
        event: SendEvent,
    ) -> Result<SendStep, TableFull> {
        let step = self.send.apply(id, event);
        self.counters.table_accesses += step.is_ok() as u64;
        self.changed |= Changed::SEND;
        if let Ok(SendStep::To(_)) = step {
            self.trace_send(now, id);
        }
        step
    }

    /// Applies a receive-table event to `id` (see `tables.rs`), tracing the
    /// entry when it changes; with the entry as [`ReceiveTable::apply`]
    /// gives it.
    pub(crate) fn receive_event(
        &mut self,
        now: u64,
        id: u32,
        event: ReceiveEvent,
    ) -> Result<(ReceiveStep, Option<ReceiveEntry>), TableFull> {
        let r = self.recv.apply(id, event);
        self.counters.table_accesses += r.is_ok() as u64;
        self.changed |= Changed::RECEIVE;
        if let Ok((ReceiveStep::To(_) | ReceiveStep::Answer(_), _)) = r {
            self.trace_receive(now, id);
        }
        r
    }

    fn trace_send(&mut self, now: u64, id: u32) {
        let state = self.send.state(id);
        self.note_entry(false, id, state == SendState::Empty, now);
        self.event(now, NiuEventKind::SendEntry { id, state });
    }

    fn trace_receive(&mut self, now: u64, id: u32) {
        let state = self.recv.state(id);
        self.note_entry(true, id, state == ReceiveState::Empty, now);
        self.event(now, NiuEventKind::ReceiveEntry { id, state });
    }

    pub(crate) fn trace_thread(&mut self, now: u64, context: usize, pc: u32, from: u32) {
        self.event(now, NiuEventKind::ThreadCreated { context, pc, from });
    }

    pub(crate) fn trace_discard(&mut self, now: u64, id: u32, from: u32) {
        self.event(now, NiuEventKind::Discarded { id, from });
    }

    /// An instruction (or a woken context, from cycle `at`) sees receive
    /// `id` Complete: the wake-up time of its message, the first time.
    pub(crate) fn saw_complete(&mut self, id: u32, at: u64) {
        if let Some(k) = self.completed.iter().position(|(i, _)| *i == id) {
            let (_, done) = self.completed.swap_remove(k);
            self.counters.messages.wakeup += at.saturating_sub(done);
            self.counters.messages.wakeups += 1;
        }
    }

    /// The effects produced since the last call, taken out in order (the
    /// buffer keeps its room).
    pub fn drain_effects(&mut self) -> std::vec::Drain<'_, Effect> {
        self.effects.drain(..)
    }

    /// Records queue `q`'s entries and streams after it changed.
    pub(crate) fn queue_changed(&mut self, q: usize) {
        let bit = 1 << q;
        if self.queues[q].is_empty() {
            self.filled &= !bit;
        } else {
            self.filled |= bit;
        }
        if self.queues[q].has_stream() {
            self.streaming |= bit;
        } else {
            self.streaming &= !bit;
        }
    }

    /// Records queue `q`'s state after it changed.
    pub(crate) fn queue_state_changed(&mut self, q: usize) {
        if self.qstate[q] == QueueState::Empty {
            self.unlooked |= 1 << q;
        } else {
            self.unlooked &= !(1 << q);
        }
    }

    /// Whether the NIU has work of its own to do in coming cycles (flits to
    /// inject, a copy, a message being taken in), so that the machine must
    /// call [`Niu::cycle`].
    pub fn is_busy(&self) -> bool {
        debug_assert!(self.masks_agree(), "the NIU's bit masks are out of step");
        self.work_in_hand() || self.filled != 0 || self.rx.busy() != 0
    }

    /// Whether the bit masks say what a survey of the queues and ejection
    /// VCs says (checked in debug builds).
    fn masks_agree(&self) -> bool {
        let mut survey = (0u32, 0u32, 0u32);
        for (q, queue) in self.queues.iter().enumerate() {
            survey.0 |= u32::from(!queue.is_empty()) << q;
            survey.1 |= u32::from(queue.has_stream()) << q;
            survey.2 |= u32::from(self.qstate[q] == QueueState::Empty) << q;
        }
        survey == (self.filled, self.streaming, self.unlooked) && self.rx.masks_agree()
    }

    /// Work that [`Niu::is_busy`] and [`Niu::needs_cycle`] both count: a
    /// copy, threads to start, contexts to release, control messages, a
    /// message on the injection channel, queues ready to send.
    fn work_in_hand(&self) -> bool {
        self.copier.is_some()
            || !self.starting.is_empty()
            || self.releasing != 0
            || !self.control.is_empty()
            || self.holder.is_some()
            || !self.ready.is_empty()
    }

    /// A run-unique id for the next message: this node and a count.
    pub(crate) fn next_flow(&mut self) -> u64 {
        self.flows_sent += 1;
        ((self.node as u64) << 32) | self.flows_sent
    }

    /// Cycles transmission queues waited for a CTS up to `end` (those
    /// still waiting count up to it).
    pub fn cts_waiting(&self, end: u64) -> u64 {
        let pending: u64 = self
            .qstate
            .iter()
            .zip(&self.cts_since)
            .filter(|(s, _)| matches!(s, QueueState::Waiting(_)))
            .map(|(_, since)| end.saturating_sub(*since))
            .sum();
        self.counters.cts_waited + pending
    }

    /// Cycles flits waited in ejection buffers up to `end`, by reason (as
    /// `eject_blocked`; those still waiting count up to `end`).
    pub fn eject_waiting(&self, end: u64) -> [u64; 3] {
        let mut total = self.counters.eject_blocked;
        for (why, since) in self.rx_blocked.iter().flatten() {
            total[*why] += end.saturating_sub(*since);
        }
        total
    }

    /// Whether the NIU has work of its own this cycle, arrivals aside (a
    /// queue waiting for its CTS has none): the machine calls
    /// [`Niu::cycle`] while this holds or flits wait in its ejection buffers.
    pub fn needs_cycle(&self) -> bool {
        self.work_in_hand() || self.filled & self.unlooked != 0
    }

    /// [`Niu::is_busy`], [`Niu::touches_tile`] (asked only when busy) and
    /// [`Niu::needs_cycle`] at once, sharing what they have in common (the
    /// machine asks all three after every NIU cycle).
    #[inline]
    pub fn status(&self) -> NiuStatus {
        debug_assert!(self.masks_agree(), "the NIU's bit masks are out of step");
        let in_hand = self.work_in_hand();
        let busy = in_hand || self.filled != 0 || self.rx.busy() != 0;
        NiuStatus {
            busy,
            touches: busy && self.touches_tile(),
            needs_cycle: in_hand || self.filled & self.unlooked != 0,
        }
    }

    /// Whether the NIU may soon do something its tile sees, or look at it:
    /// store or read its memory (a message coming in, a `sendm` copy or
    /// stream), start a thread, wake a context. An NIU that only sends
    /// flits, or waits for a CTS, does not (its tile learns of that through
    /// messaging instructions, which wait for the network anyway).
    pub fn touches_tile(&self) -> bool {
        self.copier.is_some()
            || !self.starting.is_empty()
            || self.releasing != 0
            || !self.waiting.is_empty()
            || self.rx.touching_tile() != 0
            || self.streaming != 0
    }

    /// Whether this cycle's work may look at the tile's state: a thread
    /// message's head waiting for a free context, or memory to read for a
    /// `sendm` (copy or stream).
    #[inline]
    pub fn needs_tile_state(&self, net: &Network) -> bool {
        if self.copier.is_some() || self.streaming != 0 {
            return true;
        }
        // Ejection VCs with a message's first flit at the front.
        let mut vcs = net.ejection_vcs(self.node) & !self.rx.busy();
        while vcs != 0 {
            let vc = vcs.trailing_zeros() as u8;
            vcs &= vcs - 1;
            let thread = net.peek_ejected(self.node, vc).is_some_and(|f| {
                f.is_first()
                    && isa_spec::msg::Head::decode(f.flit.payload)
                        .is_some_and(|h| h.ty == MessageType::Thread)
            });
            if thread {
                return true;
            }
        }
        false
    }

    /// Whether effects are waiting to be taken.
    pub fn has_effects(&self) -> bool {
        !self.effects.is_empty()
    }

    /// Whether context `c` is reserved for a thread message being taken in.
    pub fn is_reserved(&self, c: usize) -> bool {
        self.reserved & (1 << c) != 0
    }
}
