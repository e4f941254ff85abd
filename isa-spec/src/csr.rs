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
/// The standard CSR names GNU as 2.40 knows (the privileged architecture's
/// user, supervisor, hypervisor, machine and debug CSRs), with their
/// numbers: the assembler accepts them by name as GNU does. The machine has
/// only [`CSRS`]; an instruction that names another one faults when it
/// runs. Listed from GNU objdump's disassembly of every CSR number.
#[rustfmt::skip]
pub const STANDARD_CSR_NAMES: &[(u16, &str)] = &[
    (0x000, "ustatus"), (0x001, "fflags"), (0x002, "frm"), (0x003, "fcsr"), (0x004, "uie"),
    (0x005, "utvec"), (0x008, "vstart"), (0x009, "vxsat"), (0x00a, "vxrm"), (0x00f, "vcsr"),
    (0x015, "seed"), (0x040, "uscratch"), (0x041, "uepc"), (0x042, "ucause"), (0x043, "utval"),
    (0x044, "uip"), (0x100, "sstatus"), (0x102, "sedeleg"), (0x103, "sideleg"), (0x104, "sie"),
    (0x105, "stvec"), (0x106, "scounteren"), (0x10c, "sstateen0"), (0x10d, "sstateen1"),
    (0x10e, "sstateen2"), (0x10f, "sstateen3"), (0x114, "sieh"), (0x140, "sscratch"),
    (0x141, "sepc"), (0x142, "scause"), (0x143, "stval"), (0x144, "sip"), (0x14d, "stimecmp"),
    (0x150, "siselect"), (0x151, "sireg"), (0x154, "siph"), (0x15c, "stopei"),
    (0x15d, "stimecmph"), (0x180, "satp"), (0x200, "vsstatus"), (0x204, "vsie"),
    (0x205, "vstvec"), (0x214, "vsieh"), (0x240, "vsscratch"), (0x241, "vsepc"),
    (0x242, "vscause"), (0x243, "vstval"), (0x244, "vsip"), (0x24d, "vstimecmp"),
    (0x250, "vsiselect"), (0x251, "vsireg"), (0x254, "vsiph"), (0x25c, "vstopei"),
    (0x25d, "vstimecmph"), (0x280, "vsatp"), (0x300, "mstatus"), (0x301, "misa"),
    (0x302, "medeleg"), (0x303, "mideleg"), (0x304, "mie"), (0x305, "mtvec"),
    (0x306, "mcounteren"), (0x308, "mvien"), (0x309, "mvip"), (0x30c, "mstateen0"),
    (0x30d, "mstateen1"), (0x30e, "mstateen2"), (0x30f, "mstateen3"), (0x313, "midelegh"),
    (0x314, "mieh"), (0x318, "mvienh"), (0x319, "mviph"), (0x31c, "mstateen0h"),
    (0x31d, "mstateen1h"), (0x31e, "mstateen2h"), (0x31f, "mstateen3h"),
    (0x320, "mcountinhibit"), (0x323, "mhpmevent3"), (0x324, "mhpmevent4"),
    (0x325, "mhpmevent5"), (0x326, "mhpmevent6"), (0x327, "mhpmevent7"), (0x328, "mhpmevent8"),
    (0x329, "mhpmevent9"), (0x32a, "mhpmevent10"), (0x32b, "mhpmevent11"),
    (0x32c, "mhpmevent12"), (0x32d, "mhpmevent13"), (0x32e, "mhpmevent14"),
    (0x32f, "mhpmevent15"), (0x330, "mhpmevent16"), (0x331, "mhpmevent17"),
    (0x332, "mhpmevent18"), (0x333, "mhpmevent19"), (0x334, "mhpmevent20"),
    (0x335, "mhpmevent21"), (0x336, "mhpmevent22"), (0x337, "mhpmevent23"),
    (0x338, "mhpmevent24"), (0x339, "mhpmevent25"), (0x33a, "mhpmevent26"),
    (0x33b, "mhpmevent27"), (0x33c, "mhpmevent28"), (0x33d, "mhpmevent29"),
    (0x33e, "mhpmevent30"), (0x33f, "mhpmevent31"), (0x340, "mscratch"), (0x341, "mepc"),
    (0x342, "mcause"), (0x343, "mtval"), (0x344, "mip"), (0x350, "miselect"), (0x351, "mireg"),
    (0x354, "miph"), (0x35c, "mtopei"), (0x3a0, "pmpcfg0"), (0x3a1, "pmpcfg1"),
    (0x3a2, "pmpcfg2"), (0x3a3, "pmpcfg3"), (0x3b0, "pmpaddr0"), (0x3b1, "pmpaddr1"),
    (0x3b2, "pmpaddr2"), (0x3b3, "pmpaddr3"), (0x3b4, "pmpaddr4"), (0x3b5, "pmpaddr5"),
    (0x3b6, "pmpaddr6"), (0x3b7, "pmpaddr7"), (0x3b8, "pmpaddr8"), (0x3b9, "pmpaddr9"),
    (0x3ba, "pmpaddr10"), (0x3bb, "pmpaddr11"), (0x3bc, "pmpaddr12"), (0x3bd, "pmpaddr13"),
    (0x3be, "pmpaddr14"), (0x3bf, "pmpaddr15"), (0x5a8, "scontext"), (0x600, "hstatus"),
    (0x602, "hedeleg"), (0x603, "hideleg"), (0x604, "hie"), (0x605, "htimedelta"),
    (0x606, "hcounteren"), (0x607, "hgeie"), (0x608, "hvien"), (0x609, "hvictl"),
    (0x60a, "henvcfg"), (0x60c, "hstateen0"), (0x60d, "hstateen1"), (0x60e, "hstateen2"),
    (0x60f, "hstateen3"), (0x613, "hidelegh"), (0x615, "htimedeltah"), (0x618, "hvienh"),
    (0x61a, "henvcfgh"), (0x61c, "hstateen0h"), (0x61d, "hstateen1h"), (0x61e, "hstateen2h"),
    (0x61f, "hstateen3h"), (0x643, "htval"), (0x644, "hip"), (0x645, "hvip"),
    (0x646, "hviprio1"), (0x647, "hviprio2"), (0x64a, "htinst"), (0x655, "hviph"),
    (0x656, "hviprio1h"), (0x657, "hviprio2h"), (0x680, "hgatp"), (0x6a8, "hcontext"),
    (0x723, "mhpmevent3h"), (0x724, "mhpmevent4h"), (0x725, "mhpmevent5h"),
    (0x726, "mhpmevent6h"), (0x727, "mhpmevent7h"), (0x728, "mhpmevent8h"),
    (0x729, "mhpmevent9h"), (0x72a, "mhpmevent10h"), (0x72b, "mhpmevent11h"),
    (0x72c, "mhpmevent12h"), (0x72d, "mhpmevent13h"), (0x72e, "mhpmevent14h"),
    (0x72f, "mhpmevent15h"), (0x730, "mhpmevent16h"), (0x731, "mhpmevent17h"),
    (0x732, "mhpmevent18h"), (0x733, "mhpmevent19h"), (0x734, "mhpmevent20h"),
    (0x735, "mhpmevent21h"), (0x736, "mhpmevent22h"), (0x737, "mhpmevent23h"),
    (0x738, "mhpmevent24h"), (0x739, "mhpmevent25h"), (0x73a, "mhpmevent26h"),
    (0x73b, "mhpmevent27h"), (0x73c, "mhpmevent28h"), (0x73d, "mhpmevent29h"),
    (0x73e, "mhpmevent30h"), (0x73f, "mhpmevent31h"), (0x7a0, "tselect"), (0x7a1, "tdata1"),
    (0x7a2, "tdata2"), (0x7a3, "tdata3"), (0x7a4, "tinfo"), (0x7a5, "tcontrol"),
    (0x7a8, "mcontext"), (0x7aa, "mscontext"), (0x7b0, "dcsr"), (0x7b1, "dpc"),
    (0x7b2, "dscratch0"), (0x7b3, "dscratch1"), (0xb00, "mcycle"), (0xb02, "minstret"),
    (0xb03, "mhpmcounter3"), (0xb04, "mhpmcounter4"), (0xb05, "mhpmcounter5"),
    (0xb06, "mhpmcounter6"), (0xb07, "mhpmcounter7"), (0xb08, "mhpmcounter8"),
    (0xb09, "mhpmcounter9"), (0xb0a, "mhpmcounter10"), (0xb0b, "mhpmcounter11"),
    (0xb0c, "mhpmcounter12"), (0xb0d, "mhpmcounter13"), (0xb0e, "mhpmcounter14"),
    (0xb0f, "mhpmcounter15"), (0xb10, "mhpmcounter16"), (0xb11, "mhpmcounter17"),
    (0xb12, "mhpmcounter18"), (0xb13, "mhpmcounter19"), (0xb14, "mhpmcounter20"),
    (0xb15, "mhpmcounter21"), (0xb16, "mhpmcounter22"), (0xb17, "mhpmcounter23"),
    (0xb18, "mhpmcounter24"), (0xb19, "mhpmcounter25"), (0xb1a, "mhpmcounter26"),
    (0xb1b, "mhpmcounter27"), (0xb1c, "mhpmcounter28"), (0xb1d, "mhpmcounter29"),
    (0xb1e, "mhpmcounter30"), (0xb1f, "mhpmcounter31"), (0xb80, "mcycleh"),
    (0xb82, "minstreth"), (0xb83, "mhpmcounter3h"), (0xb84, "mhpmcounter4h"),
    (0xb85, "mhpmcounter5h"), (0xb86, "mhpmcounter6h"), (0xb87, "mhpmcounter7h"),
    (0xb88, "mhpmcounter8h"), (0xb89, "mhpmcounter9h"), (0xb8a, "mhpmcounter10h"),
    (0xb8b, "mhpmcounter11h"), (0xb8c, "mhpmcounter12h"), (0xb8d, "mhpmcounter13h"),
    (0xb8e, "mhpmcounter14h"), (0xb8f, "mhpmcounter15h"), (0xb90, "mhpmcounter16h"),
    (0xb91, "mhpmcounter17h"), (0xb92, "mhpmcounter18h"), (0xb93, "mhpmcounter19h"),
    (0xb94, "mhpmcounter20h"), (0xb95, "mhpmcounter21h"), (0xb96, "mhpmcounter22h"),
    (0xb97, "mhpmcounter23h"), (0xb98, "mhpmcounter24h"), (0xb99, "mhpmcounter25h"),
    (0xb9a, "mhpmcounter26h"), (0xb9b, "mhpmcounter27h"), (0xb9c, "mhpmcounter28h"),
    (0xb9d, "mhpmcounter29h"), (0xb9e, "mhpmcounter30h"), (0xb9f, "mhpmcounter31h"),
    (0xc00, "cycle"), (0xc01, "time"), (0xc02, "instret"), (0xc03, "hpmcounter3"),
    (0xc04, "hpmcounter4"), (0xc05, "hpmcounter5"), (0xc06, "hpmcounter6"),
    (0xc07, "hpmcounter7"), (0xc08, "hpmcounter8"), (0xc09, "hpmcounter9"),
    (0xc0a, "hpmcounter10"), (0xc0b, "hpmcounter11"), (0xc0c, "hpmcounter12"),
    (0xc0d, "hpmcounter13"), (0xc0e, "hpmcounter14"), (0xc0f, "hpmcounter15"),
    (0xc10, "hpmcounter16"), (0xc11, "hpmcounter17"), (0xc12, "hpmcounter18"),
    (0xc13, "hpmcounter19"), (0xc14, "hpmcounter20"), (0xc15, "hpmcounter21"),
    (0xc16, "hpmcounter22"), (0xc17, "hpmcounter23"), (0xc18, "hpmcounter24"),
    (0xc19, "hpmcounter25"), (0xc1a, "hpmcounter26"), (0xc1b, "hpmcounter27"),
    (0xc1c, "hpmcounter28"), (0xc1d, "hpmcounter29"), (0xc1e, "hpmcounter30"),
    (0xc1f, "hpmcounter31"), (0xc20, "vl"), (0xc21, "vtype"), (0xc22, "vlenb"),
    (0xc80, "cycleh"), (0xc81, "timeh"), (0xc82, "instreth"), (0xc83, "hpmcounter3h"),
    (0xc84, "hpmcounter4h"), (0xc85, "hpmcounter5h"), (0xc86, "hpmcounter6h"),
    (0xc87, "hpmcounter7h"), (0xc88, "hpmcounter8h"), (0xc89, "hpmcounter9h"),
    (0xc8a, "hpmcounter10h"), (0xc8b, "hpmcounter11h"), (0xc8c, "hpmcounter12h"),
    (0xc8d, "hpmcounter13h"), (0xc8e, "hpmcounter14h"), (0xc8f, "hpmcounter15h"),
    (0xc90, "hpmcounter16h"), (0xc91, "hpmcounter17h"), (0xc92, "hpmcounter18h"),
    (0xc93, "hpmcounter19h"), (0xc94, "hpmcounter20h"), (0xc95, "hpmcounter21h"),
    (0xc96, "hpmcounter22h"), (0xc97, "hpmcounter23h"), (0xc98, "hpmcounter24h"),
    (0xc99, "hpmcounter25h"), (0xc9a, "hpmcounter26h"), (0xc9b, "hpmcounter27h"),
    (0xc9c, "hpmcounter28h"), (0xc9d, "hpmcounter29h"), (0xc9e, "hpmcounter30h"),
    (0xc9f, "hpmcounter31h"), (0xda0, "scountovf"), (0xdb0, "stopi"), (0xe12, "hgeip"),
    (0xeb0, "vstopi"), (0xf11, "mvendorid"), (0xf12, "marchid"), (0xf13, "mimpid"),
    (0xf14, "mhartid"), (0xfb0, "mtopi"),
];

/// Older names GNU as 2.40 still takes for standard CSRs.
const OLD_CSR_NAMES: &[(&str, &str)] = &[
    ("ubadaddr", "utval"),
    ("sbadaddr", "stval"),
    ("mbadaddr", "mtval"),
    ("sptbr", "satp"),
    ("mucounteren", "mcountinhibit"),
    ("dscratch", "dscratch0"),
];

/// A CSR number by a standard name or an older one (see
/// [`STANDARD_CSR_NAMES`]).
pub fn standard_csr_number(name: &str) -> Option<u16> {
    let name = OLD_CSR_NAMES
        .iter()
        .find(|(old, _)| *old == name)
        .map_or(name, |(_, new)| new);
    STANDARD_CSR_NAMES
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(k, _)| *k)
}

#[cfg(test)]
mod standard_names {
    use super::*;

    /// The machine's CSRs that also have a standard name are numbered as
    /// GNU's list numbers them (two lists of one fact must agree), and the
    /// assembler's lookup finds each machine CSR through either.
    #[test]
    fn machine_csrs_agree_with_the_standard_names() {
        for c in CSRS {
            if let Some(&(number, _)) = STANDARD_CSR_NAMES.iter().find(|(_, n)| *n == c.name) {
                assert_eq!(number, c.number, "{}", c.name);
            }
        }
        assert_eq!(standard_csr_number("fcsr"), Some(0x003));
        assert_eq!(standard_csr_number("cycle"), Some(0xc00));
    }
}
