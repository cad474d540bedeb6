//! The upstream projects' own CRD validation cases (testdata/crd/upstream/, transcribed from
//! Gateway API `tests/cel`, Envoy Gateway `test/cel-validation`, the Kuadrant operator's
//! controller tests and kgateway's API validation e2e test): every object upstream expects the
//! API server to accept passes dopol's validation, and every object it expects refused is
//! refused with the messages upstream asserts, matched the way each upstream test matches: in
//! the one error string the API server returns.

use crate::common::dopol;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Codes that mean "the API server refuses the object".
const REFUSALS: &[&str] = &["DPL1009", "DPL1015", "DPL1016", "DPL1018"];

/// Cases whose upstream expectation dopol does not reproduce, with the reason. Each entry is
/// `project/name`.
const KNOWN: &[(&str, &str)] = &[];

/// Where a refusal's help quotes the error the API server adds when it skipped the CRD's rules.
const ALSO_ANSWERS: &str = "until then the API server also answers `";

#[derive(Debug)]
struct Case {
    file: String,
    object: String,
    channel: String,
    valid: bool,
    messages: Vec<String>,
    regexes: Vec<String>,
    origin: String,
}

fn yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let mut diagnostics = Vec::new();
    let docs = dopol::yaml::parse_chunk(
        dopol::source::SourceId(0),
        &text,
        0..text.len(),
        &mut diagnostics,
    );
    assert!(diagnostics.is_empty(), "{path:?}");
    docs[0].root.to_json()
}

fn cases(project: &Path) -> Vec<Case> {
    let expect = yaml(&project.join("expect.yaml"));
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    expect["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            file: c["file"].as_str().unwrap().into(),
            object: format!(
                "{} {}/{}",
                c["kind"].as_str().unwrap(),
                c["namespace"].as_str().unwrap(),
                c["name"].as_str().unwrap()
            ),
            channel: c["channel"].as_str().unwrap_or("experimental").into(),
            valid: c["valid"].as_bool().unwrap_or(false),
            messages: strings(&c["messages"]),
            regexes: strings(&c["regexes"]),
            origin: c["origin"].as_str().unwrap_or("").into(),
        })
        .collect()
}

/// Refusal messages per object, from `dopol lint -o json` on one file.
fn refusals(file: &Path, channel: &str) -> BTreeMap<String, Vec<String>> {
    let file = file.to_str().unwrap();
    let out = dopol(&[
        "lint",
        "-o",
        "json",
        "--gateway-api-channel",
        channel,
        "-f",
        file,
    ]);
    assert_ne!(out.code, 4, "{file}: {}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let mut by_object: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for d in doc["diagnostics"].as_array().unwrap() {
        if REFUSALS.contains(&d["code"].as_str().unwrap())
            && let Some(object) = d["object"].as_str()
        {
            let errors = by_object.entry(object.to_string()).or_default();
            errors.push(d["message"].as_str().unwrap().to_string());
            // The API server's own error for the rules it did not run, told in the help.
            if let Some(also) = d["help"]
                .as_str()
                .and_then(|h| h.split_once(ALSO_ANSWERS))
                .and_then(|(_, rest)| rest.split_once('`'))
            {
                errors.push(also.0.to_string());
            }
        }
    }
    by_object
}

/// The error string the API server returns for `object` ("Kind ns/name") refused with `errors`.
fn api_server_error(project: &str, object: &str, errors: &[&String]) -> String {
    let group = match project {
        "gateway-api" => "gateway.networking.k8s.io",
        "envoy-gateway" => "gateway.envoyproxy.io",
        "kuadrant-operator" => "kuadrant.io",
        _ => "gateway.kgateway.dev",
    };
    let (kind, name) = object.split_once(' ').unwrap();
    let name = name.rsplit('/').next().unwrap();
    let joined = match errors {
        [one] => one.to_string(),
        many => format!(
            "[{}]",
            many.iter()
                .map(|e| e.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!("{kind}.{group} \"{name}\" is invalid: {joined}")
}

/// Every order of `items` (objects here have at most a handful of errors).
fn orders(items: &[String]) -> Vec<Vec<&String>> {
    if items.len() > 6 {
        return vec![items.iter().collect()];
    }
    let mut all: Vec<Vec<usize>> = vec![vec![]];
    for _ in items {
        let mut longer = Vec::new();
        for prefix in &all {
            for i in (0..items.len()).filter(|i| !prefix.contains(i)) {
                longer.push([prefix.as_slice(), &[i]].concat());
            }
        }
        all = longer;
    }
    all.into_iter()
        .map(|order| order.into_iter().map(|i| &items[i]).collect())
        .collect()
}

fn matches(project: &str, case: &Case, got: &[String]) -> bool {
    orders(got).into_iter().any(|order| {
        let all = api_server_error(project, &case.object, &order);
        if !case.regexes.is_empty() {
            return case
                .regexes
                .iter()
                .all(|r| regex::Regex::new(r).is_ok_and(|r| r.is_match(&all)));
        }
        case.messages.iter().all(|m| match project {
            "envoy-gateway" => all.to_lowercase().contains(&m.to_lowercase()),
            "gateway-api" => {
                all.contains(m.as_str()) || all.replace("more", "longer").contains(m.as_str())
            }
            _ => all.contains(m.as_str()),
        })
    })
}

#[test]
fn upstream_validation_cases_pass_with_the_upstream_messages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/crd/upstream");
    let mut failures = Vec::new();
    let mut counts = BTreeMap::new();
    for project in [
        "gateway-api",
        "envoy-gateway",
        "kuadrant-operator",
        "kgateway",
    ] {
        let dir = root.join(project);
        let mut runs: BTreeMap<(String, String), BTreeMap<String, Vec<String>>> = BTreeMap::new();
        for case in cases(&dir) {
            let got = runs
                .entry((case.file.clone(), case.channel.clone()))
                .or_insert_with(|| refusals(&dir.join(&case.file), &case.channel));
            let messages = got.get(&case.object).cloned().unwrap_or_default();
            let ok = if case.valid {
                messages.is_empty()
            } else {
                !messages.is_empty() && matches(project, &case, &messages)
            };
            let key = format!("{project}/{}", case.object.rsplit('/').next().unwrap());
            let known = KNOWN.iter().any(|(k, _)| *k == key);
            *counts.entry(project).or_insert(0) += 1;
            if ok == known {
                failures.push(format!(
                    "{key} ({}; {}): expected {}, got {:?}{}",
                    case.file,
                    case.origin,
                    if case.valid {
                        "accepted".to_string()
                    } else {
                        format!("refused with {:?}", case.messages)
                    },
                    messages,
                    if known {
                        " [listed in KNOWN but passes now]"
                    } else {
                        ""
                    }
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {:?} upstream cases differ:\n{}",
        failures.len(),
        counts,
        failures.join("\n")
    );
}
