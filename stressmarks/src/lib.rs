//! Reference models of the SCMP stressmarks, as
//! `shared/design/stressmarks-spec.md` fixes them: the DIS generator
//! ([`rng`]), and the table of known stressmarks the `scmp sweep` command
//! runs ([`catalog`]).
#![deny(missing_docs)]

pub mod rng;

pub use rng::Ran1;
