//! Nothing a program does makes the emulator panic or hang: random words
//! (mostly valid instructions of every kind, some not) run as code on
//! several contexts end with a fault, an exit, the end of all threads or
//! the cycle limit, and the statistics add up.

use emu::{CapturedConsole, ConfigBuilder, Program, RunEnd, RunOptions};
use isa_spec::{Inst, Opcode};
use proptest::prelude::*;

/// A word that is usually an instruction (any opcode, random fields) and
/// sometimes random bits.
fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => (0..Opcode::ALL.len(), any::<u32>()).prop_map(|(i, bits)| {
            let spec = Opcode::ALL[i].spec();
            // Random field bits under the opcode's fixed bits.
            let w = (bits & !spec.mask) | spec.match_bits;
            match Inst::decode(w) {
                Some(inst) => inst.encode().unwrap_or(w),
                None => w,
            }
        }),
        1 => any::<u32>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_code_ends_cleanly(words in prop::collection::vec(word(), 1..64), threads in 1u32..4) {
        let mut b = ConfigBuilder::new();
        b.set("mesh.width=2").unwrap()
            .set("mesh.height=1").unwrap()
            .set("boot.tiles=all").unwrap()
            .set(&format!("boot.threads={threads}")).unwrap()
            .set("sim.max_cycles=20000").unwrap()
            .set("tile.memory_bytes=1048576").unwrap()
            .set("tile.stack_bytes=4096").unwrap()
            .set("scheduler.quantum=8").unwrap();
        let config = b.build().unwrap();
        let program = Program::from_words(0x10000, &words);
        let mut console = CapturedConsole::default();
        let options = RunOptions { fault_trace_lines: 4, ..RunOptions::default() };
        let result = emu::run(&config, &program, options, &mut console).unwrap();
        match &result.end {
            RunEnd::CycleLimit(limit) => prop_assert_eq!(*limit, 20000),
            RunEnd::Fault(report) => prop_assert!(report.to_string().contains("guest fault")),
            RunEnd::Deadlock(report) => prop_assert!(report.to_string().contains("deadlock")),
            RunEnd::Exit(_) | RunEnd::AllThreadsEnded => {}
        }
        for t in &result.stats.tiles {
            prop_assert_eq!(t.issuing + t.switching + t.idle, t.cycles);
            let running: u64 = t.contexts.iter().map(|c| c.running).sum();
            prop_assert_eq!(running, t.issuing);
        }
    }
}
