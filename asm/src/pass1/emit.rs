//! Section contents in the first pass: switching sections, appending bytes
//! and fixups, padding, alignment and `.org`; an instruction being built
//! ([`Built`]) before its word is written.

use isa_spec::{Inst, Opcode};

use crate::ast::Expr;
use crate::diag::Diag;
use crate::expr::Value;
use crate::source::Span;
use crate::unit::*;

use super::{Pass1, Stmt, eval_diag};

impl Pass1<'_, '_> {
    pub(crate) fn section_size(&self) -> u64 {
        self.unit.sections[self.cur].size
    }

    pub(crate) fn switch_section(
        &mut self,
        name: &str,
        flags: Option<&str>,
        nobits: bool,
    ) -> usize {
        self.switch_section_typed(name, flags, nobits.then_some("nobits"), 0, None)
    }

    /// Switches to section `name`, created with these flags, type and entry
    /// size when new.
    pub(crate) fn switch_section_typed(
        &mut self,
        name: &str,
        flags: Option<&str>,
        sh_type: Option<&str>,
        entsize: u64,
        group: Option<Group>,
    ) -> usize {
        let nobits = sh_type == Some("nobits");
        let key = Section::key(name, group.as_ref());
        let idx = match self.unit.section_index.get(&key) {
            Some(&i) => i,
            None => {
                let class = SectionClass::classify(name, flags, nobits);
                let mut section = Section::new(name, class);
                section.flags = flags.map(str::to_string);
                section.sh_type = sh_type.map(str::to_string);
                section.entsize = entsize;
                section.group = group;
                self.unit.sections.push(section);
                let i = self.unit.sections.len() - 1;
                self.unit.section_index.insert(key, i);
                i
            }
        };
        // GNU as: a switch to the section already current still makes it
        // the previous one (`.data; .data; .previous` stays in `.data`).
        // From `.struct`, the absolute section is the previous one.
        self.struct_prev = self.struct_at.take();
        if self.struct_prev.is_none() {
            self.prev = self.cur;
        }
        self.cur = idx;
        idx
    }

    /// Whether `count` more bytes fit in the current section and in the
    /// image (each at most [`MAX_SECTION_BYTES`]); reports it at `span` when
    /// not. Every path that grows a section asks first, so no sequence of
    /// directives builds more.
    fn room_for(&mut self, st: Option<&Stmt>, count: u64, span: Span) -> bool {
        if self.struct_at.is_some() {
            if let Some(st) = st {
                let d = Diag::error(span, "cannot store values after `.struct`", "in the absolute section")
                    .with_help("`.struct` lays out offsets: reserve room with `.skip N`, or switch to a section first");
                self.error(st, d);
            }
            return false;
        }
        let sec = &self.unit.sections[self.cur];
        let stored = if sec.class == SectionClass::Bss {
            0
        } else {
            count
        };
        let (what, label) = if sec.size.saturating_add(count) > MAX_SECTION_BYTES {
            (
                format!("section `{}` is too large", sec.name),
                "exceeds 256 MiB here",
            )
        } else if self.sh.stored_bytes.saturating_add(stored) > MAX_SECTION_BYTES {
            (
                "the program is too large".to_string(),
                "its sections exceed 256 MiB here",
            )
        } else {
            self.sh.stored_bytes += stored;
            return true;
        };
        if let Some(st) = st {
            self.error(st, Diag::error(span, what, label));
        }
        false
    }

    /// Appends bytes to the current section.
    pub(crate) fn emit(&mut self, st: &Stmt, bytes: &[u8], span: Span) {
        let sec = &self.unit.sections[self.cur];
        if sec.class == SectionClass::Bss && bytes.iter().any(|b| *b != 0) {
            let name = sec.name.clone();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("non-zero data in the zero-initialized section `{name}`"),
                    "this stores data",
                )
                .with_help("put initialized data in `.data`; `.bss` takes only `.zero`, `.space`, alignment"),
            );
            return;
        }
        if !self.room_for(Some(st), bytes.len() as u64, span) {
            return;
        }
        self.cfi_more(bytes.len() as u64);
        let sec = &mut self.unit.sections[self.cur];
        if sec.class == SectionClass::Bss {
            sec.size += bytes.len() as u64;
        } else {
            sec.data.extend_from_slice(bytes);
            sec.size = sec.data.len() as u64;
        }
    }

    pub(crate) fn add_fixup(&mut self, st: &Stmt, kind: FixKind, expr: Expr, offset: u64) {
        let span = st.span(expr.start, expr.end);
        // After `.struct` nothing is stored (the bytes were refused with an
        // error where they were written): no fixup either, or it would land
        // in the section before.
        if self.struct_at.is_some() && !matches!(kind, FixKind::SymbolSize(_)) {
            return;
        }
        let sec = &self.unit.sections[self.cur];
        // A zero-initialized section holds no bytes to patch (`.size` has none).
        if sec.class == SectionClass::Bss && !matches!(kind, FixKind::SymbolSize(_)) {
            let name = sec.name.clone();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("a value known only after layout cannot go in the zero-initialized section `{name}`"),
                    "not known to be zero",
                )
                .with_help("put initialized data in `.data`"),
            );
            return;
        }
        self.unit.sections[self.cur].fixups.push(Fixup {
            offset: offset as u32,
            kind,
            expr,
            span,
            ctx: st.ctx,
            relax: self.relax,
        });
    }

    /// Adds `count` bytes of padding: `fill` bytes, or the section's default
    /// (nops in code: a zero byte, a 2-byte `0x0001`, then 4-byte `nop`s, as
    /// GNU as pads), with a fill pattern `width` bytes wide. `st` is the
    /// statement to blame when the section would grow too large (`None` for
    /// the final alignment of code, a few bytes).
    pub(crate) fn pad(&mut self, st: Option<&Stmt>, count: u64, fill: Option<i64>, width: usize) {
        if count == 0 {
            return;
        }
        let span = st.map(Stmt::whole).unwrap_or_default();
        if !self.room_for(st, count, span) {
            return;
        }
        let sec = &mut self.unit.sections[self.cur];
        if sec.class == SectionClass::Bss {
            sec.size += count;
            return;
        }
        let bytes = &mut sec.data;
        bytes.reserve(count as usize);
        match fill {
            Some(v) => {
                let pattern = v.to_le_bytes();
                if width == 1 || pattern[..width].iter().all(|&b| b == pattern[0]) {
                    bytes.resize(bytes.len() + count as usize, pattern[0]);
                } else {
                    bytes.extend((0..count as usize).map(|i| pattern[i % width]));
                }
            }
            None if sec.class.is_code() => {
                let mut left = count;
                let at = sec.size;
                if at % 2 == 1 && left > 0 {
                    bytes.push(0);
                    left -= 1;
                }
                if bytes.len() % 4 == 2 && left >= 2 {
                    bytes.extend_from_slice(&[1, 0]);
                    left -= 2;
                }
                while left >= 4 {
                    bytes.extend_from_slice(&0x0000_0013u32.to_le_bytes());
                    left -= 4;
                }
                bytes.resize(bytes.len() + left as usize, 0);
            }
            None => bytes.resize(bytes.len() + count as usize, 0),
        }
        sec.size = sec.data.len() as u64;
    }

    pub(crate) fn align_to(
        &mut self,
        st: &Stmt,
        bytes: u64,
        fill: Option<i64>,
        max: Option<i64>,
        width: usize,
    ) {
        if bytes == 0 || !bytes.is_power_of_two() || bytes > 1 << 16 {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("invalid alignment {bytes}"),
                    "must be a power of two up to 65536",
                ),
            );
            return;
        }
        if let Some(at) = self.struct_at {
            // The absolute section only counts (GNU as ignores a fill).
            self.struct_at = Some((at + bytes as i64 - 1).div_euclid(bytes as i64) * bytes as i64);
            return;
        }
        let size = self.section_size();
        let mut pad = (bytes - size % bytes) % bytes;
        // In an object with relaxation, code alignment beyond an instruction
        // gets the most padding it could need, marked for the linker, which
        // deletes what it does not need once code has moved (GNU as's way).
        let relaxed = self.sh.opts.relocatable
            && self.relax
            && bytes > 4
            && fill.is_none()
            && self.unit.sections[self.cur].class.is_code();
        if relaxed {
            pad = bytes - 4;
        }
        // GNU as: the section's alignment is raised even when the padding
        // is skipped for its maximum, and a maximum of 0 is no maximum.
        let sec = &mut self.unit.sections[self.cur];
        sec.align = sec.align.max(bytes as u32);
        // GNU as's fragments (`cfi`): relaxed code alignment is its nops,
        // then a new fragment; one up to an instruction's size in code is
        // skipped; others are a variable piece.
        let code = sec.class.is_code();
        if relaxed {
            self.cfi_more(pad);
            self.cfi_break();
        } else if !(code && fill.is_none() && bytes <= 4) {
            self.cfi_var(if code && fill.is_none() {
                7
            } else {
                width as u64
            });
        }
        if let Some(m) = max
            && m > 0
            && pad as i64 > m
            && !relaxed
        {
            return;
        }
        let sec = &mut self.unit.sections[self.cur];
        if relaxed {
            sec.aligns.push((size, pad));
            // Whole nops from here, aligned or not (GNU as's way).
            return self.pad(Some(st), pad, Some(0x13), 4);
        }
        self.pad(Some(st), pad, fill, width);
    }

    pub(crate) fn org(&mut self, st: &Stmt, e: &Expr, fill: Option<i64>) {
        let target = match self.eval1(st, e) {
            Ok(Value::Abs(v)) => v,
            Ok(Value::Rel { section, offset }) if section == self.cur => offset,
            Ok(Value::Rel { .. }) => {
                self.error(
                    st,
                    Diag::error(
                        st.span(e.start, e.end),
                        "`.org` target is in another section",
                        "not an offset of the current section",
                    ),
                );
                return;
            }
            Err(err) => {
                let d = eval_diag(st.file, err, "the `.org` target");
                self.error(st, d);
                return;
            }
        };
        let size = self.section_size() as i64;
        if target < size {
            self.error(
                st,
                Diag::error(
                    st.span(e.start, e.end),
                    "`.org` cannot move backwards",
                    format!("offset {target} is before the current offset {size}"),
                ),
            );
            return;
        }
        if target as u64 > MAX_SECTION_BYTES {
            self.error(
                st,
                Diag::error(
                    st.span(e.start, e.end),
                    "`.org` target is too large",
                    "beyond 256 MiB",
                ),
            );
            return;
        }
        self.pad(Some(st), (target - size) as u64, Some(fill.unwrap_or(0)), 1);
        self.cfi_var(1);
    }
}

/// An instruction being built: the word's fields and pending fixups
/// (`crate::instr` fills it from a form, `emit_word` writes it).
pub(crate) struct Built {
    pub(crate) inst: Inst,
    pub(crate) fixes: Vec<(FixKind, Expr)>,
}

impl Built {
    pub(crate) fn new(op: Opcode) -> Built {
        Built {
            inst: Inst::with_defaults(op),
            fixes: Vec::new(),
        }
    }
}
