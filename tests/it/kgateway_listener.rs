//! kgateway's ListenerPolicy (docs/families.md §2.9): every fixture under
//! `testdata/kgateway-listener/` against its `expect.yaml` (values, `source`, `origins`, rule
//! outcomes, status, lint), the upstream goldens under
//! `testdata/realworld/kgateway-listener-policy/` (`ORIGIN.md`) against the facts their outputs
//! show, and the commands that read the family (explain, reach, overridden, topology, diff).

use crate::common::dopol;
use crate::common::fixtures::Fixtures;
use serde_json::Value;

#[test]
fn every_case_matches_its_expectations() {
    Fixtures {
        dir: "testdata/kgateway-listener",
        kind: Some("ListenerPolicy"),
        pending: &[],
    }
    .check_all();
}

const GOLDENS: &str = "testdata/realworld/kgateway-listener-policy/inputs";
const LP: &str = "listenerpolicy.gateway.kgateway.dev:default/";

fn golden(file: &str, command: &str) -> Value {
    let path = format!("{GOLDENS}/{file}");
    dopol(&[command, "-f", &path, "-o", "json"]).json()
}

/// `(listener, key)` → `(value, source)` of the effective ListenerPolicies of a golden.
fn effective(file: &str) -> Vec<(String, String, Value, String)> {
    let doc = golden(file, "effective");
    let mut out = Vec::new();
    for item in doc["items"].as_array().unwrap() {
        let listener = item["listener"].as_str().unwrap_or_default().to_string();
        for (key, rule) in item["rules"].as_object().unwrap() {
            let source = rule["source"].as_str().unwrap().replace(LP, "");
            out.push((listener.clone(), key.clone(), rule["value"].clone(), source));
        }
    }
    out
}

/// The top-level Attached reason of each policy of a golden.
fn attached(file: &str) -> Vec<(String, String)> {
    let doc = golden(file, "status");
    (doc["items"].as_array().unwrap().iter())
        .map(|item| {
            let attached = (item["conditions"].as_array().unwrap().iter())
                .find(|c| c["type"] == "Attached")
                .unwrap();
            let policy = item["policy"].as_str().unwrap().replace(LP, "");
            (policy, attached["reason"].as_str().unwrap().to_string())
        })
        .collect()
}

fn row(listener: &str, key: &str, value: Value, source: &str) -> (String, String, Value, String) {
    (listener.into(), key.into(), value, source.into())
}

/// `deep-merge.yaml`: listener~80 gets proxy-protocol's proxyProtocol and proxy-protocol2's
/// 8192; listener~8080 the port entries merged field by field (65536 from proxy-protocol,
/// proxyProtocol from proxy-protocol2, statPrefix `default_proxy-protocol2`); both Merged.
#[test]
fn deep_merge_golden() {
    let got = effective("deep-merge.yaml");
    let want = vec![
        row(
            "http",
            "perConnectionBufferLimitBytes",
            8192.into(),
            "proxy-protocol2",
        ),
        row(
            "http",
            "proxyProtocol",
            serde_json::json!({}),
            "proxy-protocol",
        ),
        row(
            "http2",
            "perConnectionBufferLimitBytes",
            65536.into(),
            "proxy-protocol",
        ),
        row(
            "http2",
            "proxyProtocol",
            serde_json::json!({}),
            "proxy-protocol2",
        ),
    ];
    assert_eq!(got, want);
    let merged = |p: &str| (p.to_string(), "Merged".to_string());
    assert_eq!(
        attached("deep-merge.yaml"),
        [merged("proxy-protocol"), merged("proxy-protocol2")]
    );
}

/// `per-port.yaml`: listener~8080 has the buffer limit and no proxy_protocol filter.
#[test]
fn per_port_golden() {
    let got = effective("per-port.yaml");
    let want = vec![
        row(
            "http",
            "proxyProtocol",
            serde_json::json!({}),
            "proxy-protocol",
        ),
        row(
            "http2",
            "perConnectionBufferLimitBytes",
            65536.into(),
            "proxy-protocol",
        ),
    ];
    assert_eq!(got, want);
}

/// `transport-socket-connect-timeout-per-listener.yaml`: the HTTPS filter chains take their
/// listener's sectionName value, else the Gateway's; gateway-wide is Overridden.
#[test]
fn transport_socket_connect_timeout_golden() {
    let file = "transport-socket-connect-timeout-per-listener.yaml";
    let key = "transportSocketConnectTimeout";
    let want = vec![
        row("tenant-a-https", key, "10s".into(), "tenant-a-override"),
        row("tenant-b-https", key, "15s".into(), "tenant-b-override"),
        row("tenant-c-https", key, "5s".into(), "gateway-wide"),
    ];
    assert_eq!(effective(file), want);
    let state = |p: &str, r: &str| (p.to_string(), r.to_string());
    assert_eq!(
        attached(file),
        [
            state("gateway-wide", "Overridden"),
            state("tenant-a-override", "Attached"),
            state("tenant-b-override", "Attached"),
        ]
    );
}

/// HTTPListenerPolicy is not modelled, and never silent: one info per object.
#[test]
fn httplistenerpolicy_is_reported_not_evaluated() {
    let doc = golden("httplistenerpolicy-merge.yaml", "lint");
    let found: Vec<&str> = (doc["diagnostics"].as_array().unwrap().iter())
        .filter(|d| d["name"] == "httplistenerpolicy-deprecated")
        .map(|d| d["object"].as_str().unwrap())
        .collect();
    assert_eq!(
        found,
        [
            "HTTPListenerPolicy default/access-log",
            "HTTPListenerPolicy default/tracing",
            "HTTPListenerPolicy default/misc",
        ]
    );
}

const SCOPE: &str = "testdata/kgateway-listener/scope/manifests.yaml";

/// `explain`, `reach`, `overridden`, `topology` and `diff` read the family like any other.
#[test]
fn every_command_reads_listener_policies() {
    let https = "kgateway|infra/gw|infra/gw#https|infra/web|infra/web#rule-1";
    dopol(&[
        "explain",
        "-f",
        SCOPE,
        "--path",
        https,
        "--kind",
        "ListenerPolicy",
    ])
    .code(0)
    .stdout_has(&["infra/https-a", "infra/gw-wide", "this HTTPS listener"]);
    dopol(&["reach", "-f", SCOPE, "infra/https-a"])
        .code(0)
        .stdout_has(&["infra/gw#https"]);
    dopol(&["overridden", "-f", SCOPE, "--kind", "ListenerPolicy"])
        .code(0)
        .stdout_has(&["infra/gw-wide", "not-applied"]);
    dopol(&["topology", "-f", SCOPE])
        .code(0)
        .stdout_has(&["https-a"]);
    let per_port = "testdata/kgateway-listener/per-port/manifests.yaml";
    dopol(&["diff", SCOPE, per_port, "--kind", "ListenerPolicy"]).stdout_has(&["tcpKeepalive"]);
}
