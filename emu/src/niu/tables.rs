//! The modified NIU's send and receive tables (thesis 5.2, Figures 5.3 and
//! 5.4, Tables 5.1 and 5.2): fully associative, keyed by 32-bit message id,
//! of a configured capacity. An id with no entry reads as Empty.
//!
//! The tables only hold entries; which transitions happen when (an
//! instruction, an arriving message) is decided by the NIU
//! (`super::transmit`, `super::receive`), each transition through one of
//! the methods here, so that every state change passes one place.

use isa_spec::msg::{ReceiveState, SendState};

/// A send-table entry: the id and its state (never Empty while present).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendEntry {
    /// Message id.
    pub id: u32,
    /// State.
    pub state: SendState,
}

/// The send table.
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

    /// Empty -> In Use (`sendh` accepted). The caller checked that `id` is
    /// absent and the table not full.
    pub fn open(&mut self, id: u32) {
        debug_assert!(self.state(id) == SendState::Empty && !self.is_full());
        self.entries.push(SendEntry {
            id,
            state: SendState::InUse,
        });
    }

    /// Moves `id` to `state` (In Use -> In Progress -> Complete).
    pub fn set(&mut self, id: u32, state: SendState) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.id == id) {
            e.state = state;
        }
    }

    /// Removes `id`'s entry (any state -> Empty).
    pub fn remove(&mut self, id: u32) {
        self.entries.retain(|e| e.id != id);
    }

    /// Every entry.
    pub fn entries(&self) -> &[SendEntry] {
        &self.entries
    }
}

/// A receive-table entry.
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

    /// `str` on an absent id: Empty -> In Use with the buffer. The caller
    /// checked that the table has room.
    pub fn post(&mut self, id: u32, addr: u32, stride: u32) {
        debug_assert!(self.state(id) == ReceiveState::Empty && !self.is_full());
        self.entries.push(ReceiveEntry {
            id,
            state: ReceiveState::InUse,
            addr,
            stride,
            r_node: 0,
            r_context: 0,
        });
    }

    /// An RTS for an absent id: Empty -> RTS Received with its source. The
    /// caller checked that the table has room.
    pub fn record_rts(&mut self, id: u32, node: u32, context: u8) {
        debug_assert!(self.state(id) == ReceiveState::Empty && !self.is_full());
        self.entries.push(ReceiveEntry {
            id,
            state: ReceiveState::RtsReceived,
            addr: 0,
            stride: 0,
            r_node: node,
            r_context: context,
        });
    }

    /// `str` on an RTS Received entry: the buffer is stored and the entry
    /// goes In Progress (the NIU answers with a CTS).
    pub fn accept_rts(&mut self, id: u32, addr: u32, stride: u32) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.id == id) {
            debug_assert_eq!(e.state, ReceiveState::RtsReceived);
            e.addr = addr;
            e.stride = stride;
            e.state = ReceiveState::InProgress;
        }
    }

    /// Moves `id` to `state` (In Use -> In Progress -> Complete).
    pub fn set(&mut self, id: u32, state: ReceiveState) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.id == id) {
            e.state = state;
        }
    }

    /// Removes `id`'s entry.
    pub fn remove(&mut self, id: u32) {
        self.entries.retain(|e| e.id != id);
    }

    /// Every entry.
    pub fn entries(&self) -> &[ReceiveEntry] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_entries_go_in_use_in_progress_complete_empty() {
        let mut t = SendTable::new(2);
        assert_eq!(t.state(7), SendState::Empty);
        t.open(7);
        assert_eq!(t.state(7), SendState::InUse);
        t.set(7, SendState::InProgress);
        assert_eq!(t.state(7), SendState::InProgress);
        t.set(7, SendState::Complete);
        assert_eq!(t.state(7), SendState::Complete);
        t.remove(7);
        assert_eq!(t.state(7), SendState::Empty);
        assert!(t.is_empty());
    }

    #[test]
    fn tables_have_a_capacity() {
        let mut s = SendTable::new(2);
        s.open(1);
        assert!(!s.is_full());
        s.open(2);
        assert!(s.is_full());
        assert_eq!(s.state(3), SendState::Empty);
        let mut r = ReceiveTable::new(1);
        r.post(5, 0x100, 1);
        assert!(r.is_full());
        r.remove(5);
        assert!(!r.is_full());
    }

    #[test]
    fn receive_entries_through_ready_and_rendezvous() {
        let mut t = ReceiveTable::new(4);
        // str first: In Use, data In Progress, Complete.
        t.post(1, 0x200, 2);
        assert_eq!(t.state(1), ReceiveState::InUse);
        assert_eq!(
            (t.get(1).unwrap().addr, t.get(1).unwrap().stride),
            (0x200, 2)
        );
        t.set(1, ReceiveState::InProgress);
        t.set(1, ReceiveState::Complete);
        assert_eq!(t.state(1), ReceiveState::Complete);
        // RTS first: RTS Received with its source, then str: In Progress.
        t.record_rts(2, 9, 3);
        let e = *t.get(2).unwrap();
        assert_eq!(
            (e.state, e.r_node, e.r_context),
            (ReceiveState::RtsReceived, 9, 3)
        );
        t.accept_rts(2, 0x400, 1);
        let e = *t.get(2).unwrap();
        assert_eq!(
            (e.state, e.addr, e.stride),
            (ReceiveState::InProgress, 0x400, 1)
        );
        t.remove(1);
        t.remove(2);
        assert!(t.is_empty());
        assert_eq!(t.state(2), ReceiveState::Empty);
    }
}
