//! The C rows of a sweep (`NAME-c`): each design's program compiled once,
//! before the plan is made, by `scmp cc`'s gcc command line (`--model am`
//! for the original design, `sr` for the modified one, `-O2`), with the
//! stressmark's parameters and the profile's program symbols as `-D`
//! definitions, into `DIR/bin/NAME-DESIGN.elf`; the runs then load the ELF.
//!
//! The profile's program symbols are the messaging libraries' options too
//! (`SCMP_WAIT_POLL`): when there are any, the library (`stressmarks/lib/
//! am.s` or `sr.s`) is assembled with them into `DIR/bin/` and linked
//! instead of `scmp cc`'s own, so that a C row runs under the same library
//! as the assembly rows of the profile.

use std::path::{Path, PathBuf};
use std::process::Command;

use miette::{Result, miette};

use super::plan::{Design, Source};

/// Whether a design's sources are C (and so compiled, not assembled).
pub fn is_c(files: &[PathBuf]) -> bool {
    files
        .iter()
        .any(|f| f.extension().is_some_and(|e| e == "c"))
}

/// Compiles every C source's programs into `out/bin/` and replaces their
/// sources with the ELF; `profile` is the sweep's profile (a source's own
/// wins).
pub fn compile_c(sources: &mut [Source], out: &Path, profile: Option<&str>) -> Result<()> {
    let bin = out.join("bin");
    for source in sources.iter_mut() {
        for design in Design::BOTH {
            let files = match design {
                Design::Original => &source.original,
                Design::Modified => &source.modified,
            };
            if !is_c(files) {
                continue;
            }
            let profile = source.profile.as_deref().or(profile);
            let programs = match profile {
                Some(name) => crate::profile::load(name)?.programs,
                None => Vec::new(),
            };
            std::fs::create_dir_all(&bin)
                .map_err(|e| miette!("cannot create {}: {e}", bin.display()))?;
            let name = format!("{}-{}", source.planned.name, design.name());
            let elf = bin.join(format!("{name}.elf"));
            let mut defines: Vec<(String, i64)> = programs.clone();
            for (param, value) in &source.planned.defsyms {
                let symbol =
                    stressmarks::catalog::program_symbol(&source.planned.symbol_prefix, param);
                defines.push((symbol, *value));
            }
            defines.extend(source.planned.symbols.iter().cloned());
            // The library assembled with it reads the same switches
            // (`SCMP_WAIT_POLL` is sr.s's): the profile's, then `--symbol`'s.
            let mut library = programs;
            library.extend(source.planned.symbols.iter().cloned());
            compile(files, design, &defines, &library, &elf, &bin, &name)
                .map_err(|e| miette!("{} ({} design): {e}", source.planned.name, design.name()))?;
            let files = match design {
                Design::Original => &mut source.original,
                Design::Modified => &mut source.modified,
            };
            *files = vec![elf];
        }
    }
    Ok(())
}

/// The model `scmp cc` takes for a design.
fn model(design: Design) -> &'static str {
    match design {
        Design::Original => "am",
        Design::Modified => "sr",
    }
}

fn compile(
    files: &[PathBuf],
    design: Design,
    defines: &[(String, i64)],
    library_symbols: &[(String, i64)],
    elf: &Path,
    bin: &Path,
    name: &str,
) -> Result<(), String> {
    let dir = crate::cc::support_dir()?;
    let model = model(design);
    let mut args = vec!["-O2".to_string()];
    args.extend(defines.iter().map(|(n, v)| format!("-D{n}={v}")));
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(["-o".to_string(), elf.display().to_string()]);
    // A profile's program symbols reach the library too: assembled again
    // with them, as `scmp cc` assembles it (thread-local storage included).
    let library = if library_symbols.is_empty() {
        None
    } else {
        let path = bin.join(format!("{name}-lib.o"));
        crate::cc::assemble_library(&dir, model, library_symbols, &path)?;
        Some(path)
    };
    let cmd = crate::cc::gcc_command(&dir, model, &args, library.as_deref());
    let output = Command::new(&cmd[0])
        .args(&cmd[1..])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", cmd[0]))?;
    if !output.status.success() {
        return Err(format!(
            "`{}` failed:\n{}",
            cmd.join(" "),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(())
}
