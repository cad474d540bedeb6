//! `dopol test`'s output formats, all from one [`TestReport`]: a table for people, JSON
//! (`PolicyTestReport`), JUnit XML, SARIF 2.1.0 and GitHub workflow commands. Each is built
//! whole from data (JSON and SARIF through serde_json, XML with every attribute escaped), so a
//! failing case — whatever its name or values hold — never makes it malformed.

use super::lint::github::{escape_data, escape_property};
use crate::report::suite::check::{CaseResult, Outcome};
use crate::report::suite::coverage::Share;
use crate::report::suite::results::TestReport;
use crate::source::SourceMap;
use serde_json::{Value, json};
use std::fmt::Write;

/// The human report.
pub fn table(report: &TestReport) -> String {
    let mut out = String::new();
    for result in &report.results {
        let word = if result.outcome == Outcome::Passed {
            "PASS"
        } else {
            "FAIL"
        };
        let paths = crate::words::counted(result.paths, "path");
        let _ = writeln!(
            out,
            "{word}  {}:{}  {} ({paths})",
            result.suite, result.line, result.name
        );
        if let Some(d) = &result.difference {
            if !d.path_id.is_empty() {
                let _ = writeln!(out, "      path:     {}", d.path_id);
            }
            let _ = writeln!(out, "      {}", d.subject);
            let _ = writeln!(out, "      expected: {}", d.expected);
            let _ = writeln!(out, "      actual:   {}", d.actual);
        }
    }
    coverage_table(report, &mut out);
    gate_table(report, &mut out);
    let s = report.summary();
    if s.problems > 0 {
        let _ = writeln!(
            out,
            "{} in the suites: no case was run",
            crate::words::counted(s.problems, "problem")
        );
    } else {
        let _ = writeln!(out, "{} passed, {} failed", s.passed, s.failed);
    }
    out
}

fn coverage_table(report: &TestReport, out: &mut String) {
    for coverage in &report.coverage {
        let rows: Vec<(String, &Share)> =
            std::iter::once(("all paths".to_string(), &coverage.total))
                .chain(
                    coverage
                        .kinds
                        .iter()
                        .map(|k| (format!("kind {}", k.name), k)),
                )
                .chain(
                    coverage
                        .gateways
                        .iter()
                        .map(|g| (format!("gateway {}", g.name), g)),
                )
                .collect();
        let width = rows
            .iter()
            .map(|(name, _)| name.len())
            .max()
            .unwrap_or(0)
            .max(8);
        let _ = writeln!(out, "\n{:<width$}  TESTED  PATHS  PERCENT", "COVERAGE");
        for (name, share) in &rows {
            let _ = writeln!(
                out,
                "{name:<width$}  {:>6}  {:>5}  {:>6.1}%",
                share.tested, share.paths, share.percent
            );
        }
        if !coverage.untested.is_empty() {
            let _ = writeln!(out, "\nUntested paths:");
            for id in &coverage.untested {
                let _ = writeln!(out, "  {id}");
            }
        }
        if let Some(pct) = report.fail_under
            && coverage.total.percent < pct
        {
            let _ = writeln!(
                out,
                "coverage {:.1}% is under --fail-under {pct}%",
                coverage.total.percent
            );
        }
    }
}

fn gate_table(report: &TestReport, out: &mut String) {
    let Some((revision, found)) = &report.against else {
        return;
    };
    if found.is_empty() {
        let _ = writeln!(out, "\nNo path is weaker than at {revision}.");
        return;
    }
    let _ = writeln!(out, "\nWeaker than at {revision}:");
    for w in found {
        let rule = w.rule.as_ref().map_or(String::new(), |r| format!(" `{r}`"));
        let _ = writeln!(
            out,
            "{}  {}{rule}: {}",
            w.verdict.word(),
            w.policy_kind,
            w.change
        );
        for path in &w.paths {
            let _ = writeln!(out, "      {path}");
        }
    }
}

/// The JSON document (`kind: PolicyTestReport`).
pub fn json(report: &TestReport, sources: &SourceMap) -> String {
    let mut document = json!({
        "apiVersion": crate::report::API_VERSION,
        "kind": "PolicyTestReport",
        "summary": report.summary(),
        "results": report.results,
        "diagnostics": super::lint::json_diagnostics(&report.problems, sources),
    });
    if !report.coverage.is_empty() {
        document["coverage"] = json!(report.coverage);
        if let Some(pct) = report.fail_under {
            document["failUnder"] = json!(pct);
        }
    }
    if let Some((revision, found)) = &report.against {
        document["against"] = json!({"revision": revision, "weakened": found});
    }
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// One failure's text: the path, what differs, expected and actual.
fn failure_text(result: &CaseResult) -> Option<(String, String)> {
    let d = result.difference.as_ref()?;
    let message = format!(
        "{}: expected {}, actual {}",
        d.subject, d.expected, d.actual
    );
    let body = format!(
        "path: {}\n{}\nexpected: {}\nactual: {}",
        d.path_id, d.subject, d.expected, d.actual
    );
    Some((message, body))
}

/// JUnit XML: a test suite per suite file, a test case per case; suite problems and the gate's
/// findings as failing test cases of their own.
pub fn junit(report: &TestReport) -> String {
    let mut suites: Vec<(&str, Vec<String>, usize)> = Vec::new();
    for result in &report.results {
        let case = match failure_text(result) {
            Some((message, body)) => format!(
                "    <testcase name=\"{}\" classname=\"{}\">\n      <failure message=\"{}\" type=\"difference\">{}</failure>\n    </testcase>\n",
                xml(&result.name),
                xml(&result.suite),
                xml(&message),
                xml(&body)
            ),
            None => format!(
                "    <testcase name=\"{}\" classname=\"{}\"/>\n",
                xml(&result.name),
                xml(&result.suite)
            ),
        };
        let failed = usize::from(result.outcome == Outcome::Failed);
        match suites.iter_mut().find(|(s, ..)| *s == result.suite) {
            Some((_, cases, failures)) => {
                cases.push(case);
                *failures += failed;
            }
            None => suites.push((&result.suite, vec![case], failed)),
        }
    }
    let extra = junit_extra(report);
    if !extra.is_empty() {
        let cases = extra
            .iter()
            .map(|(name, message)| format!("    <testcase name=\"{}\" classname=\"dopol test\">\n      <failure message=\"{}\" type=\"error\"/>\n    </testcase>\n", xml(name), xml(message)))
            .collect();
        suites.push(("dopol test", cases, extra.len()));
    }
    let tests: usize = suites.iter().map(|(_, c, _)| c.len()).sum();
    let failures: usize = suites.iter().map(|(.., f)| f).sum();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dopol test\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n"
    );
    for (name, cases, failed) in &suites {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\" errors=\"0\">",
            xml(name),
            cases.len()
        );
        out.extend(cases.iter().map(String::as_str));
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// The failing test cases besides the cases: each suite problem and each weakening.
fn junit_extra(report: &TestReport) -> Vec<(String, String)> {
    let problems = (report.problems.iter())
        .map(|d| (format!("{} {}", d.code, d.code.name()), d.message.clone()));
    let weakened = report.against.iter().flat_map(|(rev, found)| {
        found.iter().map(move |w| {
            let name = format!("weaker than {rev}: {}", w.policy_kind);
            (name, format!("{}: {}", w.change, w.paths.join(", ")))
        })
    });
    problems.chain(weakened).collect()
}

/// SARIF 2.1.0: a result per failed case (at the case's name in its suite) and per suite
/// problem (at its location, under its code).
pub fn sarif(report: &TestReport, sources: &SourceMap) -> String {
    let mut results: Vec<Value> = Vec::new();
    for result in report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Failed)
    {
        let (message, _) = failure_text(result).unwrap_or_default();
        results.push(json!({
            "ruleId": "policy-test-failed",
            "level": "error",
            "message": {"text": format!("case `{}` failed: {message}", result.name)},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": super::lint::sarif::uri(&result.suite)},
                "region": {"startLine": result.line, "startColumn": result.column},
            }}],
        }));
    }
    for d in &report.problems {
        let mut entry =
            json!({"ruleId": d.code.as_str(), "level": "error", "message": {"text": d.message}});
        if let Some(l) = super::lint::primary_location(sources, d) {
            entry["locations"] = json!([{"physicalLocation": {
                "artifactLocation": {"uri": super::lint::sarif::uri(&l.file)},
                "region": {"startLine": l.line, "startColumn": l.column},
            }}]);
        }
        results.push(entry);
    }
    let mut rules = vec![
        json!({"id": "policy-test-failed", "shortDescription": {"text": "A dopol test case failed"}}),
    ];
    rules.extend(crate::report::suite::diags::CODES.iter().map(
        |c| json!({"id": c.as_str(), "name": c.name(), "shortDescription": {"text": c.summary()}}),
    ));
    let document = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "dopol", "informationUri": "https://github.com/dopol/dopol", "version": env!("CARGO_PKG_VERSION"), "rules": rules}},
            "results": results,
        }],
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

/// GitHub workflow commands: an error per failed case, per suite problem and per weakening.
pub fn github(report: &TestReport, sources: &SourceMap) -> String {
    let mut out = String::new();
    for result in report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Failed)
    {
        let (message, _) = failure_text(result).unwrap_or_default();
        let path = result
            .difference
            .as_ref()
            .map_or("", |d| d.path_id.as_str());
        let _ = writeln!(
            out,
            "::error file={},line={},col={},title={}::{}",
            escape_property(&result.suite),
            result.line,
            result.column,
            escape_property(&format!("dopol test: {}", result.name)),
            escape_data(&format!("{message} (path {path})"))
        );
    }
    for d in &report.problems {
        let location = super::lint::primary_location(sources, d)
            .map(|l| {
                format!(
                    "file={},line={},col={},",
                    escape_property(&l.file),
                    l.line,
                    l.column
                )
            })
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "::error {location}title={}::{}",
            d.code,
            escape_data(&d.message)
        );
    }
    if let Some((revision, found)) = &report.against {
        for w in found {
            let rule = w.rule.as_ref().map_or(String::new(), |r| format!(" `{r}`"));
            let text = format!(
                "{}{rule}: {} ({})",
                w.policy_kind,
                w.change,
                w.paths.join(", ")
            );
            let _ = writeln!(
                out,
                "::error title={}::{}",
                escape_property(&format!("weaker than {revision}")),
                escape_data(&text)
            );
        }
    }
    let s = report.summary();
    let _ = writeln!(out, "{} passed, {} failed", s.passed, s.failed);
    out
}
