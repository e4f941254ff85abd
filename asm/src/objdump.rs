//! `scmp objdump`: section headers, symbols, contents and disassembly of an
//! ELF file, in the syntax the assembler accepts (an instruction's text
//! reassembles to the same word at the same address; words that are no
//! instruction print as `.word`).

use std::collections::BTreeMap;
use std::fmt::Write;

use isa_spec::Inst;
use object::{Object, ObjectSection, ObjectSymbol, SectionFlags, SectionKind, SymbolKind};

/// What to show.
#[derive(Clone, Debug, Default)]
pub struct Show {
    /// Disassemble code sections (`-d`).
    pub disassemble: bool,
    /// Symbol table (`-t`).
    pub symbols: bool,
    /// Section headers (`-h`).
    pub headers: bool,
    /// Hex contents of allocated sections (`-s`).
    pub contents: bool,
}

/// Address-ordered labels of a file, for `<sym+off>` annotations.
pub struct Labels {
    by_addr: BTreeMap<u64, String>,
}

impl Labels {
    /// Labels of every defined, named, non-file symbol; globals win ties.
    pub fn of(file: &object::File<'_>) -> Labels {
        let mut by_addr: BTreeMap<u64, (bool, String)> = BTreeMap::new();
        for s in file.symbols() {
            let Ok(name) = s.name() else { continue };
            if name.is_empty()
                || s.kind() == SymbolKind::File
                || s.kind() == SymbolKind::Section
                || s.is_undefined()
            {
                continue;
            }
            if s.section_index().is_none() {
                continue;
            }
            let global = s.is_global();
            let e = by_addr
                .entry(s.address())
                .or_insert((global, name.to_string()));
            if global && !e.0 {
                *e = (global, name.to_string());
            }
        }
        Labels {
            by_addr: by_addr.into_iter().map(|(a, (_, n))| (a, n)).collect(),
        }
    }

    /// `name` or `name+0xoff` of the nearest label at or before `addr`.
    pub fn describe(&self, addr: u64) -> Option<String> {
        let (a, n) = self.by_addr.range(..=addr).next_back()?;
        Some(if *a == addr {
            n.clone()
        } else {
            format!("{n}+{:#x}", addr - a)
        })
    }

    /// The label exactly at `addr`.
    pub fn at(&self, addr: u64) -> Option<&str> {
        self.by_addr.get(&addr).map(String::as_str)
    }
}

fn flags_text(sec: &object::Section<'_, '_>) -> String {
    let mut f = Vec::new();
    if let SectionFlags::Elf { sh_flags, .. } = sec.flags() {
        let has = |flag: object::elf::SectionFlags| sh_flags.0 & flag.0 != 0;
        if has(object::elf::SHF_ALLOC) {
            f.push("ALLOC");
            if !has(object::elf::SHF_WRITE) {
                f.push("READONLY");
            }
        }
        if has(object::elf::SHF_EXECINSTR) {
            f.push("CODE");
        }
    }
    match sec.kind() {
        SectionKind::UninitializedData => f.push("NOBITS"),
        SectionKind::Data | SectionKind::ReadOnlyData => f.push("DATA"),
        _ => {}
    }
    f.join(", ")
}

/// Renders what `show` asks for.
pub fn dump(data: &[u8], name: &str, show: &Show) -> Result<String, String> {
    let file = object::File::parse(data).map_err(|e| format!("not an ELF file: {e}"))?;
    if file.architecture() != object::Architecture::Riscv32 {
        return Err(format!(
            "not a 32-bit RISC-V file ({:?})",
            file.architecture()
        ));
    }
    let mut out = String::new();
    let _ = writeln!(out, "\n{name}:     file format elf32-littleriscv\n");
    let labels = Labels::of(&file);
    if show.headers {
        let _ = writeln!(
            out,
            "Sections:\nIdx Name               Size      VMA       File off  Algn  Flags"
        );
        for sec in file.sections() {
            let Ok(n) = sec.name() else { continue };
            if n.is_empty() {
                continue;
            }
            let (off, _) = sec.file_range().unwrap_or((0, 0));
            let _ = writeln!(
                out,
                "{:>3} {:<18} {:08x}  {:08x}  {:08x}  2**{:<3} {}",
                sec.index().0,
                n,
                sec.size(),
                sec.address(),
                off,
                sec.align().trailing_zeros(),
                flags_text(&sec)
            );
        }
        out.push('\n');
    }
    if show.symbols {
        let _ = writeln!(out, "SYMBOL TABLE:");
        for s in file.symbols() {
            let n = s.name().unwrap_or("");
            let scope = if s.is_global() {
                if s.is_weak() { "w" } else { "g" }
            } else {
                "l"
            };
            let kind = match s.kind() {
                SymbolKind::Text => "F",
                SymbolKind::Data => "O",
                SymbolKind::File => "df",
                _ => "",
            };
            let sec = match s.section_index() {
                Some(i) => file
                    .section_by_index(i)
                    .ok()
                    .and_then(|x| x.name().ok().map(str::to_string))
                    .unwrap_or_default(),
                None if s.is_undefined() => "*UND*".to_string(),
                None => "*ABS*".to_string(),
            };
            let _ = writeln!(
                out,
                "{:08x} {:<2} {:<3} {:<10} {:08x} {}",
                s.address(),
                scope,
                kind,
                sec,
                s.size(),
                n
            );
        }
        out.push('\n');
    }
    if show.contents {
        for sec in file.sections() {
            if sec.address() == 0 || sec.kind() == SectionKind::UninitializedData {
                continue;
            }
            let Ok(bytes) = sec.data() else { continue };
            let _ = writeln!(out, "Contents of section {}:", sec.name().unwrap_or("?"));
            for (i, chunk) in bytes.chunks(16).enumerate() {
                let hex: Vec<String> = chunk
                    .chunks(4)
                    .map(|w| w.iter().map(|b| format!("{b:02x}")).collect())
                    .collect();
                let ascii: String = chunk
                    .iter()
                    .map(|&b| {
                        if (0x20..0x7f).contains(&b) {
                            b as char
                        } else {
                            '.'
                        }
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    " {:06x} {:<35}  {}",
                    sec.address() + i as u64 * 16,
                    hex.join(" "),
                    ascii
                );
            }
        }
        out.push('\n');
    }
    if show.disassemble {
        for sec in file.sections().filter(|s| s.kind() == SectionKind::Text) {
            let Ok(bytes) = sec.data() else { continue };
            let _ = writeln!(out, "Disassembly of section {}:", sec.name().unwrap_or("?"));
            disassemble(&mut out, bytes, sec.address(), &labels);
        }
    }
    Ok(out)
}

/// Disassembles `bytes` at `base`, one line per word:
/// `   addr:\tword\tinstruction[\t# <target>]`.
pub fn disassemble(out: &mut String, bytes: &[u8], base: u64, labels: &Labels) {
    let mut i = 0usize;
    while i < bytes.len() {
        let addr = base + i as u64;
        if let Some(l) = labels.at(addr) {
            let _ = writeln!(out, "\n{addr:08x} <{l}>:");
        }
        if i + 4 > bytes.len() {
            let rest: Vec<String> = bytes[i..].iter().map(|b| format!("{b:#04x}")).collect();
            let _ = writeln!(out, "{addr:8x}:\t{:<8}\t.byte {}", "", rest.join(", "));
            break;
        }
        let word = u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        match Inst::decode(word) {
            Some(inst) => {
                let text = inst.display(addr as u32).to_string();
                match inst
                    .target(addr as u32)
                    .and_then(|t| labels.describe(t as u64))
                {
                    Some(target) => {
                        let _ = writeln!(out, "{addr:8x}:\t{word:08x}\t{text}\t# <{target}>");
                    }
                    None => {
                        let _ = writeln!(out, "{addr:8x}:\t{word:08x}\t{text}");
                    }
                }
            }
            None => {
                let _ = writeln!(out, "{addr:8x}:\t{word:08x}\t.word {word:#010x}");
            }
        }
        i += 4;
    }
    out.push('\n');
}
