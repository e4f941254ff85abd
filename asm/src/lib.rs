//! The SCMP assembler: GNU `as` dialect for RV32G plus the SCMP messaging
//! extension, producing ELF32 RISC-V executables.
#![deny(missing_docs)]

use std::path::PathBuf;

/// Assembler options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Directories searched by `.include` after the including file's own directory.
    pub include_dirs: Vec<PathBuf>,
    /// `--defsym NAME=VALUE` definitions.
    pub defsyms: Vec<(String, i64)>,
    /// Entry symbol (default `_start`).
    pub entry: Option<String>,
    /// Produce a listing.
    pub listing: bool,
}

/// A successful assembly.
#[derive(Clone, Debug)]
pub struct Output {
    /// The ELF32 executable.
    pub elf: Vec<u8>,
    /// The listing, when asked for.
    pub listing: Option<String>,
}

/// Every error of a failed assembly, rendered as miette reports.
#[derive(Debug)]
pub struct Diagnostics {
    /// Rendered reports, one per error (plain text, no colour).
    pub rendered: Vec<String>,
}

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in &self.rendered {
            f.write_str(r)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Assembles source texts given as (name, text) pairs into one executable.
pub fn assemble_sources(
    sources: &[(String, String)],
    options: &Options,
) -> Result<Output, Diagnostics> {
    let _ = (sources, options);
    Err(Diagnostics {
        rendered: vec!["the assembler is being written\n".to_string()],
    })
}

/// Assembles files into one executable.
pub fn assemble_files(paths: &[PathBuf], options: &Options) -> Result<Output, Diagnostics> {
    let mut sources = Vec::new();
    for p in paths {
        match std::fs::read_to_string(p) {
            Ok(text) => sources.push((p.display().to_string(), text)),
            Err(e) => {
                return Err(Diagnostics {
                    rendered: vec![format!("error: cannot read {}: {e}\n", p.display())],
                });
            }
        }
    }
    assemble_sources(&sources, options)
}
