//! Diagnostics: collected during assembly, rendered with miette at the end.
//!
//! Every diagnostic has a primary span (resolved to real text when it lies in
//! a macro expansion) with a label, an optional help line, notes at other
//! places, and the chain of includes and expansions it came through.

use std::fmt;
use std::sync::Arc;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

use crate::source::{Context, ContextKind, CtxId, SourceMap, Span};

/// How bad it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The assembly fails.
    Error,
    /// Reported; the assembly goes on.
    Warning,
}

/// One diagnostic.
#[derive(Clone, Debug)]
pub struct Diag {
    /// Error or warning.
    pub severity: Severity,
    /// Lower case, no final period, names what was found.
    pub message: String,
    /// Where.
    pub span: Span,
    /// The label under the span.
    pub label: String,
    /// A hint on how to fix it.
    pub help: Option<String>,
    /// Other places worth showing, with their labels.
    pub notes: Vec<(Span, String)>,
    /// The includes and expansions the statement came through.
    pub ctx: CtxId,
}

impl Diag {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            notes: Vec::new(),
            ctx: 0,
        }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Warning,
            ..Diag::error(span, message, label)
        }
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diag {
        self.help = Some(help.into());
        self
    }

    /// Adds a note at another place.
    pub fn with_note(mut self, span: Span, label: impl Into<String>) -> Diag {
        self.notes.push((span, label.into()));
        self
    }
}

/// A miette view of one diagnostic (or one of its notes).
#[derive(Debug)]
struct Report {
    message: String,
    severity: miette::Severity,
    source: FileView,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    related: Vec<Report>,
}

/// One source file as miette reads it. miette finds a span's lines by
/// scanning the text from its start, and would need the text copied for
/// each diagnostic: here it scans only a window of whole lines around the
/// span, found with the file's line index, and the line numbers are moved
/// back (a file with thousands of errors renders in time linear in their
/// number, not in their number times the file's size). The window has a
/// line more each side than miette shows, so that what it shows is the
/// same; a text with a lone carriage return (which miette counts as a line
/// break and the index does not) is read whole.
#[derive(Debug)]
struct FileView {
    sources: Arc<SourceMap>,
    /// `None`: no source (a note without a place).
    file: Option<u32>,
}

impl SourceCode for FileView {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let Some(file) = self.file else {
            return "".read_span(span, before, after);
        };
        let f = self.sources.file(file);
        let text: &'a str = &f.text;
        let whole = || -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
            let c = text.read_span(span, before, after)?;
            Ok(Box::new(MietteSpanContents::new_named(
                f.name.clone(),
                c.data(),
                *c.span(),
                c.line(),
                c.column(),
                c.line_count(),
            )))
        };
        if f.has_cr() {
            return whole();
        }
        let (start, end) = (span.offset(), span.offset() + span.len());
        let first = self
            .sources
            .line_of(file, start.min(u32::MAX as usize) as u32)
            .saturating_sub(before + 1);
        let last = self
            .sources
            .line_of(file, end.min(u32::MAX as usize) as u32);
        let from = self.sources.line_start(file, first);
        let to = self.sources.line_start(file, last + after + 2);
        if start < from || end > to {
            return whole();
        }
        let window = &text[from..to];
        let c = window.read_span(
            &SourceSpan::new((start - from).into(), span.len()),
            before,
            after,
        )?;
        Ok(Box::new(MietteSpanContents::new_named(
            f.name.clone(),
            c.data(),
            SourceSpan::new((c.span().offset() + from).into(), c.span().len()),
            c.line() + first,
            c.column(),
            c.line_count() + first,
        )))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl Diagnostic for Report {
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
        }
    }
}

fn note(sources: &Arc<SourceMap>, span: Span, message: String, label: String) -> Report {
    let span = sources.resolve(span);
    Report {
        message,
        severity: miette::Severity::Advice,
        source: FileView {
            sources: sources.clone(),
            file: Some(span.file),
        },
        labels: vec![LabeledSpan::new_with_span(
            Some(label),
            (span.start as usize, (span.end - span.start) as usize),
        )],
        help: None,
        related: Vec::new(),
    }
}

/// A line of advice under a report, pointing at no source.
fn advice(sources: &Arc<SourceMap>, message: String) -> Report {
    Report {
        message,
        severity: miette::Severity::Advice,
        source: FileView {
            sources: sources.clone(),
            file: None,
        },
        labels: Vec::new(),
        help: None,
        related: Vec::new(),
    }
}

fn report(sources: &Arc<SourceMap>, contexts: &[Context], diag: &Diag) -> Report {
    let span = sources.resolve(diag.span);
    let mut related: Vec<Report> = diag
        .notes
        .iter()
        .map(|(s, l)| note(sources, *s, "note".to_string(), l.clone()))
        .collect();
    let mut chain = Vec::new();
    let mut ctx = diag.ctx;
    // Contexts form a chain towards the root (0); each step moves to a parent
    // created earlier, so the walk ends.
    while ctx != 0 {
        let c = &contexts[ctx as usize];
        if matches!(c.kind, ContextKind::Root) {
            break;
        }
        chain.push(c);
        ctx = c.parent;
    }
    // A deep chain (a recursive macro) shows its two innermost levels, how
    // many were left out, and the outermost.
    const SHOWN: usize = 2;
    let elided = chain.len().saturating_sub(SHOWN + 1);
    for (i, c) in chain.iter().enumerate() {
        if elided > 0 && i == SHOWN {
            related.push(advice(
                sources,
                format!("... {elided} more levels of expansion ..."),
            ));
        }
        if elided > 0 && i >= SHOWN && i + 1 < chain.len() {
            continue;
        }
        let (message, label) = match &c.kind {
            ContextKind::Macro(name) => {
                (format!("in expansion of macro `{name}`"), "expanded here")
            }
            ContextKind::Include => ("in an included file".to_string(), "included here"),
            ContextKind::Rept => ("in a `.rept` body".to_string(), "repeated here"),
            ContextKind::Irp => ("in an `.irp` body".to_string(), "expanded here"),
            ContextKind::Root => unreachable!("the walk stops at the root"),
        };
        related.push(note(sources, c.site, message, label.to_string()));
    }
    if let Some(at) = sources.marked_location(diag.span) {
        related.push(advice(
            sources,
            format!("at {at} (the compiler's line marker)"),
        ));
    }
    Report {
        message: diag.message.clone(),
        severity: match diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        },
        source: FileView {
            sources: sources.clone(),
            file: Some(span.file),
        },
        labels: vec![LabeledSpan::new_primary_with_span(
            Some(diag.label.clone()),
            (span.start as usize, (span.end - span.start) as usize),
        )],
        help: diag.help.clone(),
        related,
    }
}

/// Diagnostics of a run, with the sources they point into.
#[derive(Clone)]
pub struct Diagnostics {
    /// Every diagnostic, in the order found.
    pub list: Vec<Diag>,
    /// Errors without a source position (an input file that cannot be
    /// read), rendered as one `error:` line each.
    pub plain: Vec<String>,
    sources: Arc<SourceMap>,
    contexts: Arc<Vec<Context>>,
}

impl fmt::Debug for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Diagnostics")
            .field("list", &self.list)
            .field("plain", &self.plain)
            .finish()
    }
}

impl Diagnostics {
    /// The diagnostics of a run. One that repeats another exactly (the
    /// same message at the same place, as when an operand is evaluated for
    /// two instructions of an expansion) is kept once.
    pub(crate) fn new(
        mut list: Vec<Diag>,
        sources: Arc<SourceMap>,
        contexts: Arc<Vec<Context>>,
    ) -> Self {
        let mut seen = std::collections::HashSet::new();
        list.retain(|d| {
            seen.insert((
                d.severity == Severity::Error,
                d.span,
                d.ctx,
                d.message.clone(),
                d.label.clone(),
            ))
        });
        Diagnostics {
            list,
            plain: Vec::new(),
            sources,
            contexts,
        }
    }

    /// Errors without a source position (such as unreadable input files).
    pub fn plain(messages: Vec<String>) -> Self {
        Diagnostics {
            list: Vec::new(),
            plain: messages,
            sources: Arc::new(SourceMap::default()),
            contexts: Arc::new(Vec::new()),
        }
    }

    /// Number of errors (warnings excluded).
    pub fn error_count(&self) -> usize {
        self.plain.len()
            + self
                .list
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count()
    }

    /// `file:line:col` of a diagnostic's primary span.
    pub fn location(&self, diag: &Diag) -> String {
        self.sources.location(diag.span)
    }

    /// Renders every diagnostic; `color` for a terminal, plain otherwise.
    pub fn render(&self, color: bool) -> String {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
        let mut out: String = self.plain.iter().map(|m| format!("error: {m}\n")).collect();
        for diag in &self.list {
            let r = report(&self.sources, &self.contexts, diag);
            // Writing into a String cannot fail.
            let _ = handler.render_report(&mut out, &r);
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;
    use miette::NamedSource;
    use proptest::prelude::*;

    proptest! {
        /// The window gives miette exactly what it reads from the whole
        /// text: the same lines, span, line, column and line count, for
        /// any span and number of context lines.
        #[test]
        fn window_reads_as_the_whole_text(
            text in "([a-z ;]{0,7}\n?){0,40}|([a-z ;]{0,7}(\n|\r\n|\r)?){0,20}",
            at in 0usize..400,
            len in 0usize..30,
            before in 0usize..4,
            after in 0usize..4,
        ) {
            let mut map = SourceMap::default();
            let file = map.add_real("t.s".to_string(), Arc::from(text.as_str()));
            let view = FileView { sources: Arc::new(map), file: Some(file) };
            let whole = NamedSource::new("t.s", text.clone());
            let start = at.min(text.len());
            let span = SourceSpan::new(start.into(), len.min(text.len() - start));
            let (a, b) = (view.read_span(&span, before, after), whole.read_span(&span, before, after));
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    prop_assert_eq!(a.data(), b.data());
                    prop_assert_eq!(a.span(), b.span());
                    prop_assert_eq!((a.line(), a.column(), a.line_count()), (b.line(), b.column(), b.line_count()));
                    prop_assert_eq!(a.name(), b.name());
                }
                (a, b) => prop_assert_eq!(a.is_ok(), b.is_ok()),
            }
        }
    }
}
