//! Macros (`.macro`, expansion with `\\arg` substitution), repetition
//! (`.rept`, `.irp`, `.irpc`), conditionals (`.if` family) and `.include`.
//! Expanded text becomes a virtual source file whose segment map leads
//! diagnostics back to the macro body.
//!
//! Over 600 lines: the four kinds of block share one body reader (nesting,
//! `.endm`/`.endr`/`.endif` matching) and one virtual-file mechanism.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use crate::ast::Operand;
use crate::diag::Diag;
use crate::lexer::Kind;
use crate::pass1::{
    Cond, MAX_INCLUDE_DEPTH, MAX_MACRO_DEPTH, Macro, Param, Pass1, Stmt, Stream, is_ident_char,
    split_alt_args, split_args, split_top_level, trim_range, unangle_arg, unquote_arg,
};
use crate::source::{Context, ContextKind, CtxId, Segment, Span};

impl Pass1<'_, '_> {
    // ------------------------------------------------------------ conditionals

    pub(crate) fn conditional(&mut self, st: &Stmt, name: &str, from: usize) {
        let span = st.whole();
        match name {
            ".endif" => {
                if self.conds.pop().is_none() {
                    self.error(
                        st,
                        Diag::error(span, "`.endif` without `.if`", "nothing to end"),
                    );
                }
            }
            ".else" => match self.conds.last_mut() {
                Some(c) if !c.else_seen => {
                    c.active = c.parent_active && !c.taken;
                    c.taken = true;
                    c.else_seen = true;
                }
                Some(_) => self.error(
                    st,
                    Diag::error(span, "second `.else` for one `.if`", "extra `.else`"),
                ),
                None => self.error(
                    st,
                    Diag::error(span, "`.else` without `.if`", "no open conditional"),
                ),
            },
            ".elseif" => {
                let Some(c) = self.conds.last() else {
                    self.error(
                        st,
                        Diag::error(span, "`.elseif` without `.if`", "no open conditional"),
                    );
                    return;
                };
                if c.else_seen {
                    self.error(
                        st,
                        Diag::error(span, "`.elseif` after `.else`", "out of order"),
                    );
                    return;
                }
                let (parent, taken) = (c.parent_active, c.taken);
                let value = if parent && !taken {
                    self.condition_value(st, ".if", from).unwrap_or(false)
                } else {
                    false
                };
                if let Some(c) = self.conds.last_mut() {
                    c.active = parent && !taken && value;
                    c.taken |= value;
                }
            }
            _ => {
                let parent = self.assembling();
                let value = if parent {
                    self.condition_value(st, name, from).unwrap_or(false)
                } else {
                    false
                };
                self.conds.push(Cond {
                    active: parent && value,
                    taken: value,
                    parent_active: parent,
                    else_seen: false,
                    span,
                    ctx: st.ctx,
                });
            }
        }
    }

    pub(crate) fn condition_value(&mut self, st: &Stmt, name: &str, from: usize) -> Option<bool> {
        match name {
            ".ifdef" | ".ifndef" | ".ifnotdef" => {
                let (raw, _) = st.raw_from(from);
                let defined = self
                    .unit
                    .symbols
                    .get(raw.trim())
                    .is_some_and(|s| s.is_defined());
                Some(if name == ".ifdef" { defined } else { !defined })
            }
            ".ifc" | ".ifnc" | ".ifeqs" | ".ifnes" => {
                let (raw, _) = st.raw_from(from);
                let parts = split_top_level(raw, ',');
                let text = |i: usize| {
                    parts.get(i).map_or("", |r| {
                        let (s, e) = trim_range(raw, *r);
                        raw[s..e].trim_matches(|c| c == '"' || c == '\'')
                    })
                };
                let same = text(0) == text(1);
                Some(if name == ".ifc" || name == ".ifeqs" {
                    same
                } else {
                    !same
                })
            }
            ".ifb" | ".ifnb" => {
                let (raw, _) = st.raw_from(from);
                let blank = raw.trim().is_empty();
                Some(if name == ".ifb" { blank } else { !blank })
            }
            _ => {
                let e = self.parse_expr_operand(st, from)?;
                let v = self.absolute(st, &e, "the condition")?;
                Some(match name {
                    ".if" | ".ifne" => v != 0,
                    ".ifeq" => v == 0,
                    ".iflt" => v < 0,
                    ".ifle" => v <= 0,
                    ".ifgt" => v > 0,
                    _ => v >= 0,
                })
            }
        }
    }

    // ------------------------------------------------- macros and repetition

    /// Reads statements of the current stream up to the one that closes a
    /// block (`.endm` for `.macro`, `.endr` for `.rept`/`.irp`), counting
    /// nested blocks. Returns the body's token range and text range.
    pub(crate) fn collect_block(
        &mut self,
        st: &Stmt,
        macro_block: bool,
    ) -> Option<(usize, usize, u32, u32)> {
        let body_tok_start = self.streams.last()?.pos;
        let body_text_start = st.toks.get(st.b).map_or(st.text.len() as u32, |t| t.end);
        let mut depth = 0;
        while let Some(s) = self.streams.last() {
            if s.pos >= s.end || !Rc::ptr_eq(&s.tokens, &st.toks) {
                break;
            }
            let Some(inner) = self.next_statement() else {
                break;
            };
            let toks = inner.tokens();
            // Skip labels to find the head.
            let mut i = 0;
            while i + 1 < toks.len() && toks[i + 1].kind == Kind::Colon {
                i += 2;
            }
            let Some(head) = toks.get(i) else { continue };
            if head.kind != Kind::Ident {
                continue;
            }
            let name = inner.tok_text(*head).to_ascii_lowercase();
            let (open, close): (&[&str], &[&str]) = if macro_block {
                (&[".macro"], &[".endm", ".endmacro"])
            } else {
                (&[".rept", ".irp", ".irpc"], &[".endr"])
            };
            if open.contains(&name.as_str()) {
                depth += 1;
            } else if close.contains(&name.as_str()) {
                if depth == 0 {
                    return Some((body_tok_start, inner.a, body_text_start, toks[0].start));
                }
                depth -= 1;
            }
        }
        let what = if macro_block {
            "`.macro` has no `.endm`"
        } else {
            "block has no `.endr`"
        };
        let span = st.whole();
        self.error(st, Diag::error(span, what.to_string(), "opened here"));
        None
    }

    pub(crate) fn define_macro(&mut self, st: &Stmt, from: usize) {
        let (raw, base) = st.raw_from(from);
        let raw = raw.to_string();
        let Some(block) = self.collect_block(st, true) else {
            return;
        };
        let trimmed = raw.trim_start();
        let name_len = trimmed
            .find(|c: char| c.is_whitespace() || c == ',')
            .unwrap_or(trimmed.len());
        if name_len == 0 {
            let span = st.whole();
            self.error(
                st,
                Diag::error(span, "`.macro` needs a name", "missing name"),
            );
            return;
        }
        let ne = raw.len() - trimmed.len() + name_len;
        let name = trimmed[..name_len].to_string();
        let mut params = Vec::new();
        // Parameters may be separated by commas or spaces after the name.
        let rest = &raw[ne..];
        let rest = rest.trim_start().trim_start_matches(',');
        for (s, e) in split_args(rest) {
            let p = rest[s..e].trim();
            if p.is_empty() {
                continue;
            }
            let (decl, default) = match p.split_once('=') {
                Some((d, v)) => (d.trim(), Some(unquote_arg(v.trim()))),
                None => (p, None),
            };
            let (pname, qual) = match decl.split_once(':') {
                Some((n, q)) => (n.trim(), Some(q.trim())),
                None => (decl, None),
            };
            if pname.is_empty() || !pname.bytes().all(is_ident_char) {
                let off = base + (raw.len() - rest.len() + s) as u32;
                let span = st.span(off, off + (e - s) as u32);
                self.error(
                    st,
                    Diag::error(
                        span,
                        format!("invalid macro parameter `{p}`"),
                        "not a parameter name",
                    ),
                );
                return;
            }
            params.push(Param {
                name: pname.to_string(),
                default,
                required: qual == Some("req"),
                vararg: qual == Some("vararg"),
            });
        }
        let (_, _, body_start, body_end) = block;
        self.macros.insert(
            name.clone(),
            Rc::new(Macro {
                name,
                params,
                body_file: st.file,
                body_start,
                body_end,
            }),
        );
    }

    /// Substitutes `\name` references (and `\@`, `\()`) in `body`, building
    /// the segment map of the result. In GNU's alternate mode (`alt`), a
    /// parameter's bare name is replaced too, a `&` after a replaced name is
    /// dropped (`lbl_\a&_end`), and `LOCAL` lines are left out (their names
    /// are in `values`).
    pub(crate) fn substitute(
        body: &str,
        body_file: u32,
        body_start: u32,
        values: &HashMap<&str, String>,
        counter: u32,
        alt: bool,
    ) -> (String, Vec<Segment>) {
        let mut out = String::with_capacity(body.len() + 16);
        let mut segs: Vec<Segment> = Vec::new();
        let bytes = body.as_bytes();
        let mut lit_start = 0usize;
        let mut i = 0usize;
        // Appends `text`, which stands for body bytes `from..to`.
        let push = |out: &mut String,
                    segs: &mut Vec<Segment>,
                    text: &str,
                    (from, to): (usize, usize),
                    literal: bool| {
            let vs = out.len() as u32;
            out.push_str(text);
            segs.push(Segment {
                virt_start: vs,
                virt_end: out.len() as u32,
                origin: Span {
                    file: body_file,
                    start: body_start + from as u32,
                    end: body_start + to as u32,
                },
                literal,
            });
        };
        let push_lit = |out: &mut String, segs: &mut Vec<Segment>, from: usize, to: usize| {
            if to > from {
                push(out, segs, &body[from..to], (from, to), true);
            }
        };
        while i < bytes.len() {
            if alt && (i == 0 || bytes[i - 1] == b'\n') && is_local_line(&body[i..]) {
                // A `LOCAL` line: left out (its newline kept).
                let end = body[i..].find('\n').map_or(bytes.len(), |n| i + n);
                push_lit(&mut out, &mut segs, lit_start, i);
                i = end;
                lit_start = i;
                continue;
            }
            let bare = alt
                && is_ident_char(bytes[i])
                && !bytes[i].is_ascii_digit()
                && (i == 0 || !is_ident_char(bytes[i - 1]) && bytes[i - 1] != b'\\');
            if bare {
                let mut j = i;
                while j < bytes.len() && is_ident_char(bytes[j]) {
                    j += 1;
                }
                if let Some(v) = values.get(&body[i..j]) {
                    push_lit(&mut out, &mut segs, lit_start, i);
                    push(&mut out, &mut segs, v, (i, j), false);
                    i = j + usize::from(bytes.get(j) == Some(&b'&'));
                    lit_start = i;
                } else {
                    i = j;
                }
                continue;
            }
            if bytes[i] != b'\\' || i + 1 >= bytes.len() {
                i += 1;
                continue;
            }
            let next = bytes[i + 1];
            let (replacement, len): (Option<String>, usize) = if next == b'@' {
                (Some(counter.to_string()), 2)
            } else if next == b'(' && bytes.get(i + 2) == Some(&b')') {
                (Some(String::new()), 3)
            } else {
                let mut j = i + 1;
                while j < bytes.len() && is_ident_char(bytes[j]) && bytes[j] != b'.' {
                    j += 1;
                }
                let ident = &body[i + 1..j];
                let amp = usize::from(alt && bytes.get(j) == Some(&b'&'));
                match values.get(ident) {
                    Some(v) => (Some(v.clone()), j - i + amp),
                    None => (None, 1),
                }
            };
            match replacement {
                Some(r) => {
                    push_lit(&mut out, &mut segs, lit_start, i);
                    push(&mut out, &mut segs, &r, (i, i + len), false);
                    i += len;
                    lit_start = i;
                }
                None => i += len,
            }
        }
        push_lit(&mut out, &mut segs, lit_start, bytes.len());
        if !out.ends_with('\n') {
            push(&mut out, &mut segs, "\n", (body.len(), body.len()), false);
        }
        (out, segs)
    }

    pub(crate) fn push_virtual(
        &mut self,
        name: String,
        text: String,
        segs: Vec<Segment>,
        ctx: CtxId,
        is_macro: bool,
    ) {
        let file = self.sh.sources.add_virtual(name, text, segs);
        let include_depth = self.streams.last().map_or(0, |s| s.include_depth);
        let mut stream = Stream::whole(&self.sh.sources, file, ctx, is_macro, include_depth);
        stream.conds_at_start = self.conds.len();
        self.streams.push(stream);
    }

    pub(crate) fn new_context(&mut self, kind: ContextKind, site: Span, parent: CtxId) -> CtxId {
        self.sh.contexts.push(Context { kind, site, parent });
        self.sh.contexts.len() as CtxId - 1
    }

    /// Counts an expansion; past the limit, reports it and stops reading
    /// this input file (every later expansion would fail the same way).
    pub(crate) fn count_expansion(&mut self, st: &Stmt) -> bool {
        self.sh.expansions_total += 1;
        let (n, max) = (self.sh.expansions_total, self.sh.opts.max_expansions);
        self.within_limit(st, n, max, "too many macro expansions", || {
            format!("more than {max} expansions: does a macro use itself more than once, growing without end?")
        })
    }

    /// Counts `len` bytes of expanded text; past the limit, as
    /// [`Self::count_expansion`]. A macro whose argument grows with each use
    /// (`m \a\a` inside `m`) doubles its text per level, and would exhaust
    /// memory long before the nesting limit.
    pub(crate) fn count_expansion_bytes(&mut self, st: &Stmt, len: usize) -> bool {
        self.sh.expansion_bytes += len as u64;
        let (n, max) = (self.sh.expansion_bytes, self.sh.opts.max_expansion_bytes);
        self.within_limit(st, n, max, "macro expansions too large", || {
            format!("more than {max} bytes of macro and `.irp` text: does an argument grow with each expansion?")
        })
    }

    /// Whether a count `n` is within its limit `max`; if not, reports
    /// `headline` (with `help`) at `st` and stops reading this input file.
    fn within_limit(
        &mut self,
        st: &Stmt,
        n: u64,
        max: u64,
        headline: &str,
        help: impl FnOnce() -> String,
    ) -> bool {
        if n <= max {
            return true;
        }
        let span = st.whole();
        self.error(
            st,
            Diag::error(span, headline, "assembly stopped here").with_help(help()),
        );
        self.stop_reading();
        false
    }

    /// Ends the pass over this input file: a runaway expansion or too many
    /// errors (what follows would only repeat them).
    pub(crate) fn stop_reading(&mut self) {
        while let Some(s) = self.streams.pop() {
            if s.is_macro {
                self.macro_depth -= 1;
            }
        }
    }

    /// The values of macro `m`'s parameters in the call `st` (its
    /// arguments from statement part `head_index + 1`: by keyword, by
    /// position, the defaults), or `None` after an error.
    fn macro_arguments<'m>(
        &mut self,
        st: &Stmt,
        m: &'m Macro,
        head_index: usize,
    ) -> Option<HashMap<&'m str, String>> {
        let site = st.whole();
        let (raw, base) = st.raw_from(head_index + 1);
        let raw = raw.to_string();
        let mut values: HashMap<&str, String> = HashMap::new();
        let mut positional = 0usize;
        let alt = self.altmacro;
        let args = if alt {
            split_alt_args(&raw)
        } else {
            split_args(&raw)
        };
        // An argument's value: in alternate mode `<...>` is its contents and
        // `%expr` the expression's value in decimal.
        let value_of = |p: &mut Self, arg: &str, s: usize| -> Option<String> {
            if alt {
                if let Some(v) = unangle_arg(arg) {
                    return Some(v);
                }
                if let Some(expr) = arg.strip_prefix('%') {
                    let at = base + s as u32 + 1;
                    return p.alt_percent(st, expr, at).map(|v| v.to_string());
                }
            }
            Some(unquote_arg(arg))
        };
        for (k, &(s, e)) in args.iter().enumerate() {
            let arg = &raw[s..e];
            if let Some((kw, v)) = arg.split_once('=')
                && let Some(p) = m.params.iter().find(|p| p.name == kw.trim())
            {
                values.insert(p.name.as_str(), unquote_arg(v.trim()));
                continue;
            }
            // GNU as: an empty argument is one not given (its default
            // applies), and an empty one past the last parameter is ignored.
            if arg.trim().is_empty() {
                positional += 1;
                continue;
            }
            let Some(p) = m.params.get(positional) else {
                let span = st.span(base + s as u32, base + e as u32);
                self.error(
                    st,
                    Diag::error(
                        span,
                        format!("too many arguments to macro `{}`", m.name),
                        "extra argument",
                    )
                    .with_help(format!(
                        "`{}` takes {} argument(s)",
                        m.name,
                        m.params.len()
                    )),
                );
                return None;
            };
            if p.vararg {
                let rest: Vec<&str> = args[k..].iter().map(|&(s, e)| &raw[s..e]).collect();
                values.insert(p.name.as_str(), rest.join(", "));
                break;
            }
            let v = value_of(self, arg, s)?;
            values.insert(p.name.as_str(), v);
            positional += 1;
        }
        for p in &m.params {
            if !values.contains_key(p.name.as_str()) {
                if p.required {
                    self.error(
                        st,
                        Diag::error(
                            site,
                            format!("missing argument `{}` of macro `{}`", p.name, m.name),
                            "in this use",
                        )
                        .with_help(format!("`{}` is marked `:req`", p.name)),
                    );
                    return None;
                }
                values.insert(p.name.as_str(), p.default.clone().unwrap_or_default());
            }
        }
        Some(values)
    }

    pub(crate) fn expand_macro(&mut self, st: &Stmt, m: &Macro, head_index: usize) {
        let site = st.whole();
        if !self.count_expansion(st) {
            return;
        }
        if self.macro_depth >= MAX_MACRO_DEPTH {
            self.error(
                st,
                Diag::error(site, format!("macro `{}` nested too deeply", m.name), "expansion stopped here")
                    .with_help(format!("more than {MAX_MACRO_DEPTH} nested expansions: does the macro call itself without end?")),
            );
            self.stop_reading();
            return;
        }
        let Some(mut values) = self.macro_arguments(st, m, head_index) else {
            return;
        };
        let src = self.sh.sources.file(m.body_file).text.clone();
        let body = &src[m.body_start as usize..m.body_end as usize];
        if self.altmacro {
            // `LOCAL a, b`: each name a new `.LLnnnn` label (GNU's hex count,
            // across the whole assembly).
            for line in body.lines().filter(|l| is_local_line(l)) {
                for name in line.trim_start()[5..].split(',') {
                    let name = name.trim();
                    if !name.is_empty() {
                        self.sh.local_names += 1;
                        values.insert(name, format!(".LL{:04x}", self.sh.local_names));
                    }
                }
            }
        }
        let (text, segs) = Self::substitute(
            body,
            m.body_file,
            m.body_start,
            &values,
            self.expansions,
            self.altmacro,
        );
        if !self.count_expansion_bytes(st, text.len()) {
            return;
        }
        self.expansions += 1;
        let ctx = self.new_context(ContextKind::Macro(m.name.clone()), site, st.ctx);
        self.macro_depth += 1;
        self.push_virtual(format!("<macro {}>", m.name), text, segs, ctx, true);
    }

    pub(crate) fn rept(&mut self, st: &Stmt, head_span: Span, from: usize) {
        let count = self
            .parse_expr_operand(st, from)
            .and_then(|e| self.absolute(st, &e, "the repeat count"));
        let Some((a, b, _, _)) = self.collect_block(st, false) else {
            return;
        };
        let Some(count) = count else { return };
        if count <= 0 || a >= b {
            return;
        }
        let Some(top) = self.streams.last() else {
            return;
        };
        let (file, text, tokens, include_depth) = (
            top.file,
            top.text.clone(),
            top.tokens.clone(),
            top.include_depth,
        );
        let ctx = self.new_context(ContextKind::Rept, head_span, st.ctx);
        self.streams.push(Stream {
            file,
            text,
            tokens,
            pos: a,
            start: a,
            end: b,
            reps_left: count as u64 - 1,
            ctx,
            is_macro: false,
            include_depth,
            conds_at_start: self.conds.len(),
        });
    }

    pub(crate) fn irp(&mut self, st: &Stmt, head_span: Span, from: usize, per_char: bool) {
        let (raw, _) = st.raw_from(from);
        let raw = raw.to_string();
        let Some((_, _, body_start, body_end)) = self.collect_block(st, false) else {
            return;
        };
        let (sym, values_text) = match raw.split_once(',') {
            Some((s, v)) => (s.trim().to_string(), v.trim().to_string()),
            None => match raw.split_once(char::is_whitespace) {
                Some((s, v)) => (s.trim().to_string(), v.trim().to_string()),
                None => (raw.trim().to_string(), String::new()),
            },
        };
        if sym.is_empty() {
            self.error(
                st,
                Diag::error(head_span, "`.irp` needs a parameter name", "missing name"),
            );
            return;
        }
        let values: Vec<String> = if per_char {
            values_text.chars().map(|c| c.to_string()).collect()
        } else if values_text.is_empty() {
            vec![String::new()]
        } else {
            // A quoted value is the string inside its quotes, as a macro
            // argument is (GNU as strips them too).
            split_args(&values_text)
                .into_iter()
                .map(|(s, e)| unquote_arg(&values_text[s..e]))
                .collect()
        };
        let src = st.text.clone();
        let body = &src[body_start as usize..body_end as usize];
        let mut text = String::new();
        let mut segs = Vec::new();
        for v in values {
            let mut map = HashMap::new();
            map.insert(sym.as_str(), v);
            let (t, s) = Self::substitute(body, st.file, body_start, &map, self.expansions, false);
            // Checked as it grows: the values may be many.
            let left = self
                .sh
                .opts
                .max_expansion_bytes
                .saturating_sub(self.sh.expansion_bytes);
            if (text.len() + t.len()) as u64 > left {
                self.count_expansion_bytes(st, text.len() + t.len());
                return;
            }
            let shift = text.len() as u32;
            text.push_str(&t);
            segs.extend(s.into_iter().map(|mut seg| {
                seg.virt_start += shift;
                seg.virt_end += shift;
                seg
            }));
        }
        if text.is_empty()
            || !self.count_expansion(st)
            || !self.count_expansion_bytes(st, text.len())
        {
            return;
        }
        let ctx = self.new_context(ContextKind::Irp, head_span, st.ctx);
        self.push_virtual("<irp>".to_string(), text, segs, ctx, false);
    }

    // ---------------------------------------------------------------- includes

    pub(crate) fn find_file(&self, from_file: u32, name: &str) -> Option<PathBuf> {
        let p = PathBuf::from(name);
        if p.is_absolute() {
            return p.exists().then_some(p);
        }
        // The including file's directory (for a virtual file, that of the
        // real file it came from), then -I directories, then the current one.
        let mut f = from_file;
        while self.sh.sources.file(f).is_virtual() {
            f = self.sh.sources.file(f).segments[0].origin.file;
        }
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(d) = &self.sh.sources.file(f).dir {
            dirs.push(d.clone());
        }
        dirs.extend(self.sh.opts.include_dirs.iter().cloned());
        dirs.push(PathBuf::from("."));
        dirs.into_iter().map(|d| d.join(&p)).find(|c| c.exists())
    }

    pub(crate) fn not_found(&self, span: Span, name: &str) -> Diag {
        let dirs: Vec<String> = self
            .sh
            .opts
            .include_dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        Diag::error(span, format!("cannot find `{name}`"), "no such file").with_help(if dirs.is_empty() {
            "searched the including file's directory and the current directory; add directories with -I".to_string()
        } else {
            format!("searched the including file's directory, {}, and the current directory", dirs.join(", "))
        })
    }

    /// Reads the file a directive names in its first operand (`.include`,
    /// `.incbin`): found next to the including file, then in -I directories.
    /// Reports what is wrong and returns `None`.
    pub(crate) fn read_named_file(
        &mut self,
        st: &Stmt,
        ops: &[Operand],
        directive: &str,
        window: crate::files::FileWindow,
    ) -> Option<(String, PathBuf, Vec<u8>, Span)> {
        let Some(Operand::Str(s, e)) = ops.first() else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("`{directive}` needs a file name"),
                    "expected a string",
                ),
            );
            return None;
        };
        let span = st.span(*s, *e);
        let name = st.string_at(*s, *e);
        let Some(path) = self.find_file(st.file, &name) else {
            let d = self.not_found(span, &name);
            self.error(st, d);
            return None;
        };
        match (self.sh.read_file)(&path, window) {
            Ok(data) => Some((name, path, data, span)),
            Err(err) => {
                self.error(
                    st,
                    Diag::error(span, format!("cannot read `{name}`"), err.to_string()),
                );
                None
            }
        }
    }

    pub(crate) fn include(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let depth = self.streams.last().map_or(0, |s| s.include_depth) + 1;
        if depth > MAX_INCLUDE_DEPTH {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "includes nested too deeply",
                    "does the file include itself?",
                ),
            );
            return;
        }
        let Some((name, path, data, span)) =
            self.read_named_file(st, &ops, ".include", crate::files::FileWindow::WHOLE)
        else {
            return;
        };
        let Ok(text) = String::from_utf8(data) else {
            self.error(
                st,
                Diag::error(
                    span,
                    format!("`{name}` is not UTF-8 text"),
                    "cannot include",
                ),
            );
            return;
        };
        let file = self
            .sh
            .sources
            .add_real(path.display().to_string(), text.into());
        let ctx = self.new_context(ContextKind::Include, st.whole(), st.ctx);
        let stream = Stream::whole(&self.sh.sources, file, ctx, false, depth);
        self.streams.push(stream);
    }
}

impl Pass1<'_, '_> {
    /// The value of an alternate-mode `%expr` argument (`expr` written at
    /// byte `at` of the statement's file).
    fn alt_percent(&mut self, st: &Stmt, expr: &str, at: u32) -> Option<i64> {
        let tokens = crate::lexer::lex(expr);
        let lexed = tokens
            .iter()
            .filter(|t| t.kind != Kind::Newline)
            .map(|t| Ok((t.start + at, t.kind, t.end + at)));
        let e = match self.sh.expr_parser.parse(&st.text, lexed) {
            Ok(e) => e,
            Err(_) => {
                let span = st.span(at - 1, at + expr.len() as u32);
                self.error(
                    st,
                    Diag::error(span, "invalid expression after `%`", "not an expression"),
                );
                return None;
            }
        };
        self.absolute(st, &e, "the `%` argument")
    }
}

/// Whether `line` is an alternate-mode `LOCAL name, ...` line.
fn is_local_line(line: &str) -> bool {
    let t = line.trim_start();
    t.len() > 5 && t[..5].eq_ignore_ascii_case("local") && t.as_bytes()[5].is_ascii_whitespace()
}
