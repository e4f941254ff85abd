//! The programs in `programs/` against their snapshots (`programs/NAME.snap`,
//! insta's format), both ways a user can check them:
//!
//! - `scmp test --check --cross-check programs` (the command a user runs,
//!   in CI mode), which also runs every program in lockstep, with a short
//!   and a long epoch, with other router visiting orders and on the other
//!   router core, and requires the same text each time;
//! - the `emu` library and insta (as a Rust user's own test would), after
//!   checking invariants that hold for any run: each tile's trace cycles
//!   never decrease, every retired pc lies in the executable segment, the
//!   statistics add up (per tile issuing + switching + idle = its cycles,
//!   the contexts' running cycles = the tile's issuing cycles, no more
//!   instructions than issuing cycles, handler and polling cycles within
//!   issuing, idle cycles by cause adding up, one trace line per retired
//!   instruction), the same run twice gives the same
//!   bytes, and tracing does not change the output or the timing.

mod emu_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use emu::snapshot::{RunHeader, SnapshotOptions, SnapshotRun};
use emu::{Program, RunEnd};
use emu_support::{run_untraced, run_untraced_with};

fn check_invariants(name: &str, program: &Program, run: &SnapshotRun) {
    let text = program.text_range();
    let mut last_cycle: std::collections::HashMap<u32, u64> = Default::default();
    let mut lines = 0u64;
    let mut last_event = 0u64;
    for line in run.trace.lines() {
        let mut fields = line.split_whitespace();
        let cycle: u64 = fields.next().unwrap().parse().unwrap();
        let who = fields.next().unwrap();
        // Network (rN) and NIU (nN) events: in cycle order among themselves.
        if !who.starts_with('t') {
            assert!(cycle >= last_event, "{name}: events go back: {line}");
            last_event = cycle;
            continue;
        }
        lines += 1;
        let tile: u32 = who[1..].parse().unwrap();
        let _context = fields.next().unwrap();
        let pc = u32::from_str_radix(fields.next().unwrap().trim_end_matches(':'), 16).unwrap();
        let last = last_cycle.entry(tile).or_insert(0);
        assert!(
            cycle >= *last,
            "{name}: tile {tile} cycle goes back: {line}"
        );
        *last = cycle;
        assert!(
            text.contains(&pc),
            "{name}: pc {pc:#x} outside .text {text:x?}: {line}"
        );
    }
    let stats = &run.result.stats;
    // Trace lines stamped after an exit or fault are dropped (other tiles may
    // have run on to the end of the epoch).
    let halted = matches!(run.result.end, RunEnd::Exit(_) | RunEnd::Fault(_));
    if halted {
        assert!(
            lines <= stats.instructions,
            "{name}: more trace lines than instructions"
        );
    } else {
        assert_eq!(
            lines, stats.instructions,
            "{name}: one trace line per instruction"
        );
    }
    let site_cycles: u64 = stats.wait_sites.iter().map(|w| w.polling + w.idle).sum();
    let charged: u64 = stats
        .tiles
        .iter()
        .map(|t| t.polling + t.idle - t.idle_by.no_thread)
        .sum();
    assert!(
        site_cycles <= charged,
        "{name}: wait sites hold polling and idle cycles only"
    );
    for t in &stats.tiles {
        assert_eq!(
            t.issuing + t.switching + t.idle,
            t.cycles,
            "{name}: tile {} cycles by state",
            t.tile
        );
        // Every tile's statistics end with the run.
        assert_eq!(
            t.cycles, stats.total_cycles,
            "{name}: tile {} ends with the run",
            t.tile
        );
        // Every instruction takes at least one issuing cycle (an
        // instruction that issued at or after the end must not count).
        assert!(
            t.instructions <= t.issuing,
            "{name}: tile {} retired {} instructions in {} issuing cycles",
            t.tile,
            t.instructions,
            t.issuing
        );
        let running: u64 = t.contexts.iter().map(|c| c.running).sum();
        assert_eq!(
            running, t.issuing,
            "{name}: tile {} running = issuing",
            t.tile
        );
        // Where the cycles go: parts of issuing and of idle.
        assert!(
            t.handler_issuing <= t.issuing
                && t.polling <= t.issuing
                && t.handler_polling <= t.polling.min(t.handler_issuing),
            "{name}: tile {} handler and polling cycles are parts of issuing",
            t.tile
        );
        let idle_parts: u64 = t.idle_by.named().iter().map(|(_, v)| v).sum();
        assert_eq!(
            idle_parts, t.idle,
            "{name}: tile {} idle cycles by cause add up",
            t.tile
        );
        for c in &t.contexts {
            let s = &c.suspended;
            assert!(
                c.running
                    + c.ready_waiting
                    + s.wait_send
                    + s.wait_receive
                    + s.queue_full
                    + s.niu_busy
                    + s.id_in_use
                    + s.table_full
                    <= t.cycles,
                "{name}: tile {} context {} accounts more cycles than the tile has",
                t.tile,
                c.context
            );
        }
    }
}

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("programs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "programs/ has its programs");
    files
}

#[test]
fn scmp_test_checks_every_program() {
    let out = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(["test", "--check", "--cross-check", "programs"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("scmp runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "scmp test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let n = programs().len();
    assert!(
        stdout.contains(&format!(
            "scmp test: {n} programs: {n} matched, 0 accepted, 0 rejected, 0 pending, 0 failed"
        )),
        "{stdout}"
    );
}

#[test]
fn programs_snapshot_through_the_library() {
    for path in programs() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let header = RunHeader::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let config = header.config().unwrap_or_else(|e| panic!("{name}: {e}"));
        let options = asm::Options {
            defsyms: header.defsyms.clone(),
            include_dirs: vec![path.parent().unwrap().to_path_buf()],
            ..asm::Options::default()
        };
        let elf = asm::assemble_sources(&[(format!("{name}.s"), text)], &options)
            .unwrap_or_else(|d| panic!("{name}: {d}"))
            .elf;
        let program = Program::from_elf(&elf).unwrap();
        let snapshot = SnapshotOptions {
            trace: header.trace.clone(),
            keep: header.keep,
            ..SnapshotOptions::default()
        };
        // The invariants read every trace line: a program whose snapshot
        // keeps a summary (`trace=summary|auto` past the limit) or none is
        // checked on its full trace.
        let full = SnapshotOptions {
            keep: emu::snapshot::TraceKeep::Full,
            ..snapshot.clone()
        };
        let first = emu::snapshot::run(&config, &program, &full).unwrap();
        check_invariants(&name, &program, &first);
        let kept = emu::snapshot::run(&config, &program, &snapshot).unwrap();
        let again = emu::snapshot::run(&config, &program, &snapshot).unwrap();
        assert_eq!(kept.text(), again.text(), "{name}: deterministic");
        assert_eq!(
            kept.trace,
            header.keep.apply(first.trace.clone()),
            "{name}: the kept trace is the full one, kept as the header says"
        );
        // The trace must not change the run: same output and statistics without it.
        let (quiet, console) = run_untraced(&config, &program);
        assert_eq!(console, first.console, "{name}: tracing changes the output");
        assert_eq!(
            quiet.end, first.result.end,
            "{name}: tracing changes the end"
        );
        assert_eq!(
            quiet.stats, first.result.stats,
            "{name}: tracing changes the timing"
        );
        // Nor the way tiles and network are kept in step (cross-checked
        // traced by `scmp test` above; the untraced runs take the fast
        // paths and replay a halted run without a trace).
        for (what, lockstep, epoch) in [("lockstep", true, None), ("epoch 7", false, Some(7))] {
            let mut other = config.clone();
            if let Some(e) = epoch {
                other.sim.epoch_cycles = e;
            }
            let (run, other_console) = run_untraced_with(&other, &program, lockstep);
            assert_eq!(other_console, console, "{name}: {what} changes the output");
            assert_eq!(run.end, quiet.end, "{name}: {what} changes the end");
            assert_eq!(
                run.stats, quiet.stats,
                "{name}: {what} changes the statistics"
            );
        }
        if name.starts_with("fault_") {
            assert!(
                matches!(first.result.end, RunEnd::Fault(_)),
                "{name}: a fault program must fault"
            );
        }
        insta::with_settings!({
            snapshot_path => "../programs",
            prepend_module_to_snapshot => false,
            input_file => &path,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name.clone(), kept.text());
        });
    }
}
