//! Register names: ABI names, x/f numbers, and the SCMP enumerations that the
//! assembly syntax writes as keywords (rounding modes, fence sets, send types).

/// ABI names of the integer registers, by number.
pub const X_ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

/// ABI names of the floating-point registers, by number.
pub const F_ABI: [&str; 32] = [
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
];

fn numbered(name: &str, prefix: char) -> Option<u8> {
    let digits = name.strip_prefix(prefix)?;
    if digits.is_empty() || digits.len() > 2 || (digits.len() == 2 && digits.starts_with('0')) {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    (n < 32).then_some(n)
}

/// Number of an integer register written as `xN`, an ABI name, or `fp`.
pub fn parse_xreg(name: &str) -> Option<u8> {
    if name == "fp" {
        return Some(8);
    }
    numbered(name, 'x').or_else(|| X_ABI.iter().position(|n| *n == name).map(|i| i as u8))
}

/// Number of a floating-point register written as `fN` or an ABI name.
pub fn parse_freg(name: &str) -> Option<u8> {
    numbered(name, 'f').or_else(|| F_ABI.iter().position(|n| *n == name).map(|i| i as u8))
}

/// Floating-point rounding mode (the `rm` field and `frm` CSR).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum RoundingMode {
    /// Round to nearest, ties to even.
    Rne = 0,
    /// Round towards zero.
    Rtz = 1,
    /// Round down (towards negative infinity).
    Rdn = 2,
    /// Round up (towards positive infinity).
    Rup = 3,
    /// Round to nearest, ties to max magnitude.
    Rmm = 4,
    /// Dynamic: use the `frm` CSR.
    Dyn = 7,
}

impl RoundingMode {
    /// Every mode with its assembly name.
    pub const NAMES: [(RoundingMode, &'static str); 6] = [
        (RoundingMode::Rne, "rne"),
        (RoundingMode::Rtz, "rtz"),
        (RoundingMode::Rdn, "rdn"),
        (RoundingMode::Rup, "rup"),
        (RoundingMode::Rmm, "rmm"),
        (RoundingMode::Dyn, "dyn"),
    ];

    /// The mode encoded by `bits`, `None` for the reserved values 5 and 6.
    pub fn from_bits(bits: u8) -> Option<RoundingMode> {
        Self::NAMES
            .iter()
            .map(|(m, _)| *m)
            .find(|m| *m as u8 == bits)
    }

    /// The mode written as `name`.
    pub fn from_name(name: &str) -> Option<RoundingMode> {
        Self::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(m, _)| *m)
    }

    /// Assembly name.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(m, _)| *m == self)
            .map(|(_, n)| *n)
            .unwrap_or("dyn")
    }
}

/// Parses a `fence` set written with the letters `i`, `o`, `r`, `w` in that
/// order (bits 8, 4, 2, 1), or `0` for the empty set.
pub fn parse_fence_set(text: &str) -> Option<u8> {
    if text == "0" {
        return Some(0);
    }
    let mut bits = 0u8;
    let mut last = 0usize;
    for c in text.chars() {
        let (order, bit) = match c {
            'i' => (1, 8),
            'o' => (2, 4),
            'r' => (3, 2),
            'w' => (4, 1),
            _ => return None,
        };
        if order <= last {
            return None;
        }
        last = order;
        bits |= bit;
    }
    (bits != 0).then_some(bits)
}

/// Writes a `fence` set as letters (`iorw`), or `0` when empty.
pub fn fence_set_name(bits: u8) -> String {
    let s: String = [(8, 'i'), (4, 'o'), (2, 'r'), (1, 'w')]
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, c)| *c)
        .collect();
    if s.is_empty() { "0".to_string() } else { s }
}

/// The message type chosen by a two-register `sendh`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SendType {
    /// Thread message: the second register is the handler address.
    Thread = 0,
    /// Send-and-receive data message in Ready mode: the second register is the message id.
    Ready = 1,
    /// Send-and-receive data message in Rendezvous mode: the second register is the message id.
    Rendezvous = 2,
}

impl SendType {
    /// Every send type with its assembly keyword.
    pub const NAMES: [(SendType, &'static str); 3] = [
        (SendType::Thread, "thread"),
        (SendType::Ready, "ready"),
        (SendType::Rendezvous, "rdv"),
    ];

    /// The type encoded by `bits`, `None` for the reserved value 3.
    pub fn from_bits(bits: u8) -> Option<SendType> {
        Self::NAMES
            .iter()
            .map(|(t, _)| *t)
            .find(|t| *t as u8 == bits)
    }

    /// The type written as `name`.
    pub fn from_name(name: &str) -> Option<SendType> {
        Self::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(t, _)| *t)
    }

    /// Assembly keyword.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(t, _)| *t == self)
            .map(|(_, n)| *n)
            .unwrap_or("thread")
    }
}
