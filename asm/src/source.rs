//! Source texts, spans, and where text came from.
//!
//! Real files come from disk (or the caller). Virtual files hold text the
//! assembler made: a macro expansion or an `.irp` body with arguments
//! substituted. A virtual file keeps a segment map back to the text it was
//! made from, so a diagnostic inside an expansion points at the macro body in
//! the real file. [`Context`] records the chain of includes and expansions a
//! statement came through, for "in expansion of" / "included from" notes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A byte range of one source file (real or virtual).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// File index in the [`SourceMap`].
    pub file: u32,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span of `file` from `start` to `end`.
    pub fn new(file: u32, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
}

/// One piece of a virtual file: a byte range of it and where it came from.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Start in the virtual text.
    pub virt_start: u32,
    /// End in the virtual text.
    pub virt_end: u32,
    /// Where the bytes came from.
    pub origin: Span,
    /// Copied verbatim (offsets map one to one); otherwise substituted text,
    /// which maps to the whole `origin` (the `\arg` reference).
    pub literal: bool,
}

/// A source file.
#[derive(Debug)]
pub struct SourceFile {
    /// Name shown in diagnostics.
    pub name: String,
    /// The text.
    pub text: Arc<str>,
    /// Directory `.include` searches first (real files only).
    pub dir: Option<PathBuf>,
    /// Segment map of a virtual file; empty for a real one.
    pub segments: Vec<Segment>,
    line_starts: Vec<u32>,
    /// Whether the text holds a carriage return (found once, when added).
    has_cr: bool,
    /// The compiler's line markers (`# 12 "e.c" 1`, gcc's around inline
    /// assembly): the first line they describe (1-based), its line in the
    /// named file, and that file.
    line_markers: Vec<(u32, u32, String)>,
}

/// The line markers of a text (see [`SourceFile`]): `# N "FILE" ...`.
fn line_markers(text: &str) -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix('#') else {
            continue;
        };
        let rest = rest.trim_start();
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            continue;
        }
        let Ok(n) = rest[..digits].parse::<u32>() else {
            continue;
        };
        let Some(quoted) = rest[digits..].trim_start().strip_prefix('"') else {
            continue;
        };
        if let Some(end) = quoted.find('"') {
            out.push((i as u32 + 2, n, quoted[..end].to_string()));
        }
    }
    out
}

impl SourceFile {
    /// Whether the text holds a carriage return (`\r`).
    pub fn has_cr(&self) -> bool {
        self.has_cr
    }

    /// Whether the assembler made this text.
    pub fn is_virtual(&self) -> bool {
        !self.segments.is_empty()
    }
}

/// Every source text of one assembly run.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

fn line_starts(text: &str) -> Vec<u32> {
    std::iter::once(0)
        .chain(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        )
        .collect()
}

impl SourceMap {
    /// Adds a real file.
    pub fn add_real(&mut self, name: String, text: Arc<str>) -> u32 {
        let dir = Path::new(&name).parent().map(Path::to_path_buf);
        self.files.push(SourceFile {
            line_starts: line_starts(&text),
            has_cr: text.contains('\r'),
            line_markers: line_markers(&text),
            name,
            text,
            dir,
            segments: Vec::new(),
        });
        self.files.len() as u32 - 1
    }

    /// Adds text the assembler made, with its segment map.
    pub fn add_virtual(&mut self, name: String, text: String, segments: Vec<Segment>) -> u32 {
        let text: Arc<str> = text.into();
        self.files.push(SourceFile {
            line_starts: line_starts(&text),
            has_cr: text.contains('\r'),
            line_markers: Vec::new(),
            name,
            text,
            dir: None,
            segments,
        });
        self.files.len() as u32 - 1
    }

    /// The file with index `file`.
    pub fn file(&self, file: u32) -> &SourceFile {
        &self.files[file as usize]
    }

    /// The text of a span.
    pub fn slice(&self, span: Span) -> &str {
        &self.file(span.file).text[span.start as usize..span.end as usize]
    }

    /// Maps a span of a virtual file back to the real text it came from.
    pub fn resolve(&self, span: Span) -> Span {
        let mut span = span;
        // Each step moves to the file the text was made from, so this ends.
        loop {
            let file = self.file(span.file);
            if !file.is_virtual() {
                return span;
            }
            let seg_of = |pos: u32| {
                file.segments
                    .iter()
                    .find(|s| s.virt_start <= pos && pos < s.virt_end)
                    .or_else(|| file.segments.iter().rev().find(|s| s.virt_start <= pos))
                    .or(file.segments.first())
            };
            let Some(first) = seg_of(span.start) else {
                return span;
            };
            let last = seg_of(span.end.saturating_sub(1).max(span.start)).unwrap_or(first);
            let map = |seg: &Segment, pos: u32, end: bool| -> u32 {
                if seg.literal {
                    (seg.origin.start + pos.saturating_sub(seg.virt_start)).min(seg.origin.end)
                } else if end {
                    seg.origin.end
                } else {
                    seg.origin.start
                }
            };
            let start = map(first, span.start, false);
            let end = if last.origin.file == first.origin.file {
                map(last, span.end, true).max(start)
            } else {
                first.origin.end
            };
            span = Span {
                file: first.origin.file,
                start,
                end,
            };
        }
    }

    /// 0-based line of a byte offset (lines end at `\n`).
    pub fn line_of(&self, file: u32, offset: u32) -> usize {
        self.file(file)
            .line_starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// Byte offset where 0-based `line` starts; the text's length past the
    /// last line.
    pub fn line_start(&self, file: u32, line: usize) -> usize {
        let f = self.file(file);
        f.line_starts
            .get(line)
            .map_or(f.text.len(), |&s| s as usize)
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, file: u32, offset: u32) -> (usize, usize) {
        let f = self.file(file);
        let line = self.line_of(file, offset);
        let start = self.line_start(file, line);
        let col = f.text[start..(offset as usize).min(f.text.len())]
            .chars()
            .count();
        (line + 1, col + 1)
    }

    /// The text of the line holding `offset`, without its newline.
    pub fn line_text(&self, file: u32, offset: u32) -> &str {
        let f = self.file(file);
        let start = self.line_start(file, self.line_of(file, offset));
        let end = f.text[start..]
            .find('\n')
            .map_or(f.text.len(), |e| start + e);
        &f.text[start..end]
    }

    /// `FILE:LINE` that the compiler's line markers give a span, when the
    /// file has them (an error in gcc's inline assembly names the C line).
    pub fn marked_location(&self, span: Span) -> Option<String> {
        let span = self.resolve(span);
        let f = self.file(span.file);
        let line = self.line_of(span.file, span.start) as u32 + 1;
        let k = f
            .line_markers
            .partition_point(|(first, _, _)| *first <= line);
        let (first, n, name) = f.line_markers.get(k.checked_sub(1)?)?;
        // `# 0 "" 2` (gcc's end of inline assembly) maps back to nothing.
        (!name.is_empty()).then(|| format!("{name}:{}", n + (line - first)))
    }

    /// `name:line:col` of a span (resolved to real text).
    pub fn location(&self, span: Span) -> String {
        let span = self.resolve(span);
        let (line, col) = self.line_col(span.file, span.start);
        format!("{}:{}:{}", self.file(span.file).name, line, col)
    }
}

/// Index of a [`Context`]; 0 is the top level of the files given.
pub type CtxId = u32;

/// How a statement came to be assembled.
#[derive(Clone, Debug)]
pub enum ContextKind {
    /// Directly from an input file.
    Root,
    /// From a file named by `.include`.
    Include,
    /// From the expansion of a macro.
    Macro(String),
    /// From a `.rept` body.
    Rept,
    /// From an `.irp`/`.irpc` body.
    Irp,
}

/// One link of the chain of includes and expansions.
#[derive(Clone, Debug)]
pub struct Context {
    /// What made it.
    pub kind: ContextKind,
    /// The statement that included or expanded.
    pub site: Span,
    /// The context of that statement.
    pub parent: CtxId,
}
