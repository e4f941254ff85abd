//! `scmp objdump`: section headers, symbols, contents and disassembly of an
//! ELF file. The disassembly is GNU objdump's, line for line (aliases,
//! `<symbol+0x8>` targets, the addresses `lui`/`auipc` pairs form), with
//! the SCMP instructions and CSRs by name.

mod disasm;
mod riscv;
mod symbols;

use std::fmt::Write;

use object::{Object, ObjectSection, ObjectSymbol, SectionFlags, SectionKind, SymbolKind};

pub use riscv::Options;

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
    /// How to disassemble (`-M`).
    pub options: Options,
}

/// Bytes as text, `.` for those that do not print.
fn printable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if (0x20..0x7f).contains(&b) {
                b as char
            } else {
                '.'
            }
        })
        .collect()
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
                let ascii = printable(chunk);
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
        disasm::disassemble(&mut out, &file, show.options);
    }
    Ok(out)
}
