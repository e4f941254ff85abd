//! Reading assembly sources as GNU's driver does: a `.S` file goes through
//! the C preprocessor first (`riscv64-unknown-elf-cpp`, else `cpp`, with
//! `-I` and `-D` passed through); a `.s` file is read as it is.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Preprocessors tried in order.
const PREPROCESSORS: &[&str] = &["riscv64-unknown-elf-cpp", "cpp"];

/// The sources to assemble, by name: `.S` files preprocessed.
pub fn read_sources(
    inputs: &[PathBuf],
    include_dirs: &[PathBuf],
    defines: &[String],
) -> Result<Vec<(String, String)>, Vec<String>> {
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    for path in inputs {
        let read = if path.as_os_str() == "-" {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .map(|_| text)
                .map_err(|e| format!("cannot read standard input: {e}"))
        } else if path.extension().is_some_and(|e| e == "S") {
            preprocess(path, include_dirs, defines)
        } else {
            asm::files::read_window(path, asm::files::FileWindow::WHOLE)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|bytes| {
                    String::from_utf8(bytes)
                        .map_err(|_| format!("{} is not UTF-8 text", path.display()))
                })
        };
        match read {
            Ok(text) => sources.push((path.display().to_string(), text)),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(sources)
    } else {
        Err(errors)
    }
}

fn preprocess(path: &Path, include_dirs: &[PathBuf], defines: &[String]) -> Result<String, String> {
    if !path.is_file() {
        return Err(format!("cannot read {}: no such file", path.display()));
    }
    for cpp in PREPROCESSORS {
        let mut command = Command::new(cpp);
        // -P: no line markers (the assembler would read them as comments,
        // and line numbers are those of the preprocessed text either way).
        command.args(["-x", "assembler-with-cpp", "-P"]);
        for dir in include_dirs {
            command.arg("-I").arg(dir);
        }
        for d in defines {
            command.arg(format!("-D{d}"));
        }
        command.arg(path);
        let output = match command.output() {
            Ok(o) => o,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("cannot run {cpp} on {}: {e}", path.display())),
        };
        if !output.status.success() {
            return Err(format!(
                "the C preprocessor ({cpp}) failed on {}:\n{}",
                path.display(),
                String::from_utf8_lossy(&output.stderr).trim_end()
            ));
        }
        return String::from_utf8(output.stdout)
            .map_err(|_| format!("{} is not UTF-8 text after preprocessing", path.display()));
    }
    Err(format!(
        "{} is a `.S` source, which needs the C preprocessor, and none is installed ({}); install gcc or name the file `.s` if it has no `#` directives",
        path.display(),
        PREPROCESSORS.join(", ")
    ))
}
