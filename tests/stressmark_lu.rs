//! The LU stressmark's programs (`stressmarks/lu/tests/`: the active-messages
//! version and the send-and-receive versions in Rendezvous and Ready mode,
//! at the spec's test size on 1x1, 2x2, 4x4 and 3x2):
//!
//! - `scmp test --check`: every program against its snapshot, the 3x2 ones
//!   also in lockstep, with a short and a long epoch and other router
//!   visiting orders (`--cross-check`);
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

/// The snapshot programs, `lu_VERSION_MESH.s`, each version on each mesh.
fn programs() -> Vec<PathBuf> {
    VERSIONS
        .iter()
        .flat_map(|v| MESHES.iter().map(move |m| format!("lu_{v}_{m}.s")))
        .map(|name| root().join(FOLDER).join(name))
        .collect()
}

#[test]
fn snapshots_match_with_cross_checks() {
    // The cross-check runs (lockstep, epochs, router orders) take the non-
    // square mesh only: on all twelve they take about 100 s in a debug
    // build on the project's 2-core machine, on the 3x2 ones 25 s.
    let (cross, plain): (Vec<PathBuf>, Vec<PathBuf>) = programs()
        .into_iter()
        .partition(|p| p.to_string_lossy().ends_with("_3x2.s"));
    assert_eq!(cross.len(), VERSIONS.len());
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
    for (path, mesh) in programs().into_iter().zip(MESHES.iter().cycle()) {
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
        assert_eq!(runs.len(), VERSIONS.len(), "{mesh}: every version");
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
