//! The listing (`-l`): per statement the address, the bytes (as 32-bit words
//! in code, bytes elsewhere) and the source line.

use std::fmt::Write;

use crate::source::SourceMap;
use crate::unit::Unit;

/// Renders the listing of every unit.
pub fn render(units: &[Unit], sources: &SourceMap) -> String {
    let mut out = String::new();
    for unit in units {
        let _ = writeln!(out, "# {}", sources.file(unit.file).name);
        for entry in &unit.listing {
            let span = sources.resolve(entry.span);
            let (line, _) = sources.line_col(span.file, span.start);
            let text = sources.line_text(span.file, span.start).trim_end();
            let sec = &unit.sections[entry.section];
            let bytes: &[u8] = if sec.data.len() as u64 >= entry.end {
                &sec.data[entry.start as usize..entry.end as usize]
            } else {
                &[]
            };
            let code = sec.class.is_code()
                && bytes.len().is_multiple_of(4)
                && entry.start.is_multiple_of(4);
            let chunk = if code { 4 } else { 8 };
            let mut first = true;
            let mut at = sec.addr + entry.start;
            let chunks: Vec<&[u8]> = if bytes.is_empty() {
                vec![&[]]
            } else {
                bytes.chunks(chunk).collect()
            };
            for c in chunks {
                let hex = if code && c.len() == 4 {
                    format!("{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                } else {
                    c.iter().map(|b| format!("{b:02x}")).collect::<String>()
                };
                if first {
                    let _ = writeln!(out, "{:>5} {:08x} {:<16} {}", line, at, hex, text);
                    first = false;
                } else {
                    let _ = writeln!(out, "{:>5} {:08x} {:<16}", "", at, hex);
                }
                at += c.len() as u64;
            }
        }
    }
    out
}
