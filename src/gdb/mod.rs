//! `scmp run --gdb PORT`: a GDB remote-protocol server (gdbstub) on the
//! loopback interface for one tile (`--gdb-tile`), whose 16 hardware
//! contexts are GDB's threads. The run waits for GDB before its first
//! cycle; every tile runs in lockstep so that a stop is exact, and a stop
//! (breakpoint, step, watchpoint, Ctrl-C, fault) pauses the whole mesh.
//! When GDB detaches, the run goes on to its end as without a debugger.

mod arch;
mod target;

use std::net::{TcpListener, TcpStream};

use emu::{Config, Machine, Program, RunOptions, RunResult, TraceFilter, TraceOptions, TraceSink};
use gdbstub::conn::ConnectionExt;
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::{DisconnectReason, GdbStub, MultiThreadStopReason};
use gdbstub::target::Target;
use miette::{IntoDiagnostic, Result, WrapErr, miette};

use target::Debuggee;

/// gdbstub's event loop over the machine.
enum ScmpLoop {}

impl BlockingEventLoop for ScmpLoop {
    type Target = Debuggee;
    type Connection = TcpStream;
    type StopReason = MultiThreadStopReason<u32>;

    #[allow(clippy::type_complexity)]
    fn wait_for_stop_reason(
        target: &mut Debuggee,
        conn: &mut TcpStream,
    ) -> Result<
        Event<Self::StopReason>,
        WaitForStopReasonError<<Debuggee as Target>::Error, std::io::Error>,
    > {
        loop {
            if let Some(reason) = target.run_for_a_while() {
                return Ok(Event::TargetStopped(reason));
            }
            // Between runs: an interrupt (Ctrl-C) or other packet from GDB.
            if conn.peek().map(|b| b.is_some()).unwrap_or(true) {
                let byte = conn.read().map_err(WaitForStopReasonError::Connection)?;
                return Ok(Event::IncomingData(byte));
            }
        }
    }

    fn on_interrupt(
        _target: &mut Debuggee,
    ) -> Result<Option<MultiThreadStopReason<u32>>, <Debuggee as Target>::Error> {
        Ok(Some(MultiThreadStopReason::Signal(
            gdbstub::common::Signal::SIGINT,
        )))
    }
}

/// How a debugged run ended.
pub enum Outcome {
    /// It ran to its end.
    Ended(Box<RunResult>),
    /// GDB killed it.
    Killed,
}

/// Serves GDB on 127.0.0.1:`port` (0: any free port; the address is
/// printed on stderr) for `tile` of a run of `program`, then finishes the
/// run. `options` are the run's (the machine runs in lockstep; the tile's
/// instructions are traced for watchpoints and steps, not written).
pub fn serve(
    config: &Config,
    program: &Program,
    options: RunOptions,
    port: u16,
    tile: u32,
) -> Result<Outcome> {
    if tile >= config.tiles() {
        return Err(miette!(
            "--gdb-tile {tile}: the mesh has {} tiles (0..={})",
            config.tiles(),
            config.tiles() - 1
        ));
    }
    if options.trace.is_some() {
        return Err(miette!(
            "--gdb and --trace cannot be used together (the debugger uses the trace of its tile)"
        ));
    }
    let options = RunOptions {
        lockstep: true,
        trace: Some(TraceOptions {
            filter: TraceFilter {
                tiles: Some(std::iter::once(tile..tile + 1).collect()),
                kinds: Some(emu::trace::TraceKinds {
                    instructions: true,
                    network: false,
                    niu: false,
                }),
                ..TraceFilter::default()
            },
            // The debugger takes the records before they would be written.
            sink: TraceSink::Writer(Box::new(std::io::sink())),
        }),
        ..options
    };
    let mut machine = Machine::new(config, program, options).map_err(|e| miette!("{e}"))?;
    // The debugger may change registers and memory between two looks.
    machine.disable_livelock_watch();
    let listener = TcpListener::bind(("127.0.0.1", port))
        .into_diagnostic()
        .wrap_err_with(|| format!("--gdb {port}: cannot listen on 127.0.0.1:{port}"))?;
    let address = listener.local_addr().into_diagnostic()?;
    eprintln!("scmp: tile {tile} waits for GDB on {address} (`target remote {address}`)");
    let (stream, _) = listener
        .accept()
        .into_diagnostic()
        .wrap_err("waiting for GDB")?;
    let mut debuggee = Debuggee::new(machine, tile as usize);
    let reason = GdbStub::new(stream)
        .run_blocking::<ScmpLoop>(&mut debuggee)
        .map_err(|e| miette!("the GDB connection failed: {e}"))?;
    if reason == DisconnectReason::Kill {
        return Ok(Outcome::Killed);
    }
    // Detached (or the run ended): on to the end as without a debugger.
    let result = match debuggee.result.take() {
        Some(result) => result,
        None => {
            eprintln!("scmp: GDB detached; the run goes on");
            debuggee.machine.run(&mut emu::StdConsole)
        }
    };
    // The files the program wrote (`--files`), as `emu::run` does.
    for note in debuggee.machine.write_back_files() {
        eprintln!("scmp: {note}");
    }
    Ok(Outcome::Ended(Box::new(result)))
}
