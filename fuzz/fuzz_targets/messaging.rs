//! Fuzzes the emulator with whole generated messaging programs
//! (`scmp_fuzz::targets::messaging`). `SCMP_FUZZ_PRINT=1` prints the
//! program of an input.
//! The body is in the library, where a stable build runs it over the
//! repository's seeds too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| scmp_fuzz::targets::messaging(data));
