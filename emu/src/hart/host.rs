//! Host services reached by `ecall` (numbers and arguments in
//! `isa_spec::HOST_SERVICES`), and the console their output goes to.
//!
//! Output is buffered per tile as [`OutputEvent`]s stamped with the cycle,
//! and written in (cycle, tile) order at the end of each epoch, so the bytes
//! do not depend on the order in which tiles are simulated.

use std::io::Write;

use isa_spec::HostService;

use crate::fault::FaultCause;
use crate::hart::context::Context;
use crate::hart::files::Files;
use crate::hart::memory::Memory;
use crate::hart::service::{HostOutcome, OutputEvent, Stream};

/// `EBADF` (the C library's numbers, as the file services use them),
/// returned negated for a write to another descriptor.
use super::files::errno::EBADF;

/// Performs the service in `a7` for `ctx` (or the semihosting call of the
/// `ebreak` at its pc, with the tile's `files`), appending output to `out`.
pub fn call(
    ctx: &mut Context,
    mem: &mut Memory,
    files: &mut Files,
    now: u64,
    tile: u32,
    context: u32,
    out: &mut Vec<OutputEvent>,
) -> Result<HostOutcome, FaultCause> {
    if crate::hart::semihost::is_call(mem, ctx.pc) {
        let mut emit = |stream: Stream, bytes: Vec<u8>| {
            if !bytes.is_empty() {
                out.push(OutputEvent {
                    cycle: now,
                    tile,
                    context,
                    stream,
                    bytes,
                });
            }
        };
        return crate::hart::semihost::call_on_tile(ctx, context, mem, files, &mut emit);
    }
    let number = ctx.x[17];
    let a0 = ctx.x[10];
    let service =
        HostService::from_number(number).ok_or(FaultCause::UnknownHostService { number })?;
    let mut emit = |stream: Stream, bytes: Vec<u8>| {
        if !bytes.is_empty() {
            out.push(OutputEvent {
                cycle: now,
                tile,
                context,
                stream,
                bytes,
            });
        }
    };
    match service {
        HostService::Read => unreachable!("served where the ecall executes (it writes memory)"),
        HostService::Write => {
            let (buf, len) = (ctx.x[11], ctx.x[12]);
            let stream = match a0 {
                1 => Stream::Stdout,
                2 => Stream::Stderr,
                _ => {
                    ctx.x[10] = EBADF.wrapping_neg();
                    return Ok(HostOutcome::Continue);
                }
            };
            emit(stream, mem.slice(buf, len)?.to_vec());
            ctx.x[10] = len;
        }
        HostService::Exit | HostService::ExitGroup => return Ok(HostOutcome::Exit(a0 as i32)),
        HostService::PrintInt => emit(Stream::Stdout, (a0 as i32).to_string().into_bytes()),
        HostService::PrintHex => emit(Stream::Stdout, format!("{a0:#010x}").into_bytes()),
        HostService::PrintChar => emit(Stream::Stdout, vec![a0 as u8]),
        HostService::PrintString => emit(Stream::Stdout, mem.c_string(a0)?.to_vec()),
        HostService::PrintDouble => {
            let value = f64::from_bits(ctx.f[10]);
            emit(Stream::Stdout, format!("{value:?}").into_bytes())
        }
        HostService::ReadCycle => {
            ctx.x[10] = now as u32;
            ctx.x[11] = (now >> 32) as u32;
        }
    }
    Ok(HostOutcome::Continue)
}

/// `read` (it writes guest memory, so the executing hart serves it): up to
/// a2 bytes of standard input to a1 for fd 0; other descriptors get
/// `-EBADF`.
pub(crate) fn read(ctx: &mut Context, mem: &mut Memory) -> Result<u32, FaultCause> {
    let (fd, buf, len) = (ctx.x[10], ctx.x[11], ctx.x[12]);
    if fd != 0 {
        return Ok(EBADF.wrapping_neg());
    }
    mem.slice(buf, len)?;
    let bytes = crate::hart::semihost::read_input(len as usize);
    crate::hart::semihost::store_bytes(mem, buf, &bytes)?;
    Ok(bytes.len() as u32)
}

/// Where program output goes.
pub trait Console {
    /// Writes bytes to a stream.
    fn write(&mut self, stream: Stream, bytes: &[u8]);
}

/// The process's stdout and stderr.
#[derive(Debug, Default)]
pub struct StdConsole;

impl Console for StdConsole {
    fn write(&mut self, stream: Stream, bytes: &[u8]) {
        // A closed pipe must not stop the simulation; the run's result still counts.
        let _ = match stream {
            Stream::Stdout => {
                let mut o = std::io::stdout().lock();
                o.write_all(bytes).and_then(|_| o.flush())
            }
            Stream::Stderr => std::io::stderr().lock().write_all(bytes),
        };
    }
}

/// Output captured in memory (tests, replays).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CapturedConsole {
    /// Bytes written to stdout.
    pub stdout: Vec<u8>,
    /// Bytes written to stderr.
    pub stderr: Vec<u8>,
}

impl Console for CapturedConsole {
    fn write(&mut self, stream: Stream, bytes: &[u8]) {
        match stream {
            Stream::Stdout => self.stdout.extend_from_slice(bytes),
            Stream::Stderr => self.stderr.extend_from_slice(bytes),
        }
    }
}

/// A console that drops everything.
#[derive(Debug, Default)]
pub struct NullConsole;

impl Console for NullConsole {
    fn write(&mut self, _: Stream, _: &[u8]) {}
}

/// Writes events; when several tiles run, every line gets a `[tT cC] `
/// prefix and is written whole (lines of different threads do not mix; a
/// line appears when its newline is written, a last partial line at the end).
#[derive(Debug, Default)]
pub struct Prefixer {
    prefix: bool,
    /// Unfinished line per (tile, context, stream), in first-write order.
    partial: Vec<((u32, u32, Stream), Vec<u8>)>,
}

impl Prefixer {
    /// A prefixer; `prefix` false passes bytes through unchanged.
    pub fn new(prefix: bool) -> Prefixer {
        Prefixer {
            prefix,
            partial: Vec::new(),
        }
    }

    /// Prefixes from now on (a second thread has started).
    pub fn enable(&mut self) {
        self.prefix = true;
    }

    /// Writes one event.
    pub fn write(&mut self, console: &mut dyn Console, event: &OutputEvent) {
        if !self.prefix {
            console.write(event.stream, &event.bytes);
            return;
        }
        let key = (event.tile, event.context, event.stream);
        let i = match self.partial.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.partial.push((key, Vec::new()));
                self.partial.len() - 1
            }
        };
        let mut out = Vec::new();
        for &b in &event.bytes {
            let line = &mut self.partial[i].1;
            line.push(b);
            if b == b'\n' {
                out.extend_from_slice(format!("[t{} c{}] ", key.0, key.1).as_bytes());
                out.append(line);
            }
        }
        if !out.is_empty() {
            console.write(event.stream, &out);
        }
    }

    /// Writes the unfinished lines (at the end of a run).
    pub fn finish(&mut self, console: &mut dyn Console) {
        for ((tile, context, stream), line) in self.partial.drain(..) {
            if !line.is_empty() {
                let mut out = format!("[t{tile} c{context}] ").into_bytes();
                out.extend_from_slice(&line);
                console.write(stream, &out);
            }
        }
    }
}
