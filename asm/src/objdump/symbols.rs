//! The symbols that label disassembly, chosen as GNU objdump chooses them:
//! which symbols count, their order when several share an address, the
//! symbol an address is shown against (`1003c <loop+0x8>`), and the RISC-V
//! mapping symbols (`$x`, `$d`) that mark data inside code.

use std::cmp::Ordering;

use object::elf;
use object::{Object, ObjectSection, ObjectSymbol, SectionIndex, SymbolFlags, SymbolSection};

/// What a RISC-V mapping symbol says about the bytes from its address on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// `$x` or `$x<isa>`: instructions.
    Code,
    /// `$d`: data.
    Data,
}

/// One symbol, with what the ordering and the lookups look at.
#[derive(Clone, Debug)]
pub struct Sym<'data> {
    pub name: &'data str,
    pub value: u64,
    /// `None` for an absolute symbol.
    pub section: Option<SectionIndex>,
    section_name: &'data str,
    pub function: bool,
    pub object: bool,
    local: bool,
    global: bool,
    size: u64,
    pub mapping: Option<Mapping>,
}

impl Sym<'_> {
    /// Whether the symbol may label an address: not a mapping symbol, not
    /// the assembler's fake label.
    pub fn is_label(&self) -> bool {
        self.mapping.is_none() && self.name != ".L0 "
    }
}

fn mapping_of(name: &str) -> Option<Mapping> {
    match name {
        "$d" => Some(Mapping::Data),
        "$x" => Some(Mapping::Code),
        _ if name.starts_with("$xrv") => Some(Mapping::Code),
        _ => None,
    }
}

/// The file's symbols without those disassembly ignores (unnamed, section,
/// file, undefined and common symbols), sorted by address for one section.
pub struct SymbolTable<'data> {
    pub syms: Vec<Sym<'data>>,
}

impl<'data> SymbolTable<'data> {
    pub fn of(file: &object::File<'data>) -> SymbolTable<'data> {
        let mut syms = Vec::new();
        for s in file.symbols() {
            let Ok(name) = s.name() else { continue };
            let section = match s.section() {
                SymbolSection::Section(i) => Some(i),
                SymbolSection::Absolute => None,
                _ => continue,
            };
            let SymbolFlags::Elf { st_info, .. } = s.flags() else {
                continue;
            };
            let (kind, bind) = (st_info.st_type(), st_info.st_bind());
            if name.is_empty() || kind == elf::STT_SECTION || kind == elf::STT_FILE {
                continue;
            }
            let section_name = match section {
                Some(i) => file
                    .section_by_index(i)
                    .ok()
                    .and_then(|sec| sec.name().ok())
                    .unwrap_or(""),
                None => "*ABS*",
            };
            syms.push(Sym {
                name,
                value: s.address(),
                section,
                section_name,
                function: kind == elf::STT_FUNC || kind == elf::STT_GNU_IFUNC,
                object: kind == elf::STT_OBJECT || kind == elf::STT_COMMON,
                local: bind == elf::STB_LOCAL,
                global: bind == elf::STB_GLOBAL,
                size: s.size(),
                mapping: mapping_of(name),
            });
        }
        SymbolTable { syms }
    }

    /// Sorts for disassembling the section named `section`: by address,
    /// then (for symbols at one address) that section's first, functions,
    /// objects, globals before locals, larger before smaller, names that
    /// do not start with `.` first, then by name.
    pub fn sort_for(&mut self, section: &str) {
        self.syms.sort_by(|a, b| order(a, b, section));
    }

    pub fn is_empty(&self) -> bool {
        self.syms.is_empty()
    }

    fn ok(&self, place: usize, want_section: Option<SectionIndex>) -> bool {
        let sym = &self.syms[place];
        (want_section.is_none() || sym.section == want_section) && sym.is_label()
    }

    /// The index of the symbol GNU objdump shows `vma` against, in
    /// `section`: among the symbols at the nearest address at or below it
    /// one of that section, else the nearest label below (of `section`
    /// only when `require_section`), else the first label above.
    pub fn find(&self, vma: u64, section: SectionIndex, require_section: bool) -> Option<usize> {
        let count = self.syms.len();
        if count == 0 {
            return None;
        }
        // The last symbol at or below `vma` (or the first one).
        let (mut min, mut max) = (0usize, count);
        while min + 1 < max {
            let mid = (min + max) / 2;
            match self.syms[mid].value.cmp(&vma) {
                Ordering::Greater => max = mid,
                Ordering::Less => min = mid,
                Ordering::Equal => {
                    min = mid;
                    break;
                }
            }
        }
        let mut place = min;
        while place > 0 && self.syms[place].value == self.syms[place - 1].value {
            place -= 1;
        }
        let group = self.syms[place].value;
        let mut end = place;
        while end < max && self.syms[end].value == group {
            if self.ok(end, Some(section)) {
                return Some(end);
            }
            end += 1;
        }
        let want = require_section.then_some(section);
        if self.ok(place, want) {
            return Some(place);
        }
        let mut found: Option<usize> = None;
        for i in (0..end).rev() {
            if self.ok(i, want) {
                match found {
                    Some(f) if self.syms[i].value != self.syms[f].value => break,
                    _ => found = Some(i),
                }
            }
        }
        let place = match found {
            Some(f) => f,
            None => (place + 1..count).find(|&i| self.ok(i, want))?,
        };
        self.ok(place, want).then_some(place)
    }

    /// `<name>`, `<name+0x10>` or `<name-0x10>` of the symbol `place` for
    /// `vma`; `<.text+0x10>` of the section when there is no symbol.
    pub fn describe(&self, place: Option<usize>, vma: u64, section: &str, base: u64) -> String {
        let (name, at) = match place {
            Some(p) => (self.syms[p].name, self.syms[p].value),
            None => (section, base),
        };
        match vma.cmp(&at) {
            Ordering::Equal => format!("<{name}>"),
            Ordering::Greater => format!("<{name}+{:#x}>", vma - at),
            Ordering::Less => format!("<{name}-{:#x}>", at - vma),
        }
    }

    /// The mapping state at `addr` in `section`: the last mapping symbol of
    /// the section at or before it; code when there is none.
    pub fn mapping_at(&self, addr: u64, section: SectionIndex) -> (Mapping, Option<usize>) {
        let end = self.syms.partition_point(|s| s.value <= addr);
        let last = (0..end)
            .rev()
            .find(|&i| self.syms[i].section == Some(section) && self.syms[i].mapping.is_some());
        match last {
            Some(i) => (self.syms[i].mapping.unwrap_or(Mapping::Code), Some(i)),
            None => (Mapping::Code, None),
        }
    }

    /// The address of the first mapping symbol of `section` after index
    /// `from` that lies above `addr`.
    pub fn next_mapping_after(&self, from: usize, addr: u64, section: SectionIndex) -> Option<u64> {
        self.syms[from + 1..]
            .iter()
            .find(|s| s.value > addr && s.section == Some(section) && s.mapping.is_some())
            .map(|s| s.value)
    }
}

/// GNU objdump's order of two symbols while disassembling `section`.
fn order(a: &Sym<'_>, b: &Sym<'_>, section: &str) -> Ordering {
    let by_flag = |fa: bool, fb: bool| fb.cmp(&fa);
    a.value
        .cmp(&b.value)
        .then_with(|| by_flag(a.section_name == section, b.section_name == section))
        .then_with(|| by_flag(!compiled_marker(a.name), !compiled_marker(b.name)))
        .then_with(|| by_flag(!file_like(a.name), !file_like(b.name)))
        .then_with(|| by_flag(a.function, b.function))
        .then_with(|| by_flag(a.object, b.object))
        .then_with(|| by_flag(!a.local, !b.local))
        .then_with(|| by_flag(a.global, b.global))
        .then_with(|| b.size.cmp(&a.size))
        .then_with(|| by_flag(!a.name.starts_with('.'), !b.name.starts_with('.')))
        .then_with(|| a.name.cmp(b.name))
}

/// `gnu_compiled`/`gcc2_compiled` symbols say nothing about the code.
fn compiled_marker(name: &str) -> bool {
    name.contains("gnu_compiled") || name.contains("gcc2_compiled")
}

/// Names that look like object or archive files (`foo.o`, `libc.a`).
fn file_like(name: &str) -> bool {
    name.len() > 2 && (name.ends_with(".o") || name.ends_with(".a"))
}
