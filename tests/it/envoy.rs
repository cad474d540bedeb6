//! Envoy Gateway (docs/families.md §3): every fixture under `testdata/envoy/` against the results
//! worked out by hand in its `expect.yaml` (values, `source` and `origins` of every effective
//! rule, status with per-ancestor conditions and exact messages, lint findings), plus the
//! commands' behaviour on these kinds.

use crate::common::dopol;
use crate::common::fixtures::Fixtures;

#[test]
fn every_case_matches_its_expectations() {
    Fixtures {
        dir: "testdata/envoy",
        kind: None,
        pending: &[],
    }
    .check_all();
}

/// `dopol <args> -f -` with `policy` (an Envoy Gateway policy in namespace `shop`) after a
/// Gateway and an HTTPRoute.
fn with_policy(args: &[&str], policy: &str) -> crate::common::Output {
    let input = format!(
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: shop}}
spec:
  gatewayClassName: eg
  listeners: [{{name: http, protocol: HTTP, port: 80}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: app, namespace: shop}}
spec:
  parentRefs: [{{name: gw}}]
  rules: [{{backendRefs: [{{name: app, port: 80}}]}}]
---
{policy}"
    );
    let mut all = args.to_vec();
    all.extend(["-f", "-"]);
    crate::common::run_in(&crate::common::root(), &all, Some(input.as_bytes()))
}

/// Shape errors the CRDs reject (docs/families.md §3.1): exit 3 and the located reason.
#[test]
fn crd_shape_errors_are_input_errors() {
    let cases: &[(&str, &str)] = &[
        (
            "kind: ClientTrafficPolicy
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}]",
            "[DPL1016] spec: Invalid value: \"object\": this policy can only have a targetRefs[*].kind of Gateway or ListenerSet",
        ),
        (
            "kind: ClientTrafficPolicy
spec:
  mergeType: JSONMerge
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]",
            "unknown field \"spec.mergeType\"",
        ),
        (
            "kind: BackendTrafficPolicy
spec:
  mergeType: StrategicMerge
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]",
            "[DPL1016] spec: Invalid value: \"object\": mergeType can only be used with xRoute targets",
        ),
        (
            "kind: SecurityPolicy
spec:
  mergeType: StrategicMerge
  targetSelectors: [{kind: Gateway, matchLabels: {a: b}}]",
            "[DPL1016] spec: Invalid value: \"object\": mergeType can only be used with xRoute targets",
        ),
        (
            "kind: BackendTrafficPolicy
spec:
  mergeType: Merge
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}]",
            "unsupported merge type: Merge",
        ),
        // field-2026 §2.1: `Replace` is not a merge type of any of the three kinds (CEL), and
        // EnvoyExtensionPolicy's `mergeType` (v1.9) needs xRoute targets too.
        (
            "kind: BackendTrafficPolicy
spec:
  mergeType: Replace
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}]",
            "[DPL1016] spec.mergeType: Invalid value: \"string\": Replace is not a valid MergeType for BackendTrafficPolicySpec",
        ),
        (
            "kind: SecurityPolicy
spec:
  mergeType: Replace
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}]",
            "[DPL1016] spec.mergeType: Invalid value: \"string\": Replace is not a valid MergeType for SecurityPolicy",
        ),
        (
            "kind: EnvoyExtensionPolicy
spec:
  mergeType: Replace
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}]",
            "[DPL1016] spec.mergeType: Invalid value: \"string\": Replace is not a valid MergeType for EnvoyExtensionPolicy",
        ),
        (
            "kind: EnvoyExtensionPolicy
spec:
  mergeType: JSONMerge
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]",
            "[DPL1016] spec: Invalid value: \"object\": mergeType can only be used with xRoute targets",
        ),
        (
            "kind: EnvoyExtensionPolicy
spec:
  targetSelectors: [{kind: HTTPRoute, matchLabels: {a: b}, sectionName: x}]",
            "unknown field \"spec.targetSelectors[0].sectionName\"",
        ),
        (
            "kind: SecurityPolicy
spec:
  targetSelectors: [{kind: Service, matchLabels: {a: b}}]",
            "SecurityPolicy may not select a Service",
        ),
    ];
    for (policy, message) in cases {
        let policy = format!(
            "apiVersion: gateway.envoyproxy.io/v1alpha1\nmetadata: {{name: p, namespace: shop}}\n{policy}\n"
        );
        let out = with_policy(&["lint"], &policy);
        out.code(3).stdout_has(&[message]);
    }
}

#[test]
fn ignored_target_kinds_are_not_shape_errors() {
    let out = with_policy(
        &["lint", "-o", "json"],
        "apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: p, namespace: shop}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: ListenerSet, name: extra}
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}
  retry: {numRetries: 1}
",
    );
    // A whole-ListenerSet target is modelled (the `S` slot; field-2026 §2.2): one naming no
    // ListenerSet in the input is silent, and the retired `ignored-target-kind` is not reported.
    out.code(0);
    let doc = out.json();
    let ignored = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["name"] == "ignored-target-kind")
        .count();
    assert_eq!(ignored, 0);
}

#[test]
fn explain_names_the_slot_holder_of_every_conflicted_policy_and_the_merge_step() {
    let doc = dopol(&[
        "explain",
        "-f",
        "testdata/envoy/conflict-age/manifests.yaml",
        "--route",
        "shop/a",
        "-o",
        "json",
    ])
    .json();
    let kind = &doc["items"][0]["kinds"][0];
    let whys: Vec<(&str, &str)> = kind["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["why"].as_str().unwrap()))
        .collect();
    assert_eq!(whys[0].0, "shop/early");
    assert_eq!(
        whys[1],
        (
            "shop/late",
            "Conflicted on HTTPRoute shop/a: SecurityPolicy shop/early holds the slot because it is older (earlier creationTimestamp); takes no part here"
        )
    );
    assert!(
        whys[3]
            .1
            .contains("no creationTimestamp, which counts as newest")
    );

    let doc = dopol(&[
        "explain",
        "-f",
        "testdata/envoy/json-merge/manifests.yaml",
        "--route",
        "shop/app",
        "-o",
        "json",
    ])
    .json();
    let steps = doc["items"][0]["kinds"][0]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "{steps:#?}");
    assert_eq!(steps[1]["strategy"], "JSONMerge");
    let changes = crate::common::fixtures::step_changes(&steps[1]);
    assert_eq!(
        changes,
        [
            ("faultInjection", "added"),
            ("loadBalancer", "added"),
            ("retry", "merged"),
            ("timeout", "merged")
        ]
    );
}

/// `ns/name` of the first route of a fixture (written `metadata: {name: N, namespace: NS}`).
fn first_route(file: &str) -> String {
    let text = std::fs::read_to_string(crate::common::root().join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "kind: HTTPRoute" || *l == "kind: GRPCRoute")
        .expect("a route");
    let metadata = lines[at + 1];
    let field = |key: &str| {
        let start = metadata.find(key).expect(key) + key.len();
        metadata[start..]
            .split([',', '}'])
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    format!("{}/{}", field("namespace:"), field("name:"))
}

#[test]
fn every_command_runs_on_every_fixture() {
    let fixtures = Fixtures {
        dir: "testdata/envoy",
        kind: None,
        pending: &[],
    };
    for case in fixtures.cases() {
        let file = format!("testdata/envoy/{case}/manifests.yaml");
        let status = dopol(&["status", "-o", "json", "-f", &file]).json();
        let policy = status["items"][0]["policy"].as_str().unwrap().to_string();
        let route = first_route(&file);
        for command in [
            &["effective", "-o", "json"][..],
            &["status", "-o", "json"],
            &["overridden", "-o", "json"],
            &["reach", "-o", "json", &policy],
            &["explain", "-o", "json", "--route", &route],
            &["topology", "-o", "mermaid"],
            &["lint", "-o", "sarif"],
            &["diff", "-o", "json", "--without", "Gateway/shop/gw"],
            &[
                "request",
                "-o",
                "json",
                "--gateway",
                "shop/gw",
                "GET",
                "http://example.com/api",
            ],
        ] {
            let mut args = command.to_vec();
            args.extend(["-f", file.as_str()]);
            let out = dopol(&args);
            assert!(
                out.code == 0 || out.code == 1,
                "{case}: {args:?} exited {}: {}",
                out.code,
                out.stderr
            );
            let json = args.contains(&"json") || args.contains(&"sarif");
            assert!(
                !json || serde_json::from_str::<serde_json::Value>(&out.stdout).is_ok(),
                "{case}: {args:?}: not JSON"
            );
        }
    }
}

#[test]
fn diff_reports_merged_and_overridden_changes() {
    let out = dopol(&[
        "diff",
        "-f",
        "testdata/envoy/json-merge/manifests.yaml",
        "--without",
        "BackendTrafficPolicy/shop/gw-btp",
    ]);
    // route-btp's top-level Merged follows its first ancestor (the http listener's context,
    // merged into gw-btp); without gw-btp only the admin context merges.
    out.stdout_has(&[
        "Overridden True (Overridden) → (absent)",
        "Merged True (Merged): \"Merged with policy shop/gw-btp\" → \"Merged with policy shop/admin-btp\"",
    ]);
}

#[test]
fn status_text_names_the_holder_of_every_lost_target() {
    dopol(&["status", "-f", "testdata/envoy/conflict-age/manifests.yaml"]).stdout_has(&[
        "CONFLICTED ON",
        "shop/late    HTTPRoute shop/a  shop/early   it is older (earlier creationTimestamp)",
        "shop/gw-new  Gateway shop/gw   shop/gw-old  it is older (this one has no creationTimestamp, which counts as newest)",
        "                             Overridden  True    Overridden  This policy is being overridden",
    ]);
}

/// A whole-ListenerSet ClientTrafficPolicy refused on a set listener sharing its port with a
/// plain-HTTP listener outside the set neither applies nor claims it there: the Gateway-wide
/// policy reaches it (field-2026 §2.2; `testdata/envoy/listenerset-whole`).
#[test]
fn a_refused_whole_set_client_traffic_policy_leaves_its_listener_to_the_gateway() {
    let doc = crate::common::effective(&["testdata/envoy/listenerset-whole"], &[]).json();
    let got: Vec<(String, Option<u64>, String)> = (doc["listeners"].as_array().into_iter())
        .flatten()
        .map(|l| {
            let rule = &l["rules"]["tcpKeepalive"];
            (
                l["listener"].as_str().unwrap_or_default().to_string(),
                rule["value"]["probes"].as_u64(),
                rule["source"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let ctp_gw = "clienttrafficpolicy.gateway.envoyproxy.io:shop/ctp-gw".to_string();
    assert_eq!(
        got,
        [
            ("http".to_string(), Some(7), ctp_gw.clone()),
            ("shop/ext#shared".to_string(), Some(7), ctp_gw),
        ]
    );
}

/// CTP's `G#x` quirk (field-2026 §2.2 [controller]): a Gateway sectionName only a ListenerSet's
/// listener has configures that listener unless a newer `S#L` policy, a whole-set or a
/// Gateway-wide one overwrites it (`testdata/envoy/ctp-gateway-section`).
#[test]
fn a_client_traffic_policy_on_a_gateway_section_only_a_listener_set_has_applies_there() {
    let doc = crate::common::effective(&["testdata/envoy/ctp-gateway-section"], &[]).json();
    let got: Vec<(String, String, Option<u64>)> = (doc["listeners"].as_array().into_iter())
        .flatten()
        .map(|l| {
            let rule = &l["rules"]["tcpKeepalive"];
            let source = rule["source"].as_str().unwrap_or_default();
            (
                l["listener"].as_str().unwrap_or_default().to_string(),
                source.rsplit('/').next().unwrap_or_default().to_string(),
                rule["value"]["probes"].as_u64(),
            )
        })
        .collect();
    let row = |l: &str, p: &str, n: u64| (l.to_string(), p.to_string(), Some(n));
    assert_eq!(
        got,
        [
            row("shop/b-set#team", "s-b-team", 4),
            row("shop/b-set#solo", "gw-wide", 9),
            row("shop/a-set#team", "q-a", 5),
        ]
    );
}

/// CTP's `G#x` quirk: the topology leaves the target to Envoy Gateway, so no `section-not-found`
/// error contradicts the Accepted status; a BackendTrafficPolicy's `G#x` is still one.
#[test]
fn the_ctp_gateway_section_quirk_is_no_section_not_found() {
    let out = crate::common::dopol(&[
        "lint",
        "-f",
        "testdata/envoy/ctp-gateway-section",
        "-o",
        "json",
    ]);
    let doc = out.json();
    let objects: Vec<&str> = (doc["diagnostics"].as_array().unwrap().iter())
        .filter(|d| d["code"] == "DPL3002")
        .map(|d| d["object"].as_str().unwrap())
        .collect();
    assert_eq!(objects, ["BackendTrafficPolicy shop/btp-b"]);
}
