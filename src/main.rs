//! `scmp`: the SCMP toolchain command line.
//!
//! Exit status, for every command: 0 on success; 2 for bad input (a
//! command line, source, ELF file or configuration that is wrong, or a file
//! that cannot be read or written); `scmp run` otherwise returns the
//! program's own status, 134 after a guest fault, 124 at the cycle limit,
//! 125 after a deadlock, 130 when SIGINT or SIGTERM stopped it. Errors are one `error:` line, or a source snippet
//! for an error in a source file.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod cc;
mod gdb;
mod jobs;
mod noc;
mod output;
mod preprocess;
mod profile;
mod record;
mod run;
mod setup;
mod snaptest;
mod sweep;
mod watch;

/// `--version`: the version, the commit it was built from, and what the
/// build provides.
const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("SCMP_COMMIT"),
    ")\nisa: RV32G (RV32IMAFD, Zicsr; no compressed instructions) + the SCMP messaging and thread instructions",
    "\nemulator: cycle-level tiles (16 contexts each), NIU designs original and modified, routers with virtual channels",
    "\nhost interface: ecall services (Linux write/read/exit numbers, SCMP print services) and RISC-V semihosting (picolibc)",
    "\nbuild: ",
    env!("SCMP_PROFILE"),
);

/// The SCMP toolchain: assembler, disassembler and emulator of the
/// Single-Chip Message-Passing parallel computer.
#[derive(Parser)]
#[command(name = "scmp", version, long_version = LONG_VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble sources (GNU as dialect, RV32G + SCMP) into an ELF executable
    /// (or, with -c, a relocatable object for GNU ld).
    Asm(AsmArgs),
    /// Compile C for a tile: gcc with scmp.h, a messaging library, picolibc
    /// and the tile's memory map, `scmp asm` as the assembler.
    Cc(cc::CcArgs),
    /// Show the sections, symbols and disassembly of an ELF file.
    Objdump(ObjdumpArgs),
    /// Run a program (an ELF, or `.s` sources assembled first) on a mesh of tiles.
    Run(Box<setup::RunArgs>),
    /// Print the effective machine configuration with every key documented.
    Config(setup::ConfigArgs),
    /// Run the network alone under synthetic traffic and print BookSim2's figures.
    Noc(noc::NocArgs),
    /// Snapshot-test programs: run each as its `# run:` line says and compare
    /// its end, output, statistics and trace with `NAME.snap` beside it.
    Test(snaptest::TestArgs),
    /// Rerun the thesis's chapter 6: a stressmark over 1..64 tiles in both
    /// designs, on this host's cores or as a job list; CSV, JSON, SVG plots.
    Sweep(Box<sweep::SweepArgs>),
    /// Run one stressmark on one mesh (default: Transitive Closure on 8x8)
    /// in both designs, checked against its reference model.
    Stressmark(sweep::StressmarkArgs),
    /// Find the machine and programs that reproduce chapter 6: a grid over
    /// configuration keys, program parameters and variants, each point's
    /// peak improvements against the thesis's, ranked by fit.
    Calibrate(Box<sweep::CalibrateArgs>),
}

/// Arguments of `scmp asm`.
#[derive(clap::Args)]
struct AsmArgs {
    /// Source files; they link into one executable (globals resolve across
    /// them). `-` is standard input; with -c and none, standard input too
    /// (as `gcc -pipe` runs GNU as).
    inputs: Vec<PathBuf>,
    /// Output file.
    #[arg(short, long, default_value = "a.out")]
    output: PathBuf,
    /// Directory searched by `.include` and by the C preprocessor of `.S`
    /// sources (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a preprocessor macro for `.S` sources: NAME or NAME=VALUE (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Define a symbol: NAME=VALUE (repeatable).
    #[arg(long = "defsym", value_name = "NAME=VALUE", value_parser = parse_defsym)]
    defsym: Vec<(String, i64)>,
    /// Entry symbol (default `_start`, else the start of `.text`).
    #[arg(short, long, value_name = "SYMBOL")]
    entry: Option<String>,
    /// Print a listing: line, address, encoding, source text.
    #[arg(short = 'l', long = "listing")]
    listing: bool,
    /// Write the listing to FILE instead of stdout (implies -l).
    #[arg(long = "listing-file", value_name = "FILE")]
    listing_file: Option<PathBuf>,
    /// Address of `.text`, a multiple of 4.
    #[arg(long, value_name = "ADDR", value_parser = parse_text_base, default_value = "0x10000")]
    text_base: u64,
    /// Write a relocatable object (one input file) for a linker such as GNU
    /// ld, with RISC-V relocations as GNU as writes them. Invoked as `as`
    /// (or `...-as`), `scmp` is this command with GNU as's options, so gcc
    /// uses it as its assembler through `gcc -B DIR` (DIR/as a link to scmp).
    #[arg(short = 'c', long = "object")]
    object: bool,
    /// GNU as's `-march=`: the architecture an object declares
    /// (`Tag_RISCV_arch`, written as GNU as writes it); the last one counts
    /// (gcc passes two). Every RV32G instruction is taken whatever it says.
    #[arg(long, value_name = "ISA", hide = true)]
    march: Vec<String>,
    /// GNU as's `-mabi=`: the float ABI flag of an object (ilp32d, the
    /// default; ilp32f; ilp32); the last one counts.
    #[arg(long, value_name = "ABI")]
    mabi: Vec<String>,
    /// GNU as's `-misa-spec=`: 20191213 (the default) or 20190608.
    #[arg(long = "misa-spec", value_name = "VERSION", hide = true)]
    misa_spec: Vec<String>,
    /// No architecture attribute from `-march` (GNU as's `-mno-arch-attr`;
    /// a `.attribute arch` in the source is still written).
    #[arg(long = "no-arch-attr", hide = true)]
    no_arch_attr: bool,
    /// No linker relaxation in an object (GNU as's `-mno-relax`).
    #[arg(long = "no-relax")]
    no_relax: bool,
    /// Linker relaxation in an object (GNU as's `-mrelax`, the default).
    #[arg(long = "relax", hide = true)]
    relax: bool,
    /// DWARF version of the line table built from `.loc` (GNU as's
    /// `--gdwarf-N`, 2..=5).
    #[arg(long = "gdwarf", value_name = "N", hide = true, action = clap::ArgAction::Set)]
    gdwarf: Option<u16>,
    /// GNU as options that change nothing here (`--traditional-format`, `-g`, `-fpic`, ...).
    #[arg(long = "gnu-ignored", hide = true)]
    gnu_ignored: Vec<String>,
    /// Print the version on standard error (GNU as's `-v`), then assemble.
    #[arg(short = 'v')]
    verbose: bool,
}

/// Arguments of `scmp objdump`.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
struct ObjdumpArgs {
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    help: Option<bool>,
    /// The ELF file.
    input: PathBuf,
    /// Disassemble the code sections.
    #[arg(short = 'd', long = "disassemble")]
    disassemble: bool,
    /// Show the symbol table.
    #[arg(short = 't', long = "syms")]
    syms: bool,
    /// Show the section headers.
    #[arg(short = 'h', long = "section-headers")]
    headers: bool,
    /// Show the contents of every allocated section in hex.
    #[arg(short = 's', long = "full-contents")]
    contents: bool,
    /// Disassembler options, comma-separated: `no-aliases` (the instructions
    /// themselves, not `li`, `ret`, `j`, ...), `numeric` (x5, f10).
    #[arg(short = 'M', long = "disassembler-options", value_name = "OPTIONS")]
    disassembler_options: Vec<String>,
}

fn parse_number(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else {
        t.parse()
    };
    r.map_err(|e| {
        if *e.kind() == std::num::IntErrorKind::PosOverflow {
            format!("`{s}` is too large")
        } else {
            format!("`{s}` is not a number")
        }
    })
}

fn parse_text_base(s: &str) -> Result<u64, String> {
    let base = parse_number(s)?;
    if base % 4 != 0 {
        return Err(format!(
            "`{s}` is not a multiple of 4 (instructions are 32-bit words)"
        ));
    }
    if base > u32::MAX as u64 {
        return Err(format!("`{s}` is beyond the 32-bit address space"));
    }
    Ok(base)
}

fn parse_defsym(s: &str) -> Result<(String, i64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let v = value.trim();
    let n = if let Some(neg) = v.strip_prefix('-') {
        parse_number(neg).map(|x| (x as i64).wrapping_neg())?
    } else {
        parse_number(v)? as i64
    };
    Ok((name.trim().to_string(), n))
}

/// Writes an executable file: like a linker, with the execute permission
/// set (qemu-user and the shell refuse files without it).
fn write_executable(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

fn assemble(mut args: AsmArgs) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    if args.inputs.is_empty() {
        if !args.object {
            eprintln!("error: no input files (scmp asm prog.s -o prog.elf)");
            return ExitCode::from(setup::EXIT_USAGE);
        }
        args.inputs.push("-".into());
    }
    let sources = match preprocess::read_sources(&args.inputs, &args.include, &args.define) {
        Ok(sources) => sources,
        Err(errors) => {
            for e in errors {
                eprintln!("error: {e}");
            }
            return ExitCode::from(setup::EXIT_USAGE);
        }
    };
    if args.verbose {
        eprintln!(
            "scmp asm {} (GNU as 2.40's dialect and object files for RV32G + SCMP)",
            env!("CARGO_PKG_VERSION")
        );
    }
    let arch = match arch_options(&args) {
        Ok(arch) => arch,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(setup::EXIT_USAGE);
        }
    };
    let opts = asm::Options {
        arch_attribute: arch.0,
        isa_spec: arch.1,
        include_dirs: args.include.clone(),
        defsyms: args.defsym.clone(),
        entry: args.entry.clone(),
        listing: args.listing || args.listing_file.is_some(),
        text_base: args.text_base,
        relax: !args.no_relax,
        dwarf_version: args.gdwarf.unwrap_or(0),
        ..asm::Options::default()
    };
    if args.object {
        return assemble_object(&args, &sources, &opts, color);
    }
    match asm::assemble_sources(&sources, &opts) {
        Ok(out) => {
            if !out.warnings.list.is_empty() {
                eprint!("{}", out.warnings.render(color));
            }
            if let Err(e) = write_executable(&args.output, &out.elf) {
                eprintln!("error: cannot write {}: {e}", args.output.display());
                return ExitCode::from(setup::EXIT_USAGE);
            }
            if let Some(listing) = out.listing {
                match &args.listing_file {
                    None => output::stdout(&listing),
                    Some(dest) => {
                        if let Err(e) = std::fs::write(dest, listing) {
                            eprintln!("error: cannot write {}: {e}", dest.display());
                            return ExitCode::from(setup::EXIT_USAGE);
                        }
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Err(diags) => {
            eprint!("{}", diags.render(color));
            let n = diags.error_count();
            eprintln!(
                "error: assembly failed with {n} error{}",
                if n == 1 { "" } else { "s" }
            );
            ExitCode::from(setup::EXIT_USAGE)
        }
    }
}

/// The architecture attribute and ISA specification from `-march=`,
/// `-misa-spec=` and `-mno-arch-attr`, each `-march` checked as GNU as
/// checks it.
fn arch_options(args: &AsmArgs) -> Result<(Option<String>, asm::arch::IsaSpec), String> {
    let spec = match args.misa_spec.last() {
        Some(s) => asm::arch::IsaSpec::parse(s)?,
        None => asm::arch::IsaSpec::default(),
    };
    let mut attribute = asm::arch::canonical("rv32g", spec)?;
    for march in &args.march {
        attribute =
            asm::arch::canonical(march, spec).map_err(|e| format!("-march={march}: {e}"))?;
    }
    Ok(((!args.no_arch_attr).then_some(attribute), spec))
}

/// `scmp asm -c`: one source into a relocatable object.
fn assemble_object(
    args: &AsmArgs,
    sources: &[(String, String)],
    opts: &asm::Options,
    color: bool,
) -> ExitCode {
    let [(name, text)] = sources else {
        eprintln!("error: -c writes one object from one input file; assemble each file on its own");
        return ExitCode::from(setup::EXIT_USAGE);
    };
    let abi = args.mabi.last().map_or("ilp32d", String::as_str);
    let Some(flags) = asm::object::abi_flags(abi) else {
        eprintln!("error: unknown ABI `{abi}`: the tiles take ilp32d, ilp32f or ilp32");
        return ExitCode::from(setup::EXIT_USAGE);
    };
    match asm::assemble_object(name, text, opts, flags) {
        Ok(out) => {
            if !out.warnings.list.is_empty() {
                eprint!("{}", out.warnings.render(color));
            }
            if let Err(e) = std::fs::write(&args.output, &out.object) {
                eprintln!("error: cannot write {}: {e}", args.output.display());
                return ExitCode::from(setup::EXIT_USAGE);
            }
            if let Some(listing) = out.listing {
                match &args.listing_file {
                    None => output::stdout(&listing),
                    Some(dest) => {
                        if let Err(e) = std::fs::write(dest, listing) {
                            eprintln!("error: cannot write {}: {e}", dest.display());
                            return ExitCode::from(setup::EXIT_USAGE);
                        }
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Err(diags) => {
            // Under `scmp cc`, gcc's temporary `.s` is deleted when we
            // fail: keep it, and name it in the errors.
            if let Some(kept) = keep_failed_source(name, text) {
                let again = asm::assemble_object(&kept.display().to_string(), text, opts, flags);
                let diags = again.err().unwrap_or(diags);
                eprint!("{}", diags.render(color));
                eprintln!(
                    "note: the assembly gcc wrote (its temporary {name}, which it deletes) is kept as {}",
                    kept.display()
                );
                let n = diags.error_count();
                eprintln!(
                    "error: assembly failed with {n} error{}",
                    if n == 1 { "" } else { "s" }
                );
                return ExitCode::from(setup::EXIT_USAGE);
            }
            eprint!("{}", diags.render(color));
            let n = diags.error_count();
            eprintln!(
                "error: assembly failed with {n} error{}",
                if n == 1 { "" } else { "s" }
            );
            ExitCode::from(setup::EXIT_USAGE)
        }
    }
}

/// When `scmp cc` runs us as gcc's assembler ([`cc::KEEP_FAILED_ENV`] set)
/// on its temporary `.s`: writes `text` to that directory as
/// `STEM.failed.s` (STEM: the C file the `.file` directive names, else the
/// input's) and returns its path.
fn keep_failed_source(name: &str, text: &str) -> Option<std::path::PathBuf> {
    let dir = std::env::var_os(cc::KEEP_FAILED_ENV)?;
    let from_file = text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix(".file")?.trim();
        let quoted = rest.strip_prefix('"')?;
        Some(quoted[..quoted.find('"')?].to_string())
    });
    let source = from_file.unwrap_or_else(|| name.to_string());
    let stem = std::path::Path::new(&source)
        .file_stem()?
        .to_string_lossy()
        .into_owned();
    let kept = std::path::Path::new(&dir).join(format!("{stem}.failed.s"));
    std::fs::write(&kept, text).ok()?;
    Some(kept)
}

/// GNU as's command line (`as [-march=..] [-mabi=..] [-o out] in.s`, as
/// gcc runs it) as `scmp asm -c`'s, when scmp is invoked as `as` or
/// `TARGET-as`; and GNU's single-dash `-m...` options of `scmp asm` as
/// the double-dash ones clap reads.
fn gnu_as_spellings(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let program = args
        .first()
        .and_then(|a| std::path::Path::new(a).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let as_gnu_as = program == "as" || program.ends_with("-as");
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    let mut rest = args.into_iter();
    out.extend(rest.next());
    if as_gnu_as {
        out.push("asm".into());
        out.push("-c".into());
    } else {
        // Only `scmp asm ...` takes GNU's spellings.
        let first = rest.next();
        let is_asm = first.as_ref().is_some_and(|a| a == "asm");
        out.extend(first);
        if !is_asm {
            out.extend(rest);
            return out;
        }
    }
    for arg in rest {
        let text = arg.to_string_lossy().into_owned();
        let mapped = if let Some(v) = text.strip_prefix("-march=") {
            format!("--march={v}")
        } else if let Some(v) = text.strip_prefix("-mabi=") {
            format!("--mabi={v}")
        } else if let Some(v) = text.strip_prefix("-misa-spec=") {
            format!("--misa-spec={v}")
        } else if let Some(v) = text.strip_prefix("--gdwarf-") {
            format!("--gdwarf={v}")
        } else {
            match text.as_str() {
                "-mno-relax" => "--no-relax".into(),
                "-mno-arch-attr" => "--no-arch-attr".into(),
                "-mrelax" => "--relax".into(),
                "--traditional-format"
                | "-g"
                | "--gen-debug"
                | "-fpic"
                | "-fPIC"
                | "-fno-pic"
                | "-march-attr"
                | "-mcsr-check"
                | "-mno-csr-check"
                | "-mlittle-endian"
                | "--32"
                | "-Qy"
                | "-Qn" => {
                    format!("--gnu-ignored={text}")
                }
                _ => {
                    out.push(arg);
                    continue;
                }
            }
        };
        out.push(mapped.into());
    }
    out
}

fn objdump(args: ObjdumpArgs) -> ExitCode {
    let data = match std::fs::read(&args.input) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.input.display());
            return ExitCode::from(setup::EXIT_USAGE);
        }
    };
    let mut options = asm::objdump::Options::default();
    for text in &args.disassembler_options {
        match asm::objdump::Options::parse(text, options) {
            Ok(o) => options = o,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(setup::EXIT_USAGE);
            }
        }
    }
    let mut what = asm::objdump::Show {
        disassemble: args.disassemble,
        symbols: args.syms,
        headers: args.headers,
        contents: args.contents,
        options,
    };
    if !(what.disassemble || what.symbols || what.headers || what.contents) {
        what.disassemble = true;
    }
    match asm::objdump::dump(&data, &args.input.display().to_string(), &what) {
        Ok(text) => {
            output::stdout(&text);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", args.input.display());
            ExitCode::from(setup::EXIT_USAGE)
        }
    }
}

/// The command line with `--stats text|json` (a space where clap wants
/// `=`) joined into `--stats=...`: the value would be taken for a program.
fn usual_spellings(args: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    for arg in args {
        if let Some(last) = out.last_mut()
            && last == "--stats"
            && (arg == "text" || arg == "json")
        {
            last.push("=");
            last.push(&arg);
            continue;
        }
        out.push(arg);
    }
    out
}

fn main() -> ExitCode {
    let matches = run::with_defaults_in_help(Cli::command()).get_matches_from(usual_spellings(
        gnu_as_spellings(std::env::args_os().collect()).into_iter(),
    ));
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli.command {
        Command::Asm(args) => assemble(args),
        Command::Cc(args) => cc::cc(args),
        Command::Objdump(args) => objdump(args),
        Command::Run(args) => run::run(*args),
        Command::Config(args) => run::config(args),
        Command::Noc(args) => noc::noc(args),
        Command::Test(args) => snaptest::test(args),
        Command::Sweep(args) => sweep::sweep(*args),
        Command::Stressmark(args) => sweep::stressmark(args),
        Command::Calibrate(args) => sweep::calibrate(*args),
    }
}
