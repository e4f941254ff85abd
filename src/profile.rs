//! Shipped profiles (`--profile NAME` on `scmp run`, `config`,
//! `stressmark`, `sweep` and `calibrate`): a named machine configuration,
//! written as `scmp config` prints one, plus a `[profile]` table that the
//! stressmark commands read: its description, which versions of the
//! stressmark programs `all` means (`variant`), and program parameters by
//! model (`[profile.parameters.neighborhood]`, the spec's names), and
//! program options for every program assembled under the profile
//! (`[profile.programs]`, `--defsym`s such as the messaging libraries'
//! `SCMP_WAIT_POLL`; `scmp run --profile` applies them before the
//! program's own and the command line's). The files are
//! `profiles/NAME.toml`, embedded in the binary.

use miette::{Result, miette};
use stressmarks::catalog::Variant;
use toml::{Table, Value};

/// The profiles, by name: the files' text.
pub const PROFILES: &[(&str, &str)] = &[
    ("functional", include_str!("../profiles/functional.toml")),
    ("thesis", include_str!("../profiles/thesis.toml")),
    (
        "thesis-fitted",
        include_str!("../profiles/thesis-fitted.toml"),
    ),
];

/// A profile, read.
#[derive(Clone, Debug)]
pub struct Profile {
    /// What it is, in a line.
    pub description: String,
    /// The machine part: TOML for the configuration builder.
    pub machine: String,
    /// The programs `all` runs.
    pub variant: Option<Variant>,
    /// Program parameters by model name: `(model, parameter, value)`.
    pub parameters: Vec<(String, String, i64)>,
    /// Symbols defined for every program assembled under the profile
    /// (`[profile.programs]`), by name.
    pub programs: Vec<(String, i64)>,
}

/// The names of the shipped profiles.
pub fn names() -> Vec<&'static str> {
    PROFILES.iter().map(|(n, _)| *n).collect()
}

/// The shipped profile `name`.
pub fn load(name: &str) -> Result<Profile> {
    let (_, text) = PROFILES.iter().find(|(n, _)| *n == name).ok_or_else(|| {
        miette!(
            "--profile {name}: no such profile (the profiles: {})",
            names().join(", ")
        )
    })?;
    parse(name, text)
}

/// Reads a profile's text.
pub fn parse(name: &str, text: &str) -> Result<Profile> {
    let bad = |what: String| miette!("profile {name}: {what}");
    let mut table: Table = text.parse().map_err(|e| bad(format!("{e}")))?;
    let Some(Value::Table(mut head)) = table.remove("profile") else {
        return Err(bad("no [profile] table".into()));
    };
    let description = match head.remove("description") {
        Some(Value::String(s)) => s,
        _ => return Err(bad("[profile] needs a description string".into())),
    };
    let variant = match head.remove("variant") {
        None => None,
        Some(Value::String(s)) => Some(
            Variant::from_name(&s)
                .ok_or_else(|| bad(format!("variant `{s}` is not lean, literal or c")))?,
        ),
        Some(v) => return Err(bad(format!("variant `{v}` is not a string"))),
    };
    let mut parameters = Vec::new();
    match head.remove("parameters") {
        None => {}
        Some(Value::Table(models)) => {
            for (model, params) in models {
                let m = stressmarks::Model::from_name(&model)
                    .ok_or_else(|| bad(format!("[profile.parameters.{model}]: no such model")))?;
                let Value::Table(params) = params else {
                    return Err(bad(format!("[profile.parameters.{model}] must be a table")));
                };
                for (param, value) in params {
                    let Value::Integer(v) = value else {
                        return Err(bad(format!("{model}.{param} must be an integer")));
                    };
                    m.parameters(&[(param.clone(), v)])
                        .map_err(|e| bad(format!("[profile.parameters.{model}]: {e}")))?;
                    parameters.push((model.clone(), param, v));
                }
            }
        }
        Some(_) => return Err(bad("[profile] parameters must be a table".into())),
    }
    let mut programs = Vec::new();
    match head.remove("programs") {
        None => {}
        Some(Value::Table(symbols)) => {
            for (symbol, value) in symbols {
                let Value::Integer(v) = value else {
                    return Err(bad(format!(
                        "[profile.programs] {symbol} must be an integer"
                    )));
                };
                programs.push((symbol, v));
            }
        }
        Some(_) => return Err(bad("[profile] programs must be a table".into())),
    }
    if let Some(key) = head.keys().next() {
        return Err(bad(format!("unknown [profile] key `{key}`")));
    }
    let machine = toml::to_string(&table).map_err(|e| bad(format!("{e}")))?;
    // The machine part must be a valid configuration on its own.
    emu::ConfigBuilder::new()
        .file(&machine, &format!("profile {name}"))
        .and_then(|b| b.build())
        .map_err(|e| miette!("{e}"))?;
    Ok(Profile {
        description,
        machine,
        variant,
        parameters,
        programs,
    })
}

impl Profile {
    /// Its parameters of model `model`, as `(name, value)` assignments.
    pub fn parameters_of(&self, model: &str) -> Vec<(String, i64)> {
        self.parameters
            .iter()
            .filter(|(m, _, _)| m == model)
            .map(|(_, p, v)| (p.clone(), *v))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_profile_loads() {
        for name in names() {
            let p = load(name).unwrap();
            assert!(!p.description.is_empty(), "{name}");
        }
        let err = load("nope").unwrap_err().to_string();
        assert!(err.contains("functional"), "{err}");
    }

    #[test]
    fn the_functional_profile_takes_every_extra_cycle_away() {
        let p = load("functional").unwrap();
        let mut b = emu::ConfigBuilder::new();
        b.file(&p.machine, "functional").unwrap();
        let c = b.build().unwrap();
        for class in isa_spec::TimingClass::ALL {
            assert_eq!(c.timing.extra(class), 0, "{}", class.name());
        }
        assert_eq!(c.niu, emu::Config::default().niu);
        assert_eq!(c.scheduler, emu::Config::default().scheduler);
    }

    /// The fitted thesis profile (before issue 28): the functional
    /// profile's timing, the literal programs, 4 cycles per DMA word and a
    /// 384-pixel image; kept so that docs/chapter6/thesis-fitted/ reproduces.
    #[test]
    fn the_fitted_thesis_profile_is_the_committed_sweeps_machine() {
        let p = load("thesis-fitted").unwrap();
        assert_eq!(p.variant, Some(Variant::Literal));
        assert_eq!(p.parameters_of("neighborhood"), [("dim".to_string(), 384)]);
        assert!(p.programs.is_empty());
        let mut b = emu::ConfigBuilder::new();
        b.file(&p.machine, "thesis-fitted").unwrap();
        let c = b.build().unwrap();
        let mut f = emu::ConfigBuilder::new();
        f.file(&load("functional").unwrap().machine, "functional")
            .unwrap();
        assert_eq!(c.timing, f.build().unwrap().timing);
        assert_eq!(c.niu.dma_cycles_per_word, 4);
        assert_eq!(c.niu.receive_table_entries, 160);
    }

    /// The thesis profile (issue 28): no program parameter for any
    /// stressmark, the mechanisms as program symbols, and a machine that
    /// differs from the default only in the tables' size (never full).
    #[test]
    fn the_thesis_profile_sets_only_stated_values_and_mechanisms() {
        let p = load("thesis").unwrap();
        assert_eq!(p.variant, Some(Variant::Literal));
        assert!(p.parameters.is_empty(), "{:?}", p.parameters);
        let mut programs = p.programs.clone();
        programs.sort();
        assert_eq!(
            programs,
            [
                ("LU_AM_AS_NEEDED".to_string(), 1),
                ("SCMP_SECTIONS_IN_ONE_MESSAGE".to_string(), 1),
                ("SCMP_WAIT_POLL".to_string(), 1)
            ]
        );
        let mut b = emu::ConfigBuilder::new();
        b.file(&p.machine, "thesis").unwrap();
        let mut c = b.build().unwrap();
        let d = emu::Config::default();
        assert_eq!(c.niu.receive_table_entries, 160);
        assert_eq!(c.niu.send_table_entries, 160);
        c.niu.receive_table_entries = d.niu.receive_table_entries;
        c.niu.send_table_entries = d.niu.send_table_entries;
        assert_eq!(c, d);
    }

    #[test]
    fn profile_programs_are_integer_symbols() {
        let p = parse(
            "x",
            "[profile]\ndescription = \"d\"\n[profile.programs]\nB = 2\nA = 1\n",
        )
        .unwrap();
        let mut programs = p.programs.clone();
        programs.sort();
        assert_eq!(programs, [("A".to_string(), 1), ("B".to_string(), 2)]);
        let e = parse(
            "x",
            "[profile]\ndescription = \"d\"\n[profile.programs]\nA = \"y\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("A must be an integer"), "{e}");
    }

    #[test]
    fn profile_errors_name_the_profile_and_key() {
        let e = parse("x", "[timing]\nload = 0\n").unwrap_err().to_string();
        assert!(e.contains("profile x") && e.contains("[profile]"), "{e}");
        let e = parse("x", "[profile]\ndescription = \"d\"\n[timing]\nloads = 0\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("timing.loads"), "{e}");
        let e = parse(
            "x",
            "[profile]\ndescription = \"d\"\n[profile.parameters.transitive]\nn = 1\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("n = 1"), "{e}");
        let p = parse(
            "x",
            "[profile]\ndescription = \"d\"\nvariant = \"literal\"\n[profile.parameters.transitive]\nn = 400\n",
        )
        .unwrap();
        assert_eq!(p.variant, Some(Variant::Literal));
        assert_eq!(p.parameters_of("transitive"), [("n".to_string(), 400)]);
        assert!(p.parameters_of("lu").is_empty());
    }
}
