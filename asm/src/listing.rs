//! The listing (`-l`): per statement the address, the bytes (as 32-bit words
//! in code, bytes elsewhere) and the source line. Statements that come from
//! a macro expansion, `.rept` or an include also name the line of the input
//! file that produced them.

use std::fmt::Write;

use crate::source::{Context, SourceMap};
use crate::unit::Unit;

/// One statement of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListLine {
    /// File of the statement's text.
    pub file: String,
    /// Line of the statement's text (1-based).
    pub line: usize,
    /// The input file (given on the command line) the statement came from.
    pub origin_file: String,
    /// The line of that input file that produced it (the macro invocation,
    /// the `.include`, or the statement itself).
    pub origin_line: usize,
    /// Address of the first byte.
    pub addr: u64,
    /// Bytes produced (empty in `.bss` and for statements without bytes).
    pub bytes: Vec<u8>,
    /// In a code section.
    pub code: bool,
    /// Source text of the line.
    pub text: String,
}

/// The listing lines of every unit.
pub fn lines(units: &[Unit], sources: &SourceMap, contexts: &[Context]) -> Vec<ListLine> {
    let mut out = Vec::new();
    for unit in units {
        for entry in &unit.listing {
            let span = sources.resolve(entry.span);
            let (line, _) = sources.line_col(span.file, span.start);
            // Walk up to the statement of the input file itself.
            let mut site = entry.span;
            let mut ctx = entry.ctx;
            while ctx != 0 {
                site = contexts[ctx as usize].site;
                ctx = contexts[ctx as usize].parent;
            }
            let site = sources.resolve(site);
            let (origin_line, _) = sources.line_col(site.file, site.start);
            let sec = &unit.sections[entry.section];
            let bytes = if sec.data.len() as u64 >= entry.end {
                sec.data[entry.start as usize..entry.end as usize].to_vec()
            } else {
                Vec::new()
            };
            out.push(ListLine {
                file: sources.file(span.file).name.clone(),
                line,
                origin_file: sources.file(site.file).name.clone(),
                origin_line,
                addr: sec.addr + entry.start,
                code: sec.class.is_code()
                    && bytes.len().is_multiple_of(4)
                    && entry.start.is_multiple_of(4),
                bytes,
                text: sources
                    .line_text(span.file, span.start)
                    .trim_end()
                    .to_string(),
            });
        }
    }
    out
}

/// Renders listing lines as text: line, address, bytes, source.
pub fn render(lines: &[ListLine]) -> String {
    let mut out = String::new();
    let mut file = "";
    for l in lines {
        if l.file != file {
            let _ = writeln!(out, "# {}", l.file);
            file = &l.file;
        }
        let chunk = if l.code { 4 } else { 8 };
        let chunks: Vec<&[u8]> = if l.bytes.is_empty() {
            vec![&[]]
        } else {
            l.bytes.chunks(chunk).collect()
        };
        let mut at = l.addr;
        for (i, c) in chunks.iter().enumerate() {
            let hex = if l.code && c.len() == 4 {
                format!("{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            } else {
                c.iter().map(|b| format!("{b:02x}")).collect::<String>()
            };
            if i == 0 {
                let _ = writeln!(out, "{:>5} {:08x} {:<16} {}", l.line, at, hex, l.text);
            } else {
                let _ = writeln!(out, "{:>5} {:08x} {:<16}", "", at, hex);
            }
            at += c.len() as u64;
        }
    }
    out
}
