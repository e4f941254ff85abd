//! Loading a program: the `PT_LOAD` segments and entry point of an ELF32
//! RISC-V executable (read with the `object` crate), or raw instruction words.

use std::fmt;

use object::Endianness;
use object::elf::{EF_RISCV_RVC, EM_RISCV, FileHeader32, PF_X, PT_LOAD};
use object::read::elf::{FileHeader, ProgramHeader};

use crate::labels::Labels;

/// A loadable segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Virtual (= tile-local) address.
    pub addr: u32,
    /// Bytes from the file; the rest up to `mem_size` is zero.
    pub data: Vec<u8>,
    /// Size in memory.
    pub mem_size: u32,
    /// Whether the segment holds code (its words are predecoded).
    pub executable: bool,
}

/// An executable image, loaded identically into every tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Entry point.
    pub entry: u32,
    /// Loadable segments.
    pub segments: Vec<Segment>,
    /// Code labels, for traces.
    pub labels: Labels,
    /// Every named symbol (code and data), for `--dump`.
    pub symbols: Vec<crate::labels::Symbol>,
}

/// Why a file is not a loadable program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(pub String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

impl Program {
    /// Reads an ELF32 little-endian RISC-V executable.
    pub fn from_elf(bytes: &[u8]) -> Result<Program, LoadError> {
        let fail = |what: &str| LoadError(format!("not a loadable SCMP program: {what}"));
        if bytes.len() < 4 || &bytes[..4] != b"\x7fELF" {
            return Err(fail("no ELF magic number"));
        }
        // EI_CLASS: 2 is ELFCLASS64.
        if bytes.get(4) == Some(&2) {
            return Err(fail(
                "a 64-bit ELF (RV64); SCMP tiles are RV32: build with riscv64-unknown-elf-gcc -march=rv32g -mabi=ilp32d (and -march=rv32g for as and ld's -m elf32lriscv)",
            ));
        }
        let header = FileHeader32::<Endianness>::parse(bytes)
            .map_err(|e| fail(&format!("not an ELF32 file ({e})")))?;
        let endian = header
            .endian()
            .map_err(|e| fail(&format!("bad ELF header ({e})")))?;
        if endian != Endianness::Little {
            return Err(fail("big-endian ELF (RISC-V is little-endian)"));
        }
        if header.e_machine(endian) != EM_RISCV {
            return Err(fail(&format!(
                "ELF machine {} is not RISC-V ({EM_RISCV})",
                header.e_machine(endian)
            )));
        }
        if header.e_flags(endian).0 & EF_RISCV_RVC.0 != 0 {
            return Err(fail(
                "the ELF is built for compressed instructions (RVC flag), which SCMP tiles do not have: compile with -march=rv32g (gcc's default includes C)",
            ));
        }
        let headers = header
            .program_headers(endian, bytes)
            .map_err(|e| fail(&format!("bad program headers ({e})")))?;
        let mut segments = Vec::new();
        for ph in headers {
            if ph.p_type(endian) != PT_LOAD || ph.p_memsz(endian) == 0 {
                continue;
            }
            let data = ph
                .data(endian, bytes)
                .map_err(|_| fail("a segment lies outside the file"))?;
            let mem_size = ph.p_memsz(endian);
            if (data.len() as u32) > mem_size {
                return Err(fail("a segment's file size exceeds its memory size"));
            }
            let (addr, load_addr) = (ph.p_vaddr(endian), ph.p_paddr(endian));
            let executable = ph.p_flags(endian).0 & PF_X.0 != 0;
            if executable && !addr.is_multiple_of(4) {
                return Err(fail(&format!(
                    "the code segment at {addr:#010x} is not 4-byte aligned (instructions are 32-bit words)"
                )));
            }
            segments.push(Segment {
                addr,
                data: data.to_vec(),
                mem_size,
                executable,
            });
            // A segment loaded at another address than it runs at (initialized
            // data in ROM that the C runtime copies to RAM) is also placed
            // at its load address, as a boot loader would.
            if load_addr != addr && !data.is_empty() {
                segments.push(Segment {
                    addr: load_addr,
                    data: data.to_vec(),
                    mem_size: data.len() as u32,
                    executable: false,
                });
            }
        }
        if segments.is_empty() {
            return Err(fail("no loadable segment"));
        }
        Ok(Program {
            entry: header.e_entry(endian),
            segments,
            labels: Labels::from_elf(header, endian, bytes),
            symbols: crate::labels::symbols(header, endian, bytes),
        })
    }

    /// A program of raw instruction words at `base`, entered at `base`.
    pub fn from_words(base: u32, words: &[u32]) -> Program {
        Program {
            entry: base,
            segments: vec![Segment {
                addr: base,
                data: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
                mem_size: 4 * words.len() as u32,
                executable: true,
            }],
            labels: Labels::default(),
            symbols: Vec::new(),
        }
    }

    /// The symbol named `name`.
    pub fn symbol(&self, name: &str) -> Option<&crate::labels::Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// One past the highest address the image occupies.
    pub fn image_end(&self) -> u64 {
        self.segments
            .iter()
            .map(|s| s.addr as u64 + s.mem_size as u64)
            .max()
            .unwrap_or(0)
    }

    /// The address range spanned by the executable segments.
    pub fn text_range(&self) -> std::ops::Range<u32> {
        let exec = self.segments.iter().filter(|s| s.executable);
        let start = exec.clone().map(|s| s.addr).min().unwrap_or(0);
        let end = exec
            .map(|s| s.addr.saturating_add(s.mem_size))
            .max()
            .unwrap_or(0);
        start..end.max(start)
    }

    /// Checks that the image fits in `memory_bytes` below the stacks.
    pub fn check_fits(&self, memory_bytes: u64, stack_top_region: u64) -> Result<(), LoadError> {
        let stacks_start = memory_bytes - stack_top_region;
        for s in &self.segments {
            let end = s.addr as u64 + s.mem_size as u64;
            if end > memory_bytes {
                // picolibc's own linker script puts text at 0x10000000.
                let hint = if s.addr >= 0x1000_0000 {
                    "; a C program linked with picolibc's default memory map? Link with -Tscmp-picolibc.ld (c/scmp-picolibc.ld: text from 0x10000, see the README, \"C programs with picolibc\")"
                } else {
                    ""
                };
                return Err(LoadError(format!(
                    "the segment at {:#010x}..{end:#010x} does not fit in the tile's {memory_bytes} bytes of memory (tile.memory_bytes){hint}",
                    s.addr
                )));
            }
            if end > stacks_start {
                return Err(LoadError(format!(
                    "the segment at {:#010x}..{end:#010x} overlaps the context stacks at {stacks_start:#010x}..{memory_bytes:#010x} (tile.contexts x tile.stack_bytes)",
                    s.addr
                )));
            }
        }
        if !self.entry.is_multiple_of(4) || !self.text_range().contains(&self.entry) {
            return Err(LoadError(format!(
                "the entry point {:#010x} is not an aligned address in an executable segment",
                self.entry
            )));
        }
        Ok(())
    }
}
