//! The receive side of an NIU cycle: at most one flit a cycle is taken from
//! the ejection buffers (round robin among the VCs whose front flit can be
//! taken), and what it means happens: a thread message fills a reserved
//! context and starts it; data is stored by DMA (original: at the address
//! the message carries, without notification; modified: into the posted
//! receive's buffer, the entry going In Progress and then Complete); an RTS
//! records itself or is answered with a CTS; a CTS readies the waiting
//! queue. A flit that cannot be taken yet stays in its buffer, which holds
//! its VC in the network: a thread message when no context is free, a Ready
//! message or RTS whose receive entry is busy (thesis 3.3, 5.6.1, 5.7).

use isa_spec::msg::{Flit, FlitKind, Head, MessageType, THREAD_ARGS};

use super::eject::{Rx, RxEvent};
use super::tables::{QueueEvent, QueueStep, ReceiveEvent, ReceiveStep, TableFull};
use super::{Effect, HeadSeen, Niu, TileEffect, TileView};
use crate::config::NiuDesign;
use crate::fault::FaultCause;
use crate::network::Network;

/// Why the front flit of an ejection VC was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Blocked {
    /// No context is free for a thread message.
    NoContext = 0,
    /// The receive entry is busy (Ready data, RTS).
    EntryBusy = 1,
    /// The receive table is full (RTS).
    TableFull = 2,
    /// The DMA engine is busy with the previous word.
    Dma = 3,
}

impl Niu {
    /// The receive side of cycle `now`.
    pub(crate) fn receive(&mut self, now: u64, net: &mut Network, view: &mut dyn TileView) {
        // Contexts whose thread start the tile has applied are its own again.
        self.reserved &= !self.releasing;
        self.releasing = 0;
        // Threads whose start is seen next cycle.
        let mut k = 0;
        while k < self.starting.len() {
            let (context, at, pc, args) = self.starting[k];
            if at == now + 1 {
                self.start_thread(context, at, pc, args);
                self.starting.swap_remove(k);
            } else {
                k += 1;
            }
        }
        // The VCs with flits, round robin from `rx_next`.
        let holding = net.ejection_vcs(self.node);
        if holding == 0 {
            return;
        }
        let vcs = self.rx.len();
        let later = holding & !((1u64 << self.rx_next) - 1);
        let (mut first, mut then) = (later, holding & !later);
        loop {
            let vc = if first != 0 {
                let vc = first.trailing_zeros() as usize;
                first &= first - 1;
                vc
            } else if then != 0 {
                let vc = then.trailing_zeros() as usize;
                then &= then - 1;
                vc
            } else {
                return;
            };
            let Some(f) = net.peek_ejected(self.node, vc as u8).copied() else {
                continue;
            };
            let src = net.packet(f.packet).src;
            let delivery = self.delivery_on(vc);
            match self.take(now, vc, f.flit, src, view) {
                Ok(()) => {
                    let info = net.packet(f.packet);
                    if f.is_first() {
                        self.rx_head[vc] = HeadSeen {
                            ty: Head::decode(f.flit.payload).map(|h| h.ty),
                            created: info.tag,
                            injected: info.injected,
                            taken: now,
                        };
                    }
                    if f.is_last() {
                        let flow = info.flow;
                        self.message_taken(vc, now, info.tail_injected);
                        if let Some(what) = delivery {
                            self.flow_received(now, flow, what);
                        }
                    }
                    net.take_ejected(self.node, vc as u8, now);
                    self.rx_next = (vc + 1) % vcs;
                    return;
                }
                Err(Blocked::Dma) => {}
                Err(b) => self.counters.eject_blocked[b as usize] += 1,
            }
        }
    }

    /// The tail of the message on ejection VC `vc` was taken at `now`.
    fn message_taken(&mut self, vc: usize, now: u64, tail_injected: u64) {
        let h = std::mem::take(&mut self.rx_head[vc]);
        let notify = match h.ty {
            Some(MessageType::Thread) => self.config.thread_start_cycles as u64,
            Some(MessageType::Data | MessageType::DataOrig) => 0,
            // Handshakes and discarded messages carry no data.
            _ => return,
        };
        self.counters
            .messages
            .add(h.created, h.injected, tail_injected, h.taken, now, notify);
    }

    fn free_context(&self, view: &dyn TileView) -> Option<usize> {
        (0..self.open.len()).find(|&c| !self.is_reserved(c) && view.context_free(c))
    }

    fn delivery_fault(&mut self, now: u64, from: u32, reason: String) {
        self.effects.push(Effect {
            at: now + 1,
            what: TileEffect::Fault(FaultCause::Delivery { from, reason }),
        });
    }

    /// Stores `value` at `addr` by DMA, or reports a store outside memory.
    fn dma_store(&mut self, now: u64, addr: u32, value: u32, from: u32) -> bool {
        if addr as u64 + 4 > self.memory_bytes {
            self.delivery_fault(
                now,
                from,
                format!(
                    "data for {addr:#010x}, outside the tile's {} bytes of memory",
                    self.memory_bytes
                ),
            );
            return false;
        }
        self.effects.push(Effect {
            at: now + 1,
            what: TileEffect::Write { addr, value },
        });
        self.rx_dma.moved(now);
        self.counters.dma_words += 1;
        true
    }

    /// Starts a thread in reserved `context`, seen from cycle `at`; the
    /// context is released the cycle after.
    fn start_thread(&mut self, context: usize, at: u64, pc: u32, args: [u32; THREAD_ARGS]) {
        self.effects.push(Effect {
            at,
            what: TileEffect::StartThread { context, pc, args },
        });
        self.releasing |= 1 << context;
    }

    /// Takes flit `flit` of ejection VC `vc`, from node `from`, or says why
    /// not: the work is the VC's state's.
    fn take(
        &mut self,
        now: u64,
        vc: usize,
        flit: Flit,
        from: u32,
        view: &mut dyn TileView,
    ) -> Result<(), Blocked> {
        let payload = flit.payload;
        let ends = flit.kind() == FlitKind::Tail;
        match *self.rx.state(vc) {
            Rx::Idle => return self.take_head(now, vc, flit, from, view),
            Rx::Thread { pc: Some(_), .. } => self.take_argument(now, vc, payload, ends, from),
            // A thread message's pc, an original data message's address.
            Rx::Thread { pc: None, .. } | Rx::DataOrig { addr: None, .. } => {
                self.rx.apply(vc, RxEvent::Word(payload));
            }
            Rx::DataOrig {
                addr: Some(addr), ..
            }
            | Rx::Data { addr, .. } => return self.take_data(now, vc, addr, payload, ends, from),
            Rx::AwaitTag { rendezvous } => {
                return self.take_tag(now, vc, payload, rendezvous, from);
            }
            Rx::Rts { node, context } => return self.take_rts(now, vc, payload, node, context),
            Rx::Cts { context } => self.take_cts(now, vc, payload, context, from),
            Rx::Discard => {
                if ends {
                    self.rx.apply(vc, RxEvent::End);
                }
            }
        }
        Ok(())
    }

    /// Idle: a message's first flit, which must be a head. A thread
    /// message's waits until a context is free, and reserves it.
    fn take_head(
        &mut self,
        now: u64,
        vc: usize,
        flit: Flit,
        from: u32,
        view: &mut dyn TileView,
    ) -> Result<(), Blocked> {
        let kind = flit.kind();
        let Some(head) = (kind == FlitKind::Head)
            .then(|| Head::decode(flit.payload))
            .flatten()
        else {
            self.delivery_fault(now, from, format!("a message starts with a {kind:?} flit"));
            self.rx.apply(vc, RxEvent::Drop);
            return Ok(());
        };
        let mut context = 0;
        if head.ty == MessageType::Thread {
            let Some(c) = self.free_context(view) else {
                return Err(Blocked::NoContext);
            };
            self.reserved |= 1 << c;
            context = c;
        }
        self.rx.apply(vc, RxEvent::Head { head, context });
        Ok(())
    }

    /// A thread message's argument; its tail starts the thread.
    fn take_argument(&mut self, now: u64, vc: usize, payload: u32, ends: bool, from: u32) {
        let &Rx::Thread {
            context,
            pc: Some(pc),
            args,
            ..
        } = self.rx.apply(vc, RxEvent::Word(payload))
        else {
            unreachable!("an argument keeps a thread message's pc");
        };
        if !ends {
            return;
        }
        let at = now + self.config.thread_start_cycles as u64;
        if at == now + 1 {
            self.start_thread(context, at, pc, args);
        } else {
            self.starting.push((context, at, pc, args));
        }
        self.counters.messages_received[MessageType::Thread as usize] += 1;
        self.trace_thread(now, context, pc, from);
        self.rx.apply(vc, RxEvent::End);
    }

    /// A data word for `addr`, stored when the receive DMA is free; a store
    /// outside memory faults and drops the rest of the message. The tail
    /// ends it: a send-and-receive message's receive entry is Complete.
    fn take_data(
        &mut self,
        now: u64,
        vc: usize,
        addr: u32,
        payload: u32,
        ends: bool,
        from: u32,
    ) -> Result<(), Blocked> {
        if !self.rx_dma.ready(now) {
            return Err(Blocked::Dma);
        }
        let stored = self.dma_store(now, addr, payload, from);
        if !ends {
            let event = if stored {
                RxEvent::Word(payload)
            } else {
                RxEvent::Drop
            };
            self.rx.apply(vc, event);
            return Ok(());
        }
        match *self.rx.state(vc) {
            Rx::Data { id, .. } => {
                let _ = self.receive_event(now, id, ReceiveEvent::Stored);
                self.completed.push((id, now + 1));
                self.counters.messages_received[MessageType::Data as usize] += 1;
            }
            _ if stored => {
                self.counters.messages_received[MessageType::DataOrig as usize] += 1;
            }
            _ => {}
        }
        self.rx.apply(vc, RxEvent::End);
        Ok(())
    }

    /// A send-and-receive data message's tag (its message id): the receive
    /// entry takes the data, keeps it waiting in the network (an entry In
    /// Progress), or it is discarded (a Ready message with no receive
    /// posted).
    fn take_tag(
        &mut self,
        now: u64,
        vc: usize,
        id: u32,
        rendezvous: bool,
        from: u32,
    ) -> Result<(), Blocked> {
        let event = if rendezvous {
            ReceiveEvent::RendezvousData
        } else {
            ReceiveEvent::ReadyData
        };
        let (step, entry) = self
            .receive_event(now, id, event)
            .unwrap_or((ReceiveStep::Discard, None));
        if step == ReceiveStep::Wait {
            return Err(Blocked::EntryBusy);
        }
        let Some(e) = entry.filter(|_| step != ReceiveStep::Discard) else {
            let state = self.recv.state(id);
            self.counters.discarded += 1;
            self.note_discard(now, id, from, state);
            self.trace_discard(now, id, from);
            if self.config.strict {
                self.delivery_fault(
                    now,
                    from,
                    format!(
                        "{} data message for id {id} found the receive entry {} and was discarded (niu.strict)",
                        if rendezvous { "a Rendezvous" } else { "a Ready-mode" },
                        state.name()
                    ),
                );
            }
            self.rx.apply(vc, RxEvent::Drop);
            self.rx_head[vc].ty = None;
            return Ok(());
        };
        let (addr, stride) = (e.addr, e.stride);
        self.rx.apply(vc, RxEvent::Tag { id, addr, stride });
        Ok(())
    }

    /// An RTS's id, from `node`'s context `context`: recorded, answered
    /// with a CTS when the receive was posted first, or left in the network
    /// while the entry is busy or the table full.
    fn take_rts(
        &mut self,
        now: u64,
        vc: usize,
        id: u32,
        node: u32,
        context: u8,
    ) -> Result<(), Blocked> {
        match self.receive_event(now, id, ReceiveEvent::Rts { node, context }) {
            Err(TableFull) => return Err(Blocked::TableFull),
            // Another transfer of this id is under way or not
            // cleared: this RTS waits in the network (5.6.1).
            Ok((ReceiveStep::Wait, _)) => return Err(Blocked::EntryBusy),
            // The receive was posted first: answer at once.
            Ok((ReceiveStep::Answer(_), _)) => self.send_cts(now + 1, node, context, id),
            Ok(_) => {}
        }
        self.counters.messages_received[MessageType::Rts as usize] += 1;
        self.rx.apply(vc, RxEvent::End);
        Ok(())
    }

    /// A CTS's id, for this NIU's queue `context`: the queue waiting for it
    /// may send; a CTS nobody waits for faults.
    fn take_cts(&mut self, now: u64, vc: usize, id: u32, context: u8, from: u32) {
        let q = context as usize;
        if self.config.design == NiuDesign::Modified
            && q < self.qstate.len()
            && self.qstate[q].on(QueueEvent::Cts(id)) != QueueStep::Refuse
        {
            self.queue_state_changed(q);
            self.counters.cts_waited += now - self.cts_since[q];
            self.ready.push_back(q);
        } else {
            self.delivery_fault(
                now,
                from,
                format!("a CTS for message id {id} and context {context}, which waits for none"),
            );
        }
        self.counters.messages_received[MessageType::Cts as usize] += 1;
        self.rx.apply(vc, RxEvent::End);
    }
}
