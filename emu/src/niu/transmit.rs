//! The transmit side of an NIU cycle: the original NIU's `sendm` copy,
//! RTS and CTS messages, and the transmission queues taking turns on the
//! injection channel (the instructions that fill them are in `issue.rs`).

use isa_spec::msg::{Flit, FlitKind, Head, MessageType};

use super::message::word_kind;
use super::queue::Entry;
use super::tables::{QueueEvent, QueueState, QueueStep, SendEvent};
use super::wait::Changed;
use super::{ControlMessage, Effect, Niu, TileEffect, TileView, class_of};
use crate::config::NiuDesign;
use crate::network::flit::{NetFlit, PacketId};
use crate::network::{Network, PacketInfo};

/// The queue holding the injection channel and its message's progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Holder {
    pub queue: usize,
    /// Once the head is in: its VC, packet and the next flit's number.
    pub vc: Option<(u8, PacketId, u16)>,
    /// The send-table id of a data message.
    pub send_id: Option<u32>,
}

impl Niu {
    /// The transmit side of cycle `now`.
    pub(crate) fn transmit(&mut self, now: u64, net: &mut Network, view: &mut dyn TileView) {
        self.copy(now, view);
        if self.config.design == NiuDesign::Modified {
            self.look_at_queue_fronts(now);
        } else if self.holder.is_none()
            && self.ready.is_empty()
            && matches!(self.queues[0].front(now), Some(Entry::Flit(f)) if f.kind() == FlitKind::Head)
        {
            self.ready.push_back(0);
        }
        if self.inject_control(now, net) {
            return;
        }
        self.inject_data(now, net, view);
    }

    /// The original NIU's `sendm` copy: one word per DMA period into the queue.
    fn copy(&mut self, now: u64, view: &mut dyn TileView) {
        let Some(mut cp) = self.copier else {
            return;
        };
        if !self.tx_dma.ready(now) || self.queues[0].free() == 0 {
            return;
        }
        let value = match view.read_word(cp.addr) {
            Ok(v) => v,
            Err(cause) => {
                // The range was checked at issue; memory does not shrink.
                self.effects.push(Effect {
                    at: now + 1,
                    what: TileEffect::Fault(cause),
                });
                self.copier = None;
                self.changed |= Changed::FREE;
                return;
            }
        };
        let kind = word_kind(cp.last, cp.count);
        self.queues[0].push(Entry::Flit(Flit::new(kind, value)), now + 1);
        self.queue_changed(0);
        self.tx_dma.moved(now);
        self.counters.dma_words += 1;
        cp.addr = cp.addr.wrapping_add(cp.stride.wrapping_mul(4));
        cp.count -= 1;
        self.copier = (cp.count > 0).then_some(cp);
        if self.copier.is_none() {
            self.changed |= Changed::FREE;
        }
    }

    /// Modified NIU: queues whose front became a head go ready (thread,
    /// Ready data) or send an RTS (Rendezvous data).
    fn look_at_queue_fronts(&mut self, now: u64) {
        let mut look = self.filled & self.unlooked;
        while look != 0 {
            let q = look.trailing_zeros() as usize;
            look &= look - 1;
            let Some(Entry::Flit(f)) = self.queues[q].front(now) else {
                continue;
            };
            if f.kind() != FlitKind::Head {
                continue;
            }
            let Some(head) = Head::decode(f.payload) else {
                continue;
            };
            let id = match self.queues[q].second() {
                Some(Entry::Flit(t)) if head.ty == MessageType::Data => Some(t.payload),
                _ => None,
            };
            if let Some(id) = id {
                let _ = self.send_event(now, id, SendEvent::HeadAtFront);
            }
            let rendezvous = (head.ty == MessageType::Data && head.rendezvous)
                .then(|| id.expect("a data head is followed by its tag"));
            let step = self.qstate[q].on(QueueEvent::Head(rendezvous));
            self.queue_state_changed(q);
            if let QueueStep::To(QueueState::Waiting(id)) = step {
                let mut rts = Head::new(head.dx, head.dy, MessageType::Rts);
                rts.node = self.node as u16;
                rts.context = q as u8;
                let dst = self.dst_of(head.dx, head.dy);
                self.control.push_back(ControlMessage {
                    dst,
                    flits: [
                        Flit::new(FlitKind::Head, rts.encode()),
                        Flit::new(FlitKind::Tail, id),
                    ],
                    ready_at: now,
                });
                self.cts_since[q] = now;
            } else {
                self.ready.push_back(q);
            }
        }
    }

    pub(crate) fn dst_of(&self, dx: i8, dy: i8) -> u32 {
        let w = self.width as i32;
        let (x, y) = ((self.node as i32) % w, (self.node as i32) / w);
        ((y + dy as i32) * w + x + dx as i32) as u32
    }

    /// One flit of an RTS or CTS, if one is waiting and can go.
    fn inject_control(&mut self, now: u64, net: &mut Network) -> bool {
        let Some(msg) = self.control.front().copied() else {
            return false;
        };
        if msg.ready_at > now {
            return false;
        }
        let ty = Head::decode(msg.flits[0].payload).map_or(MessageType::Rts, |h| h.ty);
        let (vc, packet, k) = match self.control_vc {
            Some(v) => v,
            None => {
                let class = class_of(self.config.design, ty);
                let Some(vc) = net.free_injection_vc(self.node, class) else {
                    return false;
                };
                let packet = net.new_packet(PacketInfo {
                    src: self.node,
                    dst: msg.dst,
                    class,
                    len: 2,
                    injected: now,
                    tail_injected: 0,
                    tag: msg.ready_at,
                    flow: 0,
                });
                (vc, packet, 0)
            }
        };
        if !net.can_inject(self.node, vc) {
            self.control_vc = Some((vc, packet, k));
            return false;
        }
        net.inject(
            self.node,
            vc,
            NetFlit::new(msg.flits[k as usize], packet, k),
            now,
        );
        self.counters.flits_sent[ty as usize] += 1;
        if k == 1 {
            self.control.pop_front();
            self.control_vc = None;
            self.counters.messages_sent[ty as usize] += 1;
        } else {
            self.control_vc = Some((vc, packet, 1));
        }
        true
    }

    /// One flit from the queue holding the injection channel.
    fn inject_data(&mut self, now: u64, net: &mut Network, view: &mut dyn TileView) {
        if self.holder.is_none() {
            let Some(q) = self.ready.pop_front() else {
                return;
            };
            self.holder = Some(Holder {
                queue: q,
                vc: None,
                send_id: None,
            });
        }
        let mut h = self.holder.expect("just set");
        let q = h.queue;
        let Some(entry) = self.queues[q].front(now).copied() else {
            // The thread has not enqueued the rest of the message yet.
            return;
        };
        let (flit, from_stream) = match entry {
            Entry::Flit(f) => (f, false),
            Entry::Stream {
                addr, count, last, ..
            } => {
                if !self.tx_dma.ready(now) {
                    return;
                }
                let Some((vc, _, _)) = h.vc else {
                    unreachable!("a stream follows its message's head");
                };
                if !net.can_inject(self.node, vc) {
                    return;
                }
                let value = match view.read_word(addr) {
                    Ok(v) => v,
                    Err(cause) => {
                        self.effects.push(Effect {
                            at: now + 1,
                            what: TileEffect::Fault(cause),
                        });
                        return;
                    }
                };
                self.tx_dma.moved(now);
                self.counters.dma_words += 1;
                (Flit::new(word_kind(last, count), value), true)
            }
        };
        let (vc, packet, seq) = match h.vc {
            Some(v) => v,
            None => {
                // The head: a VC of its class.
                let head = Head::decode(flit.payload).expect("the queue front is a head");
                let class = class_of(self.config.design, head.ty);
                let Some(vc) = net.free_injection_vc(self.node, class) else {
                    return;
                };
                let dst = self.dst_of(head.dx, head.dy);
                // The head was enqueued at the end of its sendh's cycle.
                let created = self.queues[q].front_ready_at().saturating_sub(1);
                let flow = self.next_flow();
                let packet = net.new_packet(PacketInfo {
                    src: self.node,
                    dst,
                    class,
                    len: 0,
                    injected: now,
                    tail_injected: 0,
                    tag: created,
                    flow,
                });
                self.flow_sent(now, q, flow);
                if head.ty == MessageType::Data {
                    h.send_id = match self.queues[q].second() {
                        Some(Entry::Flit(t)) => Some(t.payload),
                        _ => None,
                    };
                }
                self.current_type[q] = head.ty;
                (vc, packet, 0)
            }
        };
        if !net.can_inject(self.node, vc) {
            h.vc = Some((vc, packet, seq));
            self.holder = Some(h);
            return;
        }
        net.inject(self.node, vc, NetFlit::new(flit, packet, seq), now);
        let ty = self.current_type[q];
        self.counters.flits_sent[ty as usize] += 1;
        if from_stream {
            match entry {
                Entry::Stream { count: 1, .. } => {
                    self.queues[q].pop();
                    self.changed |= Changed::ROOM;
                }
                _ => self.queues[q].advance_stream(),
            }
        } else {
            self.queues[q].pop();
            self.changed |= Changed::ROOM;
        }
        self.queue_changed(q);
        if flit.kind() == FlitKind::Tail {
            self.counters.messages_sent[ty as usize] += 1;
            if let Some(id) = h.send_id {
                let _ = self.send_event(now, id, SendEvent::TailSent);
            }
            self.holder = None;
            if self.config.design == NiuDesign::Modified {
                self.qstate[q].on(QueueEvent::TailSent);
                self.queue_state_changed(q);
            }
        } else {
            h.vc = Some((vc, packet, seq + 1));
            self.holder = Some(h);
        }
    }
}
