//! Bit fields of an instruction word and the operands they make up.
//!
//! A [`Field`] is a set of bits of the 32-bit word with a value range; an
//! [`Operand`] is what the assembly syntax shows (a register, an immediate, a
//! memory reference `imm(rs1)`, a rounding mode ...) and is made of one or more
//! fields. Every field is stored in one slot of [`crate::Inst`].

use crate::RoundingMode;

/// A group of bits of an instruction word that carries one operand value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// Destination register, bits 11:7.
    Rd,
    /// First source register, bits 19:15.
    Rs1,
    /// Second source register, bits 24:20.
    Rs2,
    /// Third source register (R4 layout), bits 31:27.
    Rs3,
    /// 12-bit signed immediate of the I layout, bits 31:20.
    ImmI,
    /// 12-bit signed immediate of the S layout, bits 31:25 and 11:7.
    ImmS,
    /// 13-bit signed, even branch offset of the B layout.
    ImmB,
    /// 20-bit upper immediate of the U layout, bits 31:12 (stored unshifted).
    ImmU,
    /// 21-bit signed, even jump offset of the J layout.
    ImmJ,
    /// 5-bit shift amount, bits 24:20.
    Shamt,
    /// 12-bit CSR number, bits 31:20.
    Csr,
    /// 5-bit unsigned immediate of the CSR*I instructions, bits 19:15.
    Uimm5,
    /// Floating-point rounding mode, bits 14:12.
    Rm,
    /// Acquire and release bits of the atomics, bits 26:25 (aq = 2, rl = 1).
    AqRl,
    /// Predecessor and successor sets of `fence`, bits 27:20 (pred << 4 | succ).
    FenceSets,
    /// SCMP message type of a two-register `sendh`, bits 26:25.
    SendType,
}

/// Which slot of [`crate::Inst`] holds a field's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `Inst::rd`
    Rd,
    /// `Inst::rs1`
    Rs1,
    /// `Inst::rs2`
    Rs2,
    /// `Inst::rs3`
    Rs3,
    /// `Inst::aux`
    Aux,
    /// `Inst::imm`
    Imm,
}

/// Why a value does not fit a field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeError {
    /// Smallest accepted value.
    pub min: i64,
    /// Largest accepted value.
    pub max: i64,
    /// The value must be a multiple of this.
    pub align: i64,
}

impl std::fmt::Display for RangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.align > 1 {
            write!(
                f,
                "the value must be a multiple of {} in {}..={}",
                self.align, self.min, self.max
            )
        } else {
            write!(f, "the value must be in {}..={}", self.min, self.max)
        }
    }
}

const fn bits(word: u32, hi: u32, lo: u32) -> u32 {
    (word >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

const fn sext(value: u32, width: u32) -> i32 {
    let shift = 32 - width;
    ((value << shift) as i32) >> shift
}

impl Field {
    /// Every field, for table checks and documentation.
    pub const ALL: [Field; 16] = [
        Field::Rd,
        Field::Rs1,
        Field::Rs2,
        Field::Rs3,
        Field::ImmI,
        Field::ImmS,
        Field::ImmB,
        Field::ImmU,
        Field::ImmJ,
        Field::Shamt,
        Field::Csr,
        Field::Uimm5,
        Field::Rm,
        Field::AqRl,
        Field::FenceSets,
        Field::SendType,
    ];

    /// The bits of the instruction word this field occupies.
    pub const fn mask(self) -> u32 {
        match self {
            Field::Rd => 0x0000_0f80,
            Field::Rs1 | Field::Uimm5 => 0x000f_8000,
            Field::Rs2 | Field::Shamt => 0x01f0_0000,
            Field::Rs3 => 0xf800_0000,
            Field::ImmI | Field::Csr => 0xfff0_0000,
            Field::ImmS | Field::ImmB => 0xfe00_0f80,
            Field::ImmU | Field::ImmJ => 0xffff_f000,
            Field::Rm => 0x0000_7000,
            Field::AqRl | Field::SendType => 0x0600_0000,
            Field::FenceSets => 0x0ff0_0000,
        }
    }

    /// The slot of [`crate::Inst`] that holds this field's value.
    pub const fn slot(self) -> Slot {
        match self {
            Field::Rd => Slot::Rd,
            Field::Rs1 | Field::Uimm5 => Slot::Rs1,
            Field::Rs2 => Slot::Rs2,
            Field::Rs3 => Slot::Rs3,
            Field::Rm | Field::AqRl | Field::SendType => Slot::Aux,
            Field::ImmI
            | Field::ImmS
            | Field::ImmB
            | Field::ImmU
            | Field::ImmJ
            | Field::Shamt
            | Field::Csr
            | Field::FenceSets => Slot::Imm,
        }
    }

    /// Range and alignment of the values the field holds.
    pub const fn range(self) -> RangeError {
        let (min, max, align) = match self {
            Field::Rd | Field::Rs1 | Field::Rs2 | Field::Rs3 | Field::Shamt | Field::Uimm5 => {
                (0, 31, 1)
            }
            Field::ImmI | Field::ImmS => (-2048, 2047, 1),
            Field::ImmB => (-4096, 4094, 2),
            Field::ImmU => (0, 0xf_ffff, 1),
            Field::ImmJ => (-(1 << 20), (1 << 20) - 2, 2),
            Field::Csr => (0, 0xfff, 1),
            Field::Rm => (0, 7, 1),
            Field::AqRl | Field::SendType => (0, 3, 1),
            Field::FenceSets => (0, 0xff, 1),
        };
        RangeError { min, max, align }
    }

    /// Whether `value` is a value this field can hold (range, alignment, and
    /// no reserved encodings).
    pub fn check(self, value: i64) -> Result<(), RangeError> {
        let r = self.range();
        let reserved = match self {
            Field::Rm => RoundingMode::from_bits(value as u8).is_none(),
            Field::SendType => crate::SendType::from_bits(value as u8).is_none(),
            _ => false,
        };
        if value < r.min || value > r.max || value % r.align != 0 || reserved {
            Err(r)
        } else {
            Ok(())
        }
    }

    /// Places `value` (already checked) into the field's bits.
    pub const fn insert(self, value: i32) -> u32 {
        let v = value as u32;
        match self {
            Field::Rd => (v & 0x1f) << 7,
            Field::Rs1 | Field::Uimm5 => (v & 0x1f) << 15,
            Field::Rs2 | Field::Shamt => (v & 0x1f) << 20,
            Field::Rs3 => (v & 0x1f) << 27,
            Field::ImmI | Field::Csr => (v & 0xfff) << 20,
            Field::ImmS => ((v & 0xfe0) << 20) | ((v & 0x1f) << 7),
            Field::ImmB => {
                ((v & 0x1000) << 19) | ((v & 0x7e0) << 20) | ((v & 0x1e) << 7) | ((v & 0x800) >> 4)
            }
            Field::ImmU => (v & 0xf_ffff) << 12,
            Field::ImmJ => {
                ((v & 0x10_0000) << 11) | ((v & 0x7fe) << 20) | ((v & 0x800) << 9) | (v & 0xf_f000)
            }
            Field::Rm => (v & 7) << 12,
            Field::AqRl | Field::SendType => (v & 3) << 25,
            Field::FenceSets => (v & 0xff) << 20,
        }
    }

    /// Reads the field's value out of an instruction word.
    pub const fn extract(self, word: u32) -> i32 {
        match self {
            Field::Rd => bits(word, 11, 7) as i32,
            Field::Rs1 | Field::Uimm5 => bits(word, 19, 15) as i32,
            Field::Rs2 | Field::Shamt => bits(word, 24, 20) as i32,
            Field::Rs3 => bits(word, 31, 27) as i32,
            Field::ImmI => sext(bits(word, 31, 20), 12),
            Field::Csr => bits(word, 31, 20) as i32,
            Field::ImmS => sext((bits(word, 31, 25) << 5) | bits(word, 11, 7), 12),
            Field::ImmB => sext(
                (bits(word, 31, 31) << 12)
                    | (bits(word, 7, 7) << 11)
                    | (bits(word, 30, 25) << 5)
                    | (bits(word, 11, 8) << 1),
                13,
            ),
            Field::ImmU => bits(word, 31, 12) as i32,
            Field::ImmJ => sext(
                (bits(word, 31, 31) << 20)
                    | (bits(word, 19, 12) << 12)
                    | (bits(word, 20, 20) << 11)
                    | (bits(word, 30, 21) << 1),
                21,
            ),
            Field::Rm => bits(word, 14, 12) as i32,
            Field::AqRl | Field::SendType => bits(word, 26, 25) as i32,
            Field::FenceSets => bits(word, 27, 20) as i32,
        }
    }
}

/// Register file an operand names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegClass {
    /// Integer registers `x0..x31`.
    X,
    /// Floating-point registers `f0..f31`.
    F,
}

/// One operand as the assembly syntax shows it, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// Integer destination register.
    Xd,
    /// Integer source register 1.
    Xs1,
    /// Integer source register 2.
    Xs2,
    /// Integer source register 3 (R4 layout).
    Xs3,
    /// Floating-point destination register.
    Fd,
    /// Floating-point source register 1.
    Fs1,
    /// Floating-point source register 2.
    Fs2,
    /// Floating-point source register 3.
    Fs3,
    /// Signed 12-bit immediate.
    ImmI,
    /// Upper immediate `0..=0xfffff`.
    ImmU,
    /// Shift amount `0..=31`.
    Shamt,
    /// Branch target address (encoded pc-relative).
    Branch,
    /// Jump target address (encoded pc-relative).
    Jump,
    /// CSR, by name or number.
    Csr,
    /// 5-bit unsigned immediate of the CSR*I instructions.
    Uimm5,
    /// `imm(rs1)` of loads and `jalr`.
    LoadMem,
    /// `imm(rs1)` of stores.
    StoreMem,
    /// `(rs1)` of the atomics (an offset, if written, must be 0).
    AmoMem,
    /// Optional trailing rounding mode with the default it takes when omitted.
    Rm(RoundingMode),
    /// Optional `pred, succ` sets of `fence` (default `iorw, iorw`).
    Fence,
    /// `.aq` / `.rl` / `.aqrl` suffix of the mnemonic.
    AqRl,
    /// SCMP message type keyword of a two-register `sendh`: `thread`, `ready`, `rdv`.
    SendType,
    /// A fixed keyword the syntax requires (it has no bits of its own).
    Keyword(&'static str),
    /// An address written as an expression, not a register: the target of the
    /// pc-relative pseudo-instructions (`la`, `call`, `lw rd, symbol`).
    Symbol,
    /// Any 32-bit value: the operand of `li`.
    Imm32,
}

impl Operand {
    /// The fields this operand is made of.
    pub const fn fields(self) -> &'static [Field] {
        match self {
            Operand::Xd | Operand::Fd => &[Field::Rd],
            Operand::Xs1 | Operand::Fs1 => &[Field::Rs1],
            Operand::Xs2 | Operand::Fs2 => &[Field::Rs2],
            Operand::Xs3 | Operand::Fs3 => &[Field::Rs3],
            Operand::ImmI => &[Field::ImmI],
            Operand::ImmU => &[Field::ImmU],
            Operand::Shamt => &[Field::Shamt],
            Operand::Branch => &[Field::ImmB],
            Operand::Jump => &[Field::ImmJ],
            Operand::Csr => &[Field::Csr],
            Operand::Uimm5 => &[Field::Uimm5],
            Operand::LoadMem => &[Field::ImmI, Field::Rs1],
            Operand::StoreMem => &[Field::ImmS, Field::Rs1],
            Operand::AmoMem => &[Field::Rs1],
            Operand::Rm(_) => &[Field::Rm],
            Operand::Fence => &[Field::FenceSets],
            Operand::AqRl => &[Field::AqRl],
            Operand::SendType => &[Field::SendType],
            Operand::Keyword(_) | Operand::Symbol | Operand::Imm32 => &[],
        }
    }

    /// The register class of a register operand.
    pub const fn reg_class(self) -> Option<RegClass> {
        match self {
            Operand::Xd | Operand::Xs1 | Operand::Xs2 | Operand::Xs3 => Some(RegClass::X),
            Operand::Fd | Operand::Fs1 | Operand::Fs2 | Operand::Fs3 => Some(RegClass::F),
            _ => None,
        }
    }

    /// Whether the operand may be left out of the written form.
    pub const fn is_optional(self) -> bool {
        matches!(self, Operand::Rm(_) | Operand::Fence | Operand::AqRl)
    }

    /// Whether the operand is written as part of the mnemonic rather than after it.
    pub const fn is_suffix(self) -> bool {
        matches!(self, Operand::AqRl)
    }

    /// How the operand is written in the reference documentation.
    pub const fn syntax(self) -> &'static str {
        match self {
            Operand::Xd | Operand::Fd => "rd",
            Operand::Xs1 | Operand::Fs1 => "rs1",
            Operand::Xs2 | Operand::Fs2 => "rs2",
            Operand::Xs3 | Operand::Fs3 => "rs3",
            Operand::ImmI => "imm12",
            Operand::ImmU => "imm20",
            Operand::Shamt => "shamt",
            Operand::Branch => "target",
            Operand::Jump => "target",
            Operand::Csr => "csr",
            Operand::Uimm5 => "uimm5",
            Operand::LoadMem | Operand::StoreMem => "imm12(rs1)",
            Operand::AmoMem => "(rs1)",
            Operand::Rm(_) => "[, rm]",
            Operand::Fence => "[pred, succ]",
            Operand::AqRl => "[.aq|.rl|.aqrl]",
            Operand::SendType => "thread|ready|rdv",
            Operand::Keyword(k) => k,
            Operand::Symbol => "symbol",
            Operand::Imm32 => "imm32",
        }
    }
}
