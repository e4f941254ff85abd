//! Fuzzes the emulator with whole messaging programs (structure-aware,
//! `scmp_fuzz::generate`): the first byte chooses lockstep and the epoch,
//! the rest the program. Every run ends (exit, fault, cycle limit or
//! deadlock report) with statistics that add up, never a panic, a hang or
//! a failed internal check (fuzz builds keep debug assertions).
//! `SCMP_FUZZ_PRINT=1` prints the program of an input.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [mode, rest @ ..] = data else { return };
    let mut u = Unstructured::new(rest);
    let Ok(g) = scmp_fuzz::messaging_program(&mut u) else {
        return;
    };
    scmp_fuzz::print_if_asked(&g);
    let mut config = scmp_fuzz::config(&g.settings);
    config.sim.epoch_cycles = [7, 64, 4096, 1 << 20][(mode >> 1 & 3) as usize];
    let program = scmp_fuzz::assemble(&g);
    let (result, _) = scmp_fuzz::run_untraced(&config, &program, mode & 1 != 0);
    scmp_fuzz::check_stats(&result.stats);
});
