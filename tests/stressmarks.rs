//! The messaging libraries' test programs (`stressmarks/tests-lib/`) and the
//! Transitive Closure programs (`stressmarks/transitive/tests/`, both
//! versions and the literal active-messages one):
//!
//! - `scmp test --check --cross-check` on both folders: every program
//!   against its snapshot, also in lockstep, with a short and a long epoch
//!   and other router visiting orders, and on the other router core (the
//!   two latency programs, figures on an 8x8 mesh, without the cross-check
//!   runs);
//! - every program through the `emu` library: it must end with all threads
//!   ended or exit 0 and print no `FAIL` (the programs check their own
//!   values; this holds even if a wrong snapshot were accepted);
//! - the Transitive Closure programs' printed `row_sums` and `col_sums`
//!   must equal a Floyd-Warshall computed here from the same generator
//!   ([`expected_transitive_sums`]), and the two versions each other on
//!   every mesh.

mod emu_support;
mod stressmark_support;

use std::path::{Path, PathBuf};

use emu::RunEnd;
use stressmark_support::{programs_in, run_source, scmp_test_check, strip_thread_prefix};

const FOLDERS: [&str; 2] = ["stressmarks/tests-lib", "stressmarks/transitive/tests"];

/// Runs a program as its `# run:` line says, untraced: its end and stdout.
fn run_program(path: &Path) -> (RunEnd, String) {
    let text = std::fs::read_to_string(path).unwrap();
    // The real path as the name: `.include` searches the file's directory.
    let (_, end, stdout) = run_source(&path.display().to_string(), &text, &[]);
    (end, stdout)
}

#[test]
fn snapshots_match_with_cross_checks() {
    // The latency figures on 8x8 are checked once: their polling tiles
    // make the lockstep and short-epoch runs slow in debug builds.
    let (figures, checks): (Vec<PathBuf>, Vec<PathBuf>) =
        FOLDERS.iter().flat_map(|f| programs_in(f)).partition(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("latency_")
        });
    assert_eq!(figures.len(), 2, "latency_am.s and latency_sr.s");
    scmp_test_check(&checks, &["--cross-check"]);
    scmp_test_check(&figures, &[]);
}

#[test]
fn library_tests_pass_on_the_tiles() {
    let tests = programs_in("stressmarks/tests-lib");
    assert!(tests.len() >= 24, "the library tests are there");
    for path in tests {
        let (end, stdout) = run_program(&path);
        let name = path.display();
        assert!(
            matches!(end, RunEnd::AllThreadsEnded | RunEnd::Exit(0)),
            "{name}: {end:?}\n{stdout}"
        );
        assert!(!stdout.contains("FAIL"), "{name}:\n{stdout}");
        let stem = path.file_stem().unwrap().to_string_lossy();
        if stem.ends_with("_race_am") {
            // A figure: how often the flag overtook its data.
            assert!(
                stdout.contains("stale after their flag"),
                "{name}:\n{stdout}"
            );
        } else if stem.starts_with("latency_") {
            // Figures, not checks: a line for every measurement, each a
            // positive number of cycles.
            let figures: Vec<u64> = stdout
                .lines()
                .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
                .collect();
            assert!(
                figures.len() >= 25,
                "{name}: {} figures\n{stdout}",
                figures.len()
            );
            assert!(figures.iter().all(|&c| c > 0), "{name}:\n{stdout}");
        } else {
            assert!(stdout.contains(": ok"), "{name}:\n{stdout}");
        }
    }
}

/// A result line of a program's output (`name v1 v2 ...`, after the
/// `[tN cM] ` prefix the emulator adds when several threads run).
fn printed(stdout: &str, name: &str) -> Vec<u32> {
    let line = stdout
        .lines()
        .map(strip_thread_prefix)
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no `{name}` line in:\n{stdout}"));
    line.split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap_or_else(|_| panic!("`{v}` in `{line}`")))
        .collect()
}

/// The parameters a Transitive Closure program printed in its title line
/// (`..., n 40, m 100, wmax 255, seed -1`).
fn printed_parameters(stdout: &str) -> [i64; 4] {
    let title = stdout
        .lines()
        .find(|l| l.contains("transitive closure ("))
        .unwrap_or_else(|| panic!("no title line in:\n{stdout}"));
    let value = |key: &str| -> i64 {
        let at = title.find(&format!(" {key} ")).expect(key) + key.len() + 2;
        let digits: String = title[at..]
            .chars()
            .take_while(|c| *c == '-' || c.is_ascii_digit())
            .collect();
        digits.parse().unwrap()
    };
    [value("seed"), value("n"), value("m"), value("wmax")]
}

#[test]
fn transitive_closure_matches_the_reference() {
    let tests = programs_in("stressmarks/transitive/tests");
    assert_eq!(
        tests.len(),
        12,
        "both versions and the literal AM one on 1x1, 2x2, 4x4, 3x2"
    );
    let mut by_mesh: std::collections::BTreeMap<String, Vec<Sums>> = Default::default();
    for path in &tests {
        let (end, stdout) = run_program(path);
        let name = path.display();
        assert!(
            matches!(end, RunEnd::AllThreadsEnded),
            "{name}: {end:?}\n{stdout}"
        );
        let [seed, n, m, wmax] = printed_parameters(&stdout);
        let (rows, cols) =
            expected_transitive_sums(seed as i32, n as usize, m as usize, wmax as i32);
        assert_eq!(printed(&stdout, "row_sums"), rows, "{name}: row sums");
        assert_eq!(printed(&stdout, "col_sums"), cols, "{name}: column sums");
        let cycles = printed(&stdout, "timed_cycles");
        assert!(cycles.len() == 1 && cycles[0] > 0, "{name}: {cycles:?}");
        if name.to_string().contains("_am_lit_") {
            // No barrier per step: requests that found their owner
            // behind, and flags seen before their data, counted.
            assert_eq!(printed(&stdout, "flag_races").len(), 1, "{name}");
            assert_eq!(printed(&stdout, "handler_waits").len(), 1, "{name}");
        }
        let mesh = path.file_stem().unwrap().to_string_lossy();
        let mesh = mesh.rsplit('_').next().unwrap().to_string();
        by_mesh.entry(mesh).or_default().push((rows, cols));
    }
    for (mesh, results) in by_mesh {
        assert_eq!(
            results.len(),
            3,
            "{mesh}: both versions and the literal one"
        );
        assert!(
            results.iter().all(|r| *r == results[0]),
            "{mesh}: the versions agree"
        );
    }
}

/// A Transitive Closure's results: (row sums, column sums).
type Sums = (Vec<u32>, Vec<u32>);

/// What a Transitive Closure program must print: (row sums, column sums),
/// from the `stressmarks` crate's reference model.
fn expected_transitive_sums(seed: i32, n: usize, m: usize, wmax: i32) -> Sums {
    let out = stressmarks::transitive::reference(&stressmarks::transitive::TransitiveParams {
        seed,
        n,
        m,
        wmax,
    });
    (out.row_sums, out.col_sums)
}
