//! Hand-worked fixture directories (`testdata/<family>/<case>/{manifests.yaml,expect.yaml}`)
//! checked against `dopol`'s JSON output: effective rules (value, `source`, `origins`), paths
//! that must have none, status conditions and ancestors, and lint findings that must be present.
//! The format is described in `testdata/kgateway/README.md`.

use super::dopol;
use serde_json::Value;
use std::collections::BTreeMap;

/// A family's fixture directory and the policy kind its `effective` entries default to.
pub struct Fixtures {
    /// `testdata/<family>`.
    pub dir: &'static str,
    /// The kind of entries without `kind:` (passed as `--kind` when set).
    pub kind: Option<&'static str>,
    /// Cases expected to fail.
    pub pending: &'static [&'static str],
}

/// A YAML (or JSON) text as JSON data.
pub fn yaml_to_json(text: &str) -> Value {
    let mut diagnostics = Vec::new();
    let documents = dopol::yaml::parse_chunk(
        dopol::source::SourceId(0),
        text,
        0..text.len(),
        &mut diagnostics,
    );
    assert!(
        diagnostics.is_empty(),
        "expect.yaml parses: {diagnostics:?}"
    );
    documents[0].root.to_json()
}

/// `dopol <command> -f <manifests> -o json <extra>`'s document (`null` when it prints none, so
/// that a case reports its mismatches instead of stopping the run).
pub fn document(command: &str, manifests: &str, extra: &[&str]) -> Value {
    let mut args = vec![command, "-f", manifests, "-o", "json"];
    args.extend_from_slice(extra);
    serde_json::from_str(&dopol(&args).stdout).unwrap_or(Value::Null)
}

/// `(key, action)` of each change of an `explain -o json` step.
pub fn step_changes(step: &Value) -> Vec<(&str, &str)> {
    step["changes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["key"].as_str().unwrap_or_default(),
                c["action"].as_str().unwrap_or_default(),
            )
        })
        .collect()
}

impl Fixtures {
    /// Every case directory with an `expect.yaml`, sorted.
    pub fn cases(&self) -> Vec<String> {
        let root = super::root().join(self.dir);
        let mut cases: Vec<String> = std::fs::read_dir(&root)
            .unwrap_or_else(|_| panic!("{}", self.dir))
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("expect.yaml").exists())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        cases.sort();
        cases
    }

    /// Runs every case; fails with every mismatch, or when a pending case passes.
    pub fn check_all(&self) {
        let cases = self.cases();
        assert!(!cases.is_empty(), "no cases under {}", self.dir);
        let mut failures = Vec::new();
        let mut newly_passing = Vec::new();
        for case in cases {
            let problems = self.check_case(&case);
            match (problems.is_empty(), self.pending.contains(&case.as_str())) {
                (false, false) => failures.push(format!("{case}:\n  {}", problems.join("\n  "))),
                (true, true) => newly_passing.push(case),
                _ => {}
            }
        }
        assert!(
            newly_passing.is_empty(),
            "these cases pass now; remove them from PENDING: {newly_passing:?}"
        );
        assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    }

    /// Every mismatch of one case, as readable lines.
    pub fn check_case(&self, case: &str) -> Vec<String> {
        let dir = format!("{}/{case}", self.dir);
        let manifests = format!("{dir}/manifests.yaml");
        let expect = yaml_to_json(
            &std::fs::read_to_string(super::root().join(&dir).join("expect.yaml")).unwrap(),
        );
        self.check(&manifests, &expect)
    }

    /// Every mismatch between `dopol`'s reports on `manifests` and the expectation `expect`.
    pub fn check(&self, manifests: &str, expect: &Value) -> Vec<String> {
        self.check_seen_as(manifests, expect, &|_| {})
    }

    /// [`Fixtures::check`], the status `ancestors` of the output and of the expectation first
    /// passed through `view` (to compare only what a test asserts).
    pub fn check_seen_as(
        &self,
        manifests: &str,
        expect: &Value,
        view: &dyn Fn(&mut Value),
    ) -> Vec<String> {
        let mut problems = Vec::new();
        self.check_effective(manifests, expect, &mut problems);
        check_status(manifests, expect, view, &mut problems);
        check_lint(manifests, expect, &mut problems);
        problems
    }

    fn check_effective(&self, manifests: &str, expect: &Value, problems: &mut Vec<String>) {
        let extra: Vec<&str> = self.kind.map(|k| vec!["--kind", k]).unwrap_or_default();
        let json = document("effective", manifests, &extra);
        let items: BTreeMap<(String, String), &Value> = json["items"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|i| {
                let id = i["pathId"].as_str().unwrap_or_default().to_string();
                let kind = i["policyKind"].as_str().unwrap_or_default().to_string();
                ((id, kind), i)
            })
            .collect();
        for path in expect["effective"].as_array().into_iter().flatten() {
            let id = path["path"].as_str().unwrap_or_default();
            let kind = path["kind"].as_str().or(self.kind).unwrap_or_default();
            let item = items.get(&(id.to_string(), kind.to_string()));
            if path["none"] == Value::Bool(true) {
                if item.is_some() {
                    problems.push(format!(
                        "{id} {kind}: expected no effective policy, got one"
                    ));
                }
                continue;
            }
            let Some(item) = item else {
                problems.push(format!("{id} {kind}: no effective policy"));
                continue;
            };
            compare_rules(id, path, item, problems);
        }
    }
}

fn compare_rules(id: &str, path: &Value, item: &Value, problems: &mut Vec<String>) {
    let expected = path["rules"].as_object().cloned().unwrap_or_default();
    let actual = item["rules"].as_object().cloned().unwrap_or_default();
    let (mut want_keys, mut got_keys): (Vec<_>, Vec<_>) =
        (expected.keys().collect(), actual.keys().collect());
    want_keys.sort();
    got_keys.sort();
    if want_keys != got_keys {
        problems.push(format!("{id}: keys {got_keys:?}, expected {want_keys:?}"));
    }
    for (key, want) in &expected {
        let got = &actual.get(key).cloned().unwrap_or(Value::Null);
        for field in ["value", "source", "origins"] {
            if want.get(field).is_some() && want[field] != got[field] {
                problems.push(format!(
                    "{id} {key}.{field}: got {}, expected {}",
                    got[field], want[field]
                ));
            }
        }
    }
}

fn check_status(
    manifests: &str,
    expect: &Value,
    view: &dyn Fn(&mut Value),
    problems: &mut Vec<String>,
) {
    let Some(expected) = expect["status"].as_array() else {
        return;
    };
    let mut json = document("status", manifests, &[]);
    for item in json["items"].as_array_mut().into_iter().flatten() {
        view(&mut item["ancestors"]);
    }
    let mut expected = expected.clone();
    for item in &mut expected {
        if item.get("ancestors").is_some() {
            view(&mut item["ancestors"]);
        }
    }
    for want in &expected {
        let policy = want["policy"].as_str().unwrap_or_default();
        let got = json["items"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|i| i["policy"] == want["policy"]);
        let Some(got) = got else {
            problems.push(format!("status of {policy}: missing"));
            continue;
        };
        for field in ["conditions", "ancestors", "rules"] {
            if want.get(field).is_some() && want[field] != got[field] {
                problems.push(format!(
                    "status of {policy} {field}: got {}, expected {}",
                    got[field], want[field]
                ));
            }
        }
    }
}

fn check_lint(manifests: &str, expect: &Value, problems: &mut Vec<String>) {
    let Some(expected) = expect["lint"].as_array() else {
        return;
    };
    let json = document("lint", manifests, &[]);
    let found: Vec<(&str, &str)> = json["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["name"].as_str().unwrap_or_default(),
                d["object"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    for want in expected {
        let check = want["check"].as_str().unwrap_or_default();
        let object = want["object"].as_str().unwrap_or_default();
        if !found.contains(&(check, object)) {
            problems.push(format!("lint: no `{check}` on {object} (found {found:?})"));
        }
    }
}
