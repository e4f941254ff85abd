//! The fuzz targets' bodies ([`targets`]; libFuzzer's entry points are in
//! `fuzz_targets/`) and what they share: the messaging-program generator
//! ([`generate`]) and the checks of a run ([`check_stats`],
//! [`differential`]). How to run them is in docs/fuzzing.md (`fuzz/run`
//! runs them).

pub mod generate;
pub mod targets;

use emu::snapshot::{SnapshotOptions, SnapshotRun};
use emu::{CapturedConsole, Config, ConfigBuilder, Program, RunEnd, RunOptions, RunResult, Stats};

pub use generate::{Generated, messaging_program};

/// The configuration of `settings` (`section.key=value`).
pub fn config(settings: &[String]) -> Config {
    let mut builder = ConfigBuilder::new();
    for s in settings {
        builder.set(s).expect("a valid setting");
    }
    builder.build().expect("a valid configuration")
}

/// Assembles a generated program (which must assemble: the generator only
/// writes valid source).
pub fn assemble(g: &Generated) -> Program {
    let elf = match asm::assemble_sources(
        &[("generated.s".to_string(), g.source.clone())],
        &asm::Options::default(),
    ) {
        Ok(out) => out.elf,
        Err(d) => panic!("a generated program does not assemble:\n{d}\n{}", g.source),
    };
    Program::from_elf(&elf).expect("a generated program loads")
}

/// Writes the program to stderr when `SCMP_FUZZ_PRINT` is set (to turn a
/// fuzzer's finding into a `programs/` program: run the target on the
/// input file with it set).
pub fn print_if_asked(g: &Generated) {
    if std::env::var_os("SCMP_FUZZ_PRINT").is_some() {
        eprintln!("{}", g.source);
    }
}

/// Runs untraced, in lockstep or not.
pub fn run_untraced(
    config: &Config,
    program: &Program,
    lockstep: bool,
) -> (RunResult, CapturedConsole) {
    let mut console = CapturedConsole::default();
    let options = RunOptions {
        fault_trace_lines: 8, // as emu::snapshot::run
        lockstep,
        ..RunOptions::default()
    };
    let result = emu::run(config, program, options, &mut console).expect("the program loads");
    (result, console)
}

/// What holds for the statistics of any run: every tile's cycles are its
/// issuing, switching and idle cycles and end with the run, its contexts'
/// running cycles are its issuing cycles, no more instructions than issuing
/// cycles, no context accounts more cycles than its tile has.
pub fn check_stats(stats: &Stats) {
    for t in &stats.tiles {
        assert_eq!(
            t.issuing + t.switching + t.idle,
            t.cycles,
            "tile {} cycles by state",
            t.tile
        );
        assert_eq!(
            t.cycles, stats.total_cycles,
            "tile {} ends with the run",
            t.tile
        );
        assert!(
            t.instructions <= t.issuing,
            "tile {}: more instructions than issuing cycles",
            t.tile
        );
        let running: u64 = t.contexts.iter().map(|c| c.running).sum();
        assert_eq!(running, t.issuing, "tile {} running = issuing", t.tile);
        for c in &t.contexts {
            let s = &c.suspended;
            let accounted = c.running
                + c.ready_waiting
                + s.wait_send
                + s.wait_receive
                + s.queue_full
                + s.niu_busy
                + s.id_in_use
                + s.table_full;
            assert!(
                accounted <= t.cycles,
                "tile {} context {} over-accounted",
                t.tile,
                c.context
            );
        }
    }
    let sum: u64 = stats.tiles.iter().map(|t| t.instructions).sum();
    assert_eq!(sum, stats.instructions, "instructions add up");
}

/// The differential check: the program's run traced (every record), in
/// lockstep, with a 7-cycle epoch and routers visited in descending order,
/// with a 2^20-cycle epoch and a shuffled order, with the tiles on three
/// host threads, and on the other router core (`sim.network_engine`; the
/// cross-check of `scmp test --cross-check`) gives the same text (end,
/// output, statistics, trace); untraced, the same end, output and
/// statistics, also in lockstep.
pub fn differential(config: &Config, program: &Program) {
    let options = SnapshotOptions::default();
    let base = emu::snapshot::run(config, program, &options).expect("the program loads");
    check_stats(&base.result.stats);
    let text = base.text();
    for (what, other) in
        emu::snapshot::cross_check_runs(config, program, &options).expect("the program loads")
    {
        let other_text = other.text();
        if other_text != text {
            panic!(
                "the run {what} differs from the ordinary run:\n{}",
                first_difference(&text, &other_text)
            );
        }
    }
    for lockstep in [false, true] {
        let (quiet, console) = run_untraced(config, program, lockstep);
        compare_untraced(&base, &quiet, &console, lockstep);
    }
}

fn compare_untraced(
    base: &SnapshotRun,
    quiet: &RunResult,
    console: &CapturedConsole,
    lockstep: bool,
) {
    let what = if lockstep {
        "untraced in lockstep"
    } else {
        "untraced"
    };
    // The fault report's last instructions come from the same replay.
    let end = |e: &RunEnd| format!("{e:?}");
    assert_eq!(
        end(&quiet.end),
        end(&base.result.end),
        "{what}: the end differs"
    );
    assert_eq!(
        console.stdout, base.console.stdout,
        "{what}: the output differs"
    );
    assert_eq!(
        console.stderr, base.console.stderr,
        "{what}: the error output differs"
    );
    assert_eq!(
        quiet.stats, base.result.stats,
        "{what}: the statistics differ"
    );
}

/// The first differing line of two texts, with its neighbours.
fn first_difference(a: &str, b: &str) -> String {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let i = la
        .iter()
        .zip(&lb)
        .position(|(x, y)| x != y)
        .unwrap_or(la.len().min(lb.len()));
    let from = i.saturating_sub(3);
    let show = |l: &[&str]| l[from.min(l.len())..(i + 3).min(l.len())].join("\n");
    format!(
        "line {}:\n- ordinary:\n{}\n+ other:\n{}",
        i + 1,
        show(&la),
        show(&lb)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Generated programs assemble, and pass the differential check, for
    /// bytes of a simple generator (the fuzzer explores much further).
    #[test]
    fn generated_programs_run_the_same_every_way() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut ends = std::collections::BTreeMap::new();
        for _ in 0..40 {
            let bytes: Vec<u8> = (0..600)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 24) as u8
                })
                .collect();
            let g = messaging_program(&mut arbitrary::Unstructured::new(&bytes)).unwrap();
            print_if_asked(&g);
            let config = config(&g.settings);
            let program = assemble(&g);
            differential(&config, &program);
            let (r, _) = run_untraced(&config, &program, false);
            let kind = match r.end {
                RunEnd::AllThreadsEnded => "ended",
                RunEnd::Exit(_) => "exit",
                RunEnd::Fault(_) => "fault",
                RunEnd::CycleLimit(_) => "limit",
                RunEnd::Deadlock(_) => "deadlock",
                RunEnd::Interrupted(_) => "interrupted",
            };
            *ends.entry(kind).or_insert(0) += 1;
        }
        eprintln!("{ends:?}");
    }
}
