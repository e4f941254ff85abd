//! The NIU's state while nothing is under way in it, for the machine's
//! livelock watch (`machine/spin.rs`, docs/network.md, "Livelock"): what
//! its tile's messaging instructions can see or change, to compare.

use super::Niu;

impl Niu {
    /// While the NIU has nothing under way (nothing it could inject now or
    /// take in, no copy, no thread starting, no context reserved, no effect
    /// for its tile): appends to `out` (when given) everything of it that its
    /// tile's instructions can see or change (tables, open messages, queue
    /// states, waiting contexts), with the counts of flits it sent and
    /// messages it took in or discarded, and returns true. Otherwise
    /// returns false (and appends nothing).
    pub fn idle_state(&self, out: Option<&mut Vec<u8>>) -> bool {
        // A queue whose message waits for its CTS (and the queue's later
        // messages behind it) does nothing until a CTS comes through the
        // network, so it counts as idle, its contents part of the state:
        // a thread polling for a receive that a message stuck behind an
        // RTS would complete is a livelock the watch must see (`port`
        // queues, niu.full_queue, docs/network.md "Livelock").
        if self.needs_cycle()
            || self.rx.busy() != 0
            || !self.starting.is_empty()
            || self.releasing != 0
            || self.reserved != 0
            || !self.control.is_empty()
            || self.copier.is_some()
            || self.has_effects()
        {
            return false;
        }
        let Some(out) = out else {
            return true;
        };
        let c = &self.counters;
        let text = format!(
            "{:?}",
            (
                (&self.open, self.owner, &self.qstate, &self.current_type),
                (self.send.entries(), self.recv.entries(), &self.waiting),
                (self.changed, self.rx_next, &self.ready, &self.completed),
                (c.flits_sent, c.messages_received, c.discarded),
                (self.discards.len(), &self.cts_since, &self.queues),
            )
        );
        out.extend_from_slice(text.as_bytes());
        true
    }
}
