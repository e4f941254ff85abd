//! The LU stressmark's programs (`stressmarks/lu/tests/`: the active-messages
//! version and the send-and-receive versions in Rendezvous and Ready mode,
//! at the spec's test size on 1x1, 2x2, 4x4 and 3x2, and the literal ones
//! on 2x2 and 3x2; beyond the snapshots, the literal ones also where they
//! differ from ours, n 64 with B 4 and B 2 on 2x2):
//!
//! - `scmp test --check`: every program against its snapshot, the 3x2 ones
//!   also in lockstep, with a short and a long epoch and other router
//!   visiting orders, and on the other router core (`--cross-check`);
//! - every program again through the `emu` library with the factored matrix
//!   printed (`LU_PRINT_MATRIX=1`; the snapshots leave it out): it must end
//!   cleanly and its results must pass the `stressmarks` crate's model (the
//!   matrix bit for bit, the solve check, the checksum), and the three
//!   versions must print the same matrix on every mesh.

mod emu_support;
mod stressmark_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use emu::RunEnd;
use stressmark_support::{root, run_source, scmp_test_check, strip_thread_prefix};
use stressmarks::Model;

const FOLDER: &str = "stressmarks/lu/tests";
const VERSIONS: [&str; 3] = ["am", "sr_rdv", "sr_ready"];
const MESHES: [&str; 4] = ["1x1", "2x2", "4x4", "3x2"];
/// The literal versions (`lu_*_lit.s`) run on these meshes only.
const LITERAL: [&str; 3] = ["am_lit", "sr_rdv_lit", "sr_ready_lit"];
const LITERAL_MESHES: [&str; 2] = ["2x2", "3x2"];

/// The snapshot programs, `lu_VERSION_MESH.s`, each version on each of its
/// meshes, with the mesh.
fn programs() -> Vec<(PathBuf, &'static str)> {
    let plain = VERSIONS
        .iter()
        .flat_map(|v| MESHES.iter().map(move |m| (*v, *m)));
    let literal = LITERAL
        .iter()
        .flat_map(|v| LITERAL_MESHES.iter().map(move |m| (*v, *m)));
    plain
        .chain(literal)
        .map(|(v, m)| (root().join(FOLDER).join(format!("lu_{v}_{m}.s")), m))
        .collect()
}

#[test]
fn snapshots_match_with_cross_checks() {
    // The cross-check runs (lockstep, epochs, router orders) take the non-
    // square mesh only: on all twelve they take about 100 s in a debug
    // build on the project's 2-core machine, on the 3x2 ones 25 s.
    let (cross, plain): (Vec<PathBuf>, Vec<PathBuf>) = programs()
        .into_iter()
        .map(|(p, _)| p)
        .partition(|p| p.to_string_lossy().ends_with("_3x2.s"));
    assert_eq!(cross.len(), VERSIONS.len() + LITERAL.len());
    scmp_test_check(&cross, &["--cross-check"]);
    scmp_test_check(&plain, &[]);
}

/// Runs a program as its `# run:` line says but with the matrix printed,
/// untraced: its end, its stdout and the parameters it was assembled with.
fn run_with_matrix(path: &Path) -> (RunEnd, String, Vec<(String, i64)>) {
    let text = std::fs::read_to_string(path).unwrap();
    // The real path as the name: `.include` searches the file's directory.
    let name = path.display().to_string();
    let (defsyms, end, stdout) = run_source(&name, &text, &[("LU_PRINT_MATRIX".into(), 1)]);
    let parameters = defsyms
        .iter()
        .filter(|(k, _)| k != "LU_PRINT_MATRIX")
        .map(|(k, v)| (k.trim_start_matches("LU_").to_string(), *v))
        .collect();
    (end, stdout, parameters)
}

/// The `matrix` lines of an output, without the emulator's thread prefix.
fn matrix_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .map(strip_thread_prefix)
        .filter(|l| l.starts_with("matrix "))
        .collect()
}

#[test]
fn every_version_matches_the_model_and_the_others() {
    let reference = Model::Lu
        .reference(&Model::Lu.test_size())
        .expect("the test size is valid");
    let mut by_mesh: BTreeMap<&str, Vec<(PathBuf, String)>> = BTreeMap::new();
    for (path, mesh) in programs() {
        let (end, stdout, parameters) = run_with_matrix(&path);
        let name = path.display();
        assert!(
            matches!(end, RunEnd::AllThreadsEnded),
            "{name}: {end:?}\n{stdout}"
        );
        // The programs' names are the model's in capitals (`LU_N` for n).
        let mut want: Vec<(String, i64)> = Model::Lu
            .test_size()
            .into_iter()
            .map(|(k, v)| (k.to_uppercase(), v))
            .collect();
        want.sort();
        let mut got = parameters;
        got.sort();
        assert_eq!(got, want, "{name}: runs at the spec's test size");
        reference
            .check_output(&stdout)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let matrix = matrix_lines(&stdout);
        assert_eq!(matrix.len(), 64, "{name}: a line per column");
        let cycles: Vec<u64> = stdout
            .lines()
            .filter_map(|l| l.split_once("timed_cycles ")?.1.trim().parse().ok())
            .collect();
        assert!(cycles.len() == 1 && cycles[0] > 0, "{name}: {cycles:?}");
        by_mesh
            .entry(mesh)
            .or_default()
            .push((path.clone(), matrix.join("\n")));
    }
    for (mesh, runs) in by_mesh {
        let literal = if LITERAL_MESHES.contains(&mesh) {
            LITERAL.len()
        } else {
            0
        };
        assert_eq!(
            runs.len(),
            VERSIONS.len() + literal,
            "{mesh}: every version"
        );
        for (path, matrix) in &runs[1..] {
            assert!(
                *matrix == runs[0].1,
                "{mesh}: {} and {} print different matrices",
                runs[0].0.display(),
                path.display()
            );
        }
    }
}

/// Where the literal versions differ from ours (more blocks than 8 per tile
/// and iteration, more block indices than one phase holds): n 64 with B 4
/// and B 2 on 2x2, with receive and send tables for every receive posted
/// at once, each literal version ends cleanly with the model's matrix and
/// solve check, as ours does.
#[test]
fn the_literal_versions_are_right_where_they_differ() {
    for b in [4, 2] {
        let parameters = [("n".to_string(), 64), ("B".to_string(), b)];
        let reference = Model::Lu.reference(&parameters).unwrap();
        for v in ["am", "am_lit", "sr_rdv_lit", "sr_ready_lit"] {
            let path = root().join(FOLDER).join(format!("lu_{v}_2x2.s"));
            let text = std::fs::read_to_string(&path).unwrap().replace(
                "# run: ",
                "# run: set=niu.receive_table_entries=96 set=niu.send_table_entries=96 ",
            );
            let name = path.display().to_string();
            let (_, end, stdout) = run_source(
                &name,
                &text,
                &[("LU_B".into(), b), ("LU_PRINT_MATRIX".into(), 1)],
            );
            assert!(
                matches!(end, RunEnd::AllThreadsEnded),
                "{name} B {b}: {end:?}\n{stdout}"
            );
            reference
                .check_output(&stdout)
                .unwrap_or_else(|e| panic!("{name} B {b}: {e}"));
        }
    }
}
