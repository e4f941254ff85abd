//! Every generated messaging program runs the same in every mode, traced
//! or not (`scmp_fuzz::targets::differential`); this is the check that
//! found issue 19's bug 1. `SCMP_FUZZ_PRINT=1` prints the program of an
//! input.
//! The body is in the library, where a stable build runs it over the
//! repository's seeds too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| scmp_fuzz::targets::differential(data));
