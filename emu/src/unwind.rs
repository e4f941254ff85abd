//! The call chain of a stopped context, from the program's unwind table
//! (`.debug_frame`, which `scmp cc -g` writes, or `.eh_frame`), read with
//! gimli's unwinder: each frame's CFA and saved registers from the table's
//! row at its pc, the caller's pc from the saved return address. Fault and
//! deadlock reports list the callers (`called from <f+0x1c> (chain.c:9)`).
//! A program without an unwind table has no chain.

use gimli::{
    BaseAddresses, CfaRule, DebugFrame, EhFrame, EndianSlice, LittleEndian, Register, RegisterRule,
    UnwindContext, UnwindSection,
};
use object::Endianness;
use object::elf::FileHeader32;
use object::read::elf::{FileHeader, SectionHeader};

/// Most callers a chain lists (a deeper one is cut there).
pub const MAX_FRAMES: usize = 32;

/// The return address register (`ra`) and the stack pointer (`sp`), as
/// DWARF numbers them.
const RA: usize = 1;
const SP: usize = 2;

/// The unwind tables of a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frames {
    debug_frame: Vec<u8>,
    eh_frame: Vec<u8>,
    /// `.eh_frame`'s address (its FDEs' addresses are relative to it).
    eh_frame_addr: u64,
}

/// How a register is recovered in the caller's frame.
enum Rule {
    Keep,
    At(i64),
    Is(i64),
    Copy(usize),
    Lost,
}

/// One row of the table: the CFA (a register plus an offset) and the rules
/// of the registers it names.
struct Row {
    cfa: (usize, i64),
    rules: Vec<(usize, Rule)>,
}

impl Frames {
    /// The tables of an ELF; empty when it has neither section.
    pub fn from_elf(header: &FileHeader32<Endianness>, endian: Endianness, bytes: &[u8]) -> Frames {
        let Ok(sections) = header.sections(endian, bytes) else {
            return Frames::default();
        };
        let section = |name: &str| {
            sections
                .section_by_name(endian, name.as_bytes())
                .map(|(_, s)| {
                    (
                        s.data(endian, bytes).unwrap_or(&[]).to_vec(),
                        s.sh_addr(endian) as u64,
                    )
                })
                .unwrap_or_default()
        };
        let (debug_frame, _) = section(".debug_frame");
        let (eh_frame, eh_frame_addr) = section(".eh_frame");
        Frames {
            debug_frame,
            eh_frame,
            eh_frame_addr,
        }
    }

    /// Whether the program has an unwind table.
    pub fn is_empty(&self) -> bool {
        self.debug_frame.is_empty() && self.eh_frame.is_empty()
    }

    /// The row of the table for `pc`, from `.debug_frame`, else `.eh_frame`.
    fn row(&self, pc: u32) -> Option<Row> {
        let mut ctx = Box::new(UnwindContext::new());
        let convert = |row: &gimli::UnwindTableRow<usize>| -> Option<Row> {
            let cfa = match row.cfa() {
                CfaRule::RegisterAndOffset { register, offset } => (register.0 as usize, *offset),
                CfaRule::Expression(_) => return None,
            };
            let rules = row
                .registers()
                .map(|(r, rule)| {
                    let rule = match rule {
                        RegisterRule::Undefined | RegisterRule::SameValue => Rule::Keep,
                        RegisterRule::Offset(n) => Rule::At(*n),
                        RegisterRule::ValOffset(n) => Rule::Is(*n),
                        RegisterRule::Register(Register(k)) => Rule::Copy(*k as usize),
                        _ => Rule::Lost,
                    };
                    (r.0 as usize, rule)
                })
                .collect();
            Some(Row { cfa, rules })
        };
        if !self.debug_frame.is_empty() {
            let mut table = DebugFrame::new(&self.debug_frame, LittleEndian);
            table.set_address_size(4);
            let bases = BaseAddresses::default();
            if let Ok(row) = table.unwind_info_for_address(
                &bases,
                &mut ctx,
                pc as u64,
                DebugFrame::<EndianSlice<LittleEndian>>::cie_from_offset,
            ) {
                return convert(row);
            }
        }
        if !self.eh_frame.is_empty() {
            let mut table = EhFrame::new(&self.eh_frame, LittleEndian);
            table.set_address_size(4);
            let bases = BaseAddresses::default().set_eh_frame(self.eh_frame_addr);
            if let Ok(row) = table.unwind_info_for_address(
                &bases,
                &mut ctx,
                pc as u64,
                EhFrame::<EndianSlice<LittleEndian>>::cie_from_offset,
            ) {
                return convert(row);
            }
        }
        None
    }

    /// The return addresses of the callers of a context at `pc` with
    /// registers `x`, innermost first, reading the stack through `load`.
    /// Where `pc` itself has no row, its caller is `leaf_ra` when the
    /// caller knows it is a leaf routine's (a library routine written in
    /// assembly, called from C), else there is no chain; the chain ends at
    /// a pc without a row, a return address that does not follow a call
    /// (`is_return`), or after [`MAX_FRAMES`].
    pub fn callers(
        &self,
        pc: u32,
        x: &[u32; 32],
        leaf_ra: Option<u32>,
        load: &dyn Fn(u32) -> Option<u32>,
        is_return: &dyn Fn(u32) -> bool,
    ) -> Vec<u32> {
        let mut out = Vec::new();
        if self.is_empty() {
            return out;
        }
        let (mut pc, mut regs) = (pc, *x);
        let mut seen = Vec::new();
        while out.len() < MAX_FRAMES {
            let (ra, next) = match self.row(pc) {
                Some(row) => match unwind_frame(&row, &regs, load) {
                    Some(step) => step,
                    None => break,
                },
                None => match leaf_ra {
                    Some(ra) if out.is_empty() => (ra, regs),
                    _ => break,
                },
            };
            if !is_return(ra) || seen.contains(&(ra, next[SP])) {
                break;
            }
            seen.push((ra, next[SP]));
            out.push(ra);
            pc = ra - 4;
            regs = next;
        }
        out
    }
}

/// The caller's return address and registers, from one row.
fn unwind_frame(
    row: &Row,
    regs: &[u32; 32],
    load: &dyn Fn(u32) -> Option<u32>,
) -> Option<(u32, [u32; 32])> {
    let (base, offset) = row.cfa;
    let cfa = (*regs.get(base)? as i64 + offset) as u32;
    let mut next = *regs;
    let mut ra = regs[RA];
    for (r, rule) in &row.rules {
        let value = match rule {
            Rule::Keep => continue,
            Rule::At(n) => load((cfa as i64 + n) as u32)?,
            Rule::Is(n) => (cfa as i64 + n) as u32,
            Rule::Copy(k) => *regs.get(*k)?,
            Rule::Lost => return None,
        };
        if *r == RA {
            ra = value;
        }
        if let Some(slot) = next.get_mut(*r) {
            *slot = value;
        }
    }
    next[SP] = cfa;
    Some((ra, next))
}
