//! The messaging instructions ([`Niu::issue`]): headers, bodies and ends of
//! messages into the transmission queues, and the table instructions of
//! the modified NIU.
//!
//! Decisions where the thesis is silent (docs/network.md lists them):
//! - Original NIU: a context that starts a message with `sendh` owns the one
//!   queue until its tail is enqueued; other contexts' messaging
//!   instructions suspend meanwhile, as every messaging instruction does
//!   while a `sendm` copy runs (thesis 5.5).
//! - Send-table states (the transitions are in `tables.rs`): `sendh` makes
//!   In Use; the head reaching the front of its queue (RTS sent, or the
//!   message ready to go) makes In Progress; the tail leaving the NIU makes
//!   Complete.
//! - RTS and CTS messages, the NIU's own, go ahead of data flits on the
//!   injection channel (they travel in their own VC sets); among data
//!   queues the channel is first come first served, a whole message at a time.
//! - A destination stride over [`MAX_STRIDE`] words faults where it is
//!   given, in both designs: the original's `sendh` (its header field has
//!   17 bits) and the modified NIU's `str` (the same bound; the thesis gives
//!   no width for the receive entry's stride).
//! - A thread message's handler that is not a multiple of 4 faults at its
//!   `sendh` (the thesis only says the address becomes the new thread's
//!   instruction pointer).
//! - `rms` of a send that is not Complete, and `rmr` of a receive In
//!   Progress or RTS Received, fault: removing them would lose a transfer.
//!   `rmr` of an In Use entry cancels the posted receive.
//! - `rms`/`rmr` of an id with no entry (Empty: never used, or removed
//!   already) fault, as `waits`/`waitr` of one do: the thesis has a thread
//!   remove an entry once its operation is Complete, to use the id again;
//!   removing nothing is a program's mistake (a wrong id, a second removal)
//!   that a no-op would hide. The original NIU, which has no tables, faults
//!   on every table instruction.

use isa_spec::msg::{
    Flit, FlitKind, Head, MAX_STRIDE, MessageType, THREAD_ARGS, unpack_stride_count,
};
use isa_spec::{Executes, Inst, NiuOp, Opcode, SendType};

use super::message::{MessagePart, message_part, word_kind};
use super::queue::{Copier, Entry};
use super::tables::{ReceiveEvent, ReceiveState, ReceiveStep, SendEvent, SendState, SendStep};
use super::wait::Changed;
use super::{ControlMessage, Niu, NiuOutcome, OpenMessage, Wait};
use crate::config::{NiuDesign, WaitMode};
use crate::fault::FaultCause;

fn fault(m: &'static str, reason: String) -> NiuOutcome {
    NiuOutcome::Fault(FaultCause::Messaging {
        mnemonic: m,
        reason,
    })
}

/// The one rule for destination strides (the original's data header, the
/// modified NIU's `str`): at most [`MAX_STRIDE`] words. Within 2 GiB of
/// memory, a store address then leaves memory before it could wrap around.
fn check_stride(m: &'static str, stride: u32) -> Result<(), NiuOutcome> {
    if stride > MAX_STRIDE {
        return Err(fault(
            m,
            format!(
                "destination stride {stride} ({stride:#x}) is more than {MAX_STRIDE} words (17 bits, in both designs)"
            ),
        ));
    }
    Ok(())
}

impl Niu {
    /// Context `c` issues messaging instruction `inst` at cycle `now`, with
    /// integer registers `x`. Effects it causes are stamped `now + 1`.
    pub fn issue(&mut self, now: u64, c: usize, inst: &Inst, x: &[u32; 32]) -> NiuOutcome {
        // The instructions the NIU executes are the table's (its unit
        // column, `isa_spec::NiuOp`): the sends, and those of its tables.
        let Executes::Niu(op) = inst.op.executes() else {
            return fault(inst.op.mnemonic(), "not a messaging instruction".into());
        };
        if self.port_held(c) {
            return self.suspend(c, Wait::Port);
        }
        let outcome = match op {
            NiuOp::SendhT
            | NiuOp::SendhD
            | NiuOp::Send
            | NiuOp::Sende
            | NiuOp::Send2
            | NiuOp::Send2e
            | NiuOp::Sendm
            | NiuOp::Sendme => self.issue_send(now, c, inst, x),
            NiuOp::Ldss
            | NiuOp::Ldsr
            | NiuOp::Str
            | NiuOp::Rms
            | NiuOp::Rmr
            | NiuOp::Waits
            | NiuOp::Waitr => self.issue_table(now, c, inst, x),
        };
        self.wake_ready(now + 1);
        outcome
    }

    fn nodes(&self) -> u32 {
        self.width * self.height
    }

    fn check_node(&self, m: &'static str, node: u32) -> Result<(), NiuOutcome> {
        if node < self.nodes() {
            Ok(())
        } else {
            Err(fault(
                m,
                format!(
                    "destination node {node} is not on the {}x{} mesh (0..={})",
                    self.width,
                    self.height,
                    self.nodes() - 1
                ),
            ))
        }
    }

    fn check_buffer(
        &self,
        m: &'static str,
        addr: u32,
        stride: u32,
        count: u32,
    ) -> Result<(), NiuOutcome> {
        if !addr.is_multiple_of(4) {
            return Err(fault(
                m,
                format!("address {addr:#010x} is not word-aligned"),
            ));
        }
        if count == 0 {
            return Ok(());
        }
        let last = addr as u64 + (count as u64 - 1) * stride as u64 * 4;
        if last + 4 > self.memory_bytes {
            return Err(fault(
                m,
                format!(
                    "{count} words from {addr:#010x}, {stride} apart, reach {last:#x}, outside the tile's {} bytes of memory",
                    self.memory_bytes
                ),
            ));
        }
        Ok(())
    }

    /// The head flit of a message of type `ty` to `dst`.
    fn head(&self, dst: u32, mut head: Head) -> Flit {
        let w = self.width as i32;
        let (sx, sy) = ((self.node as i32) % w, (self.node as i32) / w);
        let (dx, dy) = ((dst as i32) % w, (dst as i32) / w);
        head.dx = (dx - sx) as i8;
        head.dy = (dy - sy) as i8;
        Flit::new(FlitKind::Head, head.encode())
    }

    /// The send family: the original NIU's one queue is refused while a
    /// copy runs or another context's message is open in it; then each
    /// instruction's own work.
    fn issue_send(&mut self, now: u64, c: usize, inst: &Inst, x: &[u32; 32]) -> NiuOutcome {
        let original = self.config.design == NiuDesign::Original;
        if original && (self.copier.is_some() || self.owner.is_some_and(|o| o != c)) {
            return self.suspend(c, Wait::QueueFree);
        }
        let q = if original { 0 } else { c };
        let outcome = match inst.op {
            Opcode::SendhT | Opcode::SendhD => self.issue_sendh(now, c, q, inst, x),
            Opcode::Send | Opcode::Sende | Opcode::Send2 | Opcode::Send2e => {
                self.issue_send_words(now, c, q, inst, x)
            }
            Opcode::Sendm | Opcode::Sendme => self.issue_sendm(now, c, q, inst, x),
            _ => unreachable!("issue_send takes the send family"),
        };
        match outcome {
            Ok(()) => NiuOutcome::Done(None),
            Err(o) => o,
        }
    }

    /// `sendh`: the head and second flit (the original data message's
    /// address, a thread's handler, a send-and-receive message's tag) of a
    /// new message into queue `q`.
    fn issue_sendh(
        &mut self,
        now: u64,
        c: usize,
        q: usize,
        inst: &Inst,
        x: &[u32; 32],
    ) -> Result<(), NiuOutcome> {
        let m = inst.op.mnemonic();
        if self.open[c].is_some() {
            return Err(fault(
                m,
                "a message is already open in this context (end it with sende, send2e or sendme first)"
                    .into(),
            ));
        }
        let dst = x[inst.rs1 as usize];
        self.check_node(m, dst)?;
        let (head, second, send_id) = if inst.op == Opcode::SendhD {
            self.data_orig_head(m, inst, x)?
        } else {
            self.typed_head(c, m, inst, x)?
        };
        if self.queues[q].free() < 2 {
            return Err(self.suspend(c, Wait::QueueRoom));
        }
        if let Some(id) = send_id {
            let _ = self.send_event(now, id, SendEvent::Sendh);
        }
        let at = now + 1;
        let flit = self.head(dst, head);
        self.queues[q].push(Entry::Flit(flit), at);
        self.queues[q].push(Entry::Flit(second), at);
        self.queue_changed(q);
        self.open[c] = Some(OpenMessage {
            ty: head.ty,
            body: 0,
        });
        if self.config.design == NiuDesign::Original {
            self.owner = Some(c);
            self.changed |= Changed::FREE;
        }
        Ok(())
    }

    /// `sendh node, data, address, stride` (the original NIU's data
    /// message): its head and address flit.
    fn data_orig_head(
        &self,
        m: &'static str,
        inst: &Inst,
        x: &[u32; 32],
    ) -> Result<(Head, Flit, Option<u32>), NiuOutcome> {
        if self.config.design != NiuDesign::Original {
            return Err(fault(
                m,
                "a data header with a destination address is the original NIU's (niu.design = \"original\"); the modified NIU sends `sendh node, ready|rdv, id`"
                    .into(),
            ));
        }
        let (addr, stride) = (x[inst.rs2 as usize], x[inst.rs3 as usize]);
        if !addr.is_multiple_of(4) {
            return Err(fault(
                m,
                format!("destination address {addr:#010x} is not word-aligned"),
            ));
        }
        check_stride(m, stride)?;
        let mut head = Head::new(0, 0, MessageType::DataOrig);
        head.stride = stride;
        Ok((head, Flit::new(FlitKind::Body, addr), None))
    }

    /// `sendh node, thread|ready|rdv, word`: a thread message's head and
    /// handler, or a send-and-receive data message's head and tag (its send
    /// entry taken, or the context suspended until it can be).
    fn typed_head(
        &mut self,
        c: usize,
        m: &'static str,
        inst: &Inst,
        x: &[u32; 32],
    ) -> Result<(Head, Flit, Option<u32>), NiuOutcome> {
        let original = self.config.design == NiuDesign::Original;
        let word = x[inst.rs2 as usize];
        let Some(kind) = SendType::from_bits(inst.aux) else {
            return Err(fault(m, "reserved send type".into()));
        };
        if kind == SendType::Thread {
            // The new thread's first pc: an instruction address, checked
            // here as a misaligned `jr` target is at the `jr` (the receiver
            // would run from the word below it otherwise).
            if !word.is_multiple_of(4) {
                return Err(fault(
                    m,
                    format!(
                        "thread handler {word:#010x} is not a multiple of 4 (a thread starts at an instruction)"
                    ),
                ));
            }
            let second = if original {
                Flit::new(FlitKind::Body, word)
            } else {
                Flit::new(FlitKind::Tag, word)
            };
            return Ok((Head::new(0, 0, MessageType::Thread), second, None));
        }
        if original {
            return Err(fault(
                m,
                "Ready and Rendezvous data messages need the modified NIU (niu.design = \"modified\"); the original NIU sends `sendh node, data, address, stride`"
                    .into(),
            ));
        }
        let id = word;
        match self.send.step(id, SendEvent::Sendh) {
            Err(_) => return Err(self.suspend(c, Wait::SendRoom)),
            Ok(SendStep::Wait) => return Err(self.suspend(c, Wait::Send(id, SendEvent::Sendh))),
            Ok(_) => {}
        }
        let mut head = Head::new(0, 0, MessageType::Data);
        head.rendezvous = kind == SendType::Rendezvous;
        Ok((head, Flit::new(FlitKind::Tag, id), Some(id)))
    }

    /// The message open in context `c`, or the fault of an instruction
    /// that needs one.
    fn open_message(&self, m: &'static str, c: usize) -> Result<OpenMessage, NiuOutcome> {
        self.open[c].ok_or_else(|| {
            fault(
                m,
                "no message is open in this context (start one with sendh)".into(),
            )
        })
    }

    /// A thread message takes at most 8 argument flits: `more` words added
    /// to `open`.
    fn check_arguments(m: &'static str, open: OpenMessage, more: u32) -> Result<(), NiuOutcome> {
        if open.ty == MessageType::Thread && open.body + more > THREAD_ARGS as u32 {
            return Err(fault(
                m,
                "a thread message carries at most 8 argument flits (a0..a7)".into(),
            ));
        }
        Ok(())
    }

    /// `send`, `sende`, `send2`, `send2e`: one or two words from registers.
    fn issue_send_words(
        &mut self,
        now: u64,
        c: usize,
        q: usize,
        inst: &Inst,
        x: &[u32; 32],
    ) -> Result<(), NiuOutcome> {
        let m = inst.op.mnemonic();
        let open = self.open_message(m, c)?;
        let words: &[u32] = match inst.op {
            Opcode::Send | Opcode::Sende => &[x[inst.rs1 as usize]],
            _ => &[x[inst.rs1 as usize], x[inst.rs2 as usize]],
        };
        let n = words.len() as u32;
        let ends = message_part(inst.op) == MessagePart::Ends;
        Self::check_arguments(m, open, n)?;
        if self.queues[q].free() < words.len() {
            return Err(self.suspend(c, Wait::QueueRoom));
        }
        for (k, w) in words.iter().enumerate() {
            let kind = word_kind(ends, n - k as u32);
            self.queues[q].push(Entry::Flit(Flit::new(kind, *w)), now + 1);
        }
        self.queue_changed(q);
        self.close_or_count(c, open, n, ends);
        Ok(())
    }

    /// `sendm`, `sendme`: words from memory, copied into the queue by the
    /// original NIU, streamed from memory at the queue's front by the
    /// modified one (two slots in its queue).
    fn issue_sendm(
        &mut self,
        now: u64,
        c: usize,
        q: usize,
        inst: &Inst,
        x: &[u32; 32],
    ) -> Result<(), NiuOutcome> {
        let m = inst.op.mnemonic();
        let open = self.open_message(m, c)?;
        let addr = x[inst.rs1 as usize];
        let (stride, count) = unpack_stride_count(x[inst.rs2 as usize]);
        let (stride, count) = (stride as u32, count as u32);
        let last = message_part(inst.op) == MessagePart::Ends;
        if last && count == 0 {
            return Err(fault(m, "a count of 0 words cannot end the message".into()));
        }
        self.check_buffer(m, addr, stride, count)?;
        Self::check_arguments(m, open, count)?;
        if count > 0 {
            if self.config.design == NiuDesign::Original {
                self.copier = Some(Copier {
                    context: c,
                    addr,
                    stride,
                    count,
                    last,
                });
            } else {
                if self.queues[q].free() < 2 {
                    return Err(self.suspend(c, Wait::QueueRoom));
                }
                let stream = Entry::Stream {
                    addr,
                    stride,
                    count,
                    last,
                };
                self.queues[q].push(stream, now + 1);
                self.queue_changed(q);
            }
        }
        self.close_or_count(c, open, count, last);
        Ok(())
    }

    fn close_or_count(&mut self, c: usize, open: OpenMessage, flits: u32, ends: bool) {
        if ends {
            self.open[c] = None;
            if self.owner == Some(c) {
                self.owner = None;
                self.changed |= Changed::FREE;
            }
        } else {
            self.open[c] = Some(OpenMessage {
                ty: open.ty,
                body: open.body + flits,
            });
        }
    }

    fn issue_table(&mut self, now: u64, c: usize, inst: &Inst, x: &[u32; 32]) -> NiuOutcome {
        let m = inst.op.mnemonic();
        if self.config.design == NiuDesign::Original {
            return fault(
                m,
                "the send and receive tables are the modified NIU's (niu.design = \"modified\")"
                    .into(),
            );
        }
        let id = x[inst.rs1 as usize];
        match inst.op {
            Opcode::Ldss => NiuOutcome::Done(Some(self.send.state(id) as u32)),
            Opcode::Ldsr => {
                let state = self.recv.state(id);
                if state == ReceiveState::Complete {
                    self.saw_complete(id, now);
                }
                NiuOutcome::Done(Some(state as u32))
            }
            Opcode::Str => {
                let (addr, stride) = (x[inst.rs2 as usize], x[inst.rs3 as usize]);
                if !addr.is_multiple_of(4) {
                    return fault(
                        m,
                        format!("buffer address {addr:#010x} is not word-aligned"),
                    );
                }
                if addr as u64 >= self.memory_bytes {
                    return fault(
                        m,
                        format!("buffer address {addr:#010x} is outside the tile's memory"),
                    );
                }
                if let Err(f) = check_stride(m, stride) {
                    return f;
                }
                let event = ReceiveEvent::Str { addr, stride };
                match self.receive_event(now, id, event) {
                    Err(_) => self.suspend(c, Wait::ReceiveRoom),
                    Ok((ReceiveStep::Wait, _)) => self.suspend(c, Wait::Receive(id, event)),
                    Ok((ReceiveStep::Answer(_), Some(e))) => {
                        // The RTS came first: answer its sender.
                        self.send_cts(now + 1, e.r_node, e.r_context, id);
                        NiuOutcome::Done(None)
                    }
                    Ok(_) => NiuOutcome::Done(None),
                }
            }
            Opcode::Rms => {
                let state = self.send.state(id);
                match self.send_event(now, id, SendEvent::Rms) {
                    Ok(SendStep::Refuse) if state == SendState::Empty => fault(
                        m,
                        format!(
                            "no send of message id {id} is in the table: nothing to remove (it was never sent, or removed already)"
                        ),
                    ),
                    Ok(SendStep::Refuse) => fault(
                        m,
                        format!(
                            "the send of message id {id} is {}; remove it once it is Complete (waits or ldss)",
                            state.name()
                        ),
                    ),
                    _ => NiuOutcome::Done(None),
                }
            }
            Opcode::Rmr => {
                let state = self.recv.state(id);
                match self.receive_event(now, id, ReceiveEvent::Rmr) {
                    Ok((ReceiveStep::Refuse, _)) if state == ReceiveState::Empty => fault(
                        m,
                        format!(
                            "no receive of message id {id} is in the table: nothing to remove (none was posted or received, or it was removed already)"
                        ),
                    ),
                    Ok((ReceiveStep::Refuse, _)) => fault(
                        m,
                        format!(
                            "the receive of message id {id} is {}: removing it would lose the transfer",
                            state.name()
                        ),
                    ),
                    _ => {
                        self.completed.retain(|(i, _)| *i != id);
                        NiuOutcome::Done(None)
                    }
                }
            }
            Opcode::Waits => match self.send_event(now, id, SendEvent::Waits) {
                Ok(SendStep::Wait) => match self.config.wait {
                    WaitMode::Poll => NiuOutcome::Repeat,
                    WaitMode::Wake => self.suspend(c, Wait::Send(id, SendEvent::Waits)),
                },
                Ok(SendStep::Refuse) => {
                    fault(m, format!("no send of message id {id} is in the table"))
                }
                _ => NiuOutcome::Done(None),
            },
            Opcode::Waitr => match self.receive_event(now, id, ReceiveEvent::Waitr) {
                Ok((ReceiveStep::Wait, _)) => match self.config.wait {
                    WaitMode::Poll => NiuOutcome::Repeat,
                    WaitMode::Wake => self.suspend(c, Wait::Receive(id, ReceiveEvent::Waitr)),
                },
                Ok((ReceiveStep::Refuse, _)) => {
                    fault(m, format!("no receive of message id {id} is in the table"))
                }
                _ => {
                    self.saw_complete(id, now);
                    NiuOutcome::Done(None)
                }
            },
            _ => unreachable!("issue_table takes the table family"),
        }
    }

    /// Queues a CTS to `node`'s context `context` for message `id`,
    /// injectable from cycle `at`.
    pub(crate) fn send_cts(&mut self, at: u64, node: u32, context: u8, id: u32) {
        let mut head = Head::new(0, 0, MessageType::Cts);
        head.context = context;
        let head = self.head(node, head);
        self.control.push_back(ControlMessage {
            dst: node,
            flits: [head, Flit::new(FlitKind::Tail, id)],
            ready_at: at,
        });
    }
}
