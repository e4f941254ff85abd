//! The `Opcode` enum and `SPECS` table expanded from [`crate::for_each_instruction`],
//! the decoded instruction [`Inst`], and its encoder and decoder.

use std::sync::OnceLock;

use crate::field::{Field, Operand, RangeError, Slot};

/// Extension an instruction belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extension {
    /// RV32I base integer instructions.
    I,
    /// Integer multiply and divide.
    M,
    /// Atomics.
    A,
    /// Single-precision floating point.
    F,
    /// Double-precision floating point.
    D,
    /// Control and status register instructions.
    Zicsr,
    /// Instruction-fetch fence.
    Zifencei,
    /// The SCMP messaging and thread-control extension.
    Scmp,
}

impl Extension {
    /// Name as the reference documentation shows it.
    pub fn name(self) -> &'static str {
        match self {
            Extension::I => "RV32I",
            Extension::M => "RV32M",
            Extension::A => "RV32A",
            Extension::F => "RV32F",
            Extension::D => "RV32D",
            Extension::Zicsr => "Zicsr",
            Extension::Zifencei => "Zifencei",
            Extension::Scmp => "SCMP",
        }
    }
}

/// Calls `$callback! { rows }` with every timing class, one row each:
/// `Variant key "what it covers";`. The enum [`TimingClass`], its order
/// ([`TimingClass::ALL`]) and its configuration key ([`TimingClass::name`],
/// the `[timing]` key of the emulator's configuration) derive from it.
macro_rules! for_each_timing_class {
    ($callback:ident) => {
        $callback! {
            Alu    alu     "Integer ALU operation.";
            Load   load    "Load from local memory.";
            Store  store   "Store to local memory.";
            Branch branch  "Conditional branch (extra cycles when taken).";
            Jump   jump    "Unconditional jump.";
            Mul    mul     "Integer multiply.";
            Div    div     "Integer divide or remainder.";
            FpAdd  fp_add  "Floating-point add, subtract, convert.";
            FpMul  fp_mul  "Floating-point multiply and fused multiply-add.";
            FpDiv  fp_div  "Floating-point divide and square root.";
            FpMisc fp_misc "Floating-point compare, sign injection, min/max, move, classify.";
            Csr    csr     "CSR access.";
            System system  "Environment call or breakpoint.";
            Fence  fence   "Memory fence.";
            Atomic atomic  "Atomic memory operation.";
            Msg    msg     "Messaging instruction (handled by the NIU).";
            Thread thread  "Thread control (end, yield, wait).";
        }
    };
}

macro_rules! define_timing_classes {
    ($($variant:ident $key:ident $doc:literal;)*) => {
        /// Timing class of an instruction; the emulator's configuration gives
        /// each class its extra cycles beyond the one issue cycle.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum TimingClass {
            $(
                #[doc = $doc]
                $variant,
            )*
        }

        impl TimingClass {
            /// Every class, in documentation order (the order of
            /// `as usize`).
            pub const ALL: [TimingClass; [$(TimingClass::$variant),*].len()] =
                [$(TimingClass::$variant),*];

            /// Lower-case name, as used in configuration keys.
            pub fn name(self) -> &'static str {
                match self {
                    $(TimingClass::$variant => stringify!($key),)*
                }
            }
        }
    };
}

for_each_timing_class!(define_timing_classes);

impl TimingClass {
    /// The class whose [`name`](TimingClass::name) is `name`.
    pub fn from_name(name: &str) -> Option<TimingClass> {
        TimingClass::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Which part of a tile executes an instruction: the table's unit column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// The hart's pipeline: the integer, memory, atomic, CSR and FP
    /// instructions (the emulator's instruction semantics).
    Core,
    /// The network interface unit: the messaging instructions, and the
    /// waits on its send and receive tables.
    Niu,
    /// The tile's thread scheduler: ending a thread, yielding the pipeline.
    Thread,
    /// A host service: `ecall`, and `ebreak` (a semihosting call when framed
    /// by the semihosting words, else a breakpoint).
    Host,
}

impl Unit {
    /// Name as the reference documentation shows it.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Core => "core",
            Unit::Niu => "NIU",
            Unit::Thread => "thread",
            Unit::Host => "host",
        }
    }
}

/// One row of the instruction table.
#[derive(Debug)]
pub struct InstrSpec {
    /// The opcode this row defines.
    pub opcode: Opcode,
    /// Assembly mnemonic.
    pub mnemonic: &'static str,
    /// Extension the instruction belongs to.
    pub extension: Extension,
    /// Operands in assembly order.
    pub operands: &'static [Operand],
    /// Fixed bit ranges `(hi, lo, value)`.
    pub fixed: &'static [(u32, u32, u32)],
    /// Value of the fixed bits.
    pub match_bits: u32,
    /// Which bits are fixed.
    pub mask: u32,
    /// Timing class.
    pub timing: TimingClass,
    /// Which part of the tile executes it.
    pub unit: Unit,
    /// One-line semantics.
    pub semantics: &'static str,
}

impl InstrSpec {
    /// The fields of the row's operands, in operand order.
    pub fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        self.operands
            .iter()
            .flat_map(|o| o.fields().iter().copied())
    }

    /// Whether the row has the `.aq/.rl` mnemonic suffix.
    pub fn has_aqrl(&self) -> bool {
        self.operands.contains(&Operand::AqRl)
    }
}

const fn fixed_match_mask(fixed: &[(u32, u32, u32)]) -> (u32, u32) {
    let mut m = 0u32;
    let mut k = 0u32;
    let mut i = 0;
    while i < fixed.len() {
        let (hi, lo, v) = fixed[i];
        let width = hi - lo + 1;
        let ones = if width == 32 {
            u32::MAX
        } else {
            (1u32 << width) - 1
        };
        k |= ones << lo;
        m |= (v & ones) << lo;
        i += 1;
    }
    (m, k)
}

// Values used in the table's fixed-bit columns.
const LUI: u32 = 0x37;
const AUIPC: u32 = 0x17;
const JAL: u32 = 0x6f;
const JALR: u32 = 0x67;
const BRANCH: u32 = 0x63;
const LOAD: u32 = 0x03;
const STORE: u32 = 0x23;
const OP_IMM: u32 = 0x13;
const OP: u32 = 0x33;
const MISC_MEM: u32 = 0x0f;
const SYSTEM: u32 = 0x73;
const AMO: u32 = 0x2f;
const LOAD_FP: u32 = 0x07;
const STORE_FP: u32 = 0x27;
const MADD: u32 = 0x43;
const MSUB: u32 = 0x47;
const NMSUB: u32 = 0x4b;
const NMADD: u32 = 0x4f;
const OP_FP: u32 = 0x53;
/// RISC-V custom-0 major opcode: SCMP send instructions.
pub const CUSTOM0: u32 = 0x0b;
/// RISC-V custom-1 major opcode: SCMP message-table instructions.
pub const CUSTOM1: u32 = 0x2b;
/// RISC-V custom-2 major opcode: SCMP thread control.
pub const CUSTOM2: u32 = 0x5b;
const DYN: crate::RoundingMode = crate::RoundingMode::Dyn;
const RNE: crate::RoundingMode = crate::RoundingMode::Rne;

macro_rules! define_table {
    ($(
        $variant:ident $mnemonic:literal $ext:ident [$($operand:expr),*]
        {$($hi:literal : $lo:literal = $val:expr),*} $timing:ident $unit:ident $semantics:literal;
    )*) => {
        /// Every instruction of the ISA, one variant per table row.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode {
            $(
                #[doc = concat!("`", $mnemonic, "`: ", $semantics)]
                $variant,
            )*
        }

        impl Opcode {
            /// Every opcode, in table order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant),*];

            /// The extension of the instruction's row (`spec().extension`),
            /// as a `const fn`: a hot path tests it with no table lookup.
            #[inline]
            pub const fn extension(self) -> Extension {
                match self {
                    $(Opcode::$variant => Extension::$ext,)*
                }
            }
        }

        /// The instruction table, indexed by `Opcode as usize`.
        pub static SPECS: &[InstrSpec] = &[$(
            {
                #[allow(unused_imports)]
                use Operand::*;
                const FIXED: &[(u32, u32, u32)] = &[$(($hi, $lo, $val)),*];
                const MM: (u32, u32) = fixed_match_mask(FIXED);
                InstrSpec {
                    opcode: Opcode::$variant,
                    mnemonic: $mnemonic,
                    extension: Extension::$ext,
                    operands: &[$($operand),*],
                    fixed: FIXED,
                    match_bits: MM.0,
                    mask: MM.1,
                    timing: TimingClass::$timing,
                    unit: Unit::$unit,
                    semantics: $semantics,
                }
            }
        ),*];

        define_units!(@ [] [] [] [] $($variant $unit,)*);
    };
}

/// Sorts the rows by their unit (a token muncher: one row per step) and
/// defines an enum of each unit's instructions and [`Opcode::executes`].
macro_rules! define_units {
    (@ [$($core:ident)*] [$($niu:ident)*] [$($thread:ident)*] [$($host:ident)*]) => {
        /// The instructions the core executes ([`Unit::Core`]), named as
        /// their [`Opcode`]s.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum CoreOp { $($core),* }

        /// The instructions the NIU executes ([`Unit::Niu`]), named as
        /// their [`Opcode`]s.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum NiuOp { $($niu),* }

        /// The instructions the thread scheduler executes
        /// ([`Unit::Thread`]), named as their [`Opcode`]s.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum ThreadOp { $($thread),* }

        /// The instructions served by the host ([`Unit::Host`]), named as
        /// their [`Opcode`]s.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum HostOp { $($host),* }

        impl Opcode {
            /// Which unit executes the instruction, with the instruction as
            /// one of that unit's.
            #[inline]
            pub const fn executes(self) -> Executes {
                match self {
                    $(Opcode::$core => Executes::Core(CoreOp::$core),)*
                    $(Opcode::$niu => Executes::Niu(NiuOp::$niu),)*
                    $(Opcode::$thread => Executes::Thread(ThreadOp::$thread),)*
                    $(Opcode::$host => Executes::Host(HostOp::$host),)*
                }
            }
        }

        impl CoreOp {
            /// Every one, in table order.
            pub const ALL: &'static [CoreOp] = &[$(CoreOp::$core),*];

            /// The opcode.
            #[inline]
            pub const fn opcode(self) -> Opcode {
                match self {
                    $(CoreOp::$core => Opcode::$core,)*
                }
            }
        }

        impl NiuOp {
            /// Every one, in table order.
            pub const ALL: &'static [NiuOp] = &[$(NiuOp::$niu),*];

            /// The opcode.
            #[inline]
            pub const fn opcode(self) -> Opcode {
                match self {
                    $(NiuOp::$niu => Opcode::$niu,)*
                }
            }
        }
    };
    (@ [$($core:ident)*] $niu:tt $thread:tt $host:tt $v:ident Core, $($rest:tt)*) => {
        define_units!(@ [$($core)* $v] $niu $thread $host $($rest)*);
    };
    (@ $core:tt [$($niu:ident)*] $thread:tt $host:tt $v:ident Niu, $($rest:tt)*) => {
        define_units!(@ $core [$($niu)* $v] $thread $host $($rest)*);
    };
    (@ $core:tt $niu:tt [$($thread:ident)*] $host:tt $v:ident Thread, $($rest:tt)*) => {
        define_units!(@ $core $niu [$($thread)* $v] $host $($rest)*);
    };
    (@ $core:tt $niu:tt $thread:tt [$($host:ident)*] $v:ident Host, $($rest:tt)*) => {
        define_units!(@ $core $niu $thread [$($host)* $v] $($rest)*);
    };
}

/// An instruction as one of the unit that executes it
/// ([`Opcode::executes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Executes {
    /// The core.
    Core(CoreOp),
    /// The NIU.
    Niu(NiuOp),
    /// The thread scheduler.
    Thread(ThreadOp),
    /// The host.
    Host(HostOp),
}

impl Executes {
    /// The unit.
    pub const fn unit(self) -> Unit {
        match self {
            Executes::Core(_) => Unit::Core,
            Executes::Niu(_) => Unit::Niu,
            Executes::Thread(_) => Unit::Thread,
            Executes::Host(_) => Unit::Host,
        }
    }
}

crate::for_each_instruction!(define_table);

impl Opcode {
    /// This opcode's table row.
    #[inline]
    pub fn spec(self) -> &'static InstrSpec {
        &SPECS[self as usize]
    }

    /// Assembly mnemonic.
    #[inline]
    pub fn mnemonic(self) -> &'static str {
        self.spec().mnemonic
    }

    /// Timing class.
    #[inline]
    pub fn timing(self) -> TimingClass {
        self.spec().timing
    }

    /// Which part of the tile executes it.
    #[inline]
    pub fn unit(self) -> Unit {
        self.spec().unit
    }
}

/// A decoded instruction: the opcode and the values of its operand fields.
/// Slots the opcode has no field for are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    /// Which instruction.
    pub op: Opcode,
    /// Destination register.
    pub rd: u8,
    /// Source register 1 (or the 5-bit immediate of the CSR*I instructions).
    pub rs1: u8,
    /// Source register 2.
    pub rs2: u8,
    /// Source register 3.
    pub rs3: u8,
    /// Rounding mode, aq/rl bits, or SCMP send type.
    pub aux: u8,
    /// Immediate, shift amount, CSR number or fence sets; branch and jump
    /// offsets are relative to the instruction's address; `imm20` is unshifted.
    pub imm: i32,
}

/// A value that does not fit the field it is meant for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// The field.
    pub field: Field,
    /// The value given.
    pub value: i64,
    /// What the field accepts.
    pub range: RangeError,
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} value {} out of range: {}",
            self.field, self.value, self.range
        )
    }
}

impl std::error::Error for EncodeError {}

impl Inst {
    /// An instruction with every field zero.
    pub const fn new(op: Opcode) -> Inst {
        Inst {
            op,
            rd: 0,
            rs1: 0,
            rs2: 0,
            rs3: 0,
            aux: 0,
            imm: 0,
        }
    }

    /// An instruction whose optional operands take their defaults (rounding
    /// mode, fence sets), every other field zero.
    pub fn with_defaults(op: Opcode) -> Inst {
        let mut inst = Inst::new(op);
        for operand in op.spec().operands {
            match operand {
                Operand::Rm(rm) => inst.aux = *rm as u8,
                Operand::Fence => inst.imm = 0xff,
                _ => {}
            }
        }
        inst
    }

    /// The value in the slot of `field`.
    #[inline]
    pub fn get(&self, field: Field) -> i32 {
        match field.slot() {
            Slot::Rd => self.rd as i32,
            Slot::Rs1 => self.rs1 as i32,
            Slot::Rs2 => self.rs2 as i32,
            Slot::Rs3 => self.rs3 as i32,
            Slot::Aux => self.aux as i32,
            Slot::Imm => self.imm,
        }
    }

    /// Stores `value` in the slot of `field` (unchecked; see [`Field::check`]).
    #[inline]
    pub fn set(&mut self, field: Field, value: i32) {
        match field.slot() {
            Slot::Rd => self.rd = value as u8,
            Slot::Rs1 => self.rs1 = value as u8,
            Slot::Rs2 => self.rs2 = value as u8,
            Slot::Rs3 => self.rs3 = value as u8,
            Slot::Aux => self.aux = value as u8,
            Slot::Imm => self.imm = value,
        }
    }

    /// The instruction word, or which field holds a value it cannot encode.
    pub fn encode(&self) -> Result<u32, EncodeError> {
        let spec = self.op.spec();
        let mut word = spec.match_bits;
        for field in spec.fields() {
            let value = self.get(field);
            field.check(value as i64).map_err(|range| EncodeError {
                field,
                value: value as i64,
                range,
            })?;
            word |= field.insert(value);
        }
        Ok(word)
    }

    /// Decodes one instruction word; `None` for a word that is no instruction
    /// of the table (including reserved rounding modes and send types).
    pub fn decode(word: u32) -> Option<Inst> {
        if word & 3 != 3 {
            return None;
        }
        let bucket = &decode_buckets()[((word >> 2) & 0x1f) as usize];
        let spec = bucket
            .iter()
            .map(|op| op.spec())
            .find(|s| word & s.mask == s.match_bits)?;
        let mut inst = Inst::new(spec.opcode);
        for field in spec.fields() {
            let value = field.extract(word);
            if field.check(value as i64).is_err() {
                return None;
            }
            inst.set(field, value);
        }
        Some(inst)
    }
}

/// Rows grouped by major opcode bits 6:2, for decoding.
fn decode_buckets() -> &'static [Vec<Opcode>; 32] {
    static BUCKETS: OnceLock<[Vec<Opcode>; 32]> = OnceLock::new();
    BUCKETS.get_or_init(|| {
        let mut buckets: [Vec<Opcode>; 32] = Default::default();
        for spec in SPECS {
            buckets[((spec.match_bits >> 2) & 0x1f) as usize].push(spec.opcode);
        }
        buckets
    })
}

/// The table rows for a mnemonic (several rows may share one, such as the
/// forms of `sendh`), in table order. The `.aq`/`.rl`/`.aqrl` suffixes are
/// not part of a mnemonic.
pub fn rows_for_mnemonic(mnemonic: &str) -> &'static [Opcode] {
    static MAP: OnceLock<std::collections::HashMap<&'static str, Vec<Opcode>>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut map: std::collections::HashMap<&'static str, Vec<Opcode>> =
            std::collections::HashMap::new();
        for spec in SPECS {
            map.entry(spec.mnemonic).or_default().push(spec.opcode);
        }
        map
    });
    map.get(mnemonic).map(Vec::as_slice).unwrap_or(&[])
}

/// Every distinct mnemonic of the table, in table order.
pub fn mnemonics() -> impl Iterator<Item = &'static str> {
    static ALL: OnceLock<Vec<&'static str>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut seen = std::collections::HashSet::new();
        SPECS
            .iter()
            .map(|s| s.mnemonic)
            .filter(|m| seen.insert(*m))
            .collect()
    })
    .iter()
    .copied()
}
