//! Fuzzes the emulator with random words on a random mesh: every run ends
//! with statistics that add up (`scmp_fuzz::targets::run_random`).
//! The body is in the library, where a stable build runs it over the
//! repository's seeds too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| scmp_fuzz::targets::run_random(data));
