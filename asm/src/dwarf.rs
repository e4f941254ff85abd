//! The DWARF line table (`.debug_line`, version 5) the assembler builds from
//! the compiler's `.file N` and `.loc` directives, as GNU as does: one
//! sequence per code section, rows at the address where each `.loc` was
//! written. Addresses are relocatable values: the first row of a sequence
//! sets its address from a label (`R_RISCV_32` in an object), each later
//! row advances by the difference of two labels (`DW_LNS_fixed_advance_pc`,
//! an `R_RISCV_ADD16`/`SUB16` pair in an object), so the table stays right
//! when the linker relaxes code.

use crate::ast::{BinOp, Expr, ExprKind};
use crate::expr::Value;
use crate::pass1::Pass1;
use crate::unit::*;

/// A `.file N ["dir"] "name"` entry.
#[derive(Clone, Debug, Default)]
pub struct FileEntry {
    /// Directory (`None`: the compilation directory).
    pub dir: Option<String>,
    /// File name.
    pub name: String,
}

/// A `.loc` row: where, and the source position.
#[derive(Clone, Debug)]
pub struct Row {
    /// Code section (unit index) and offset.
    pub section: usize,
    /// Offset in it.
    pub offset: u64,
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
}

// Standard opcodes.
const DW_LNS_COPY: u8 = 1;
const DW_LNS_ADVANCE_LINE: u8 = 3;
const DW_LNS_SET_FILE: u8 = 4;
const DW_LNS_SET_COLUMN: u8 = 5;
const DW_LNS_NEGATE_STMT: u8 = 6;
const DW_LNS_FIXED_ADVANCE_PC: u8 = 9;
const DW_LNS_SET_PROLOGUE_END: u8 = 10;
const DW_LNS_SET_EPILOGUE_BEGIN: u8 = 11;
// Extended opcodes.
const DW_LNE_END_SEQUENCE: u8 = 1;
const DW_LNE_SET_ADDRESS: u8 = 2;
const DW_LNE_SET_DISCRIMINATOR: u8 = 4;
// Content types and forms of the v5 header.
const DW_LNCT_PATH: u8 = 1;
const DW_LNCT_DIRECTORY_INDEX: u8 = 2;
const DW_FORM_STRING: u8 = 0x08;
const DW_FORM_UDATA: u8 = 0x0f;

fn uleb(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn sleb(mut v: i64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && b & 0x40 == 0) || (v == -1 && b & 0x40 != 0);
        out.push(if done { b } else { b | 0x80 });
        if done {
            return;
        }
    }
}

fn cstr(s: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(s.as_bytes());
    out.push(0);
}

fn sym(name: &str) -> Expr {
    Expr::new(ExprKind::Sym(name.into()), 0, 0)
}

impl Pass1<'_, '_> {
    /// A label at `section`, `offset` for the line table (assembler-local).
    fn line_label(&mut self, section: usize, offset: u64) -> String {
        let name = format!(".Lscmp_line{}", self.unit.symbols.len());
        let mut s = Symbol::undefined();
        s.def = SymDef::Value(Value::Rel {
            section,
            offset: offset as i64,
        });
        s.is_label = true;
        self.unit.symbols.insert(name.as_str().into(), s);
        name
    }

    /// Appends the line program of the unit's `.loc` rows to `.debug_line`
    /// (nothing when there are none).
    pub(crate) fn finish_line_table(&mut self) {
        let state = std::mem::take(&mut self.lines);
        if state.rows.is_empty() {
            return;
        }
        // Files: DWARF 5 numbers from 0; without `.file 0`, file 1 is also 0.
        let mut files = state.files.clone();
        if files.first().is_none_or(|f| f.is_none()) {
            let first = files.iter().flatten().next().cloned().unwrap_or_default();
            if files.is_empty() {
                files.push(None);
            }
            files[0] = Some(first);
        }
        let comp_dir = files[0]
            .as_ref()
            .and_then(|f| f.dir.clone())
            .unwrap_or_default();
        let mut dirs = vec![comp_dir];
        // A name with a directory part is split, the part a directory of
        // its own (GNU as's tables); file 0's own directory is directory 0.
        let mut entries = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let f = f.clone().unwrap_or_default();
            let (dir, name) = match f.name.rsplit_once('/') {
                Some((d, base)) => (
                    Some(if d.is_empty() { "/" } else { d }.to_string()),
                    base.to_string(),
                ),
                None if i == 0 => (None, f.name.clone()),
                None => (f.dir.clone(), f.name.clone()),
            };
            let dir = match dir {
                Some(d) => match dirs.iter().skip(1).position(|x| *x == d) {
                    Some(k) => k + 1,
                    None => {
                        dirs.push(d);
                        dirs.len() - 1
                    }
                },
                None => 0,
            };
            entries.push((name, dir as u64));
        }

        // minimum_instruction_length, maximum_operations_per_instruction,
        // default_is_stmt, line_base (-5), line_range, opcode_base, then
        // the standard opcodes' operand counts.
        let mut header = vec![1, 1, 1, (-5i8) as u8, 14, 13];
        header.extend_from_slice(&[0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]);
        header.push(1);
        uleb(DW_LNCT_PATH as u64, &mut header);
        uleb(DW_FORM_STRING as u64, &mut header);
        uleb(dirs.len() as u64, &mut header);
        for d in &dirs {
            cstr(d, &mut header);
        }
        header.push(2);
        uleb(DW_LNCT_PATH as u64, &mut header);
        uleb(DW_FORM_STRING as u64, &mut header);
        uleb(DW_LNCT_DIRECTORY_INDEX as u64, &mut header);
        uleb(DW_FORM_UDATA as u64, &mut header);
        uleb(entries.len() as u64, &mut header);
        for (name, dir) in &entries {
            cstr(name, &mut header);
            uleb(*dir, &mut header);
        }

        // The program, with the places its addresses go (offset in the
        // program, size, expression).
        let mut program = Vec::new();
        let mut fixes: Vec<(usize, u8, Expr)> = Vec::new();
        let mut sections: Vec<usize> = Vec::new();
        for r in &state.rows {
            if !sections.contains(&r.section) {
                sections.push(r.section);
            }
        }
        for sec in sections {
            let rows: Vec<&Row> = state.rows.iter().filter(|r| r.section == sec).collect();
            let (mut file, mut line, mut column, mut is_stmt) = (1u64, 1u64, 0u64, true);
            let mut prev: Option<String> = None;
            for r in rows {
                let here = self.line_label(sec, r.offset);
                match &prev {
                    None => {
                        program.extend_from_slice(&[0, 5, DW_LNE_SET_ADDRESS]);
                        fixes.push((program.len(), 4, sym(&here)));
                        program.extend_from_slice(&[0; 4]);
                    }
                    Some(p) => {
                        program.push(DW_LNS_FIXED_ADVANCE_PC);
                        let diff = Expr::new(
                            ExprKind::Binary(BinOp::Sub, Box::new(sym(&here)), Box::new(sym(p))),
                            0,
                            0,
                        );
                        fixes.push((program.len(), 2, diff));
                        program.extend_from_slice(&[0; 2]);
                    }
                }
                prev = Some(here);
                if r.file != file {
                    program.push(DW_LNS_SET_FILE);
                    uleb(r.file, &mut program);
                    file = r.file;
                }
                if r.column != column {
                    program.push(DW_LNS_SET_COLUMN);
                    uleb(r.column, &mut program);
                    column = r.column;
                }
                if r.is_stmt != is_stmt {
                    program.push(DW_LNS_NEGATE_STMT);
                    is_stmt = r.is_stmt;
                }
                if r.prologue_end {
                    program.push(DW_LNS_SET_PROLOGUE_END);
                }
                if r.epilogue_begin {
                    program.push(DW_LNS_SET_EPILOGUE_BEGIN);
                }
                if r.discriminator != 0 {
                    let mut d = Vec::new();
                    uleb(r.discriminator, &mut d);
                    program.push(0);
                    uleb(d.len() as u64 + 1, &mut program);
                    program.push(DW_LNE_SET_DISCRIMINATOR);
                    program.extend_from_slice(&d);
                }
                if r.line != line {
                    program.push(DW_LNS_ADVANCE_LINE);
                    sleb(r.line as i64 - line as i64, &mut program);
                    line = r.line;
                }
                program.push(DW_LNS_COPY);
            }
            // The sequence ends at the end of its section.
            let end = self.line_label(sec, self.unit.sections[sec].size);
            program.push(DW_LNS_FIXED_ADVANCE_PC);
            let diff = Expr::new(
                ExprKind::Binary(
                    BinOp::Sub,
                    Box::new(sym(&end)),
                    Box::new(sym(prev.as_deref().expect("a row"))),
                ),
                0,
                0,
            );
            fixes.push((program.len(), 2, diff));
            program.extend_from_slice(&[0; 2]);
            program.extend_from_slice(&[0, 1, DW_LNE_END_SEQUENCE]);
        }

        // unit_length, version 5, address size, segment selector size,
        // header_length, then the header and the program.
        let mut unit = Vec::new();
        let length = 2 + 1 + 1 + 4 + header.len() + program.len();
        unit.extend_from_slice(&(length as u32).to_le_bytes());
        unit.extend_from_slice(&5u16.to_le_bytes());
        unit.push(4);
        unit.push(0);
        unit.extend_from_slice(&(header.len() as u32).to_le_bytes());
        unit.extend_from_slice(&header);
        let program_at = unit.len();
        unit.extend_from_slice(&program);

        let sec = match self.unit.section_index.get(".debug_line") {
            Some(&i) => i,
            None => {
                let s = Section::new(".debug_line", SectionClass::NonAlloc);
                self.unit.sections.push(s);
                let i = self.unit.sections.len() - 1;
                self.unit.section_index.insert(".debug_line".into(), i);
                i
            }
        };
        let relax = self.relax;
        let s = &mut self.unit.sections[sec];
        let base = s.data.len();
        s.data.extend_from_slice(&unit);
        s.size = s.data.len() as u64;
        for (at, size, expr) in fixes {
            s.fixups.push(Fixup {
                offset: (base + program_at + at) as u32,
                kind: FixKind::Data(size),
                expr,
                span: Default::default(),
                ctx: 0,
                relax,
            });
        }
    }
}
