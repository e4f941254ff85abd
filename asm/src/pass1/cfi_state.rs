//! The `.cfi_*` state of a file while the first pass reads it: the open
//! procedures, their CFI instructions and GNU's fragments of each section.
//! `crate::cfi` reads the directives into it and writes the tables from
//! it; it sits here, below the first pass that holds it, so that the pass
//! and the unwind-table writer do not use each other.

use std::collections::HashMap;

use crate::source::{CtxId, Span};

/// GNU as keeps a section's fragments in chunks of 4048 bytes (an obstack
/// of 4064-byte blocks less their 16-byte header), each fragment a
/// 120-byte header (8-byte aligned) and its contents; when the next piece
/// does not fit, a new fragment begins in a new chunk. So a fragment also
/// ends every ~3.9 KiB of code, and an advance across that point is a
/// relocation too (the figures are GNU as 2.40's on x86-64, measured: a
/// fragment after a `lui` moves the next chunk's start by 120 or 124 bytes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chunk {
    pub(crate) used: u64,
    pub(crate) room: u64,
}

pub(crate) const CHUNK_BYTES: u64 = 4048;
pub(crate) const FRAG_HEADER: u64 = 120;

impl Default for Chunk {
    fn default() -> Chunk {
        // A section's first fragment begins its first chunk.
        Chunk {
            used: FRAG_HEADER,
            room: CHUNK_BYTES,
        }
    }
}

/// A place in code: a label, where it is, and GNU's fragment it is in.
#[derive(Clone, Debug)]
pub(crate) struct Point {
    pub(crate) label: String,
    /// The first pass's section (a numbered subsection is one of its own).
    pub(crate) section: usize,
    pub(crate) frag: u32,
    pub(crate) offset: u64,
}

/// One CFI instruction as GNU as keeps it before writing.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Insn {
    Advance(Box<(Point, Point)>),
    DefCfa(u64, i64),
    DefCfaRegister(u64),
    DefCfaOffset(i64),
    Offset(u64, i64),
    ValOffset(u64, i64),
    Register(u64, u64),
    Restore(u64),
    Undefined(u64),
    SameValue(u64),
    RememberState,
    RestoreState,
    WindowSave,
    Escape(Vec<u8>),
}

impl PartialEq for Point {
    fn eq(&self, other: &Point) -> bool {
        self.label == other.label
    }
}

impl Insn {
    /// Whether GNU as lets it open a CIE (shared by FDEs that start alike).
    pub(crate) fn initial(&self) -> bool {
        matches!(
            self,
            Insn::DefCfa(..)
                | Insn::DefCfaRegister(_)
                | Insn::DefCfaOffset(_)
                | Insn::Offset(..)
                | Insn::ValOffset(..)
                | Insn::Register(..)
                | Insn::Restore(_)
                | Insn::Undefined(_)
                | Insn::SameValue(_)
        )
    }
}

/// A procedure between `.cfi_startproc` and `.cfi_endproc`.
#[derive(Clone, Debug)]
pub(crate) struct Fde {
    pub(crate) start: Point,
    pub(crate) end: Option<Point>,
    /// Where the last instruction applies (advances start here).
    pub(crate) last: Point,
    pub(crate) insns: Vec<Insn>,
    pub(crate) cfa_offset: i64,
    pub(crate) saved_offsets: Vec<i64>,
    pub(crate) return_column: u64,
    pub(crate) signal_frame: bool,
    pub(crate) sections: u8,
    pub(crate) span: Span,
    pub(crate) ctx: CtxId,
}

/// The `.cfi_*` state of one file.
#[derive(Clone, Debug, Default)]
pub(crate) struct CfiState {
    /// Procedures in the order opened.
    pub(crate) fdes: Vec<Fde>,
    /// The open procedure of each section (GNU keeps one per subsection).
    pub(crate) open: HashMap<usize, usize>,
    /// `.cfi_sections` (`None`: not given; `.eh_frame` then).
    pub(crate) sections: Option<u8>,
    /// The sections any procedure asked for so far.
    pub(crate) all_sections: u8,
    /// GNU's fragments of each section so far: how many, and the room
    /// left in the memory they are kept in (see [`Chunk`]).
    pub(crate) frags: HashMap<usize, (u32, Chunk)>,
    pub(crate) labels: u32,
    /// Between the words of a call (see [`Pass1::cfi_call_start`]).
    pub(crate) in_call: bool,
}
