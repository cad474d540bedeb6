//! SARIF 2.1.0 output (for GitHub code scanning and other SARIF consumers): one run, the whole
//! check catalogue as rules with their documentation, one result per finding with physical and
//! logical (object) locations and related locations.

use super::{locate, primary_location};
use crate::diag::{Code, Diagnostic, Severity};
use crate::lint::LintResult;
use crate::source::SourceMap;
use serde_json::{Value, json};

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Percent-encodes a file name into a relative URI reference.
pub fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            b'\\' => out.push('/'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

fn physical(file: &str, region: Option<Value>) -> Value {
    let mut location = json!({"artifactLocation": {"uri": uri(file)}});
    if let Some(region) = region {
        location["region"] = region;
    }
    location
}

fn region(location: &super::Location) -> Value {
    json!({
        "startLine": location.line,
        "startColumn": location.column,
        "endLine": location.end_line,
        "endColumn": location.end_column.max(if location.end_line == location.line { location.column + 1 } else { 1 }),
    })
}

fn rule(code: Code) -> Value {
    let d = code.def();
    let mut help = format!("{}\n\nHow to fix: {}", d.explanation, d.fix);
    if !d.example.is_empty() {
        help.push_str(&format!("\n\nExample:\n{}", d.example));
    }
    json!({
        "id": code.as_str(),
        "name": code.name(),
        "shortDescription": {"text": code.summary()},
        "fullDescription": {"text": d.explanation},
        "help": {"text": help},
        "defaultConfiguration": {"level": level(code.default_severity())},
    })
}

fn result(diagnostic: &Diagnostic, sources: &SourceMap) -> Value {
    // The rules are the catalogue, which is sorted by identifier.
    let index = Code::catalogue()
        .binary_search(&diagnostic.code)
        .unwrap_or(0);
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!(" ({help})"));
    }
    let mut result = json!({
        "ruleId": diagnostic.code.as_str(),
        "ruleIndex": index,
        "level": level(diagnostic.severity),
        "message": {"text": message},
    });
    if let Some(location) = primary_location(sources, diagnostic) {
        let region = diagnostic.primary_span().map(|_| region(&location));
        let mut entry = json!({"physicalLocation": physical(&location.file, region)});
        if let Some(object) = &diagnostic.object {
            let name = object.split_once(' ').map_or(object.as_str(), |(_, n)| n);
            entry["logicalLocations"] =
                json!([{"name": name, "fullyQualifiedName": object, "kind": "object"}]);
        }
        result["locations"] = json!([entry]);
    }
    let related: Vec<Value> = diagnostic
        .labels
        .iter()
        .skip(1)
        .enumerate()
        .map(|(i, label)| {
            let location = locate(sources, label.span);
            let mut entry = json!({"id": i + 1, "physicalLocation": physical(&location.file, Some(region(&location)))});
            if !label.message.is_empty() {
                entry["message"] = json!({"text": label.message});
            }
            entry
        })
        .collect();
    if !related.is_empty() {
        result["relatedLocations"] = Value::Array(related);
    }
    result
}

/// The lint result as a SARIF 2.1.0 log.
pub fn sarif(result_set: &LintResult, sources: &SourceMap) -> Value {
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "dopol",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": Code::all().map(rule).collect::<Vec<_>>(),
            }},
            "columnKind": "unicodeCodePoints",
            "results": result_set.shown.iter().map(|d| result(d, sources)).collect::<Vec<_>>(),
        }],
    })
}
