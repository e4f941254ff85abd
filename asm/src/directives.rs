//! Directives other than macros, repetition, conditionals and includes:
//! sections, data, alignment, symbols and the compiler's bookkeeping
//! directives.

use crate::ast::{ExprKind, Operand};
use crate::diag::Diag;
use crate::expr::{EvalError, Value};
use crate::lexer::{Kind, Token, unescape};
use crate::pass1::*;
use crate::source::Span;
use crate::unit::*;

/// Directive names the assembler knows, for suggestions.
pub(crate) const DIRECTIVES: &[&str] = &[
    ".text",
    ".data",
    ".bss",
    ".rodata",
    ".section",
    ".pushsection",
    ".popsection",
    ".previous",
    ".byte",
    ".half",
    ".short",
    ".2byte",
    ".word",
    ".long",
    ".int",
    ".4byte",
    ".dword",
    ".quad",
    ".8byte",
    ".ascii",
    ".asciz",
    ".string",
    ".float",
    ".single",
    ".double",
    ".zero",
    ".space",
    ".skip",
    ".fill",
    ".uleb128",
    ".sleb128",
    ".incbin",
    ".align",
    ".p2align",
    ".balign",
    ".balignw",
    ".balignl",
    ".p2alignw",
    ".p2alignl",
    ".org",
    ".globl",
    ".global",
    ".local",
    ".weak",
    ".hidden",
    ".internal",
    ".protected",
    ".type",
    ".size",
    ".set",
    ".equ",
    ".equiv",
    ".eqv",
    ".comm",
    ".lcomm",
    ".macro",
    ".endm",
    ".exitm",
    ".purgem",
    ".rept",
    ".endr",
    ".irp",
    ".irpc",
    ".if",
    ".ifdef",
    ".ifndef",
    ".ifnotdef",
    ".ifeq",
    ".ifne",
    ".iflt",
    ".ifle",
    ".ifgt",
    ".ifge",
    ".ifc",
    ".ifnc",
    ".ifeqs",
    ".ifnes",
    ".ifb",
    ".ifnb",
    ".else",
    ".elseif",
    ".endif",
    ".include",
    ".err",
    ".error",
    ".warning",
    ".print",
    ".end",
    ".file",
    ".ident",
    ".option",
    ".attribute",
    ".loc",
    ".addrsig",
    ".addrsig_sym",
    ".variant_cc",
    ".nops",
];

impl Pass1<'_, '_> {
    // -------------------------------------------------------------- directives

    pub(crate) fn directive(&mut self, st: &Stmt, name: &str, head: Token, from: usize) {
        let head_span = st.tok_span(head);
        match name {
            ".text" | ".data" | ".bss" | ".rodata" => {
                if from < st.tokens().len() {
                    let (raw, s) = st.raw_from(from);
                    let e = s + raw.len() as u32;
                    self.error(
                        st,
                        Diag::error(
                            st.span(s, e),
                            "subsections are not supported",
                            "subsection number",
                        )
                        .with_help("use `.section` with distinct names"),
                    );
                }
                self.switch_section(name, None, name == ".bss");
            }
            ".section" | ".pushsection" => self.section_directive(st, name, head_span, from),
            ".popsection" => match self.section_stack.pop() {
                Some((cur, prev)) => {
                    self.cur = cur;
                    self.prev = prev;
                }
                None => self.error(
                    st,
                    Diag::error(
                        head_span,
                        "`.popsection` without `.pushsection`",
                        "nothing to pop",
                    ),
                ),
            },
            ".previous" => std::mem::swap(&mut self.cur, &mut self.prev),
            ".byte" => self.data_values(st, from, 1),
            ".half" | ".short" | ".2byte" => self.data_values(st, from, 2),
            ".word" | ".long" | ".int" | ".4byte" => self.data_values(st, from, 4),
            ".dword" | ".quad" | ".8byte" => self.data_values(st, from, 8),
            ".ascii" | ".asciz" | ".string" => self.strings(st, from, name != ".ascii"),
            ".float" | ".single" => self.floats(st, from, false),
            ".double" => self.floats(st, from, true),
            ".zero" | ".space" | ".skip" => self.space(st, from, name == ".zero"),
            ".fill" => self.fill(st, from),
            ".uleb128" | ".sleb128" => self.leb128(st, from, name == ".sleb128"),
            ".incbin" => self.incbin(st, from),
            ".nops" => {
                let Some(ops) = self.parse_operands(st, from) else {
                    return;
                };
                if let Some(Operand::Expr(e)) = ops.first()
                    && let Some(n) = self.absolute(st, e, "the size")
                {
                    if n < 0 || n as u64 > MAX_SECTION_BYTES {
                        self.error(
                            st,
                            Diag::error(st.span(e.start, e.end), "invalid size", "out of range"),
                        );
                    } else {
                        self.pad(n as u64, None, 1);
                    }
                }
            }
            ".align" | ".p2align" | ".balign" | ".balignw" | ".balignl" | ".p2alignw"
            | ".p2alignl" => self.align_directive(st, name, from),
            ".org" => {
                let Some(ops) = self.parse_operands(st, from) else {
                    return;
                };
                let fill = match ops.get(1) {
                    Some(Operand::Expr(f)) => self.absolute(st, f, "the fill value"),
                    _ => None,
                };
                match ops.first() {
                    Some(Operand::Expr(e)) => self.org(st, e, fill),
                    _ => self.error(
                        st,
                        Diag::error(head_span, "`.org` needs an offset", "missing offset"),
                    ),
                }
            }
            ".globl" | ".global" | ".local" | ".weak" | ".hidden" | ".internal" | ".protected" => {
                self.symbol_attributes(st, name, from)
            }
            ".type" => self.type_directive(st, from),
            ".size" => self.size_directive(st, from),
            ".set" | ".equ" | ".equiv" | ".eqv" => {
                let Some(ops) = self.parse_operands(st, from) else {
                    return;
                };
                match ops.as_slice() {
                    [Operand::Expr(n), Operand::Expr(v)] if n.as_sym().is_some() => {
                        let sym = n.as_sym().unwrap_or_default().to_string();
                        let span = st.span(n.start, n.end);
                        self.assign(st, &sym, span, v.clone(), true, name == ".equiv");
                    }
                    _ => self.error(
                        st,
                        Diag::error(
                            head_span,
                            format!("`{name}` needs a symbol and a value"),
                            "expected `name, value`",
                        ),
                    ),
                }
            }
            ".comm" | ".lcomm" => self.comm(st, name, from),
            ".macro" => self.define_macro(st, from),
            ".endm" | ".endmacro" => self.error(
                st,
                Diag::error(
                    head_span,
                    format!("`{name}` without `.macro`"),
                    "no macro is being defined",
                ),
            ),
            ".exitm" => {
                if self.streams.last().is_some_and(|s| s.is_macro) {
                    if let Some(s) = self.streams.last_mut() {
                        s.pos = s.end;
                    }
                } else {
                    self.error(
                        st,
                        Diag::error(
                            head_span,
                            "`.exitm` outside a macro",
                            "not in a macro expansion",
                        ),
                    );
                }
            }
            ".purgem" => {
                let (raw, s) = st.raw_from(from);
                let n = raw.trim().to_string();
                if self.macros.remove(&n).is_none() {
                    let e = s + raw.len() as u32;
                    self.error(
                        st,
                        Diag::error(
                            st.span(s, e),
                            format!("no macro `{n}` to purge"),
                            "not defined",
                        ),
                    );
                }
            }
            ".rept" => self.rept(st, head_span, from),
            ".irp" | ".irpc" => self.irp(st, head_span, from, name == ".irpc"),
            ".endr" => self.error(
                st,
                Diag::error(
                    head_span,
                    "`.endr` without `.rept` or `.irp`",
                    "nothing to end",
                ),
            ),
            n if is_cond_directive(n) => self.conditional(st, n, from),
            ".include" => self.include(st, from),
            ".err" => self.error(
                st,
                Diag::error(head_span, "`.err` reached", "assembly fails here"),
            ),
            ".error" | ".warning" | ".print" => {
                let Some(ops) = self.parse_operands(st, from) else {
                    return;
                };
                let msg = match ops.first() {
                    Some(Operand::Str(s, e)) => st.string_at(*s, *e),
                    _ => format!("{name} reached"),
                };
                let span = st.whole();
                match name {
                    ".error" => self.error(st, Diag::error(span, msg, "`.error` here")),
                    ".warning" => self.error(st, Diag::warning(span, msg, "`.warning` here")),
                    _ => self.error(st, Diag::warning(span, msg, "`.print` here")),
                }
            }
            ".end" => {
                // Stop reading this input file, includes and expansions included.
                while let Some(s) = self.streams.pop() {
                    if s.is_macro {
                        self.macro_depth -= 1;
                    }
                }
            }
            ".file" => {
                // `.file "name"` names the unit (an STT_FILE symbol);
                // `.file N "dir" "name"` is a DWARF line-table entry, accepted.
                let toks = st.tokens();
                if let [t] = &toks[from.min(toks.len())..]
                    && t.kind == Kind::Str
                {
                    self.unit.file_name = Some(st.string_at(t.start, t.end));
                } else if !matches!(toks.get(from), Some(t) if t.kind == Kind::Int) {
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
            ".ident" => {
                let Some(ops) = self.parse_operands(st, from) else {
                    return;
                };
                if let Some(Operand::Str(s, e)) = ops.first() {
                    self.unit.idents.push(st.string_at(*s, *e));
                }
            }
            ".attribute" => self.attribute(st, head_span, from),
            ".option" => {
                let (raw, s) = st.raw_from(from);
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
                if arg == "rvc" || (arg.starts_with("arch") && arg.contains("+c")) {
                    let e = s + raw.len() as u32;
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
                    let e = s + raw.len() as u32;
                    self.error(
                        st,
                        Diag::warning(st.span(s, e), format!("unknown `.option {arg}`"), "ignored"),
                    );
                }
            }
            // Accepted for compatibility with compiler output; we emit no
            // unwind or line tables (see the README).
            n if n.starts_with(".cfi_") => {}
            ".loc" | ".loc_mark_labels" | ".addrsig" | ".addrsig_sym" | ".variant_cc" => {}
            ".altmacro" | ".noaltmacro" => self.error(
                st,
                Diag::error(
                    head_span,
                    format!("`{name}` is not supported"),
                    "unsupported directive",
                ),
            ),
            _ => {
                let mut d = Diag::error(
                    head_span,
                    format!("unknown directive `{name}`"),
                    "not a directive",
                );
                if let Some(near) = nearest(name, DIRECTIVES.iter().copied()) {
                    d = d.with_help(format!("did you mean `{near}`?"));
                }
                self.error(st, d);
            }
        }
    }

    pub(crate) fn section_directive(
        &mut self,
        st: &Stmt,
        directive: &str,
        head_span: Span,
        from: usize,
    ) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let Some(first) = ops.first() else {
            self.error(
                st,
                Diag::error(head_span, "missing section name", "expected a name"),
            );
            return;
        };
        let (s, e) = first.range();
        let raw = &st.text[s as usize..e as usize];
        let name = raw.trim_matches('"').to_string();
        if name.is_empty() {
            self.error(
                st,
                Diag::error(head_span, "missing section name", "expected a name"),
            );
            return;
        }
        let flags = match ops.get(1) {
            Some(Operand::Str(s, e)) => Some(st.text[*s as usize + 1..*e as usize - 1].to_string()),
            Some(Operand::Empty(_)) | None => None,
            Some(other) => {
                let (s, e) = other.range();
                self.error(
                    st,
                    Diag::error(
                        st.span(s, e),
                        "section flags must be a string",
                        "expected flags like \"ax\"",
                    ),
                );
                None
            }
        };
        if let Some(f) = &flags
            && let Some(bad) = f.chars().find(|c| !"awxMSGTRo?de".contains(*c))
        {
            let span = ops[1].range();
            self.error(
                st,
                Diag::error(
                    st.span(span.0, span.1),
                    format!("unknown section flag `{bad}`"),
                    "in these flags",
                )
                .with_help("flags are a (allocate), w (write), x (execute), M, S, G, T, R, o, ?"),
            );
        }
        let nobits = matches!(ops.get(2), Some(Operand::Type(s, e)) if &st.text[*s as usize..*e as usize] == "nobits");
        if directive == ".pushsection" {
            self.section_stack.push((self.cur, self.prev));
        }
        self.switch_section(&name, flags.as_deref(), nobits);
    }

    pub(crate) fn data_values(&mut self, st: &Stmt, from: usize, size: u8) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        for op in ops {
            match op {
                Operand::Expr(e) => {
                    if let ExprKind::Reloc(..) = e.kind {
                        let span = st.span(e.start, e.end);
                        self.error(
                            st,
                            Diag::error(
                                span,
                                "relocation operators are not allowed in data",
                                "here",
                            ),
                        );
                        continue;
                    }
                    let span = st.span(e.start, e.end);
                    match self.eval1(st, &e) {
                        Ok(Value::Abs(v)) => {
                            if let Some(d) = check_data_range(v, size, span) {
                                self.error(st, d);
                                continue;
                            }
                            let bytes = v.to_le_bytes();
                            self.emit(st, &bytes[..size as usize], span);
                        }
                        Ok(Value::Rel { .. }) | Err(EvalError::Defer(..)) => {
                            let offset = self.section_size();
                            self.emit(st, &[0u8; 8][..size as usize], span);
                            self.add_fixup(st, FixKind::Data(size), e, offset);
                        }
                        Err(err) => {
                            let d = eval_diag(st.file, err, "the value");
                            self.error(st, d);
                        }
                    }
                }
                Operand::Empty(p) if size > 0 => {
                    self.error(
                        st,
                        Diag::error(st.span(p, p), "missing value", "expected a value here"),
                    );
                }
                other => {
                    let (s, e) = other.range();
                    self.error(
                        st,
                        Diag::error(
                            st.span(s, e),
                            "expected a value",
                            "not a number or expression",
                        ),
                    );
                }
            }
        }
    }

    pub(crate) fn strings(&mut self, st: &Stmt, from: usize, nul: bool) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        for op in ops {
            match op {
                Operand::Str(s, e) => {
                    let mut bytes = unescape(&st.text[s as usize + 1..e as usize - 1]);
                    if nul {
                        bytes.push(0);
                    }
                    self.emit(st, &bytes, st.span(s, e));
                }
                other => {
                    let (s, e) = other.range();
                    self.error(
                        st,
                        Diag::error(st.span(s, e), "expected a string", "not a string literal"),
                    );
                }
            }
        }
    }

    pub(crate) fn floats(&mut self, st: &Stmt, from: usize, double: bool) {
        let (raw, base) = st.raw_from(from);
        let raw = raw.to_string();
        for (s, e) in split_top_level(&raw, ',') {
            let (s, e) = trim_range(&raw, (s, e));
            let text = &raw[s..e];
            let span = st.span(base + s as u32, base + e as u32);
            match crate::floats::parse(text, double) {
                Ok(bits) => {
                    let bytes = bits.to_le_bytes();
                    self.emit(st, &bytes[..if double { 8 } else { 4 }], span);
                }
                Err(why) => {
                    let d =
                        Diag::error(span, format!("invalid floating-point number `{text}`"), why)
                            .with_help(
                                "write decimal (1.5, -2e10), hexadecimal (0x1.8p3), inf or nan",
                            );
                    self.error(st, d);
                }
            }
        }
    }

    pub(crate) fn space(&mut self, st: &Stmt, from: usize, zero_only: bool) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let Some(Operand::Expr(n)) = ops.first() else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(span, "missing size", "expected a byte count"),
            );
            return;
        };
        let Some(count) = self.absolute(st, n, "the size") else {
            return;
        };
        if count < 0 || count as u64 > MAX_SECTION_BYTES {
            self.error(
                st,
                Diag::error(
                    st.span(n.start, n.end),
                    format!("invalid size {count}"),
                    "must be 0..=256 MiB",
                ),
            );
            return;
        }
        let fill = match ops.get(1) {
            Some(Operand::Expr(f)) if !zero_only => self.absolute(st, f, "the fill value"),
            _ => None,
        };
        self.pad(count as u64, Some(fill.unwrap_or(0)), 1);
    }

    pub(crate) fn fill(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let mut vals = [None, Some(1), Some(0)];
        for (i, op) in ops.iter().take(3).enumerate() {
            if let Operand::Expr(e) = op {
                vals[i] = self.absolute(st, e, "the `.fill` argument");
                if vals[i].is_none() {
                    return;
                }
            }
        }
        let (Some(repeat), Some(size), Some(value)) = (vals[0], vals[1], vals[2]) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "`.fill` needs a repeat count",
                    "expected `repeat[, size[, value]]`",
                ),
            );
            return;
        };
        let size = size.clamp(0, 8);
        if repeat < 0 || (repeat as u64).saturating_mul(size as u64) > MAX_SECTION_BYTES {
            let span = st.whole();
            self.error(
                st,
                Diag::error(span, "invalid `.fill` size", "too large or negative"),
            );
            return;
        }
        // GNU as stores at most 4 bytes of the value; wider units get zeros.
        let v = (value as u32 as u64).to_le_bytes();
        let span = st.whole();
        let mut bytes = Vec::with_capacity((repeat * size) as usize);
        for _ in 0..repeat {
            bytes.extend_from_slice(&v[..size as usize]);
        }
        self.emit(st, &bytes, span);
    }

    pub(crate) fn leb128(&mut self, st: &Stmt, from: usize, signed: bool) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        for op in ops {
            let Operand::Expr(e) = op else { continue };
            let Some(mut v) = self.absolute(st, &e, "a LEB128 value") else {
                continue;
            };
            let mut bytes = Vec::new();
            loop {
                let byte = (v & 0x7f) as u8;
                v = if signed {
                    v >> 7
                } else {
                    ((v as u64) >> 7) as i64
                };
                let done = if signed {
                    (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0)
                } else {
                    v == 0
                };
                bytes.push(if done { byte } else { byte | 0x80 });
                if done {
                    break;
                }
            }
            self.emit(st, &bytes, st.span(e.start, e.end));
        }
    }

    pub(crate) fn incbin(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let Some((_, _, data, span)) = self.read_named_file(st, &ops, ".incbin") else {
            return;
        };
        let mut args = [0i64, data.len() as i64];
        for (i, op) in ops.iter().skip(1).take(2).enumerate() {
            if let Operand::Expr(x) = op {
                match self.absolute(st, x, "the `.incbin` argument") {
                    Some(v) => args[i] = v,
                    None => return,
                }
            }
        }
        let skip = args[0].clamp(0, data.len() as i64) as usize;
        let count = args[1].clamp(0, (data.len() - skip) as i64) as usize;
        self.emit(st, &data[skip..skip + count], span);
    }

    pub(crate) fn align_directive(&mut self, st: &Stmt, name: &str, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let mut vals: [Option<i64>; 3] = [None; 3];
        for (i, op) in ops.iter().take(3).enumerate() {
            if let Operand::Expr(e) = op {
                vals[i] = self.absolute(st, e, "the alignment argument");
                if vals[i].is_none() {
                    return;
                }
            }
        }
        let Some(amount) = vals[0] else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("`{name}` needs an alignment"),
                    "missing alignment",
                ),
            );
            return;
        };
        let width = match name {
            ".balignw" | ".p2alignw" => 2,
            ".balignl" | ".p2alignl" => 4,
            _ => 1,
        };
        let bytes = if name.starts_with(".balign") {
            amount.max(1) as u64
        } else {
            if !(0..=16).contains(&amount) {
                let span = st.whole();
                self.error(
                    st,
                    Diag::error(
                        span,
                        format!("invalid alignment 2^{amount}"),
                        "must be 0..=16",
                    ),
                );
                return;
            }
            1u64 << amount
        };
        self.align_to(st, bytes, vals[1], vals[2], width);
    }

    pub(crate) fn symbol_attributes(&mut self, st: &Stmt, name: &str, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        for op in ops {
            let Operand::Expr(e) = &op else { continue };
            let Some(sym) = e.as_sym() else {
                self.error(
                    st,
                    Diag::error(
                        st.span(e.start, e.end),
                        "expected a symbol name",
                        "not a name",
                    ),
                );
                continue;
            };
            let span = st.span(e.start, e.end);
            let s = self.symbol_mut(sym);
            if s.first_use.is_none() {
                s.first_use = Some(span);
            }
            match name {
                ".globl" | ".global" => {
                    if s.binding != Binding::Weak {
                        s.binding = Binding::Global;
                    }
                }
                ".weak" => s.binding = Binding::Weak,
                ".local" => s.binding = Binding::Local,
                ".hidden" => s.visibility = 2,
                ".internal" => s.visibility = 1,
                _ => s.visibility = 3,
            }
        }
    }

    pub(crate) fn type_directive(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let (Some(Operand::Expr(e)), Some(t)) = (ops.first(), ops.get(1)) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "`.type` needs a symbol and a type",
                    "expected `name, @type`",
                ),
            );
            return;
        };
        let Some(sym) = e.as_sym() else { return };
        let (s, en) = t.range();
        let text = st.text[s as usize..en as usize]
            .trim_matches('"')
            .trim_start_matches(['@', '%']);
        let ty = match text {
            "function" | "STT_FUNC" | "gnu_indirect_function" => SymType::Func,
            "object" | "STT_OBJECT" => SymType::Object,
            "tls_object" | "STT_TLS" => SymType::Tls,
            "common" | "STT_COMMON" => SymType::Common,
            "notype" | "STT_NOTYPE" => SymType::NoType,
            other => {
                let d = Diag::error(
                    st.span(s, en),
                    format!("unknown symbol type `{other}`"),
                    "not a type",
                )
                .with_help("use @function, @object, @notype, @tls_object or @common");
                self.error(st, d);
                return;
            }
        };
        self.symbol_mut(sym).ty = ty;
    }

    pub(crate) fn size_directive(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let (Some(Operand::Expr(n)), Some(Operand::Expr(v))) = (ops.first(), ops.get(1)) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "`.size` needs a symbol and a size",
                    "expected `name, size`",
                ),
            );
            return;
        };
        let Some(sym) = n.as_sym() else { return };
        let sym = sym.to_string();
        match self.eval1(st, v) {
            Ok(Value::Abs(size)) => self.symbol_mut(&sym).size = Some(size as u64),
            Ok(Value::Rel { .. }) | Err(EvalError::Defer(..)) => {
                let offset = self.section_size();
                self.add_fixup(st, FixKind::SymbolSize(sym.into()), v.clone(), offset);
            }
            Err(e) => {
                let d = eval_diag(st.file, e, "the size");
                self.error(st, d);
            }
        }
    }

    pub(crate) fn comm(&mut self, st: &Stmt, name: &str, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let (Some(Operand::Expr(n)), Some(Operand::Expr(size))) = (ops.first(), ops.get(1)) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("`{name}` needs a symbol and a size"),
                    "expected `name, size[, align]`",
                ),
            );
            return;
        };
        let Some(sym) = n.as_sym().map(str::to_string) else {
            return;
        };
        let span = st.span(n.start, n.end);
        let Some(size) = self.absolute(st, size, "the size") else {
            return;
        };
        let align = match ops.get(2) {
            Some(Operand::Expr(a)) => match self.absolute(st, a, "the alignment") {
                Some(a) => a,
                None => return,
            },
            _ => (size.max(1) as u64).next_power_of_two().min(8) as i64,
        };
        if size < 0
            || size as u64 > MAX_SECTION_BYTES
            || align <= 0
            || !(align as u64).is_power_of_two()
        {
            self.error(
                st,
                Diag::error(
                    span,
                    format!("invalid `{name}` size or alignment"),
                    "out of range",
                ),
            );
            return;
        }
        let s = self.symbol_mut(&sym);
        if s.is_defined() {
            if !matches!(s.def, SymDef::Common(..)) {
                let first = s.def_span;
                let mut d = Diag::error(
                    span,
                    format!("symbol `{sym}` is already defined"),
                    "declared common here",
                );
                if let Some(f) = first {
                    d = d.with_note(f, "first defined here");
                }
                self.error(st, d);
            }
            return;
        }
        s.def = SymDef::Common(size as u64, align as u64);
        s.def_span = Some(span);
        if name == ".comm" && s.binding == Binding::Local {
            s.binding = Binding::Global;
        }
        if s.ty == SymType::NoType {
            s.ty = SymType::Object;
        }
    }

    pub(crate) fn attribute(&mut self, st: &Stmt, head_span: Span, from: usize) {
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
}

/// Checks that a data value fits `size` bytes (signed or unsigned).
pub(crate) fn check_data_range(v: i64, size: u8, span: Span) -> Option<Diag> {
    if size >= 8 {
        return None;
    }
    let bits = size as u32 * 8;
    let min = -(1i64 << (bits - 1));
    let max = (1i64 << bits) - 1;
    (v < min || v > max).then(|| {
        Diag::error(
            span,
            format!("value {v} does not fit in {size} byte(s)"),
            "out of range",
        )
        .with_help(format!("a {size}-byte value must be in {min}..={max}"))
    })
}
