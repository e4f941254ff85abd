//! What a sweep runs: for each stressmark, both designs over the tile
//! counts (and the modified design over the queue depths), each run an
//! `scmp run` command line. The plan is written as `DIR/plan.json` so that
//! `scmp sweep --merge DIR` can build the tables from a job list's outputs.

use std::path::{Path, PathBuf};

use miette::{Result, miette};
use serde::{Deserialize, Serialize};

/// Version of the plan file's format.
pub const PLAN_FORMAT: u32 = 2;

/// A message-passing design and the program written for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Design {
    /// Active messages on the original NIU.
    Original,
    /// Send-and-receive on the modified NIU.
    Modified,
}

impl Design {
    /// Both, in table order.
    pub const BOTH: [Design; 2] = [Design::Original, Design::Modified];

    /// `--niu`'s value.
    pub fn name(self) -> &'static str {
        match self {
            Design::Original => "original",
            Design::Modified => "modified",
        }
    }
}

/// The thesis's peak improvement for a stressmark (from the catalog).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThesisPeak {
    /// Figure and section.
    pub figure: String,
    /// Percent.
    pub improvement_percent: f64,
    /// Nodes.
    pub at_tiles: u32,
}

/// A stressmark of the sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlannedStressmark {
    /// Name (files and tables).
    pub name: String,
    /// Title (plots), without the input.
    pub title: String,
    /// The input its parameters make, in words (`40 vertices`).
    pub input: String,
    /// Whether it runs the spec's test size (not the thesis's input).
    pub test_size: bool,
    /// `lean` or `literal`.
    pub variant: String,
    /// The model that checks its results, by name.
    pub model: Option<String>,
    /// Its `--defsym`s, as the model names its parameters.
    pub defsyms: Vec<(String, i64)>,
    /// Before a parameter's name in capitals in the programs' symbols.
    pub symbol_prefix: String,
    /// Symbols defined as they are named (`--symbol`, a calibration's
    /// `symbol.NAME` axis), for every program of its runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<(String, i64)>,
    /// The thesis's figure.
    pub thesis: Option<ThesisPeak>,
}

/// One run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// Index into the plan's stressmarks.
    pub stressmark: usize,
    /// Design.
    pub design: Design,
    /// Tiles.
    pub tiles: u32,
    /// Mesh width and height.
    pub mesh: (u32, u32),
    /// Transmission queue depth of the queue-depth experiment; `None` in
    /// the main experiment (the configuration's depth).
    pub queue_flits: Option<u32>,
    /// The record's file name, under `DIR/runs/`.
    pub output: String,
    /// `scmp`'s arguments, `run ...` (without `--json`).
    pub args: Vec<String>,
}

/// The whole sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// [`PLAN_FORMAT`].
    pub format: u32,
    /// Stressmarks.
    pub stressmarks: Vec<PlannedStressmark>,
    /// Runs.
    pub jobs: Vec<Job>,
}

/// A stressmark to plan: its sources per design, resolved.
pub struct Source {
    /// What goes into the plan.
    pub planned: PlannedStressmark,
    /// Original-design sources.
    pub original: Vec<PathBuf>,
    /// Modified-design sources.
    pub modified: Vec<PathBuf>,
    /// `--set`s of its runs only, after the sweep's (a calibration grid's
    /// point).
    pub settings: Vec<String>,
    /// Its runs' `--profile`, instead of the sweep's.
    pub profile: Option<String>,
}

/// What every run shares.
pub struct Settings {
    /// Tile counts.
    pub tiles: Vec<u32>,
    /// Queue depths of the queue experiment (empty: none).
    pub queue_depths: Vec<u32>,
    /// `--set`s for every run.
    pub settings: Vec<String>,
    /// `--profile` of every run.
    pub profile: Option<String>,
    /// `--max-cycles`.
    pub max_cycles: Option<u64>,
}

/// The mesh of `tiles` tiles: the most square `W x H` with `W ≥ H` (1x1,
/// 2x1, 2x2, 4x2, 4x4, 8x4, 8x8; the thesis does not give its shapes).
pub fn mesh_shape(tiles: u32) -> (u32, u32) {
    let height = (1..=tiles)
        .take_while(|h| h * h <= tiles)
        .filter(|h| tiles.is_multiple_of(*h))
        .last()
        .unwrap_or(1);
    (tiles / height, height)
}

/// The plan of `sources` under `settings`.
pub fn plan(sources: &[Source], settings: &Settings) -> Plan {
    let mut jobs = Vec::new();
    for (index, source) in sources.iter().enumerate() {
        let mut add = |design: Design, tiles: u32, queue_flits: Option<u32>| {
            let files = match design {
                Design::Original => &source.original,
                Design::Modified => &source.modified,
            };
            let mesh = mesh_shape(tiles);
            let mut args = vec!["run".to_string()];
            args.extend(files.iter().map(|p| p.display().to_string()));
            args.extend([
                "--mesh".into(),
                format!("{}x{}", mesh.0, mesh.1),
                "--boot".into(),
                "all".into(),
                "--niu".into(),
                design.name().into(),
            ]);
            if let Some(p) = source.profile.as_ref().or(settings.profile.as_ref()) {
                args.extend(["--profile".into(), p.clone()]);
            }
            // A compiled program (a C row's ELF) took its parameters at
            // compile time.
            let assembled = files.iter().all(|p| crate::setup::is_assembly(p));
            for (name, value) in source.planned.defsyms.iter().filter(|_| assembled) {
                let symbol =
                    stressmarks::catalog::program_symbol(&source.planned.symbol_prefix, name);
                args.extend(["--defsym".into(), format!("{symbol}={value}")]);
            }
            for (name, value) in source.planned.symbols.iter().filter(|_| assembled) {
                args.extend(["--defsym".into(), format!("{name}={value}")]);
            }
            for s in settings.settings.iter().chain(&source.settings) {
                args.extend(["--set".into(), s.clone()]);
            }
            if let Some(depth) = queue_flits {
                args.extend(["--set".into(), format!("niu.queue_flits={depth}")]);
            }
            if let Some(n) = settings.max_cycles {
                args.extend(["--max-cycles".into(), n.to_string()]);
            }
            let depth = queue_flits.map(|d| format!("-q{d:03}")).unwrap_or_default();
            jobs.push(Job {
                stressmark: index,
                design,
                tiles,
                mesh,
                queue_flits,
                output: format!(
                    "{}-{}-{tiles:02}{depth}.json",
                    source.planned.name,
                    design.name()
                ),
                args,
            });
        };
        for design in Design::BOTH {
            for &tiles in &settings.tiles {
                add(design, tiles, None);
            }
        }
        for &depth in &settings.queue_depths {
            for &tiles in &settings.tiles {
                add(Design::Modified, tiles, Some(depth));
            }
        }
    }
    Plan {
        format: PLAN_FORMAT,
        stressmarks: sources.iter().map(|s| s.planned.clone()).collect(),
        jobs,
    }
}

/// A source path: as given when it exists from here, else under the
/// source tree this `scmp` was built from (where the catalog's paths
/// live), made absolute so that job lines run from any directory.
pub fn resolve(path: &Path, root: Option<&Path>) -> Result<PathBuf> {
    let candidates: Vec<PathBuf> = match root {
        Some(root) => vec![root.join(path)],
        None => vec![
            path.to_path_buf(),
            Path::new(env!("CARGO_MANIFEST_DIR")).join(path),
        ],
    };
    for c in &candidates {
        if c.is_file() {
            return std::path::absolute(c)
                .map_err(|e| miette!("cannot make {} absolute: {e}", c.display()));
        }
    }
    let places: Vec<String> = candidates.iter().map(|c| c.display().to_string()).collect();
    Err(miette!(
        "{} does not exist (looked for {})",
        path.display(),
        places.join(" and ")
    ))
}

impl Plan {
    /// Reads `DIR/plan.json`.
    pub fn read(dir: &Path) -> Result<Plan> {
        let path = dir.join("plan.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| miette!("cannot read {}: {e} (write it with --jobs)", path.display()))?;
        let plan: Plan = serde_json::from_str(&text)
            .map_err(|e| miette!("{} is not a sweep plan: {e}", path.display()))?;
        if plan.format != PLAN_FORMAT {
            return Err(miette!(
                "{} has plan format {}; this scmp reads format {PLAN_FORMAT}",
                path.display(),
                plan.format
            ));
        }
        Ok(plan)
    }

    /// Writes `DIR/plan.json`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join("plan.json");
        let text = serde_json::to_string_pretty(self).expect("a plan serializes");
        std::fs::write(&path, text + "\n")
            .map_err(|e| miette!("cannot write {}: {e}", path.display()))
    }
}

/// `word` quoted for a POSIX shell when it needs it.
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./=,:+-@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meshes_are_the_most_square_wide_shapes() {
        let shapes: Vec<(u32, u32)> = [1, 2, 4, 8, 16, 32, 64, 12, 7]
            .iter()
            .map(|&n| mesh_shape(n))
            .collect();
        assert_eq!(
            shapes,
            [
                (1, 1),
                (2, 1),
                (2, 2),
                (4, 2),
                (4, 4),
                (8, 4),
                (8, 8),
                (4, 3),
                (7, 1)
            ]
        );
    }

    #[test]
    fn words_are_quoted_only_when_the_shell_would_split_them() {
        assert_eq!(shell_quote("/a/b-c.s"), "/a/b-c.s");
        assert_eq!(shell_quote("niu.queue_flits=16"), "niu.queue_flits=16");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
