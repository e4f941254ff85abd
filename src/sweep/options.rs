//! The options the sweep family's commands share (`scmp sweep`, `scmp
//! calibrate`, `scmp stressmark`), written once and flattened into each
//! command's arguments: how every run is made ([`RunOptions`]) and how a
//! batch of runs is carried out ([`BatchOptions`]). Clap names each
//! flattened struct's group after it, so that `--merge` conflicts with
//! `RunOptions` as a whole, and with each command's own options as a
//! whole (`SweepSpec`, `CalibrateSpec`); of the batch's options only
//! `--check` goes with `--merge`, the others say that they do not.

use std::path::PathBuf;

/// How every run is made.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RunOptions {
    /// The spec's test sizes instead of the defaults (as CI runs them).
    #[arg(long)]
    pub test_size: bool,
    /// Set a configuration key for every run (repeatable).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    pub settings: Vec<String>,
    /// A shipped profile (`scmp config --profile NAME` shows its machine):
    /// its machine and its program parameters for every run (and, for
    /// `scmp sweep all` and `scmp calibrate`, its variant).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Define a symbol for every program the runs assemble or compile,
    /// `NAME=VALUE` (repeatable), as a profile's `[profile.programs]` do
    /// and after them: a mechanism switch such as `SCMP_WAIT_POLL=0` or
    /// `NB_ONE_PHASE=1` (a program parameter of a model is `--defsym`).
    #[arg(long = "symbol", value_name = "NAME=VALUE")]
    pub symbols: Vec<String>,
    /// Cycle limit of each run.
    #[arg(long, value_name = "CYCLES")]
    pub max_cycles: Option<u64>,
    /// Where the built-in table's sources are [default: here, else the
    /// source tree this scmp was built from].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// How a batch of runs is carried out: here, or as a job list whose
/// records `--merge` reads.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct BatchOptions {
    /// Check every run's printed results against its stressmark's model.
    #[arg(long)]
    pub check: bool,
    /// Simulations run at once [default: the host's cores, divided by the
    /// host threads each run uses (`--set sim.host_threads=N`; 1 by
    /// default)].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "merge")]
    pub threads: Option<u32>,
    /// Run nothing: write the runs to FILE, one self-contained `scmp run
    /// ... --json OUT` command a line, and the plan to DIR/plan.json
    /// (then `--merge DIR`).
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    pub jobs: Option<PathBuf>,
    /// The `scmp` command the job list calls [default: this executable].
    #[arg(long, value_name = "PATH", requires = "jobs")]
    pub scmp: Option<PathBuf>,
}
