//! JUnit XML for CI dashboards: one test suite per file, one test case per checked object (and
//! per document that could not be read as one); findings at or above `--fail-on` are failures,
//! the others are listed in the test case's output.

use super::primary_location;
use crate::diag::Severity;
use crate::lint::LintResult;
use crate::model::Model;
use std::collections::BTreeMap;

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

#[derive(Default)]
struct Case<'a> {
    /// The first failing finding's message (the `<failure message>` attribute).
    first_failure: Option<&'a str>,
    failures: Vec<String>,
    output: Vec<String>,
}

/// The lint result as JUnit XML.
pub fn junit(result: &LintResult, model: &Model, fail_on: Severity) -> String {
    // file → test case name → case
    let mut suites: BTreeMap<String, BTreeMap<String, Case>> = BTreeMap::new();
    for object in &model.objects {
        let file = model
            .sources
            .get(object.root.span.source)
            .name()
            .to_string();
        suites
            .entry(file)
            .or_default()
            .entry(object.display())
            .or_default();
    }
    for d in &result.shown {
        let location = primary_location(&model.sources, d);
        let file = location
            .as_ref()
            .map_or("<input>".to_string(), |l| l.file.clone());
        let case = d.object.clone().unwrap_or_else(|| {
            format!(
                "document at line {}",
                location.as_ref().map_or(1, |l| l.line)
            )
        });
        let line = match &location {
            Some(l) => format!(
                "{}:{}:{}: {} [{}] {}",
                l.file, l.line, l.column, d.severity, d.code, d.message
            ),
            None => format!("{} [{}] {}", d.severity, d.code, d.message),
        };
        let entry = suites.entry(file).or_default().entry(case).or_default();
        if d.severity >= fail_on {
            entry.first_failure.get_or_insert(&d.message);
            entry.failures.push(line);
        } else {
            entry.output.push(line);
        }
    }
    let total: usize = suites.values().map(BTreeMap::len).sum();
    let failed: usize = suites
        .values()
        .flat_map(BTreeMap::values)
        .filter(|c| !c.failures.is_empty())
        .count();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dopol lint\" tests=\"{total}\" failures=\"{failed}\" errors=\"0\">\n"
    );
    for (file, cases) in &suites {
        let suite_failures = cases.values().filter(|c| !c.failures.is_empty()).count();
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{suite_failures}\" errors=\"0\">\n",
            xml(file),
            cases.len()
        ));
        for (name, case) in cases {
            out.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\"",
                xml(file),
                xml(name)
            ));
            if case.failures.is_empty() && case.output.is_empty() {
                out.push_str("/>\n");
                continue;
            }
            out.push_str(">\n");
            if let Some(first) = case.first_failure {
                out.push_str(&format!(
                    "      <failure message=\"{}\">{}</failure>\n",
                    xml(first),
                    xml(&case.failures.join("\n"))
                ));
            }
            if !case.output.is_empty() {
                out.push_str(&format!(
                    "      <system-out>{}</system-out>\n",
                    xml(&case.output.join("\n"))
                ));
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
