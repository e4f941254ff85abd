//! The network's side of the time model: one network cycle at a time,
//! the messaging instructions of that cycle to their NIUs, the routers,
//! the NIUs with work, and what the NIUs do to their tiles.

use super::Machine;

use crate::niu::{self, TileView};
use crate::tile::{Tile, TileState};
use crate::trace::TraceFilter;

/// The NIU's view of a tile (which has issued exactly the instructions
/// before the NIU's cycle plus one, see the module documentation).
struct View<'a>(&'a Tile);

impl TileView for View<'_> {
    fn read_word(&mut self, addr: u32) -> Result<u32, crate::fault::FaultCause> {
        self.0.memory.load_u32(addr)
    }

    fn context_free(&self, c: usize) -> bool {
        self.0.context_free(c)
    }

    fn swap_candidate(&self, c: usize) -> Option<(bool, u64)> {
        self.0.swap_candidate(c)
    }
}

impl Machine {
    /// Applies the effects NIU `i` produced.
    pub(super) fn apply_effects(&mut self, i: usize) {
        if !self.nius[i].has_effects() {
            return;
        }
        let tile = &mut self.tiles[i];
        for e in self.nius[i].drain_effects() {
            if matches!(e.what, niu::TileEffect::StartThread { .. }) && !self.raw_output {
                // Output of several threads: each line says whose it is
                // (lines written before stay as they were).
                self.prefix_from = self.prefix_from.min(e.at);
            }
            tile.apply(e.at, e.what);
        }
    }

    /// Simulates the network side from `net_now` up to the first cycle a
    /// tile could still act in (a runnable tile's clock, just after a
    /// parked tile's cycle). Tiles the network takes an instruction from or
    /// wakes run on at once, within the certain horizon, so that a burst of
    /// messaging instructions does not cost a round each.
    pub(super) fn advance_network(&mut self) {
        // The limit: runnable tiles' clocks (those that change on the way
        // lower `moved`), and parked tiles' cycles plus one (taken from the
        // parked set each cycle, as taking a parked instruction can move a
        // tile further).
        let mut moved = match self.carried.runnable_limit.take() {
            Some(limit) => {
                debug_assert_eq!(
                    limit,
                    self.runnable_limit(),
                    "tiles changed since the round"
                );
                limit
            }
            None => self.runnable_limit(),
        };
        let traced = self.trace.is_some();
        // At most an epoch per call, so that the global loop (the monitor's
        // Ctrl-C, the livelock watch, output) comes round even while every
        // tile polls with messaging instructions and runs inline here.
        // A replay (to the cycle a report was found at) needs neither, and
        // must reach that cycle as the run did.
        let bound = match self.replay {
            Some(_) => u64::MAX,
            None => self.net_now.saturating_add(self.config.sim.epoch_cycles),
        };
        loop {
            let parked_limit = self.parked.first().map_or(u64::MAX, |&(p, _)| p + 1);
            let limit = moved.min(parked_limit).min(self.max).min(bound);
            if self.net_now >= limit {
                break;
            }
            let c = self.net_now;
            let parked_next = self.parked.first().map_or(u64::MAX, |&(p, _)| p);
            let niu_work = self.niu_work();
            let net_work = self.net.next_work();
            if parked_next != c && !niu_work && net_work.is_none_or(|w| w > c) {
                // Nothing happens at c: jump to the next cycle that has work
                // or a runnable tile's clock; with neither, stay.
                let next = parked_next.min(net_work.unwrap_or(u64::MAX)).min(moved);
                if next == u64::MAX {
                    break;
                }
                self.net_now = next.min(limit);
                self.sync.net_jumps += 1;
                continue;
            }
            self.sync.net_cycles += 1;
            if let Some(tl) = &mut self.timeline {
                tl.network_cycle(c, &self.net, &mut self.nius);
            }
            // (a) Messaging instructions issued at c, in tile order.
            while let Some(&(p, i)) = self.parked.first()
                && p == c
            {
                self.parked.pop_first();
                self.parked_at[i] = None;
                self.sync.taken += 1;
                // Everything before c is known: the run that led here stands.
                self.tiles[i].commit();
                let t = &self.tiles[i];
                let park = t.parked().expect("a parked tile has its instruction");
                let inst = park.decoded.inst.expect("decoded");
                let outcome =
                    self.nius[i].issue(c, park.context, &inst, &t.contexts[park.context].x);
                if let Some(tl) = &mut self.timeline {
                    let ctx = &t.contexts[park.context];
                    tl.messaging(t.id, park.context, c, ctx.pc, &inst, &ctx.x, &outcome);
                }
                let tile = &mut self.tiles[i];
                match self.trace.as_ref().map(|t| &t.filter) {
                    Some(f) if f.wants_tile_instructions(tile.id) => {
                        tile.complete_messaging::<true>(outcome, f)
                    }
                    _ => tile.complete_messaging::<false>(outcome, &TraceFilter::ALL),
                }
                self.apply_effects(i);
                self.set_busy(i);
                self.last_progress = c;
                self.run_inline(i, c);
                moved = self.limit_after(i, c, moved);
            }
            // (b) The routers.
            self.net.step(c);
            // (c) The NIUs with work.
            for word in 0..self.niu_mask.len() {
                let mut bits = self.niu_mask[word] | self.net.terminals_with_flits()[word];
                while bits != 0 {
                    let i = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    // When the NIU looks at its tile as of c (free
                    // contexts, memory), or does something to it from c + 1,
                    // an optimistic run past c goes back first.
                    if self.nius[i].needs_tile_state(&self.net) {
                        self.settle(i, c + 1);
                    }
                    self.sync.niu_cycles += 1;
                    let flits_before = {
                        let k = self.net.counters();
                        k.flits_injected + k.flits_ejected
                    };
                    let mut view = View(&self.tiles[i]);
                    self.nius[i].cycle(c, &mut self.net, &mut view);
                    let k = self.net.counters();
                    if k.flits_injected + k.flits_ejected == flits_before
                        && !self.nius[i].has_effects()
                    {
                        self.sync.niu_idle_cycles += 1;
                    }
                    if self.nius[i].has_effects() {
                        self.settle(i, c + 1);
                    }
                    let before = self.tiles[i].state();
                    self.apply_effects(i);
                    self.set_busy(i);
                    if self.tiles[i].state() == TileState::Runnable && before != TileState::Runnable
                    {
                        self.last_progress = c;
                        self.run_inline(i, c);
                    }
                    moved = self.limit_after(i, c, moved);
                }
            }
            if traced {
                self.collect_events();
            }
            self.last_progress = self.last_progress.max(self.net.last_move());
            self.net_now = c + 1;
            if self.net.is_stalled(c)
                || c.saturating_sub(self.last_progress) > self.config.network.stall_cycles
            {
                break;
            }
        }
    }

    /// Whether an NIU has work: its own (`niu_mask`), or a flit in one of
    /// its ejection buffers, which it looks at every cycle (it may wait
    /// there for a context or a table entry, and the stall watch counts
    /// those cycles).
    pub(super) fn niu_work(&self) -> bool {
        self.niu_mask
            .iter()
            .zip(self.net.terminals_with_flits())
            .any(|(a, b)| a | b != 0)
    }

    /// The network's limit from tiles that are not parked, once tile `i`
    /// has changed in cycle `c` (parked tiles are in the parked set).
    pub(super) fn limit_after(&self, i: usize, c: u64, limit: u64) -> u64 {
        let t = &self.tiles[i];
        match t.state() {
            TileState::Runnable => limit.min(t.now()),
            TileState::Halted => limit.min(c + 1),
            _ => limit,
        }
    }

    /// Runs tile `i`, which the network side just let go on in its cycle
    /// `c`, within the horizon that is certain then: every other tile's
    /// promise is at least `c`, and anything its quiet NIU could bring
    /// needs the lookahead.
    pub(super) fn run_inline(&mut self, i: usize, c: u64) {
        if self.lockstep
            || self.tiles[i].state() != TileState::Runnable
            || self.tiles[i].checkpoint_cycle().is_some()
            || !self.quiet(i)
        {
            return;
        }
        let mut h = c + self.lookahead - 1;
        if self.niu_busy[i] {
            // Its own NIU may inject a message to it in this cycle.
            h = h.min(c + self.self_lookahead);
        }
        let h = h.min(self.max);
        if self.tiles[i].now() < h {
            self.sync.inline_runs += 1;
            let before = self.tiles[i].now();
            self.run_tile(i, h);
            self.sync.inline_cycles += self.tiles[i].now() - before;
        }
    }

    /// Whether nothing tile `i` would see is on its way: its NIU does not
    /// touch it, and no thread or data message is coming to it (RTS and CTS
    /// messages only change the NIU's tables and queues).
    pub(super) fn quiet(&self, i: usize) -> bool {
        let n = i as u32;
        debug_assert_eq!(
            self.niu_touches[i],
            self.niu_busy[i] && self.nius[i].touches_tile(),
            "NIU {i} changed since set_busy"
        );
        !self.niu_touches[i]
            && self.net.inbound_of_class(n, 0) == 0
            && self.net.inbound_of_class(n, 1) == 0
    }

    /// Records whether NIU `i` has work (and whether it needs cycles, and
    /// touches its tile), after anything the NIU did.
    pub(super) fn set_busy(&mut self, i: usize) {
        let status = self.nius[i].status();
        self.niu_busy[i] = status.busy;
        // Asked here, where the NIU was just worked on, rather than for
        // every runnable tile in every round (the scan of its receive
        // VCs and queues was a fifth of the global loop's own time).
        self.niu_touches[i] = status.touches;
        let (w, b) = (i / 64, i % 64);
        if status.needs_cycle {
            self.niu_mask[w] |= 1 << b;
        } else {
            self.niu_mask[w] &= !(1 << b);
        }
    }

    /// Keeps the set of parked tiles up to date with tile `i`.
    pub(super) fn sync_parked(&mut self, i: usize) {
        let now = (self.tiles[i].state() == TileState::Parked).then_some(self.tiles[i].now());
        if self.parked_at[i] != now {
            if let Some(p) = self.parked_at[i] {
                self.parked.remove(&(p, i));
            }
            if let Some(p) = now {
                self.parked.insert((p, i));
            }
            self.parked_at[i] = now;
        }
    }
}
