//! The first pass over one input file: the statement loop, labels, symbol
//! assignment, operand parsing, and the section bytes and fixups statements
//! produce. Directives are in `directives`, macros, repetition, conditionals
//! and includes in `blocks`, instructions in `instr`.
//!
//! Input arrives as a stack of token streams: the file, included files,
//! macro expansions (virtual files), `.rept` replays of a token range. Each
//! statement ends at a newline or `;`. Bytes go into the unit's sections at
//! once; values the first pass cannot know become fixups for the second.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use crate::Options;
use crate::ast::{Expr, ExprKind, Operand};
use crate::blocks::{Cond, Macro};
use crate::diag::Diag;
use crate::expr::{EvalError, Resolver, Value, eval};
use crate::grammar::{ExprParser, OperandsParser};
use crate::lexer::{Kind, Token, lex, unescape};
use crate::source::{Context, ContextKind, CtxId, SourceMap, Span};
use crate::unit::*;

/// Most diagnostics reported before the pass gives up on a file.
pub(crate) const MAX_DIAGNOSTICS: usize = 1000;
/// Deepest macro nesting.
pub(crate) const MAX_MACRO_DEPTH: u32 = 200;
/// Deepest `.include` nesting.
pub(crate) const MAX_INCLUDE_DEPTH: u32 = 64;
/// Largest section, in bytes.
pub(crate) const MAX_SECTION_BYTES: u64 = 1 << 28;

/// Reads a file named by `.include` or `.incbin`.
pub type FileReader<'o> = dyn Fn(&std::path::Path) -> std::io::Result<Vec<u8>> + 'o;

/// State shared by every unit of a run.
pub struct Shared<'o> {
    /// Options.
    pub opts: &'o Options,
    /// Every source text.
    pub sources: SourceMap,
    /// Include and expansion chains.
    pub contexts: Vec<Context>,
    /// Diagnostics so far.
    pub diags: Vec<Diag>,
    pub(crate) operands_parser: OperandsParser,
    pub(crate) expr_parser: ExprParser,
    pub(crate) statements: u64,
    pub(crate) expansions_total: u64,
    /// Read `.include`d and `.incbin`ed files through this (tests substitute it).
    pub read_file: Box<FileReader<'o>>,
}

impl<'o> Shared<'o> {
    /// Shared state for a run.
    pub fn new(opts: &'o Options) -> Shared<'o> {
        Shared {
            opts,
            sources: SourceMap::default(),
            contexts: vec![Context {
                kind: ContextKind::Root,
                site: Span::default(),
                parent: 0,
            }],
            diags: Vec::new(),
            operands_parser: OperandsParser::new(),
            expr_parser: ExprParser::new(),
            statements: 0,
            expansions_total: 0,
            read_file: Box::new(|p| std::fs::read(p)),
        }
    }
}

/// A statement: a token range of a stream.
#[derive(Clone)]
pub(crate) struct Stmt {
    pub file: u32,
    pub text: Arc<str>,
    pub toks: Rc<[Token]>,
    /// First token.
    pub a: usize,
    /// One past the last token (the terminator is not included).
    pub b: usize,
    pub ctx: CtxId,
}

impl Stmt {
    pub fn tokens(&self) -> &[Token] {
        &self.toks[self.a..self.b]
    }
    pub fn tok_text(&self, t: Token) -> &str {
        &self.text[t.start as usize..t.end as usize]
    }
    pub fn span(&self, start: u32, end: u32) -> Span {
        Span {
            file: self.file,
            start,
            end,
        }
    }
    pub fn tok_span(&self, t: Token) -> Span {
        self.span(t.start, t.end)
    }
    /// Span of the whole statement.
    pub fn whole(&self) -> Span {
        let t = self.tokens();
        match (t.first(), t.last()) {
            (Some(f), Some(l)) => self.span(f.start, l.end),
            _ => self.span(0, 0),
        }
    }
    /// The contents of the string literal at `start..end` (quotes included
    /// in the range), escapes decoded, invalid UTF-8 replaced.
    pub fn string_at(&self, start: u32, end: u32) -> String {
        let body = &self.text[start as usize + 1..(end as usize - 1).max(start as usize + 1)];
        String::from_utf8_lossy(&unescape(body)).into_owned()
    }

    /// Text of tokens `from..` of the statement (relative index), without
    /// the trailing comment.
    pub fn raw_from(&self, from: usize) -> (&str, u32) {
        let t = self.tokens();
        if from >= t.len() {
            let end = t.last().map_or(0, |l| l.end);
            return ("", end);
        }
        let s = t[from].start;
        let e = t[t.len() - 1].end;
        (&self.text[s as usize..e as usize], s)
    }
}

pub(crate) struct Stream {
    pub(crate) file: u32,
    pub(crate) text: Arc<str>,
    pub(crate) tokens: Rc<[Token]>,
    pub(crate) pos: usize,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) reps_left: u64,
    pub(crate) ctx: CtxId,
    pub(crate) is_macro: bool,
    pub(crate) include_depth: u32,
}

impl Stream {
    /// A stream over all of `file`'s text.
    pub(crate) fn whole(
        sources: &SourceMap,
        file: u32,
        ctx: CtxId,
        is_macro: bool,
        include_depth: u32,
    ) -> Stream {
        let text = sources.file(file).text.clone();
        let tokens: Rc<[Token]> = lex(&text).into();
        let end = tokens.len();
        Stream {
            file,
            text,
            tokens,
            pos: 0,
            start: 0,
            end,
            reps_left: 0,
            ctx,
            is_macro,
            include_depth,
        }
    }
}

/// The first pass over one input file.
pub struct Pass1<'s, 'o> {
    pub(crate) sh: &'s mut Shared<'o>,
    /// What has been assembled so far.
    pub unit: Unit,
    pub(crate) cur: usize,
    pub(crate) prev: usize,
    pub(crate) section_stack: Vec<(usize, usize)>,
    pub(crate) local_counts: HashMap<u32, u32>,
    pub(crate) macros: HashMap<String, Rc<Macro>>,
    pub(crate) conds: Vec<Cond>,
    pub(crate) streams: Vec<Stream>,
    pub(crate) macro_depth: u32,
    pub(crate) expansions: u32,
}

/// First-pass symbol resolution in a unit.
pub(crate) struct UnitResolver<'u> {
    pub unit: &'u mut Unit,
    pub cur: usize,
    pub file: u32,
}

impl Resolver for UnitResolver<'_> {
    fn symbol(&mut self, name: &str, start: u32, end: u32) -> Result<Value, EvalError> {
        if name == "." {
            return Ok(Value::Rel {
                section: self.cur,
                offset: self.unit.sections[self.cur].size as i64,
            });
        }
        let span = Span {
            file: self.file,
            start,
            end,
        };
        let sym = self
            .unit
            .symbols
            .entry(name.into())
            .or_insert_with(Symbol::undefined);
        if sym.first_use.is_none() {
            sym.first_use = Some(span);
        }
        match &sym.def {
            SymDef::Value(v) => Ok(*v),
            _ => Err(EvalError::Defer(Some(name.to_string()), start, end)),
        }
    }
}

/// Turns a first-pass evaluation error into a diagnostic.
pub(crate) fn eval_diag(file: u32, e: EvalError, what: &str) -> Diag {
    match e {
        EvalError::Invalid(msg, label, s, en) => Diag::error(
            Span {
                file,
                start: s,
                end: en,
            },
            msg,
            label,
        ),
        EvalError::Defer(Some(name), s, en) => Diag::error(
            Span {
                file,
                start: s,
                end: en,
            },
            format!("{what} must be known at this point"),
            format!("`{}` is not defined yet", display_name(&name)),
        )
        .with_help("define the symbol before this line"),
        EvalError::Defer(None, s, en) => Diag::error(
            Span {
                file,
                start: s,
                end: en,
            },
            format!("{what} must be known at this point"),
            "depends on addresses the assembler knows only at the end",
        ),
    }
}

/// A symbol name as the user wrote it (numeric local labels shown as `N`).
pub fn display_name(name: &str) -> String {
    match name.split_once('\u{2}') {
        Some((n, _)) => format!("{n} (local label)"),
        None => name.to_string(),
    }
}

pub(crate) fn split_top_level(text: &str, sep: char) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut in_str = false;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if in_str {
            if c == '\\' {
                i += 1;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth -= 1;
        } else if c == sep && depth <= 0 {
            parts.push((start, i));
            start = i + 1;
        }
        i += 1;
    }
    parts.push((start, text.len()));
    parts
}

pub(crate) fn trim_range(text: &str, (s, e): (usize, usize)) -> (usize, usize) {
    let piece = &text[s..e];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    (s + lead, (e - trail).max(s + lead))
}

/// Splits macro-style arguments: by top-level commas, or by white space when
/// there is no comma. Returns trimmed byte ranges.
pub(crate) fn split_args(text: &str) -> Vec<(usize, usize)> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    let by_comma = split_top_level(text, ',');
    if by_comma.len() > 1 {
        return by_comma.into_iter().map(|r| trim_range(text, r)).collect();
    }
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut in_str = false;
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if in_str {
            if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                start.get_or_insert(i);
            }
            '(' => {
                depth += 1;
                start.get_or_insert(i);
            }
            ')' => depth -= 1,
            c if c.is_whitespace() && depth <= 0 => {
                if let Some(s) = start.take() {
                    parts.push((s, i));
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = start {
        parts.push((s, text.len()));
    }
    parts
}

pub(crate) fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}

pub(crate) fn is_cond_directive(name: &str) -> bool {
    matches!(
        name,
        ".if"
            | ".ifdef"
            | ".ifndef"
            | ".ifnotdef"
            | ".ifeq"
            | ".ifne"
            | ".iflt"
            | ".ifle"
            | ".ifgt"
            | ".ifge"
            | ".ifc"
            | ".ifnc"
            | ".ifeqs"
            | ".ifnes"
            | ".ifb"
            | ".ifnb"
            | ".else"
            | ".elseif"
            | ".endif"
    )
}

/// The nearest name to `name` among `candidates`, if close enough.
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|(d, c)| *d <= 2.max(name.len() / 3) && *d < c.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

impl<'s, 'o> Pass1<'s, 'o> {
    /// A first pass over input file `file` (already in the source map).
    pub fn new(sh: &'s mut Shared<'o>, file: u32) -> Self {
        let stream = Stream::whole(&sh.sources, file, 0, false, 0);
        let mut unit = Unit {
            file,
            ..Unit::default()
        };
        unit.sections
            .push(Section::new(".text", SectionClass::Text));
        unit.section_index.insert(".text".to_string(), 0);
        for (name, value) in &sh.opts.defsyms {
            let mut sym = Symbol::undefined();
            sym.def = SymDef::Value(Value::Abs(*value));
            sym.redefinable = true;
            unit.symbols.insert(name.as_str().into(), sym);
        }
        Pass1 {
            sh,
            unit,
            cur: 0,
            prev: 0,
            section_stack: Vec::new(),
            local_counts: HashMap::new(),
            macros: HashMap::new(),
            conds: Vec::new(),
            streams: vec![stream],
            macro_depth: 0,
            expansions: 0,
        }
    }

    /// Runs the pass to the end of the file.
    pub fn run(mut self) -> Unit {
        while let Some(st) = self.next_statement() {
            self.sh.statements += 1;
            let max = self.sh.opts.max_statements;
            if self.sh.statements > max {
                let span = st.whole();
                self.error(
                    &st,
                    Diag::error(span, "too many statements", "assembly stopped here")
                        .with_help(format!(
                            "more than {max} statements: a runaway `.rept` count or a macro that never stops expanding?"
                        )),
                );
                break;
            }
            let before = (self.cur, self.unit.sections[self.cur].size);
            self.statement(&st);
            if self.sh.opts.listing && !st.tokens().is_empty() {
                let (sec, start) = before;
                let end = if sec == self.cur {
                    self.unit.sections[sec].size
                } else {
                    start
                };
                self.unit.listing.push(ListEntry {
                    span: st.whole(),
                    section: sec,
                    start,
                    end,
                    ctx: st.ctx,
                });
            }
        }
        while let Some(c) = self.conds.pop() {
            self.sh.diags.push(
                Diag {
                    ctx: c.ctx,
                    ..Diag::error(
                        c.span,
                        "conditional is never closed",
                        "this `.if` has no `.endif`",
                    )
                }
                .with_help("add `.endif`"),
            );
        }
        for i in 0..self.unit.sections.len() {
            let s = &self.unit.sections[i];
            if s.class.is_code() && !s.size.is_multiple_of(s.align as u64) {
                let pad = s.align as u64 - s.size % s.align as u64;
                self.cur = i;
                self.pad(pad, None, 1);
            }
        }
        self.unit
    }

    pub(crate) fn error(&mut self, st: &Stmt, mut d: Diag) {
        d.ctx = st.ctx;
        self.sh.diags.push(d);
        if self.sh.diags.len() == MAX_DIAGNOSTICS {
            let span = st.whole();
            self.sh.diags.push(Diag {
                ctx: st.ctx,
                ..Diag::error(
                    span,
                    "too many errors",
                    "assembly of this file stopped here",
                )
                .with_help(format!(
                    "{MAX_DIAGNOSTICS} diagnostics reported; fix these first"
                ))
            });
            self.stop_reading();
        }
    }

    pub(crate) fn next_statement(&mut self) -> Option<Stmt> {
        loop {
            let s = self.streams.last_mut()?;
            if s.pos >= s.end {
                if s.reps_left > 0 {
                    s.reps_left -= 1;
                    s.pos = s.start;
                    continue;
                }
                let s = self.streams.pop()?;
                if s.is_macro {
                    self.macro_depth -= 1;
                }
                continue;
            }
            let a = s.pos;
            let mut b = a;
            while b < s.end && !matches!(s.tokens[b].kind, Kind::Newline | Kind::Semi) {
                b += 1;
            }
            s.pos = if b < s.end { b + 1 } else { b };
            return Some(Stmt {
                file: s.file,
                text: s.text.clone(),
                toks: s.tokens.clone(),
                a,
                b,
                ctx: s.ctx,
            });
        }
    }

    pub(crate) fn assembling(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    pub(crate) fn statement(&mut self, st: &Stmt) {
        let toks = st.tokens();
        if toks.is_empty() {
            return;
        }
        if !self.assembling() {
            if toks[0].kind == Kind::Ident {
                let name = st.tok_text(toks[0]).to_ascii_lowercase();
                if is_cond_directive(&name) {
                    self.conditional(st, &name, 1);
                }
            }
            return;
        }
        let mut i = 0;
        while i + 1 < toks.len()
            && toks[i + 1].kind == Kind::Colon
            && matches!(toks[i].kind, Kind::Ident | Kind::Int)
        {
            self.define_label(st, toks[i]);
            i += 2;
        }
        if i >= toks.len() {
            return;
        }
        let head = toks[i];
        if head.kind != Kind::Ident {
            let span = st.tok_span(head);
            let found = st.tok_text(head).to_string();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("expected an instruction or directive, found `{found}`"),
                    "not a mnemonic",
                ),
            );
            return;
        }
        let name = st.tok_text(head);
        if i + 1 < toks.len() && toks[i + 1].kind == Kind::Assign {
            let ops = self.parse_expr_operand(st, i + 2);
            if let Some(expr) = ops {
                self.assign(st, name, st.tok_span(head), expr, true, false);
            }
            return;
        }
        if !self.macros.is_empty()
            && let Some(m) = self.macros.get(name).cloned()
        {
            self.expand_macro(st, &m, i);
            return;
        }
        // Mnemonics and directives are case-insensitive, as in GNU as.
        let lower: std::borrow::Cow<str> = if name.bytes().any(|b| b.is_ascii_uppercase()) {
            name.to_ascii_lowercase().into()
        } else {
            name.into()
        };
        if lower.starts_with('.') {
            self.directive(st, &lower, head, i + 1);
        } else {
            self.instruction(st, &lower, head, i + 1);
        }
    }

    // ------------------------------------------------------------------ parsing

    /// Parses the statement's tokens from `from` as a comma-separated operand
    /// list, with local label references resolved.
    pub(crate) fn parse_operands(&mut self, st: &Stmt, from: usize) -> Option<Vec<Operand>> {
        let toks = st.tokens();
        if from >= toks.len() {
            return Some(Vec::new());
        }
        if let Some(mut ops) = crate::fastparse::simple_operands(&toks[from..], &st.text) {
            return self.lower_operands(st, &mut ops).then_some(ops);
        }
        let text = st.text.clone();
        let iter = toks[from..].iter().map(|t| {
            if t.kind == Kind::Error {
                Err(crate::ast::ParseIssue {
                    message: format!(
                        "unexpected character `{}`",
                        &text[t.start as usize..t.end as usize]
                    ),
                    start: t.start,
                    end: t.end,
                })
            } else {
                Ok((t.start, t.kind, t.end))
            }
        });
        match self.sh.operands_parser.parse(&st.text, iter) {
            Ok(mut ops) => self.lower_operands(st, &mut ops).then_some(ops),
            Err(e) => {
                let d = self.parse_error(st, e);
                self.error(st, d);
                None
            }
        }
    }

    pub(crate) fn parse_error(
        &self,
        st: &Stmt,
        e: lalrpop_util::ParseError<u32, Kind, crate::ast::ParseIssue>,
    ) -> Diag {
        use lalrpop_util::ParseError::*;
        let expected_text = |expected: &[String]| {
            let names: Vec<String> = expected
                .iter()
                .map(|e| match e.trim_matches('"') {
                    "ident" => "a name".to_string(),
                    "int" => "a number".to_string(),
                    "str" => "a string".to_string(),
                    "localref" => "a local label reference".to_string(),
                    "char" => "a character".to_string(),
                    other => format!("`{other}`"),
                })
                .collect();
            if names.iter().any(|n| n == "a name") && names.iter().any(|n| n == "a number") {
                "expected a value: a number, a symbol, a register or `(`".to_string()
            } else if names.len() > 6 {
                "expected an operand or an operator".to_string()
            } else {
                format!("expected {}", names.join(", "))
            }
        };
        match e {
            UnrecognizedToken {
                token: (s, _, en),
                expected,
            } => {
                let found = &st.text[s as usize..en as usize];
                Diag::error(
                    st.span(s, en),
                    format!("unexpected `{found}`"),
                    expected_text(&expected),
                )
            }
            UnrecognizedEof { location, expected } => Diag::error(
                st.span(location, location),
                "unexpected end of statement",
                expected_text(&expected),
            ),
            InvalidToken { location } => Diag::error(
                st.span(location, location + 1),
                "invalid token",
                "not understood",
            ),
            ExtraToken { token: (s, _, en) } => {
                let found = &st.text[s as usize..en as usize];
                Diag::error(
                    st.span(s, en),
                    format!("unexpected `{found}`"),
                    "extra token",
                )
            }
            User { error } => Diag::error(st.span(error.start, error.end), error.message, "here"),
        }
    }

    /// Parses tokens from `from` as one expression.
    pub(crate) fn parse_expr_operand(&mut self, st: &Stmt, from: usize) -> Option<Expr> {
        let toks = st.tokens();
        if from >= toks.len() {
            let at = toks.last().map_or(0, |t| t.end);
            self.error(
                st,
                Diag::error(
                    st.span(at, at),
                    "missing expression",
                    "expected an expression here",
                ),
            );
            return None;
        }
        let iter: Vec<_> = toks[from..]
            .iter()
            .map(|t| Ok((t.start, t.kind, t.end)))
            .collect();
        match self.sh.expr_parser.parse(&st.text, iter) {
            Ok(mut e) => match self.lower_locals(st, &mut e) {
                Ok(()) => Some(e),
                Err(d) => {
                    self.error(st, d);
                    None
                }
            },
            Err(e) => {
                let d = self.parse_error(st, e);
                self.error(st, d);
                None
            }
        }
    }

    /// Resolves local label references in operands; false after an error.
    pub(crate) fn lower_operands(&mut self, st: &Stmt, ops: &mut [Operand]) -> bool {
        let mut ok = true;
        for op in ops {
            let result = match op {
                Operand::Expr(e) => self.lower_locals(st, e),
                Operand::Mem { offset, base, .. } => self
                    .lower_locals(st, offset)
                    .and_then(|()| self.lower_locals(st, base)),
                _ => Ok(()),
            };
            if let Err(d) = result {
                self.error(st, d);
                ok = false;
            }
        }
        ok
    }

    /// Replaces `Nb`/`Nf` with the names of the label definitions they mean.
    pub(crate) fn lower_locals(&self, st: &Stmt, e: &mut Expr) -> Result<(), Diag> {
        match &mut e.kind {
            ExprKind::Local { label, forward } => {
                let count = self.local_counts.get(label).copied().unwrap_or(0);
                let n = if *forward {
                    count
                } else if count == 0 {
                    return Err(Diag::error(
                        st.span(e.start, e.end),
                        format!("no local label `{label}:` before this reference"),
                        format!("`{label}b` refers backwards"),
                    )
                    .with_help(format!("use `{label}f` for a label that comes later")));
                } else {
                    count - 1
                };
                e.kind = ExprKind::Sym(local_label_name(*label, n).into());
                Ok(())
            }
            ExprKind::Paren(inner) | ExprKind::Unary(_, inner) | ExprKind::Reloc(_, inner) => {
                self.lower_locals(st, inner)
            }
            ExprKind::Binary(_, a, b) => {
                self.lower_locals(st, a)?;
                self.lower_locals(st, b)
            }
            ExprKind::Int(_) | ExprKind::Sym(_) => Ok(()),
        }
    }

    /// Evaluates in the first pass.
    pub(crate) fn eval1(&mut self, st: &Stmt, e: &Expr) -> Result<Value, EvalError> {
        let mut r = UnitResolver {
            unit: &mut self.unit,
            cur: self.cur,
            file: st.file,
        };
        eval(e, &mut r)
    }

    /// Evaluates to a number now, or reports why not.
    pub(crate) fn absolute(&mut self, st: &Stmt, e: &Expr, what: &str) -> Option<i64> {
        match self.eval1(st, e) {
            Ok(Value::Abs(v)) => Some(v),
            Ok(Value::Rel { .. }) => {
                let d = Diag::error(
                    st.span(e.start, e.end),
                    format!("{what} must be a number"),
                    "this is an address",
                );
                self.error(st, d);
                None
            }
            Err(err) => {
                let d = eval_diag(st.file, err, what);
                self.error(st, d);
                None
            }
        }
    }

    // ----------------------------------------------------------------- symbols

    pub(crate) fn define_label(&mut self, st: &Stmt, tok: Token) {
        let span = st.tok_span(tok);
        let name: Box<str> = if tok.kind == Kind::Int {
            let text = st.tok_text(tok);
            let Ok(n) = text.parse::<u32>() else {
                let d = Diag::error(
                    span,
                    format!("invalid local label `{text}`"),
                    "not a label number",
                );
                self.error(st, d);
                return;
            };
            let count = self.local_counts.entry(n).or_insert(0);
            let name = local_label_name(n, *count);
            *count += 1;
            name.into()
        } else {
            st.tok_text(tok).into()
        };
        let value = Value::Rel {
            section: self.cur,
            offset: self.unit.sections[self.cur].size as i64,
        };
        let sym = self
            .unit
            .symbols
            .entry(name.clone())
            .or_insert_with(Symbol::undefined);
        if sym.is_defined() {
            let first = sym.def_span;
            let mut d = Diag::error(
                span,
                format!("symbol `{}` is already defined", display_name(&name)),
                "defined again here",
            );
            if let Some(f) = first {
                d = d.with_note(f, "first defined here");
            }
            self.error(st, d);
            return;
        }
        sym.def = SymDef::Value(value);
        sym.def_span = Some(span);
        sym.is_label = true;
    }

    pub(crate) fn assign(
        &mut self,
        st: &Stmt,
        name: &str,
        span: Span,
        expr: Expr,
        redefinable: bool,
        equiv: bool,
    ) {
        if name == "." {
            // `. = expr` moves the location counter like `.org`.
            self.org(st, &expr, None);
            return;
        }
        let value = self.eval1(st, &expr);
        let def = match value {
            Ok(v) => SymDef::Value(v),
            Err(EvalError::Defer(..)) => SymDef::Deferred(
                Box::new(expr),
                st.file,
                self.cur,
                self.unit.sections[self.cur].size,
            ),
            Err(e) => {
                let d = eval_diag(st.file, e, "the value");
                self.error(st, d);
                return;
            }
        };
        let sym = self
            .unit
            .symbols
            .entry(name.into())
            .or_insert_with(Symbol::undefined);
        if sym.is_defined() && (equiv || sym.is_label || !sym.redefinable) {
            let first = sym.def_span;
            let mut d = Diag::error(
                span,
                format!("symbol `{name}` is already defined"),
                "defined again here",
            );
            if let Some(f) = first {
                d = d.with_note(f, "first defined here");
            }
            if !sym.is_label && !equiv {
                d = d.with_help("`.set` and `=` may redefine a symbol that `.set` or `=` defined");
            }
            self.error(st, d);
            return;
        }
        sym.def = def;
        sym.def_span = Some(span);
        sym.redefinable = redefinable;
    }

    pub(crate) fn symbol_mut(&mut self, name: &str) -> &mut Symbol {
        self.unit
            .symbols
            .entry(name.into())
            .or_insert_with(Symbol::undefined)
    }

    // ---------------------------------------------------------------- sections

    pub(crate) fn section_size(&self) -> u64 {
        self.unit.sections[self.cur].size
    }

    pub(crate) fn switch_section(
        &mut self,
        name: &str,
        flags: Option<&str>,
        nobits: bool,
    ) -> usize {
        let idx = match self.unit.section_index.get(name) {
            Some(&i) => i,
            None => {
                let class = SectionClass::classify(name, flags, nobits);
                self.unit.sections.push(Section::new(name, class));
                let i = self.unit.sections.len() - 1;
                self.unit.section_index.insert(name.to_string(), i);
                i
            }
        };
        if idx != self.cur {
            self.prev = self.cur;
            self.cur = idx;
        }
        idx
    }

    /// Appends bytes to the current section.
    pub(crate) fn emit(&mut self, st: &Stmt, bytes: &[u8], span: Span) {
        let sec = &mut self.unit.sections[self.cur];
        if sec.size + bytes.len() as u64 > MAX_SECTION_BYTES {
            let name = sec.name.clone();
            self.error(
                st,
                Diag::error(
                    span,
                    format!("section `{name}` is too large"),
                    "exceeds 256 MiB here",
                ),
            );
            return;
        }
        if sec.class == SectionClass::Bss {
            if bytes.iter().any(|b| *b != 0) {
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
            sec.size += bytes.len() as u64;
        } else {
            sec.data.extend_from_slice(bytes);
            sec.size = sec.data.len() as u64;
        }
    }

    pub(crate) fn add_fixup(&mut self, st: &Stmt, kind: FixKind, expr: Expr, offset: u64) {
        let span = st.span(expr.start, expr.end);
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
        });
    }

    /// Adds `count` bytes of padding: `fill` bytes, or the section's default
    /// (nops in code: a zero byte, a 2-byte `0x0001`, then 4-byte `nop`s, as
    /// GNU as pads), with a fill pattern `width` bytes wide.
    pub(crate) fn pad(&mut self, count: u64, fill: Option<i64>, width: usize) {
        if count == 0 {
            return;
        }
        let sec = &mut self.unit.sections[self.cur];
        if sec.class == SectionClass::Bss {
            sec.size += count;
            return;
        }
        let mut bytes = Vec::with_capacity(count as usize);
        match fill {
            Some(v) => {
                let pattern = v.to_le_bytes();
                for i in 0..count as usize {
                    bytes.push(pattern[i % width]);
                }
            }
            None if sec.class.is_code() => {
                let mut left = count;
                let mut at = sec.size;
                if at % 2 == 1 && left > 0 {
                    bytes.push(0);
                    left -= 1;
                    at += 1;
                }
                if at % 4 == 2 && left >= 2 {
                    bytes.extend_from_slice(&[1, 0]);
                    left -= 2;
                }
                while left >= 4 {
                    bytes.extend_from_slice(&0x0000_0013u32.to_le_bytes());
                    left -= 4;
                }
                bytes.resize(bytes.len() + left as usize, 0);
            }
            None => bytes.resize(count as usize, 0),
        }
        sec.data.extend_from_slice(&bytes);
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
        let size = self.section_size();
        let pad = (bytes - size % bytes) % bytes;
        if let Some(m) = max
            && pad as i64 > m
        {
            return;
        }
        let sec = &mut self.unit.sections[self.cur];
        sec.align = sec.align.max(bytes as u32);
        self.pad(pad, fill, width);
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
        self.pad((target - size) as u64, Some(fill.unwrap_or(0)), 1);
    }
}
