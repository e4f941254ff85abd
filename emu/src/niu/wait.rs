//! Contexts suspended on their NIU (a messaging instruction that cannot
//! go ahead yet), what each waits for, and their wake-up when it can.

use super::tables::{ReceiveEvent, ReceiveStep, SendEvent, SendStep};
use super::{Effect, Niu, NiuEventKind, NiuOutcome, TileEffect};
use crate::config::{FullQueue, NiuDesign};
use crate::hart::context::SuspendCause;

/// Why a context waits in the NIU, to be woken when it can proceed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Room in its transmission queue (or the shared one).
    QueueRoom,
    /// Original NIU: a `sendm` copy to finish, or another context's
    /// message to be complete in the queue.
    QueueFree,
    /// The send entry of the id to take the event (`sendh` of a busy id,
    /// `waits`): to change so that the event no longer waits.
    Send(u32, SendEvent),
    /// The receive entry of the id to take the event (`str` of a busy id,
    /// `waitr`).
    Receive(u32, ReceiveEvent),
    /// A free send-table entry.
    SendRoom,
    /// A free receive-table entry.
    ReceiveRoom,
    /// `niu.full_queue = "port"`: no other context to wait for room in
    /// its transmission queue.
    Port,
}

/// Kinds of change a waiting context may wait for, as bits of
/// `Niu::changed`: a wake-up check looks only at the contexts whose wait is
/// of a kind that changed since the last check (the others could not
/// proceed then, and nothing they wait for moved since).
pub(crate) struct Changed;

impl Changed {
    /// A transmission queue gave up slots (an entry left it; entries that
    /// come in only take room).
    pub const ROOM: u8 = 1;
    /// The original NIU's copy ended, or its queue's owner changed.
    pub const FREE: u8 = 2;
    /// The send table.
    pub const SEND: u8 = 4;
    /// The receive table.
    pub const RECEIVE: u8 = 8;
    /// The waiting list (a context suspended): every wait is looked at.
    pub const WAITING: u8 = 16;
    /// Every kind.
    pub const ALL: u8 = Self::ROOM | Self::FREE | Self::SEND | Self::RECEIVE | Self::WAITING;
}

impl Wait {
    /// The kinds of change that can let it proceed.
    fn changed_by(self) -> u8 {
        match self {
            Wait::QueueRoom => Changed::ROOM,
            Wait::QueueFree => Changed::FREE,
            Wait::Send(..) | Wait::SendRoom => Changed::SEND,
            Wait::Receive(..) | Wait::ReceiveRoom => Changed::RECEIVE,
            // Another context's wait for room, in the waiting list.
            Wait::Port => Changed::WAITING,
        }
    }
}

impl Niu {
    /// Contexts suspended on the NIU.
    pub fn waiting_contexts(&self) -> impl Iterator<Item = usize> + '_ {
        self.waiting.iter().map(|(c, _)| *c)
    }

    /// Suspends context `c` until `wait` can be met.
    pub(crate) fn suspend(&mut self, c: usize, wait: Wait) -> NiuOutcome {
        let cause = match wait {
            Wait::QueueRoom | Wait::Port => SuspendCause::QueueFull,
            Wait::QueueFree => SuspendCause::NiuBusy,
            Wait::Send(_, SendEvent::Waits) => SuspendCause::WaitSend,
            Wait::Receive(_, ReceiveEvent::Waitr) => SuspendCause::WaitReceive,
            Wait::Send(..) | Wait::Receive(..) => SuspendCause::IdInUse,
            Wait::SendRoom | Wait::ReceiveRoom => SuspendCause::TableFull,
        };
        self.waiting.retain(|(x, _)| *x != c);
        self.waiting.push((c, wait));
        self.changed |= Changed::WAITING;
        NiuOutcome::Suspend(cause)
    }

    /// Whether `wait` can be met now.
    fn can_proceed(&self, c: usize, wait: Wait) -> bool {
        match wait {
            Wait::QueueRoom => {
                let q = match self.config.design {
                    NiuDesign::Original => 0,
                    NiuDesign::Modified => c,
                };
                self.queues[q].free() >= 2
            }
            Wait::QueueFree => self.copier.is_none() && self.owner.is_none_or(|o| o == c),
            // The event the context tried no longer waits (it may then
            // go ahead, or find the table full, or fault).
            Wait::Send(id, event) => self.send.step(id, event) != Ok(SendStep::Wait),
            Wait::Receive(id, event) => self.recv.step(id, event) != Ok(ReceiveStep::Wait),
            Wait::SendRoom => !self.send.is_full(),
            Wait::ReceiveRoom => !self.recv.is_full(),
            Wait::Port => !self.port_held(c),
        }
    }

    /// `niu.full_queue = "port"`: whether a context other than `c` waits
    /// for room in its transmission queue, which holds the tile's
    /// messaging port.
    pub(crate) fn port_held(&self, c: usize) -> bool {
        self.config.full_queue == FullQueue::Port
            && self
                .waiting
                .iter()
                .any(|&(x, w)| x != c && w == Wait::QueueRoom)
    }

    /// Wakes (from cycle `at`) every waiting context that can proceed.
    #[inline]
    pub(crate) fn wake_ready(&mut self, at: u64) {
        let changed = std::mem::take(&mut self.changed);
        if changed == 0 || self.waiting.is_empty() {
            debug_assert!(
                self.waiting.iter().all(|&(c, w)| !self.can_proceed(c, w)),
                "NIU {}: a waiting context can proceed, and nothing it waits for changed",
                self.node
            );
            return;
        }
        self.wake_changed(at, changed);
    }

    /// [`Niu::wake_ready`] once something of kinds `changed` changed.
    fn wake_changed(&mut self, at: u64, mut changed: u8) {
        if changed & Changed::WAITING != 0 {
            changed = Changed::ALL;
        }
        let mut k = 0;
        while k < self.waiting.len() {
            let (c, w) = self.waiting[k];
            if w.changed_by() & changed == 0 {
                debug_assert!(
                    !self.can_proceed(c, w),
                    "NIU {}: context {c} can proceed ({w:?}), and nothing it waits for changed",
                    self.node
                );
                k += 1;
                continue;
            }
            if self.can_proceed(c, w) {
                // A context that held the port frees the contexts waiting
                // for it, which may be earlier in the list.
                let rescan = w == Wait::QueueRoom && self.config.full_queue == FullQueue::Port;
                self.waiting.remove(k);
                if let Wait::Receive(id, ReceiveEvent::Waitr) = w {
                    self.saw_complete(id, at);
                }
                self.effects.push(Effect {
                    at,
                    what: TileEffect::Wake { context: c },
                });
                self.event(at - 1, NiuEventKind::Woken { context: c });
                if rescan {
                    changed = Changed::ALL;
                    k = 0;
                }
            } else {
                k += 1;
            }
        }
    }
}
