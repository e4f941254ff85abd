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
        self.wake_check = true;
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
    pub(crate) fn wake_ready(&mut self, at: u64) {
        if !std::mem::take(&mut self.wake_check) {
            debug_assert!(
                self.waiting.iter().all(|&(c, w)| !self.can_proceed(c, w)),
                "NIU {}: a waiting context can proceed, and nothing it waits for changed",
                self.node
            );
            return;
        }
        if self.waiting.is_empty() {
            return;
        }
        let mut k = 0;
        while k < self.waiting.len() {
            let (c, w) = self.waiting[k];
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
                    k = 0;
                }
            } else {
                k += 1;
            }
        }
    }
}
