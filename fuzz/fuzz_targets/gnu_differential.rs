//! Random GNU as sources (choices from the input's bytes) through GNU as
//! and ours, objects and GNU ld images compared
//! (`scmp_fuzz::targets::gnu_differential`). `SCMP_FUZZ_PRINT=1` prints the
//! source of an input. The body is in the library, where a stable build
//! runs it over the repository's seeds too (and the workspace's
//! `tests/gnu_objects.rs` runs the same generator from seeds).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| scmp_fuzz::targets::gnu_differential(data));
