//! The first pass over one input file: statements, labels, conditionals,
//! macros, repetition, includes and directives.
//!
//! Input arrives as a stack of token streams: the file, included files,
//! macro expansions (virtual files), `.rept` replays of a token range. Each
//! statement ends at a newline or `;`. Bytes go into the unit's sections at
//! once; values the first pass cannot know become fixups for the second.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use crate::Options;
use crate::ast::{Expr, ExprKind, Operand};
use crate::diag::Diag;
use crate::expr::{EvalError, Resolver, Value, eval};
use crate::grammar::{ExprParser, OperandsParser};
use crate::lexer::{Kind, Token, lex, unescape};
use crate::source::{Context, ContextKind, CtxId, Segment, SourceMap, Span};
use crate::unit::*;

/// Most diagnostics reported before the pass gives up on a file.
const MAX_DIAGNOSTICS: usize = 1000;
/// Deepest macro nesting.
const MAX_MACRO_DEPTH: u32 = 200;
/// Deepest `.include` nesting.
const MAX_INCLUDE_DEPTH: u32 = 64;
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
    operands_parser: OperandsParser,
    expr_parser: ExprParser,
    statements: u64,
    expansions_total: u64,
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

struct Stream {
    file: u32,
    text: Arc<str>,
    tokens: Rc<[Token]>,
    pos: usize,
    start: usize,
    end: usize,
    reps_left: u64,
    ctx: CtxId,
    is_macro: bool,
    include_depth: u32,
}

#[derive(Debug)]
struct Param {
    name: String,
    default: Option<String>,
    required: bool,
    vararg: bool,
}

#[derive(Debug)]
struct Macro {
    name: String,
    params: Vec<Param>,
    body_file: u32,
    body_start: u32,
    body_end: u32,
}

struct Cond {
    active: bool,
    taken: bool,
    parent_active: bool,
    else_seen: bool,
    span: Span,
    ctx: CtxId,
}

/// The first pass over one input file.
pub struct Pass1<'s, 'o> {
    pub(crate) sh: &'s mut Shared<'o>,
    /// What has been assembled so far.
    pub unit: Unit,
    pub(crate) cur: usize,
    prev: usize,
    section_stack: Vec<(usize, usize)>,
    local_counts: HashMap<u32, u32>,
    macros: HashMap<String, Rc<Macro>>,
    conds: Vec<Cond>,
    streams: Vec<Stream>,
    macro_depth: u32,
    expansions: u32,
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

fn split_top_level(text: &str, sep: char) -> Vec<(usize, usize)> {
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

fn trim_range(text: &str, (s, e): (usize, usize)) -> (usize, usize) {
    let piece = &text[s..e];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    (s + lead, (e - trail).max(s + lead))
}

/// Splits macro-style arguments: by top-level commas, or by white space when
/// there is no comma. Returns trimmed byte ranges.
fn split_args(text: &str) -> Vec<(usize, usize)> {
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

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}

/// Directive names the assembler knows, for suggestions.
const DIRECTIVES: &[&str] = &[
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

fn is_cond_directive(name: &str) -> bool {
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
        let text = sh.sources.file(file).text.clone();
        let tokens: Rc<[Token]> = lex(&text).into();
        let end = tokens.len();
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
            streams: vec![Stream {
                file,
                text,
                tokens,
                pos: 0,
                start: 0,
                end,
                reps_left: 0,
                ctx: 0,
                is_macro: false,
                include_depth: 0,
            }],
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

    fn next_statement(&mut self) -> Option<Stmt> {
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

    fn assembling(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    fn statement(&mut self, st: &Stmt) {
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

    fn parse_error(
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
    fn lower_operands(&mut self, st: &Stmt, ops: &mut [Operand]) -> bool {
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
    fn lower_locals(&self, st: &Stmt, e: &mut Expr) -> Result<(), Diag> {
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

    fn define_label(&mut self, st: &Stmt, tok: Token) {
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

    fn assign(
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

    fn symbol_mut(&mut self, name: &str) -> &mut Symbol {
        self.unit
            .symbols
            .entry(name.into())
            .or_insert_with(Symbol::undefined)
    }

    // ---------------------------------------------------------------- sections

    pub(crate) fn section_size(&self) -> u64 {
        self.unit.sections[self.cur].size
    }

    fn switch_section(&mut self, name: &str, flags: Option<&str>, nobits: bool) -> usize {
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
    fn pad(&mut self, count: u64, fill: Option<i64>, width: usize) {
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

    fn align_to(
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

    fn org(&mut self, st: &Stmt, e: &Expr, fill: Option<i64>) {
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

    // -------------------------------------------------------------- directives

    fn directive(&mut self, st: &Stmt, name: &str, head: Token, from: usize) {
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
            ".include" => self.include(st, head_span, from),
            ".err" => self.error(
                st,
                Diag::error(head_span, "`.err` reached", "assembly fails here"),
            ),
            ".error" | ".warning" | ".print" => {
                let Some(ops) = self.parse_operands(st, from) else {
                    return;
                };
                let msg = match ops.first() {
                    Some(Operand::Str(s, e)) => String::from_utf8_lossy(&unescape(
                        &st.text[*s as usize + 1..*e as usize - 1],
                    ))
                    .into_owned(),
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
                    let body = &st.text[t.start as usize + 1..t.end as usize - 1];
                    self.unit.file_name =
                        Some(String::from_utf8_lossy(&unescape(body)).into_owned());
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
                    self.unit.idents.push(
                        String::from_utf8_lossy(&unescape(
                            &st.text[*s as usize + 1..*e as usize - 1],
                        ))
                        .into_owned(),
                    );
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

    fn section_directive(&mut self, st: &Stmt, directive: &str, head_span: Span, from: usize) {
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

    fn data_values(&mut self, st: &Stmt, from: usize, size: u8) {
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

    fn strings(&mut self, st: &Stmt, from: usize, nul: bool) {
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

    fn floats(&mut self, st: &Stmt, from: usize, double: bool) {
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

    fn space(&mut self, st: &Stmt, from: usize, zero_only: bool) {
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

    fn fill(&mut self, st: &Stmt, from: usize) {
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

    fn leb128(&mut self, st: &Stmt, from: usize, signed: bool) {
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

    fn incbin(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let Some(Operand::Str(s, e)) = ops.first() else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(span, "`.incbin` needs a file name", "expected a string"),
            );
            return;
        };
        let (s, e) = (*s, *e);
        let name = String::from_utf8_lossy(&unescape(&st.text[s as usize + 1..e as usize - 1]))
            .into_owned();
        let Some(path) = self.find_file(st.file, &name) else {
            let d = self.not_found(st.span(s, e), &name);
            self.error(st, d);
            return;
        };
        let data = match (self.sh.read_file)(&path) {
            Ok(d) => d,
            Err(err) => {
                self.error(
                    st,
                    Diag::error(
                        st.span(s, e),
                        format!("cannot read `{name}`"),
                        err.to_string(),
                    ),
                );
                return;
            }
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
        self.emit(st, &data[skip..skip + count], st.span(s, e));
    }

    fn align_directive(&mut self, st: &Stmt, name: &str, from: usize) {
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

    fn symbol_attributes(&mut self, st: &Stmt, name: &str, from: usize) {
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

    fn type_directive(&mut self, st: &Stmt, from: usize) {
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

    fn size_directive(&mut self, st: &Stmt, from: usize) {
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

    fn comm(&mut self, st: &Stmt, name: &str, from: usize) {
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

    fn attribute(&mut self, st: &Stmt, head_span: Span, from: usize) {
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
            Operand::Str(s, e) => AttrValue::Str(
                String::from_utf8_lossy(&unescape(&st.text[*s as usize + 1..*e as usize - 1]))
                    .into_owned(),
            ),
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

    // ------------------------------------------------------------ conditionals

    fn conditional(&mut self, st: &Stmt, name: &str, from: usize) {
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

    fn condition_value(&mut self, st: &Stmt, name: &str, from: usize) -> Option<bool> {
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
    fn collect_block(&mut self, st: &Stmt, macro_block: bool) -> Option<(usize, usize, u32, u32)> {
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

    fn define_macro(&mut self, st: &Stmt, from: usize) {
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
                Some((d, v)) => (d.trim(), Some(v.trim().to_string())),
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
    /// the segment map of the result.
    fn substitute(
        body: &str,
        body_file: u32,
        body_start: u32,
        values: &HashMap<&str, String>,
        counter: u32,
    ) -> (String, Vec<Segment>) {
        let mut out = String::with_capacity(body.len() + 16);
        let mut segs: Vec<Segment> = Vec::new();
        let bytes = body.as_bytes();
        let mut lit_start = 0usize;
        let mut i = 0usize;
        let push_lit = |out: &mut String, segs: &mut Vec<Segment>, from: usize, to: usize| {
            if to > from {
                let vs = out.len() as u32;
                out.push_str(&body[from..to]);
                segs.push(Segment {
                    virt_start: vs,
                    virt_end: out.len() as u32,
                    origin: Span {
                        file: body_file,
                        start: body_start + from as u32,
                        end: body_start + to as u32,
                    },
                    literal: true,
                });
            }
        };
        while i < bytes.len() {
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
                match values.get(ident) {
                    Some(v) => (Some(v.clone()), j - i),
                    None => (None, 1),
                }
            };
            match replacement {
                Some(r) => {
                    push_lit(&mut out, &mut segs, lit_start, i);
                    let vs = out.len() as u32;
                    out.push_str(&r);
                    segs.push(Segment {
                        virt_start: vs,
                        virt_end: out.len() as u32,
                        origin: Span {
                            file: body_file,
                            start: body_start + i as u32,
                            end: body_start + (i + len) as u32,
                        },
                        literal: false,
                    });
                    i += len;
                    lit_start = i;
                }
                None => i += len,
            }
        }
        push_lit(&mut out, &mut segs, lit_start, bytes.len());
        if !out.ends_with('\n') {
            let vs = out.len() as u32;
            out.push('\n');
            segs.push(Segment {
                virt_start: vs,
                virt_end: out.len() as u32,
                origin: Span {
                    file: body_file,
                    start: body_start + body.len() as u32,
                    end: body_start + body.len() as u32,
                },
                literal: false,
            });
        }
        (out, segs)
    }

    fn push_virtual(
        &mut self,
        name: String,
        text: String,
        segs: Vec<Segment>,
        ctx: CtxId,
        is_macro: bool,
    ) {
        let file = self.sh.sources.add_virtual(name, text, segs);
        let text = self.sh.sources.file(file).text.clone();
        let tokens: Rc<[Token]> = lex(&text).into();
        let end = tokens.len();
        let include_depth = self.streams.last().map_or(0, |s| s.include_depth);
        self.streams.push(Stream {
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
        });
    }

    fn new_context(&mut self, kind: ContextKind, site: Span, parent: CtxId) -> CtxId {
        self.sh.contexts.push(Context { kind, site, parent });
        self.sh.contexts.len() as CtxId - 1
    }

    /// Counts an expansion; past the limit, reports it and stops reading
    /// this input file (every later expansion would fail the same way).
    fn count_expansion(&mut self, st: &Stmt) -> bool {
        self.sh.expansions_total += 1;
        let max = self.sh.opts.max_expansions;
        if self.sh.expansions_total <= max {
            return true;
        }
        let span = st.whole();
        self.error(
            st,
            Diag::error(span, "too many macro expansions", "assembly stopped here").with_help(format!(
                "more than {max} expansions: does a macro use itself more than once, growing without end?"
            )),
        );
        self.stop_reading();
        false
    }

    /// Ends the pass over this input file: a runaway expansion or too many
    /// errors (what follows would only repeat them).
    fn stop_reading(&mut self) {
        while let Some(s) = self.streams.pop() {
            if s.is_macro {
                self.macro_depth -= 1;
            }
        }
    }

    fn expand_macro(&mut self, st: &Stmt, m: &Macro, head_index: usize) {
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
        let (raw, base) = st.raw_from(head_index + 1);
        let raw = raw.to_string();
        let mut values: HashMap<&str, String> = HashMap::new();
        let mut positional = 0usize;
        let args = split_args(&raw);
        for (k, &(s, e)) in args.iter().enumerate() {
            let arg = &raw[s..e];
            if let Some((kw, v)) = arg.split_once('=')
                && let Some(p) = m.params.iter().find(|p| p.name == kw.trim())
            {
                values.insert(p.name.as_str(), v.trim().to_string());
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
                return;
            };
            if p.vararg {
                let rest: Vec<&str> = args[k..].iter().map(|&(s, e)| &raw[s..e]).collect();
                values.insert(p.name.as_str(), rest.join(", "));
                break;
            }
            values.insert(p.name.as_str(), arg.to_string());
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
                    return;
                }
                values.insert(p.name.as_str(), p.default.clone().unwrap_or_default());
            }
        }
        let src = self.sh.sources.file(m.body_file).text.clone();
        let body = &src[m.body_start as usize..m.body_end as usize];
        let (text, segs) =
            Self::substitute(body, m.body_file, m.body_start, &values, self.expansions);
        self.expansions += 1;
        let ctx = self.new_context(ContextKind::Macro(m.name.clone()), site, st.ctx);
        self.macro_depth += 1;
        self.push_virtual(format!("<macro {}>", m.name), text, segs, ctx, true);
    }

    fn rept(&mut self, st: &Stmt, head_span: Span, from: usize) {
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
        });
    }

    fn irp(&mut self, st: &Stmt, head_span: Span, from: usize, per_char: bool) {
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
            split_args(&values_text)
                .into_iter()
                .map(|(s, e)| values_text[s..e].to_string())
                .collect()
        };
        let src = st.text.clone();
        let body = &src[body_start as usize..body_end as usize];
        let mut text = String::new();
        let mut segs = Vec::new();
        for v in values {
            let mut map = HashMap::new();
            map.insert(sym.as_str(), v);
            let (t, s) = Self::substitute(body, st.file, body_start, &map, self.expansions);
            let shift = text.len() as u32;
            text.push_str(&t);
            segs.extend(s.into_iter().map(|mut seg| {
                seg.virt_start += shift;
                seg.virt_end += shift;
                seg
            }));
        }
        if text.is_empty() || !self.count_expansion(st) {
            return;
        }
        let ctx = self.new_context(ContextKind::Irp, head_span, st.ctx);
        self.push_virtual("<irp>".to_string(), text, segs, ctx, false);
    }

    // ---------------------------------------------------------------- includes

    fn find_file(&self, from_file: u32, name: &str) -> Option<PathBuf> {
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

    fn not_found(&self, span: Span, name: &str) -> Diag {
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

    fn include(&mut self, st: &Stmt, head_span: Span, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let Some(Operand::Str(s, e)) = ops.first() else {
            self.error(
                st,
                Diag::error(
                    head_span,
                    "`.include` needs a file name",
                    "expected a string",
                ),
            );
            return;
        };
        let (s, e) = (*s, *e);
        let name = String::from_utf8_lossy(&unescape(&st.text[s as usize + 1..e as usize - 1]))
            .into_owned();
        let depth = self.streams.last().map_or(0, |s| s.include_depth) + 1;
        if depth > MAX_INCLUDE_DEPTH {
            self.error(
                st,
                Diag::error(
                    st.span(s, e),
                    "includes nested too deeply",
                    "does the file include itself?",
                ),
            );
            return;
        }
        let Some(path) = self.find_file(st.file, &name) else {
            let d = self.not_found(st.span(s, e), &name);
            self.error(st, d);
            return;
        };
        let text = match (self.sh.read_file)(&path).map(String::from_utf8) {
            Ok(Ok(t)) => t,
            Ok(Err(_)) => {
                self.error(
                    st,
                    Diag::error(
                        st.span(s, e),
                        format!("`{name}` is not UTF-8 text"),
                        "cannot include",
                    ),
                );
                return;
            }
            Err(err) => {
                self.error(
                    st,
                    Diag::error(
                        st.span(s, e),
                        format!("cannot read `{name}`"),
                        err.to_string(),
                    ),
                );
                return;
            }
        };
        let file = self
            .sh
            .sources
            .add_real(path.display().to_string(), text.into());
        let ctx = self.new_context(ContextKind::Include, st.whole(), st.ctx);
        let text = self.sh.sources.file(file).text.clone();
        let tokens: Rc<[Token]> = lex(&text).into();
        let end = tokens.len();
        self.streams.push(Stream {
            file,
            text,
            tokens,
            pos: 0,
            start: 0,
            end,
            reps_left: 0,
            ctx,
            is_macro: false,
            include_depth: depth,
        });
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
