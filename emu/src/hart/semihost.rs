//! RISC-V semihosting: a C library (picolibc's `--oslib=semihost`) reaches
//! the host through `slli x0, x0, 0x1f; ebreak; srai x0, x0, 7`, with the
//! operation in a0, the address of its parameter block in a1 and the result
//! in a0 (the ARM semihosting calls, as the RISC-V semihosting spec reuses
//! them). Also the host environment of a run: its standard input and
//! command line, which semihosting and the `read` host service use.
//!
//! The calls are served in two places. Those that write guest memory or
//! registers only (`SYS_READ`, `SYS_READC`, `SYS_GET_CMDLINE`, `SYS_OPEN`,
//! ...) are served where the instruction executes ([`call_in_hart`]), which
//! holds the memory mutably; those that write output or end the run
//! (`SYS_WRITEC`, `SYS_WRITE0`, `SYS_WRITE`, `SYS_EXIT`,
//! `SYS_EXIT_EXTENDED`) go to the tile as host calls ([`call_on_tile`]), so
//! their output is ordered with everything else. Files (`SYS_OPEN` of a
//! name other than the console's, and every call on a file's handle, and
//! `SYS_ERRNO`) go to the tile too, which holds each tile's view of them
//! ([`crate::hart::files`]: confined to the directory the user granted,
//! none by default): a run depends only on its program, configuration,
//! input, arguments and that directory's files as the run began.
//! Time calls (`SYS_CLOCK`, `SYS_TIME`, `SYS_ELAPSED`, `SYS_TICKFREQ`)
//! count simulated time: cycles at `tile.clock_hz` (see [`call_in_hart`]).

use std::cell::RefCell;
use std::io::Read;

use crate::fault::FaultCause;
use crate::hart::context::Context;
use crate::hart::effects::{Effects, Stop};
use crate::hart::files::Files;
use crate::hart::memory::Memory;
use crate::hart::service::{HostOutcome, Stream};

/// `slli x0, x0, 0x1f`, the word before a semihosting `ebreak`.
pub const ENTRY_WORD: u32 = 0x01f0_1013;
/// `ebreak`.
pub const EBREAK_WORD: u32 = 0x0010_0073;
/// `srai x0, x0, 7`, the word after it.
pub const EXIT_WORD: u32 = 0x4070_5013;

const SYS_OPEN: u32 = 0x01;
const SYS_CLOSE: u32 = 0x02;
const SYS_WRITEC: u32 = 0x03;
const SYS_WRITE0: u32 = 0x04;
const SYS_WRITE: u32 = 0x05;
const SYS_READ: u32 = 0x06;
const SYS_READC: u32 = 0x07;
const SYS_ISERROR: u32 = 0x08;
const SYS_ISTTY: u32 = 0x09;
const SYS_SEEK: u32 = 0x0a;
const SYS_FLEN: u32 = 0x0c;
const SYS_CLOCK: u32 = 0x10;
const SYS_TIME: u32 = 0x11;
const SYS_ERRNO: u32 = 0x13;
const SYS_GET_CMDLINE: u32 = 0x15;
const SYS_HEAPINFO: u32 = 0x16;
const SYS_EXIT: u32 = 0x18;
const SYS_EXIT_EXTENDED: u32 = 0x20;
const SYS_ELAPSED: u32 = 0x30;
const SYS_TICKFREQ: u32 = 0x31;

/// `ADP_Stopped_ApplicationExit`: the reason of a normal exit.
const APPLICATION_EXIT: u32 = 0x20026;

/// Handles `SYS_OPEN` gives: the console streams (`":tt"` opened for
/// reading, writing, appending) and the features file.
const STDIN: u32 = 0;
const STDOUT: u32 = 1;
const STDERR: u32 = 2;
const FEATURES: u32 = 3;
/// `:semihosting-features`: magic, then one byte of flags (bit 0
/// `SYS_EXIT_EXTENDED`, bit 1 stdout and stderr both through `:tt`).
const FEATURE_BYTES: &[u8] = b"SHFB\x03";

const ERROR: u32 = u32::MAX;

/// `SYS_ELAPSED`'s ticks per second (`SYS_TICKFREQ`), as QEMU's: picolibc's
/// `clock()` returns the elapsed ticks as they are, in units of its
/// `CLOCKS_PER_SEC` (1,000,000).
pub const TICKS_PER_SECOND: u32 = 1_000_000;

/// What a run's guest programs may read from the host.
pub struct HostEnvironment {
    /// The command line `SYS_GET_CMDLINE` returns: the program's arguments,
    /// separated by spaces (picolibc's crt0 supplies argv[0] itself).
    pub command_line: String,
    /// Standard input (fd 0 of the `read` service, `SYS_READ` of handle 0,
    /// `SYS_READC`).
    pub input: Box<dyn Read>,
}

impl Default for HostEnvironment {
    /// No arguments, an empty input.
    fn default() -> Self {
        HostEnvironment {
            command_line: String::new(),
            input: Box::new(std::io::empty()),
        }
    }
}

/// Per-run state: the environment and where the features file was read to.
struct HostState {
    env: HostEnvironment,
    features_at: usize,
}

thread_local! {
    static STATE: RefCell<Option<HostState>> = const { RefCell::new(None) };
}

/// Runs `f` (a run of the emulator, on this thread) with `env` as its
/// host environment; without one, input is empty and the command line too.
pub fn with_host_environment<R>(env: HostEnvironment, f: impl FnOnce() -> R) -> R {
    let previous = STATE.with(|s| {
        s.borrow_mut().replace(HostState {
            env,
            features_at: 0,
        })
    });
    let result = f();
    STATE.with(|s| *s.borrow_mut() = previous);
    result
}

fn with_state<R>(f: impl FnOnce(&mut HostState) -> R) -> R {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let state = s.get_or_insert_with(|| HostState {
            env: HostEnvironment::default(),
            features_at: 0,
        });
        f(state)
    })
}

/// Reads up to `len` bytes of standard input (fewer at its end).
pub(crate) fn read_input(len: usize) -> Vec<u8> {
    with_state(|s| {
        let mut buf = Vec::new();
        // An input that fails reads as its end.
        let _ = (&mut s.env.input).take(len as u64).read_to_end(&mut buf);
        buf
    })
}

/// Whether the `ebreak` at `pc` is a semihosting call (framed by the
/// entry and exit words).
pub fn is_call(mem: &Memory, pc: u32) -> bool {
    pc >= 4
        && mem.load_u32(pc - 4) == Ok(ENTRY_WORD)
        && mem.load_u32(pc) == Ok(EBREAK_WORD)
        && mem.load_u32(pc.wrapping_add(4)) == Ok(EXIT_WORD)
}

/// Word `i` of the parameter block at `block`.
fn param(mem: &Memory, block: u32, i: u32) -> Result<u32, FaultCause> {
    mem.load_u32(block.wrapping_add(4 * i))
}

/// Copies `bytes` to guest memory at `addr` (store faults as for a store).
pub(crate) fn store_bytes(mem: &mut Memory, addr: u32, bytes: &[u8]) -> Result<(), FaultCause> {
    for (i, &b) in bytes.iter().enumerate() {
        mem.store_u8(addr.wrapping_add(i as u32), b)?;
    }
    Ok(())
}

/// Serves the calls that only read or write guest memory and registers;
/// `Err(Stop::HostCall)` passes the others to the tile. The instruction
/// then completes at `pc + 4` (a0 holds the result).
///
/// The time calls count simulated time from cycle 0 at `clock_hz`
/// (`tile.clock_hz`): `SYS_CLOCK` centiseconds, `SYS_TIME` seconds since
/// the Unix epoch (cycle 0 is 1970-01-01 00:00:00: no host time, so runs
/// stay deterministic), `SYS_ELAPSED` microseconds (64 bits, at the
/// block), `SYS_TICKFREQ` [`TICKS_PER_SECOND`].
pub(crate) fn call_in_hart<const TRACE: bool>(
    ctx: &mut Context,
    mem: &mut Memory,
    fx: &mut Effects,
    now: u64,
    clock_hz: u64,
) -> Result<(), Stop> {
    let (op, block) = (ctx.x[10], ctx.x[11]);
    let result = match op {
        SYS_WRITEC | SYS_WRITE0 | SYS_WRITE | SYS_EXIT | SYS_EXIT_EXTENDED => {
            return Err(Stop::HostCall);
        }
        SYS_OPEN => {
            let (name, mode, len) = (
                param(mem, block, 0)?,
                param(mem, block, 1)?,
                param(mem, block, 2)?,
            );
            match mem.slice(name, len)? {
                b":tt" => match mode {
                    0..=3 => STDIN,
                    4..=7 => STDOUT,
                    _ => STDERR,
                },
                b":semihosting-features" => {
                    with_state(|s| s.features_at = 0);
                    FEATURES
                }
                _ => return Err(Stop::HostCall),
            }
        }
        SYS_ERRNO => return Err(Stop::HostCall),
        SYS_CLOSE | SYS_READ | SYS_SEEK | SYS_FLEN | SYS_ISTTY
            if Files::is_file_handle(param(mem, block, 0)?) =>
        {
            return Err(Stop::HostCall);
        }
        SYS_CLOSE => 0,
        SYS_READ => {
            let (handle, buf, len) = (
                param(mem, block, 0)?,
                param(mem, block, 1)?,
                param(mem, block, 2)?,
            );
            mem.slice(buf, len)?;
            let bytes = match handle {
                STDIN => read_input(len as usize),
                FEATURES => with_state(|s| {
                    let rest = &FEATURE_BYTES[s.features_at.min(FEATURE_BYTES.len())..];
                    let n = rest.len().min(len as usize);
                    s.features_at += n;
                    rest[..n].to_vec()
                }),
                _ => return finish::<TRACE>(ctx, fx, ERROR),
            };
            store_bytes(mem, buf, &bytes)?;
            // The result is the number of bytes not read.
            len - bytes.len() as u32
        }
        SYS_READC => match read_input(1).first() {
            Some(&b) => b as u32,
            None => return Err(FaultCause::EndOfInput.into()),
        },
        SYS_ISERROR => ((param(mem, block, 0)? as i32) < 0) as u32,
        SYS_ISTTY => (param(mem, block, 0)? <= STDERR) as u32,
        SYS_SEEK => {
            let (handle, at) = (param(mem, block, 0)?, param(mem, block, 1)?);
            if handle == FEATURES {
                with_state(|s| s.features_at = at as usize);
                0
            } else {
                ERROR
            }
        }
        SYS_FLEN => match param(mem, block, 0)? {
            FEATURES => FEATURE_BYTES.len() as u32,
            _ => ERROR,
        },
        SYS_CLOCK => (now as u128 * 100 / clock_hz as u128) as u32,
        SYS_TIME => (now / clock_hz) as u32,
        SYS_ELAPSED => {
            let ticks = (now as u128 * TICKS_PER_SECOND as u128 / clock_hz as u128) as u64;
            mem.store_u32(block, ticks as u32)?;
            mem.store_u32(block.wrapping_add(4), (ticks >> 32) as u32)?;
            0
        }
        SYS_TICKFREQ => TICKS_PER_SECOND,
        SYS_GET_CMDLINE => {
            let (buf, size) = (param(mem, block, 0)?, param(mem, block, 1)?);
            let mut line = with_state(|s| s.env.command_line.clone().into_bytes());
            line.push(0);
            if line.len() > size as usize {
                ERROR
            } else {
                store_bytes(mem, buf, &line)?;
                mem.store_u32(block.wrapping_add(4), line.len() as u32 - 1)?;
                0
            }
        }
        SYS_HEAPINFO => {
            // Unknown: the C library then uses its own linker symbols.
            let at = param(mem, block, 0)?;
            store_bytes(mem, at, &[0; 16])?;
            0
        }
        operation => return Err(FaultCause::UnsupportedSemihosting { operation }.into()),
    };
    finish::<TRACE>(ctx, fx, result)
}

fn finish<const TRACE: bool>(ctx: &mut Context, fx: &mut Effects, a0: u32) -> Result<(), Stop> {
    ctx.x[10] = a0;
    if TRACE {
        fx.x = Some((10, a0));
    }
    Ok(())
}

/// Serves the calls that write output or end the run, and those of files,
/// on the tile (after [`call_in_hart`] passed them on); `context` is the
/// caller's.
pub(crate) fn call_on_tile(
    ctx: &mut Context,
    context: u32,
    mem: &mut Memory,
    files: &mut Files,
    emit: &mut dyn FnMut(Stream, Vec<u8>),
) -> Result<HostOutcome, FaultCause> {
    let (op, block) = (ctx.x[10], ctx.x[11]);
    if let Some(result) = file_call(op, block, context, mem, files, emit)? {
        ctx.x[10] = result;
        return Ok(HostOutcome::Continue);
    }
    match op {
        SYS_WRITEC => emit(Stream::Stdout, vec![mem.load_u8(block)?]),
        SYS_WRITE0 => emit(Stream::Stdout, mem.c_string(block)?.to_vec()),
        SYS_WRITE => {
            let (handle, buf, len) = (
                param(mem, block, 0)?,
                param(mem, block, 1)?,
                param(mem, block, 2)?,
            );
            let stream = match handle {
                STDOUT => Stream::Stdout,
                STDERR => Stream::Stderr,
                h if Files::is_file_handle(h) => {
                    let data = mem.slice(buf, len)?.to_vec();
                    // The number of bytes not written: all or nothing.
                    ctx.x[10] = match files.write(context, h, &data) {
                        0 => 0,
                        _ => len,
                    };
                    return Ok(HostOutcome::Continue);
                }
                _ => {
                    ctx.x[10] = len;
                    return Ok(HostOutcome::Continue);
                }
            };
            emit(stream, mem.slice(buf, len)?.to_vec());
            ctx.x[10] = 0;
        }
        // RV32: the reason is a1 itself; a normal exit has no code beyond 0.
        SYS_EXIT => {
            return Ok(HostOutcome::Exit((block != APPLICATION_EXIT) as i32));
        }
        SYS_EXIT_EXTENDED => {
            let (reason, code) = (param(mem, block, 0)?, param(mem, block, 1)?);
            let code = if reason == APPLICATION_EXIT {
                code as i32
            } else {
                1
            };
            return Ok(HostOutcome::Exit(code));
        }
        operation => return Err(FaultCause::UnsupportedSemihosting { operation }),
    }
    Ok(HostOutcome::Continue)
}

/// The calls on files (and `SYS_ERRNO`), served from the tile's `files`:
/// `Some(a0)`, or `None` for a call that is not one of them. Refusals
/// (no directory granted, a path that would leave it) are noted on stderr.
fn file_call(
    op: u32,
    block: u32,
    context: u32,
    mem: &mut Memory,
    files: &mut Files,
    emit: &mut dyn FnMut(Stream, Vec<u8>),
) -> Result<Option<u32>, FaultCause> {
    let mut note = |text: String| emit(Stream::Stderr, format!("scmp: {text}\n").into_bytes());
    if !matches!(
        op,
        SYS_ERRNO | SYS_OPEN | SYS_CLOSE | SYS_ISTTY | SYS_SEEK | SYS_FLEN | SYS_READ
    ) {
        return Ok(None);
    }
    if op == SYS_ERRNO {
        return Ok(Some(files.errno(context)));
    }
    let handle = param(mem, block, 0)?;
    Ok(Some(match op {
        SYS_OPEN => {
            let (name, mode, len) = (handle, param(mem, block, 1)?, param(mem, block, 2)?);
            let name = mem.slice(name, len)?.to_vec();
            files.open(context, &name, mode, &mut note)
        }
        _ if !Files::is_file_handle(handle) => return Ok(None),
        SYS_CLOSE => files.close(context, handle),
        SYS_ISTTY => 0,
        SYS_SEEK => files.seek(context, handle, param(mem, block, 1)?),
        SYS_FLEN => files.len(context, handle),
        SYS_READ => {
            let (buf, len) = (param(mem, block, 1)?, param(mem, block, 2)?);
            mem.slice(buf, len)?;
            match files.read(context, handle, len) {
                Ok(bytes) => {
                    store_bytes(mem, buf, &bytes)?;
                    // The number of bytes not read.
                    len - bytes.len() as u32
                }
                Err(e) => e,
            }
        }
        _ => return Ok(None),
    }))
}
