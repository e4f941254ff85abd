//! Fuzzes the emulator with random words: the first bytes choose a mesh
//! (up to 4x4), which tiles boot, how many threads, lockstep or not; the
//! rest are instruction words (up to 4096), loaded at 0x10000 on every
//! tile. Every run ends (an exit, a fault report, the cycle limit or a
//! deadlock report) with statistics that add up, never a panic, a hang or
//! a failed internal check.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [shape, threads, rest @ ..] = data else {
        return;
    };
    let words: Vec<u32> = rest
        .chunks_exact(4)
        .take(4096)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if words.is_empty() {
        return;
    }
    let settings = [
        format!("mesh.width={}", 1 + (shape & 3)),
        format!("mesh.height={}", 1 + ((shape >> 2) & 3)),
        format!(
            "boot.tiles={}",
            if shape & 16 != 0 { "all" } else { "first" }
        ),
        format!(
            "niu.design={}",
            if shape & 32 != 0 {
                "original"
            } else {
                "modified"
            }
        ),
        format!("boot.threads={}", 1 + (threads & 3)),
        "tile.memory_bytes=1048576".to_string(),
        "tile.stack_bytes=4096".to_string(),
        "network.stall_cycles=3000".to_string(),
        "sim.max_cycles=20000".to_string(),
    ];
    let config = scmp_fuzz::config(&settings);
    let program = emu::Program::from_words(0x10000, &words);
    let (result, _) = scmp_fuzz::run_untraced(&config, &program, shape & 64 != 0);
    scmp_fuzz::check_stats(&result.stats);
});
