//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=CODE::message`, which
//! GitHub shows as annotations on the pull request's diff.

use super::primary_location;
use crate::diag::Severity;
use crate::lint::LintResult;
use crate::source::SourceMap;

/// Escapes a command's message (data).
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command per finding.
pub fn github(result: &LintResult, sources: &SourceMap) -> String {
    let mut out = String::new();
    for d in &result.shown {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut properties = Vec::new();
        if let Some(location) = primary_location(sources, d) {
            properties.push(format!("file={}", escape_property(&location.file)));
            properties.push(format!("line={}", location.line));
            properties.push(format!("col={}", location.column));
            if d.primary_span().is_some() {
                properties.push(format!("endLine={}", location.end_line));
                properties.push(format!("endColumn={}", location.end_column));
            }
        }
        properties.push(format!(
            "title={}",
            escape_property(&format!("{} {}", d.code.as_str(), d.code.name()))
        ));
        let mut message = d.message.clone();
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        out.push_str(&format!(
            "::{command} {}::{}\n",
            properties.join(","),
            escape_data(&message)
        ));
    }
    out
}
