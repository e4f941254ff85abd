//! The code labels of a program, from its ELF symbol table, by which traces
//! name branch and jump targets (`beqz a0, 0x1003c <loop+0x8>`), as
//! objdump does. A stripped program has none. Reports also name a pc's
//! source line when the program has a line table ([`crate::lines`]).

use object::Endianness;
use object::elf::{self, FileHeader32};
use object::read::elf::{FileHeader, SectionHeader, Sym};

/// A named symbol of the program (code or data), for `--dump`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Name.
    pub name: String,
    /// Address.
    pub addr: u32,
    /// Size in bytes (0 when the source gave none).
    pub size: u32,
}

/// Every named function, object or plain symbol of an ELF's symbol table
/// (sections and files left out), in table order.
pub fn symbols(header: &FileHeader32<Endianness>, endian: Endianness, bytes: &[u8]) -> Vec<Symbol> {
    let Ok(sections) = header.sections(endian, bytes) else {
        return Vec::new();
    };
    let Ok(table) = sections.symbols(endian, bytes, elf::SHT_SYMTAB) else {
        return Vec::new();
    };
    table
        .symbols()
        .iter()
        .filter(|sym| {
            let kind = sym.st_type();
            sym.st_shndx(endian) != elf::SHN_UNDEF
                && kind != elf::STT_SECTION
                && kind != elf::STT_FILE
        })
        .filter_map(|sym| {
            let name = std::str::from_utf8(sym.name(endian, table.strings()).ok()?).ok()?;
            (!name.is_empty() && !name.starts_with('$')).then(|| Symbol {
                name: name.to_string(),
                addr: sym.st_value(endian),
                size: sym.st_size(endian),
            })
        })
        .collect()
}

/// Labels by address, one per address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    by_addr: Vec<(u32, String)>,
    /// The end of the executable sections (reports name no label past it).
    code_end: u32,
    /// Source lines, from `.debug_line` (empty without one).
    lines: crate::lines::Lines,
    /// Unwind tables, from `.debug_frame`/`.eh_frame` (empty without).
    frames: crate::unwind::Frames,
}

impl FromIterator<(u32, String)> for Labels {
    /// Labels from `(address, name)` pairs; the first name given for an
    /// address is kept.
    fn from_iter<I: IntoIterator<Item = (u32, String)>>(pairs: I) -> Labels {
        let mut by_addr: Vec<(u32, String)> = pairs.into_iter().collect();
        by_addr.sort_by_key(|(a, _)| *a);
        by_addr.dedup_by_key(|(a, _)| *a);
        Labels {
            by_addr,
            code_end: u32::MAX,
            lines: Default::default(),
            frames: Default::default(),
        }
    }
}

/// One candidate label and what ranks it among those at its address.
struct Candidate {
    addr: u32,
    name: String,
    function: bool,
    global: bool,
    size: u32,
}

impl Candidate {
    /// Functions first, then globals, larger sizes, names not starting
    /// with `.`, then by name: objdump's preference among symbols at one
    /// address.
    fn rank(&self) -> impl Ord + '_ {
        (
            !self.function,
            !self.global,
            std::cmp::Reverse(self.size),
            self.name.starts_with('.'),
            self.name.as_str(),
        )
    }
}

impl Labels {
    /// The named symbols of executable sections, except RISC-V mapping
    /// symbols (`$x`, `$d`); none when the file has no usable symbol table.
    /// The line table, when the file has one.
    pub fn from_elf(header: &FileHeader32<Endianness>, endian: Endianness, bytes: &[u8]) -> Labels {
        let Ok(sections) = header.sections(endian, bytes) else {
            return Labels::default();
        };
        let code_end = sections
            .iter()
            .filter(|s| s.sh_flags(endian).0 & elf::SHF_EXECINSTR.0 != 0)
            .map(|s| s.sh_addr(endian).saturating_add(s.sh_size(endian)))
            .max()
            .unwrap_or(0);
        let lines = crate::lines::Lines::from_elf(header, endian, bytes);
        let frames = crate::unwind::Frames::from_elf(header, endian, bytes);
        let Ok(symbols) = sections.symbols(endian, bytes, elf::SHT_SYMTAB) else {
            return Labels {
                code_end,
                lines,
                frames,
                ..Labels::default()
            };
        };
        let mut candidates = Vec::new();
        for sym in symbols.symbols() {
            let kind = sym.st_type();
            let Ok(name) = std::str::from_utf8(sym.name(endian, symbols.strings()).unwrap_or(b""))
            else {
                continue;
            };
            let code = sym.st_shndx(endian).index().is_some_and(|i| {
                sections
                    .section(object::SectionIndex(i as usize))
                    .is_ok_and(|s| s.sh_flags(endian).0 & elf::SHF_EXECINSTR.0 != 0)
            });
            let mapping = name == "$d" || name == "$x" || name.starts_with("$xrv");
            if name.is_empty()
                || !code
                || mapping
                || kind == elf::STT_SECTION
                || kind == elf::STT_FILE
            {
                continue;
            }
            candidates.push(Candidate {
                addr: sym.st_value(endian),
                name: name.to_string(),
                function: kind == elf::STT_FUNC,
                global: sym.st_bind() == elf::STB_GLOBAL,
                size: sym.st_size(endian),
            });
        }
        candidates.sort_by(|a, b| a.addr.cmp(&b.addr).then_with(|| a.rank().cmp(&b.rank())));
        let mut labels: Labels = candidates.into_iter().map(|c| (c.addr, c.name)).collect();
        labels.code_end = code_end;
        labels.lines = lines;
        labels.frames = frames;
        labels
    }

    /// Where a pc is, for reports: `<name+0x8>` of the nearest label at or
    /// below it, then `(file.c:LINE)` when the line table covers it; none
    /// for a pc outside the code (past its end, or before its first label
    /// and line), where a label would mislead.
    pub fn describe_pc(&self, pc: u32) -> Option<String> {
        if pc >= self.code_end {
            return None;
        }
        let line = self.lines.at(pc).map(|l| format!("({l})"));
        match (self.describe(pc), line) {
            (Some(label), Some(line)) => Some(format!("{label} {line}")),
            (label, line) => label.or(line),
        }
    }

    /// [`Labels::describe_pc`] of a context's `pc`, and when that has no
    /// source line (a library routine written in assembly) while the
    /// return address `ra` follows a call from a line (`ra - 4`), ` called
    /// from sum.c:12`. Only the return address is read: right in a leaf
    /// routine, or before a routine's first call; no call chain is read
    /// from the stack (there is no `.debug_frame` here).
    pub fn describe_pc_from(&self, pc: u32, ra: u32) -> Option<String> {
        let here = self.describe_pc(pc);
        if pc >= self.code_end || self.lines.at(pc).is_some() || ra < 4 || ra >= self.code_end {
            return here;
        }
        match self.lines.at(ra - 4) {
            Some(line) => Some(format!(
                "{} called from {line}",
                here.unwrap_or_else(|| format!("{pc:#010x}"))
            )),
            None => here,
        }
    }

    /// Where a context at `pc` with registers `x` is (memory read through
    /// `load`), as reports write it: its place ([`Labels::describe_pc_from`])
    /// and its callers, innermost first, each as the call's place
    /// (`<main+0x1c> (chain.c:14)`): the call chain from the unwind table
    /// ([`crate::unwind`]); none without one. A return address counts only
    /// where it follows a call (`jal`/`jalr` linking `ra`) in the code. A
    /// pc the table does not cover is taken for a leaf routine's, its
    /// caller from `ra`, only where `describe_pc_from` names that caller
    /// already: the list then starts at the caller's caller, so that no
    /// call is written twice.
    pub fn place(
        &self,
        pc: u32,
        x: &[u32; 32],
        load: &dyn Fn(u32) -> Option<u32>,
    ) -> (Option<String>, Vec<String>) {
        let is_return = |ra: u32| {
            ra >= 4
                && ra < self.code_end
                && load(ra - 4)
                    .and_then(isa_spec::Inst::decode)
                    .is_some_and(|i| {
                        matches!(i.op, isa_spec::Opcode::Jal | isa_spec::Opcode::Jalr) && i.rd == 1
                    })
        };
        let ra = x[1];
        let leaf_ra = (self.lines.at(pc).is_none() && ra >= 4 && self.lines.at(ra - 4).is_some())
            .then_some(ra);
        let here = self.describe_pc_from(pc, ra);
        let named_inline = here.as_deref().is_some_and(|h| h.contains(" called from "));
        let mut frames = self.frames.callers(pc, x, leaf_ra, load, &is_return);
        if named_inline && frames.first() == Some(&ra) {
            frames.remove(0);
        }
        let callers = frames
            .into_iter()
            .map(|ra| {
                self.describe_pc(ra - 4)
                    .unwrap_or_else(|| format!("{:#010x}", ra - 4))
            })
            .collect();
        (here, callers)
    }

    /// `pc 0x0001044c <SCMPSendInt+0xc>` (with ` (sum.c:12)` when the
    /// program has a line table), or `pc 0x0001044c` where nothing names
    /// it: how reports write a pc.
    pub fn pc_text(&self, pc: u32) -> String {
        self.pc_text_from(pc, 0)
    }

    /// [`Labels::pc_text`] with the caller's line from the return address
    /// `ra` ([`Labels::describe_pc_from`]; 0: none).
    pub fn pc_text_from(&self, pc: u32, ra: u32) -> String {
        match self.describe_pc_from(pc, ra) {
            Some(label) => format!("pc {pc:#010x} {label}"),
            None => format!("pc {pc:#010x}"),
        }
    }

    /// The nearest label at or below `addr`.
    pub fn name_at_or_below(&self, addr: u32) -> Option<&str> {
        let i = self.by_addr.partition_point(|(a, _)| *a <= addr);
        self.by_addr.get(i.checked_sub(1)?).map(|(_, n)| n.as_str())
    }

    /// `<name>` or `<name+0x8>` of the nearest label at or below `addr`.
    pub fn describe(&self, addr: u32) -> Option<String> {
        let i = self.by_addr.partition_point(|(a, _)| *a <= addr);
        let (at, name) = self.by_addr.get(i.checked_sub(1)?)?;
        Some(if *at == addr {
            format!("<{name}>")
        } else {
            format!("<{name}+{:#x}>", addr - at)
        })
    }
}
