//! The tiles' side of the time model: each tile's horizon (how far it may
//! run for certain), optimistic runs beyond it from a checkpoint, rollbacks
//! and confirmations, and the survey of every tile after a round.

use super::Machine;

use crate::network::Timing;
use rayon::prelude::*;

use crate::tile::{Tile, TileState};
use crate::trace::TraceFilter;

/// What [`Machine::survey`] found.
pub(super) struct Survey {
    /// The tile with the earliest halt.
    pub(super) halt: Option<usize>,
    /// The earliest clock of a runnable or parked tile.
    pub(super) running_min: u64,
    /// The earliest checkpoint of an unconfirmed optimistic run.
    pub(super) confirmed: u64,
    /// Whether no tile has a thread.
    pub(super) all_finished: bool,
    /// Whether output, trace records or events wait to be written.
    pub(super) output: bool,
}

/// Counts of what the synchronization did, for tuning it
/// (`SCMP_DEBUG_TIME=1` prints them at the end of a run).
#[derive(Clone, Debug, Default)]
pub(super) struct SyncCounters {
    /// Rounds whose tiles ran on the host threads.
    pub(super) parallel_rounds: u64,
    /// Tile runs of rounds, and the tile-cycles they advanced.
    pub(super) round_runs: u64,
    pub(super) round_cycles: u64,
    /// Runnable tiles summed over the rounds.
    pub(super) runnable: u64,
    /// Runs of tiles the network side let go on, and their tile-cycles.
    pub(super) inline_runs: u64,
    pub(super) inline_cycles: u64,
    /// Messaging instructions taken, NIU cycles simulated.
    pub(super) taken: u64,
    pub(super) niu_cycles: u64,
    /// NIU cycles that moved no flit and made no effect.
    pub(super) niu_idle_cycles: u64,
    /// Network-side cycles simulated, and jumps over idle ones.
    pub(super) net_cycles: u64,
    pub(super) net_jumps: u64,
}

/// The two smallest promises ([`Machine::promise`]) over the tiles, and
/// the tile with the smallest (the first in tile order among equals), so
/// that each tile sees the others'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Promises {
    first: u64,
    second: u64,
    first_tile: usize,
}

impl Promises {
    const NONE: Promises = Promises {
        first: u64::MAX,
        second: u64::MAX,
        first_tile: usize::MAX,
    };

    /// Takes tile `i`'s promise `p` in (tiles in order).
    #[inline]
    fn note(&mut self, i: usize, p: u64) {
        if p < self.first {
            self.second = self.first;
            self.first = p;
            self.first_tile = i;
        } else if p < self.second {
            self.second = p;
        }
    }
}

/// What one pass over the tiles works out for the next, where nothing can
/// change the tiles in between (fewer passes over every tile per round):
/// the survey the next round's promises, the round's plan pass the
/// network side's [`Machine::runnable_limit`]. Each is taken by the pass
/// it is for (and checked against a fresh one in debug builds);
/// [`Machine::tiles_mut`] and every call of [`Machine::run_until`] (the
/// tiles may have changed since the last returned) drop them.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Carried {
    pub(super) promises: Option<Promises>,
    pub(super) runnable_limit: Option<u64>,
}

/// The smallest optimistic window.
pub(super) const MIN_WINDOW: u64 = 16;

/// What one tile may run in a round: up to `certain` (0: nothing) for
/// certain, then optimistically from a checkpoint up to `optimistic` (0:
/// nothing).
#[derive(Clone, Copy, Debug)]
pub(super) struct TilePlan {
    tile: usize,
    certain: u64,
    optimistic: u64,
}

impl TilePlan {
    /// Runs the tile as planned (it touches nothing but the tile).
    #[inline]
    fn run(&self, tile: &mut Tile, filter: Option<&TraceFilter>) {
        if tile.now() < self.certain {
            run_until(tile, self.certain, filter);
        }
        if tile.state() != TileState::Runnable || tile.now() >= self.optimistic {
            return;
        }
        if tile.checkpoint_cycle().is_none() {
            tile.checkpoint();
        }
        run_until(tile, self.optimistic, filter);
    }
}

/// Runs `tile` up to the instructions issuing before `limit`, tracing
/// them if `filter` wants them.
pub(super) fn run_until(tile: &mut Tile, limit: u64, filter: Option<&TraceFilter>) {
    match filter {
        Some(f) if f.wants_tile_instructions(tile.id) => tile.run_until::<true>(limit, f),
        _ => tile.run_until::<false>(limit, &TraceFilter::ALL),
    }
}

impl Machine {
    /// The fewest cycles from a messaging instruction issued at cycle `p`
    /// on one tile to the first cycle whose instructions another tile's
    /// NIU may depend on, from the router pipeline's offsets: the head is
    /// enqueued at `p`, injected at `p + 1` at the earliest and in its
    /// router's buffer `inject` cycles later, then takes two hops of the
    /// pipeline (its router's to a neighbour's buffer, and that router's
    /// to the ejection), at `e = p + 1 + inject + 2 hop`. There the NIU may
    /// look at its tile as of `e` (a thread message's head: is a context
    /// free?), so that tile may issue up to `e`, no further: `2 + inject +
    /// 2 hop` cycles after `p`. (The first effect on the tile, a DMA store
    /// of the first data word or a thread start, comes two flits later
    /// still and is seen the cycle after; the look at the tile's state
    /// comes first.)
    pub(super) fn lookahead(t: &Timing) -> u64 {
        2 + t.inject + 2 * t.hop()
    }

    /// The same from an NIU's injection at cycle `q` to its own tile, for a
    /// message to itself: in through the local port and out again is one
    /// hop, not two (so a tile whose NIU has work may not run as far as the
    /// others): the head is ejected at `e = q + inject + hop`, and the tile
    /// may issue up to `e`.
    pub(super) fn self_lookahead(t: &Timing) -> u64 {
        t.inject + t.hop() + 1
    }

    /// The earliest cycle at which tile `i` could issue a messaging
    /// instruction (u64::MAX: not before something wakes it). A tile whose
    /// optimistic run is not confirmed may yet go back and take another
    /// course, from its checkpoint or the next cycle the network has not
    /// done, whichever is later.
    pub(super) fn promise(&self, i: usize) -> u64 {
        let t = &self.tiles[i];
        let own = match t.state() {
            TileState::Runnable | TileState::Parked => t.now(),
            _ => u64::MAX,
        };
        match t.checkpoint_cycle() {
            Some(c) => own.min(c.max(self.net_now + 1)),
            None => own,
        }
    }

    /// Every tile's promise, the two smallest.
    fn promises(&self) -> Promises {
        let mut p = Promises::NONE;
        for i in 0..self.tiles.len() {
            p.note(i, self.promise(i));
        }
        p
    }

    /// A tile's part in [`Machine::runnable_limit`].
    #[inline]
    fn limit_of(t: &Tile) -> u64 {
        match t.state() {
            TileState::Runnable => t.now(),
            TileState::Halted => t.halt().map_or(u64::MAX, |h| h.cycle()),
            _ => u64::MAX,
        }
    }

    /// Runs tile `i` up to the instructions issuing before `limit`.
    pub(super) fn run_tile(&mut self, i: usize, limit: u64) {
        run_until(
            &mut self.tiles[i],
            limit,
            self.trace.as_ref().map(|t| &t.filter),
        );
        self.sync_parked(i);
    }

    /// Takes tile `i` back to its checkpoint and runs it again up to the
    /// instructions issuing before `until` (something arrives for it then).
    pub(super) fn rollback_tile(&mut self, i: usize, until: u64) {
        let tile = &mut self.tiles[i];
        match self.trace.as_ref().map(|t| &t.filter) {
            Some(f) if f.wants_tile_instructions(tile.id) => tile.rollback::<true>(until, f),
            _ => tile.rollback::<false>(until, &TraceFilter::ALL),
        }
        self.rollbacks += 1;
        self.window[i] = (self.window[i] / 4).max(MIN_WINDOW);
        self.sync_parked(i);
    }

    /// Makes tile `i`'s past up to `until` certain before the network does
    /// something to it at `until`: an unconfirmed run that issued at or
    /// after `until` goes back; one that did not is confirmed.
    #[inline]
    pub(super) fn settle(&mut self, i: usize, until: u64) {
        // A certain run never passes what the network may do to the tile
        // (the horizons see to it).
        debug_assert!(
            self.tiles[i].checkpoint_cycle().is_some() || self.tiles[i].issued_before() <= until,
            "tile {i}: certain up to {}, the network acts at {until}",
            self.tiles[i].issued_before()
        );
        if self.tiles[i].checkpoint_cycle().is_none() {
            return;
        }
        if self.tiles[i].issued_before() > until {
            self.rollback_tile(i, until);
        } else {
            self.tiles[i].commit();
        }
    }

    /// Runs every runnable tile up to its horizon, then, where nothing is
    /// on its way to it, optimistically beyond (from a checkpoint). What
    /// each tile may do is decided first, from the state before the round
    /// (so no tile's run depends on another's, nor on the order they run
    /// in); then the tiles run, on the host threads when the round has
    /// enough work.
    pub(super) fn run_tiles(&mut self, max: u64) {
        let n = self.tiles.len();
        // The two smallest promises, so that each tile sees the others'
        // (from the last survey when nothing changed since).
        let Promises {
            first,
            second,
            first_tile,
        } = match self.carried.promises.take() {
            Some(p) => {
                debug_assert_eq!(p, self.promises(), "promises changed since the survey");
                p
            }
            None => self.promises(),
        };
        // The network side's limit from the tiles this round does not run
        // (the planned ones are added after their runs).
        let mut limit = u64::MAX;
        // A busy NIU may inject now; one that waits for a CTS only once the
        // CTS, in the network, arrives.
        let any_busy = self.niu_mask.iter().any(|&m| m != 0) || self.net.next_work().is_some();
        let l = self.lookahead;
        let global = if any_busy {
            (self.net_now + l).saturating_sub(1)
        } else {
            u64::MAX
        };
        let epoch_end = self.net_now.saturating_add(self.config.sim.epoch_cycles);
        let mut planned = std::mem::take(&mut self.planned);
        planned.clear();
        let mut work = 0u64;
        // The planned tiles' clocks before the round (for `round_cycles`).
        let mut before = 0u64;
        let mut runnable = 0u64;
        // (Slices of the tiles' length: no bounds checks in the loop.)
        let (tiles, niu_busy, windows) = (&self.tiles[..], &self.niu_busy[..n], &self.window[..n]);
        for (i, tile) in tiles.iter().enumerate() {
            if tile.state() != TileState::Runnable {
                limit = limit.min(Self::limit_of(tile));
                continue;
            }
            runnable += 1;
            let others = if i == first_tile { second } else { first };
            let mut h = others.saturating_add(l).min(global).min(epoch_end);
            let quiet = self.quiet(i);
            if self.lockstep || !quiet {
                h = h.min(self.net_now + 1);
            }
            if niu_busy[i] {
                // Its own NIU may inject a message to it now.
                h = h.min(self.net_now + self.self_lookahead);
            }
            let certain = h.min(max);
            // Optimistic: on, while nothing is known to be coming.
            let now = tile.now();
            let window = windows[i];
            let optimistic = if self.lockstep || !quiet {
                0
            } else if now >= certain && now >= self.net_now.saturating_add(window / 2) {
                // Ahead by more than half its window: not extended yet.
                // Extended every round, an optimistic run would follow the
                // network a few cycles at a time (a tile run per round for
                // each quiet tile: transitive-literal ran 56 of its 64 tiles
                // every round, 2.5 cycles each).
                0
            } else {
                self.net_now.saturating_add(window).min(max)
            };
            let certain = if tile.checkpoint_cycle().is_none() {
                certain
            } else {
                0
            };
            if now >= certain.max(optimistic) {
                limit = limit.min(now);
                continue;
            }
            work += certain.max(optimistic) - now;
            before += now;
            planned.push(TilePlan {
                tile: i,
                certain,
                optimistic,
            });
        }
        self.sync.runnable += runnable;
        let filter = self.trace.as_ref().map(|t| &t.filter);
        self.sync.round_runs += planned.len() as u64;
        match &self.pool {
            Some(pool) if planned.len() > 1 && work >= self.config.sim.host_parallel_cycles => {
                self.sync.parallel_rounds += 1;
                // Each plan names a different tile: hand out the tiles.
                let mut slots: Vec<Option<&mut Tile>> = self.tiles.iter_mut().map(Some).collect();
                let jobs: Vec<(&mut Tile, &TilePlan)> = planned
                    .iter()
                    .map(|p| (slots[p.tile].take().expect("one plan per tile"), p))
                    .collect();
                pool.install(|| {
                    jobs.into_par_iter()
                        .with_max_len(1)
                        .for_each(|(tile, plan)| plan.run(tile, filter));
                });
            }
            _ => {
                for p in &planned {
                    p.run(&mut self.tiles[p.tile], filter);
                }
            }
        }
        let mut after = 0u64;
        for p in &planned {
            self.sync_parked(p.tile);
            let tile = &self.tiles[p.tile];
            after += tile.now();
            limit = limit.min(Self::limit_of(tile));
        }
        self.planned = planned;
        self.sync.round_cycles += after - before;
        self.carried.runnable_limit = Some(limit);
    }

    /// One pass over the tiles after a round: confirms the optimistic runs
    /// the network has caught up with, and gathers what the end of the round
    /// needs to know.
    pub(super) fn survey(&mut self) -> Survey {
        let mut s = Survey {
            halt: None,
            running_min: u64::MAX,
            confirmed: u64::MAX,
            all_finished: true,
            output: !self.events.is_empty(),
        };
        let mut halt_cycle = u64::MAX;
        // The next round's promises (nothing changes the tiles before it).
        let mut promises = Promises::NONE;
        for i in 0..self.tiles.len() {
            let t = &mut self.tiles[i];
            if let Some(c) = t.checkpoint_cycle() {
                if t.issued_before() <= self.net_now + 1 {
                    t.commit();
                    self.window[i] = (self.window[i] * 2).min(self.config.sim.epoch_cycles);
                } else {
                    s.confirmed = s.confirmed.min(c);
                }
            }
            match t.state() {
                TileState::Runnable | TileState::Parked => {
                    s.running_min = s.running_min.min(t.now());
                }
                TileState::Halted => {
                    let cycle = t.halt().expect("a halted tile has its halt").cycle();
                    if cycle < halt_cycle {
                        halt_cycle = cycle;
                        s.halt = Some(i);
                    }
                }
                TileState::Idle | TileState::Finished => {}
            }
            s.all_finished &= t.is_finished();
            s.output |= !t.output.is_empty() || !t.trace.is_empty();
            promises.note(i, self.promise(i));
        }
        self.carried.promises = Some(promises);
        s
    }

    /// The first cycle the network side may not simulate yet because of a
    /// tile: a runnable tile's clock, or the cycle a halted tile ends the
    /// run at (nothing at or after a halt is part of the run: a network
    /// that ran on past it would start threads and store data on tiles
    /// after the run's end, and count their flits).
    pub(super) fn runnable_limit(&self) -> u64 {
        self.tiles
            .iter()
            .map(Self::limit_of)
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The earliest clock of a tile that can still issue.
    pub(super) fn running_min(&self) -> u64 {
        self.tiles
            .iter()
            .filter(|t| matches!(t.state(), TileState::Runnable | TileState::Parked))
            .map(|t| t.now())
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The first cycle not certain on every tile and the network.
    pub(super) fn committed(&self) -> u64 {
        let confirmed = self
            .tiles
            .iter()
            .filter_map(|t| t.checkpoint_cycle())
            .min()
            .unwrap_or(u64::MAX);
        self.running_min()
            .min(self.net_now)
            .min(confirmed)
            .min(self.stall_bound())
    }

    /// While flits are held in the network: the first cycle at which the
    /// run may be found spinning (no flit has moved for
    /// `network.stall_cycles` cycles), before which output and trace lines
    /// may be written; u64::MAX otherwise.
    pub(super) fn stall_bound(&self) -> u64 {
        if self.net.in_flight() == 0 {
            return u64::MAX;
        }
        self.net
            .last_move()
            .saturating_add(self.config.network.stall_cycles)
            .saturating_add(1)
    }
}
