//! Fuzzes the emulator with random programs: the first bytes choose a mesh
//! (up to 4x4), which tiles boot and how many threads; the rest are
//! instruction words (up to a few thousand), loaded at 0x10000 on every
//! tile. Every run ends (an exit, a fault report, the cycle limit or a
//! deadlock report), never a panic or a hang. Run with
//! `cargo fuzz run run_random`.
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
    let mut builder = emu::ConfigBuilder::new();
    for setting in [
        format!("mesh.width={}", 1 + (shape & 3)),
        format!("mesh.height={}", 1 + ((shape >> 2) & 3)),
        format!("boot.tiles={}", if shape & 16 != 0 { "all" } else { "first" }),
        format!("boot.threads={}", 1 + (threads & 3)),
        "sim.max_cycles=20000".to_string(),
    ] {
        builder.set(&setting).expect("a valid setting");
    }
    let config = builder.build().expect("a valid configuration");
    let program = emu::Program::from_words(0x10000, &words);
    let options = emu::RunOptions {
        fault_trace_lines: 4,
        ..emu::RunOptions::default()
    };
    let mut console = emu::CapturedConsole::default();
    let _ = emu::run(&config, &program, options, &mut console);
});
