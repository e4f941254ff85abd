//! The livelock watch: a run whose threads only poll state that nothing
//! will change (a gather polling with `ldsr` for messages that tiles never
//! booted would have sent) ends with a report instead of running to the
//! cycle limit, and a run that computes is never stopped.
//!
//! The rule (docs/network.md, "Livelock"). Every `sim.spin_check_cycles`
//! the watch looks at the machine while the network holds nothing (no
//! flit or credit under way) and every NIU is idle (`Niu::idle_state`).
//! Per tile it takes a key: everything the tile's future depends on but
//! its memory and its clock (`Tile::spin_key`, the NIU's idle state),
//! including counts that only grow (flits sent, messages taken in, threads
//! started, host services and clock reads). A tile whose key comes back at
//! a later cycle of its clock has its memory digested (SipHash-1-3, 128
//! bits); when the key comes back again with the same digest, the tile's
//! whole state at two cycles of its clock is the same, with nothing sent,
//! taken in, printed or timed in between. A tile cut off from the network
//! is deterministic and its future does not depend on the clock's value
//! (no clock was read): from the later cycle it does again what it did
//! between the two, for ever, sending nothing. A tile whose contexts
//! cannot issue (all suspended, or none) with an idle NIU does nothing
//! until the network brings something. Once every tile is one or the
//! other, with nothing sent or taken in anywhere since the watch began
//! this stretch of looks, no tile will ever send, so nothing will ever
//! come, and the run is a livelock: it ends (as at a cycle limit, at the
//! furthest cycle reached) with `Stuck::Livelock`. Any flit, NIU work
//! or halt starts the stretch again. A compute phase changes registers or
//! memory, or reads the clock, so its keys do not come back with the
//! same memory; only a false match of the 128-bit memory digest could
//! stop it.

use std::collections::HashMap;

use siphasher::sip128::SipHasher13;

use super::Machine;

/// Bytes of keys the watch keeps before it forgets them (and starts
/// collecting again; proofs already made are kept).
const KEY_BYTES: usize = 64 << 20;

/// The watch's state.
#[derive(Default)]
pub(super) struct SpinWatch {
    /// Cycles between looks (0: off).
    every: u64,
    /// The next look is at the first round ending at or after this cycle.
    next: u64,
    /// The network's flits sent and messages taken in or discarded, at
    /// the first look of this stretch (None: no stretch).
    activity: Option<u64>,
    /// Per tile: keys seen in this stretch.
    seen: Vec<HashMap<Vec<u8>, Seen>>,
    /// Per tile: the two cycles of its clock at which its state was the
    /// same (proven to repeat).
    proven: Vec<Option<(u64, u64)>>,
    bytes: usize,
    /// The looks of this stretch are `every << backoff` cycles apart.
    backoff: u32,
}

/// The most the looks' interval doubles in a stretch.
const MAX_BACKOFF: u32 = 16;

/// A tile's key seen: when, and once the key came back, the NIU's idle
/// state and the memory's digest then.
struct Seen {
    cycle: u64,
    niu: Vec<u8>,
    memory: Option<u128>,
}

/// A livelock found: per tile that can issue, the two cycles of its clock
/// at which its state was the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeats {
    /// (tile, earlier cycle, later cycle).
    pub tiles: Vec<(u32, u64, u64)>,
}

impl SpinWatch {
    pub(super) fn new(every: u64, tiles: usize) -> SpinWatch {
        SpinWatch {
            every,
            next: every,
            seen: (0..tiles).map(|_| HashMap::new()).collect(),
            proven: vec![None; tiles],
            ..SpinWatch::default()
        }
    }

    /// Starts the stretch again.
    fn reset(&mut self) {
        self.activity = None;
        self.seen.iter_mut().for_each(HashMap::clear);
        self.proven.iter_mut().for_each(|p| *p = None);
        self.bytes = 0;
        self.backoff = 0;
    }

    /// Stops watching (a debugger may change the machine between looks).
    pub(super) fn disable(&mut self) {
        self.every = 0;
        self.reset();
    }
}

impl Machine {
    /// Looks at the machine if it is time: the repeats that prove a
    /// livelock, once every tile that can issue has one.
    pub(super) fn look_for_livelock(&mut self) -> Option<Repeats> {
        let every = self.spin.every;
        if every == 0 {
            return None;
        }
        let now = self.frontier();
        if now < self.spin.next {
            return None;
        }
        self.spin.next = now.saturating_add(every << self.spin.backoff);
        let quiet = self.net.in_flight() == 0 && self.net.next_work().is_none();
        let ok = quiet
            && self
                .tiles
                .iter()
                .zip(&self.nius)
                .all(|(t, n)| t.halt().is_none() && n.idle_state(None));
        let activity: u64 = self
            .nius
            .iter()
            .map(|n| {
                let c = &n.counters;
                c.flits_sent.iter().sum::<u64>()
                    + c.messages_received.iter().sum::<u64>()
                    + c.discarded
            })
            .sum();
        if !ok || self.spin.activity.is_some_and(|a| a != activity) {
            self.spin.reset();
            return None;
        }
        self.spin.activity = Some(activity);
        let mut issuing = 0;
        for i in 0..self.tiles.len() {
            let tile = &self.tiles[i];
            if !tile.can_issue() {
                // Frozen until the network brings something.
                continue;
            }
            issuing += 1;
            if self.spin.proven[i].is_some() {
                continue;
            }
            // The tile's own key first (cheap); the NIU's state and the
            // memory only when it comes back.
            let mut key = Vec::new();
            tile.spin_key(&mut key);
            let cycle = tile.now();
            let bytes = key.len();
            match self.spin.seen[i].get_mut(&key) {
                Some(seen) if seen.cycle < cycle => {
                    let mut niu = Vec::new();
                    self.nius[i].idle_state(Some(&mut niu));
                    let digest = memory_digest(tile);
                    if seen.niu == niu && seen.memory == Some(digest) {
                        self.spin.proven[i] = Some((seen.cycle, cycle));
                    } else {
                        if seen.memory.is_some() {
                            // The memory (or the NIU) changed under
                            // registers that came back (a counter kept in
                            // memory): digests cost, so look less often in
                            // this stretch.
                            self.spin.backoff = (self.spin.backoff + 1).min(MAX_BACKOFF);
                        }
                        self.spin.bytes += niu.len();
                        *seen = Seen {
                            cycle,
                            niu,
                            memory: Some(digest),
                        };
                    }
                }
                Some(_) => {}
                None => {
                    self.spin.bytes += bytes;
                    self.spin.seen[i].insert(
                        key,
                        Seen {
                            cycle,
                            niu: Vec::new(),
                            memory: None,
                        },
                    );
                }
            }
        }
        if self.spin.bytes > KEY_BYTES {
            self.spin.bytes = 0;
            self.spin.seen.iter_mut().for_each(HashMap::clear);
        }
        let all = self
            .tiles
            .iter()
            .zip(&self.spin.proven)
            .all(|(t, p)| !t.can_issue() || p.is_some());
        if issuing == 0 || !all {
            return None;
        }
        Some(Repeats {
            tiles: self
                .tiles
                .iter()
                .zip(&self.spin.proven)
                .filter(|(t, _)| t.can_issue())
                .filter_map(|(t, p)| p.map(|(a, b)| (t.id, a, b)))
                .collect(),
        })
    }

    /// Stops the livelock watch (a debugger changes the machine).
    pub fn disable_livelock_watch(&mut self) {
        self.spin.disable();
    }
}

/// A 128-bit digest of a tile's memory.
fn memory_digest(tile: &crate::tile::Tile) -> u128 {
    let bytes = tile
        .memory
        .slice(0, tile.memory.len() as u32)
        .expect("the whole memory");
    SipHasher13::new().hash(bytes).as_u128()
}
