//! Host services reached by `ecall`: the service number is in `a7`.
//!
//! Services that Linux has use the Linux RISC-V numbers, so that a program
//! using only them runs unchanged under `qemu-riscv32`. The SCMP services use
//! numbers from [`SCMP_BASE`] up, which Linux does not assign.

/// First number of the SCMP-specific services.
pub const SCMP_BASE: u32 = 0x5c00;

/// A host service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostService {
    /// `read(fd = a0, buf = a1, len = a2)`: fd 0 is the run's standard input; returns the bytes read in a0 (0 at its end).
    Read,
    /// `write(fd = a0, buf = a1, len = a2)`: fd 1 is stdout, 2 stderr; returns the length in a0.
    Write,
    /// `exit(code = a0)`: ends the whole run with that exit code.
    Exit,
    /// `exit_group(code = a0)`: as exit.
    ExitGroup,
    /// Prints a0 as a signed decimal integer.
    PrintInt,
    /// Prints a0 as `0x` and 8 hex digits.
    PrintHex,
    /// Prints the low byte of a0 as a character.
    PrintChar,
    /// Prints the NUL-terminated string at a0.
    PrintString,
    /// Prints fa0 (a double) with Rust's shortest round-trip formatting.
    PrintDouble,
    /// Returns the tile's 64-bit cycle counter: low half in a0, high half in a1.
    ReadCycle,
}

/// One row of the service table.
#[derive(Debug)]
pub struct HostServiceSpec {
    /// The service.
    pub service: HostService,
    /// Number in `a7`.
    pub number: u32,
    /// Name, for documentation and traces.
    pub name: &'static str,
    /// Arguments and result.
    pub description: &'static str,
}

/// Every host service.
pub const HOST_SERVICES: &[HostServiceSpec] = &[
    HostServiceSpec {
        service: HostService::Read,
        number: 63,
        name: "read",
        description: "a0 = fd (0 stdin), a1 = buffer, a2 = length; returns a0 = bytes read (0 at the end of the input)",
    },
    HostServiceSpec {
        service: HostService::Write,
        number: 64,
        name: "write",
        description: "a0 = fd (1 stdout, 2 stderr), a1 = buffer, a2 = length; returns a0 = length",
    },
    HostServiceSpec {
        service: HostService::Exit,
        number: 93,
        name: "exit",
        description: "a0 = exit code; ends the run",
    },
    HostServiceSpec {
        service: HostService::ExitGroup,
        number: 94,
        name: "exit_group",
        description: "a0 = exit code; ends the run",
    },
    HostServiceSpec {
        service: HostService::PrintInt,
        number: SCMP_BASE,
        name: "print_int",
        description: "prints a0 as a signed decimal integer",
    },
    HostServiceSpec {
        service: HostService::PrintHex,
        number: SCMP_BASE + 1,
        name: "print_hex",
        description: "prints a0 as 0x and 8 hex digits",
    },
    HostServiceSpec {
        service: HostService::PrintChar,
        number: SCMP_BASE + 2,
        name: "print_char",
        description: "prints the low byte of a0",
    },
    HostServiceSpec {
        service: HostService::PrintString,
        number: SCMP_BASE + 3,
        name: "print_string",
        description: "prints the NUL-terminated string at a0",
    },
    HostServiceSpec {
        service: HostService::PrintDouble,
        number: SCMP_BASE + 4,
        name: "print_double",
        description: "prints the double in fa0 (shortest round-trip form)",
    },
    HostServiceSpec {
        service: HostService::ReadCycle,
        number: SCMP_BASE + 5,
        name: "read_cycle",
        description: "returns the tile cycle counter: a0 = low 32 bits, a1 = high 32 bits",
    },
];

impl HostService {
    /// The service with number `number`.
    pub fn from_number(number: u32) -> Option<HostService> {
        HOST_SERVICES
            .iter()
            .find(|s| s.number == number)
            .map(|s| s.service)
    }

    /// This service's table row.
    pub fn spec(self) -> &'static HostServiceSpec {
        HOST_SERVICES
            .iter()
            .find(|s| s.service == self)
            .expect("every service has a row")
    }
}
