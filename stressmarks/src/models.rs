//! The four models behind one interface, for callers that pick a
//! stressmark by name: `scmp sweep --check` and the programs' tests.

use crate::check::Report;
use crate::params::Params;
use crate::printed::Printed;
use crate::{lu, matrix, neighborhood, transitive};

/// A stressmark's reference model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// [`neighborhood`].
    Neighborhood,
    /// [`matrix`] (conjugate gradient).
    Matrix,
    /// [`transitive`] (Floyd–Warshall).
    Transitive,
    /// [`lu`].
    Lu,
}

/// Checks a program's printed output against precomputed reference results.
type Checker = Box<dyn Fn(&Printed) -> Result<Report, String> + Send + Sync>;

/// A model's results at some parameters, ready to check programs' output.
pub struct Reference {
    /// The model.
    pub model: Model,
    /// Every parameter, by name.
    pub parameters: Vec<(String, i64)>,
    checker: Checker,
}

impl Model {
    /// Every model.
    pub const ALL: [Model; 4] = [
        Model::Neighborhood,
        Model::Matrix,
        Model::Transitive,
        Model::Lu,
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Model::Neighborhood => "neighborhood",
            Model::Matrix => "matrix",
            Model::Transitive => "transitive",
            Model::Lu => "lu",
        }
    }

    /// The model of a name.
    pub fn from_name(name: &str) -> Option<Model> {
        Model::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Its parameter names (the spec's; see [`crate::params`]).
    pub fn parameter_names(self) -> &'static [&'static str] {
        match self {
            Model::Neighborhood => neighborhood::NeighborhoodParams::NAMES,
            Model::Matrix => matrix::MatrixParams::NAMES,
            Model::Transitive => transitive::TransitiveParams::NAMES,
            Model::Lu => lu::LuParams::NAMES,
        }
    }

    /// The spec's test size, as assignments.
    pub fn test_size(self) -> Vec<(String, i64)> {
        match self {
            Model::Neighborhood => neighborhood::NeighborhoodParams::test().assignments(),
            Model::Matrix => matrix::MatrixParams::test().assignments(),
            Model::Transitive => transitive::TransitiveParams::test().assignments(),
            Model::Lu => lu::LuParams::test().assignments(),
        }
    }

    /// Every parameter at the defaults with `assignments` applied, checked
    /// against the spec's ranges (cheap: no results computed).
    pub fn parameters(self, assignments: &[(String, i64)]) -> Result<Vec<(String, i64)>, String> {
        fn all<P: Params>(assignments: &[(String, i64)]) -> Result<Vec<(String, i64)>, String> {
            P::with(assignments).map(|p| p.assignments())
        }
        match self {
            Model::Neighborhood => all::<neighborhood::NeighborhoodParams>(assignments),
            Model::Matrix => all::<matrix::MatrixParams>(assignments),
            Model::Transitive => all::<transitive::TransitiveParams>(assignments),
            Model::Lu => all::<lu::LuParams>(assignments),
        }
    }

    /// The input that `assignments` (over the defaults) make, in words for
    /// titles and tables: `7-bit pixels, 64x64 image`, `40 vertices`,
    /// `512x512, 16x16 blocks`. Bad parameters are an error naming them.
    pub fn describe(self, assignments: &[(String, i64)]) -> Result<String, String> {
        let all = self.parameters(assignments)?;
        let get = |name: &str| all.iter().find(|(n, _)| n == name).map_or(0, |(_, v)| *v);
        Ok(match self {
            Model::Neighborhood => format!(
                "{}-bit pixels, {}x{} image",
                get("bits"),
                grouped(get("dim")),
                grouped(get("dim"))
            ),
            Model::Matrix => format!(
                "{} rows, {} off-diagonal entries",
                grouped(get("dim")),
                grouped(get("nnz"))
            ),
            Model::Transitive => format!("{} vertices", grouped(get("n"))),
            Model::Lu => format!(
                "{n}x{n}, {b}x{b} blocks",
                n = grouped(get("n")),
                b = grouped(get("B"))
            ),
        })
    }

    /// Computes the reference results at the defaults with `assignments`
    /// applied (bad parameters are an error naming them).
    pub fn reference(self, assignments: &[(String, i64)]) -> Result<Reference, String> {
        fn make<P: Params + Send + Sync + 'static, O: Send + Sync + 'static>(
            model: Model,
            assignments: &[(String, i64)],
            reference: fn(&P) -> O,
            read: fn(&Printed, &P) -> Result<O, String>,
            check: fn(&O, &O) -> Report,
        ) -> Result<Reference, String> {
            let p = P::with(assignments)?;
            let want = reference(&p);
            let parameters = p.assignments();
            Ok(Reference {
                model,
                parameters,
                checker: Box::new(move |printed| Ok(check(&read(printed, &p)?, &want))),
            })
        }
        match self {
            Model::Neighborhood => make(
                self,
                assignments,
                neighborhood::reference,
                |p, _| neighborhood::NeighborhoodOutputs::from_printed(p),
                neighborhood::NeighborhoodOutputs::check,
            ),
            Model::Matrix => make(
                self,
                assignments,
                matrix::reference,
                |p, _| matrix::MatrixOutputs::from_printed(p),
                matrix::MatrixOutputs::check,
            ),
            Model::Transitive => make(
                self,
                assignments,
                transitive::reference,
                |p, _| transitive::TransitiveOutputs::from_printed(p),
                transitive::TransitiveOutputs::check,
            ),
            Model::Lu => make(
                self,
                assignments,
                lu::reference,
                lu::LuOutputs::from_printed,
                lu::LuOutputs::check,
            ),
        }
    }
}

impl Reference {
    /// Checks a program's output: `Err` says what is missing, unreadable or
    /// different.
    pub fn check_output(&self, output: &str) -> Result<(), String> {
        let report = (self.checker)(&Printed::parse(output))
            .map_err(|e| format!("{}: {e}", self.model.name()))?;
        report
            .into_result()
            .map_err(|r| format!("{}: {r}", self.model.name()))
    }
}

/// `1234567` as `1,234,567` (numbers below 10,000 as they are).
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    if n.unsigned_abs() < 10_000 {
        return n.to_string();
    }
    let mut out = String::new();
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Titles name the input a run uses, not the thesis's.
    #[test]
    fn the_input_is_described_from_the_parameters() {
        let d = |m: Model, a: &[(&str, i64)]| {
            let a: Vec<(String, i64)> = a.iter().map(|(n, v)| (n.to_string(), *v)).collect();
            m.describe(&a).unwrap()
        };
        assert_eq!(d(Model::Transitive, &[]), "500 vertices");
        assert_eq!(
            Model::Transitive
                .describe(&Model::Transitive.test_size())
                .unwrap(),
            "40 vertices"
        );
        assert_eq!(d(Model::Lu, &[]), "512x512, 16x16 blocks");
        assert_eq!(
            d(Model::Matrix, &[]),
            "10,000 rows, 100,000 off-diagonal entries"
        );
        assert_eq!(
            d(Model::Neighborhood, &[("bits", 15), ("dim", 384)]),
            "15-bit pixels, 384x384 image"
        );
        assert!(Model::Lu.describe(&[("B".into(), 0)]).is_err());
        assert_eq!(grouped(-1234567), "-1,234,567");
        assert_eq!(grouped(1536), "1536");
    }

    #[test]
    fn every_model_checks_its_own_printed_results() {
        // What a program at the test size would print, from the models.
        let t = transitive::reference(&transitive::TransitiveParams::test());
        let join = |v: &[u32]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let transitive_out = format!(
            "row_sums {}\ncol_sums {}\ntimed_cycles 5\n",
            join(&t.row_sums),
            join(&t.col_sums)
        );
        let r = Model::Transitive
            .reference(&Model::Transitive.test_size())
            .unwrap();
        assert_eq!(r.check_output(&transitive_out), Ok(()));
        let wrong = transitive_out.replacen("row_sums ", "row_sums 1", 1);
        let e = r.check_output(&wrong).unwrap_err();
        assert!(e.starts_with("transitive: 1 difference"), "{e}");
        let e = r.check_output("col_sums 1").unwrap_err();
        assert!(e.contains("no `row_sums`"), "{e}");

        let l = lu::reference(&lu::LuParams::test());
        let lu_out = format!(
            "solve_error {:?}\nchecksum {:?}\n",
            l.solve_error, l.checksum
        );
        let r = Model::Lu.reference(&Model::Lu.test_size()).unwrap();
        assert_eq!(r.check_output(&lu_out), Ok(()));

        let m = matrix::reference(&matrix::MatrixParams::test());
        let x: Vec<String> =
            m.x.as_deref()
                .unwrap()
                .iter()
                .map(|v| format!("{v:?}"))
                .collect();
        let matrix_out = format!(
            "iterations {}\nerr {:?}\nsum_x {:?}\nx {}\n",
            m.iterations,
            m.err,
            m.sum_x,
            x.join(" ")
        );
        let r = Model::Matrix.reference(&Model::Matrix.test_size()).unwrap();
        assert_eq!(r.check_output(&matrix_out), Ok(()));
        let without_x = format!(
            "iterations {}\nerr {:?}\nsum_x {:?}\n",
            m.iterations, m.err, m.sum_x
        );
        let e = r.check_output(&without_x).unwrap_err();
        assert!(e.contains("no `x`"), "{e}");

        let n = neighborhood::reference(&neighborhood::NeighborhoodParams::test());
        let floats = |v: &[f32]| {
            v.iter()
                .map(|x| format!("{:?}", f64::from(*x)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let nb_out = format!(
            "entropy {}\nenergy {}\n",
            floats(&n.entropy),
            floats(&n.energy)
        );
        let r = Model::Neighborhood
            .reference(&Model::Neighborhood.test_size())
            .unwrap();
        assert_eq!(r.check_output(&nb_out), Ok(()));
        // The default size differs.
        let r = Model::Neighborhood.reference(&[]).unwrap();
        assert!(r.check_output(&nb_out).is_err());
    }

    #[test]
    fn assignments_round_trip_through_the_setters() {
        for m in Model::ALL {
            let size = m.test_size();
            let names: Vec<&str> = size.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names, m.parameter_names(), "{m:?}");
            assert_eq!(m.reference(&size).unwrap().parameters, size);
            assert_eq!(m.parameters(&size).unwrap(), size);
            assert_eq!(Model::from_name(m.name()), Some(m));
        }
        let e = Model::Lu.reference(&[("n".into(), 60)]).err().unwrap();
        assert!(e.contains("not a multiple of B"), "{e}");
    }
}
