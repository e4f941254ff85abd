//! The SCMP assembler: the GNU `as` dialect for RV32G plus the SCMP messaging
//! extension, producing ELF32 RISC-V executables.
//!
//! Several input files assemble into one executable: each is a unit with its
//! own local symbols, globals resolve across units. The first pass
//! ([`pass1`]) reads statements into section bytes and fixups; the second
//! ([`link`]) lays sections out, resolves symbols and patches the fixups;
//! [`elf`] writes the file. Every error of a run is collected and reported
//! ([`Diagnostics`]), never a panic.
#![deny(missing_docs)]

use std::path::PathBuf;
use std::sync::Arc;

pub mod arch;
pub mod ast;
mod cfi;
pub mod diag;
pub mod dwarf;
pub mod elf;
pub mod expr;
mod fastparse;
pub mod files;

mod blocks;
mod directives;
mod floats;
mod instr;
pub mod lexer;
pub mod link;
pub mod listing;
pub mod objdump;
pub mod object;
pub mod pass1;
pub mod source;
pub mod unit;
lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, missing_docs, unused_parens)]
    grammar
);

pub use diag::{Diag, Diagnostics, Severity};

/// Where `.text` starts unless told otherwise.
pub const DEFAULT_TEXT_BASE: u64 = 0x1_0000;

/// Assembler options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Directories searched by `.include` after the including file's own directory.
    pub include_dirs: Vec<PathBuf>,
    /// `--defsym NAME=VALUE` definitions.
    pub defsyms: Vec<(String, i64)>,
    /// Entry symbol (default `_start`, else the start of `.text`).
    pub entry: Option<String>,
    /// Produce a listing.
    pub listing: bool,
    /// Address of `.text`.
    pub text_base: u64,
    /// Most statements one run processes (including every repetition and
    /// expansion): a runaway `.rept` stops with an error here.
    pub max_statements: u64,
    /// Most macro and `.irp` expansions in one run: a macro that expands to
    /// itself twice grows exponentially, which depth limits alone miss.
    pub max_expansions: u64,
    /// Most bytes of macro and `.irp` text one run expands (every
    /// expansion's text is kept, for diagnostics): a macro whose argument
    /// grows with each use doubles per level and stops here with an error
    /// rather than exhausting memory.
    pub max_expansion_bytes: u64,
    /// Most diagnostics the first pass reports in one run: at this many it
    /// adds "too many errors" and stops reading (as GCC's `-fmax-errors`).
    /// The link's own errors (undefined symbols, values out of range) come
    /// after them.
    pub max_errors: usize,
    /// Write a relocatable object (`-c`): relocations for everything the
    /// linker may move, as GNU as writes them.
    pub relocatable: bool,
    /// Linker relaxation (`-mrelax`, GNU as's default; `-mno-relax` or
    /// `.option norelax` turn it off): relocations marked `R_RISCV_RELAX`,
    /// alignment in code marked `R_RISCV_ALIGN`.
    pub relax: bool,
    /// DWARF version of the line table `.loc` builds (`--gdwarf-N`; 5 when
    /// the source numbers a file 0).
    pub dwarf_version: u16,
    /// `Tag_RISCV_arch` when the source has no `.attribute arch`: the
    /// canonical form ([`arch::canonical`]) of the last `-march=`, else of
    /// `rv32g`; `None` (`-mno-arch-attr`) writes none.
    pub arch_attribute: Option<String>,
    /// `-misa-spec=`: whose default versions `.attribute arch` strings get.
    pub isa_spec: arch::IsaSpec,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            include_dirs: Vec::new(),
            defsyms: Vec::new(),
            entry: None,
            listing: false,
            text_base: DEFAULT_TEXT_BASE,
            max_statements: 10_000_000,
            max_expansions: 1_000_000,
            max_expansion_bytes: 64 << 20,
            max_errors: 1000,
            relocatable: false,
            relax: true,
            dwarf_version: 0,
            arch_attribute: Some(object::RV32G_ARCH.to_string()),
            isa_spec: arch::IsaSpec::default(),
        }
    }
}

/// A successful assembly.
#[derive(Clone, Debug)]
pub struct Output {
    /// The ELF32 executable.
    pub elf: Vec<u8>,
    /// The listing, when asked for.
    pub listing: Option<String>,
    /// The listing as data (empty unless asked for).
    pub lines: Vec<listing::ListLine>,
    /// Warnings (the assembly succeeded).
    pub warnings: Diagnostics,
    /// The linked image (sections, symbols, entry).
    pub image: link::Image,
}

/// Assembles source texts given as (name, text) pairs into one executable.
pub fn assemble_sources(
    sources: &[(String, String)],
    options: &Options,
) -> Result<Output, Diagnostics> {
    if !options.text_base.is_multiple_of(4) {
        return Err(Diagnostics::plain(vec![format!(
            "the text base {:#x} is not a multiple of 4 (instructions are 32-bit words)",
            options.text_base
        )]));
    }
    let mut shared = pass1::Shared::new(options);
    let mut units = Vec::with_capacity(sources.len());
    let names: Vec<String> = sources.iter().map(|(n, _)| n.clone()).collect();
    for (name, text) in sources {
        let file = shared
            .sources
            .add_real(name.clone(), Arc::from(text.as_str()));
        units.push(assemble_unit(&mut shared, file));
    }
    // Link even after first-pass errors: undefined symbols and out-of-range
    // targets are errors of the run too.
    let errors = shared.diags.iter().any(|d| d.severity == Severity::Error);
    let mut link_warnings = Vec::new();
    let linked = link::link(&mut units, &names, options, &mut link_warnings);
    let mut diags = std::mem::take(&mut shared.diags);
    diags.extend(link_warnings);
    let image = match linked {
        Ok(image) if !errors => Some(image),
        Ok(_) => None,
        Err(more) => {
            diags.extend(more);
            None
        }
    };

    let sources = Arc::new(std::mem::take(&mut shared.sources));
    let contexts = Arc::new(std::mem::take(&mut shared.contexts));
    let lines = if options.listing {
        listing::lines(&units, &sources, &contexts)
    } else {
        Vec::new()
    };
    sort_diagnostics(&mut diags, &sources, &contexts);
    let report = Diagnostics::new(diags, sources.clone(), contexts);
    match image {
        Some(image) => match elf::write(&image) {
            Ok(elf) => Ok(Output {
                elf,
                listing: options.listing.then(|| listing::render(&lines)),
                lines,
                warnings: report,
                image,
            }),
            Err(e) => Err(Diagnostics::plain(vec![format!(
                "cannot write the ELF file: {e}"
            )])),
        },
        None => Err(report),
    }
}

/// A relocatable object (`scmp asm -c`).
#[derive(Clone, Debug)]
pub struct ObjectOutput {
    /// The ELF32 relocatable object.
    pub object: Vec<u8>,
    /// The listing, when asked for.
    pub listing: Option<String>,
    /// Warnings (the assembly succeeded).
    pub warnings: Diagnostics,
}

/// Assembles one source text (name, text) into a relocatable object with
/// ELF flags `e_flags` (the float ABI, [`object::abi_flags`]).
pub fn assemble_object(
    name: &str,
    text: &str,
    options: &Options,
    e_flags: ::object::elf::FileFlags,
) -> Result<ObjectOutput, Diagnostics> {
    let options = Options {
        relocatable: true,
        ..options.clone()
    };
    let mut shared = pass1::Shared::new(&options);
    let file = shared.sources.add_real(name.to_string(), Arc::from(text));
    let mut unit = assemble_unit(&mut shared, file);
    let errors = shared.diags.iter().any(|d| d.severity == Severity::Error);
    let mut diags = std::mem::take(&mut shared.diags);
    let written = if errors {
        None
    } else {
        match object::write(&mut unit, &options, e_flags) {
            Ok(bytes) => Some(bytes),
            Err(more) => {
                diags.extend(more);
                None
            }
        }
    };
    let sources = Arc::new(std::mem::take(&mut shared.sources));
    let contexts = Arc::new(std::mem::take(&mut shared.contexts));
    let units = [unit];
    let listing = options
        .listing
        .then(|| listing::render(&listing::lines(&units, &sources, &contexts)));
    sort_diagnostics(&mut diags, &sources, &contexts);
    let report = Diagnostics::new(diags, sources, contexts);
    match written {
        Some(object) => Ok(ObjectOutput {
            object,
            listing,
            warnings: report,
        }),
        None => Err(report),
    }
}

/// Sorts diagnostics in source order of the statements that caused them
/// (an error in a macro expansion sorts at the macro's use).
fn sort_diagnostics(diags: &mut [Diag], sources: &source::SourceMap, contexts: &[source::Context]) {
    diags.sort_by_cached_key(|d| {
        let mut site = d.span;
        let mut ctx = d.ctx;
        while ctx != 0 {
            site = contexts[ctx as usize].site;
            ctx = contexts[ctx as usize].parent;
        }
        let site = sources.resolve(site);
        (site.file, site.start)
    });
}

/// Most times a file is assembled again for branch relaxation (each time
/// lengthens at least one branch; real code needs one or two).
const MAX_RELAX_ROUNDS: usize = 64;

/// The first pass over `file`, again with more branches long until none
/// must grow (branch relaxation, `pass1::relax`).
fn assemble_unit(shared: &mut pass1::Shared, file: u32) -> unit::Unit {
    let mut long = std::collections::HashSet::new();
    let mut bases = pass1::SubBases::new();
    for _ in 0..MAX_RELAX_ROUNDS {
        let mark = shared.mark();
        let mut pass = pass1::Pass1::new(shared, file);
        pass.long_branches = long.clone();
        pass.sub_bases = bases.clone();
        let (unit, more, rebased) = pass.run_relaxing();
        if more.is_empty() && rebased.is_none() {
            return unit;
        }
        shared.rewind(mark);
        long.extend(more);
        if let Some(b) = rebased {
            bases = b;
        }
    }
    let mut pass = pass1::Pass1::new(shared, file);
    pass.long_branches = long;
    pass.sub_bases = bases;
    let (unit, _, _) = pass.run_relaxing();
    unit
}

/// Assembles files into one executable. A file that cannot be read is an error.
pub fn assemble_files(paths: &[PathBuf], options: &Options) -> Result<Output, Diagnostics> {
    let mut sources = Vec::new();
    let mut missing = Vec::new();
    for p in paths {
        match files::read_window(p, files::FileWindow::WHOLE).map(String::from_utf8) {
            Ok(Ok(text)) => sources.push((p.display().to_string(), text)),
            Ok(Err(_)) => missing.push(format!("{} is not UTF-8 text", p.display())),
            Err(e) => missing.push(format!("cannot read {}: {e}", p.display())),
        }
    }
    if !missing.is_empty() {
        return Err(Diagnostics::plain(missing));
    }
    assemble_sources(&sources, options)
}
