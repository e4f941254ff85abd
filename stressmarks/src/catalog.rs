//! The stressmarks `scmp sweep` knows: one row each, naming the sources of
//! the original-design (active messages) and modified-design
//! (send-and-receive) programs, the parameters that make the thesis's input,
//! the model that checks the results, and the thesis's peak improvement.
//! Adding a stressmark is adding a row to [`CATALOG`].
//!
//! Source paths are relative to the repository root; each program's first
//! source includes its libraries (or the row lists them). Rows whose
//! programs are not written yet name the files they are planned under
//! (`scmp sweep` says so when one is missing); adjust a row when its
//! programs land. The thesis figures
//! are Lewis (2004), *Support for Send-and-Receive Based Message-Passing
//! for the Single-Chip Message-Passing Architecture*, chapter 6 (sections
//! 6.2.1-6.3.2, Figures 6.2-6.4 and 6.6), as docs/chapter6.md lists them.

use crate::models::Model;

/// The thesis's peak runtime improvement of send-and-receive over active
/// messages for one stressmark: `(cycles_AM − cycles_SR) / cycles_AM`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThesisPeak {
    /// Figure and section of the thesis.
    pub figure: &'static str,
    /// Peak improvement, percent.
    pub improvement_percent: f64,
    /// The node count it was reached at.
    pub at_tiles: u32,
}

/// Which version of a stressmark's programs a row runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Ours: the choices docs/stressmarks.md explains where the thesis is
    /// silent or its letter deadlocks.
    Lean,
    /// The programs as the thesis describes them (rows `NAME-literal`).
    Literal,
    /// The programs in C, compiled with `scmp cc -O2` against the C
    /// library (rows `NAME-c`): the thesis's stressmarks were compiled C
    /// (docs/c-stressmarks.md).
    C,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::Lean, Variant::Literal, Variant::C];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Lean => "lean",
            Variant::Literal => "literal",
            Variant::C => "c",
        }
    }

    /// The variant of a name.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// One stressmark of the sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// Name on the command line.
    pub name: &'static str,
    /// Title of tables and plots, without the input (which
    /// [`Model::describe`] gives from the parameters a run uses).
    pub title: &'static str,
    /// The model checking its results (`scmp sweep --check`); none for the
    /// test fixture.
    pub model: Option<Model>,
    /// Sources of the original-design program, linked in this order. A
    /// row with C sources (`.c`) is compiled by `scmp cc --model am -O2`
    /// (the modified design's by `--model sr`) with its parameters as
    /// `-D` definitions.
    pub original: &'static [&'static str],
    /// Sources of the modified-design program.
    pub modified: &'static [&'static str],
    /// Parameters of both programs, by the model's names (the input the
    /// thesis ran, where the defaults differ).
    pub defsyms: &'static [(&'static str, i64)],
    /// What the programs' `.equ` names put before a model parameter's name
    /// in capitals (`TC_` + `n` = `TC_N`); empty: the names as they are.
    pub symbol_prefix: &'static str,
    /// The thesis's figure, none for ours.
    pub thesis: Option<ThesisPeak>,
    /// Which version of the programs.
    pub variant: Variant,
}

/// The stressmark of the thesis's transmission-queue-depth experiment
/// (Figure 6.1: Neighborhood, 11-bit pixels, 2..128 flits).
pub const QUEUE_DEPTH_STRESSMARK: &str = "neighborhood-11";
/// The queue depths of Figure 6.1, flits.
pub const QUEUE_DEPTHS: [u32; 7] = [2, 4, 8, 16, 32, 64, 128];
/// The node counts of the thesis's speedup curves.
pub const TILE_COUNTS: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];

const fn peak(figure: &'static str, improvement_percent: f64, at_tiles: u32) -> Option<ThesisPeak> {
    Some(ThesisPeak {
        figure,
        improvement_percent,
        at_tiles,
    })
}

/// Neighborhood in C: one source for both designs, with the DIS generator.
const NB_C: &[&str] = &["stressmarks/neighborhood/nb.c", "stressmarks/lib/dis_rng.s"];

/// Every stressmark, in the thesis's order, then the sweep's test fixture.
pub const CATALOG: &[Entry] = &[
    Entry {
        name: "neighborhood-7",
        title: "Neighborhood",
        model: Some(Model::Neighborhood),
        original: &["stressmarks/neighborhood/nb_am.s"],
        modified: &["stressmarks/neighborhood/nb_sr.s"],
        defsyms: &[("bits", 7)],
        symbol_prefix: "NB_",
        variant: Variant::Lean,
        thesis: peak("Figure 6.2(a), section 6.2.1", 25.49, 64),
    },
    Entry {
        name: "neighborhood-11",
        title: "Neighborhood",
        model: Some(Model::Neighborhood),
        original: &["stressmarks/neighborhood/nb_am.s"],
        modified: &["stressmarks/neighborhood/nb_sr.s"],
        defsyms: &[("bits", 11)],
        symbol_prefix: "NB_",
        variant: Variant::Lean,
        thesis: peak("Figure 6.2(b), section 6.2.1", 44.4, 64),
    },
    Entry {
        name: "neighborhood-15",
        title: "Neighborhood",
        model: Some(Model::Neighborhood),
        original: &["stressmarks/neighborhood/nb_am.s"],
        modified: &["stressmarks/neighborhood/nb_sr.s"],
        defsyms: &[("bits", 15)],
        symbol_prefix: "NB_",
        variant: Variant::Lean,
        thesis: peak("Figure 6.2(c), section 6.2.1", 51.02, 16),
    },
    Entry {
        name: "matrix",
        title: "Matrix (conjugate gradient)",
        model: Some(Model::Matrix),
        original: &["stressmarks/matrix/cg_am.s"],
        modified: &["stressmarks/matrix/cg_sr.s"],
        defsyms: &[],
        symbol_prefix: "CG_",
        variant: Variant::Lean,
        thesis: peak("Figure 6.3, section 6.2.2", 3.21, 64),
    },
    Entry {
        name: "transitive",
        title: "Transitive closure (Floyd-Warshall)",
        model: Some(Model::Transitive),
        original: &["stressmarks/transitive/tc_am.s"],
        modified: &["stressmarks/transitive/tc_sr.s"],
        defsyms: &[],
        symbol_prefix: "TC_",
        variant: Variant::Lean,
        thesis: peak("Figure 6.4, section 6.2.3", 0.9, 64),
    },
    Entry {
        name: "lu-ready",
        title: "LU factorization, Ready mode",
        model: Some(Model::Lu),
        original: &["stressmarks/lu/lu_am.s"],
        modified: &["stressmarks/lu/lu_sr_ready.s"],
        defsyms: &[],
        symbol_prefix: "LU_",
        variant: Variant::Lean,
        thesis: peak("Figure 6.6(a), section 6.3.2", 15.06, 64),
    },
    Entry {
        name: "lu-rendezvous",
        title: "LU factorization, Rendezvous mode",
        model: Some(Model::Lu),
        original: &["stressmarks/lu/lu_am.s"],
        modified: &["stressmarks/lu/lu_sr_rdv.s"],
        defsyms: &[],
        symbol_prefix: "LU_",
        variant: Variant::Lean,
        thesis: peak("Figure 6.6(b), section 6.3.2", 16.67, 64),
    },
    Entry {
        name: "neighborhood-7-literal",
        title: "Neighborhood, literal",
        model: Some(Model::Neighborhood),
        original: &["stressmarks/neighborhood/nb_am_lit.s"],
        modified: &["stressmarks/neighborhood/nb_sr_lit.s"],
        defsyms: &[("bits", 7)],
        symbol_prefix: "NB_",
        variant: Variant::Literal,
        thesis: peak("Figure 6.2(a), section 6.2.1", 25.49, 64),
    },
    Entry {
        name: "neighborhood-11-literal",
        title: "Neighborhood, literal",
        model: Some(Model::Neighborhood),
        original: &["stressmarks/neighborhood/nb_am_lit.s"],
        modified: &["stressmarks/neighborhood/nb_sr_lit.s"],
        defsyms: &[("bits", 11)],
        symbol_prefix: "NB_",
        variant: Variant::Literal,
        thesis: peak("Figure 6.2(b), section 6.2.1", 44.4, 64),
    },
    Entry {
        name: "neighborhood-15-literal",
        title: "Neighborhood, literal",
        model: Some(Model::Neighborhood),
        original: &["stressmarks/neighborhood/nb_am_lit.s"],
        modified: &["stressmarks/neighborhood/nb_sr_lit.s"],
        defsyms: &[("bits", 15)],
        symbol_prefix: "NB_",
        variant: Variant::Literal,
        thesis: peak("Figure 6.2(c), section 6.2.1", 51.02, 16),
    },
    Entry {
        name: "matrix-literal",
        title: "Matrix (conjugate gradient), literal",
        model: Some(Model::Matrix),
        original: &["stressmarks/matrix/cg_am_lit.s"],
        modified: &["stressmarks/matrix/cg_sr.s"],
        defsyms: &[],
        symbol_prefix: "CG_",
        variant: Variant::Literal,
        thesis: peak("Figure 6.3, section 6.2.2", 3.21, 64),
    },
    Entry {
        name: "transitive-literal",
        title: "Transitive closure (Floyd-Warshall), literal",
        model: Some(Model::Transitive),
        original: &["stressmarks/transitive/tc_am_lit.s"],
        modified: &["stressmarks/transitive/tc_sr.s"],
        defsyms: &[],
        symbol_prefix: "TC_",
        variant: Variant::Literal,
        thesis: peak("Figure 6.4, section 6.2.3", 0.9, 64),
    },
    Entry {
        name: "lu-ready-literal",
        title: "LU factorization, Ready mode, literal",
        model: Some(Model::Lu),
        original: &["stressmarks/lu/lu_am_lit.s"],
        modified: &["stressmarks/lu/lu_sr_ready_lit.s"],
        defsyms: &[],
        symbol_prefix: "LU_",
        variant: Variant::Literal,
        thesis: peak("Figure 6.6(a), section 6.3.2", 15.06, 64),
    },
    Entry {
        name: "lu-rendezvous-literal",
        title: "LU factorization, Rendezvous mode, literal",
        model: Some(Model::Lu),
        original: &["stressmarks/lu/lu_am_lit.s"],
        modified: &["stressmarks/lu/lu_sr_rdv_lit.s"],
        defsyms: &[],
        symbol_prefix: "LU_",
        variant: Variant::Literal,
        thesis: peak("Figure 6.6(b), section 6.3.2", 16.67, 64),
    },
    Entry {
        name: "neighborhood-7-c",
        title: "Neighborhood, C",
        model: Some(Model::Neighborhood),
        original: NB_C,
        modified: NB_C,
        defsyms: &[("bits", 7)],
        symbol_prefix: "NB_",
        variant: Variant::C,
        thesis: peak("Figure 6.2(a), section 6.2.1", 25.49, 64),
    },
    Entry {
        name: "neighborhood-11-c",
        title: "Neighborhood, C",
        model: Some(Model::Neighborhood),
        original: NB_C,
        modified: NB_C,
        defsyms: &[("bits", 11)],
        symbol_prefix: "NB_",
        variant: Variant::C,
        thesis: peak("Figure 6.2(b), section 6.2.1", 44.4, 64),
    },
    Entry {
        name: "neighborhood-15-c",
        title: "Neighborhood, C",
        model: Some(Model::Neighborhood),
        original: NB_C,
        modified: NB_C,
        defsyms: &[("bits", 15)],
        symbol_prefix: "NB_",
        variant: Variant::C,
        thesis: peak("Figure 6.2(c), section 6.2.1", 51.02, 16),
    },
    Entry {
        name: "matrix-c",
        title: "Matrix (conjugate gradient), C",
        model: Some(Model::Matrix),
        original: &["stressmarks/matrix/cg.c", "stressmarks/lib/dis_rng.s"],
        modified: &["stressmarks/matrix/cg.c", "stressmarks/lib/dis_rng.s"],
        defsyms: &[],
        symbol_prefix: "CG_",
        variant: Variant::C,
        thesis: peak("Figure 6.3, section 6.2.2", 3.21, 64),
    },
    Entry {
        name: "transitive-c",
        title: "Transitive closure (Floyd-Warshall), C",
        model: Some(Model::Transitive),
        original: &["stressmarks/transitive/tc.c", "stressmarks/lib/dis_rng.s"],
        modified: &["stressmarks/transitive/tc.c", "stressmarks/lib/dis_rng.s"],
        defsyms: &[],
        symbol_prefix: "TC_",
        variant: Variant::C,
        thesis: peak("Figure 6.4, section 6.2.3", 0.9, 64),
    },
    Entry {
        name: "lu-ready-c",
        title: "LU factorization, Ready mode, C",
        model: Some(Model::Lu),
        original: &["stressmarks/lu/lu.c"],
        modified: &["stressmarks/lu/lu_ready.c"],
        defsyms: &[],
        symbol_prefix: "LU_",
        variant: Variant::C,
        thesis: peak("Figure 6.6(a), section 6.3.2", 15.06, 64),
    },
    Entry {
        name: "lu-rendezvous-c",
        title: "LU factorization, Rendezvous mode, C",
        model: Some(Model::Lu),
        original: &["stressmarks/lu/lu.c"],
        modified: &["stressmarks/lu/lu.c"],
        defsyms: &[],
        symbol_prefix: "LU_",
        variant: Variant::C,
        thesis: peak("Figure 6.6(b), section 6.3.2", 16.67, 64),
    },
    Entry {
        name: "fixture",
        title: "Sweep test fixture (not a stressmark)",
        model: None,
        original: &[
            "stressmarks/fixture/fixture.s",
            "stressmarks/fixture/fixture_original.s",
        ],
        modified: &[
            "stressmarks/fixture/fixture.s",
            "stressmarks/fixture/fixture_modified.s",
        ],
        defsyms: &[],
        symbol_prefix: "",
        thesis: None,
        variant: Variant::Lean,
    },
];

impl Entry {
    /// The program's symbol of a parameter.
    pub fn symbol(&self, name: &str) -> String {
        program_symbol(self.symbol_prefix, name)
    }
}

/// A parameter's symbol in programs whose `.equ`s carry `prefix`: the
/// prefix and the name in capitals, or the name alone without a prefix.
pub fn program_symbol(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}{}", name.to_uppercase())
    }
}

/// The row of a name.
pub fn find(name: &str) -> Option<&'static Entry> {
    CATALOG.iter().find(|e| e.name == name)
}

/// The thesis's stressmarks in `variant`, in the thesis's order (what
/// `scmp sweep all` runs).
pub fn thesis_rows(variant: Variant) -> impl Iterator<Item = &'static Entry> {
    CATALOG
        .iter()
        .filter(move |e| e.thesis.is_some() && e.variant == variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_queue_experiment_is_a_row() {
        for (i, e) in CATALOG.iter().enumerate() {
            assert!(CATALOG[..i].iter().all(|o| o.name != e.name), "{}", e.name);
            assert!(!e.original.is_empty() && !e.modified.is_empty());
        }
        assert!(find(QUEUE_DEPTH_STRESSMARK).is_some());
    }

    /// The thesis's figures, as scmp-machine.md section 9 lists them: from
    /// 0.9% to 51.02% (thesis chapter 6's opening).
    #[test]
    fn the_thesis_figures_span_0_9_to_51_02_percent() {
        let peaks: Vec<f64> = thesis_rows(Variant::Lean)
            .filter_map(|e| e.thesis)
            .map(|t| t.improvement_percent)
            .collect();
        assert_eq!(peaks.len(), 7);
        assert_eq!(peaks.iter().cloned().fold(f64::MAX, f64::min), 0.9);
        assert_eq!(peaks.iter().cloned().fold(0.0, f64::max), 51.02);
    }

    /// Every thesis stressmark has a literal row (`NAME-literal`) and a C
    /// row (`NAME-c`) with the same model, input and thesis figure as ours.
    #[test]
    fn every_thesis_row_has_a_literal_and_a_c_twin() {
        let lean: Vec<&Entry> = thesis_rows(Variant::Lean).collect();
        for (variant, suffix, title) in [
            (Variant::Literal, "-literal", ", literal"),
            (Variant::C, "-c", ", C"),
        ] {
            let twins: Vec<&Entry> = thesis_rows(variant).collect();
            assert_eq!(lean.len(), twins.len());
            for (l, t) in lean.iter().zip(&twins) {
                assert_eq!(t.name, format!("{}{suffix}", l.name));
                assert_eq!(
                    (t.model, t.defsyms, t.thesis),
                    (l.model, l.defsyms, l.thesis)
                );
                assert!(t.title.ends_with(title), "{}", t.title);
            }
        }
        // The C rows are C, and only they.
        for e in CATALOG {
            let c = |files: &[&str]| files.iter().any(|f| f.ends_with(".c"));
            assert_eq!(c(e.original), e.variant == Variant::C, "{}", e.name);
            assert_eq!(c(e.modified), e.variant == Variant::C, "{}", e.name);
        }
        assert_eq!(Variant::from_name("literal"), Some(Variant::Literal));
        assert_eq!(Variant::from_name("c"), Some(Variant::C));
        assert_eq!(Variant::from_name("lean").map(Variant::name), Some("lean"));
    }

    /// A model parameter's name in a program.
    #[test]
    fn symbols_are_the_prefix_and_the_name_in_capitals() {
        let tc = find("transitive").unwrap();
        assert_eq!(tc.symbol("n"), "TC_N");
        assert_eq!(find("lu-ready").unwrap().symbol("B"), "LU_B");
        assert_eq!(find("fixture").unwrap().symbol("WORK"), "WORK");
    }

    #[test]
    fn defsyms_are_parameters_of_the_model() {
        for e in CATALOG {
            if let Some(m) = e.model {
                let assignments: Vec<(String, i64)> =
                    e.defsyms.iter().map(|(n, v)| (n.to_string(), *v)).collect();
                let all = m.parameters(&assignments).unwrap();
                for pair in &assignments {
                    assert!(all.contains(pair), "{}: {pair:?}", e.name);
                }
            }
        }
    }
}
