//! The mesh and the global loop: tiles, their NIUs, the network, and the
//! synchronization that keeps them exact (docs/network.md, "Time").
//!
//! Two sides. Tiles run on their own clocks, many cycles at a time, and
//! stop ("park") before every messaging instruction. The network side (the
//! routers and every tile's NIU) advances one cycle at a time while it has
//! work, and jumps over cycles where it has none. Within a network cycle
//! `c`: (a) the messaging instructions that issue at `c` go to their NIUs,
//! in tile order; (b) the network steps (deliveries, routers); (c) every
//! NIU with work takes in and sends out a flit. What an NIU does to its
//! tile (DMA stores, thread starts, wake-ups, faults) is seen by the tile's
//! instructions from cycle `c + 1`.
//!
//! The rule that keeps it exact: a tile only runs instructions that issue
//! before every cycle at which something from the network could first be
//! seen on it (its horizon), and the network only simulates cycles before
//! every tile's clock (a tile may still issue a messaging instruction at
//! its clock) or up to and including a parked tile's cycle. The horizon of
//! tile `i` is the earliest of: the next cycle, while its NIU has work or a
//! message is on its way to it; any other tile's clock plus the lookahead
//! (the fewest cycles from a messaging instruction on one tile to an effect
//! on another); the network's cycle plus the lookahead while any NIU or
//! link is busy; and `sim.epoch_cycles` after the network's cycle. Nothing
//! depends on how far tiles run in one go or in which order they are run:
//! a test runs every messaging program with several epoch lengths, router
//! visiting orders, and a lockstep mode, and requires identical traces.
//!
//! An `exit` at cycle c ends the run at c (output and trace records stamped
//! after c are dropped); a fault likewise. Tiles that ran past c (up to
//! their horizon) are accounted to c in the statistics.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;

use crate::config::{BootTiles, Config};
use crate::csr::Identity;
use crate::decode::DecodedText;
use crate::elf::{LoadError, Program};
use crate::fault::FaultReport;
use crate::host::{Console, NullConsole, OutputEvent, Prefixer};
use crate::labels::Labels;
use crate::memory::Memory;
use crate::network::{Network, StallReport, VisitOrder};
use crate::niu::{self, Niu, TileView};
use crate::stats::Stats;
use crate::tile::{Halt, Tile, TileParams, TileState};
use crate::timeline::{Recorder, TimelineOptions};
use crate::timing::CostTable;
use crate::trace::{TraceFilter, TraceRecord};

/// Where trace lines go.
pub enum TraceSink {
    /// Written as text lines.
    Writer(Box<dyn Write>),
    /// The last `n` records are kept (fault reports).
    Last(usize, VecDeque<TraceRecord>),
}

/// Tracing: what to record and where.
pub struct TraceOptions {
    /// Which records.
    pub filter: TraceFilter,
    /// Where.
    pub sink: TraceSink,
}

/// Options of a run beyond the machine configuration.
#[derive(Default)]
pub struct RunOptions {
    /// Tracing, when on.
    pub trace: Option<TraceOptions>,
    /// Do not prefix output lines with `[tT cC] ` (tile and context), which
    /// is done when more than one thread starts at boot.
    pub raw_output: bool,
    /// Lines of trace a fault report shows (0: none, no replay).
    pub fault_trace_lines: usize,
    /// Run tiles and network in lockstep, one cycle at a time (slow; the
    /// reference the synchronization is tested against).
    pub lockstep: bool,
    /// The order in which the network visits routers (results do not
    /// depend on it; tests vary it).
    pub visit_order: VisitOrder,
    /// A timeline of the run, written at its end.
    pub timeline: Option<TimelineOptions>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every thread ended and the network is empty (exit code 0).
    AllThreadsEnded,
    /// `exit` with a code.
    Exit(i32),
    /// A guest fault.
    Fault(FaultReport),
    /// The cycle limit was reached with threads still running.
    CycleLimit(u64),
    /// Nothing can move: every thread waits and the network is stuck.
    Deadlock(Box<DeadlockReport>),
}

/// A context that waits for something that will not happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedContext {
    /// Tile.
    pub tile: u32,
    /// Context.
    pub context: u32,
    /// Its pc (the instruction it waits to issue again, or issued last).
    pub pc: u32,
    /// The instruction at the pc, disassembled.
    pub instruction: String,
    /// What it waits for.
    pub waits_for: String,
}

/// The report of a deadlock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlockReport {
    /// Cycle at which it was found.
    pub cycle: u64,
    /// Every context that holds a thread.
    pub blocked: Vec<BlockedContext>,
    /// Every flit held in the network.
    pub network: StallReport,
}

impl std::fmt::Display for DeadlockReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "deadlock at cycle {}: no thread can run and the network cannot deliver",
            self.cycle
        )?;
        for b in &self.blocked {
            writeln!(
                f,
                "  tile {} context {} at pc {:#010x} ({}): waits for {}",
                b.tile, b.context, b.pc, b.instruction, b.waits_for
            )?;
        }
        if self.network.held.is_empty() && self.network.on_links == 0 {
            writeln!(f, "  the network holds no flit")
        } else {
            write!(f, "  {}", self.network)
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// How it ended.
    pub end: RunEnd,
    /// Statistics.
    pub stats: Stats,
}

/// What [`Machine::survey`] found.
struct Survey {
    /// The tile with the earliest halt.
    halt: Option<usize>,
    /// The earliest clock of a runnable or parked tile.
    running_min: u64,
    /// The earliest checkpoint of an unconfirmed optimistic run.
    confirmed: u64,
    /// Whether no tile has a thread.
    all_finished: bool,
    /// Whether output, trace records or events wait to be written.
    output: bool,
}

/// The smallest optimistic window.
const MIN_WINDOW: u64 = 16;

/// A network or NIU trace line, ordered with instruction records by cycle
/// and node.
struct EventLine {
    cycle: u64,
    node: u32,
    line: String,
}

/// A mesh of tiles with a program loaded.
pub struct Machine {
    config: Config,
    tiles: Vec<Tile>,
    nius: Vec<Niu>,
    /// Per tile: whether its NIU has work (kept up to date after every
    /// call), also as a bit per tile.
    niu_busy: Vec<bool>,
    niu_mask: Vec<u64>,
    /// Parked tiles by (cycle, tile), and each tile's entry.
    parked: std::collections::BTreeSet<(u64, usize)>,
    parked_at: Vec<Option<u64>>,
    /// The cycle limit of the run (u64::MAX: none).
    max: u64,
    net: Network,
    /// Cycles before this one are done on the network side.
    net_now: u64,
    /// Fewest cycles from a messaging instruction (or an NIU's injection,
    /// plus one) on one tile to an effect another tile sees.
    lookahead: u64,
    lockstep: bool,
    /// Per tile: how far beyond the network it may run optimistically
    /// (shrinks after a rollback, grows back as runs are confirmed).
    window: Vec<u64>,
    /// Optimistic runs taken back.
    rollbacks: u64,
    /// The last cycle at which anything happened (for deadlock detection).
    last_progress: u64,
    trace: Option<TraceOptions>,
    /// The program's code labels, which trace lines name targets by.
    labels: Labels,
    events: Vec<EventLine>,
    prefixer: Prefixer,
    raw_output: bool,
    /// Output from this cycle on is prefixed (a thread message started a
    /// thread then).
    prefix_from: u64,
    /// The timeline being recorded.
    timeline: Option<Recorder>,
}

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
}

impl Machine {
    /// Builds the mesh, loads `program` into every tile and boots threads.
    pub fn new(
        config: &Config,
        program: &Program,
        options: RunOptions,
    ) -> Result<Machine, LoadError> {
        let t = &config.tile;
        program.check_fits(t.memory_bytes, t.contexts as u64 * t.stack_bytes)?;
        let costs = Arc::new(CostTable::new(&config.timing));
        let text_range = program.text_range();
        let mut text_bytes = vec![0u8; (text_range.end - text_range.start) as usize];
        for s in program.segments.iter().filter(|s| s.executable) {
            let off = (s.addr - text_range.start) as usize;
            text_bytes[off..off + s.data.len()].copy_from_slice(&s.data);
        }
        let text = DecodedText::new(text_range.start, &text_bytes, &costs);
        let params = TileParams {
            quantum: config.scheduler.quantum,
            switch_cycles: config.scheduler.switch_cycles,
            memory_bytes: t.memory_bytes,
            stack_bytes: t.stack_bytes,
            contexts: t.contexts,
        };
        let (w, h) = (config.mesh.width, config.mesh.height);
        let design = config.niu.design;
        let mut net = Network::new(w, h, &config.network, niu::classes(design));
        net.set_visit_order(options.visit_order);
        let mut tiles = Vec::with_capacity((w * h) as usize);
        let mut nius = Vec::with_capacity((w * h) as usize);
        let mut booted_threads = 0;
        for id in 0..w * h {
            let mut memory = Memory::new(t.memory_bytes as usize);
            for s in &program.segments {
                memory.write_bytes(s.addr, &s.data);
            }
            memory.set_code_range(text.base, text.len_bytes());
            let identity = Identity {
                node: id,
                context: 0,
                width: w,
                height: h,
                contexts: t.contexts,
            };
            let mut tile = Tile::new(
                id,
                identity,
                memory,
                text.clone(),
                costs.clone(),
                params.clone(),
            );
            if options.timeline.is_some() {
                for ctx in &mut tile.contexts {
                    ctx.history = Some(Vec::new());
                }
            }
            let boots = match config.boot.tiles {
                BootTiles::First => id == 0,
                BootTiles::All => true,
            };
            if boots {
                for _ in 0..config.boot.threads {
                    tile.start_thread(program.entry, &[]);
                    booted_threads += 1;
                }
            }
            tiles.push(tile);
            let mut n = Niu::new(
                id,
                (w, h),
                t.contexts as usize,
                t.memory_bytes,
                net.vcs(),
                &config.niu,
            );
            if options.trace.as_ref().is_some_and(|o| o.filter.wants_niu()) {
                n.enable_trace();
            }
            if options.timeline.is_some() {
                n.enable_flows();
            }
            nius.push(n);
        }
        if options
            .trace
            .as_ref()
            .is_some_and(|o| o.filter.wants_network())
        {
            net.enable_trace();
        }
        let lookahead = Self::lookahead(config);
        Ok(Machine {
            config: config.clone(),
            labels: program.labels.clone(),
            niu_busy: vec![false; tiles.len()],
            niu_mask: vec![0; tiles.len().div_ceil(64)],
            parked: std::collections::BTreeSet::new(),
            parked_at: vec![None; tiles.len()],
            max: u64::MAX,
            window: vec![config.sim.epoch_cycles; tiles.len()],
            rollbacks: 0,
            tiles,
            nius,
            net,
            net_now: 0,
            lookahead,
            lockstep: options.lockstep,
            last_progress: 0,
            trace: options.trace,
            events: Vec::new(),
            // Prefix when more than one thread prints: from the start when
            // several boot, else from the first thread a message starts.
            prefixer: Prefixer::new(!options.raw_output && booted_threads > 1),
            raw_output: options.raw_output,
            prefix_from: u64::MAX,
            timeline: options.timeline.map(|o| Recorder::new(o, config)),
        })
    }

    /// The fewest cycles from a messaging instruction issued at cycle `p`
    /// on one tile to the first effect another tile can see: the head is
    /// enqueued at `p`, injected at `p + 1`, crosses the link into its
    /// router, at least one hop and the ejection; the first effect (a DMA
    /// store of the first data word, or a thread start) comes two flits
    /// later and is seen a cycle after that.
    fn lookahead(config: &Config) -> u64 {
        let n = &config.network;
        let per_hop = (n.routing_delay
            + n.vc_alloc_delay
            + n.sw_alloc_delay
            + n.st_final_delay
            + n.link_delay) as u64;
        1 + n.link_delay as u64 + 2 * per_hop + 2 + 1
    }

    /// The tiles.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The NIUs, by node.
    pub fn nius(&self) -> &[Niu] {
        &self.nius
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The earliest cycle at which tile `i` could issue a messaging
    /// instruction (u64::MAX: not before something wakes it). A tile whose
    /// optimistic run is not confirmed may yet go back and take another
    /// course, from its checkpoint or the next cycle the network has not
    /// done, whichever is later.
    fn promise(&self, i: usize) -> u64 {
        let t = &self.tiles[i];
        let own = match t.state() {
            TileState::Runnable | TileState::Parked => t.now,
            _ => u64::MAX,
        };
        match t.checkpoint_cycle() {
            Some(c) => own.min(c.max(self.net_now + 1)),
            None => own,
        }
    }

    /// Runs tile `i` up to the instructions issuing before `limit`.
    fn run_tile(&mut self, i: usize, limit: u64) {
        let tile = &mut self.tiles[i];
        match self.trace.as_ref().map(|t| &t.filter) {
            Some(f) if f.wants_tile_instructions(tile.id) => tile.run_until::<true>(limit, f),
            _ => tile.run_until::<false>(limit, &TraceFilter::default()),
        }
        self.sync_parked(i);
    }

    /// Takes tile `i` back to its checkpoint and runs it again up to the
    /// instructions issuing before `until` (something arrives for it then).
    fn rollback_tile(&mut self, i: usize, until: u64) {
        let tile = &mut self.tiles[i];
        match self.trace.as_ref().map(|t| &t.filter) {
            Some(f) if f.wants_tile_instructions(tile.id) => tile.rollback::<true>(until, f),
            _ => tile.rollback::<false>(until, &TraceFilter::default()),
        }
        self.rollbacks += 1;
        self.window[i] = (self.window[i] / 4).max(MIN_WINDOW);
        self.sync_parked(i);
    }

    /// Makes tile `i`'s past up to `until` certain before the network does
    /// something to it at `until`: an unconfirmed run that issued at or
    /// after `until` goes back; one that did not is confirmed.
    fn settle(&mut self, i: usize, until: u64) {
        if self.tiles[i].checkpoint_cycle().is_none() {
            return;
        }
        if self.tiles[i].issued_before > until {
            self.rollback_tile(i, until);
        } else {
            self.tiles[i].commit();
        }
    }

    /// Runs every runnable tile up to its horizon, then, where nothing is
    /// on its way to it, optimistically beyond (from a checkpoint).
    fn run_tiles(&mut self, max: u64) {
        let n = self.tiles.len();
        // The two smallest promises, so that each tile sees the others'.
        let (mut first, mut second, mut first_tile) = (u64::MAX, u64::MAX, usize::MAX);
        for i in 0..n {
            let p = self.promise(i);
            if p < first {
                second = first;
                first = p;
                first_tile = i;
            } else if p < second {
                second = p;
            }
        }
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
        for i in 0..n {
            if self.tiles[i].state() != TileState::Runnable {
                continue;
            }
            let others = if i == first_tile { second } else { first };
            let mut h = others.saturating_add(l).min(global).min(epoch_end);
            let quiet = self.quiet(i);
            if self.lockstep || !quiet {
                h = h.min(self.net_now + 1);
            }
            let h = h.min(max);
            if self.tiles[i].now < h && self.tiles[i].checkpoint_cycle().is_none() {
                self.run_tile(i, h);
            }
            // Optimistic: on, while nothing is known to be coming.
            if self.lockstep || !quiet || self.tiles[i].state() != TileState::Runnable {
                continue;
            }
            let t = self.net_now.saturating_add(self.window[i]).min(max);
            if self.tiles[i].now >= t {
                continue;
            }
            if self.tiles[i].checkpoint_cycle().is_none() {
                self.tiles[i].checkpoint();
            }
            self.run_tile(i, t);
        }
    }

    /// One pass over the tiles after a round: confirms the optimistic runs
    /// the network has caught up with, and gathers what the end of the round
    /// needs to know.
    fn survey(&mut self) -> Survey {
        let mut s = Survey {
            halt: None,
            running_min: u64::MAX,
            confirmed: u64::MAX,
            all_finished: true,
            output: !self.events.is_empty(),
        };
        let mut halt_cycle = u64::MAX;
        for i in 0..self.tiles.len() {
            let t = &mut self.tiles[i];
            if let Some(c) = t.checkpoint_cycle() {
                if t.issued_before <= self.net_now + 1 {
                    t.commit();
                    self.window[i] = (self.window[i] * 2).min(self.config.sim.epoch_cycles);
                } else {
                    s.confirmed = s.confirmed.min(c);
                }
            }
            if let Some(h) = &t.halt
                && h.cycle() < halt_cycle
            {
                halt_cycle = h.cycle();
                s.halt = Some(i);
            }
            if matches!(t.state(), TileState::Runnable | TileState::Parked) {
                s.running_min = s.running_min.min(t.now);
            }
            s.all_finished &= t.is_finished();
            s.output |= !t.output.is_empty() || !t.trace.is_empty();
        }
        s
    }

    /// The first cycle the network side may not simulate yet because of a
    /// runnable tile (its clock).
    fn runnable_limit(&self) -> u64 {
        self.tiles
            .iter()
            .filter(|t| t.state() == TileState::Runnable)
            .map(|t| t.now)
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Applies the effects NIU `i` produced.
    fn apply_effects(&mut self, i: usize) {
        let effects = self.nius[i].take_effects();
        if effects.is_empty() {
            return;
        }
        let tile = &mut self.tiles[i];
        for e in effects {
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
    fn advance_network(&mut self) {
        // The limit: runnable tiles' clocks (those that change on the way
        // lower `moved`), and parked tiles' cycles plus one (taken from the
        // parked set each cycle, as taking a parked instruction can move a
        // tile further).
        let mut moved = self.runnable_limit();
        let traced = self.trace.is_some();
        loop {
            let parked_limit = self.parked.first().map_or(u64::MAX, |&(p, _)| p + 1);
            let limit = moved.min(parked_limit).min(self.max);
            if self.net_now >= limit {
                break;
            }
            let c = self.net_now;
            let parked_next = self.parked.first().map_or(u64::MAX, |&(p, _)| p);
            let niu_work = self
                .niu_mask
                .iter()
                .zip(self.net.terminals_with_flits())
                .any(|(a, b)| a | b != 0);
            let net_work = self.net.next_work();
            if parked_next != c && !niu_work && net_work.is_none_or(|w| w > c) {
                // Nothing happens at c: jump to the next cycle that has work
                // or a runnable tile's clock; with neither, stay.
                let next = parked_next.min(net_work.unwrap_or(u64::MAX)).min(moved);
                if next == u64::MAX {
                    break;
                }
                self.net_now = next.min(limit);
                continue;
            }
            if let Some(tl) = &mut self.timeline {
                tl.network_cycle(c, &self.net, &mut self.nius);
            }
            // (a) Messaging instructions issued at c, in tile order.
            while let Some(&(p, i)) = self.parked.first()
                && p == c
            {
                self.parked.pop_first();
                self.parked_at[i] = None;
                // Everything before c is known: the run that led here stands.
                self.tiles[i].commit();
                let t = &self.tiles[i];
                let park = t.parked.expect("a parked tile has its instruction");
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
                    _ => tile.complete_messaging::<false>(outcome, &TraceFilter::default()),
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
                    let mut view = View(&self.tiles[i]);
                    self.nius[i].cycle(c, &mut self.net, &mut view);
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

    /// The network's limit from tiles that are not parked, once tile `i`
    /// has changed in cycle `c` (parked tiles are in the parked set).
    fn limit_after(&self, i: usize, c: u64, limit: u64) -> u64 {
        let t = &self.tiles[i];
        match t.state() {
            TileState::Runnable => limit.min(t.now),
            TileState::Halted => limit.min(c + 1),
            _ => limit,
        }
    }

    /// Runs tile `i`, which the network side just let go on in its cycle
    /// `c`, within the horizon that is certain then: every other tile's
    /// promise is at least `c`, and anything its quiet NIU could bring
    /// needs the lookahead.
    fn run_inline(&mut self, i: usize, c: u64) {
        if self.lockstep
            || self.tiles[i].state() != TileState::Runnable
            || self.tiles[i].checkpoint_cycle().is_some()
            || !self.quiet(i)
        {
            return;
        }
        let h = (c + self.lookahead - 1).min(self.max);
        if self.tiles[i].now < h {
            self.run_tile(i, h);
        }
    }

    /// Whether nothing tile `i` would see is on its way: its NIU does not
    /// touch it, and no thread or data message is coming to it (RTS and CTS
    /// messages only change the NIU's tables and queues).
    fn quiet(&self, i: usize) -> bool {
        let n = i as u32;
        !(self.niu_busy[i] && self.nius[i].touches_tile())
            && self.net.inbound_of_class(n, 0) == 0
            && self.net.inbound_of_class(n, 1) == 0
    }

    /// Records whether NIU `i` has work (and whether it needs cycles).
    fn set_busy(&mut self, i: usize) {
        self.niu_busy[i] = self.nius[i].is_busy();
        let (w, b) = (i / 64, i % 64);
        if self.nius[i].needs_cycle() {
            self.niu_mask[w] |= 1 << b;
        } else {
            self.niu_mask[w] &= !(1 << b);
        }
    }

    /// Keeps the set of parked tiles up to date with tile `i`.
    fn sync_parked(&mut self, i: usize) {
        let now = (self.tiles[i].state() == TileState::Parked).then_some(self.tiles[i].now);
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

    fn collect_events(&mut self) {
        let Some(opts) = &self.trace else {
            return;
        };
        let filter = &opts.filter;
        for e in self.net.take_trace() {
            if filter.wants_event(e.node, e.cycle) {
                self.events.push(EventLine {
                    cycle: e.cycle,
                    node: e.node,
                    line: e.line(),
                });
            }
        }
        for n in &mut self.nius {
            for e in n.take_trace() {
                if filter.wants_event(e.node, e.cycle) {
                    self.events.push(EventLine {
                        cycle: e.cycle,
                        node: e.node,
                        line: e.line(),
                    });
                }
            }
        }
    }

    /// Runs to the end, writing output to `console`.
    pub fn run(&mut self, console: &mut dyn Console) -> RunResult {
        self.run_until(console, &mut |_| false)
            .expect("a run that never pauses ends")
    }

    /// Runs until the run ends (`Some`), or until `pause`, called after the
    /// tiles' part and after the network's part of every step of the
    /// global loop, returns true (`None`: the output up to the cycles every
    /// tile has passed is written; calling again resumes). In lockstep mode
    /// a step is one cycle, so a debugger sees every instruction: it may
    /// read and change the tiles in `pause`, and take back a halt (after
    /// the tiles' part) before the run ends at it.
    pub fn run_until(
        &mut self,
        console: &mut dyn Console,
        pause: &mut dyn FnMut(&mut Machine) -> bool,
    ) -> Option<RunResult> {
        let max = match self.config.sim.max_cycles {
            0 => u64::MAX,
            m => m,
        };
        self.max = max;
        let mut rounds = 0u64;
        let (end, end_cycle) = loop {
            rounds += 1;
            self.run_tiles(max);
            // Before the network part, which would jump past a halt.
            if pause(self) {
                self.flush(console, self.committed().saturating_sub(1));
                return None;
            }
            self.advance_network();
            let s = self.survey();
            if pause(self) {
                self.flush(console, self.committed().saturating_sub(1));
                return None;
            }
            // The earliest halt in (cycle, tile) order ends the run once
            // nothing earlier can happen.
            let halt = s.halt.map(|i| self.tiles[i].halt.clone().expect("halted"));
            let running_min = s.running_min;
            // With nothing pending, the network side is as good as done
            // with every cycle.
            let quiescent = self.parked.is_empty()
                && self.niu_mask.iter().all(|&m| m == 0)
                && self.net.next_work().is_none();
            let net_time = if quiescent { u64::MAX } else { self.net_now };
            let committed = running_min.min(net_time).min(s.confirmed);
            let halted = halt.is_some();
            if let Some(halt) = halt {
                let cycle = halt.cycle();
                if committed >= cycle || (running_min == u64::MAX && net_time >= cycle) {
                    self.final_flush(console, cycle);
                    break match halt {
                        Halt::Exit { code, .. } => (RunEnd::Exit(code), cycle),
                        Halt::Fault(report) => (RunEnd::Fault(report), cycle),
                    };
                }
            }
            if s.output {
                self.flush(console, committed.saturating_sub(1));
            }
            let quiet = running_min == u64::MAX;
            let net_idle = self.net.next_work().is_none()
                && self.net.in_flight() == 0
                && !self.niu_busy.iter().any(|&b| b);
            if quiet && s.all_finished && net_idle {
                let end = self
                    .tiles
                    .iter()
                    .filter_map(|t| t.finished_at)
                    .max()
                    .unwrap_or(0)
                    .max(self.last_progress);
                self.final_flush(console, u64::MAX);
                break (RunEnd::AllThreadsEnded, end);
            }
            if quiet
                && (net_idle
                    || self.net_now.saturating_sub(self.last_progress)
                        > self.config.network.stall_cycles)
                && !halted
            {
                let cycle = self.net_now;
                self.final_flush(console, u64::MAX);
                break (
                    RunEnd::Deadlock(Box::new(self.deadlock_report(cycle))),
                    cycle,
                );
            }
            if !quiet && self.net.is_stalled(self.net_now.saturating_sub(1)) {
                let cycle = self.net_now;
                self.final_flush(console, cycle);
                break (
                    RunEnd::Deadlock(Box::new(self.deadlock_report(cycle))),
                    cycle,
                );
            }
            if running_min >= max && net_time >= max {
                // The last instructions may end a few cycles past the limit.
                let reached = self
                    .tiles
                    .iter()
                    .map(|t| t.now)
                    .max()
                    .unwrap_or(max)
                    .max(max);
                self.final_flush(console, reached);
                break (RunEnd::CycleLimit(max), reached);
            }
        };
        if std::env::var_os("SCMP_DEBUG_TIME").is_some() {
            eprintln!(
                "rounds {rounds} rollbacks {} network active cycles {} net_now {}",
                self.rollbacks, self.net.counters.active_cycles, self.net_now
            );
        }
        self.prefixer.finish(console);
        for tile in &mut self.tiles {
            tile.close(end_cycle);
        }
        if let Some(tl) = self.timeline.take() {
            // A timeline that cannot be written must not change the run
            // (the caller's writer sees the error).
            let _ = tl.finish(&mut self.tiles, &mut self.nius, &self.net, end_cycle);
        }
        let network = crate::stats_network::NetworkStats::collect(
            &self.net,
            &self.nius,
            &self.tiles,
            end_cycle,
        );
        let stats = Stats::collect(end_cycle, &self.tiles, network);
        Some(RunResult { end, stats })
    }

    /// The earliest clock of a tile that can still issue.
    fn running_min(&self) -> u64 {
        self.tiles
            .iter()
            .filter(|t| matches!(t.state(), TileState::Runnable | TileState::Parked))
            .map(|t| t.now)
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The first cycle not certain on every tile and the network.
    fn committed(&self) -> u64 {
        let confirmed = self
            .tiles
            .iter()
            .filter_map(|t| t.checkpoint_cycle())
            .min()
            .unwrap_or(u64::MAX);
        self.running_min().min(self.net_now).min(confirmed)
    }

    /// The tiles, to change (a debugger's registers, memory, breakpoints).
    pub fn tiles_mut(&mut self) -> &mut [Tile] {
        &mut self.tiles
    }

    /// The configuration it runs.
    pub fn config(&self) -> &Config {
        &self.config
    }

    fn deadlock_report(&self, cycle: u64) -> DeadlockReport {
        let mut blocked = Vec::new();
        for (i, t) in self.tiles.iter().enumerate() {
            for (c, ctx) in t.contexts.iter().enumerate() {
                if !ctx.is_live() {
                    continue;
                }
                let waits_for = match ctx.state {
                    crate::context::ContextState::Suspended(cause) => self.nius[i]
                        .describe_wait(c)
                        .unwrap_or_else(|| cause.name().to_string()),
                    _ => "the pipeline".to_string(),
                };
                let instruction = t
                    .memory
                    .load_u32(ctx.pc)
                    .ok()
                    .and_then(isa_spec::Inst::decode)
                    .map(|inst| inst.display(ctx.pc).to_string())
                    .unwrap_or_else(|| "?".to_string());
                blocked.push(BlockedContext {
                    tile: t.id,
                    context: c as u32,
                    pc: ctx.pc,
                    instruction,
                    waits_for,
                });
            }
        }
        DeadlockReport {
            cycle,
            blocked,
            network: self.net.stall_report(),
        }
    }

    /// Writes the output, trace records and events stamped at or before
    /// `cut`, in (cycle, tile) order; later ones wait for the next flush.
    /// The last flush: the run is over, so no optimistic run can go back.
    fn final_flush(&mut self, console: &mut dyn Console, cut: u64) {
        for t in &mut self.tiles {
            t.commit();
        }
        self.flush(console, cut);
    }

    fn flush(&mut self, console: &mut dyn Console, cut: u64) {
        if let Some(tl) = &mut self.timeline {
            tl.collect(&mut self.tiles, cut);
        }
        let mut events: Vec<OutputEvent> = Vec::new();
        for tile in &mut self.tiles {
            events.extend(tile.take_output(cut));
        }
        if !events.is_empty() {
            // Stable: one tile's events keep their order within a cycle.
            events.sort_by_key(|e| (e.cycle, e.tile));
            for e in &events {
                if e.cycle >= self.prefix_from {
                    self.prefixer.enable();
                }
                self.prefixer.write(console, e);
            }
        }
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        let mut records: Vec<(u64, u32, u8, String)> = Vec::new();
        let mut kept: Vec<TraceRecord> = Vec::new();
        for tile in &mut self.tiles {
            for r in tile.take_trace(cut) {
                match trace.sink {
                    TraceSink::Writer(_) => {
                        records.push((r.cycle, r.tile, 0, r.line(&self.labels)))
                    }
                    TraceSink::Last(..) => kept.push(r),
                }
            }
        }
        let keep = self.events.iter().position(|e| e.cycle > cut);
        let lines: Vec<EventLine> = match keep {
            Some(k) => {
                // Events are collected in cycle order.
                let rest = self.events.split_off(k);
                std::mem::replace(&mut self.events, rest)
            }
            None => std::mem::take(&mut self.events),
        };
        match &mut trace.sink {
            TraceSink::Writer(w) => {
                for e in lines {
                    records.push((e.cycle, e.node, 1, e.line));
                }
                records.sort_by_key(|a| (a.0, a.1, a.2));
                let mut text = String::new();
                for (_, _, _, line) in records {
                    text.push_str(&line);
                    text.push('\n');
                }
                // A trace file that cannot be written must not change the run.
                let _ = w.write_all(text.as_bytes());
                let _ = w.flush();
            }
            TraceSink::Last(n, ring) => {
                kept.sort_by_key(|r| (r.cycle, r.tile));
                for r in kept {
                    if ring.len() == *n {
                        ring.pop_front();
                    }
                    ring.push_back(r);
                }
            }
        }
    }

    /// Whether some tile issued an instruction at or after `cycle` (tiles
    /// run ahead of each other; an exit or fault at `cycle` is only known
    /// once they have).
    pub fn ran_past(&self, cycle: u64) -> bool {
        self.tiles.iter().any(|t| t.issued_before > cycle)
    }

    /// The records a [`TraceSink::Last`] kept.
    pub fn last_trace(&self) -> Vec<TraceRecord> {
        match self.trace.as_ref().map(|t| &t.sink) {
            Some(TraceSink::Last(_, ring)) => ring.iter().copied().collect(),
            _ => Vec::new(),
        }
    }
}

/// Runs `program`.
///
/// When the run ends at an `exit` or a fault at cycle h while other tiles
/// had already run past h (up to their horizons), it is replayed (runs are
/// deterministic) with every tile stopped at h, so that the statistics end
/// at h whatever the synchronization did. A fault's replay also traces the
/// faulting context, for the last instructions in its report
/// (`options.fault_trace_lines`).
pub fn run(
    config: &Config,
    program: &Program,
    options: RunOptions,
    console: &mut dyn Console,
) -> Result<RunResult, LoadError> {
    let lines = options.fault_trace_lines;
    let raw_output = options.raw_output;
    let (lockstep, visit_order) = (options.lockstep, options.visit_order);
    let mut machine = Machine::new(config, program, options)?;
    let mut result = machine.run(console);
    let halt = match &result.end {
        RunEnd::Exit(_) | RunEnd::Fault(_) => Some(result.stats.total_cycles),
        _ => None,
    };
    let Some(cycle) = halt else {
        return Ok(result);
    };
    let fault_context = match &result.end {
        RunEnd::Fault(r) if lines > 0 && r.context != crate::fault::NIU_CONTEXT => {
            Some((r.tile, r.context))
        }
        _ => None,
    };
    if !machine.ran_past(cycle) && fault_context.is_none() {
        return Ok(result);
    }
    let trace = fault_context.map(|(tile, context)| TraceOptions {
        filter: TraceFilter {
            tiles: Some(std::iter::once(tile..tile + 1).collect()),
            contexts: Some(std::iter::once(context..context + 1).collect()),
            cycles: None,
            kinds: Some(crate::trace::TraceKinds {
                instructions: true,
                network: false,
                niu: false,
            }),
        },
        sink: TraceSink::Last(lines, VecDeque::new()),
    });
    let mut replay_config = config.clone();
    // A fault at `cycle` is the instruction issuing then: the replay must
    // let it issue; an exit's cycle is the one after its call.
    replay_config.sim.max_cycles = match result.end {
        RunEnd::Fault(_) => cycle + 1,
        _ => cycle,
    };
    let mut replay = Machine::new(
        &replay_config,
        program,
        RunOptions {
            trace,
            raw_output,
            fault_trace_lines: 0,
            lockstep,
            visit_order,
            timeline: None,
        },
    )?;
    let again = replay.run(&mut NullConsole);
    debug_assert_eq!(again.end, {
        let mut e = result.end.clone();
        if let RunEnd::Fault(r) = &mut e {
            r.last_trace.clear();
        }
        e
    });
    result.stats = again.stats;
    if let RunEnd::Fault(report) = &mut result.end
        && fault_context.is_some()
    {
        report.last_trace = replay
            .last_trace()
            .iter()
            .map(|r| r.line(&program.labels))
            .collect();
    }
    Ok(result)
}
