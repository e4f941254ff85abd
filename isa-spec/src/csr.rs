//! Control and status registers: numbers, names, access.

/// Whether a program may write a CSR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsrAccess {
    /// Readable and writable.
    ReadWrite,
    /// Read-only: writing it is an illegal instruction.
    ReadOnly,
}

/// One CSR.
#[derive(Debug)]
pub struct CsrSpec {
    /// CSR number.
    pub number: u16,
    /// Assembly name.
    pub name: &'static str,
    /// Access.
    pub access: CsrAccess,
    /// What it holds.
    pub description: &'static str,
}

/// `fflags`: accrued floating-point exception flags.
pub const FFLAGS: u16 = 0x001;
/// `frm`: dynamic rounding mode.
pub const FRM: u16 = 0x002;
/// `fcsr`: `frm << 5 | fflags`.
pub const FCSR: u16 = 0x003;
/// `mstatus`: kept for C runtimes that enable the FPU through it (picolibc's
/// `crt0`); a plain register with no effect (tiles have no privilege modes).
pub const MSTATUS: u16 = 0x300;
/// `mtvec`: kept for C runtimes that install a trap handler; never used (a
/// fault stops the run, it does not trap).
pub const MTVEC: u16 = 0x305;
/// `mepc`: a plain register (no trap ever sets it).
pub const MEPC: u16 = 0x341;
/// `mcause`: a plain register (no trap ever sets it).
pub const MCAUSE: u16 = 0x342;
/// `mtval`: a plain register (no trap ever sets it).
pub const MTVAL: u16 = 0x343;
/// The machine-mode CSRs a C runtime touches, in the order a context keeps them.
pub const MACHINE_CSRS: [u16; 5] = [MSTATUS, MTVEC, MEPC, MCAUSE, MTVAL];
/// `cycle`: low 32 bits of the tile's cycle counter.
pub const CYCLE: u16 = 0xc00;
/// `time`: same as `cycle` (one tick per cycle).
pub const TIME: u16 = 0xc01;
/// `instret`: low 32 bits of the instructions retired by this context.
pub const INSTRET: u16 = 0xc02;
/// `cycleh`: high 32 bits of the cycle counter.
pub const CYCLEH: u16 = 0xc80;
/// `timeh`: high 32 bits of `time`.
pub const TIMEH: u16 = 0xc81;
/// `instreth`: high 32 bits of `instret`.
pub const INSTRETH: u16 = 0xc82;
/// `nodeid`: this tile's node id, `y * width + x`.
pub const NODEID: u16 = 0xcc0;
/// `ctxid`: this thread's hardware context number.
pub const CTXID: u16 = 0xcc1;
/// `meshw`: mesh width in tiles.
pub const MESHW: u16 = 0xcc2;
/// `meshh`: mesh height in tiles.
pub const MESHH: u16 = 0xcc3;
/// `ntiles`: number of tiles.
pub const NTILES: u16 = 0xcc4;
/// `nctx`: hardware thread contexts per tile.
pub const NCTX: u16 = 0xcc5;

/// Every CSR the machine has.
pub const CSRS: &[CsrSpec] = &[
    CsrSpec {
        number: FFLAGS,
        name: "fflags",
        access: CsrAccess::ReadWrite,
        description: "accrued FP exception flags NV DZ OF UF NX (bits 4..0)",
    },
    CsrSpec {
        number: FRM,
        name: "frm",
        access: CsrAccess::ReadWrite,
        description: "dynamic FP rounding mode",
    },
    CsrSpec {
        number: FCSR,
        name: "fcsr",
        access: CsrAccess::ReadWrite,
        description: "frm << 5 | fflags",
    },
    CsrSpec {
        number: MSTATUS,
        name: "mstatus",
        access: CsrAccess::ReadWrite,
        description: "for C runtimes: holds what is written, no effect (FP is always on; no privilege modes)",
    },
    CsrSpec {
        number: MTVEC,
        name: "mtvec",
        access: CsrAccess::ReadWrite,
        description: "for C runtimes: holds what is written, never used (a fault stops the run)",
    },
    CsrSpec {
        number: MEPC,
        name: "mepc",
        access: CsrAccess::ReadWrite,
        description: "for C runtimes: holds what is written (no trap sets it)",
    },
    CsrSpec {
        number: MCAUSE,
        name: "mcause",
        access: CsrAccess::ReadWrite,
        description: "for C runtimes: holds what is written (no trap sets it)",
    },
    CsrSpec {
        number: MTVAL,
        name: "mtval",
        access: CsrAccess::ReadWrite,
        description: "for C runtimes: holds what is written (no trap sets it)",
    },
    CsrSpec {
        number: CYCLE,
        name: "cycle",
        access: CsrAccess::ReadOnly,
        description: "tile cycle counter, low 32 bits",
    },
    CsrSpec {
        number: TIME,
        name: "time",
        access: CsrAccess::ReadOnly,
        description: "same as cycle, low 32 bits",
    },
    CsrSpec {
        number: INSTRET,
        name: "instret",
        access: CsrAccess::ReadOnly,
        description: "instructions retired by this context, low 32 bits",
    },
    CsrSpec {
        number: CYCLEH,
        name: "cycleh",
        access: CsrAccess::ReadOnly,
        description: "tile cycle counter, high 32 bits",
    },
    CsrSpec {
        number: TIMEH,
        name: "timeh",
        access: CsrAccess::ReadOnly,
        description: "same as cycleh",
    },
    CsrSpec {
        number: INSTRETH,
        name: "instreth",
        access: CsrAccess::ReadOnly,
        description: "instructions retired by this context, high 32 bits",
    },
    CsrSpec {
        number: NODEID,
        name: "nodeid",
        access: CsrAccess::ReadOnly,
        description: "SCMP: this tile's node id, y * meshw + x",
    },
    CsrSpec {
        number: CTXID,
        name: "ctxid",
        access: CsrAccess::ReadOnly,
        description: "SCMP: this thread's context number on its tile",
    },
    CsrSpec {
        number: MESHW,
        name: "meshw",
        access: CsrAccess::ReadOnly,
        description: "SCMP: mesh width in tiles",
    },
    CsrSpec {
        number: MESHH,
        name: "meshh",
        access: CsrAccess::ReadOnly,
        description: "SCMP: mesh height in tiles",
    },
    CsrSpec {
        number: NTILES,
        name: "ntiles",
        access: CsrAccess::ReadOnly,
        description: "SCMP: number of tiles, meshw * meshh",
    },
    CsrSpec {
        number: NCTX,
        name: "nctx",
        access: CsrAccess::ReadOnly,
        description: "SCMP: hardware thread contexts per tile",
    },
];

/// The CSR named `name`.
pub fn csr_by_name(name: &str) -> Option<&'static CsrSpec> {
    CSRS.iter().find(|c| c.name == name)
}

/// The CSR numbered `number`.
pub fn csr_by_number(number: u16) -> Option<&'static CsrSpec> {
    CSRS.iter().find(|c| c.number == number)
}
