//! The DWARF line table (`.debug_line`, version 3, 4 or 5 as GNU as chooses) the assembler builds from
//! the compiler's `.file N` and `.loc` directives, as GNU as does: one
//! sequence per code section, rows at the address where each `.loc` was
//! written. Addresses are relocatable values: the first row of a sequence
//! sets its address from a label (`R_RISCV_32` in an object), each later
//! row advances by the difference of two labels (`DW_LNS_fixed_advance_pc`,
//! an `R_RISCV_ADD16`/`SUB16` pair in an object), so the table stays right
//! when the linker relaxes code.

use crate::ast::{BinOp, Expr, ExprKind};
use crate::diag::Diag;
use crate::expr::Value;
use crate::pass1::{FileEntry, Pass1, Row};
use crate::unit::*;

impl Pass1<'_, '_> {
    /// Places the pending `.loc` row here, in a code section.
    pub(crate) fn place_pending_loc(&mut self) {
        if let Some(mut row) = self.lines.pending.take()
            && self.unit.sections[self.cur].class.is_code()
        {
            row.section = self.cur;
            row.subsection = self.subsection_of(self.cur);
            row.offset = self.section_size();
            self.lines.rows.push(row);
        }
    }
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
// The header's line_base, line_range and opcode_base (GNU as's).
const LINE_BASE: i64 = -5;
const LINE_RANGE: i64 = 14;
const OPCODE_BASE: u8 = 13;
// Extended opcodes.
const DW_LNE_END_SEQUENCE: u8 = 1;
const DW_LNE_SET_ADDRESS: u8 = 2;
const DW_LNE_SET_DISCRIMINATOR: u8 = 4;
// Content types and forms of the v5 header.
const DW_LNCT_PATH: u8 = 1;
const DW_LNCT_DIRECTORY_INDEX: u8 = 2;
const DW_FORM_STRING: u8 = 0x08;
const DW_FORM_UDATA: u8 = 0x0f;

/// `v` as an unsigned LEB128 number (gimli's encoder; the one place the
/// assembler writes LEB128: line and unwind tables, attributes,
/// `.uleb128`).
pub(crate) fn uleb(v: u64, out: &mut Vec<u8>) {
    out.extend_from_slice(gimli::leb128::write::Leb128::unsigned(v).bytes());
}

/// `v` as a signed LEB128 number (as [`uleb`]).
pub(crate) fn sleb(v: i64, out: &mut Vec<u8>) {
    out.extend_from_slice(gimli::leb128::write::Leb128::signed(v).bytes());
}

fn cstr(s: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(s.as_bytes());
    out.push(0);
}

/// An expression naming a symbol.
pub(crate) fn sym(name: &str) -> Expr {
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

    /// Appends the unit's line table to `.debug_line`: nothing when no
    /// `.loc` row was placed, unless the source wrote a `.debug_info` of
    /// its own (GNU as then writes the header and an empty program). DWARF
    /// 5 when `.file 0` was given, else version 3, as GNU as 2.40 chooses.
    pub(crate) fn finish_line_table(&mut self) {
        let state = std::mem::take(&mut self.lines);
        let own_info = self
            .unit
            .section_index
            .get(".debug_info")
            .is_some_and(|&i| self.unit.sections[i].size > 0);
        if state.rows.is_empty() && !own_info {
            return;
        }
        if let Some(n) = state.files.iter().skip(1).position(|f| f.is_none()) {
            // The number after the gap names the `.file` that skipped it.
            let gap = n + 1;
            if let Some(Some(after)) = state.files.iter().skip(gap).find(|f| f.is_some()) {
                self.sh.diags.push(Diag {
                    ctx: after.ctx,
                    ..Diag::error(
                        after.span,
                        format!("unassigned file number {gap}"),
                        "a later number is given here",
                    )
                    .with_help(format!("give `.file {gap} \"name\"` as well"))
                });
                return;
            }
        }
        // `--gdwarf-N` (3 at least), or 5 when the source numbers a file 0.
        let file0 = state.files.first().is_some_and(|f| f.is_some());
        let version = if file0 {
            5
        } else {
            self.sh.opts.dwarf_version.clamp(3, 5)
        };
        let header = if version == 5 {
            header_v5(&state.files)
        } else {
            header_v3(&state.files, version)
        };
        let (program, fixes) = self.line_program(&state.rows);
        self.append_line_unit(version, &header, &program, fixes);
    }

    /// The line program: one sequence per code section, rows in address
    /// order, with the places its addresses go (offset in the program,
    /// size, expression).
    fn line_program(&mut self, rows: &[Row]) -> (Vec<u8>, Vec<(usize, u8, Expr)>) {
        let mut program = Vec::new();
        let mut fixes: Vec<(usize, u8, Expr)> = Vec::new();
        let mut sections: Vec<usize> = Vec::new();
        for r in rows {
            if !sections.contains(&r.section) {
                sections.push(r.section);
            }
        }
        for sec in sections {
            // By subsection, then address: a subsection's rows come after
            // those of the subsections before it whatever the order written
            // (as GNU lays them out); rows at one address keep their order.
            let mut rows: Vec<&Row> = rows.iter().filter(|r| r.section == sec).collect();
            rows.sort_by_key(|r| (r.subsection, r.offset));
            let (mut file, mut line, mut column, mut is_stmt) = (1u64, 1u64, 0u64, true);
            // GNU as's order: a row's file, column and flags, then its line
            // and address. The first row sets the address and takes the
            // line by a special opcode where it can; later rows advance the
            // line (always), then the address by a fixed amount (a label
            // difference the linker's relaxation keeps right), then copy.
            let mut prev: Option<(String, u64)> = None;
            for r in rows {
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
                if r.discriminator != 0 {
                    let mut d = Vec::new();
                    uleb(r.discriminator, &mut d);
                    program.push(0);
                    uleb(d.len() as u64 + 1, &mut program);
                    program.push(DW_LNE_SET_DISCRIMINATOR);
                    program.extend_from_slice(&d);
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
                let delta = r.line as i64 - line as i64;
                line = r.line;
                let here = self.line_label(sec, r.offset);
                match &prev {
                    None => {
                        set_address(&mut program, &mut fixes, &here);
                        if delta == 0 {
                            program.push(DW_LNS_COPY);
                        } else if (LINE_BASE..LINE_BASE + LINE_RANGE).contains(&delta) {
                            // A special opcode: this line, the address +0.
                            program.push((delta - LINE_BASE) as u8 + OPCODE_BASE);
                        } else {
                            program.push(DW_LNS_ADVANCE_LINE);
                            sleb(delta, &mut program);
                            program.push(DW_LNS_COPY);
                        }
                    }
                    Some((p, at)) => {
                        program.push(DW_LNS_ADVANCE_LINE);
                        sleb(delta, &mut program);
                        advance_to(&mut program, &mut fixes, &here, p, r.offset - at);
                        program.push(DW_LNS_COPY);
                    }
                }
                prev = Some((here, r.offset));
            }
            // The sequence ends at the end of its section.
            let size = self.unit.sections[sec].size;
            let end = self.line_label(sec, size);
            let (p, at) = prev.expect("a row");
            advance_to(&mut program, &mut fixes, &end, &p, size - at);
            program.extend_from_slice(&[0, 1, DW_LNE_END_SEQUENCE]);
        }
        (program, fixes)
    }

    /// Appends one unit (unit_length, version, [v5: address size, segment
    /// selector size], header_length, the header, the program) to
    /// `.debug_line`, with its fixups.
    fn append_line_unit(
        &mut self,
        version: u16,
        header: &[u8],
        program: &[u8],
        fixes: Vec<(usize, u8, Expr)>,
    ) {
        let mut unit = Vec::new();
        let v5_fields = if version >= 5 { 2 } else { 0 };
        let length = 2 + v5_fields + 4 + header.len() + program.len();
        unit.extend_from_slice(&(length as u32).to_le_bytes());
        unit.extend_from_slice(&version.to_le_bytes());
        if version >= 5 {
            unit.push(4);
            unit.push(0);
        }
        unit.extend_from_slice(&(header.len() as u32).to_le_bytes());
        unit.extend_from_slice(header);
        let program_at = unit.len();
        unit.extend_from_slice(program);

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

/// `DW_LNE_set_address` to a label.
fn set_address(program: &mut Vec<u8>, fixes: &mut Vec<(usize, u8, Expr)>, to: &str) {
    program.extend_from_slice(&[0, 5, DW_LNE_SET_ADDRESS]);
    fixes.push((program.len(), 4, sym(to)));
    program.extend_from_slice(&[0; 4]);
}

/// The address from label `from` to label `to`, `by` bytes on: a fixed
/// advance, or a new address when it is far (GNU as's limit: relaxation
/// could move the 16-bit operand by an unknown amount).
fn advance_to(
    program: &mut Vec<u8>,
    fixes: &mut Vec<(usize, u8, Expr)>,
    to: &str,
    from: &str,
    by: u64,
) {
    if by > 50_000 {
        set_address(program, fixes, to);
    } else {
        program.push(DW_LNS_FIXED_ADVANCE_PC);
        fixes.push((program.len(), 2, difference(to, from)));
        program.extend_from_slice(&[0; 2]);
    }
}

/// `a - b` of two labels.
pub(crate) fn difference(a: &str, b: &str) -> Expr {
    Expr::new(
        ExprKind::Binary(BinOp::Sub, Box::new(sym(a)), Box::new(sym(b))),
        0,
        0,
    )
}

/// The fields every header starts with: minimum_instruction_length,
/// [v4 and later: maximum_operations_per_instruction], default_is_stmt, line_base
/// (-5), line_range, opcode_base, then the standard opcodes' operand counts.
fn header_start(max_ops: bool) -> Vec<u8> {
    let mut header = vec![1];
    if max_ops {
        header.push(1);
    }
    header.extend_from_slice(&[1, LINE_BASE as i8 as u8, LINE_RANGE as u8, OPCODE_BASE]);
    header.extend_from_slice(&[0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]);
    header
}

/// A file's name split at its last `/`: the directory part (`/` for a
/// name in the root) and the base name.
fn split_path(name: &str) -> Option<(String, String)> {
    name.rsplit_once('/').map(|(d, base)| {
        (
            if d.is_empty() { "/" } else { d }.to_string(),
            base.to_string(),
        )
    })
}

/// The index of `dir` in `dirs` from `first` on, added when new.
fn dir_index(dirs: &mut Vec<String>, first: usize, dir: String) -> u64 {
    match dirs.iter().skip(first).position(|x| *x == dir) {
        Some(k) => (k + first) as u64,
        None => {
            dirs.push(dir);
            (dirs.len() - 1) as u64
        }
    }
}

/// The version 3 or 4 header after its common fields: include_directories
/// (the directory parts of the names, numbered from 1) and file_names
/// (name, directory, time 0, size 0), each list ended by a zero byte.
fn header_v3(files: &[Option<FileEntry>], version: u16) -> Vec<u8> {
    let mut header = header_start(version >= 4);
    let mut dirs: Vec<String> = vec![String::new()];
    let mut entries = Vec::new();
    for f in files.iter().skip(1).flatten() {
        let (dir, name) = match split_path(&f.name) {
            Some((d, base)) => (dir_index(&mut dirs, 1, d), base),
            None => (0, f.name.clone()),
        };
        entries.push((name, dir));
    }
    for d in &dirs[1..] {
        cstr(d, &mut header);
    }
    header.push(0);
    for (name, dir) in &entries {
        cstr(name, &mut header);
        uleb(*dir, &mut header);
        header.extend_from_slice(&[0, 0]);
    }
    header.push(0);
    header
}

/// The version 5 header after its common fields: the directory and file
/// entry formats and tables (file 0 is the primary file; its directory is
/// directory 0). Strings are inline (GNU as puts them in
/// `.debug_line_str`).
fn header_v5(files: &[Option<FileEntry>]) -> Vec<u8> {
    let mut header = header_start(true);
    // Without `.file 0` (`--gdwarf-5`), file 1 is also file 0, in the
    // directory the assembler runs in (GNU as's choice).
    let mut files = files.to_vec();
    if files[0].is_none() {
        files[0] = files.iter().flatten().next().map(|f| FileEntry {
            dir: f.dir.clone().or_else(|| {
                std::env::current_dir()
                    .ok()
                    .map(|d| d.to_string_lossy().into_owned())
            }),
            ..f.clone()
        });
    }
    let comp_dir = files[0]
        .as_ref()
        .and_then(|f| f.dir.clone())
        .unwrap_or_default();
    let mut dirs = vec![comp_dir];
    // A name with a directory part is split, the part a directory of
    // its own (GNU as's tables).
    let mut entries = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let f = f.clone().unwrap_or_default();
        let (dir, name) = match split_path(&f.name) {
            Some((d, base)) => (Some(d), base),
            None if i == 0 => (None, f.name.clone()),
            None => (f.dir.clone(), f.name.clone()),
        };
        let dir = dir.map_or(0, |d| dir_index(&mut dirs, 1, d));
        entries.push((name, dir));
    }
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
    header
}
