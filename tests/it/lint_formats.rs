//! The lint format matrix: the same findings in every format (snapshots), SARIF valid against the
//! 2.1.0 schema, GitHub workflow commands that parse, JUnit that parses as XML.

use crate::common::dopol;
use serde_json::Value;

const FIXTURE: &str = "testdata/lint/matrix";

fn lint(format: &str) -> String {
    let out = dopol(&["lint", "-f", FIXTURE, "-o", format]);
    out.code(1);
    assert_eq!(
        out.stderr,
        "1 error, 2 warnings, 0 infos in 5 objects from 1 file\n"
    );
    out.stdout
}

#[test]
fn human() {
    insta::assert_snapshot!(lint("human"));
}

#[test]
fn json() {
    insta::assert_snapshot!(lint("json"));
}

#[test]
fn sarif() {
    insta::assert_snapshot!(lint("sarif"));
}

#[test]
fn github() {
    insta::assert_snapshot!(lint("github"));
}

#[test]
fn junit() {
    insta::assert_snapshot!(lint("junit"));
}

/// The SARIF 2.1.0 schema as OASIS publishes it (tests/sarif/ORIGIN.md).
fn sarif_schema() -> Value {
    let path = crate::common::root().join("tests/sarif/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// A validator of SARIF 2.1.0 logs.
pub(crate) fn sarif_validator() -> jsonschema::Validator {
    let mut schema = sarif_schema();
    assert_eq!(
        schema["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    );
    // Erratum in the published schema: the `language` patterns (of `run` and `toolComponent`)
    // have a stray `]` (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`), which a strict validator
    // refuses to compile. dopol emits no `language`; the intended pattern is substituted so the
    // rest of the schema validates.
    assert_eq!(fix_language_patterns(&mut schema), 2);
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// The errors of `log` against the SARIF 2.1.0 schema, each with where it is.
pub(crate) fn sarif_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    (validator.iter_errors(log))
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Replaces the schema's broken `language` patterns; returns how many were replaced.
fn fix_language_patterns(value: &mut Value) -> usize {
    const BROKEN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match value {
        Value::Object(map) => {
            let mut fixed = 0;
            if map.get("pattern").and_then(Value::as_str) == Some(BROKEN) {
                map.insert(
                    "pattern".into(),
                    Value::from("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$"),
                );
                fixed += 1;
            }
            fixed + map.values_mut().map(fix_language_patterns).sum::<usize>()
        }
        Value::Array(items) => items.iter_mut().map(fix_language_patterns).sum(),
        _ => 0,
    }
}

#[test]
fn sarif_is_valid_against_the_2_1_0_schema() {
    let validator = sarif_validator();
    for fixture in [
        FIXTURE,
        "testdata/attachment",
        "testdata/bad/mixed",
        "testdata/examples/shop",
        "testdata/no-such-file.yaml",
    ] {
        let out = dopol(&["lint", "-f", fixture, "-o", "sarif"]);
        let log: Value = serde_json::from_str(&out.stdout).expect("SARIF is JSON");
        let errors = sarif_errors(&validator, &log);
        assert!(errors.is_empty(), "{fixture}: {errors:#?}");
        assert_eq!(log["version"], "2.1.0");
        // every result's ruleIndex points at its rule
        let rules = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        for result in log["runs"][0]["results"].as_array().unwrap() {
            let index = result["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[index]["id"], result["ruleId"]);
        }
    }
}

#[test]
fn github_lines_are_workflow_commands() {
    let text = lint("github");
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let rest = line.strip_prefix("::").expect("starts with ::");
        let (head, message) = rest.split_once("::").expect("command::message");
        assert!(!message.is_empty() && !message.contains('\n'));
        let (command, properties) = head.split_once(' ').expect("command properties");
        assert!(
            ["error", "warning", "notice"].contains(&command),
            "{command}"
        );
        let properties: Vec<(&str, &str)> = properties
            .split(',')
            .map(|p| p.split_once('=').expect("key=value"))
            .collect();
        let keys: Vec<&str> = properties.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            keys,
            ["file", "line", "col", "endLine", "endColumn", "title"],
            "{line}"
        );
        for (_, value) in &properties {
            assert!(
                !value.contains(':') && !value.contains(','),
                "unescaped property in {line}"
            );
        }
        assert!(properties[1].1.parse::<u32>().is_ok());
    }
    // A message with `,` and `:` keeps them in the data; a title never carries raw ones.
    assert!(text.contains("::error file=testdata/lint/matrix/manifests.yaml,line=38,col=72,endLine=38,endColumn=80,title=DPL3001 target-not-found::HTTPRoute target shop:p was not found; AuthPolicy app/dangling is not accepted (TargetNotFound)%0Ahelp: did you mean `shop`?"), "{text}");
}

#[test]
fn junit_is_xml_with_a_suite_per_file_and_a_case_per_object() {
    let text = lint("junit");
    let document = roxmltree::Document::parse(&text).expect("well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("tests"), Some("5"));
    assert_eq!(
        root.attribute("failures"),
        Some("1"),
        "only the error fails with --fail-on error"
    );
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    assert_eq!(suites.len(), 1);
    assert_eq!(
        suites[0].attribute("name"),
        Some("testdata/lint/matrix/manifests.yaml")
    );
    let failed: Vec<_> = suites[0]
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .collect();
    assert_eq!(
        failed[0].parent().unwrap().attribute("name"),
        Some("AuthPolicy app/dangling")
    );
    let strict = dopol(&["lint", "-f", FIXTURE, "-o", "junit", "--fail-on", "warning"]).stdout;
    let strict = roxmltree::Document::parse(&strict).unwrap();
    assert_eq!(strict.root_element().attribute("failures"), Some("3"));
}
