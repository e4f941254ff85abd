//! CSR reads and writes: the FP CSRs (read-write, per context), the counters
//! and the SCMP identity CSRs (read-only), and the machine-mode CSRs a C
//! runtime sets up (plain per-context registers with no effect).

use isa_spec::{
    CTXID, CYCLE, CYCLEH, FCSR, FFLAGS, FRM, INSTRET, INSTRETH, MACHINE_CSRS, MESHH, MESHW, NCTX,
    NODEID, NTILES, TIME, TIMEH,
};

use crate::fault::FaultCause;
use crate::hart::context::Context;

/// What the read-only CSRs of a context report.
#[derive(Clone, Copy, Debug)]
pub struct Identity {
    /// Node id, `y * width + x`.
    pub node: u32,
    /// Context number.
    pub context: u32,
    /// Mesh width.
    pub width: u32,
    /// Mesh height.
    pub height: u32,
    /// Contexts per tile.
    pub contexts: u32,
    /// The clock rate the time services convert cycles with (`tile.clock_hz`).
    pub clock_hz: u64,
}

/// Reads CSR `csr` at tile cycle `now`, with `instret` instructions retired
/// by the context's thread.
pub fn read(
    ctx: &Context,
    id: &Identity,
    now: u64,
    instret: u64,
    csr: u16,
) -> Result<u32, FaultCause> {
    Ok(match csr {
        FFLAGS => ctx.fflags as u32,
        FRM => ctx.frm as u32,
        FCSR => ((ctx.frm as u32) << 5) | ctx.fflags as u32,
        CYCLE | TIME => now as u32,
        CYCLEH | TIMEH => (now >> 32) as u32,
        INSTRET => instret as u32,
        INSTRETH => (instret >> 32) as u32,
        NODEID => id.node,
        CTXID => id.context,
        MESHW => id.width,
        MESHH => id.height,
        NTILES => id.width * id.height,
        NCTX => id.contexts,
        _ if MACHINE_CSRS.contains(&csr) => ctx.machine_csrs[machine_index(csr)],
        _ => return Err(FaultCause::UnknownCsr { csr }),
    })
}

/// Whether `csr` reads a clock (`cycle`, `time`, `instret`, or a high
/// half): a value that differs every time, whatever the thread's state.
pub fn is_clock(csr: u16) -> bool {
    matches!(csr, CYCLE | CYCLEH | TIME | TIMEH | INSTRET | INSTRETH)
}

pub(crate) fn machine_index(csr: u16) -> usize {
    MACHINE_CSRS
        .iter()
        .position(|&c| c == csr)
        .expect("a machine CSR")
}

/// Writes CSR `csr` (the FP and machine-mode CSRs are writable).
pub fn write(ctx: &mut Context, csr: u16, value: u32) -> Result<(), FaultCause> {
    match csr {
        FFLAGS => ctx.fflags = (value & 0x1f) as u8,
        FRM => ctx.frm = (value & 7) as u8,
        FCSR => {
            ctx.fflags = (value & 0x1f) as u8;
            ctx.frm = ((value >> 5) & 7) as u8;
        }
        _ if MACHINE_CSRS.contains(&csr) => ctx.machine_csrs[machine_index(csr)] = value,
        _ => {
            return Err(match isa_spec::csr_by_number(csr) {
                Some(_) => FaultCause::ReadOnlyCsr { csr },
                None => FaultCause::UnknownCsr { csr },
            });
        }
    }
    Ok(())
}
