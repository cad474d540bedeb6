//! Kuma's own goldens (`testdata/realworld/kuma/`, see its README): for each case, the upstream
//! input and golden unchanged, their Kubernetes-form translation `k8s.yaml`, and the facts the
//! golden states in `expected.json`. `dopol effective -o json <case>/k8s.yaml` (plus the
//! arguments in `<case>/args`, one a line, when there is one) must state them:
//! per expected item (policy kind and path id) the merged `conf`, the `mergedFrom` order and each
//! rule's `source`; no item on an `absentPaths` path; no item naming an `absentPolicies` policy.

use crate::common::{dopol, root, rules};
use serde_json::Value;

const DIR: &str = "testdata/realworld/kuma";

/// The case directories, sorted.
fn cases() -> Vec<String> {
    let mut cases: Vec<String> = std::fs::read_dir(root().join(DIR))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
}

/// The strings of a JSON list (empty when absent).
fn strings(list: &Value) -> Vec<&str> {
    (list.as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect()
}

/// What differs between one expected item and dopol's items.
fn item_problems(case: &str, doc: &Value, want: &Value) -> Vec<String> {
    let (kind, path) = (&want["policyKind"], &want["pathId"]);
    let items = doc["items"].as_array().expect("items");
    let Some(got) = items
        .iter()
        .find(|i| i["policyKind"] == *kind && i["pathId"] == *path)
    else {
        return vec![format!("{case}: no {kind} item on {path}")];
    };
    let mut problems = Vec::new();
    let mut compare = |what: &str, got: &Value, want: &Value| {
        if got != want {
            problems.push(format!(
                "{case}: {kind} on {path}: {what} is {got}, the golden says {want}"
            ));
        }
    };
    compare("policyGroup", &got["policyGroup"], &Value::from("kuma.io"));
    for field in ["conf", "mergedFrom"] {
        if let Some(want) = want.get(field) {
            compare(field, &got[field], want);
        }
    }
    let found = rules(doc, kind.as_str().unwrap(), path.as_str().unwrap());
    for (key, source) in want["rules"].as_object().into_iter().flatten() {
        let got = found
            .iter()
            .find(|r| r.key == *key)
            .map(|r| r.source.as_str());
        compare(&format!("the source of {key}"), &Value::from(got), source);
    }
    problems
}

/// Everything in which dopol's answer differs from what `case`'s golden states.
fn case_problems(case: &str) -> Vec<String> {
    let expected = std::fs::read_to_string(root().join(DIR).join(case).join("expected.json"));
    let expected: Value = serde_json::from_str(&expected.unwrap()).unwrap();
    let manifests = format!("{DIR}/{case}/k8s.yaml");
    let mut args = vec!["effective", "-o", "json", manifests.as_str()];
    let extra = std::fs::read_to_string(root().join(DIR).join(case).join("args"));
    let extra = extra.unwrap_or_default();
    args.extend(extra.lines().filter(|l| !l.is_empty()));
    let out = dopol(&args);
    if out.code != 0 {
        return vec![format!("{case}: exit {}: {}", out.code, out.stderr)];
    }
    let doc = out.json();
    let mut problems: Vec<String> = (expected["items"].as_array().into_iter().flatten())
        .flat_map(|want| item_problems(case, &doc, want))
        .collect();
    for item in doc["items"].as_array().into_iter().flatten() {
        let path = item["pathId"].as_str().unwrap_or("");
        if strings(&expected["absentPaths"]).contains(&path) {
            problems.push(format!(
                "{case}: an item on {path}, which the golden does not have"
            ));
        }
        let named = strings(&item["mergedFrom"])
            .into_iter()
            .chain(strings(&item["sources"]));
        for entry in named {
            let policy = entry.split('#').next().unwrap_or(entry);
            if strings(&expected["absentPolicies"]).contains(&policy) {
                problems.push(format!(
                    "{case}: {policy} on {path}, which the golden does not match"
                ));
            }
        }
    }
    problems
}

#[test]
fn every_case_states_what_its_golden_says() {
    let problems: Vec<String> = cases().iter().flat_map(|c| case_problems(c)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_case_has_its_origin_translation_and_facts_and_is_listed() {
    let readme = std::fs::read_to_string(root().join(DIR).join("README.md")).unwrap();
    for case in cases() {
        for file in ["ORIGIN.md", "k8s.yaml", "expected.json"] {
            let path = root().join(DIR).join(&case).join(file);
            assert!(path.exists(), "{case} lacks {file}");
        }
        assert!(
            readme.contains(&format!("| `{case}` |")),
            "{case} is not in the README"
        );
    }
}
