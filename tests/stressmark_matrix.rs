//! The Matrix (conjugate gradient) programs (`stressmarks/matrix/tests/`:
//! `cg_am.s`, `cg_am_lit.s` and `cg_sr.s` at the spec's test size on 1x1, 2x2, 4x4 and
//! 3x2):
//!
//! - `scmp test --check`: every program against its snapshot; the 3x2 pair
//!   also with `--cross-check` (in lockstep, with a short and a long epoch
//!   and other router visiting orders, and on the other router core: six
//!   runs each, so only the non-square mesh, to keep this test's
//!   debug-build time near 30 s);
//! - every program through the `emu` library: its printed results must pass
//!   the `stressmarks` crate's model (iterations exactly, `err`, `x` and
//!   `sum_x` within the spec's tolerances), for the parameters its `# run:`
//!   line gives, and the two versions must print the same results on each
//!   mesh (they share the arithmetic and the reductions; only the gather of
//!   p differs, and it moves values without touching them).

mod emu_support;
mod stressmark_support;

use std::collections::BTreeMap;
use std::path::PathBuf;

use emu::RunEnd;
use stressmark_support::{programs_in, result_lines, run_source, scmp_test_check};
use stressmarks::Model;

const FOLDER: &str = "stressmarks/matrix/tests";
/// The `.equ` names' prefix (the catalog's `symbol_prefix` for matrix).
const PREFIX: &str = "CG_";

#[test]
fn snapshots_match_and_the_non_square_mesh_cross_checks() {
    let files = programs_in(FOLDER);
    assert_eq!(
        files.len(),
        12,
        "both versions and the literal AM one on 1x1, 2x2, 4x4, 3x2"
    );
    let (cross, plain): (Vec<PathBuf>, Vec<PathBuf>) = files
        .into_iter()
        .partition(|p| p.file_stem().unwrap().to_string_lossy().ends_with("_3x2"));
    assert_eq!(
        cross.len(),
        3,
        "cg_am_3x2.s, cg_am_lit_3x2.s and cg_sr_3x2.s"
    );
    scmp_test_check(&plain, &[]);
    scmp_test_check(&cross, &["--cross-check"]);
}

/// The result lines both versions print alike (timed_cycles and the AM
/// version's flag_races left out).
const RESULTS: [&str; 4] = ["iterations", "err", "sum_x", "x"];

#[test]
fn matrix_matches_the_reference_and_the_versions_agree() {
    let mut by_mesh: BTreeMap<String, Vec<(String, Vec<String>)>> = BTreeMap::new();
    for path in programs_in(FOLDER) {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        // The real path as the name: `.include` searches the file's directory.
        let (defsyms, end, stdout) = run_source(&name, &text, &[]);
        assert!(
            matches!(end, RunEnd::AllThreadsEnded),
            "{name}: {end:?}\n{stdout}"
        );

        // The model at the parameters the program was built with.
        let assignments: Vec<(String, i64)> = defsyms
            .iter()
            .map(|(symbol, value)| {
                let param = symbol
                    .strip_prefix(PREFIX)
                    .unwrap_or_else(|| panic!("{name}: {symbol} is not a CG_ parameter"));
                (param.to_lowercase(), *value)
            })
            .collect();
        assert_eq!(
            Model::Matrix.parameters(&assignments).unwrap(),
            Model::Matrix.test_size(),
            "{name}: the spec's test size"
        );
        let reference = Model::Matrix.reference(&assignments).unwrap();
        if let Err(e) = reference.check_output(&stdout) {
            panic!("{name}: {e}\n{stdout}");
        }
        let timed = stdout
            .lines()
            .find_map(|l| l.split_once("timed_cycles ").map(|(_, v)| v.trim()))
            .unwrap_or_else(|| panic!("{name}: no timed_cycles\n{stdout}"));
        assert!(
            timed.parse::<u64>().is_ok_and(|c| c > 0),
            "{name}: timed_cycles {timed}"
        );

        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (version, mesh) = stem
            .strip_prefix("cg_")
            .and_then(|s| s.rsplit_once('_'))
            .unwrap_or_else(|| panic!("{name}: not cg_VERSION_MESH.s"));
        by_mesh
            .entry(mesh.to_string())
            .or_default()
            .push((version.to_string(), result_lines(&stdout, &RESULTS)));
    }
    assert_eq!(by_mesh.len(), 4, "1x1, 2x2, 4x4, 3x2");
    for (mesh, runs) in by_mesh {
        let versions: Vec<&str> = runs.iter().map(|(v, _)| v.as_str()).collect();
        assert_eq!(
            versions,
            ["am", "am_lit", "sr"],
            "{mesh}: both versions and the literal one"
        );
        assert_eq!(runs[0].1.len(), 4, "{mesh}: iterations, err, sum_x, x");
        for other in &runs[1..] {
            assert_eq!(runs[0].1, other.1, "{mesh}: the versions agree");
        }
    }
}
