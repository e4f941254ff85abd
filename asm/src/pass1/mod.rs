//! The first pass over one input file: the token streams and the statement
//! loop (here), operand parsing (`parse`), symbols and evaluation
//! (`symbols`), section bytes and fixups (`emit`). Directives are in
//! `directives`, macros, repetition, conditionals and includes in `blocks`,
//! instructions in `instr`.
//!
//! Input arrives as a stack of token streams: the file, included files,
//! macro expansions (virtual files), `.rept` replays of a token range. Each
//! statement ends at a newline or `;`. Bytes go into the unit's sections at
//! once; values the first pass cannot know become fixups for the second.

mod cfi_state;
mod emit;
mod lines;
mod nesting;
mod parse;
pub(crate) mod relax;
mod subsections;
mod symbols;
mod text;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use crate::Options;
use crate::diag::Diag;
use crate::expr::{EvalWarning, Value};
use crate::grammar::{ExprParser, OperandsParser};
use crate::lexer::{Kind, Token, lex, unescape};
use crate::source::{Context, ContextKind, CtxId, SourceMap, Span};
use crate::unit::*;

pub(crate) use cfi_state::{CHUNK_BYTES, CfiState, Chunk, FRAG_HEADER, Fde, Insn, Point};
pub(crate) use emit::Built;
pub use lines::{FileEntry, LineState, Row};
pub(crate) use nesting::{Cond, Macro, Param};
pub use subsections::SubBases;
pub use symbols::display_name;
pub(crate) use symbols::eval_diag;
pub(crate) use text::*;

/// Deepest macro nesting.
pub(crate) const MAX_MACRO_DEPTH: u32 = 200;
/// Deepest `.include` nesting.
pub(crate) const MAX_INCLUDE_DEPTH: u32 = 64;
/// Most operators and parentheses in one expression (the depth of its
/// tree, which is evaluated recursively, is at most this).
pub(crate) const MAX_EXPR_OPERATORS: usize = 1000;

/// Reads (a window of) a file named by `.include` or `.incbin`.
pub type FileReader<'o> =
    dyn Fn(&std::path::Path, crate::files::FileWindow) -> std::io::Result<Vec<u8>> + 'o;

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
    /// Bytes of macro and `.irp` text expanded so far, bounded by
    /// [`Options::max_expansion_bytes`](crate::Options::max_expansion_bytes).
    pub(crate) expansion_bytes: u64,
    /// Bytes held by every unit's sections so far (zero-initialized ones
    /// excluded: they hold none), bounded by
    /// [`MAX_SECTION_BYTES`](crate::unit::MAX_SECTION_BYTES).
    pub(crate) stored_bytes: u64,
    /// Names made by `LOCAL` in alternate macro mode so far (GNU's count).
    pub(crate) local_names: u32,
    /// Read `.include`d and `.incbin`ed files through this (tests substitute it).
    pub read_file: Box<FileReader<'o>>,
}

/// How far a run had got, to assemble a file again from there (branch
/// relaxation reassembles a file with more branches long).
#[derive(Clone, Copy)]
pub struct Mark {
    diags: usize,
    contexts: usize,
    statements: u64,
    expansions_total: u64,
    expansion_bytes: u64,
    stored_bytes: u64,
    local_names: u32,
}

impl Shared<'_> {
    /// Where the run is now.
    pub fn mark(&self) -> Mark {
        Mark {
            diags: self.diags.len(),
            contexts: self.contexts.len(),
            statements: self.statements,
            expansions_total: self.expansions_total,
            expansion_bytes: self.expansion_bytes,
            stored_bytes: self.stored_bytes,
            local_names: self.local_names,
        }
    }

    /// Forgets what happened since `mark` (the source map keeps the texts
    /// read meanwhile: reading them again adds copies, nothing else).
    pub fn rewind(&mut self, mark: Mark) {
        self.diags.truncate(mark.diags);
        self.contexts.truncate(mark.contexts);
        self.statements = mark.statements;
        self.local_names = mark.local_names;
        self.expansions_total = mark.expansions_total;
        self.expansion_bytes = mark.expansion_bytes;
        self.stored_bytes = mark.stored_bytes;
    }
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
            local_names: 0,
            expansion_bytes: 0,
            stored_bytes: 0,
            read_file: Box::new(crate::files::read_window),
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
    /// Open conditionals when the stream began: `.exitm` closes those its
    /// macro opened.
    pub(crate) conds_at_start: usize,
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
            conds_at_start: 0,
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
    /// After `.struct`: the offset in GNU's absolute section, where labels
    /// are numbers and `.skip` only counts (`cur` stays the section before).
    pub(crate) struct_at: Option<i64>,
    /// The absolute section's offset when it is the previous section (for
    /// `.previous`).
    pub(crate) struct_prev: Option<i64>,
    pub(crate) section_stack: Vec<(usize, usize)>,
    pub(crate) local_counts: HashMap<u32, u32>,
    pub(crate) macros: HashMap<String, Rc<Macro>>,
    pub(crate) conds: Vec<Cond>,
    pub(crate) streams: Vec<Stream>,
    pub(crate) macro_depth: u32,
    pub(crate) expansions: u32,
    /// GNU's alternate macro mode (`.altmacro` ... `.noaltmacro`).
    pub(crate) altmacro: bool,
    /// Warnings of evaluations in the current statement, reported once each
    /// when it ends (an operand may be evaluated against several table rows).
    pub(crate) eval_warnings: Vec<(u32, EvalWarning)>,
    /// Branch relaxation (see `relax`): the conditional branches, by
    /// ordinal in the file, written long (an inverted branch over a `jal`).
    pub(crate) long_branches: std::collections::HashSet<u32>,
    /// Where each numbered subsection starts (from the previous round).
    pub sub_bases: SubBases,
    /// The numbered subsections so far: section, number, the index of the
    /// section they are assembled in until the end of the file.
    pub(crate) subsections: Vec<(usize, u32, usize)>,
    /// `.reloc`s so far (their order is kept).
    pub(crate) hand_relocs: u32,
    /// Conditional branches seen so far in this pass.
    pub(crate) branch_ordinal: u32,
    /// Short branches whose target was not known when written: checked at
    /// the end of the pass.
    pub(crate) branch_checks: Vec<relax::BranchCheck>,
    /// `.option relax` state (GNU as's default: on) and its `.option push` stack.
    pub(crate) relax: bool,
    /// `.option pic` (gcc -fPIC): `la` loads the address from the GOT.
    pub(crate) pic: bool,
    pub(crate) option_stack: Vec<(bool, bool)>,
    /// `.eqv` symbols and their expressions, put in place of the name at
    /// each use (so `.` in them is the use's location, as GNU as does).
    pub(crate) eqv: HashMap<Box<str>, crate::ast::Expr>,
    /// `.weakref` targets, and whether the file also names them directly
    /// (then they stay strong references, as in GNU as).
    pub(crate) weakref_targets: HashMap<Box<str>, bool>,
    /// `.file N` entries and `.loc` rows for the line table (`dwarf`).
    pub(crate) lines: LineState,
    /// `.cfi_*` procedures for the unwind tables (`cfi`).
    pub(crate) cfi: CfiState,
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
        if sh.opts.relocatable {
            // GNU as's objects start with these three.
            for (name, class) in [(".data", SectionClass::Data), (".bss", SectionClass::Bss)] {
                unit.section_index
                    .insert(name.to_string(), unit.sections.len());
                unit.sections.push(Section::new(name, class));
            }
        }
        // Tells sources (the GNU as macros of `scmp_insn.s`) that this
        // assembler knows the SCMP mnemonics; never in a symbol table.
        let mut known = Symbol::undefined();
        known.def = SymDef::Value(Value::Abs(1));
        unit.symbols
            .insert(isa_spec::gnu::SCMP_AS_SYMBOL.into(), known);
        for (name, value) in &sh.opts.defsyms {
            let mut sym = Symbol::undefined();
            sym.def = SymDef::Value(Value::Abs(*value));
            sym.redefinable = true;
            unit.symbols.insert(name.as_str().into(), sym);
        }
        let relax = sh.opts.relax;
        Pass1 {
            sh,
            unit,
            cur: 0,
            prev: 0,
            struct_at: None,
            struct_prev: None,
            section_stack: Vec::new(),
            local_counts: HashMap::new(),
            macros: HashMap::new(),
            conds: Vec::new(),
            streams: vec![stream],
            macro_depth: 0,
            expansions: 0,
            altmacro: false,
            eval_warnings: Vec::new(),
            long_branches: Default::default(),
            sub_bases: SubBases::new(),
            subsections: Vec::new(),
            hand_relocs: 0,
            branch_ordinal: 0,
            branch_checks: Vec::new(),
            relax,
            pic: false,
            option_stack: Vec::new(),
            eqv: HashMap::new(),
            weakref_targets: HashMap::new(),
            lines: LineState {
                is_stmt: true,
                ..Default::default()
            },
            cfi: Default::default(),
        }
    }

    /// Runs the pass to the end of the file.
    pub fn run(self) -> Unit {
        self.run_relaxing().0
    }

    /// Runs the pass with the conditional branches `long` written long (and
    /// subsections at `sub_bases`), and returns the unit, the further
    /// branches that must be long and the subsections' bases when they
    /// changed (neither: the unit is final).
    pub fn run_relaxing(mut self) -> (Unit, Vec<u32>, Option<SubBases>) {
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
            self.report_eval_warnings(&st);
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
        self.unit.relax_at_end = self.relax;
        if let Some(bases) = self.merge_subsections() {
            return (self.unit, Vec::new(), Some(bases));
        }
        // `.weakref` targets named only through their aliases and defined
        // nowhere here are weak references.
        for (target, direct) in std::mem::take(&mut self.weakref_targets) {
            let s = self.symbol_mut(&target);
            if !direct && !s.is_defined() && s.binding == Binding::Local {
                s.binding = Binding::Weak;
            }
        }
        let more = self.branches_to_lengthen();
        if more.is_empty() {
            self.finish_line_table();
            self.finish_cfi();
        }
        // After the line table: its sequences end at the code's end, before
        // this padding, as GNU's do.
        for i in 0..self.unit.sections.len() {
            let s = &self.unit.sections[i];
            if s.class.is_code() && !s.size.is_multiple_of(s.align as u64) {
                let pad = s.align as u64 - s.size % s.align as u64;
                self.cur = i;
                // An object's code ends in zeros, as GNU as pads it, or in
                // nops when relaxation is off at the end of the file (GNU as
                // fills its code alignments by the final `.option`).
                let fill = (self.sh.opts.relocatable && self.relax).then_some(0);
                self.pad(None, pad, fill, 1);
            }
        }
        (self.unit, more, None)
    }

    pub(crate) fn error(&mut self, st: &Stmt, mut d: Diag) {
        d.ctx = st.ctx;
        self.sh.diags.push(d);
        let max = self.sh.opts.max_errors.max(1);
        if self.sh.diags.len() == max {
            let span = st.whole();
            self.sh.diags.push(Diag {
                ctx: st.ctx,
                ..Diag::error(
                    span,
                    "too many errors",
                    "assembly of this file stopped here",
                )
                .with_help(format!("{max} diagnostics reported; fix these first"))
            });
            self.stop_reading();
        }
    }

    fn report_eval_warnings(&mut self, st: &Stmt) {
        let warnings = std::mem::take(&mut self.eval_warnings);
        let mut seen = Vec::new();
        for (file, w) in warnings {
            if seen.contains(&(file, w.start, w.end, w.message.clone())) {
                continue;
            }
            seen.push((file, w.start, w.end, w.message.clone()));
            let span = Span {
                file,
                start: w.start,
                end: w.end,
            };
            self.error(st, Diag::warning(span, w.message, w.label));
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
            self.skipped_statement(st);
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
}
