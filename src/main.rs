//! `scmp`: the SCMP toolchain command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod run;

/// The SCMP toolchain: assembler, disassembler and emulator of the
/// Single-Chip Message-Passing parallel computer.
#[derive(Parser)]
#[command(name = "scmp", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program (an ELF, or `.s` sources assembled first) on a mesh of tiles.
    Run(run::RunArgs),
    /// Print the effective machine configuration with every key documented.
    Config(run::ConfigArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Config(args) => run::config(args),
    }
}
