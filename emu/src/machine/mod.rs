//! The mesh and the global loop: tiles, their NIUs, the network, and the
//! synchronization that keeps them exact (docs/network.md, "Time").
//!
//! Over 600 lines: the global loop and the rule that keeps it exact (the
//! horizon, settling, halts) are read together; its parts that stand alone
//! already have files of their own beside this one.
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
//! (the fewest cycles from a messaging instruction on one tile to the
//! first cycle of another whose state that tile's NIU may look at or
//! change); the network's cycle plus the lookahead while any NIU or
//! link is busy; and `sim.epoch_cycles` after the network's cycle. Nothing
//! depends on how far tiles run in one go or in which order they are run:
//! a test runs every messaging program with several epoch lengths, router
//! visiting orders, and a lockstep mode, and requires identical traces.
//!
//! An `exit` (at c, the cycle after its call), or a fault of an instruction
//! issuing at c, ends the run at c: what issued at c or later on any tile
//! (tiles may have run past c, up to their horizon) is not part of it, in
//! the output, the trace or the statistics ([`run`] replays such a run to c).

mod chains;
mod explain;
mod horizon;
mod network_side;
mod output;
mod report;
mod spin;

use std::collections::VecDeque;
use std::sync::Arc;

use crate::config::{BootTiles, Config, ContextExhausted};
use crate::elf::{LoadError, Program};
use crate::fault::FaultReport;
use crate::hart::csr::Identity;
use crate::hart::decode::DecodedText;
use crate::hart::files::Files;
use crate::hart::host::{Console, NullConsole, Prefixer};
use crate::hart::memory::Memory;
use crate::hart::service::Stream;
use crate::hart::timing::CostTable;
use crate::labels::Labels;
use crate::network::Network;
use crate::niu::{self, Niu};
use crate::stats::Stats;
use crate::tile::{Halt, SwapVectors, Tile, TileParams};
use crate::timeline::Recorder;
use crate::trace::TraceFilter;

pub use explain::boot_note;
use output::EventLine;
pub use report::{
    ContextReport, DeadlockReport, Monitor, Progress, REPORT_LINES, RunEnd, RunOptions, RunResult,
    StateReport, Stuck, TraceOptions, TraceSink, tile_list,
};

/// A mesh of tiles with a program loaded.
pub struct Machine {
    config: Config,
    /// The network's power model when energy is counted
    /// (`energy.enabled`, `energy.technology`).
    energy_model: Option<&'static crate::energy::Model>,
    tiles: Vec<Tile>,
    nius: Vec<Niu>,
    /// Per tile: whether its NIU has work (kept up to date after every
    /// call), also as a bit per tile.
    niu_busy: Vec<bool>,
    /// Per tile: whether its NIU is busy and touches the tile (see
    /// [`Niu::touches_tile`]), as of its last [`Machine::set_busy`].
    niu_touches: Vec<bool>,
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
    /// Fewest cycles from an NIU's injection to an effect its own tile
    /// sees (a message to itself: one hop).
    self_lookahead: u64,
    lockstep: bool,
    /// Per tile: how far beyond the network it may run optimistically
    /// (shrinks after a rollback, grows back as runs are confirmed).
    window: Vec<u64>,
    /// Optimistic runs taken back.
    rollbacks: u64,
    /// What the synchronization did (`SCMP_DEBUG_TIME=1` prints it).
    sync: horizon::SyncCounters,
    /// The host threads that run the tiles of a round (none: this one).
    pool: Option<rayon::ThreadPool>,
    /// What each tile runs in a round (reused).
    planned: Vec<horizon::TilePlan>,
    /// Worked out by one pass over the tiles for the next.
    carried: horizon::Carried,
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
    /// Watches the run and may stop it.
    monitor: Option<Box<dyn report::Monitor>>,
    /// The monitor asked to stop: the run ends at `max`.
    interrupted: bool,
    /// The livelock watch (`spin`), and the repeats it found: the run
    /// ends at `max` with a report of them.
    spin: spin::SpinWatch,
    livelock: Option<spin::Repeats>,
    /// Memory ranges read at the end of the run.
    dump: Vec<(u32, u32)>,
    /// A replay of a halted run (see [`run`]): the halt's cycle, its cycle
    /// limit (0 included), at which such a run ends exactly.
    replay: Option<u64>,
}

/// The program's text, predecoded.
fn decoded_text(program: &Program, costs: &CostTable) -> DecodedText {
    let text_range = program.text_range();
    let mut text_bytes = vec![0u8; (text_range.end - text_range.start) as usize];
    for s in program.segments.iter().filter(|s| s.executable) {
        let off = (s.addr - text_range.start) as usize;
        text_bytes[off..off + s.data.len()].copy_from_slice(&s.data);
    }
    DecodedText::new(text_range.start, &text_bytes, costs)
}

/// Tile `id` with the program loaded, and the threads it boots.
fn new_tile(
    id: u32,
    config: &Config,
    program: &Program,
    text: &DecodedText,
    costs: &Arc<CostTable>,
    params: &TileParams,
    options: &RunOptions,
) -> (Tile, u32) {
    let t = &config.tile;
    let (w, h) = (config.mesh.width, config.mesh.height);
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
        clock_hz: t.clock_hz,
    };
    let mut tile = Tile::new(
        id,
        identity,
        memory,
        text.clone(),
        costs.clone(),
        params.clone(),
    );
    tile.files = Files::new(options.files.clone());
    if config.energy.enabled {
        tile.count_instructions();
    }
    if options.timeline.is_some() {
        for ctx in &mut tile.contexts {
            ctx.history = Some(Vec::new());
        }
    }
    let boots = match config.boot.tiles {
        BootTiles::First => id == 0,
        BootTiles::All => true,
    };
    let mut booted = 0;
    if boots {
        for _ in 0..config.boot.threads {
            tile.start_thread(program.entry, &[]);
            booted += 1;
        }
    }
    (tile, booted)
}

/// Tile `id`'s NIU, on a network of `vcs` virtual channels.
fn new_niu(id: u32, config: &Config, vcs: usize, options: &RunOptions) -> Niu {
    let t = &config.tile;
    let mut n = Niu::new(
        id,
        (config.mesh.width, config.mesh.height),
        t.contexts as usize,
        t.memory_bytes,
        vcs,
        &config.niu,
    );
    if options.trace.as_ref().is_some_and(|o| o.filter.wants_niu()) {
        n.enable_trace();
    }
    if options.timeline.is_some() {
        n.enable_flows();
    }
    n
}

/// The stack of a host thread that runs tiles. The fast loop's handlers
/// call one another in tail position (`hart/fast/handlers.rs`); optimized
/// builds make those calls jumps, unoptimized builds (tests) keep a frame
/// per instruction of a slice, more than the 2 MiB a spawned thread gets by
/// default. Reserved, not touched: the memory is used only as deep as a
/// chain goes.
pub const SIM_THREAD_STACK: usize = 256 << 20;

/// The host threads the tiles run on (`sim.host_threads`; none for one).
fn host_pool(threads: u32) -> Result<Option<rayon::ThreadPool>, LoadError> {
    Ok(match threads {
        1 => None,
        n => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n as usize)
                .stack_size(SIM_THREAD_STACK)
                .thread_name(|k| format!("scmp-tiles-{k}"))
                .build()
                .map_err(|e| LoadError(format!("cannot start {n} host threads: {e}")))?,
        ),
    })
}

impl Machine {
    /// With `niu.context_exhausted = "swap"`, the runtime's handlers of the
    /// context-exhaustion exception, which the program must define.
    fn swap_vectors(config: &Config, program: &Program) -> Result<Option<SwapVectors>, LoadError> {
        if config.niu.context_exhausted != ContextExhausted::Swap {
            return Ok(None);
        }
        let find = |name: &str| {
            program.symbol(name).map(|s| s.addr).ok_or_else(|| {
                LoadError(format!(
                    "`niu.context_exhausted = \"swap\"` runs the program's exception handler `{name}`, and the program defines none: link stressmarks/lib/swap.s with it (`scmp run` does so for assembly sources; a C program or an ELF needs it linked)"
                ))
            })
        };
        Ok(Some(SwapVectors {
            out: find("scmp_swap_out")?,
            resume: find("scmp_swap_in")?,
        }))
    }

    /// Builds the mesh, loads `program` into every tile and boots threads.
    pub fn new(
        config: &Config,
        program: &Program,
        options: RunOptions,
    ) -> Result<Machine, LoadError> {
        let t = &config.tile;
        program.check_fits(t.memory_bytes, t.contexts as u64 * t.stack_bytes)?;
        // Read now, so that a bad file is an error before the run, not a
        // run without its energy.
        let energy_model = if config.energy.enabled {
            Some(
                crate::energy::model_for(&config.energy.technology)
                    .map_err(|e| LoadError(format!("`energy.technology`: {e}")))?,
            )
        } else {
            None
        };
        let costs = Arc::new(CostTable::new(&config.timing));
        let text = decoded_text(program, &costs);
        let params = TileParams {
            quantum: config.scheduler.quantum,
            switch_cycles: config.scheduler.switch_cycles,
            memory_bytes: t.memory_bytes,
            stack_bytes: t.stack_bytes,
            contexts: t.contexts,
            swap: Self::swap_vectors(config, program)?,
        };
        let (w, h) = (config.mesh.width, config.mesh.height);
        let design = config.niu.design;
        let mut net = Network::new(
            w,
            h,
            &config.network,
            niu::classes(design),
            config.sim.network_engine,
        );
        net.set_visit_order(options.visit_order);
        let mut tiles = Vec::with_capacity((w * h) as usize);
        let mut nius = Vec::with_capacity((w * h) as usize);
        let mut booted_threads = 0;
        for id in 0..w * h {
            let (tile, booted) = new_tile(id, config, program, &text, &costs, &params, &options);
            booted_threads += booted;
            tiles.push(tile);
            nius.push(new_niu(id, config, net.vcs(), &options));
        }
        if options
            .trace
            .as_ref()
            .is_some_and(|o| o.filter.wants_network())
        {
            net.enable_trace();
        }
        let pool = host_pool(config.sim.host_threads)?;
        let lookahead = Self::lookahead(net.timing());
        let self_lookahead = Self::self_lookahead(net.timing());
        let spin = spin::SpinWatch::new(config.sim.spin_check_cycles, tiles.len());
        Ok(Machine {
            energy_model,
            labels: program.labels.clone(),
            config: config.clone(),
            niu_busy: vec![false; tiles.len()],
            niu_touches: vec![false; tiles.len()],
            niu_mask: vec![0; tiles.len().div_ceil(64)],
            parked: std::collections::BTreeSet::new(),
            parked_at: vec![None; tiles.len()],
            max: u64::MAX,
            window: vec![config.sim.epoch_cycles; tiles.len()],
            rollbacks: 0,
            sync: horizon::SyncCounters::default(),
            pool,
            planned: Vec::new(),
            carried: horizon::Carried::default(),
            tiles,
            nius,
            net,
            net_now: 0,
            lookahead,
            self_lookahead,
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
            monitor: options.monitor,
            interrupted: false,
            spin,
            livelock: None,
            dump: options.dump,
            replay: None,
        })
    }

    /// Writes the files the tiles wrote back to the granted directory
    /// ([`crate::hart::files::Files::write_back`]); notes for the user.
    pub fn write_back_files(&self) -> Vec<String> {
        let tiles: Vec<(u32, &Files)> = self.tiles.iter().map(|t| (t.id, &t.files)).collect();
        Files::write_back(&tiles)
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

    /// Runs to the end, writing output to `console`.
    pub fn run(&mut self, console: &mut dyn Console) -> RunResult {
        self.run_until(console, &mut |_| false)
            .expect("a run that never pauses ends")
    }

    /// The monitor (an interrupt asked for) and the livelock watch: either
    /// brings every tile and the network to the furthest cycle reached,
    /// where the run ends as at a cycle limit (with the report).
    fn watch(&mut self) {
        if let Some(mut monitor) = self.monitor.take() {
            let stop = monitor.check(self);
            self.monitor = Some(monitor);
            if stop && !self.interrupted {
                // Every tile and the network are brought to the
                // furthest cycle reached, where the run ends as at a
                // cycle limit.
                self.interrupted = true;
                self.max = self.max.min(self.frontier());
            }
        }
        if !self.interrupted
            && self.livelock.is_none()
            && let Some(repeats) = self.look_for_livelock()
        {
            // Proven to repeat for ever: every tile and the network are
            // brought to the furthest cycle reached, where the run ends
            // as at a cycle limit, with the report.
            self.livelock = Some(repeats);
            self.max = self.max.min(self.frontier());
        }
    }

    /// How the run ends after a round, if it does: a halt (exit or fault)
    /// once nothing earlier can happen, every thread ended, a deadlock
    /// (nothing can move, the network stalled, or spinning), the cycle
    /// limit (or an interrupt, or a proven livelock). Flushes the output
    /// up to what is committed.
    fn ending(&mut self, console: &mut dyn Console, s: &horizon::Survey) -> Option<(RunEnd, u64)> {
        let max = self.max;
        // The earliest halt in (cycle, tile) order ends the run once
        // nothing earlier can happen.
        let halt = s
            .halt
            .map(|i| self.tiles[i].halt().cloned().expect("halted"));
        let running_min = s.running_min;
        // With nothing pending, the network side is as good as done
        // with every cycle (a flit waiting in an ejection buffer is
        // pending: `niu_work`).
        let quiescent =
            self.parked.is_empty() && !self.niu_work() && self.net.next_work().is_none();
        let net_time = if quiescent { u64::MAX } else { self.net_now };
        let committed = running_min
            .min(net_time)
            .min(s.confirmed)
            .min(self.stall_bound());
        let halted = halt.is_some();
        let halt_by_limit = halt.as_ref().is_some_and(|h| h.cycle() <= max);
        if let Some(halt) = halt
            && let Some(end) = self.halt_ending(console, halt, running_min, net_time)
        {
            return Some(end);
        }
        if s.output {
            self.flush(console, committed.saturating_sub(1));
        }
        let quiet = running_min == u64::MAX;
        if quiet {
            if let Some(end) = self.quiet_ending(console, s.all_finished, halted) {
                return Some(end);
            }
        } else if self.net.is_stalled(self.net_now.saturating_sub(1)) {
            return Some(self.spinning_ending(console));
        }
        // A halt by the limit ends the run once the runs before it are
        // confirmed (above), however far optimistic runs went.
        if running_min >= max && net_time >= max && !halt_by_limit {
            return Some(self.limit_ending(console));
        }
        None
    }

    /// [`Machine::ending`] at a halt (exit or fault) at its cycle: once
    /// the tiles that can still issue (from `running_min`) and the network
    /// (at `net_time`) are at it or past it.
    fn halt_ending(
        &mut self,
        console: &mut dyn Console,
        halt: Halt,
        running_min: u64,
        net_time: u64,
    ) -> Option<(RunEnd, u64)> {
        let cycle = halt.cycle();
        // Nothing before it can change once the network has done
        // every cycle before it and every tile that can still
        // issue is at it or past it. Optimistic runs past it need
        // no confirmation: every effect up to it has settled them,
        // and the network does not simulate the halt's cycle (see
        // `runnable_limit`), so it could not confirm them.
        if running_min < cycle || net_time < cycle {
            return None;
        }
        // What other tiles did at the halt's cycle or later
        // (they may have run ahead) is not part of the run.
        match cycle.checked_sub(1) {
            Some(last) => self.final_flush(console, last),
            None => self.tiles.iter_mut().for_each(Tile::commit),
        }
        Some(match halt {
            Halt::Exit { code, .. } => (RunEnd::Exit(code), cycle),
            Halt::Fault(mut report) => {
                if report.context != crate::fault::NIU_CONTEXT {
                    let tile = &self.tiles[report.tile as usize];
                    let x = &tile.contexts[report.context as usize].x;
                    let load = |a: u32| tile.memory.load_u32(a).ok();
                    (report.symbol, report.callers) = self.labels.place(report.pc, x, &load);
                }
                (RunEnd::Fault(report), cycle)
            }
        })
    }

    /// [`Machine::ending`] when no tile runs: every thread ended (and the
    /// network side is idle), or a deadlock (nothing can move, or the
    /// network has made no progress for `network.stall_cycles`) unless a
    /// halt is pending.
    fn quiet_ending(
        &mut self,
        console: &mut dyn Console,
        all_finished: bool,
        halted: bool,
    ) -> Option<(RunEnd, u64)> {
        // Nothing on the network side can move by itself: no flits or
        // credits under way, no NIU with work of its own (a queue that
        // waits for a CTS has none: only a receiver's `str` could send
        // it, and no tile runs).
        // (Only asked when no tile runs: the scan of the NIUs is not free.)
        let net_idle = self.net.next_work().is_none()
            && self.net.in_flight() == 0
            && !self.nius.iter().any(Niu::needs_cycle);
        if all_finished && net_idle {
            let end = self
                .tiles
                .iter()
                .filter_map(|t| t.finished_at())
                .max()
                .unwrap_or(0)
                .max(self.last_progress);
            self.final_flush(console, u64::MAX);
            return Some((RunEnd::AllThreadsEnded, end));
        }
        let stalled =
            self.net_now.saturating_sub(self.last_progress) > self.config.network.stall_cycles;
        if !(net_idle || stalled) || halted {
            return None;
        }
        // A tile started by the network's last cycles may have run
        // (certain, inline) past the network's clock to its end:
        // the run ends after its last instruction, as in lockstep.
        let cycle = self
            .tiles
            .iter()
            .map(|t| t.now())
            .fold(self.net_now, u64::max);
        self.final_flush(console, u64::MAX);
        let stuck = if net_idle {
            report::Stuck::Idle
        } else {
            report::Stuck::NetworkStalled
        };
        Some((
            RunEnd::Deadlock(Box::new(self.deadlock_report(cycle, stuck))),
            cycle,
        ))
    }

    /// [`Machine::ending`] when tiles run but the network says they spin
    /// (`is_stalled`): a deadlock.
    fn spinning_ending(&mut self, console: &mut dyn Console) -> (RunEnd, u64) {
        // The first cycle at which it held (the network may have
        // jumped past it to a tile's clock); what tiles did at it
        // or later is not part of the run ([`run`] replays it to
        // there).
        let cycle = self.stall_bound();
        debug_assert!(cycle <= self.net_now);
        self.final_flush(console, cycle.saturating_sub(1));
        (
            RunEnd::Deadlock(Box::new(
                self.deadlock_report(cycle, report::Stuck::Spinning),
            )),
            cycle,
        )
    }

    /// [`Machine::ending`] at the cycle limit: an interrupt, a proven
    /// livelock, or the limit itself.
    fn limit_ending(&mut self, console: &mut dyn Console) -> (RunEnd, u64) {
        let max = self.max;
        // The last instructions may end a few cycles past the limit
        // (a replay's statistics end at the limit itself).
        let reached = match self.replay {
            Some(h) => h,
            None => self
                .tiles
                .iter()
                .map(|t| t.now())
                .max()
                .unwrap_or(max)
                .max(max),
        };
        self.final_flush(console, reached);
        if self.interrupted {
            return (
                RunEnd::Interrupted(Box::new(self.state_report(reached))),
                reached,
            );
        }
        if let Some(repeats) = self.livelock.take() {
            let mut report = self.deadlock_report(reached, report::Stuck::Livelock);
            report.repeats = repeats.tiles;
            return (RunEnd::Deadlock(Box::new(report)), reached);
        }
        (RunEnd::CycleLimit(max), reached)
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
        let max = match (self.replay, self.config.sim.max_cycles) {
            (Some(h), _) => h,
            (None, 0) => u64::MAX,
            (None, m) => m,
        };
        self.max = max;
        // (The tiles may have changed since the last call returned.)
        self.carried = horizon::Carried::default();
        let mut rounds = 0u64;
        let (end, end_cycle) = loop {
            rounds += 1;
            self.run_tiles(self.max);
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
            self.watch();
            if let Some(end) = self.ending(console, &s) {
                break end;
            }
        };
        if std::env::var_os("SCMP_DEBUG_TIME").is_some() {
            eprintln!(
                "rounds {rounds} rollbacks {} network active cycles {} net_now {}
{:?}",
                self.rollbacks,
                self.net.counters().active_cycles,
                self.net_now,
                self.sync
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
        let energy = self.energy(end_cycle);
        let mut stats = Stats::collect(end_cycle, &self.tiles, network, &self.labels);
        stats.energy = energy;
        let dumps = self
            .dump
            .iter()
            .map(|&(addr, len)| {
                self.tiles
                    .iter()
                    .map(|t| {
                        t.memory
                            .slice(addr, len)
                            .map(<[u8]>::to_vec)
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .collect();
        Some(RunResult { end, stats, dumps })
    }

    /// The tiles, to change (a debugger's registers, memory, breakpoints).
    pub fn tiles_mut(&mut self) -> &mut [Tile] {
        self.carried = horizon::Carried::default();
        &mut self.tiles
    }

    /// The configuration it runs.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The energy of the run up to `end`, when `energy.enabled`: the
    /// network's with `energy.technology` (BookSim2's model; none if it
    /// cannot size a link's wire, which the embedded technology always
    /// can), the tiles' and NIUs' from `[energy]`.
    fn energy(&mut self, end: u64) -> Option<crate::energy::RunEnergy> {
        let model = self.energy_model?;
        let shape = crate::energy::shape(
            &self.config.network,
            self.config.mesh.width,
            self.config.mesh.height,
            crate::niu::classes(self.config.niu.design) as u32,
        );
        let activity = crate::energy::network_activity(&self.net, end);
        let mut e =
            crate::energy::run_energy(model, &shape, &activity, self.config.tile.clock_hz).ok()?;
        let mut classes = [0u64; isa_spec::TimingClass::ALL.len()];
        let mut counted = true;
        for tile in &mut self.tiles {
            match tile.instructions_by_class() {
                Some(by_class) => classes.iter_mut().zip(by_class).for_each(|(a, b)| *a += b),
                None => counted = false,
            }
        }
        let niu = crate::energy::NiuActivity::of(&self.nius, &self.net);
        crate::energy::add_tiles_and_nius(
            &mut e,
            &self.config,
            counted.then_some(&classes),
            &niu,
            end,
        );
        Some(e)
    }

    /// Whether some tile issued an instruction at or after `cycle` (tiles
    /// run ahead of each other; an exit or fault at `cycle` is only known
    /// once they have).
    pub fn ran_past(&self, cycle: u64) -> bool {
        self.tiles.iter().any(|t| t.issued_before() > cycle)
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
///
/// At the end, whatever it is, the files the programs wrote are written
/// back to the granted directory (`options.files`; notes of writes that
/// failed, or of a file two tiles wrote, go to the console's stderr).
pub fn run(
    config: &Config,
    program: &Program,
    options: RunOptions,
    console: &mut dyn Console,
) -> Result<RunResult, LoadError> {
    let (result, last) = run_and_replay(config, program, options, console)?;
    for note in last.write_back_files() {
        console.write(Stream::Stderr, format!("scmp: {note}\n").as_bytes());
    }
    Ok(result)
}

/// [`run`], with the machine whose tiles stopped where the result says
/// (the run's, or its replay's).
fn run_and_replay(
    config: &Config,
    program: &Program,
    options: RunOptions,
    console: &mut dyn Console,
) -> Result<(RunResult, Machine), LoadError> {
    let lines = options.fault_trace_lines;
    let raw_output = options.raw_output;
    let (lockstep, visit_order) = (options.lockstep, options.visit_order);
    let dump = options.dump.clone();
    let files = options.files.clone();
    let mut machine = Machine::new(config, program, options)?;
    let mut result = machine.run(console);
    // The same run again, every tile stopped before `cycle`, tracing as asked.
    let replay_to = |cycle: u64, trace: Option<TraceOptions>| -> Result<Machine, LoadError> {
        let mut replay = Machine::new(
            config,
            program,
            RunOptions {
                trace,
                raw_output,
                fault_trace_lines: 0,
                lockstep,
                visit_order,
                timeline: None,
                monitor: None,
                dump: dump.clone(),
                files: files.clone(),
            },
        )?;
        replay.replay = Some(cycle);
        Ok(replay)
    };
    if let RunEnd::Deadlock(d) = &result.end
        && d.stuck == Stuck::Spinning
    {
        // Found where the network's clock stood, while tiles may have run
        // past it (optimistically, or within their horizons): the report
        // and the statistics are of the run replayed with every tile
        // stopped before that cycle, as in lockstep.
        let cycle = d.state.cycle;
        if machine.ran_past(cycle) {
            let mut replay = replay_to(cycle, None)?;
            let again = replay.run(&mut NullConsole);
            debug_assert!(
                matches!(&again.end, RunEnd::Deadlock(a) if a.stuck == Stuck::Spinning && a.state.cycle == cycle),
                "the replay ends as the run: {:?}",
                again.end
            );
            return Ok((again, replay));
        }
        return Ok((result, machine));
    }
    let halt = match &result.end {
        RunEnd::Exit(_) | RunEnd::Fault(_) => Some(result.stats.total_cycles),
        _ => None,
    };
    let Some(cycle) = halt else {
        return Ok((result, machine));
    };
    let fault_context = match &result.end {
        RunEnd::Fault(r) if lines > 0 && r.context != crate::fault::NIU_CONTEXT => {
            Some((r.tile, r.context))
        }
        _ => None,
    };
    if !machine.ran_past(cycle) && fault_context.is_none() {
        return Ok((result, machine));
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
    // Every tile stops before the halt's cycle (an exit's cycle is the one
    // after its call; a fault's instruction issues then and does not
    // retire), and the statistics end there.
    let mut replay = replay_to(cycle, trace)?;
    let again = replay.run(&mut NullConsole);
    debug_assert_eq!(again.stats.total_cycles, cycle);
    debug_assert_eq!(again.end, {
        match &result.end {
            // A tile's faulting instruction issues at the cycle; an NIU's
            // fault comes from the network's cycle before.
            RunEnd::Fault(r) if r.context != crate::fault::NIU_CONTEXT => RunEnd::CycleLimit(cycle),
            RunEnd::Fault(r) => RunEnd::Fault(FaultReport {
                last_trace: Vec::new(),
                ..r.clone()
            }),
            e => e.clone(),
        }
    });
    result.stats = again.stats;
    // The replay's tiles stopped at the end: their memory is the run's.
    result.dumps = again.dumps;
    if let RunEnd::Fault(report) = &mut result.end
        && fault_context.is_some()
    {
        report.last_trace = replay
            .last_trace()
            .iter()
            .map(|r| r.line(&program.labels))
            .collect();
    }
    Ok((result, replay))
}
