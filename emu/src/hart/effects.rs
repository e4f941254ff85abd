//! What executing an instruction produced besides its register and memory
//! writes: the [`Effects`] a trace records, and the [`Stop`] that hands the
//! instruction to the tile (a fault, a host call, thread control,
//! messaging), and how a register write is made and recorded (`write_x!`,
//! `write_f!`). Shared by the semantics (`execute`, `context_ops`, `fast`)
//! and the services they reach (`host`, `semihost`), so that those do not
//! depend on each other.

use crate::fault::FaultCause;

/// Why execution left the straight-line path. The pc is not advanced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A guest fault.
    Fault(FaultCause),
    /// `ecall`: the tile performs the host service.
    HostCall,
    /// `yield`.
    Yield,
    /// `endt`.
    EndThread,
    /// `mret`: the tile returns the context to its `mepc` (the end of the
    /// context-exhaustion exception handler, `niu.context_exhausted`).
    Return,
    /// A messaging instruction: the tile hands it to the NIU.
    Messaging,
    /// The instruction completed (pc advanced) but stored into the
    /// predecoded text, which the tile must decode again before going on.
    CodeWritten,
}

impl From<FaultCause> for Stop {
    fn from(cause: FaultCause) -> Stop {
        Stop::Fault(cause)
    }
}

/// What an instruction changed, for the trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Integer register written (not x0) and its new value.
    pub x: Option<(u8, u32)>,
    /// A second integer register written (host services returning two values).
    pub x2: Option<(u8, u32)>,
    /// FP register written and its new value.
    pub f: Option<(u8, u64)>,
    /// Store: address, value, width in bytes.
    pub store: Option<(u32, u64, u8)>,
    /// fflags after the instruction, when it changed them.
    pub fflags: Option<u8>,
    /// frm after the instruction, when a CSR write changed it.
    pub frm: Option<u8>,
    /// Branch taken.
    pub taken: bool,
    /// Load (not `lr.w` or AMOs, whose store shows the address): address
    /// and width in bytes.
    pub load: Option<(u32, u8)>,
}

/// Writes integer register `rd` and, when tracing, records the write
/// (callers re-zero `x0` after the instruction).
macro_rules! write_x {
    ($trace:expr, $ctx:expr, $fx:expr, $rd:expr, $v:expr) => {{
        let v: u32 = $v;
        $ctx.x[$rd] = v;
        if $trace && $rd != 0 {
            $fx.x = Some(($rd as u8, v));
        }
    }};
}

pub(crate) use write_x;

/// Writes FP register `rd` and, when tracing, records the write.
macro_rules! write_f {
    ($trace:expr, $ctx:expr, $fx:expr, $rd:expr, $v:expr) => {{
        let v: u64 = $v;
        $ctx.f[$rd] = v;
        if $trace {
            $fx.f = Some(($rd as u8, v));
        }
    }};
}

pub(crate) use write_f;
