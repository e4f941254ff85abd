//! The differential target: every generated messaging program
//! (`scmp_fuzz::generate`) runs traced in the default mode, in lockstep,
//! with a 7-cycle and a 2^20-cycle epoch and other router visiting orders,
//! and untraced (also in lockstep): the end, output, statistics and trace
//! must be the same (`scmp_fuzz::differential`). This is the check that
//! found issue 19's bug 1. `SCMP_FUZZ_PRINT=1` prints the program of an
//! input.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(g) = scmp_fuzz::messaging_program(&mut u) else {
        return;
    };
    scmp_fuzz::print_if_asked(&g);
    let config = scmp_fuzz::config(&g.settings);
    let program = scmp_fuzz::assemble(&g);
    scmp_fuzz::differential(&config, &program);
});
