//! Envoy Gateway on input nobody here wrote: the upstream translator inputs and e2e manifests
//! under `testdata/realworld/envoy-gateway/`, kept unchanged, against what the upstream goldens
//! and e2e tests state (`facts.md`), transcribed into `expect/<name>.yaml` in the fixture format
//! of `testdata/kgateway/README.md` (values as written in the manifests plus the defaults the
//! API server adds from the CRD, not Envoy's IR; status ancestors and conditions in the order
//! upstream writes them).
//!
//! A translator input (`*.in.yaml`) is one document whose top-level keys (`gateways:`,
//! `httpRoutes:`, `backendTrafficPolicies:`, ...) hold lists of objects; the test writes those
//! objects out as one multi-document manifest before giving it to dopol.

use crate::common::fixtures::{Fixtures, yaml_to_json};
use serde_json::Value;
use std::path::{Path, PathBuf};

const DIR: &str = "testdata/realworld/envoy-gateway";

/// The manifest dopol reads for upstream file `name`: the file itself for plain manifests, the
/// objects of a translator input otherwise.
fn manifests(name: &str) -> PathBuf {
    let root = crate::common::root().join(DIR);
    if let Some(path) = ["", ".in"]
        .iter()
        .map(|suffix| root.join(format!("{name}{suffix}.yaml")))
        .find(|p| p.exists() && !p.to_string_lossy().ends_with(".in.yaml"))
    {
        return path;
    }
    let input =
        yaml_to_json(&std::fs::read_to_string(root.join(format!("{name}.in.yaml"))).unwrap());
    let objects: Vec<String> = input
        .as_object()
        .expect("a translator input is a map of object lists")
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .filter(|o| o.get("apiVersion").is_some())
        .map(Value::to_string)
        .collect();
    let out = std::env::temp_dir().join(format!("dopol-envoy-realworld-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join(format!("{name}.yaml"));
    std::fs::write(&path, objects.join("\n---\n")).unwrap();
    path
}

/// The expectation of `name`, each `effective` entry given the file's top-level `kind`, and
/// its status cut to what dopol reproduces today (see [`KNOWN_STATUS_GAPS`]).
fn expectation(path: &Path) -> Value {
    let mut expect = yaml_to_json(&std::fs::read_to_string(path).unwrap());
    let kind = expect["kind"].clone();
    for entry in expect["effective"].as_array_mut().into_iter().flatten() {
        if entry.get("kind").is_none() {
            entry["kind"] = kind.clone();
        }
    }
    expect
}

/// Status ancestors as compared. dopol's Envoy Gateway status knowingly differs from
/// upstream's in two ways (docs/families.md, "Known differences from the controller"): the
/// `Warning`/`DeprecatedField` condition is reported by `lint` (`deprecated-target-ref`) instead
/// of being written into the ancestor; the conditions of one ancestor come in a fixed order, not
/// in the order the controller happens to set them. So both sides drop `Warning` conditions and
/// the dopol-only `conflictedBy` note, and sort conditions; ancestors are compared in the order
/// upstream inserts them (field-2026 §2.5), and every ancestor, condition, reason and message
/// exactly.
fn comparable(ancestors: &mut Value) {
    let Some(list) = ancestors.as_array_mut() else {
        return;
    };
    for ancestor in list {
        if let Some(object) = ancestor.as_object_mut() {
            object.remove("conflictedBy");
        }
        if let Some(conditions) = ancestor["conditions"].as_array_mut() {
            conditions.retain(|c| c["type"] != "Warning");
            conditions.sort_by(|a, b| a["type"].as_str().cmp(&b["type"].as_str()));
        }
    }
}

#[test]
fn upstream_inputs_give_what_upstream_states() {
    let expect_dir = crate::common::root().join(DIR).join("expect");
    let mut names: Vec<String> = std::fs::read_dir(&expect_dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".yaml")
                .to_string()
        })
        .collect();
    names.sort();
    assert!(names.len() >= 14, "{names:?}");
    let fixtures = Fixtures {
        dir: DIR,
        kind: None,
        pending: &[],
    };
    let mut failures = Vec::new();
    for name in names {
        let manifests = manifests(&name);
        let expect = expectation(&expect_dir.join(format!("{name}.yaml")));
        let problems = fixtures.check_seen_as(&manifests.to_string_lossy(), &expect, &comparable);
        if !problems.is_empty() {
            failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The ClientTrafficPolicy ListenerSet goldens have no route: what each IR listener carries
/// (`tcpKeepalive.probes`, or nothing) is checked on `effective`'s listeners, keyed by the
/// listener's `listener` column (`L` for the Gateway's own, `ns/set#L` for a ListenerSet's;
/// field-2026 §2.2–§2.3: `S#L` beats `S` beats `G`, two sets' listeners named alike are two
/// slots, a refused `S#L` or `S` policy leaves its listener without one).
/// The listeners of ListenerSet `envoy-gateway/ext-listeners` most goldens use.
const EXT_1: &str = "envoy-gateway/ext-listeners#ext-http-1";
const EXT_2: &str = "envoy-gateway/ext-listeners#ext-http-2";

#[test]
fn listener_values_of_listenerset_goldens() {
    /// A golden and its listeners' `tcpKeepalive.probes`.
    type Case = (&'static str, &'static [(&'static str, Option<u64>)]);
    let cases: [Case; 12] = [
        (
            "clienttrafficpolicy-gateway-listenerset-same-listener-name-sectionname",
            &[("shared", Some(3)), ("envoy-gateway/ls-a#shared", Some(5))],
        ),
        (
            "clienttrafficpolicy-listenerset-duplicate-listener-name-sectionname",
            &[
                ("envoy-gateway/ls-a#shared", Some(3)),
                ("envoy-gateway/ls-b#shared", Some(5)),
            ],
        ),
        (
            "clienttrafficpolicy-listenerset-sectionname-beats-gateway-wide",
            &[
                ("core-http", Some(7)),
                ("envoy-gateway/ext-listeners#ext-http-1", Some(3)),
                ("envoy-gateway/ext-listeners#ext-http-2", Some(7)),
            ],
        ),
        (
            "clienttrafficpolicy-listenerset-sectionname-same-port-conflict",
            &[],
        ),
        (
            "clienttrafficpolicy-listenerset-duplicate-listener-name",
            &[
                ("envoy-gateway/ls-a#shared", Some(3)),
                ("envoy-gateway/ls-b#shared", Some(5)),
            ],
        ),
        (
            "clienttrafficpolicy-listenerset-mixed-targetrefs",
            &[("core-http", Some(5)), (EXT_1, Some(5)), (EXT_2, Some(5))],
        ),
        (
            "clienttrafficpolicy-listenerset-wide-beats-gateway-wide-gw-listed-first",
            &[("core-http", Some(7)), (EXT_1, Some(5)), (EXT_2, Some(5))],
        ),
        (
            "clienttrafficpolicy-listenerset-wide-beats-gateway-wide",
            &[("core-http", Some(7)), (EXT_1, Some(5)), (EXT_2, Some(5))],
        ),
        (
            "clienttrafficpolicy-listenerset-wide-no-conflict-with-gateway-sectionname",
            &[("core-http", Some(3)), (EXT_1, Some(5)), (EXT_2, Some(5))],
        ),
        (
            "clienttrafficpolicy-listenerset-wide-same-port-conflict",
            &[],
        ),
        (
            "clienttrafficpolicy-listenerset-wide-same-port",
            &[(EXT_1, Some(5)), (EXT_2, Some(5))],
        ),
        (
            "clienttrafficpolicy-listenerset",
            &[(EXT_1, Some(3)), (EXT_2, Some(5))],
        ),
    ];
    for (name, expected) in cases {
        let file = format!("{DIR}/{name}.in.yaml");
        let doc = crate::common::effective(&[&file], &[]).json();
        let got: Vec<(String, Option<u64>)> = (doc["listeners"].as_array().into_iter().flatten())
            .map(|l| {
                let probes = l["rules"]["tcpKeepalive"]["value"]["probes"].as_u64();
                (
                    l["listener"].as_str().unwrap_or_default().to_string(),
                    probes,
                )
            })
            .collect();
        let want: Vec<(String, Option<u64>)> =
            expected.iter().map(|(l, p)| (l.to_string(), *p)).collect();
        assert_eq!(got, want, "{name}");
    }
}
