//! The compiler's bookkeeping directives: `.attribute`, `.option`, `.file`
//! and `.loc` (the line table, `dwarf`), `.ident`, and the
//! accepted-and-ignored `.addrsig` (`.cfi_*` are `cfi`'s).

use crate::ast::Operand;
use crate::diag::Diag;
use crate::lexer::Kind;
use crate::pass1::{FileEntry, Pass1, Row, Stmt};
use crate::source::Span;
use crate::unit::*;

impl Pass1<'_, '_> {
    /// `.attribute TAG, VALUE` (RISC-V's), or with `gnu` `.gnu_attribute
    /// NUMBER, VALUE` (the "gnu" vendor's, written after RISC-V's).
    pub(super) fn attribute(&mut self, st: &Stmt, head_span: Span, from: usize, gnu: bool) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let (Some(Operand::Expr(tag)), Some(value)) = (ops.first(), ops.get(1)) else {
            self.error(
                st,
                Diag::error(
                    head_span,
                    "`.attribute` needs a tag and a value",
                    "expected `tag, value`",
                ),
            );
            return;
        };
        let tag_num = match tag.as_sym() {
            _ if gnu => match self.absolute(st, tag, "the tag") {
                Some(n) if n >= 0 => n as u64,
                _ => return,
            },
            Some("stack_align") => 4,
            Some("arch") => 5,
            Some("unaligned_access") => 6,
            Some("priv_spec") => 8,
            Some("priv_spec_minor") => 10,
            Some("priv_spec_revision") => 12,
            Some("atomic_abi") => 14,
            Some("x3_reg_usage") => 16,
            Some(other) => {
                let d = Diag::error(
                    st.span(tag.start, tag.end),
                    format!("unknown attribute `{other}`"),
                    "not a RISC-V attribute",
                );
                self.error(st, d);
                return;
            }
            None => match self.absolute(st, tag, "the attribute tag") {
                Some(v) if v >= 0 => v as u64,
                _ => return,
            },
        };
        let v = match value {
            // The architecture as GNU as writes it back: canonical, with
            // what each extension implies (`arch`).
            Operand::Str(s, e) if tag_num == 5 && !gnu => {
                match crate::arch::canonical(&st.string_at(*s, *e), self.sh.opts.isa_spec) {
                    Ok(arch) => AttrValue::Str(arch),
                    Err(why) => {
                        let d = Diag::error(st.span(*s, *e), why, "not an ISA string GNU as takes");
                        self.error(st, d);
                        return;
                    }
                }
            }
            Operand::Str(s, e) => AttrValue::Str(st.string_at(*s, *e)),
            Operand::Expr(e) => match self.absolute(st, e, "the attribute value") {
                Some(v) => AttrValue::Int(v as u64),
                None => return,
            },
            other => {
                let (s, e) = other.range();
                self.error(
                    st,
                    Diag::error(
                        st.span(s, e),
                        "expected a number or a string",
                        "attribute value",
                    ),
                );
                return;
            }
        };
        if gnu {
            self.unit.gnu_attributes.retain(|(t, _)| *t != tag_num);
            self.unit.gnu_attributes.push((tag_num, v));
            return;
        }
        // RISC-V attributes: odd tags hold strings, even tags numbers.
        if matches!(v, AttrValue::Str(_)) != (tag_num % 2 == 1) {
            let (s, e) = value.range();
            let d = Diag::error(
                st.span(s, e),
                format!(
                    "attribute {tag_num} takes a {}",
                    if tag_num % 2 == 1 { "string" } else { "number" }
                ),
                "wrong kind of value",
            );
            self.error(st, d);
            return;
        }
        self.unit.attributes.retain(|(t, _)| *t != tag_num);
        self.unit.attributes.push((tag_num, v));
    }

    /// `.file "name"` names the unit (an STT_FILE symbol); `.file N
    /// ["dir"] "name" [md5 VALUE]` is an entry of the line table.
    pub(super) fn file_directive(&mut self, st: &Stmt, c: &super::Call) {
        let toks = st.tokens();
        if let [t] = &toks[c.from.min(toks.len())..]
            && t.kind == Kind::Str
        {
            self.unit.file_name = Some(st.string_at(t.start, t.end));
        } else if let Some(n) = toks.get(c.from).filter(|t| t.kind == Kind::Int) {
            let strings: Vec<String> = toks[c.from + 1..]
                .iter()
                .take_while(|t| t.kind == Kind::Str)
                .map(|t| st.string_at(t.start, t.end))
                .collect();
            let number = st
                .tok_text(*n)
                .parse::<usize>()
                .ok()
                .filter(|n| *n < 1 << 16);
            let (Some(number), Some(name)) = (number, strings.last()) else {
                let span = st.whole();
                self.error(
                    st,
                    Diag::error(span, "`.file N` needs a number and a file name", "here"),
                );
                return;
            };
            let dir = (strings.len() > 1).then(|| strings[0].clone());
            // The directory form is DWARF 5's: GNU as takes it for file 0,
            // once a `.file 0` has been given, or under `--gdwarf-5`.
            if dir.is_some()
                && number != 0
                && self.sh.opts.dwarf_version < 5
                && self.lines.files.first().is_none_or(|f| f.is_none())
            {
                let span = st.whole();
                self.error(
                    st,
                    Diag::error(
                        span,
                        "`.file N \"dir\" \"name\"` needs a `.file 0` before it",
                        "the directory form is DWARF 5's",
                    )
                    .with_help("give `.file 0 \"dir\" \"name\"` first, or write the name with its directory"),
                );
                return;
            }
            let files = &mut self.lines.files;
            if files.len() <= number {
                files.resize(number + 1, None);
            }
            files[number] = Some(FileEntry {
                dir,
                name: name.clone(),
                span: st.whole(),
                ctx: st.ctx,
            });
        } else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "`.file` needs a file name",
                    "expected `.file \"name\"` or `.file N \"name\"`",
                ),
            );
        }
    }

    /// `.loc FILE LINE [COLUMN] [is_stmt N] [prologue_end] [epilogue_begin]
    /// [basic_block] [discriminator N] [isa N] [view V]`: a line-table row
    /// at the current address (code only).
    pub(super) fn loc(&mut self, st: &Stmt, c: &super::Call) {
        let toks = st.tokens();
        let args = &toks[c.from.min(toks.len())..];
        let num = |t: Option<&crate::lexer::Token>| {
            t.filter(|t| t.kind == Kind::Int)
                .and_then(|t| crate::lexer::parse_int(st.tok_text(*t)))
        };
        let (Some(file), Some(line)) = (num(args.first()), num(args.get(1))) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "`.loc` needs a file number and a line",
                    "expected `.loc FILE LINE [COLUMN]`",
                ),
            );
            return;
        };
        if !self
            .lines
            .files
            .get(file as usize)
            .is_some_and(|f| f.is_some())
        {
            let span = st.tok_span(args[0]);
            self.error(
                st,
                Diag::error(
                    span,
                    format!("unassigned file number {file}"),
                    "no `.file` gives this number",
                )
                .with_help(format!("give `.file {file} \"name\"` before it")),
            );
            return;
        }
        let mut i = 2;
        let column = match num(args.get(2)) {
            Some(v) => {
                i = 3;
                v
            }
            None => 0,
        };
        // Where it goes is known at the next instruction.
        let mut row = Row {
            section: self.cur,
            offset: 0,
            subsection: 0,
            file,
            line,
            column,
            is_stmt: self.lines.is_stmt,
            prologue_end: false,
            epilogue_begin: false,
            discriminator: 0,
        };
        while i < args.len() {
            let word = st.tok_text(args[i]).to_string();
            let value = num(args.get(i + 1));
            match word.as_str() {
                "prologue_end" => row.prologue_end = true,
                "epilogue_begin" => row.epilogue_begin = true,
                "basic_block" => {}
                "is_stmt" | "discriminator" | "isa" | "view" => {
                    match (word.as_str(), value) {
                        ("is_stmt", Some(v)) => {
                            row.is_stmt = v != 0;
                            self.lines.is_stmt = v != 0;
                        }
                        ("discriminator", Some(v)) => row.discriminator = v,
                        _ => {}
                    }
                    i += 1; // its value (a view may be a label)
                }
                _ => {
                    let span = st.tok_span(args[i]);
                    self.error(
                        st,
                        Diag::warning(span, format!("unknown `.loc` option `{word}`"), "ignored"),
                    );
                }
            }
            i += 1;
        }
        // Two `.loc`s in a row: the first is placed here (GNU as).
        self.place_pending_loc();
        self.lines.pending = Some(row);
    }

    pub(super) fn ident(&mut self, st: &Stmt, c: &super::Call) {
        let Some(ops) = self.parse_operands(st, c.from) else {
            return;
        };
        if let Some(Operand::Str(s, e)) = ops.first() {
            self.unit.idents.push(st.string_at(*s, *e));
        }
    }

    pub(super) fn option(&mut self, st: &Stmt, c: &super::Call) {
        let (raw, s) = st.raw_from(c.from);
        let arg = raw.trim();
        let known = [
            "rvc",
            "norvc",
            "push",
            "pop",
            "relax",
            "norelax",
            "pic",
            "nopic",
            "csr-check",
            "no-csr-check",
        ];
        let e = s + raw.len() as u32;
        match arg {
            "relax" => self.relax = true,
            "norelax" => self.relax = false,
            "pic" => self.pic = true,
            "nopic" => self.pic = false,
            "push" => self.option_stack.push((self.relax, self.pic)),
            "pop" => match self.option_stack.pop() {
                Some((relax, pic)) => (self.relax, self.pic) = (relax, pic),
                None => self.error(
                    st,
                    Diag::error(
                        st.span(s, e),
                        "`.option pop` without a `.option push`",
                        "nothing to pop",
                    ),
                ),
            },
            _ => {}
        }
        if arg == "rvc" || (arg.starts_with("arch") && arg.contains("+c")) {
            self.error(
                st,
                Diag::warning(
                    st.span(s, e),
                    "compressed instructions are not supported",
                    "ignored",
                )
                .with_help("SCMP uses 32-bit instructions only"),
            );
        } else if !known.contains(&arg) && !arg.starts_with("arch") {
            self.error(
                st,
                Diag::warning(st.span(s, e), format!("unknown `.option {arg}`"), "ignored"),
            );
        }
    }
}
