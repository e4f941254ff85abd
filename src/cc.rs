//! `scmp cc`: compiles C (and assembly) for a tile with gcc, `scmp.h`, one
//! messaging library, picolibc (semihosting) and the tile's linker script,
//! with `scmp asm` as gcc's assembler (`gcc -B`).
//!
//! The files it needs are built into the binary and written once into a
//! support directory (`$SCMP_CACHE_DIR`, else `$XDG_CACHE_HOME/scmp`, else
//! `~/.cache/scmp`, one subdirectory per version of them): `include/scmp.h`,
//! the libraries' sources and objects (`scmp_am.o`, `scmp_sr.o`, assembled
//! by `scmp asm -c`), `scmp_start.c` (how `main` ends), the linker script,
//! and `bin/as`, a link to this program that gcc runs as its assembler.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use crate::setup::EXIT_USAGE;

/// The compiler driver.
pub const GCC: &str = "riscv64-unknown-elf-gcc";

/// Files of the support directory: path in it, contents.
const FILES: &[(&str, &str)] = &[
    ("include/scmp.h", include_str!("../c/include/scmp.h")),
    ("scmp_start.c", include_str!("../c/scmp_start.c")),
    ("scmp-picolibc.ld", include_str!("../c/scmp-picolibc.ld")),
    ("lib/am.s", include_str!("../stressmarks/lib/am.s")),
    ("lib/sr.s", include_str!("../stressmarks/lib/sr.s")),
    (
        "lib/scmp_common.s",
        include_str!("../stressmarks/lib/scmp_common.s"),
    ),
    (
        "lib/scmp_insn.s",
        include_str!("../stressmarks/lib/scmp_insn.s"),
    ),
];

/// Arguments of `scmp cc`.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct CcArgs {
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    help: Option<bool>,
    /// gcc's arguments (sources, `-o`, `-O2`, `-g`, ...), and ours anywhere
    /// among them: `--model am|sr` (the library: active messages for the
    /// original NIU, send-and-receive for the modified one; default sr),
    /// `-v` (print the gcc command line it runs).
    #[arg(allow_hyphen_values = true, trailing_var_arg = true, num_args = 0..)]
    args: Vec<String>,
}

/// Symbols the libraries are assembled with (part of the support
/// directory's name, as the files are): SCMP_C_TLS gives each thread the
/// libraries start its own thread-local storage (errno).
const LIB_DEFSYMS: &[(&str, i64)] = &[("SCMP_C_TLS", 1)];

/// Where the support files live (created when missing).
pub fn support_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    FILES.hash(&mut h);
    LIB_DEFSYMS.hash(&mut h);
    exe.hash(&mut h);
    env!("CARGO_PKG_VERSION").hash(&mut h);
    let base = std::env::var_os("SCMP_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("scmp")))
        .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/scmp")))
        .unwrap_or_else(|| std::env::temp_dir().join("scmp"));
    let dir = base.join(format!("support-{:016x}", h.finish()));
    if dir.join("ready").exists() {
        return Ok(dir);
    }
    // Built beside, then renamed: runs at the same time never see half.
    let tmp = base.join(format!("tmp-{}-{:016x}", std::process::id(), h.finish()));
    let made = build_support(&tmp, &exe);
    if let Err(e) = made {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join("ready").exists() {
            return Err(format!("cannot create {}", dir.display()));
        }
    }
    Ok(dir)
}

fn build_support(dir: &Path, exe: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot write {}: {e}", dir.display());
    for (name, text) in FILES {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("files are in the directory")).map_err(io)?;
        std::fs::write(&path, text).map_err(io)?;
    }
    // The libraries, assembled by us into objects.
    for lib in ["am", "sr"] {
        assemble_library(dir, lib, &[], &dir.join(format!("scmp_{lib}.o")))?;
    }
    // gcc -B DIR/bin/ runs DIR/bin/as: this program, as GNU as.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).map_err(io)?;
    for name in ["as", "riscv64-unknown-elf-as"] {
        #[cfg(unix)]
        std::os::unix::fs::symlink(exe, bin.join(name)).map_err(io)?;
        #[cfg(not(unix))]
        std::fs::copy(exe, bin.join(name)).map_err(io)?;
    }
    std::fs::write(dir.join("ready"), "").map_err(io)?;
    Ok(())
}

/// Assembles the messaging library of `model` (`am` or `sr`) from the
/// support directory `dir` into `out`, with `LIB_DEFSYMS` (SCMP_C_TLS:
/// threads the library starts get their own thread-local storage, errno,
/// as C needs; stressmarks/lib/scmp_common.s, scmp_thread_stub) and
/// `symbols` (a profile's program symbols, say).
pub fn assemble_library(
    dir: &Path,
    model: &str,
    symbols: &[(String, i64)],
    out: &Path,
) -> Result<(), String> {
    let src = dir.join(format!("lib/{model}.s"));
    let text =
        std::fs::read_to_string(&src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    let mut defsyms: Vec<(String, i64)> = LIB_DEFSYMS
        .iter()
        .map(|(n, v)| (n.to_string(), *v))
        .collect();
    defsyms.extend(symbols.iter().cloned());
    let opts = asm::Options {
        include_dirs: vec![dir.join("lib")],
        defsyms,
        ..asm::Options::default()
    };
    let object = asm::assemble_object(
        &src.display().to_string(),
        &text,
        &opts,
        asm::object::abi_flags("ilp32d").expect("a known ABI"),
    )
    .map_err(|d| d.render(false))?;
    std::fs::write(out, object.object).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// The gcc command line `scmp cc` runs for `args` (gcc's) and `model`,
/// linking `library` (`None`: the support directory's `scmp_MODEL.o`).
pub fn gcc_command(
    dir: &Path,
    model: &str,
    args: &[String],
    library: Option<&Path>,
) -> Vec<String> {
    let d = dir.display();
    let mut cmd: Vec<String> = [
        GCC,
        "-march=rv32g",
        "-mabi=ilp32d",
        "--specs=picolibc.specs",
        "--oslib=semihost",
        "--crt0=semihost",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cmd.push(format!("-B{d}/bin/"));
    cmd.push(format!("-I{d}/include"));
    cmd.push(format!("-DSCMP_MODEL_{}", model.to_uppercase()));
    // Compiling only (-c, -S, -E): no link inputs.
    let link = !args.iter().any(|a| a == "-c" || a == "-S" || a == "-E");
    if link {
        cmd.push(format!("-L{d}"));
        cmd.push("-Tscmp-picolibc.ld".into());
        cmd.push("-Wl,--wrap=main".into());
    }
    cmd.extend(args.iter().cloned());
    if link {
        cmd.push(format!("{d}/scmp_start.c"));
        cmd.push(match library {
            Some(l) => l.display().to_string(),
            None => format!("{d}/scmp_{model}.o"),
        });
        cmd.push("-lm".into());
    }
    cmd
}

/// Set by `scmp cc` for the assembler it runs: the directory where the
/// `.s` of an assembler error is kept (gcc deletes its temporary).
pub const KEEP_FAILED_ENV: &str = "SCMP_CC_KEEP_FAILED";

/// The instruction-set letters a tile runs (RV32G: IMAFD, with Zicsr and
/// Zifencei), and the ABIs `scmp cc` links (its messaging libraries are
/// assembled for ilp32d).
const TILE_EXTENSIONS: &str = "imafdg";
const TILE_ABIS: &[&str] = &["ilp32d"];

/// `-march=`/`-mabi=` among gcc's arguments, checked against what `scmp run`
/// runs, so that a wrong target is an error here rather than a refused
/// instruction (a compressed one, say) when the program runs.
pub fn check_target_flags(args: &[String]) -> Result<(), String> {
    for a in args {
        if let Some(march) = a.strip_prefix("-march=") {
            check_march(march)?;
        }
        if let Some(mabi) = a.strip_prefix("-mabi=")
            && !TILE_ABIS.contains(&mabi)
        {
            return Err(format!(
                "-mabi={mabi}: scmp cc links {} only (its messaging libraries are built for it)",
                TILE_ABIS.join(", ")
            ));
        }
    }
    Ok(())
}

/// `-march=...`: RV32 with a subset of G's extensions that keeps D (the
/// ABI ilp32d needs it). Single letters after `_` (`rv32i_m`) are
/// extensions as in the letters before.
fn check_march(march: &str) -> Result<(), String> {
    let lower = march.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("rv32") else {
        return Err(format!(
            "-march={march}: the tiles are RV32 (RV32G: rv32imafd); leave -march out (scmp cc uses rv32g)"
        ));
    };
    let mut letters = String::new();
    let mut bad_z = Vec::new();
    for part in rest.split('_') {
        if part.starts_with('z')
            || part.starts_with('x')
            || (part.starts_with('s') && part.len() > 1)
        {
            if !part.starts_with("zicsr") && !part.starts_with("zifencei") {
                bad_z.push(part);
            }
        } else {
            letters.push_str(part);
        }
    }
    let letters: String = letters
        .chars()
        .filter(|c| !c.is_ascii_digit() && *c != 'p')
        .collect();
    if !(letters.starts_with('i') || letters.starts_with('g')) {
        return Err(format!(
            "-march={march}: names no base ISA (rv32i or rv32g); use -march=rv32g (the default) or a subset such as rv32imafd"
        ));
    }
    let bad: Vec<String> = letters
        .chars()
        .filter(|c| !TILE_EXTENSIONS.contains(*c))
        .map(String::from)
        .collect();
    if !bad.is_empty() || !bad_z.is_empty() {
        let named = [bad.join(", "), bad_z.join(", ")]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(", ");
        let hint = if bad.iter().any(|c| c == "c") {
            " (compressed instructions: `scmp run` refuses them)"
        } else {
            ""
        };
        return Err(format!(
            "-march={march}: the tiles run RV32G (rv32imafd, with zicsr and zifencei), not {named}{hint}; use -march=rv32g (the default) or a subset such as rv32imafd"
        ));
    }
    if !letters.contains('g') && !letters.contains('d') {
        return Err(format!(
            "-march={march} has no D extension, which the ABI ilp32d needs (scmp cc's messaging libraries are built for it); use -march=rv32g (the default) or rv32imafd"
        ));
    }
    Ok(())
}

/// With `-march`/`-mabi` given: whether gcc has a 32-bit picolibc for
/// them (it falls back to its default, 64-bit, library otherwise, and the
/// link fails with ld's "ABI is incompatible").
fn check_multilib(args: &[String]) -> Result<(), String> {
    let target: Vec<&String> = args
        .iter()
        .filter(|a| a.starts_with("-march=") || a.starts_with("-mabi="))
        .collect();
    if target.is_empty() {
        return Ok(());
    }
    let has = |p: &str| target.iter().any(|a| a.starts_with(p));
    let mut cmd = Command::new(GCC);
    cmd.arg("--specs=picolibc.specs");
    if !has("-march=") {
        cmd.arg("-march=rv32g");
    }
    if !has("-mabi=") {
        cmd.arg("-mabi=ilp32d");
    }
    let out = cmd
        .args(&target)
        .arg("-print-multi-directory")
        .output()
        .map_err(|e| format!("cannot run {GCC}: {e}"))?;
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if dir.starts_with("rv32") {
        return Ok(());
    }
    let shown: Vec<&str> = target.iter().map(|s| s.as_str()).collect();
    Err(format!(
        "{}: the installed picolibc has no library for this target (gcc would link its 64-bit default); its 32-bit ones: `{GCC} --specs=picolibc.specs -print-multi-lib | grep rv32` (scmp cc uses -march=rv32g -mabi=ilp32d)",
        shown.join(" ")
    ))
}

/// `scmp cc ...`.
pub fn cc(args: CcArgs) -> ExitCode {
    let mut model = "sr".to_string();
    let mut verbose = false;
    let mut gcc_args = Vec::new();
    let mut it = args.args.into_iter();
    while let Some(a) = it.next() {
        if a == "--model" {
            match it.next() {
                Some(m) => model = m,
                None => {
                    eprintln!("error: --model needs am or sr");
                    return ExitCode::from(EXIT_USAGE);
                }
            }
        } else if let Some(m) = a.strip_prefix("--model=") {
            model = m.to_string();
        } else if a == "-v" {
            verbose = true;
        } else {
            gcc_args.push(a);
        }
    }
    if model != "am" && model != "sr" {
        eprintln!(
            "error: unknown model `{model}`: am (active messages, --niu original) or sr (send and receive, --niu modified)"
        );
        return ExitCode::from(EXIT_USAGE);
    }
    if gcc_args.is_empty() {
        eprintln!("error: no input files (scmp cc prog.c -o prog.elf)");
        return ExitCode::from(EXIT_USAGE);
    }
    if let Err(e) = check_target_flags(&gcc_args).and_then(|()| check_multilib(&gcc_args)) {
        eprintln!("error: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    let dir = match support_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let cmd = gcc_command(&dir, &model, &gcc_args, None);
    if verbose {
        eprintln!("{}", cmd.join(" "));
    }
    // An assembler error keeps gcc's temporary `.s` beside the output (the
    // `as` this program plays reads this; `scmp asm`'s assemble_object).
    let keep = gcc_args
        .iter()
        .position(|a| a == "-o")
        .and_then(|i| gcc_args.get(i + 1))
        .map(|o| Path::new(o).parent().unwrap_or(Path::new("")).to_path_buf())
        .unwrap_or_default();
    let keep = if keep.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        keep
    };
    match Command::new(&cmd[0])
        .args(&cmd[1..])
        .env(KEEP_FAILED_ENV, keep)
        .status()
    {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        // gcc said why (a compile or link error): bad input, as for every
        // command (README, "Exit status").
        Ok(_) => ExitCode::from(EXIT_USAGE),
        Err(e) => {
            eprintln!(
                "error: cannot run {GCC}: {e} (apt-get install gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf)"
            );
            ExitCode::from(EXIT_USAGE)
        }
    }
}
