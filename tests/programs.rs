//! Snapshot tests: every program in `programs/` is assembled, run with the
//! options its `# run:` comment gives, and its end, output, statistics and
//! full trace are snapshotted (one snapshot per program, in
//! `tests/snapshots/programs/`), after checking invariants that hold for any
//! run: each tile's trace cycles never decrease, every retired pc lies in the
//! executable segment, the statistics add up (per tile issuing + switching +
//! idle = its cycles, the contexts' running cycles = the tile's issuing
//! cycles, one trace line per retired instruction), the same run twice
//! gives the same bytes, and neither tracing nor the epoch length changes
//! the output or the timing.

mod emu_support;

use std::path::{Path, PathBuf};

use emu::{ConfigBuilder, Program, RunEnd};
use emu_support::{Captured, VisitOrder, assemble_file, describe_end, run, run_with};

/// Options from the program's `# run:` line: `mesh=WxH`, `boot=first|all`,
/// `threads=N`, `set=section.key=value`.
fn config_for(path: &Path, text: &str) -> emu::Config {
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("# run:"))
        .unwrap_or_else(|| panic!("{}: no `# run:` line", path.display()));
    let mut b = ConfigBuilder::new();
    for token in line.split_whitespace() {
        let (key, value) = token
            .split_once('=')
            .unwrap_or_else(|| panic!("{}: bad run option `{token}`", path.display()));
        let set = |b: &mut ConfigBuilder, s: String| {
            b.set(&s)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        };
        match key {
            "mesh" => {
                let (w, h) = value.split_once('x').expect("mesh=WxH");
                set(&mut b, format!("mesh.width={w}"));
                set(&mut b, format!("mesh.height={h}"));
            }
            "boot" => set(&mut b, format!("boot.tiles={value}")),
            "threads" => set(&mut b, format!("boot.threads={value}")),
            "set" => set(&mut b, value.to_string()),
            _ => panic!("{}: unknown run option `{key}`", path.display()),
        }
    }
    b.build()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn check_invariants(name: &str, program: &Program, run: &Captured) {
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
        let running: u64 = t.contexts.iter().map(|c| c.running).sum();
        assert_eq!(
            running, t.issuing,
            "{name}: tile {} running = issuing",
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

fn snapshot_text(run: &Captured) -> String {
    format!(
        "## end\n{}\n## stdout\n{}\n## stderr\n{}\n## statistics\n{}\n## trace\n{}",
        describe_end(&run.result.end).trim_end(),
        String::from_utf8_lossy(&run.console.stdout),
        String::from_utf8_lossy(&run.console.stderr),
        run.result.stats.to_text(),
        run.trace
    )
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
fn programs_snapshot() {
    for path in programs() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let config = config_for(&path, &text);
        let elf = assemble_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let program = Program::from_elf(&elf).unwrap();
        let first = run(&config, &program, true);
        check_invariants(&name, &program, &first);
        let again = run(&config, &program, true);
        assert_eq!(
            snapshot_text(&first),
            snapshot_text(&again),
            "{name}: deterministic"
        );
        // The trace must not change the run: same output and statistics without it.
        let quiet = run(&config, &program, false);
        assert_eq!(
            quiet.console, first.console,
            "{name}: tracing changes the output"
        );
        assert_eq!(
            quiet.result.stats, first.result.stats,
            "{name}: tracing changes the timing"
        );
        // How far tiles run between synchronizations, and the order in
        // which routers are visited, change nothing: not the end, the
        // output, the trace (instructions, flits, NIU events) or the
        // statistics; a lockstep run (network and tiles one cycle at a
        // time) is the reference.
        let mut short = config.clone();
        short.sim.epoch_cycles = 7;
        let mut long = config.clone();
        long.sim.epoch_cycles = 1 << 20;
        for (what, other) in [
            (
                "lockstep",
                run_with(&config, &program, true, true, VisitOrder::Ascending),
            ),
            (
                "epoch 7",
                run_with(&short, &program, true, false, VisitOrder::Descending),
            ),
            (
                "epoch 2^20",
                run_with(&long, &program, true, false, VisitOrder::Shuffled(7)),
            ),
        ] {
            assert_eq!(
                snapshot_text(&other),
                snapshot_text(&first),
                "{name}: {what} changes the run"
            );
        }
        if name.starts_with("fault_") {
            assert!(
                matches!(first.result.end, RunEnd::Fault(_)),
                "{name}: a fault program must fault"
            );
        }
        insta::with_settings!({
            snapshot_path => "snapshots/programs",
            prepend_module_to_snapshot => false,
            input_file => &path,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name.clone(), snapshot_text(&first));
        });
    }
}
