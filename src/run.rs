//! `scmp run` and `scmp config` (being written: see emu/).

use std::process::ExitCode;

/// Arguments of `scmp run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// ELF executable or assembly sources.
    pub inputs: Vec<std::path::PathBuf>,
}

/// Arguments of `scmp config`.
#[derive(clap::Args)]
pub struct ConfigArgs {}

/// Runs `scmp run`.
pub fn run(args: RunArgs) -> ExitCode {
    let _ = args;
    eprintln!("error: the emulator is being written");
    ExitCode::FAILURE
}

/// Runs `scmp config`.
pub fn config(args: ConfigArgs) -> ExitCode {
    let _ = args;
    eprintln!("error: the emulator is being written");
    ExitCode::FAILURE
}
