//! The Matrix (conjugate gradient) programs (`stressmarks/matrix/tests/`:
//! `cg_am.s` and `cg_sr.s` at the spec's test size on 1x1, 2x2, 4x4 and
//! 3x2):
//!
//! - `scmp test --check`: every program against its snapshot; the 3x2 pair
//!   also with `--cross-check` (in lockstep, with a short and a long epoch
//!   and other router visiting orders: five runs each, so only the
//!   non-square mesh, to keep this test's debug-build time near 30 s);
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

use emu::snapshot::RunHeader;
use emu::{Program, RunEnd};
use emu_support::run_untraced;
use stressmark_support::{programs_in, scmp_test_check};
use stressmarks::Model;

const FOLDER: &str = "stressmarks/matrix/tests";
/// The `.equ` names' prefix (the catalog's `symbol_prefix` for matrix).
const PREFIX: &str = "CG_";

#[test]
fn snapshots_match_and_the_non_square_mesh_cross_checks() {
    let files = programs_in(FOLDER);
    assert_eq!(files.len(), 8, "both versions on 1x1, 2x2, 4x4, 3x2");
    let (cross, plain): (Vec<PathBuf>, Vec<PathBuf>) = files
        .into_iter()
        .partition(|p| p.file_stem().unwrap().to_string_lossy().ends_with("_3x2"));
    assert_eq!(cross.len(), 2, "cg_am_3x2.s and cg_sr_3x2.s");
    scmp_test_check(&plain, &[]);
    scmp_test_check(&cross, &["--cross-check"]);
}

/// The result lines of a run (`name values...`, without the `[tN cM] `
/// prefix), timed_cycles and the AM version's flag_races left out: what
/// both versions must print alike.
fn results(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| match l.split_once("] ") {
            Some((prefix, rest)) if prefix.starts_with("[t") => rest,
            _ => l,
        })
        .filter(|l| {
            let name = l.split_whitespace().next().unwrap_or("");
            ["iterations", "err", "sum_x", "x"].contains(&name)
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn matrix_matches_the_reference_and_the_versions_agree() {
    let mut by_mesh: BTreeMap<String, Vec<(String, Vec<String>)>> = BTreeMap::new();
    for path in programs_in(FOLDER) {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let header = RunHeader::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let config = header.config().unwrap_or_else(|e| panic!("{name}: {e}"));
        let options = asm::Options {
            defsyms: header.defsyms.clone(),
            ..asm::Options::default()
        };
        // The real path as the name: `.include` searches the file's directory.
        let elf = asm::assemble_sources(&[(name.clone(), text)], &options)
            .unwrap_or_else(|d| panic!("{name}: {d}"))
            .elf;
        let (result, console) = run_untraced(&config, &Program::from_elf(&elf).unwrap());
        let stdout = String::from_utf8_lossy(&console.stdout).into_owned();
        assert!(
            matches!(result.end, RunEnd::AllThreadsEnded),
            "{name}: {:?}\n{stdout}",
            result.end
        );

        // The model at the parameters the program was built with.
        let assignments: Vec<(String, i64)> = header
            .defsyms
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
            .and_then(|s| s.split_once('_'))
            .unwrap_or_else(|| panic!("{name}: not cg_VERSION_MESH.s"));
        by_mesh
            .entry(mesh.to_string())
            .or_default()
            .push((version.to_string(), results(&stdout)));
    }
    assert_eq!(by_mesh.len(), 4, "1x1, 2x2, 4x4, 3x2");
    for (mesh, runs) in by_mesh {
        let versions: Vec<&str> = runs.iter().map(|(v, _)| v.as_str()).collect();
        assert_eq!(versions, ["am", "sr"], "{mesh}: both versions");
        assert_eq!(runs[0].1.len(), 4, "{mesh}: iterations, err, sum_x, x");
        assert_eq!(runs[0].1, runs[1].1, "{mesh}: the versions agree");
    }
}
