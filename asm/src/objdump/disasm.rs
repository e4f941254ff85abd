//! `objdump -d`: the code sections of an ELF file, region by region between
//! the symbols that label them, line for line as GNU objdump 2.40 prints
//! them (address column, the bytes in chunks, runs of zeros as `...`,
//! objects inside code as hex and text).

use std::fmt::Write;

use isa_spec::Inst;
use object::{Object, ObjectKind, ObjectSection, SectionFlags, SectionIndex, SectionKind};

use super::riscv::{self, Options, Tracker};
use super::symbols::{Mapping, SymbolTable};

/// Zeros shown as `...`: a run at least this long ...
const SKIP_ZEROES: usize = 8;
/// ... or shorter than this at the end of a region.
const SKIP_ZEROES_AT_END: usize = 3;

/// The section being disassembled.
struct Section<'a> {
    index: SectionIndex,
    name: &'a str,
    vma: u64,
    bytes: &'a [u8],
}

impl Section<'_> {
    fn end(&self) -> u64 {
        self.vma + self.bytes.len() as u64
    }
}

/// State that lasts across sections, as in GNU's disassembler.
struct Disassembler<'data> {
    symbols: SymbolTable<'data>,
    mappings: bool,
    relocatable: bool,
    options: Options,
    tracker: Tracker,
    /// Bytes per chunk of the last item, which hex dumps of objects reuse.
    bytes_per_chunk: usize,
}

/// Appends the disassembly of every code section of `file` to `out`.
pub fn disassemble(out: &mut String, file: &object::File<'_>, options: Options) {
    let symbols = SymbolTable::of(file);
    let gp = symbols
        .syms
        .iter()
        .rfind(|s| s.name == "__global_pointer$")
        .map(|s| s.value as u32);
    let mut d = Disassembler {
        mappings: symbols.syms.iter().any(|s| s.mapping.is_some()),
        relocatable: file.kind() == ObjectKind::Relocatable,
        symbols,
        options,
        tracker: Tracker::new(gp),
        bytes_per_chunk: 0,
    };
    for sec in file.sections() {
        let code = matches!(sec.flags(), SectionFlags::Elf { sh_flags, .. }
            if sh_flags.0 & object::elf::SHF_EXECINSTR.0 != 0);
        if !code || sec.kind() == SectionKind::UninitializedData {
            continue;
        }
        let (Ok(bytes), Ok(name)) = (sec.data(), sec.name()) else {
            continue;
        };
        if bytes.is_empty() {
            continue;
        }
        let section = Section {
            index: sec.index(),
            name,
            vma: sec.address(),
            bytes,
        };
        d.section(out, &section);
    }
}

impl Disassembler<'_> {
    fn section(&mut self, out: &mut String, sec: &Section<'_>) {
        self.symbols.sort_for(sec.name);
        let _ = writeln!(out, "\nDisassembly of section {}:", sec.name);
        let stop = sec.bytes.len() as u64;
        let mut sym = self.symbols.find(sec.vma, sec.index, true);
        let mut offset = 0u64;
        while offset < stop {
            let addr = sec.vma + offset;
            let label = self.symbols.describe(sym, addr, sec.name, sec.vma);
            let _ = writeln!(out, "\n{addr:08x} {label}:");
            let value = |p: usize| self.symbols.syms[p].value;
            let next = match sym {
                Some(p) if value(p) > addr => Some(p),
                None => None,
                Some(p) => (p..self.symbols.syms.len()).find(|&n| {
                    let s = &self.symbols.syms[n];
                    s.section == Some(sec.index) && s.value > value(p) && s.is_label()
                }),
            };
            let mut next_stop = match (sym, next) {
                (Some(p), _) if value(p) > addr => value(p) - sec.vma,
                (_, None) => stop,
                // A symbol below the section (a malformed file) ends the
                // region at the section's end, as GNU's unsigned arithmetic does.
                (_, Some(n)) => value(n).checked_sub(sec.vma).unwrap_or(u64::MAX),
            };
            if next_stop > stop || next_stop <= offset {
                next_stop = stop;
            }
            let object = sym.is_some_and(|p| {
                let s = &self.symbols.syms[p];
                s.section == Some(sec.index) && s.value <= addr && s.object && !s.function
            });
            self.region(out, sec, offset as usize, next_stop as usize, !object);
            offset = next_stop;
            sym = next;
        }
    }

    /// The lines of `sec.bytes[start..stop]`: instructions, or a hex dump.
    fn region(
        &mut self,
        out: &mut String,
        sec: &Section<'_>,
        start: usize,
        stop: usize,
        insns: bool,
    ) {
        let width = address_width(sec);
        let mut per_line = if insns { 4 } else { 16 };
        let mut at = start;
        while at < stop {
            let zeros = sec.bytes[at..stop].iter().take_while(|&&b| b == 0).count();
            if zeros >= SKIP_ZEROES || (at + zeros == stop && zeros < SKIP_ZEROES_AT_END) {
                let skip = if at + zeros == stop {
                    zeros
                } else {
                    zeros & !3
                };
                out.push_str("\t...\n");
                at += skip;
                continue;
            }
            let addr = sec.vma + at as u64;
            let shown = format!("{addr:08x}");
            let shown = &shown[8 - width..];
            let digits = shown.trim_start_matches('0');
            let digits = if digits.is_empty() { "0" } else { digits };
            let _ = write!(out, "{digits:>width$}:\t");
            let (length, text, chunk) = if insns {
                let (length, text, chunk, line) = self.item(sec, at, stop);
                per_line = line;
                (length, text, chunk)
            } else {
                let length = 16.min(stop - at);
                let text = super::printable(&sec.bytes[at..at + length]);
                (length, text, self.bytes_per_chunk.max(1))
            };
            let shown_bytes = length.min(per_line);
            let mut j = 0;
            while j < shown_bytes {
                if at + j + chunk <= stop {
                    for k in (0..chunk).rev() {
                        let _ = write!(out, "{:02x}", sec.bytes[at + j + k]);
                    }
                }
                out.push(' ');
                j += chunk;
            }
            let mut padded = shown_bytes;
            while padded < per_line {
                out.push_str(&" ".repeat(2 * chunk + 1));
                padded += chunk;
            }
            out.push_str(if insns { "\t" } else { "    " });
            out.push_str(&text);
            out.push('\n');
            at += length;
        }
    }

    /// One instruction or data item at `at`: its length, text, bytes per
    /// chunk and bytes per line.
    fn item(&mut self, sec: &Section<'_>, at: usize, stop: usize) -> (usize, String, usize, usize) {
        let addr = sec.vma + at as u64;
        let mapping = if self.mappings {
            self.symbols.mapping_at(addr, sec.index)
        } else {
            (Mapping::Code, None)
        };
        if let (Mapping::Data, Some(last)) = mapping {
            let until = self
                .symbols
                .next_mapping_after(last, addr, sec.index)
                .unwrap_or(sec.end())
                .min(sec.end());
            let mut length = 4.min((until - addr) as usize);
            if length == 3 {
                length = 2;
            }
            let text = riscv::data(&sec.bytes[at..at + length]);
            self.bytes_per_chunk = length;
            let line = if length == 1 { 6 } else { 8 };
            return (length, text, length, line);
        }
        let bytes = &sec.bytes[at..stop];
        let first = u16::from_le_bytes([bytes[0], *bytes.get(1).unwrap_or(&0)]);
        // An instruction cut short by the end of its region prints as the
        // bytes there are (GNU prints `Address 0x... is out of bounds.`).
        let length = riscv::insn_length(first).min(bytes.len());
        let chunk = if length.is_multiple_of(4) { 4 } else { 2 };
        self.bytes_per_chunk = chunk;
        let decoded = (length == 4)
            .then(|| Inst::decode(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])))
            .flatten();
        let text = match decoded {
            Some(inst) => {
                let symbols = &self.symbols;
                let relocatable = self.relocatable;
                let address = |target: u32| print_address(symbols, sec, relocatable, target);
                riscv::instruction(
                    &inst,
                    addr as u32,
                    self.options,
                    &mut self.tracker,
                    &address,
                )
            }
            None => riscv::unknown(&bytes[..length]),
        };
        (length, text, chunk, 8)
    }
}

/// Hex digits of the address column: eight, less the leading zeros (in
/// fours, keeping one) that the section's end address has.
fn address_width(sec: &Section<'_>) -> usize {
    let end = format!("{:08x}", sec.end());
    let zeros = end.bytes().take_while(|&b| b == b'0').count();
    let skip = if zeros == end.len() && sec.vma != 0 {
        0
    } else if zeros != 0 {
        (zeros - 1) & !3
    } else {
        0
    };
    8 - skip
}

/// An address in an operand or a `#` comment: `1003c <loop+0x8>`, or
/// `0x1003c` in a file without symbols.
fn print_address(
    symbols: &SymbolTable<'_>,
    sec: &Section<'_>,
    relocatable: bool,
    vma: u32,
) -> String {
    if symbols.is_empty() {
        return format!("{vma:#x}");
    }
    let vma = u64::from(vma);
    let in_section = relocatable && vma >= sec.vma && vma < sec.end();
    let place = symbols.find(vma, sec.index, in_section);
    format!(
        "{vma:x} {}",
        symbols.describe(place, vma, sec.name, sec.vma)
    )
}
