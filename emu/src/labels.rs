//! The code labels of a program, from its ELF symbol table, by which traces
//! name branch and jump targets (`beqz a0, 0x1003c <loop+0x8>`), as
//! objdump does. A stripped program has none.

use object::Endianness;
use object::elf::{self, FileHeader32};
use object::read::elf::{FileHeader, SectionHeader, Sym};

/// Labels by address, one per address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    by_addr: Vec<(u32, String)>,
}

impl FromIterator<(u32, String)> for Labels {
    /// Labels from `(address, name)` pairs; the first name given for an
    /// address is kept.
    fn from_iter<I: IntoIterator<Item = (u32, String)>>(pairs: I) -> Labels {
        let mut by_addr: Vec<(u32, String)> = pairs.into_iter().collect();
        by_addr.sort_by_key(|(a, _)| *a);
        by_addr.dedup_by_key(|(a, _)| *a);
        Labels { by_addr }
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
    pub fn from_elf(header: &FileHeader32<Endianness>, endian: Endianness, bytes: &[u8]) -> Labels {
        let Ok(sections) = header.sections(endian, bytes) else {
            return Labels::default();
        };
        let Ok(symbols) = sections.symbols(endian, bytes, elf::SHT_SYMTAB) else {
            return Labels::default();
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
        candidates.into_iter().map(|c| (c.addr, c.name)).collect()
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
