//! What the pass keeps for the line table: the `.file N` entries and the
//! `.loc` rows written so far ([`LineState`]). The directives fill it
//! (`crate::directives`, `.file` and `.loc`); `crate::dwarf` places the rows
//! and builds `.debug_line` from it at the end of the file.

use crate::source::{CtxId, Span};

/// A `.file N ["dir"] "name"` entry.
#[derive(Clone, Debug, Default)]
pub struct FileEntry {
    /// Directory (`None`: the compilation directory).
    pub dir: Option<String>,
    /// File name.
    pub name: String,
    /// Where the `.file` was written (for errors found at the end).
    pub span: Span,
    /// Its context.
    pub ctx: CtxId,
}

/// A `.loc` row: where, and the source position.
#[derive(Clone, Debug)]
pub struct Row {
    /// Code section (unit index) and offset.
    pub section: usize,
    /// Offset in it.
    pub offset: u64,
    /// The subsection it was written in (GNU as keeps a subsection's rows
    /// together, in subsection order).
    pub subsection: u32,
    /// File number.
    pub file: u64,
    /// Line.
    pub line: u64,
    /// Column (0: none).
    pub column: u64,
    /// `is_stmt`.
    pub is_stmt: bool,
    /// `prologue_end`.
    pub prologue_end: bool,
    /// `epilogue_begin`.
    pub epilogue_begin: bool,
    /// `discriminator`.
    pub discriminator: u64,
}

/// `.file` entries and `.loc` rows seen so far in a unit.
#[derive(Clone, Debug, Default)]
pub struct LineState {
    /// Files by number (index 0: `.file 0`, DWARF 5's primary file).
    pub files: Vec<Option<FileEntry>>,
    /// Rows in the order written.
    pub rows: Vec<Row>,
    /// `is_stmt` of the last `.loc` (sticky, as in GNU as).
    pub is_stmt: bool,
    /// A `.loc` not yet placed: GNU as puts it at the next instruction (in
    /// whatever section that goes) or where the next `.loc` is written,
    /// and drops it at the end of the file.
    pub pending: Option<Row>,
}
