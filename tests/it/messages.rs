//! Messages that name the real cause: follow-on findings point at their root cause and come
//! after it, `-q` means errors only in every command, a lint run that fails on findings it does
//! not print says which, report commands show findings about valid input as warnings, and an
//! unknown code in `dopol.io/ignore` is a finding.

use crate::common::{dopol, root, run_in};
use serde_json::Value;

/// `(code, line, message)` of every lint finding, in output order.
fn findings(args: &[&str]) -> Vec<(String, u64, String, String)> {
    let mut full = vec!["lint", "-o", "json"];
    full.extend_from_slice(args);
    let out = dopol(&full);
    let doc: Value = out.json();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
                d["help"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_policy_on_a_route_attached_nowhere_points_at_the_route_finding() {
    let found = findings(&["-f", "testdata/lint/root-cause"]);
    let codes: Vec<(&str, u64)> = found.iter().map(|f| (f.0.as_str(), f.1)).collect();
    assert_eq!(
        codes,
        [
            ("DPL2001", 15),
            ("DPL4002", 22),
            ("DPL1009", 39),
            ("DPL1016", 38)
        ]
    );
    assert_eq!(
        found[1].2,
        "AuthPolicy app/shop-auth targets HTTPRoute app/shop, which is attached to no listener \
         (see DPL2001 parent-not-found on the route); the policy is in the path to nothing"
    );
}

#[test]
fn a_rule_broken_by_a_misspelt_field_follows_its_unknown_field() {
    let found = findings(&["-f", "testdata/lint/root-cause"]);
    assert_eq!(found[2].2, "unknown field \"spec.limit\"");
    assert_eq!(
        found[3].2,
        "spec: Invalid value: \"object\": At least one spec.limits must be defined"
    );
    assert!(
        found[3].3.starts_with(
            "this follows from the unknown field \"spec.limit\" reported above (DPL1009)"
        ),
        "{}",
        found[3].3
    );
}

#[test]
fn a_policy_without_rules_names_its_unknown_field_not_constraints() {
    let found = findings(&[
        "--families",
        "testdata/families/root-cause/families.yaml",
        "-f",
        "testdata/families/root-cause/manifests.yaml",
    ]);
    let codes: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(codes, ["DPL1009", "DPL1011", "DPL4002"]);
    assert_eq!(
        found[2].2,
        "TimeoutPolicy shop/cart is on 1 path but none of its rules applies on any of them: it \
         has no rule; its unknown field `timeout` in `spec` (DPL1009) may be meant to hold them"
    );
    assert!(!found[2].2.contains("constraints"));
}

#[test]
fn quiet_lint_prints_errors_only_and_says_why_it_fails() {
    // The matrix has one error (DPL3001) and two warnings.
    let out = dopol(&["lint", "-q", "-f", "testdata/lint/matrix"]);
    out.code(1);
    assert!(out.stdout.contains("[DPL3001]"), "{}", out.stdout);
    assert!(!out.stdout.contains("[DPL4001]") && !out.stdout.contains("[DPL4005]"));
    assert_eq!(out.stderr, "");

    let out = dopol(&[
        "lint",
        "-q",
        "--fail-on",
        "warning",
        "-f",
        "testdata/lint/matrix",
    ]);
    out.code(1);
    assert_eq!(
        out.stderr,
        "error: lint also fails on 2 findings not shown by -q: DPL4001 (policy-overridden), \
         DPL4005 (granularity-trap)\n"
    );
}

#[test]
fn a_failure_on_hidden_findings_names_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("m.yaml"),
        std::fs::read(root().join("testdata/lint/unknown-ignore-code/manifests.yaml")).unwrap(),
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &[
            "lint",
            "--min-severity",
            "error",
            "--fail-on",
            "warning",
            "-f",
            "m.yaml",
        ],
        None,
    );
    out.code(1);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "nothing shown (2 below --min-severity) in 1 object from 1 file\n\
         error: lint failed on 2 findings not shown by --min-severity error: DPL2001 \
         (parent-not-found), DPL4013 (unknown-ignore-code)\n"
    );
}

#[test]
fn an_unknown_code_in_the_ignore_annotation_is_a_warning_with_a_suggestion() {
    let found = findings(&["-f", "testdata/lint/unknown-ignore-code"]);
    let unknown = found.iter().find(|f| f.0 == "DPL4013").expect("DPL4013");
    assert_eq!(
        unknown.2,
        "`parent-not-fuond` in `dopol.io/ignore` is not a diagnostic code; it suppresses nothing"
    );
    assert_eq!(
        unknown.3,
        "did you mean `parent-not-found`? `dopol lint --list` prints every code"
    );
    // The misspelt entry suppressed nothing: the finding it meant is still there.
    assert!(found.iter().any(|f| f.0 == "DPL2001"));
}

#[test]
fn report_commands_show_findings_about_valid_input_as_warnings() {
    let out = dopol(&["status", "-f", "testdata/lint/matrix"]);
    out.code(0);
    assert!(
        out.stderr
            .contains("  ⚠ [DPL3001] HTTPRoute target shop:p was not found"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains('×'), "{}", out.stderr);
    // -q: errors only, and a finding is not an error of the run.
    let out = dopol(&["status", "-q", "-f", "testdata/lint/matrix"]);
    out.code(0);
    assert_eq!(out.stderr, "");
    // lint keeps the finding's severity: there it fails the run.
    let out = dopol(&["lint", "-f", "testdata/lint/matrix"]);
    assert!(out.stdout.contains("× [DPL3001]"), "{}", out.stdout);
}

#[test]
fn a_suggested_command_runs_as_printed() {
    let out = dopol(&["lint", "-f", "testdata/lint/matrix"]);
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("see `dopol reach"))
        .expect("a reach suggestion");
    assert_eq!(
        line.trim(),
        "help: see `dopol reach app/shop-limits -f testdata/lint/matrix`"
    );
    let command = line.split('`').nth(1).unwrap();
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let out = dopol(&args);
    out.code(0);
    assert!(out.stdout.contains("app/shop-limits"), "{}", out.stdout);
}
