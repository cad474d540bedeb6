//! Diagnostics as data.
//!
//! Loading, topology, the engine and the lint checks never print: they return [`Diagnostic`]
//! values (a stable [`Code`], a [`Severity`], a message and labels pointing at file spans).
//! One renderer (`render::diagnostics`) turns them into miette reports, JSON, SARIF, GitHub
//! annotations or JUnit. That keeps the engine testable as plain data and the output formats
//! consistent with each other.

use crate::source::{SourceMap, Span};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a run unless `--fail-on info`.
    Info,
    /// Probably a mistake.
    Warning,
    /// Definitely wrong (the API server would reject it, or the policy cannot work).
    Error,
}

impl Severity {
    /// Lower-case name as used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Parses `error`, `warning` or `info` (case-insensitive).
    pub fn parse(s: &str) -> Option<Severity> {
        match s.to_ascii_lowercase().as_str() {
            "error" => Some(Severity::Error),
            "warning" | "warn" => Some(Severity::Warning),
            "info" | "note" => Some(Severity::Info),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a diagnostic is about the input being malformed (exit code 3 on every command) or a
/// finding about what the (valid) input means (reported by `lint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The input is malformed or would be rejected by the API server.
    Input,
    /// The input is valid but probably not what the author wanted.
    Finding,
}

/// What a code is: its identity, default severity and class, and the documentation that
/// `dopol lint --explain`, `--list` and SARIF's rule help print. Each code is declared as an
/// associated constant of [`Code`] beside the check that reports it (a family's in the family's
/// folder), with the finding types that derive its messages; `cli::catalogue` collects them.
#[derive(Debug)]
pub struct CodeDef {
    /// The stable identifier, e.g. `DPL1001`. Never reused for another meaning.
    pub id: &'static str,
    /// Short kebab-case name, e.g. `yaml-syntax`.
    pub name: &'static str,
    /// Severity used unless a check decides otherwise.
    pub severity: Severity,
    /// Input error or finding.
    pub class: Class,
    /// One-line summary.
    pub summary: &'static str,
    /// What it means and why it matters.
    pub explanation: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// A minimal example that triggers it (may be empty).
    pub example: &'static str,
}

/// A stable diagnostic code: a handle on its [`CodeDef`]. Codes compare, sort and hash by
/// identifier, so `DPL2001 < DPL2002` wherever they were declared.
#[derive(Clone, Copy)]
pub struct Code(&'static CodeDef);

impl Code {
    /// The code of a definition (used by the declarations beside each check).
    pub const fn new(def: &'static CodeDef) -> Code {
        Code(def)
    }

    /// The stable identifier, e.g. `DPL1001`.
    pub fn as_str(self) -> &'static str {
        self.0.id
    }

    /// Short kebab-case name, e.g. `yaml-syntax`.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Severity used unless a check decides otherwise.
    pub fn default_severity(self) -> Severity {
        self.0.severity
    }

    /// Input error or finding.
    pub fn class(self) -> Class {
        self.0.class
    }

    /// One-line summary.
    pub fn summary(self) -> &'static str {
        self.0.summary
    }

    /// The whole definition, documentation included.
    pub fn def(self) -> &'static CodeDef {
        self.0
    }
}

impl PartialEq for Code {
    fn eq(&self, other: &Code) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for Code {}

impl PartialOrd for Code {
    fn partial_cmp(&self, other: &Code) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Code {
    fn cmp(&self, other: &Code) -> std::cmp::Ordering {
        self.0.id.cmp(other.0.id)
    }
}

impl std::hash::Hash for Code {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Code {
    /// Looks a code up by identifier (`DPL1001`) or name (`yaml-syntax`), case-insensitively.
    pub fn parse(s: &str) -> Option<Code> {
        Code::all().find(|c| c.as_str().eq_ignore_ascii_case(s) || c.name().eq_ignore_ascii_case(s))
    }

    /// The code identifier or name nearest to `s`, for "did you mean" hints.
    pub fn closest(s: &str) -> Option<&'static str> {
        crate::suggest::closest(s, Code::all().flat_map(|c| [c.as_str(), c.name()]))
    }
}

/// A finding's data, from which its code and wording are derived: one type per finding, declared
/// beside its code's documentation (as cargo-deny's diagnostics and ruff's violations are), so
/// a check only fills in what it found and every message of a code is written in one place.
/// `Diagnostic::from` turns it into a [`Diagnostic`]; labels, the object and the file are then
/// added by the check, which knows where it found it.
pub trait Violation {
    /// The code it is reported under (usually one per type; a type for a family of reasons, such
    /// as a refused parentRef, names the reason's code).
    fn code(&self) -> Code;
    /// What is wrong, in one sentence.
    fn message(&self) -> String;
    /// How to fix it, when the finding's data say how.
    fn help(&self) -> Option<String> {
        None
    }
}

impl<V: Violation> From<V> for Diagnostic {
    fn from(violation: V) -> Diagnostic {
        let mut diagnostic = Diagnostic::new(violation.code(), violation.message());
        diagnostic.help = violation.help();
        diagnostic
    }
}

/// A labelled span. The first label of a diagnostic is its primary location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What this place has to do with the diagnostic (may be empty).
    pub message: String,
}

/// One finding: code, severity, message and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code.
    pub code: Code,
    /// Severity (usually the code's default).
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Locations; the first is the primary one.
    pub labels: Vec<Label>,
    /// The object concerned, as `Kind ns/name` (or `Kind name` when cluster-scoped).
    pub object: Option<String>,
    /// A file the diagnostic is about when no span exists (unreadable file, empty glob).
    pub file: Option<String>,
    /// How to fix it.
    pub help: Option<String>,
    /// The root cause's primary span when this finding follows from another one (a CRD rule
    /// broken because a field is misspelt): it is sorted right after its root cause.
    pub follows: Option<Span>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and no location yet. Private: findings are
    /// built from their [`Violation`] types, each message written once, in its type.
    fn new(code: Code, message: String) -> Self {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message,
            labels: Vec::new(),
            object: None,
            file: None,
            help: None,
            follows: None,
        }
    }

    /// Adds the primary label (or a further label).
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Sets the severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Names the object concerned.
    pub fn with_object(mut self, object: impl Into<String>) -> Self {
        self.object = Some(object.into());
        self
    }

    /// Marks the finding as following from the root cause reported at `root` (sorted after it).
    pub fn with_follows(mut self, root: Option<Span>) -> Self {
        self.follows = root;
        self
    }

    /// Names the file concerned (for diagnostics without a span).
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Adds a fix-it hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The primary span, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.span)
    }

    /// Whether this diagnostic means the input was malformed (exit code 3).
    pub fn is_input_error(&self) -> bool {
        self.code.class() == Class::Input && self.severity == Severity::Error
    }

    /// A key that sorts diagnostics by file, position, code and message; a follow-on finding
    /// sorts right after its root cause.
    pub fn sort_key(&self, sources: &SourceMap) -> (String, u32, bool, u32, Code, String) {
        let own = self.primary_span();
        match self.follows.or(own) {
            Some(anchor) => (
                sources.get(anchor.source).name().to_string(),
                anchor.start,
                self.follows.is_some(),
                own.map_or(0, |s| s.start),
                self.code,
                self.message.clone(),
            ),
            None => (
                self.file.clone().unwrap_or_default(),
                0,
                false,
                0,
                self.code,
                self.message.clone(),
            ),
        }
    }
}

/// The problems of a settings file (families, config) as errors of its one `code`: whatever
/// the reader found (YAML syntax, a wrong type, an unknown field) makes the file unusable.
pub fn as_file_errors(diagnostics: Vec<Diagnostic>, code: Code) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .map(|mut d| {
            if d.code == Code::YAML_SYNTAX && !d.message.starts_with("invalid YAML") {
                d.message = format!("invalid YAML: {}", d.message);
            }
            d.code = code;
            d.severity = Severity::Error;
            d.object = None;
            d
        })
        .collect()
}

/// Links follow-on findings to their root cause (see [`link_follow_ons`]), sorts diagnostics
/// deterministically (by file, offset, code, message) and removes exact repeats.
pub fn sort_and_dedup(diagnostics: &mut Vec<Diagnostic>, sources: &SourceMap) {
    link_follow_ons(diagnostics);
    diagnostics.sort_by_cached_key(|d| d.sort_key(sources));
    diagnostics.dedup();
}

/// Marks the input errors that follow from an unknown field of the same object: a finding on a
/// mapping that holds a misspelt key (`limit:` for `limits:` makes "At least one spec.limits
/// must be defined" fail on `spec`) is about the same mistake. The root cause is reported first
/// and the follow-on says so, instead of inventing a cause of its own.
fn link_follow_ons(diagnostics: &mut [Diagnostic]) {
    // Unknown fields by object, in input order: each finding looks at its own object's only.
    let mut unknown: HashMap<String, Vec<(Span, String)>> = HashMap::new();
    for d in diagnostics.iter().filter(|d| d.code == Code::UNKNOWN_FIELD) {
        if let (Some(object), Some(span)) = (&d.object, d.primary_span()) {
            (unknown.entry(object.clone()).or_default()).push((span, d.message.clone()));
        }
    }
    if unknown.is_empty() {
        return;
    }
    for d in diagnostics.iter_mut() {
        if d.code == Code::UNKNOWN_FIELD || d.follows.is_some() || d.code.class() != Class::Input {
            continue;
        }
        let (Some(object), Some(own)) = (d.object.as_deref(), d.primary_span()) else {
            continue;
        };
        let root = unknown.get(object).into_iter().flatten().find(|(span, _)| {
            span.source == own.source && own.start <= span.start && span.end <= own.end
        });
        if let Some((span, message)) = root {
            d.follows = Some(*span);
            let note = format!("this follows from the {message} reported above (DPL1009)");
            d.help = Some(match d.help.take() {
                Some(help) => format!("{note}\n{help}"),
                None => note,
            });
        }
    }
}

/// Where a suggested command's inputs go: `lint` replaces it with the run's own input flags
/// (`-f manifests/ -n shop ...`) before rendering, so that a `help:` line copies and runs as is.
pub const RUN_INPUTS: &str = "\u{1}inputs";

/// `see `dopol COMMAND -f ...``: a help line suggesting another dopol command on the same input.
pub fn see_command(command: impl fmt::Display) -> String {
    format!("see `dopol {command}{RUN_INPUTS}`")
}

/// Completes the commands [`see_command`] suggested with `inputs` (leading space included).
pub fn complete_commands(diagnostics: &mut [Diagnostic], inputs: &str) {
    for help in diagnostics.iter_mut().filter_map(|d| d.help.as_mut()) {
        if help.contains(RUN_INPUTS) {
            *help = help.replace(RUN_INPUTS, inputs);
        }
    }
}

/// The message of a limit hit: what happened, with the limit's value, and the limit's name as
/// docs/limits.md lists it (`yaml-depth`, `cel-length`, ...), so the user learns which limit
/// stopped what.
pub fn over_limit(what: impl fmt::Display, name: &str) -> String {
    format!("{what} (the `{name}` limit)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::all() {
            assert!(seen.insert(code.as_str()), "duplicate {code}");
            assert!(seen.insert(code.name()), "duplicate name {}", code.name());
            assert_eq!(Code::parse(code.as_str()), Some(code));
            assert_eq!(Code::parse(code.name()), Some(code));
        }
    }
}
