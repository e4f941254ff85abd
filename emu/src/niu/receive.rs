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

use isa_spec::msg::{FlitKind, Head, MessageType};

use super::tables::{QueueEvent, QueueStep, ReceiveEvent, ReceiveStep, TableFull};
use super::{Effect, HeadSeen, Niu, Rx, TileEffect, TileView};
use crate::config::NiuDesign;
use crate::fault::FaultCause;
use crate::network::Network;
use crate::network::flit::NetFlit;

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
                self.effects.push(Effect {
                    at,
                    what: TileEffect::StartThread { context, pc, args },
                });
                self.releasing |= 1 << context;
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
            match self.take(now, vc, f, src, view) {
                Ok(()) => {
                    self.rx_changed(vc);
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
        self.rx_dma_free = now + self.config.dma_cycles_per_word as u64;
        self.counters.dma_words += 1;
        true
    }

    /// Takes flit `f` of ejection VC `vc`, or says why not.
    fn take(
        &mut self,
        now: u64,
        vc: usize,
        f: NetFlit,
        from: u32,
        view: &mut dyn TileView,
    ) -> Result<(), Blocked> {
        let kind = f.flit.kind();
        let payload = f.flit.payload;
        let ends = kind == FlitKind::Tail;
        // A data word within a message (most flits): stored, and the
        // address moves on, in place.
        if !ends
            && let Rx::Data { addr, stride, .. }
            | Rx::DataOrig {
                addr: Some(addr),
                stride,
                ..
            } = self.rx[vc]
        {
            if now < self.rx_dma_free {
                return Err(Blocked::Dma);
            }
            if self.dma_store(now, addr, payload, from) {
                match &mut self.rx[vc] {
                    Rx::Data { addr, .. }
                    | Rx::DataOrig {
                        addr: Some(addr), ..
                    } => *addr = addr.wrapping_add(stride.wrapping_mul(4)),
                    _ => unreachable!("matched above"),
                }
            } else {
                self.rx[vc] = Rx::Discard;
            }
            return Ok(());
        }
        match self.rx[vc].clone() {
            Rx::Idle => {
                let Some(head) = (kind == FlitKind::Head)
                    .then(|| Head::decode(payload))
                    .flatten()
                else {
                    self.delivery_fault(
                        now,
                        from,
                        format!("a message starts with a {kind:?} flit"),
                    );
                    self.rx[vc] = Rx::Discard;
                    return Ok(());
                };
                self.rx[vc] = match head.ty {
                    MessageType::Thread => {
                        let Some(context) = self.free_context(view) else {
                            return Err(Blocked::NoContext);
                        };
                        self.reserved |= 1 << context;
                        Rx::Thread {
                            context,
                            pc: None,
                            args: [0; 8],
                            count: 0,
                            from,
                        }
                    }
                    MessageType::DataOrig => Rx::DataOrig {
                        addr: None,
                        stride: head.stride,
                        from,
                    },
                    MessageType::Data => Rx::AwaitTag {
                        rendezvous: head.rendezvous,
                        from,
                    },
                    MessageType::Rts => Rx::Rts {
                        node: head.node as u32,
                        context: head.context,
                        from,
                    },
                    MessageType::Cts => Rx::Cts {
                        context: head.context,
                        from,
                    },
                };
                Ok(())
            }
            Rx::Thread {
                context,
                pc,
                mut args,
                count,
                from,
            } => {
                match pc {
                    None => {
                        self.rx[vc] = Rx::Thread {
                            context,
                            pc: Some(payload),
                            args,
                            count,
                            from,
                        }
                    }
                    Some(pc) => {
                        if count < 8 {
                            args[count] = payload;
                        }
                        if ends {
                            let at = now + self.config.thread_start_cycles as u64;
                            if at == now + 1 {
                                self.effects.push(Effect {
                                    at,
                                    what: TileEffect::StartThread { context, pc, args },
                                });
                                self.releasing |= 1 << context;
                            } else {
                                self.starting.push((context, at, pc, args));
                            }
                            self.counters.messages_received[MessageType::Thread as usize] += 1;
                            self.trace_thread(now, context, pc, from);
                            self.rx[vc] = Rx::Idle;
                        } else {
                            self.rx[vc] = Rx::Thread {
                                context,
                                pc: Some(pc),
                                args,
                                count: count + 1,
                                from,
                            };
                        }
                    }
                }
                Ok(())
            }
            Rx::DataOrig { addr, stride, from } => {
                match addr {
                    None => {
                        self.rx[vc] = Rx::DataOrig {
                            addr: Some(payload),
                            stride,
                            from,
                        }
                    }
                    Some(a) => {
                        if now < self.rx_dma_free {
                            return Err(Blocked::Dma);
                        }
                        let ok = self.dma_store(now, a, payload, from);
                        self.rx[vc] = if !ok {
                            if ends { Rx::Idle } else { Rx::Discard }
                        } else if ends {
                            self.counters.messages_received[MessageType::DataOrig as usize] += 1;
                            Rx::Idle
                        } else {
                            Rx::DataOrig {
                                addr: Some(a.wrapping_add(stride.wrapping_mul(4))),
                                stride,
                                from,
                            }
                        };
                    }
                }
                Ok(())
            }
            Rx::AwaitTag { rendezvous, from } => {
                let id = payload;
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
                    self.rx[vc] = Rx::Discard;
                    self.rx_head[vc].ty = None;
                    return Ok(());
                };
                self.rx[vc] = Rx::Data {
                    id,
                    addr: e.addr,
                    stride: e.stride,
                    from,
                };
                Ok(())
            }
            Rx::Data {
                id,
                addr,
                stride,
                from,
            } => {
                if now < self.rx_dma_free {
                    return Err(Blocked::Dma);
                }
                let ok = self.dma_store(now, addr, payload, from);
                if ends {
                    let _ = self.receive_event(now, id, ReceiveEvent::Stored);
                    self.completed.push((id, now + 1));
                    self.counters.messages_received[MessageType::Data as usize] += 1;
                    self.rx[vc] = Rx::Idle;
                } else if ok {
                    self.rx[vc] = Rx::Data {
                        id,
                        addr: addr.wrapping_add(stride.wrapping_mul(4)),
                        stride,
                        from,
                    };
                } else {
                    self.rx[vc] = Rx::Discard;
                }
                Ok(())
            }
            Rx::Rts {
                node,
                context,
                from,
            } => {
                let id = payload;
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
                let _ = from;
                self.rx[vc] = Rx::Idle;
                Ok(())
            }
            Rx::Cts { context, from } => {
                let id = payload;
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
                        format!(
                            "a CTS for message id {id} and context {context}, which waits for none"
                        ),
                    );
                }
                self.counters.messages_received[MessageType::Cts as usize] += 1;
                self.rx[vc] = Rx::Idle;
                Ok(())
            }
            Rx::Discard => {
                if ends {
                    self.rx[vc] = Rx::Idle;
                }
                Ok(())
            }
        }
    }
}
