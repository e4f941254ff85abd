//! `scmp test`: snapshot tests of a user's programs. Each program runs with
//! the options of its `# run:` line and its snapshot text
//! ([`emu::snapshot`]) is compared with `NAME.snap` beside it (insta's
//! format, see [`file`]). A difference or a missing snapshot is written as
//! pending (`NAME.snap.new`) and fails, unless `--accept` takes it or
//! `--review` asks; in CI mode (`--check`, or the `CI` variable set) nothing
//! is written and anything pending fails too.
//!
//! Exit status: 0 when every snapshot matched (or was accepted), 1 when
//! one differs, is new or pending, or a program does not assemble or load;
//! 2 for a bad command line or path.

mod diff;
mod file;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use emu::snapshot::{RunHeader, SnapshotOptions};

use crate::setup::{EXIT_USAGE, assemble_program, is_assembly};

/// Arguments of `scmp test`.
#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Programs: assembly files, directories (searched recursively for
    /// sources with a `# run:` line) or glob patterns like `tests/*.s`.
    /// Default: the current directory.
    #[arg(value_name = "PATHS")]
    pub paths: Vec<String>,
    /// Show each difference and ask whether to accept it.
    #[arg(long, conflicts_with_all = ["accept", "check"])]
    pub review: bool,
    /// Accept every difference and new snapshot.
    #[arg(long, conflicts_with = "check")]
    pub accept: bool,
    /// CI mode: write nothing; any difference, new or pending snapshot
    /// fails (also when the `CI` environment variable is set and neither
    /// --accept nor --review is given).
    #[arg(long)]
    pub check: bool,
    /// Also run every program in lockstep, with a short and a long epoch,
    /// with other router visiting orders, with the tiles on 3 host threads
    /// and on the other router core (sim.network_engine): each must give
    /// the same snapshot text.
    #[arg(long)]
    pub cross_check: bool,
    /// Directory searched by `.include` and the C preprocessor (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro for `.S` sources (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
}

/// What to do with a difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Write it as pending.
    Pending,
    /// Write it as accepted.
    Accept,
    /// Ask.
    Review,
    /// Write nothing.
    Check,
}

/// Whether the `CI` environment variable says this is CI (as insta reads it).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
}

/// The programs named by `paths`, sorted, without repeats.
fn find_programs(paths: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let default = [".".to_string()];
    for p in if paths.is_empty() {
        &default[..]
    } else {
        paths
    } {
        if p.contains(['*', '?', '[']) {
            let matches = glob::glob(p).map_err(|e| format!("`{p}`: {e}"))?;
            let before = out.len();
            for m in matches {
                let m = m.map_err(|e| e.to_string())?;
                if m.is_dir() {
                    walk(&m, &mut out)?;
                } else if is_assembly(&m) {
                    out.push(m);
                }
            }
            if out.len() == before {
                return Err(format!("`{p}` matches no program"));
            }
        } else {
            let path = PathBuf::from(p);
            if path.is_dir() {
                walk(&path, &mut out)?;
            } else if path.is_file() {
                if !is_assembly(&path) {
                    return Err(format!("{p} is not an assembly source (.s, .S, .asm)"));
                }
                out.push(path);
            } else {
                return Err(format!("{p}: no such file or directory"));
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The sources under `dir` with a `# run:` line (other sources are taken
/// for included files), skipping hidden directories and `target`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(&path, out)?;
            }
        } else if is_assembly(&path)
            && std::fs::read(&path).is_ok_and(|b| String::from_utf8_lossy(&b).contains("# run:"))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The outcome of one program.
enum Outcome {
    /// The snapshot matched.
    Matched,
    /// It differs from the stored one (or there is none: `old` None).
    Changed { old: Option<String>, new: String },
    /// It could not run (assembly, header, loading), or a cross-check
    /// run differed.
    Failed(String),
}

/// Runs one program and compares its snapshot text.
fn test_one(path: &Path, args: &TestArgs) -> Outcome {
    let source = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return Outcome::Failed(format!("cannot read it: {e}")),
    };
    // Errors of the header name the file and line: `FILE:LINE: ...`.
    let at_line = |e: String| {
        let e = e.strip_prefix("line ").unwrap_or(&e).to_string();
        Outcome::Failed(format!("{}:{e}", path.display()))
    };
    let header = match RunHeader::parse(&source) {
        Ok(h) => h,
        Err(e) => return at_line(e),
    };
    let config = match header.config() {
        Ok(c) => c,
        Err(e) => return at_line(header.error(e)),
    };
    let mut include = args.include.clone();
    include.extend(header.include_dirs(path.parent().unwrap_or(Path::new(""))));
    let program = match assemble_program(
        &[path.to_path_buf()],
        &include,
        &args.define,
        header.defsyms.clone(),
    ) {
        Ok(p) => p,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let options = SnapshotOptions {
        trace: header.trace.clone(),
        keep: header.keep,
        ..SnapshotOptions::default()
    };
    let new = match emu::snapshot::run(&config, &program, &options) {
        Ok(r) => file::normalize(&r.text()),
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    if args.cross_check {
        match emu::snapshot::cross_check_runs(&config, &program, &options) {
            Err(e) => return Outcome::Failed(e.to_string()),
            Ok(runs) => {
                for (what, run) in runs {
                    let other = file::normalize(&run.text());
                    if other != new {
                        return Outcome::Failed(format!(
                            "cross-check: the run {what} differs from the ordinary run (- ordinary, + {what})\n{}",
                            diff::render(&new, &other)
                        ));
                    }
                }
            }
        }
    }
    match file::read(&file::accepted_path(path)) {
        Err(e) => Outcome::Failed(e.to_string()),
        Ok(Some(old)) if old == new => Outcome::Matched,
        Ok(old) => Outcome::Changed { old, new },
    }
}

/// Asks on stderr, reads the answer from stdin: accept (true), reject
/// (false) or skip (None, also at the end of input).
fn ask(input: &mut dyn BufRead) -> Option<bool> {
    loop {
        eprint!("accept [a], reject [r] or skip [s]? ");
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            eprintln!();
            return None;
        }
        match line.trim() {
            "a" | "accept" | "y" => return Some(true),
            "r" | "reject" | "n" => return Some(false),
            "s" | "skip" | "" => return None,
            _ => {}
        }
    }
}

/// Counts of outcomes.
#[derive(Default)]
struct Tally {
    matched: usize,
    accepted: usize,
    rejected: usize,
    pending: usize,
    failed: usize,
}

/// Runs `scmp test`.
pub fn test(args: TestArgs) -> ExitCode {
    let mode = if args.accept {
        Mode::Accept
    } else if args.review {
        Mode::Review
    } else if args.check || in_ci() {
        Mode::Check
    } else {
        Mode::Pending
    };
    let programs = match find_programs(&args.paths) {
        Ok(p) if p.is_empty() => {
            eprintln!("error: no program found (sources with a `# run:` line)");
            return ExitCode::from(EXIT_USAGE);
        }
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut tally = Tally::default();
    let mut out = std::io::stdout().lock();
    for path in &programs {
        let shown = path.display();
        let pending = file::pending_path(path);
        let (old, new) = match test_one(path, &args) {
            Outcome::Matched => {
                if pending.exists() {
                    if mode == Mode::Check {
                        let _ = writeln!(
                            out,
                            "PENDING {shown}: matches, but {} waits for review",
                            pending.display()
                        );
                        tally.pending += 1;
                        continue;
                    }
                    // A stale pending snapshot: the run matches the accepted one.
                    let _ = std::fs::remove_file(&pending);
                }
                let _ = writeln!(out, "ok      {shown}");
                tally.matched += 1;
                continue;
            }
            Outcome::Failed(e) => {
                let _ = writeln!(out, "FAILED  {shown}: {e}");
                tally.failed += 1;
                continue;
            }
            Outcome::Changed { old, new } => (old, new),
        };
        settle(
            mode,
            &mut input,
            &mut out,
            &mut tally,
            path,
            old.as_deref(),
            &new,
        );
    }
    let _ = writeln!(
        out,
        "scmp test: {} programs: {} matched, {} accepted, {} rejected, {} pending, {} failed",
        programs.len(),
        tally.matched,
        tally.accepted,
        tally.rejected,
        tally.pending,
        tally.failed
    );
    if tally.pending > 0 && mode != Mode::Check {
        let _ = writeln!(
            out,
            "review with `scmp test --review` (or `cargo insta review`), or take every change with `scmp test --accept`"
        );
    }
    if tally.pending + tally.rejected + tally.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A program whose run differs from its snapshot (or has none): the
/// difference shown, then the snapshot accepted, rejected or left pending
/// as `mode` says.
#[allow(clippy::too_many_arguments)]
fn settle(
    mode: Mode,
    input: &mut dyn BufRead,
    out: &mut impl Write,
    tally: &mut Tally,
    path: &Path,
    old: Option<&str>,
    new: &str,
) {
    let shown = path.display();
    let pending = file::pending_path(path);
    let accepted = file::accepted_path(path);
    let input_file = path.file_name().unwrap_or_default().to_string_lossy();
    match old {
        Some(old) => {
            let _ = writeln!(out, "DIFFERS {shown} (snapshot {})", accepted.display());
            let _ = write!(out, "{}", diff::render(old, new));
        }
        None => {
            let _ = writeln!(
                out,
                "NEW     {shown}: no snapshot yet; {}",
                diff::summary(new)
            );
        }
    }
    let decision = match mode {
        Mode::Accept => Some(true),
        Mode::Review => {
            let _ = out.flush();
            ask(input)
        }
        Mode::Pending | Mode::Check => None,
    };
    let written = match decision {
        Some(true) => file::write(&accepted, &input_file, new)
            .and_then(|()| remove_if_present(&pending))
            .map(|()| {
                tally.accepted += 1;
                format!("accepted: {}", accepted.display())
            }),
        Some(false) => remove_if_present(&pending).map(|()| {
            tally.rejected += 1;
            "rejected".to_string()
        }),
        None if mode == Mode::Check => {
            tally.pending += 1;
            Ok("not written (CI mode)".to_string())
        }
        None => file::write(&pending, &input_file, new).map(|()| {
            tally.pending += 1;
            format!("pending review: {}", pending.display())
        }),
    };
    match written {
        Ok(what) => {
            let _ = writeln!(out, "  {what}");
        }
        Err(e) => {
            let _ = writeln!(out, "  cannot write the snapshot: {e}");
            tally.failed += 1;
        }
    }
}

fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}
