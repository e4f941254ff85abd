//! Setting a model's parameters by name, with the spec's ranges. The names
//! are the spec's (`n`, `dim`, `B`); a program's `.equ` (and `--defsym`) is
//! its catalog row's prefix and the name in capitals (`TC_N`; see
//! [`crate::catalog::program_symbol`]).

/// A stressmark's parameters, settable by name.
pub trait Params: Clone + Default {
    /// The parameter names, as the spec's tables spell them.
    const NAMES: &'static [&'static str];

    /// Sets one parameter; an unknown name or a value out of the spec's
    /// range is an error naming both.
    fn set(&mut self, name: &str, value: i64) -> Result<(), String>;

    /// Checks the relations between parameters (e.g. `tmin ≤ tmax`).
    fn validate(&self) -> Result<(), String>;

    /// Every parameter by name, as `--defsym` would set it.
    fn assignments(&self) -> Vec<(String, i64)>;

    /// The defaults with `assignments` applied, in order, then validated.
    fn with(assignments: &[(String, i64)]) -> Result<Self, String> {
        let mut p = Self::default();
        for (name, value) in assignments {
            p.set(name, *value)?;
        }
        p.validate()?;
        Ok(p)
    }
}

/// `value` when it lies in `lo..=hi`, else an error naming the parameter.
pub(crate) fn in_range(name: &str, value: i64, lo: i64, hi: i64) -> Result<i64, String> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{name} = {value} is outside {lo}..={hi}"))
    }
}

/// The error for a name a model does not have.
pub(crate) fn unknown<P: Params>(stressmark: &str, name: &str) -> String {
    format!(
        "{stressmark} has no parameter `{name}` (it has {})",
        P::NAMES.join(", ")
    )
}

/// The seed's range, `[−2³¹ + 1, −1]`.
pub(crate) fn seed(value: i64) -> Result<i32, String> {
    in_range("seed", value, -(i64::from(i32::MAX)), -1).map(|v| v as i32)
}

/// `(name, value)` pairs with owned names.
pub(crate) fn named<const N: usize>(pairs: [(&str, i64); N]) -> Vec<(String, i64)> {
    pairs.into_iter().map(|(n, v)| (n.to_string(), v)).collect()
}
