//! The source lines of a program, from its DWARF line table (`.debug_line`,
//! read with gimli), by which fault and deadlock reports name `file.c:LINE`
//! (C built with `scmp cc -g`, assembly with `.file`/`.loc`). A program
//! without a line table has none.

use gimli::{AttributeValue, DebugLine, DebugLineOffset, DebugLineStr, DebugStr, EndianSlice};
use gimli::{LineProgramHeader, LittleEndian};
use object::Endianness;
use object::elf::FileHeader32;
use object::read::elf::{FileHeader, SectionHeader};

type R<'a> = EndianSlice<'a, LittleEndian>;

/// One row range: the addresses `[start, end)` come from `line` of file
/// `file` (an index into [`Lines::files`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Range {
    start: u32,
    end: u32,
    file: u32,
    line: u32,
}

/// Address ranges and the source line each comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    /// Sorted by start; ranges do not overlap.
    ranges: Vec<Range>,
    /// File names as the line table gives them (directory left out).
    files: Vec<String>,
}

impl Lines {
    /// The line tables of every unit of an ELF's `.debug_line`; empty when
    /// it has none, or a table cannot be read (reports then name no line).
    pub fn from_elf(header: &FileHeader32<Endianness>, endian: Endianness, bytes: &[u8]) -> Lines {
        let Ok(sections) = header.sections(endian, bytes) else {
            return Lines::default();
        };
        let section = |name: &str| -> &[u8] {
            sections
                .section_by_name(endian, name.as_bytes())
                .and_then(|(_, s)| s.data(endian, bytes).ok())
                .unwrap_or(&[])
        };
        let line = section(".debug_line");
        if line.is_empty() {
            return Lines::default();
        }
        let mut lines = Lines::default();
        let strings = (
            DebugStr::new(section(".debug_str"), LittleEndian),
            DebugLineStr::new(section(".debug_line_str"), LittleEndian),
        );
        let debug_line = DebugLine::new(line, LittleEndian);
        let mut offset = 0usize;
        while offset < line.len() {
            let Ok(program) = debug_line.program(DebugLineOffset(offset), 4, None, None) else {
                break;
            };
            let header = program.header();
            let next =
                offset + header.format().initial_length_size() as usize + header.unit_length();
            lines.add_program(program, &strings);
            if next <= offset {
                break;
            }
            offset = next;
        }
        lines.ranges.sort_by_key(|r| r.start);
        lines
    }

    /// Adds the rows of one unit's line program.
    fn add_program(
        &mut self,
        program: gimli::IncompleteLineProgram<R<'_>>,
        strings: &(DebugStr<R<'_>>, DebugLineStr<R<'_>>),
    ) {
        let mut file_index: Vec<(u64, u32)> = Vec::new();
        let mut rows = program.rows();
        let mut open: Option<Range> = None;
        while let Ok(Some((header, row))) = rows.next_row() {
            let addr = row.address() as u32;
            if let Some(mut r) = open.take()
                && addr > r.start
            {
                r.end = addr;
                self.ranges.push(r);
            }
            if row.end_sequence() {
                continue;
            }
            let file = match file_index.iter().find(|(f, _)| *f == row.file_index()) {
                Some(&(_, i)) => i,
                None => {
                    let name = file_name(header, row.file_index(), strings)
                        .unwrap_or_else(|| "?".to_string());
                    let i = match self.files.iter().position(|f| *f == name) {
                        Some(i) => i as u32,
                        None => {
                            self.files.push(name);
                            self.files.len() as u32 - 1
                        }
                    };
                    file_index.push((row.file_index(), i));
                    i
                }
            };
            open = Some(Range {
                start: addr,
                end: addr,
                file,
                line: row.line().map_or(0, |l| l.get() as u32),
            });
        }
    }

    /// `file.c:LINE` of the row that covers `pc`, when the table has one
    /// with a line number.
    pub fn at(&self, pc: u32) -> Option<String> {
        let i = self.ranges.partition_point(|r| r.start <= pc);
        let r = self.ranges.get(i.checked_sub(1)?)?;
        (pc < r.end && r.line > 0).then(|| format!("{}:{}", self.files[r.file as usize], r.line))
    }
}

/// A file entry's name: its path as written (DWARF 5 keeps the directory
/// apart; reports name the file as the compiler was given it).
fn file_name(
    header: &LineProgramHeader<R<'_>>,
    index: u64,
    (debug_str, debug_line_str): &(DebugStr<R<'_>>, DebugLineStr<R<'_>>),
) -> Option<String> {
    let value = header.file(index)?.path_name();
    let slice = match value {
        AttributeValue::String(s) => s,
        AttributeValue::DebugStrRef(o) => debug_str.get_str(o).ok()?,
        AttributeValue::DebugLineStrRef(o) => debug_line_str.get_str(o).ok()?,
        _ => return None,
    };
    Some(String::from_utf8_lossy(slice.slice()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> Lines {
        Lines {
            ranges: vec![
                Range {
                    start: 0x100,
                    end: 0x108,
                    file: 0,
                    line: 3,
                },
                Range {
                    start: 0x108,
                    end: 0x110,
                    file: 1,
                    line: 7,
                },
                Range {
                    start: 0x200,
                    end: 0x204,
                    file: 0,
                    line: 0,
                },
            ],
            files: vec!["a.c".into(), "b.h".into()],
        }
    }

    #[test]
    fn a_pc_is_named_by_the_range_that_covers_it() {
        let l = lines();
        assert_eq!(l.at(0x100).as_deref(), Some("a.c:3"));
        assert_eq!(l.at(0x104).as_deref(), Some("a.c:3"));
        assert_eq!(l.at(0x108).as_deref(), Some("b.h:7"));
        assert_eq!(l.at(0x10c).as_deref(), Some("b.h:7"));
    }

    #[test]
    fn outside_every_range_or_at_line_zero_there_is_none() {
        let l = lines();
        assert_eq!(l.at(0xfc), None);
        assert_eq!(l.at(0x110), None);
        assert_eq!(l.at(0x1fc), None);
        assert_eq!(l.at(0x200), None);
        assert_eq!(Lines::default().at(0x100), None);
    }
}
