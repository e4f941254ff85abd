//! Contexts suspended on their NIU (a messaging instruction that cannot
//! go ahead yet), what each waits for, and their wake-up when it can.

use super::tables::{ReceiveEvent, ReceiveStep, SendEvent, SendStep};
use super::{Effect, Niu, NiuEventKind, NiuOutcome, TileEffect};
use crate::config::NiuDesign;
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
}

impl Niu {
    /// Contexts suspended on the NIU.
    pub fn waiting_contexts(&self) -> impl Iterator<Item = usize> + '_ {
        self.waiting.iter().map(|(c, _)| *c)
    }

    /// What context `c` waits for, in words (for deadlock reports).
    pub fn describe_wait(&self, c: usize) -> Option<String> {
        let (_, w) = self.waiting.iter().find(|(x, _)| *x == c)?;
        Some(match *w {
            Wait::QueueRoom => "room in its transmission queue".into(),
            Wait::QueueFree => {
                "the transmission queue (a sendm copy or another context's message)".into()
            }
            Wait::Send(id, SendEvent::Waits) => format!("the send of message id {id} to complete"),
            Wait::Send(id, _) => format!("the send entry of message id {id} to be removed (rms)"),
            Wait::Receive(id, ReceiveEvent::Waitr) => {
                format!("the receive of message id {id} to complete")
            }
            Wait::Receive(id, _) => format!(
                "the receive entry of message id {id} to be removed (rmr) or to receive an RTS"
            ),
            Wait::SendRoom => "a free send-table entry".into(),
            Wait::ReceiveRoom => "a free receive-table entry".into(),
        })
    }

    /// Suspends context `c` until `wait` can be met.
    pub(crate) fn suspend(&mut self, c: usize, wait: Wait) -> NiuOutcome {
        let cause = match wait {
            Wait::QueueRoom => SuspendCause::QueueFull,
            Wait::QueueFree => SuspendCause::NiuBusy,
            Wait::Send(_, SendEvent::Waits) => SuspendCause::WaitSend,
            Wait::Receive(_, ReceiveEvent::Waitr) => SuspendCause::WaitReceive,
            Wait::Send(..) | Wait::Receive(..) => SuspendCause::IdInUse,
            Wait::SendRoom | Wait::ReceiveRoom => SuspendCause::TableFull,
        };
        self.waiting.retain(|(x, _)| *x != c);
        self.waiting.push((c, wait));
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
        }
    }

    /// Wakes (from cycle `at`) every waiting context that can proceed.
    pub(crate) fn wake_ready(&mut self, at: u64) {
        if self.waiting.is_empty() {
            return;
        }
        let mut k = 0;
        while k < self.waiting.len() {
            let (c, w) = self.waiting[k];
            if self.can_proceed(c, w) {
                self.waiting.remove(k);
                if let Wait::Receive(id, ReceiveEvent::Waitr) = w {
                    self.saw_complete(id, at);
                }
                self.effects.push(Effect {
                    at,
                    what: TileEffect::Wake { context: c },
                });
                self.event(at - 1, NiuEventKind::Woken { context: c });
            } else {
                k += 1;
            }
        }
    }
}
