//! The send-and-receive protocol's state machines (thesis chapter 5), in
//! one file to read next to the thesis: the send table's entries (Table
//! 5.1, section 5.6), the receive table's entries (Table 5.2, sections 5.6,
//! 5.6.1 and 5.7) and the data transmission queues (5.6.2).
//!
//! Each machine is a state type with the thesis's names (the table states
//! are `isa-spec`'s, as `ldss`/`ldsr` encode them), an event type, and one
//! transition function from (state, event) to what happens. The tables and
//! the queue states change only through these functions ([`SendTable::apply`],
//! [`ReceiveTable::apply`], [`QueueState::on`]): there is no way to set a
//! state directly, so a transition the thesis does not have cannot be
//! written. The NIU (`issue.rs`, `receive.rs`, `transmit.rs`) decides when
//! an event happens and carries out what the transition says: suspend the
//! context, leave the message in the network, answer with a CTS, store the
//! data, fault.
//!
//! The tables are fully associative, keyed by 32-bit message id, of a
//! configured capacity; an id with no entry reads as Empty.

pub use isa_spec::msg::{ReceiveState, SendState};

// ---------------------------------------------------------------------------
// Send entries (Table 5.1)
// ---------------------------------------------------------------------------

/// What can happen to a send entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SendEvent {
    /// `sendh node, ready|rdv, id`: a send of the id starts (5.6).
    Sendh,
    /// The message's head and tag reached the front of its transmission
    /// queue: the RTS goes out (Rendezvous) or the message is ready (Ready).
    HeadAtFront,
    /// The message's tail left the NIU.
    TailSent,
    /// `waits id`: the thread waits for the send to complete.
    Waits,
    /// `rms id`: the thread removes the entry.
    Rms,
}

impl SendEvent {
    /// Every event.
    pub const ALL: [SendEvent; 5] = [
        SendEvent::Sendh,
        SendEvent::HeadAtFront,
        SendEvent::TailSent,
        SendEvent::Waits,
        SendEvent::Rms,
    ];
}

/// What a send event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SendStep {
    /// The entry moves to the state (to Empty: it is removed; from Empty:
    /// it is created, if the table has room).
    To(SendState),
    /// Nothing changes; the instruction completes.
    Stay,
    /// The event waits until the entry changes: the context suspends (or
    /// polls, `niu.wait`).
    Wait,
    /// An error: the instruction faults.
    Refuse,
}

/// Table 5.1's transitions: what `event` does to a send entry in `state`.
pub fn send_transition(state: SendState, event: SendEvent) -> SendStep {
    use SendEvent::*;
    use SendState::*;
    match (state, event) {
        // A send takes a free id; a busy one suspends the sender until the
        // entry is removed (5.6: "otherwise the send operation is rejected").
        (Empty, Sendh) => SendStep::To(InUse),
        (_, Sendh) => SendStep::Wait,
        // The queue's own events: the head at the front, the tail out.
        (InUse, HeadAtFront) => SendStep::To(InProgress),
        (InProgress, TailSent) => SendStep::To(Complete),
        // They cannot find another state: the entry was made by this
        // message's sendh, only rms removes it and only once Complete, and
        // its id is not used again before that.
        (_, HeadAtFront | TailSent) => SendStep::Stay,
        (Complete, Waits) => SendStep::Stay,
        (Empty, Waits) => SendStep::Refuse,
        (InUse | InProgress, Waits) => SendStep::Wait,
        // Removing a send that has not left would lose it; removing nothing
        // is a wrong id or a second removal (decision, docs/network.md).
        (Complete, Rms) => SendStep::To(Empty),
        (Empty | InUse | InProgress, Rms) => SendStep::Refuse,
    }
}

/// A send-table entry: the id and its state (never Empty while present).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendEntry {
    /// Message id.
    pub id: u32,
    /// State.
    pub state: SendState,
}

/// An event would create an entry in a full table: it waits for room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableFull;

/// The send table (Figure 5.3).
#[derive(Clone, Debug)]
pub struct SendTable {
    entries: Vec<SendEntry>,
    capacity: usize,
}

impl SendTable {
    /// An empty table of `capacity` entries.
    pub fn new(capacity: usize) -> SendTable {
        SendTable {
            entries: Vec::with_capacity(capacity),
            capacity,
        }
    }

    /// The state of `id` (Empty when absent).
    pub fn state(&self, id: u32) -> SendState {
        self.entries
            .iter()
            .find(|e| e.id == id)
            .map_or(SendState::Empty, |e| e.state)
    }

    /// What `event` would do to `id`'s entry, without doing it.
    pub fn step(&self, id: u32, event: SendEvent) -> Result<SendStep, TableFull> {
        let state = self.state(id);
        let step = send_transition(state, event);
        if state == SendState::Empty && matches!(step, SendStep::To(_)) && self.is_full() {
            return Err(TableFull);
        }
        Ok(step)
    }

    /// Applies `event` to `id`'s entry and says what it did.
    pub fn apply(&mut self, id: u32, event: SendEvent) -> Result<SendStep, TableFull> {
        let step = self.step(id, event)?;
        debug_assert!(
            !matches!(event, SendEvent::HeadAtFront | SendEvent::TailSent)
                || matches!(step, SendStep::To(_)),
            "send {event:?} of id {id} found it {:?}",
            self.state(id)
        );
        if let SendStep::To(to) = step {
            match self.entries.iter().position(|e| e.id == id) {
                None => self.entries.push(SendEntry { id, state: to }),
                Some(k) if to == SendState::Empty => {
                    self.entries.remove(k);
                }
                Some(k) => self.entries[k].state = to,
            }
        }
        Ok(step)
    }

    /// Whether every entry is taken.
    pub fn is_full(&self) -> bool {
        self.entries.len() >= self.capacity
    }

    /// Entries present.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Entries it can hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Whether no entry is present.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry.
    pub fn entries(&self) -> &[SendEntry] {
        &self.entries
    }
}

// ---------------------------------------------------------------------------
// Receive entries (Table 5.2)
// ---------------------------------------------------------------------------

/// What can happen to a receive entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReceiveEvent {
    /// `str id, address, stride`: a thread posts a receive (5.6).
    Str {
        /// Buffer address (word-aligned).
        addr: u32,
        /// Stride in words.
        stride: u32,
    },
    /// An RTS for the id arrives from `node`'s context `context` (5.6).
    Rts {
        /// The sending node.
        node: u32,
        /// The sending context.
        context: u8,
    },
    /// A Ready-mode data message's tag names the id (5.7).
    ReadyData,
    /// A Rendezvous data message's tag names the id (sent after our CTS).
    RendezvousData,
    /// The data message's last word is stored.
    Stored,
    /// `waitr id`: the thread waits for the receive to complete.
    Waitr,
    /// `rmr id`: the thread removes the entry.
    Rmr,
}

impl ReceiveEvent {
    /// Every event (with placeholder data).
    pub const ALL: [ReceiveEvent; 7] = [
        ReceiveEvent::Str { addr: 0, stride: 0 },
        ReceiveEvent::Rts {
            node: 0,
            context: 0,
        },
        ReceiveEvent::ReadyData,
        ReceiveEvent::RendezvousData,
        ReceiveEvent::Stored,
        ReceiveEvent::Waitr,
        ReceiveEvent::Rmr,
    ];
}

/// What a receive event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReceiveStep {
    /// The entry moves to the state (to Empty: it is removed; from Empty:
    /// it is created, if the table has room). Data goes ahead into the
    /// entry's buffer.
    To(ReceiveState),
    /// The entry moves to the state and the NIU answers the RTS with a CTS
    /// (to the RTS's sender, recorded in the entry or in the event).
    Answer(ReceiveState),
    /// Nothing changes; the event goes ahead (data into the buffer, an
    /// instruction completes).
    Stay,
    /// The event waits until the entry changes: the context suspends (or
    /// polls), the message stays in the network (5.6.1, 5.7).
    Wait,
    /// An error: the instruction faults.
    Refuse,
    /// The data message is discarded: no receive is posted for it (5.7).
    Discard,
}

/// Table 5.2's transitions: what `event` does to a receive entry in `state`.
pub fn receive_transition(state: ReceiveState, event: ReceiveEvent) -> ReceiveStep {
    use ReceiveEvent::*;
    use ReceiveState::*;
    match (state, event) {
        // A receive is posted on a free id, or accepts the RTS that came
        // first (answered with a CTS); otherwise the thread suspends (5.6).
        (Empty, Str { .. }) => ReceiveStep::To(InUse),
        (RtsReceived, Str { .. }) => ReceiveStep::Answer(InProgress),
        (InUse | InProgress | Complete, Str { .. }) => ReceiveStep::Wait,
        // An RTS records its sender, or is answered at once when the
        // receive is posted; while another transfer of the id is under way
        // or not removed it waits in the network (5.6.1).
        (Empty, Rts { .. }) => ReceiveStep::To(RtsReceived),
        (InUse, Rts { .. }) => ReceiveStep::Answer(InProgress),
        (InProgress | RtsReceived | Complete, Rts { .. }) => ReceiveStep::Wait,
        // Ready data is stored into a posted receive, waits behind a
        // transfer in progress, and is discarded without a receive (5.7).
        (InUse, ReadyData) => ReceiveStep::To(InProgress),
        (InProgress, ReadyData) => ReceiveStep::Wait,
        (Empty | RtsReceived | Complete, ReadyData) => ReceiveStep::Discard,
        // Rendezvous data follows our CTS, which made the entry In Progress.
        (InProgress, RendezvousData) => ReceiveStep::Stay,
        (Empty | InUse | RtsReceived | Complete, RendezvousData) => ReceiveStep::Discard,
        (InProgress, Stored) => ReceiveStep::To(Complete),
        // Data is only stored into an entry In Progress, which stays so
        // until its last word (rmr refuses it).
        (Empty | InUse | RtsReceived | Complete, Stored) => ReceiveStep::Stay,
        (Complete, Waitr) => ReceiveStep::Stay,
        (Empty, Waitr) => ReceiveStep::Refuse,
        (InUse | InProgress | RtsReceived, Waitr) => ReceiveStep::Wait,
        // rmr removes a completed receive or cancels a posted one; removing
        // a transfer under way or an RTS's record would lose it, removing
        // nothing is a wrong id or a second removal (decision).
        (InUse | Complete, Rmr) => ReceiveStep::To(Empty),
        (Empty | InProgress | RtsReceived, Rmr) => ReceiveStep::Refuse,
    }
}

/// A receive-table entry (Figure 5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiveEntry {
    /// Message id.
    pub id: u32,
    /// State (never Empty while present).
    pub state: ReceiveState,
    /// Buffer address (word-aligned), once a receive is posted.
    pub addr: u32,
    /// Stride in words.
    pub stride: u32,
    /// RTS Received: the requesting node.
    pub r_node: u32,
    /// RTS Received: the requesting context.
    pub r_context: u8,
}

/// The receive table.
#[derive(Clone, Debug)]
pub struct ReceiveTable {
    entries: Vec<ReceiveEntry>,
    capacity: usize,
}

impl ReceiveTable {
    /// An empty table of `capacity` entries.
    pub fn new(capacity: usize) -> ReceiveTable {
        ReceiveTable {
            entries: Vec::with_capacity(capacity),
            capacity,
        }
    }

    /// The entry of `id`.
    pub fn get(&self, id: u32) -> Option<&ReceiveEntry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// The state of `id` (Empty when absent).
    pub fn state(&self, id: u32) -> ReceiveState {
        self.get(id).map_or(ReceiveState::Empty, |e| e.state)
    }

    /// What `event` would do to `id`'s entry, without doing it.
    pub fn step(&self, id: u32, event: ReceiveEvent) -> Result<ReceiveStep, TableFull> {
        let state = self.state(id);
        let step = receive_transition(state, event);
        if state == ReceiveState::Empty
            && matches!(step, ReceiveStep::To(_) | ReceiveStep::Answer(_))
            && self.is_full()
        {
            return Err(TableFull);
        }
        Ok(step)
    }

    /// Applies `event` to `id`'s entry and says what it did, with the
    /// entry as it is after the event (as it was, when removed; None when
    /// there is none). A receive posted stores its buffer, an RTS recorded
    /// its sender.
    pub fn apply(
        &mut self,
        id: u32,
        event: ReceiveEvent,
    ) -> Result<(ReceiveStep, Option<ReceiveEntry>), TableFull> {
        let step = self.step(id, event)?;
        debug_assert!(
            event != ReceiveEvent::Stored || matches!(step, ReceiveStep::To(_)),
            "data stored for id {id} found it {:?}",
            self.state(id)
        );
        let k = self.entries.iter().position(|e| e.id == id);
        let to = match step {
            ReceiveStep::To(to) | ReceiveStep::Answer(to) => to,
            _ => return Ok((step, k.map(|k| self.entries[k]))),
        };
        let k = match k {
            Some(k) if to == ReceiveState::Empty => {
                return Ok((step, Some(self.entries.remove(k))));
            }
            Some(k) => k,
            None => {
                self.entries.push(ReceiveEntry {
                    id,
                    state: to,
                    addr: 0,
                    stride: 0,
                    r_node: 0,
                    r_context: 0,
                });
                self.entries.len() - 1
            }
        };
        let e = &mut self.entries[k];
        e.state = to;
        match event {
            ReceiveEvent::Str { addr, stride } => (e.addr, e.stride) = (addr, stride),
            ReceiveEvent::Rts { node, context } if to == ReceiveState::RtsReceived => {
                (e.r_node, e.r_context) = (node, context)
            }
            _ => {}
        }
        Ok((step, Some(*e)))
    }

    /// Whether every entry is taken.
    pub fn is_full(&self) -> bool {
        self.entries.len() >= self.capacity
    }

    /// Entries present.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Entries it can hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Whether no entry is present.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry.
    pub fn entries(&self) -> &[ReceiveEntry] {
        &self.entries
    }
}

// ---------------------------------------------------------------------------
// Data transmission queues (5.6.2, modified NIU)
// ---------------------------------------------------------------------------

/// A data transmission queue's state: "Each queue may either be ready,
/// waiting, or empty" (5.6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueueState {
    /// No head at its front yet (or not looked at yet).
    Empty,
    /// Its RTS for message `id` went out; it waits for the CTS.
    Waiting(u32),
    /// On the waiting list for the injection channel, or holding it for
    /// one message.
    Ready,
}

/// What can happen to a transmission queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueueEvent {
    /// A head reached its front: a Rendezvous data message's (its RTS goes
    /// out for message `Some(id)`), or another (`None`: ready at once).
    Head(Option<u32>),
    /// A CTS arrives for message `id`.
    Cts(u32),
    /// The tail of the message holding the channel was injected.
    TailSent,
}

/// What a queue event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueueStep {
    /// The queue moves to the state (to Ready: it joins the waiting list
    /// for the injection channel).
    To(QueueState),
    /// A CTS the queue does not wait for: a fault of the receiving NIU.
    Refuse,
}

impl QueueState {
    /// 5.6.2's transitions: what `event` does to a queue in this state.
    pub fn transition(self, event: QueueEvent) -> QueueStep {
        use QueueEvent::*;
        use QueueState::*;
        match (self, event) {
            (Empty, Head(Some(id))) => QueueStep::To(Waiting(id)),
            (Empty, Head(None)) => QueueStep::To(Ready),
            (Waiting(id), Cts(c)) if id == c => QueueStep::To(Ready),
            (_, Cts(_)) => QueueStep::Refuse,
            (Ready, TailSent) => QueueStep::To(Empty),
            // A queue's heads are looked at only while it is empty, and
            // only the queue holding the channel sends a tail.
            (Waiting(_) | Ready, Head(_)) | (Empty | Waiting(_), TailSent) => QueueStep::To(self),
        }
    }

    /// Applies `event` and says what it did.
    pub fn on(&mut self, event: QueueEvent) -> QueueStep {
        let step = self.transition(event);
        debug_assert!(
            matches!(event, QueueEvent::Cts(_)) || step != QueueStep::To(*self),
            "queue {self:?} got {event:?}"
        );
        if let QueueStep::To(s) = step {
            *self = s;
        }
        step
    }
}

#[cfg(test)]
mod tests;
