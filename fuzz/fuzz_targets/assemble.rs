//! Fuzzes the whole assembler: any text gives an executable or
//! diagnostics, never a panic (`scmp_fuzz::targets::assemble` says how it
//! is kept fast and bounded).
//! The body is in the library, where a stable build runs it over the
//! repository's seeds too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| scmp_fuzz::targets::assemble(data));
