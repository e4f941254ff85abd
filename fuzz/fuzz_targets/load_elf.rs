//! Fuzzes the readers of ELF files: any bytes given to the emulator's
//! loader and to the disassembler give a program or an error, never a
//! panic (`scmp_fuzz::targets::load_elf`).
//! The body is in the library, where a stable build runs it over the
//! repository's seeds too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| scmp_fuzz::targets::load_elf(data));
