//! The `scmp run ...` command lines of a sweep's job list, parsed in this
//! process exactly as the command line would parse them (the same
//! [`RunArgs`](crate::setup::RunArgs) definition), so that the sweep's own
//! runs take exactly the arguments its job list writes. Its own module so
//! that the sweep does not reach into `main.rs`'s parser.

use clap::Parser;

use crate::setup::RunArgs;

/// `scmp run ...` alone.
#[derive(Parser)]
#[command(name = "scmp")]
struct RunOnly {
    #[command(subcommand)]
    command: RunCommand,
}

#[derive(clap::Subcommand)]
enum RunCommand {
    /// `scmp run`.
    Run(Box<RunArgs>),
}

/// `args` (`run ...`, without the program name) as `scmp` parses them.
pub fn parse_run_args(args: &[String]) -> Result<RunArgs, String> {
    let parsed =
        RunOnly::try_parse_from(std::iter::once("scmp").chain(args.iter().map(String::as_str)))
            .map_err(|e| {
                if args.first().is_some_and(|a| a != "run") {
                    format!("`{}` is not a run", args.join(" "))
                } else {
                    e.to_string()
                }
            })?;
    let RunCommand::Run(args) = parsed.command;
    Ok(*args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_line_parses_as_the_command_line_would() {
        let words: Vec<String> = "run a.s b.s --mesh 4x2 --boot all --niu original --defsym X=3 --set niu.queue_flits=4 --max-cycles 99"
            .split(' ')
            .map(String::from)
            .collect();
        let args = parse_run_args(&words).unwrap();
        assert_eq!(args.inputs.len(), 2);
        assert_eq!(args.config.mesh.as_deref(), Some("4x2"));
        assert_eq!(args.config.set, ["niu.queue_flits=4"]);
        assert_eq!(args.defsyms, ["X=3"]);
        assert_eq!(args.max_cycles, Some(99));
        let not_a_run = parse_run_args(&["asm".to_string(), "a.s".to_string()]).unwrap_err();
        assert!(not_a_run.contains("is not a run"), "{not_a_run}");
        let bad = parse_run_args(&["run".to_string(), "--mesh".to_string()]).unwrap_err();
        assert!(bad.contains("--mesh"), "{bad}");
    }
}
