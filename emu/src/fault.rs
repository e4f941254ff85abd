//! Guest faults: what a program did wrong, as values. A fault stops the run
//! with a [`FaultReport`]; nothing a program does makes the emulator panic.

use std::fmt;

/// Kind of memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Instruction fetch.
    Fetch,
    /// Data load (also host services reading guest memory).
    Load,
    /// Data store.
    Store,
}

impl Access {
    fn name(self) -> &'static str {
        match self {
            Access::Fetch => "fetch",
            Access::Load => "load",
            Access::Store => "store",
        }
    }
}

/// Why a thread faulted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultCause {
    /// The word is no instruction of the ISA.
    IllegalInstruction {
        /// The instruction word.
        word: u32,
    },
    /// An access not aligned to its width.
    Misaligned {
        /// Kind of access.
        access: Access,
        /// Address.
        addr: u32,
        /// Width in bytes.
        width: u32,
    },
    /// An access outside the tile's memory.
    OutOfRange {
        /// Kind of access.
        access: Access,
        /// Address.
        addr: u32,
        /// Width in bytes.
        width: u32,
    },
    /// A jump or taken branch to an address that is not a multiple of 4.
    MisalignedTarget {
        /// The target.
        target: u32,
    },
    /// `ebreak` with no debugger attached.
    Breakpoint,
    /// `SYS_READC` at the end of standard input (semihosting's READC has no
    /// end-of-file value).
    EndOfInput,
    /// A RISC-V semihosting call the emulator does not provide.
    UnsupportedSemihosting {
        /// The operation number in a0.
        operation: u32,
    },
    /// `ecall` with a service number (a7) that is not a host service.
    UnknownHostService {
        /// The number in a7.
        number: u32,
    },
    /// A CSR number the machine does not have.
    UnknownCsr {
        /// CSR number.
        csr: u16,
    },
    /// A write to a read-only CSR.
    ReadOnlyCsr {
        /// CSR number.
        csr: u16,
    },
    /// A floating-point instruction with the dynamic rounding mode while
    /// `frm` holds a reserved value.
    InvalidRoundingMode {
        /// The value of frm.
        frm: u8,
    },
    /// A messaging instruction the NIU rejects: a program error.
    Messaging {
        /// The instruction's mnemonic.
        mnemonic: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The NIU could not deliver an arriving message (reported with
    /// [`NIU_CONTEXT`] as the context).
    Delivery {
        /// The sending node.
        from: u32,
        /// What is wrong.
        reason: String,
    },
}

/// The context of a [`FaultReport`] raised by a tile's NIU while it received
/// a message (no instruction of the tile faulted).
pub const NIU_CONTEXT: u32 = u32::MAX;

impl FaultCause {
    /// The same fault as another kind of access.
    pub fn with_access(self, new: Access) -> FaultCause {
        match self {
            FaultCause::Misaligned { addr, width, .. } => FaultCause::Misaligned {
                access: new,
                addr,
                width,
            },
            FaultCause::OutOfRange { addr, width, .. } => FaultCause::OutOfRange {
                access: new,
                addr,
                width,
            },
            other => other,
        }
    }

    /// A short name of the fault kind, for statistics and tests.
    pub fn kind(&self) -> &'static str {
        match self {
            FaultCause::IllegalInstruction { .. } => "illegal instruction",
            FaultCause::Misaligned { .. } => "misaligned access",
            FaultCause::OutOfRange { .. } => "access fault",
            FaultCause::MisalignedTarget { .. } => "misaligned jump target",
            FaultCause::Breakpoint => "breakpoint",
            FaultCause::UnsupportedSemihosting { .. } => "unsupported semihosting call",
            FaultCause::EndOfInput => "end of input",
            FaultCause::UnknownHostService { .. } => "unknown host service",
            FaultCause::UnknownCsr { .. } => "illegal instruction",
            FaultCause::ReadOnlyCsr { .. } => "illegal instruction",
            FaultCause::InvalidRoundingMode { .. } => "illegal instruction",
            FaultCause::Messaging { .. } => "messaging error",
            FaultCause::Delivery { .. } => "delivery error",
        }
    }
}

fn csr_name(csr: u16) -> String {
    match isa_spec::csr_by_number(csr) {
        Some(spec) => format!("`{}` ({csr:#05x})", spec.name),
        None => format!("{csr:#05x}"),
    }
}

impl fmt::Display for FaultCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultCause::IllegalInstruction { word } => {
                write!(
                    f,
                    "illegal instruction: {word:#010x} is no instruction of the ISA"
                )
            }
            FaultCause::Misaligned {
                access,
                addr,
                width,
            } => write!(
                f,
                "misaligned {}: {width}-byte access at {addr:#010x} is not {width}-byte aligned",
                access.name()
            ),
            FaultCause::OutOfRange {
                access,
                addr,
                width,
            } => write!(
                f,
                "access fault: {} of {width} byte{} at {addr:#010x} is outside the tile's memory",
                access.name(),
                if *width == 1 { "" } else { "s" }
            ),
            FaultCause::MisalignedTarget { target } => write!(
                f,
                "misaligned jump target: {target:#010x} is not a multiple of 4"
            ),
            FaultCause::Breakpoint => {
                write!(f, "breakpoint: ebreak executed and no debugger is attached")
            }
            FaultCause::EndOfInput => write!(
                f,
                "end of input: SYS_READC read past the end of standard input (semihosting has no end-of-file for it; C's getchar would see byte 0xff); give the program the input it reads"
            ),
            FaultCause::UnsupportedSemihosting { operation } => write!(
                f,
                "unsupported semihosting call: operation a0 = {operation:#x}; see docs/isa.md for the calls the emulator provides"
            ),
            FaultCause::UnknownHostService { number } => write!(
                f,
                "unknown host service: ecall with a7 = {number} ({number:#x}); see docs/isa.md for the services"
            ),
            FaultCause::UnknownCsr { csr } => {
                write!(f, "illegal instruction: no CSR {}", csr_name(*csr))
            }
            FaultCause::ReadOnlyCsr { csr } => write!(
                f,
                "illegal instruction: write to the read-only CSR {}",
                csr_name(*csr)
            ),
            FaultCause::InvalidRoundingMode { frm } => write!(
                f,
                "illegal instruction: dynamic rounding mode while frm holds the reserved value {frm}"
            ),
            FaultCause::Messaging { mnemonic, reason } => write!(f, "`{mnemonic}`: {reason}"),
            FaultCause::Delivery { from, reason } => {
                write!(f, "message from node {from}: {reason}")
            }
        }
    }
}

/// A fault with where it happened: what `scmp run` reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultReport {
    /// Tile (node id).
    pub tile: u32,
    /// Hardware context.
    pub context: u32,
    /// Address of the faulting instruction.
    pub pc: u32,
    /// The pc's label (`<SCMPSendInt+0xc>`), when the program's symbols
    /// name it (set by the machine at the end of the run).
    pub symbol: Option<String>,
    /// Its callers, innermost first, each as the call's place
    /// (`<main+0x1c> (chain.c:14)`), from the program's unwind table (set
    /// by the machine at the end of the run; none without a table).
    pub callers: Vec<String>,
    /// Tile cycle at which it issued.
    pub cycle: u64,
    /// The instruction word, when it could be fetched.
    pub word: Option<u32>,
    /// What went wrong.
    pub cause: FaultCause,
    /// The last trace lines of the faulting context, oldest first.
    pub last_trace: Vec<String>,
}

impl FaultReport {
    /// What probably went wrong, where the cause alone does not say: a
    /// zero word (the thread ran past the end of its code, or jumped into
    /// data).
    pub fn hint(&self) -> Option<&'static str> {
        match self.cause {
            FaultCause::IllegalInstruction { word: 0 } => Some(
                "the word is zero: the thread ran past the end of its code (or jumped into zeroed memory); end a thread with `endt`, the program with `exit` (ecall 93), and check jump targets",
            ),
            _ => None,
        }
    }

    /// The instruction, disassembled (or why it cannot be).
    pub fn disassembly(&self) -> String {
        match self.word {
            Some(word) => match isa_spec::Inst::decode(word) {
                Some(inst) => inst.display(self.pc).to_string(),
                None => format!(".word {word:#010x}"),
            },
            None => "(not fetched)".to_string(),
        }
    }
}

impl fmt::Display for FaultReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.context == NIU_CONTEXT {
            writeln!(
                f,
                "guest fault on tile {}, in its NIU (cycle {})",
                self.tile, self.cycle
            )?;
            return writeln!(f, "  cause: {}", self.cause);
        }
        let symbol = self
            .symbol
            .as_ref()
            .map(|s| format!(" {s}"))
            .unwrap_or_default();
        writeln!(
            f,
            "guest fault on tile {} context {} at pc {:#010x}{symbol} (cycle {})",
            self.tile, self.context, self.pc, self.cycle
        )?;
        for caller in &self.callers {
            writeln!(f, "  called from {caller}")?;
        }
        match self.word {
            Some(word) => writeln!(f, "  instruction: {word:08x}  {}", self.disassembly())?,
            None => writeln!(f, "  instruction: (not fetched)")?,
        }
        writeln!(f, "  cause: {}", self.cause)?;
        if let Some(hint) = self.hint() {
            writeln!(f, "  hint: {hint}")?;
        }
        if !self.last_trace.is_empty() {
            writeln!(f, "  last instructions of this context:")?;
            for line in &self.last_trace {
                writeln!(f, "    {line}")?;
            }
        }
        Ok(())
    }
}
