//! Lint output formats. All of them render the same [`LintResult`]: human (miette snippets),
//! JSON (the diagnostics as data), SARIF 2.1.0, GitHub workflow commands and JUnit XML.

pub mod github;
pub mod junit;
pub mod sarif;

use crate::diag::Diagnostic;
use crate::lint::LintResult;
use crate::source::{SourceMap, Span};
use serde::Serialize;

/// Where a span is, for formats that want numbers (1-based; end column exclusive).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    /// File name as given.
    pub file: String,
    /// Start line.
    pub line: u32,
    /// Start column (characters).
    pub column: u32,
    /// End line.
    #[serde(rename = "endLine")]
    pub end_line: u32,
    /// Column after the last character.
    #[serde(rename = "endColumn")]
    pub end_column: u32,
}

/// The location of a span.
pub fn locate(sources: &SourceMap, span: Span) -> Location {
    let file = sources.get(span.source);
    let start = file.line_col(span.start);
    let end = file.line_col(span.end);
    Location {
        file: file.name().to_string(),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
    }
}

/// The primary location of a diagnostic, or the file it names (line 1), if any.
pub fn primary_location(sources: &SourceMap, diagnostic: &Diagnostic) -> Option<Location> {
    match (diagnostic.primary_span(), &diagnostic.file) {
        (Some(span), _) => Some(locate(sources, span)),
        (None, Some(file)) => Some(Location {
            file: file.clone(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
        }),
        (None, None) => None,
    }
}

#[derive(Serialize)]
struct JsonRelated {
    #[serde(flatten)]
    location: Location,
    message: String,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'static str,
    name: &'static str,
    severity: crate::diag::Severity,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<&'a str>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    location: Option<Location>,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    related: Vec<JsonRelated>,
}

#[derive(Serialize)]
struct JsonSummary {
    errors: usize,
    warnings: usize,
    infos: usize,
    suppressed: usize,
    hidden: usize,
    objects: usize,
    files: usize,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    kind: &'static str,
    summary: JsonSummary,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

/// The lint result as a JSON document (`kind: LintReport`).
pub fn json(result: &LintResult, sources: &SourceMap) -> serde_json::Value {
    use crate::diag::Severity;
    let report = JsonReport {
        api_version: crate::report::API_VERSION,
        kind: "LintReport",
        summary: JsonSummary {
            errors: result.count(Severity::Error),
            warnings: result.count(Severity::Warning),
            infos: result.count(Severity::Info),
            suppressed: result.suppressed,
            hidden: result.hidden,
            objects: result.objects,
            files: result.files,
        },
        diagnostics: result
            .shown
            .iter()
            .map(|d| json_diagnostic(d, sources))
            .collect(),
    };
    serde_json::to_value(report).unwrap_or(serde_json::Value::Null)
}

/// One diagnostic as the JSON reports write it (`code`, `name`, `severity`, `message`, the
/// location, `label`, `help`, `related`).
fn json_diagnostic<'a>(d: &'a Diagnostic, sources: &SourceMap) -> JsonDiagnostic<'a> {
    JsonDiagnostic {
        code: d.code.as_str(),
        name: d.code.name(),
        severity: d.severity,
        message: &d.message,
        object: d.object.as_deref(),
        location: primary_location(sources, d),
        label: d
            .labels
            .first()
            .map(|l| l.message.as_str())
            .filter(|m| !m.is_empty()),
        help: d.help.as_deref(),
        related: d
            .labels
            .iter()
            .skip(1)
            .map(|l| JsonRelated {
                location: locate(sources, l.span),
                message: l.message.clone(),
            })
            .collect(),
    }
}

/// Diagnostics as the JSON reports write them (`dopol test`'s suite problems).
pub fn json_diagnostics(diagnostics: &[Diagnostic], sources: &SourceMap) -> serde_json::Value {
    let list: Vec<JsonDiagnostic<'_>> = diagnostics
        .iter()
        .map(|d| json_diagnostic(d, sources))
        .collect();
    serde_json::to_value(list).unwrap_or(serde_json::Value::Null)
}
