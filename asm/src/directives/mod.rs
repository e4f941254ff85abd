//! Directives: the one table from a directive's name to its handler, from
//! which dispatch, the list of conditional directives and the "did you mean"
//! help derive. Handlers live with their concern: sections, data, layout,
//! symbols, the compiler's bookkeeping, `.insn`, and (in `blocks`) macros,
//! repetition, conditionals and includes.

mod data;
mod insn;
mod layout;
mod meta;
mod reloc;
mod sections;
mod symbols;

pub(crate) use data::fixup_data;

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::ast::Operand;
use crate::diag::Diag;
use crate::lexer::{Kind, Token};
use crate::pass1::{Pass1, Stmt, nearest};
use crate::source::Span;

/// A directive statement as its handler sees it.
pub(crate) struct Call<'n> {
    /// The directive's name, lower case (`.word`).
    pub name: &'n str,
    /// Where the name is.
    pub head: Span,
    /// Index (in the statement) of the first token after the name.
    pub from: usize,
}

type Handler = fn(&mut Pass1<'_, '_>, &Stmt, &Call<'_>);

/// Whether a directive opens, continues or closes a conditional block (those
/// are read even where assembly is off).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Conditional,
    Other,
}

use Family::{Conditional, Other};

/// Every directive: name, family, handler.
#[rustfmt::skip]
const DIRECTIVES: &[(&str, Family, Handler)] = &[
    // sections
    (".text", Other, |p, st, c| p.plain_section(st, c)),
    (".data", Other, |p, st, c| p.plain_section(st, c)),
    (".bss", Other, |p, st, c| p.plain_section(st, c)),
    (".rodata", Other, |p, st, c| p.plain_section(st, c)),
    (".section", Other, |p, st, c| p.section_directive(st, c.name, c.head, c.from)),
    (".pushsection", Other, |p, st, c| p.section_directive(st, c.name, c.head, c.from)),
    (".popsection", Other, |p, st, c| p.pop_section(st, c)),
    (".previous", Other, |p, _, _| p.previous()),
    (".reloc", Other, |p, st, c| p.reloc_directive(st, c)),
    (".subsection", Other, |p, st, c| p.subsection_directive(st, c)),
    (".struct", Other, |p, st, c| p.struct_directive(st, c)),
    // data
    (".byte", Other, |p, st, c| p.data_values(st, c.from, 1)),
    (".half", Other, |p, st, c| p.data_values(st, c.from, 2)),
    (".short", Other, |p, st, c| p.data_values(st, c.from, 2)),
    (".2byte", Other, |p, st, c| p.data_values(st, c.from, 2)),
    (".word", Other, |p, st, c| p.data_values(st, c.from, 4)),
    (".long", Other, |p, st, c| p.data_values(st, c.from, 4)),
    (".int", Other, |p, st, c| p.data_values(st, c.from, 4)),
    (".4byte", Other, |p, st, c| p.data_values(st, c.from, 4)),
    (".dword", Other, |p, st, c| p.data_values(st, c.from, 8)),
    (".quad", Other, |p, st, c| p.data_values(st, c.from, 8)),
    (".8byte", Other, |p, st, c| p.data_values(st, c.from, 8)),
    (".hword", Other, |p, st, c| p.data_values(st, c.from, 2)),
    (".octa", Other, |p, st, c| p.data_values(st, c.from, 16)),
    (".dc", Other, |p, st, c| p.data_values(st, c.from, 2)),
    (".dc.b", Other, |p, st, c| p.data_values(st, c.from, 1)),
    (".dc.w", Other, |p, st, c| p.data_values(st, c.from, 2)),
    (".dc.l", Other, |p, st, c| p.data_values(st, c.from, 4)),
    (".dc.a", Other, |p, st, c| p.data_values(st, c.from, 4)),
    (".ds.b", Other, |p, st, c| p.ds(st, c.from, 1)),
    (".ds.w", Other, |p, st, c| p.ds(st, c.from, 2)),
    (".ds.l", Other, |p, st, c| p.ds(st, c.from, 4)),
    (".ascii", Other, |p, st, c| p.strings(st, c.from, false)),
    (".asciz", Other, |p, st, c| p.strings(st, c.from, true)),
    (".string", Other, |p, st, c| p.strings(st, c.from, true)),
    (".float", Other, |p, st, c| p.floats(st, c.from, false)),
    (".single", Other, |p, st, c| p.floats(st, c.from, false)),
    (".double", Other, |p, st, c| p.floats(st, c.from, true)),
    (".zero", Other, |p, st, c| p.space(st, c.from)),
    (".space", Other, |p, st, c| p.space(st, c.from)),
    (".skip", Other, |p, st, c| p.space(st, c.from)),
    (".fill", Other, |p, st, c| p.fill(st, c.from)),
    (".uleb128", Other, |p, st, c| p.leb128(st, c.from, false)),
    (".sleb128", Other, |p, st, c| p.leb128(st, c.from, true)),
    (".incbin", Other, |p, st, c| p.incbin(st, c.from)),
    (".insn", Other, |p, st, c| p.insn(st, c)),
    // layout
    (".align", Other, |p, st, c| p.align_directive(st, c.name, c.from)),
    (".p2align", Other, |p, st, c| p.align_directive(st, c.name, c.from)),
    (".p2alignw", Other, |p, st, c| p.align_directive(st, c.name, c.from)),
    (".p2alignl", Other, |p, st, c| p.align_directive(st, c.name, c.from)),
    (".balign", Other, |p, st, c| p.align_directive(st, c.name, c.from)),
    (".balignw", Other, |p, st, c| p.align_directive(st, c.name, c.from)),
    (".balignl", Other, |p, st, c| p.align_directive(st, c.name, c.from)),
    (".org", Other, |p, st, c| p.org_directive(st, c)),
    (".nops", Other, |p, st, c| p.nops(st, c)),
    // symbols
    (".globl", Other, |p, st, c| p.symbol_attributes(st, c.name, c.from)),
    (".global", Other, |p, st, c| p.symbol_attributes(st, c.name, c.from)),
    (".local", Other, |p, st, c| p.symbol_attributes(st, c.name, c.from)),
    (".weak", Other, |p, st, c| p.symbol_attributes(st, c.name, c.from)),
    (".hidden", Other, |p, st, c| p.symbol_attributes(st, c.name, c.from)),
    (".internal", Other, |p, st, c| p.symbol_attributes(st, c.name, c.from)),
    (".protected", Other, |p, st, c| p.symbol_attributes(st, c.name, c.from)),
    (".type", Other, |p, st, c| p.type_directive(st, c.from)),
    (".size", Other, |p, st, c| p.size_directive(st, c.from)),
    (".set", Other, |p, st, c| p.set_directive(st, c)),
    (".equ", Other, |p, st, c| p.set_directive(st, c)),
    (".equiv", Other, |p, st, c| p.set_directive(st, c)),
    (".eqv", Other, |p, st, c| p.set_directive(st, c)),
    (".comm", Other, |p, st, c| p.comm(st, c.name, c.from)),
    (".lcomm", Other, |p, st, c| p.comm(st, c.name, c.from)),
    (".tls_common", Other, |p, st, c| p.comm(st, c.name, c.from)),
    (".weakref", Other, |p, st, c| p.weakref(st, c)),
    (".symver", Other, |p, st, c| p.symver(st, c)),
    // macros and repetition
    (".macro", Other, |p, st, c| p.define_macro(st, c.from)),
    (".endm", Other, |p, st, c| p.unopened(st, c, "no macro is being defined", ".macro")),
    (".endmacro", Other, |p, st, c| p.unopened(st, c, "no macro is being defined", ".macro")),
    (".exitm", Other, |p, st, c| p.exit_macro(st, c)),
    (".purgem", Other, |p, st, c| p.purge_macro(st, c)),
    (".rept", Other, |p, st, c| p.rept(st, c.head, c.from)),
    (".irp", Other, |p, st, c| p.irp(st, c.head, c.from, false)),
    (".irpc", Other, |p, st, c| p.irp(st, c.head, c.from, true)),
    (".endr", Other, |p, st, c| p.unopened(st, c, "nothing to end", ".rept` or `.irp")),
    // conditionals
    (".if", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifdef", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifndef", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifnotdef", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifeq", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifne", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".iflt", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifle", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifgt", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifge", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifc", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifnc", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifeqs", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifnes", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifb", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".ifnb", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".else", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".elseif", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    (".endif", Conditional, |p, st, c| p.conditional(st, c.name, c.from)),
    // input and messages
    (".include", Other, |p, st, c| p.include(st, c.from)),
    (".err", Other, |p, st, c| p.error(st, Diag::error(c.head, "`.err` reached", "assembly fails here"))),
    (".error", Other, |p, st, c| p.message(st, c)),
    (".warning", Other, |p, st, c| p.message(st, c)),
    (".print", Other, |p, st, c| p.message(st, c)),
    (".end", Other, |p, _, _| p.stop_reading()),
    // the compiler's bookkeeping
    (".file", Other, |p, st, c| p.file_directive(st, c)),
    (".ident", Other, |p, st, c| p.ident(st, c)),
    (".attribute", Other, |p, st, c| p.attribute(st, c.head, c.from, false)),
    (".gnu_attribute", Other, |p, st, c| p.attribute(st, c.head, c.from, true)),
    (".option", Other, |p, st, c| p.option(st, c)),
    // Listing control: accepted without effect (we have `-l`).
    (".list", Other, |_, _, _| {}),
    (".nolist", Other, |_, _, _| {}),
    (".psize", Other, |_, _, _| {}),
    (".title", Other, |_, _, _| {}),
    (".sbttl", Other, |_, _, _| {}),
    (".eject", Other, |_, _, _| {}),
    // `.loc` rows make the line table (`dwarf`), `.cfi_*` the unwind
    // tables (`cfi`, dispatched below). Accepted for compatibility with
    // compiler output, without effect: these.
    (".loc", Other, |p, st, c| p.loc(st, c)),
    (".loc_mark_labels", Other, |_, _, _| {}),
    (".addrsig", Other, |_, _, _| {}),
    (".addrsig_sym", Other, |_, _, _| {}),
    (".variant_cc", Other, |_, _, _| {}),
    (".altmacro", Other, |p, _, _| p.altmacro = true),
    (".noaltmacro", Other, |p, _, _| p.altmacro = false),
];

fn handlers() -> &'static HashMap<&'static str, (Family, Handler)> {
    static MAP: OnceLock<HashMap<&'static str, (Family, Handler)>> = OnceLock::new();
    MAP.get_or_init(|| {
        DIRECTIVES
            .iter()
            .map(|&(name, family, handler)| (name, (family, handler)))
            .collect()
    })
}

/// Whether `name` (lower case) is one of the `.if` family, `.else` or `.endif`.
fn is_cond_directive(name: &str) -> bool {
    handlers()
        .get(name)
        .is_some_and(|(family, _)| *family == Conditional)
}

impl Pass1<'_, '_> {
    /// A statement where assembly is off: only a conditional directive is
    /// read (it may turn assembly back on); anything else is skipped.
    pub(crate) fn skipped_statement(&mut self, st: &Stmt) {
        let toks = st.tokens();
        if toks[0].kind == Kind::Ident {
            let name = st.tok_text(toks[0]).to_ascii_lowercase();
            if is_cond_directive(&name) {
                self.conditional(st, &name, 1);
            }
        }
    }
}

/// Every directive name, for suggestions.
pub(crate) fn directive_names() -> impl Iterator<Item = &'static str> {
    DIRECTIVES.iter().map(|(name, ..)| *name)
}

impl Pass1<'_, '_> {
    pub(crate) fn directive(&mut self, st: &Stmt, name: &str, head: Token, from: usize) {
        let call = Call {
            name,
            head: st.tok_span(head),
            from,
        };
        if let Some((_, handler)) = handlers().get(name) {
            handler(self, st, &call);
        } else if name.starts_with(".cfi_") {
            self.cfi_directive(st, &call);
        } else {
            let mut d = Diag::error(
                call.head,
                format!("unknown directive `{name}`"),
                "not a directive",
            );
            if let Some(near) = nearest(name, directive_names()) {
                d = d.with_help(format!("did you mean `{near}`?"));
            }
            self.error(st, d);
        }
    }

    fn plain_section(&mut self, st: &Stmt, c: &Call) {
        let sub = if c.from < st.tokens().len() {
            match self.subsection_number(st, c) {
                Some(k) => k,
                None => return,
            }
        } else {
            0
        };
        let before = self.cur;
        let prev = self.prev;
        self.switch_section(c.name, None, c.name == ".bss");
        if sub != 0 {
            self.switch_subsection(sub);
            self.prev = before;
            return;
        }
        if c.name == ".bss" {
            // GNU as's ELF `.bss` does not record the section it leaves:
            // `.data; .bss; .previous` returns to what preceded `.data`.
            self.prev = prev;
        }
    }

    /// `.subsection N`: subsection N of the current section.
    fn subsection_directive(&mut self, st: &Stmt, c: &Call) {
        if let Some(k) = self.subsection_number(st, c) {
            self.switch_subsection(k);
        }
    }

    /// The subsection number after a directive: 0..=8191, as GNU as takes.
    fn subsection_number(&mut self, st: &Stmt, c: &Call) -> Option<u32> {
        let e = self.parse_expr_operand(st, c.from)?;
        let v = self.absolute(st, &e, "the subsection number")?;
        if !(0..=8191).contains(&v) {
            self.error(
                st,
                Diag::error(
                    st.span(e.start, e.end),
                    format!("invalid subsection number {v}"),
                    "must be 0..=8191",
                ),
            );
            return None;
        }
        Some(v as u32)
    }

    /// `.previous`: back to the section before (the absolute section of
    /// `.struct` counts as one).
    fn previous(&mut self) {
        if let Some(at) = self.struct_at.take() {
            self.struct_prev = Some(at);
            self.cur = self.prev;
        } else if let Some(at) = self.struct_prev.take() {
            self.struct_at = Some(at);
            self.prev = self.cur;
        } else {
            std::mem::swap(&mut self.cur, &mut self.prev);
        }
    }

    /// `.struct OFFSET`: GNU as's absolute section from `OFFSET`, where
    /// labels are numbers (structure layouts: `.struct 0; a: .skip 4; b:`).
    fn struct_directive(&mut self, st: &Stmt, c: &Call) {
        let Some(ops) = self.parse_operands(st, c.from) else {
            return;
        };
        let at = match ops.first() {
            Some(Operand::Expr(e)) => match self.absolute(st, e, "the offset") {
                Some(v) => v,
                None => return,
            },
            _ => 0,
        };
        if self.struct_at.is_none() {
            self.prev = self.cur;
            self.struct_prev = None;
        }
        self.struct_at = Some(at);
    }

    fn pop_section(&mut self, st: &Stmt, c: &Call) {
        match self.section_stack.pop() {
            Some((cur, prev)) => {
                self.cur = cur;
                self.prev = prev;
            }
            None => self.error(
                st,
                Diag::error(
                    c.head,
                    "`.popsection` without `.pushsection`",
                    "nothing to pop",
                ),
            ),
        }
    }

    /// A closing directive without its opening one.
    fn unopened(&mut self, st: &Stmt, c: &Call, label: &str, opener: &str) {
        self.error(
            st,
            Diag::error(c.head, format!("`{}` without `{opener}`", c.name), label),
        );
    }

    /// `.exitm`: ends the innermost macro expansion, with the `.rept`/`.irp`
    /// bodies and conditionals opened inside it (GNU as).
    fn exit_macro(&mut self, st: &Stmt, c: &Call) {
        if let Some(k) = self.streams.iter().rposition(|s| s.is_macro) {
            self.streams.truncate(k + 1);
            let s = &mut self.streams[k];
            s.pos = s.end;
            s.reps_left = 0;
            let depth = s.conds_at_start;
            self.conds.truncate(depth);
        } else {
            self.error(
                st,
                Diag::error(
                    c.head,
                    "`.exitm` outside a macro",
                    "not in a macro expansion",
                ),
            );
        }
    }

    fn purge_macro(&mut self, st: &Stmt, c: &Call) {
        let (raw, s) = st.raw_from(c.from);
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

    /// `.error`, `.warning`, `.print`.
    fn message(&mut self, st: &Stmt, c: &Call) {
        let Some(ops) = self.parse_operands(st, c.from) else {
            return;
        };
        let msg = match ops.first() {
            Some(Operand::Str(s, e)) => st.string_at(*s, *e),
            _ => format!("{} reached", c.name),
        };
        let span = st.whole();
        match c.name {
            ".error" => self.error(st, Diag::error(span, msg, "`.error` here")),
            ".warning" => self.error(st, Diag::warning(span, msg, "`.warning` here")),
            _ => self.error(st, Diag::warning(span, msg, "`.print` here")),
        }
    }
}
