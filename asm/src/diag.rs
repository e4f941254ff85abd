//! Diagnostics: collected during assembly, rendered with miette at the end.
//!
//! Every diagnostic has a primary span (resolved to real text when it lies in
//! a macro expansion) with a label, an optional help line, notes at other
//! places, and the chain of includes and expansions it came through.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

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
    source: NamedSource<String>,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    related: Vec<Report>,
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

fn note(sources: &SourceMap, span: Span, message: String, label: String) -> Report {
    let span = sources.resolve(span);
    let file = sources.file(span.file);
    Report {
        message,
        severity: miette::Severity::Advice,
        source: NamedSource::new(file.name.clone(), file.text.to_string()),
        labels: vec![LabeledSpan::new_with_span(
            Some(label),
            (span.start as usize, (span.end - span.start) as usize),
        )],
        help: None,
        related: Vec::new(),
    }
}

fn report(sources: &SourceMap, contexts: &[Context], diag: &Diag) -> Report {
    let span = sources.resolve(diag.span);
    let file = sources.file(span.file);
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
            related.push(Report {
                message: format!("... {elided} more levels of expansion ..."),
                severity: miette::Severity::Advice,
                source: NamedSource::new(String::new(), String::new()),
                labels: Vec::new(),
                help: None,
                related: Vec::new(),
            });
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
    Report {
        message: diag.message.clone(),
        severity: match diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        },
        source: NamedSource::new(file.name.clone(), file.text.to_string()),
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
