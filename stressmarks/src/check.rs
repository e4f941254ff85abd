//! Comparing a program's results with a model's: integers exactly, floating
//! point within a tolerance (spec section 0: reductions reorder sums), every
//! difference collected into one [`Report`].

use std::fmt;

/// The differences found between a program's results and the reference's;
/// empty when they agree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// One line per difference, naming the output and its index.
    pub differences: Vec<String>,
}

/// Differences listed beyond which a report only counts the rest (a wrong
/// matrix would otherwise list thousands).
const LISTED: usize = 20;

impl Report {
    /// Whether the results agree.
    pub fn is_ok(&self) -> bool {
        self.differences.is_empty()
    }

    /// `Ok` when the results agree, else the report.
    pub fn into_result(self) -> Result<(), Report> {
        if self.is_ok() { Ok(()) } else { Err(self) }
    }

    /// Records a difference.
    pub fn differ(&mut self, what: impl Into<String>) {
        self.differences.push(what.into());
    }

    /// Integers that must be equal.
    pub fn exact<T: PartialEq + fmt::Display>(&mut self, name: &str, got: T, want: T) {
        if got != want {
            self.differ(format!("{name}: got {got}, expected {want}"));
        }
    }

    /// Integer vectors that must be equal, element by element.
    pub fn exact_all<T: PartialEq + fmt::Display + Copy>(
        &mut self,
        name: &str,
        got: &[T],
        want: &[T],
    ) {
        if !self.same_length(name, got.len(), want.len()) {
            return;
        }
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            if g != w {
                self.differ(format!("{name}[{i}]: got {g}, expected {w}"));
            }
        }
    }

    /// A value within `rel` of the reference, relative to its magnitude
    /// (an exact zero must be matched exactly).
    pub fn relative(&mut self, name: &str, got: f64, want: f64, rel: f64) {
        if !within(got, want, rel * want.abs()) {
            self.differ(format!(
                "{name}: got {got:e}, expected {want:e} (relative error {:e} > {rel:e})",
                ((got - want) / want).abs()
            ));
        }
    }

    /// A value within `abs` of the reference.
    pub fn absolute(&mut self, name: &str, got: f64, want: f64, abs: f64) {
        if !within(got, want, abs) {
            self.differ(format!(
                "{name}: got {got:e}, expected {want:e} (difference {:e} > {abs:e})",
                (got - want).abs()
            ));
        }
    }

    /// Bit-identical doubles, element by element.
    pub fn bits_all(&mut self, name: &str, got: &[f64], want: &[f64]) {
        if !self.same_length(name, got.len(), want.len()) {
            return;
        }
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            if g.to_bits() != w.to_bits() {
                self.differ(format!(
                    "{name}[{i}]: got {g:e} ({:#018x}), expected {w:e} ({:#018x})",
                    g.to_bits(),
                    w.to_bits()
                ));
            }
        }
    }

    fn same_length(&mut self, name: &str, got: usize, want: usize) -> bool {
        if got != want {
            self.differ(format!("{name}: got {got} values, expected {want}"));
        }
        got == want
    }
}

/// `|got − want| ≤ bound`, false for NaN.
fn within(got: f64, want: f64, bound: f64) -> bool {
    (got - want).abs() <= bound
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_ok() {
            return write!(f, "the results agree with the reference");
        }
        let n = self.differences.len();
        write!(
            f,
            "{n} difference{} from the reference:",
            if n == 1 { "" } else { "s" }
        )?;
        for d in self.differences.iter().take(LISTED) {
            write!(f, "\n  {d}")?;
        }
        if n > LISTED {
            write!(f, "\n  ... and {} more", n - LISTED)?;
        }
        Ok(())
    }
}

impl std::error::Error for Report {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_collects_every_difference() {
        let mut r = Report::default();
        r.exact("k", 45, 45);
        r.relative("err", 1.0 + 1e-7, 1.0, 1e-6);
        assert!(r.is_ok(), "{r}");
        r.relative("err", 1.0 + 1e-5, 1.0, 1e-6);
        r.exact_all("rows", &[1u32, 2, 3], &[1, 5, 3]);
        r.bits_all("a", &[0.0], &[-0.0]);
        r.absolute("sum", f64::NAN, 0.0, 1.0);
        assert_eq!(r.differences.len(), 4, "{r}");
        assert!(r.to_string().contains("rows[1]: got 2, expected 5"), "{r}");
    }

    #[test]
    fn a_long_report_lists_the_first_differences() {
        let mut r = Report::default();
        r.exact_all("v", &[0u32; 30], &[1u32; 30]);
        let text = r.to_string();
        assert!(text.starts_with("30 differences"), "{text}");
        assert!(text.ends_with("... and 10 more"), "{text}");
    }
}
