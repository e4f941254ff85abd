//! One instruction (or data item inside code) in GNU objdump's RISC-V
//! notation, `mnemonic\top,op`, and the state GNU's disassembler keeps
//! between instructions: the value a register got from `lui` or `auipc`,
//! which names the address a following `addi`, load, store or `jalr`
//! forms (`add a0,a0,16 # 10020 <table>`).

use isa_spec::{F_ABI, Inst, Opcode, WrittenOperand, X_ABI, csr_by_number};

/// `-M` options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Print aliases (`li`, `ret`, ...); off with `-M no-aliases`.
    pub aliases: bool,
    /// `x5`/`f10` instead of ABI names (`-M numeric`).
    pub numeric: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            aliases: true,
            numeric: false,
        }
    }
}

impl Options {
    /// Reads a `-M` argument: comma-separated `no-aliases`, `numeric`.
    pub fn parse(text: &str, mut into: Options) -> Result<Options, String> {
        for option in text.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            match option {
                "no-aliases" => into.aliases = false,
                "numeric" => into.numeric = true,
                other => {
                    return Err(format!(
                        "unrecognized disassembler option `{other}` (known: no-aliases, numeric)"
                    ));
                }
            }
        }
        Ok(into)
    }
}

const GP: usize = 3;
const TP: usize = 4;

/// What GNU's RISC-V disassembler remembers from one instruction to the next.
#[derive(Clone, Debug)]
pub struct Tracker {
    /// The address each register holds after a `lui`/`auipc`, until an
    /// instruction uses it as a base.
    hi: [Option<u32>; 32],
    /// `__global_pointer$`, the base of `gp`-relative addresses.
    gp: Option<u32>,
}

impl Tracker {
    pub fn new(gp: Option<u32>) -> Tracker {
        Tracker { hi: [None; 32], gp }
    }

    /// The address `offset(base)` names, if known (GNU's `maybe_print_address`).
    fn address(&mut self, base: u8, offset: i32) -> Option<u32> {
        let base = base as usize;
        let from = match (self.hi[base].take(), self.gp) {
            (Some(hi), _) if base != 0 => hi,
            (Some(_), _) => 0,
            (None, Some(gp)) if base == GP => gp,
            (None, _) if base == TP || base == 0 => 0,
            (None, _) => return None,
        };
        Some(from.wrapping_add(offset as u32))
    }
}

/// How many times GNU's disassembler looks up the address an instruction
/// forms, by the operands it prints: once for a memory operand of a load or
/// store, three times for `jalr`'s (offset, immediate and base), once for a
/// `jalr` base printed alone, once for an `addi` immediate with a base other
/// than `zero`; never for `ret`, `mv` or `li`.
fn address_lookups(inst: &Inst, operands: &[WrittenOperand]) -> usize {
    let has = |f: fn(&WrittenOperand) -> bool| operands.iter().any(f);
    let mem = has(|o| matches!(o, WrittenOperand::Mem { .. }));
    match inst.op {
        Opcode::Jalr if mem => 3,
        Opcode::Jalr => usize::from(!operands.is_empty()),
        Opcode::Addi => usize::from(inst.rs1 != 0 && has(|o| matches!(o, WrittenOperand::Int(_)))),
        _ => usize::from(mem),
    }
}

/// The text of a decoded instruction at `pc`; `address` prints a target
/// (`1003c <loop+0x8>`).
pub fn instruction(
    inst: &Inst,
    pc: u32,
    options: Options,
    tracker: &mut Tracker,
    address: &dyn Fn(u32) -> String,
) -> String {
    let written = inst.written(pc, options.aliases);
    match inst.op {
        Opcode::Lui => tracker.hi[inst.rd as usize] = Some((inst.imm as u32) << 12),
        Opcode::Auipc => {
            tracker.hi[inst.rd as usize] = Some(pc.wrapping_add((inst.imm as u32) << 12))
        }
        _ => {}
    }
    let mut formed = None;
    for _ in 0..address_lookups(inst, written.operands()) {
        if let Some(a) = tracker.address(inst.rs1, inst.imm) {
            formed = Some(a);
        }
    }
    let mut text = format!("{}{}", written.mnemonic, written.suffix);
    for (i, operand) in written.operands().iter().enumerate() {
        text.push(if i == 0 { '\t' } else { ',' });
        text.push_str(&operand_text(*operand, options, address));
    }
    if let Some(a) = formed {
        text.push_str(" # ");
        text.push_str(&address(a));
    }
    text
}

fn operand_text(
    operand: WrittenOperand,
    options: Options,
    address: &dyn Fn(u32) -> String,
) -> String {
    let x = |r: u8| {
        if options.numeric {
            format!("x{r}")
        } else {
            X_ABI[r as usize].to_string()
        }
    };
    match operand {
        WrittenOperand::X(r) => x(r),
        WrittenOperand::F(r) if options.numeric => format!("f{r}"),
        WrittenOperand::F(r) => F_ABI[r as usize].to_string(),
        WrittenOperand::Int(v) => v.to_string(),
        WrittenOperand::Shamt(v) => format!("{v:#x}"),
        WrittenOperand::Upper(v) => format!("{v:#x}"),
        WrittenOperand::Target(t) => address(t),
        WrittenOperand::Csr(n) => match csr_by_number(n) {
            Some(csr) => csr.name.to_string(),
            None => format!("{n:#x}"),
        },
        WrittenOperand::Mem { offset, base } => format!("{offset}({})", x(base)),
        WrittenOperand::AmoMem(base) => format!("({})", x(base)),
        WrittenOperand::Rm(rm) => rm.name().to_string(),
        WrittenOperand::Fence { pred, succ } => format!("{},{}", fence_set(pred), fence_set(succ)),
        WrittenOperand::SendType(t) => t.name().to_string(),
        WrittenOperand::Keyword(k) => k.to_string(),
    }
}

/// A fence set as GNU names it (`unknown` for the empty set).
fn fence_set(bits: u8) -> String {
    if bits == 0 {
        "unknown".to_string()
    } else {
        isa_spec::fence_set_name(bits)
    }
}

/// The length GNU gives an instruction from its first bits (RISC-V's
/// variable-length encoding).
pub fn insn_length(first: u16) -> usize {
    if first & 3 != 3 {
        2
    } else if first & 0x1f != 0x1f {
        4
    } else if first & 0x3f == 0x1f {
        6
    } else if first & 0x7f == 0x3f {
        8
    } else {
        2
    }
}

/// GNU's text for bytes that are no instruction it knows: `.4byte\t0xb`.
pub fn unknown(bytes: &[u8]) -> String {
    let value = bytes
        .iter()
        .rev()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b));
    format!(".{}byte\t{value:#x}", bytes.len())
}

/// GNU's text for a data item inside code (after a `$d` mapping symbol).
pub fn data(bytes: &[u8]) -> String {
    let value = bytes
        .iter()
        .rev()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b));
    match bytes.len() {
        1 => format!(".byte\t0x{value:02x}"),
        2 => format!(".short\t0x{value:04x}"),
        4 => format!(".word\t0x{value:08x}"),
        _ => format!(".dword\t0x{value:016x}"),
    }
}
