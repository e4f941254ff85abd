//! The Neighborhood stressmark's programs (`stressmarks/neighborhood/`,
//! both versions, ours and the literal ones (`nb_am_lit.s`, `nb_sr_lit.s`),
//! at the spec's test size on 1x1, 2x2, 4x4 and 3x2, the snapshot wrappers
//! in `stressmarks/neighborhood/tests/`):
//!
//! - `scmp test --check`: every program against its snapshot, the 2x2
//!   and 3x2 ones also in lockstep, with a short and a long epoch and other
//!   router visiting orders, and on the other router core (`--cross-check`);
//! - every program through the `emu` library, its printed results checked
//!   against the `stressmarks` crate's reference model at the parameters
//!   of its `# run:` line (entropy and energy within the spec's tolerance,
//!   the debug counts exactly), and the four programs against each other
//!   on every mesh (the same partial sums reduced over the same tree: the
//!   same bits);
//! - a bad parameter stops the run with a message and exit code 2;
//! - `nb_sr.s`'s barrier after every block of rounds
//!   (`NB_SR_BLOCK_BARRIER`, off by default) gives the same results.

mod emu_support;
mod stressmark_support;

use std::collections::BTreeMap;
use std::path::PathBuf;

use emu::RunEnd;
use stressmark_support::{programs_in, result_lines, root, run_source, scmp_test_check};
use stressmarks::Model;

const FOLDER: &str = "stressmarks/neighborhood/tests";
/// What the programs' `.equ` names put before a model parameter's name.
const PREFIX: &str = "NB_";

/// The model's parameters of a program's definitions (`NB_DIM` -> `dim`).
fn model_parameters(defsyms: &[(String, i64)]) -> Vec<(String, i64)> {
    defsyms
        .iter()
        .map(|(name, value)| {
            let param = name
                .strip_prefix(PREFIX)
                .unwrap_or_else(|| panic!("{name} is not a Neighborhood parameter"));
            (param.to_ascii_lowercase(), *value)
        })
        .collect()
}

/// The result lines both versions print alike (`timed_cycles` differs).
const RESULTS: [&str; 5] = ["entropy", "energy", "pairs", "sum_check", "diff_check"];

#[test]
fn snapshots_match_with_cross_checks() {
    let files = programs_in(FOLDER);
    assert_eq!(
        files.len(),
        16,
        "both versions, lean and literal, on 1x1, 2x2, 4x4, 3x2"
    );
    // The lockstep and other-order runs on the 2x2 and 3x2 meshes only: on
    // 4x4 they take 18 s of a debug build, and 1x1 has no network to vary.
    // The literal versions' lockstep runs on 3x2 only (their 2x2 runs take
    // as long again and add little).
    let (cross, plain): (Vec<PathBuf>, Vec<PathBuf>) = files.into_iter().partition(|p| {
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        stem.ends_with("_3x2") || (stem.ends_with("_2x2") && !stem.contains("_lit_"))
    });
    assert_eq!((cross.len(), plain.len()), (6, 10));
    scmp_test_check(&cross, &["--cross-check"]);
    scmp_test_check(&plain, &[]);
}

#[test]
fn both_versions_match_the_reference_model_and_each_other() {
    let mut by_mesh: BTreeMap<String, Vec<(String, Vec<String>)>> = BTreeMap::new();
    for path in programs_in(FOLDER) {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let (defsyms, end, stdout) = run_source(&name, &text, &[]);
        assert!(
            matches!(end, RunEnd::AllThreadsEnded),
            "{name}: {end:?}\n{stdout}"
        );
        let parameters = model_parameters(&defsyms);
        assert_eq!(
            parameters,
            Model::Neighborhood.test_size()[1..].to_vec(),
            "{name}: the spec's test size (all but the default seed)"
        );
        let reference = Model::Neighborhood
            .reference(&parameters)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Err(e) = reference.check_output(&stdout) {
            panic!("{name}: {e}\n{stdout}");
        }
        if name.contains("_am_lit_") {
            // The literal version counts flags seen before their data.
            assert!(stdout.contains("flag_races "), "{name}\n{stdout}");
        }
        let lines = result_lines(&stdout, &RESULTS);
        assert_eq!(lines.len(), 5, "{name}: every result printed\n{stdout}");
        let cycles = stdout
            .lines()
            .find_map(|l| l.split_once("timed_cycles ").map(|(_, n)| n.trim()))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{name}: no timed_cycles\n{stdout}"));
        assert!(cycles > 0, "{name}");
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mesh = stem.rsplit('_').next().unwrap().to_string();
        by_mesh.entry(mesh).or_default().push((name, lines));
    }
    assert_eq!(by_mesh.len(), 4, "{:?}", by_mesh.keys());
    for (mesh, runs) in by_mesh {
        assert_eq!(runs.len(), 4, "{mesh}: both versions, lean and literal");
        for other in &runs[1..] {
            assert_eq!(
                runs[0].1, other.1,
                "{mesh}: {} and {} print the same results",
                runs[0].0, other.0
            );
        }
    }
}

#[test]
fn a_bad_parameter_stops_with_a_message_and_exit_code_2() {
    let path = root().join(FOLDER).join("nb_sr_2x2.s");
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    for (symbol, value, message) in [
        ("NB_BITS", 6, "bits (NB_BITS) is outside 7..15"),
        ("NB_DL", 64, "the distances need 1 <= ds, dl < dim"),
    ] {
        let (_, end, stdout) = run_source(&name, &text, &[(symbol.to_string(), value)]);
        assert!(
            matches!(end, RunEnd::Exit(2)),
            "{symbol}={value}: {end:?}\n{stdout}"
        );
        assert!(
            stdout.contains(&format!("neighborhood: {message}")),
            "{symbol}={value}:\n{stdout}"
        );
    }
}

/// `NB_SR_BLOCK_BARRIER=1` (a barrier after every `NB_SR_WINDOW` rounds of
/// the exchange, which keeps senders from running ahead of receivers:
/// docs/network.md, "Early RTSs") on 3x2 with a window of 2 rounds, so
/// that the exchange's 5 rounds make blocks with barriers between them:
/// the same results as without, and more cycles (the barriers ran).
#[test]
fn the_block_barrier_gives_the_same_results() {
    let path = root().join(FOLDER).join("nb_sr_3x2.s");
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut runs = Vec::new();
    for barrier in [0, 1] {
        let extra = [
            ("NB_SR_WINDOW".to_string(), 2),
            ("NB_SR_BLOCK_BARRIER".to_string(), barrier),
        ];
        let (_, end, stdout) = run_source(&name, &text, &extra);
        assert!(
            matches!(end, RunEnd::AllThreadsEnded),
            "barrier {barrier}: {end:?}\n{stdout}"
        );
        let cycles: u64 = stdout
            .lines()
            .find_map(|l| l.split_once("timed_cycles ").map(|(_, n)| n.trim()))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("barrier {barrier}: no timed_cycles\n{stdout}"));
        runs.push((result_lines(&stdout, &RESULTS), cycles));
    }
    assert_eq!(runs[0].0.len(), 5);
    assert_eq!(runs[0].0, runs[1].0, "the same results");
    assert!(runs[1].1 > runs[0].1, "the barriers cost cycles: {runs:?}");
}
