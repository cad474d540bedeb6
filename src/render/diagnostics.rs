//! Human rendering of diagnostics with miette: file, line, column and a labelled snippet.
//!
//! This is the only place that knows miette. A diagnostic's labels in the primary file are
//! drawn in one snippet; labels in other files are attached as related reports, each with its
//! own snippet. Output width is fixed so the text is the same on every terminal.

use crate::diag::{Diagnostic, Severity};
use crate::render::snippet::Snippet;
use crate::source::{SourceId, SourceMap};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};
use rayon::prelude::*;
use std::fmt;

/// Width diagnostics are wrapped at.
const WIDTH: usize = 100;

struct Report<'a> {
    code: &'static str,
    severity: miette::Severity,
    message: String,
    help: Option<String>,
    source: Option<Snippet<'a>>,
    labels: Vec<LabeledSpan>,
    related: Vec<Report<'a>>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.code.is_empty()).then(|| Box::new(self.code) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        (!self.labels.is_empty())
            .then(|| Box::new(self.labels.iter().cloned()) as Box<dyn Iterator<Item = LabeledSpan>>)
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        (!self.related.is_empty()).then(|| {
            Box::new(self.related.iter().map(|r| r as &dyn miette::Diagnostic))
                as Box<dyn Iterator<Item = _>>
        })
    }
}

fn miette_severity(severity: Severity) -> miette::Severity {
    match severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    }
}

/// Labels further than this many lines from the primary one get their own snippet.
const NEARBY_LINES: u32 = 6;

/// The furthest column a label is drawn at. Past it a snippet is no help (the line fills
/// screens), and miette cannot draw one past column 65,535 at all (its padding width is a
/// `u16`): the diagnostic then names its place as `file:line:column` instead.
const MAX_DRAWN_COLUMN: u32 = 4096;

/// Whether every label of `diagnostic` sits within [`MAX_DRAWN_COLUMN`].
fn drawable(diagnostic: &Diagnostic, sources: &SourceMap) -> bool {
    diagnostic.labels.iter().all(|label| {
        let file = sources.get(label.span.source);
        file.line_col(label.span.start).column <= MAX_DRAWN_COLUMN
            && file.line_col(label.span.end).column <= MAX_DRAWN_COLUMN
    })
}

/// A diagnostic whose labels cannot be drawn: its message, led by where it is.
fn undrawn<'a>(diagnostic: &Diagnostic, sources: &'a SourceMap) -> Report<'a> {
    let place = diagnostic.primary_span().map(|span| {
        let at = sources.start_of(span);
        format!(
            "{}:{}:{}: ",
            sources.get(span.source).name(),
            at.line,
            at.column
        )
    });
    Report {
        code: "",
        severity: miette_severity(diagnostic.severity),
        message: format!(
            "[{}] {}{}",
            diagnostic.code,
            place.unwrap_or_default(),
            diagnostic.message
        ),
        help: diagnostic.help.clone(),
        source: None,
        labels: Vec::new(),
        related: Vec::new(),
    }
}

fn to_report<'a>(diagnostic: &Diagnostic, sources: &'a SourceMap) -> Report<'a> {
    if !drawable(diagnostic, sources) {
        return undrawn(diagnostic, sources);
    }
    let primary = diagnostic.primary_span();
    let primary_source = primary.map(|s| s.source);
    let primary_line = primary.map(|s| sources.start_of(s).line);
    let mut labels = Vec::new();
    let mut related = Vec::new();
    for (i, label) in diagnostic.labels.iter().enumerate() {
        let text = (!label.message.is_empty()).then(|| label.message.clone());
        let span = SourceSpan::new(
            (label.span.start as usize).into(),
            label.span.len() as usize,
        );
        let labeled = if i == 0 {
            LabeledSpan::new_primary_with_span(text, span)
        } else {
            LabeledSpan::new_with_span(text, span)
        };
        let nearby = Some(label.span.source) == primary_source
            && primary_line.is_some_and(|line| {
                sources.start_of(label.span).line.abs_diff(line) <= NEARBY_LINES
            });
        if nearby {
            labels.push(labeled);
        } else {
            related.push(Report {
                code: "",
                severity: miette::Severity::Advice,
                message: label.message.clone(),
                help: None,
                source: Some(Snippet::new(sources.get(label.span.source))),
                labels: vec![labeled],
                related: Vec::new(),
            });
        }
    }
    let source = primary_source.map(|id| Snippet::new(sources.get(id)));
    let mut message = diagnostic.message.clone();
    if source.is_none()
        && let Some(file) = &diagnostic.file
        && !message.contains(file.as_str())
    {
        message = format!("{file}: {message}");
    }
    Report {
        code: "",
        severity: miette_severity(diagnostic.severity),
        message: format!("[{}] {message}", diagnostic.code),
        help: diagnostic.help.clone(),
        source,
        labels,
        related,
    }
}

/// Diagnostics rendered per task by [`render_human`].
const RENDER_CHUNK: usize = 64;

/// Diagnostics [`write_human`] renders between two writes (a whole number of chunks).
const WRITE_BATCH: usize = RENDER_CHUNK * 8;

/// [`render_human`] written to `out` a batch at a time, as it is rendered: the findings of a big
/// input are never held as one text (`lint` of the 49 MB benchmark writes 4.4 MB, which the
/// joined chunks held twice).
pub fn write_human(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    color: bool,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    for batch in diagnostics.chunks(WRITE_BATCH) {
        out.write_all(render_human(batch, sources, color).as_bytes())?;
    }
    Ok(())
}

/// Renders diagnostics for a terminal or a log, one after the other (chunks of them are
/// rendered on both cores, then joined in order).
pub fn render_human(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let chunks: Vec<String> = diagnostics
        .par_chunks(RENDER_CHUNK)
        .map(|chunk| render_human_chunk(chunk, sources, color))
        .collect();
    chunks.concat()
}

fn render_human_chunk(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(WIDTH)
        .with_links(false)
        .with_urls(false)
        .with_context_lines(1)
        .with_show_related_as_nested(true)
        .with_wrap_lines(false);
    let mut out = String::new();
    for diagnostic in diagnostics {
        let report = to_report(diagnostic, sources);
        if handler.render_report(&mut out, &report).is_ok() {
            out.push('\n');
        } else {
            out.push_str(&format!(
                "{}: {} [{}]\n",
                diagnostic.severity, diagnostic.message, diagnostic.code
            ));
        }
    }
    release_read(diagnostics, sources);
    out
}

/// Bytes around a chunk's labels that its snippets may have read (context lines and miette's
/// margin are a few lines; this is many).
const READ_MARGIN: usize = 64 << 10;

/// Hands back the pages of mapped files that the snippets of `diagnostics` read, from the first
/// label to the last in each file (plus [`READ_MARGIN`]). The load gave those pages back once;
/// reading snippets all over a big file faults it in again (49 MB more resident for `lint` of the
/// 49 MB benchmark, whose warnings are everywhere). Releasing a page another chunk is reading
/// only makes that read fault it in again from the page cache.
fn release_read(diagnostics: &[Diagnostic], sources: &SourceMap) {
    let mut read: Vec<(SourceId, usize, usize)> = Vec::new();
    for label in diagnostics.iter().flat_map(|d| &d.labels) {
        let span = label.span;
        let (start, end) = (span.start as usize, span.end as usize);
        match read.iter_mut().find(|(source, ..)| *source == span.source) {
            Some((_, low, high)) => (*low, *high) = ((*low).min(start), (*high).max(end)),
            None => read.push((span.source, start, end)),
        }
    }
    for (source, start, end) in read {
        let range = start.saturating_sub(READ_MARGIN)..end.saturating_add(READ_MARGIN);
        sources.get(source).release_range(range);
    }
}
