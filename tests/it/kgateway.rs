//! kgateway TrafficPolicy (docs/families.md §2): every fixture under `testdata/kgateway/` against the
//! results worked out by hand in its `expect.yaml` — values, `source` and `origins` of every
//! effective rule, the paths that must have none, status with per-ancestor conditions, and the
//! lint findings that must be present.
//!
//! A case that cannot pass yet goes in [`PENDING`] (today: none); it is still run, and the test
//! fails if it starts passing while still listed.

use crate::common::dopol;
use crate::common::fixtures::Fixtures;
use serde_json::Value;

/// Cases expected to fail, each with the reason in a comment.
const PENDING: &[&str] = &[];

#[test]
fn every_case_matches_its_expectations() {
    Fixtures {
        dir: "testdata/kgateway",
        kind: Some("TrafficPolicy"),
        pending: PENDING,
    }
    .check_all();
}

/// The rules of the only effective TrafficPolicy of `testdata/kgateway-settings` with `flags`.
fn settings_rules(flags: &[&str]) -> Value {
    let mut args = vec![
        "effective",
        "-f",
        "testdata/kgateway-settings",
        "-o",
        "json",
    ];
    args.extend_from_slice(flags);
    let doc = dopol(&args).json();
    doc["items"][0]["rules"].clone()
}

const A: &str = "trafficpolicy.gateway.kgateway.dev:shop/auth-a";
const B: &str = "trafficpolicy.gateway.kgateway.dev:shop/auth-b";

#[test]
fn same_level_extauth_is_shallow_unless_the_controller_setting_says_deep() {
    let shallow = settings_rules(&[]);
    assert_eq!(
        shallow["extAuth"]["value"],
        serde_json::json!({"extensionRef": {"name": "ext-a"}})
    );
    assert_eq!(shallow["extAuth"]["origins"], serde_json::json!([A]));
    let deep = settings_rules(&[
        "--kgateway-policy-merge",
        r#"{"trafficPolicy": {"extAuth": "DeepMerge"}}"#,
    ]);
    assert_eq!(
        deep["extAuth"]["value"],
        serde_json::json!({"providers": [
            {"extensionRef": {"name": "ext-a"}},
            {"extensionRef": {"name": "ext-b"}}
        ]})
    );
    assert_eq!(deep["extAuth"]["source"], A);
    assert_eq!(deep["extAuth"]["origins"], serde_json::json!([A, B]));
}

#[test]
fn malformed_policy_merge_setting_is_a_usage_error_and_unknown_values_warn() {
    let out = dopol(&[
        "effective",
        "-f",
        "testdata/kgateway-settings",
        "--kgateway-policy-merge",
        "{bad",
    ]);
    out.code(2)
        .stderr_has(&["--kgateway-policy-merge: malformed JSON"]);
    let out = dopol(&[
        "effective",
        "-f",
        "testdata/kgateway-settings",
        "--kgateway-policy-merge",
        r#"{"trafficPolicy": {"extAuth": "Deep"}}"#,
    ]);
    out.stderr_has(&["warning: --kgateway-policy-merge", "\"Deep\""]);
    assert!(
        settings_rules(&[
            "--kgateway-policy-merge",
            r#"{"trafficPolicy": {"extAuth": "Deep"}}"#
        ])["extAuth"]["origins"]
            == serde_json::json!([A])
    );
}

#[test]
fn global_policy_namespace_selectors_reach_other_namespaces() {
    assert!(settings_rules(&[]).get("buffer").is_none());
    let rules = settings_rules(&["--kgateway-global-policy-namespace", "kgw-system"]);
    assert_eq!(
        rules["buffer"]["source"],
        "trafficpolicy.gateway.kgateway.dev:kgw-system/global"
    );
    assert_eq!(
        rules["buffer"]["value"],
        serde_json::json!({"maxRequestSize": "1Mi"})
    );
}

/// Upstream golden inputs (testdata/realworld/kgateway, unchanged) and what their golden outputs
/// show (README there): the file, controller flags, a path, a rule key, and its origins
/// (`ns/name`, highest priority first).
/// (file, flags, path id, rule key, origins).
type GoldenRule = (
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static str,
    &'static [&'static str],
);

const GOLDEN_RULES: &[GoldenRule] = &[
    (
        "tp-merge.yaml",
        &[],
        "example-gateway-class|infra/example-gateway|infra/example-gateway#http|infra/example-route|infra/example-route#rule0",
        "cors",
        &["infra/extensionref-policy"],
    ),
    (
        "tp-merge.yaml",
        &[],
        "example-gateway-class|infra/example-gateway|infra/example-gateway#http|infra/example-route|infra/example-route#rule0",
        "transformation",
        &["infra/policy-with-section-name"],
    ),
    (
        "tp-merge.yaml",
        &[],
        "example-gateway-class|infra/example-gateway|infra/example-gateway#http|infra/example-route|infra/example-route#rule0",
        "rateLimit.local",
        &["infra/policy-without-section-name"],
    ),
    (
        "tp-extauth-deep-merge.yaml",
        &[
            "--kgateway-policy-merge",
            r#"{"trafficPolicy":{"extAuth":"DeepMerge"}}"#,
        ],
        "kgateway|default/test|default/test#http|default/test|default/test#rule0",
        "extAuth",
        &[
            "default/route-attachment-1",
            "default/route-attachment-2",
            "default/listener-attachment-1",
            "default/listener-attachment-2",
            "default/gateway-attachment-1",
            "default/gateway-attachment-2",
        ],
    ),
    (
        "tp-extauth-deep-merge.yaml",
        &[
            "--kgateway-policy-merge",
            r#"{"trafficPolicy":{"extAuth":"DeepMerge"}}"#,
        ],
        "kgateway|default/test|default/test#http|default/test|default/test#rule1",
        "extAuth",
        &["default/route-disable"],
    ),
    (
        "tp-extauth-deep-merge.yaml",
        &[
            "--kgateway-policy-merge",
            r#"{"trafficPolicy":{"extAuth":"DeepMerge"}}"#,
        ],
        "kgateway|default/test|default/test#http|default/test|default/test#rule2",
        "extAuth",
        &[
            "default/listener-attachment-1",
            "default/listener-attachment-2",
            "default/gateway-attachment-1",
            "default/gateway-attachment-2",
        ],
    ),
    (
        "tp-acl-merge.yaml",
        &[],
        "kgateway|default/test|default/test#http|default/test|default/test#rule0",
        "acl",
        &["default/route-acl-rule0-b", "default/route-acl-rule0-a"],
    ),
    (
        "tp-acl-merge.yaml",
        &[],
        "kgateway|default/test|default/test#http|default/test|default/test#rule1",
        "acl",
        &["default/gateway-acl-b", "default/gateway-acl-a"],
    ),
    (
        "tp-acl-merge.yaml",
        &[
            "--kgateway-policy-merge",
            r#"{"trafficPolicy":{"acl":"ShallowMerge"}}"#,
        ],
        "kgateway|default/test|default/test#http|default/test|default/test#rule0",
        "acl",
        &["default/route-acl-rule0-b"],
    ),
    (
        "tp-acl-conflict-fallback-to-shallow-merge.yaml",
        &[],
        "kgateway|default/test|default/test#http|default/test|default/test#rule0",
        "acl",
        &["default/route-acl-rule0-a"],
    ),
    (
        "tp-acl-conflict-fallback-to-shallow-merge.yaml",
        &[],
        "kgateway|default/test|default/test#http|default/test|default/test#rule1",
        "acl",
        &["default/route-acl-rule1-a", "default/route-acl-rule1-b"],
    ),
    (
        "tp-acl-conflict-fallback-to-shallow-merge.yaml",
        &[],
        "kgateway|default/test|default/test#http|default/test|default/test#rule2",
        "acl",
        &["default/gateway-acl-1", "default/gateway-acl-2"],
    ),
    (
        "tp-transformation-deep-merge.yaml",
        &[
            "--kgateway-policy-merge",
            r#"{"trafficPolicy":{"transformation":"DeepMerge"}}"#,
        ],
        "kgateway|default/test|default/test#http|default/test|default/test#rule0",
        "transformation",
        &["default/route-attachment-1", "default/route-attachment-2"],
    ),
    (
        "tp-timeout-listener-override.yaml",
        &[],
        "example-gateway-class|default/example-gateway|default/example-gateway#http|default/example-route|default/example-route#rule0",
        "timeouts",
        &["default/route-timeout"],
    ),
    (
        "tp-timeout-listener-override.yaml",
        &[],
        "example-gateway-class|default/example-gateway|default/example-gateway#http|default/example-route|default/example-route#rule1",
        "timeouts",
        &["default/listener-timeout"],
    ),
    (
        "tp-timeout-gateway-https-listener.yaml",
        &[],
        "example-gateway-class|default/example-gateway|default/example-gateway#https|default/https-route|default/https-route#rule-1",
        "timeouts",
        &["default/https-listener-timeout"],
    ),
    (
        "tp-api-key-auth-override.yaml",
        &[],
        "example-gateway-class|default/example-gateway|default/example-gateway#http|default/example-route|default/example-route#rule-2",
        "apiKeyAuth",
        &["default/api-key-auth-route-override"],
    ),
    (
        "tp-label_based.yaml",
        &["--kgateway-global-policy-namespace", "kgateway-system"],
        "example-gateway-class|infra/example-gateway|infra/example-gateway#http|infra/example-route|infra/example-route#rule-1",
        "cors",
        &["kgateway-system/global-policy"],
    ),
    (
        "tp-compression-codec-conflict.yaml",
        &[],
        "kgateway|default/example-gateway|default/example-gateway#http|default/example-route|default/example-route#rule-1",
        "compression.responseCompression",
        &["default/brotli-policy"],
    ),
];

/// Statuses the goldens show: file, flags, policy `ns/name`, Attached reason.
const GOLDEN_STATUS: &[(&str, &[&str], &str, &str)] = &[
    ("tp-merge.yaml", &[], "infra/extensionref-policy", "Merged"),
    (
        "tp-compression-codec-conflict.yaml",
        &[],
        "default/gzip-policy",
        "Overridden",
    ),
    (
        "tp-compression-codec-conflict.yaml",
        &[],
        "default/brotli-policy",
        "Attached",
    ),
    (
        "tp-acl-merge.yaml",
        &[
            "--kgateway-policy-merge",
            r#"{"trafficPolicy":{"acl":"ShallowMerge"}}"#,
        ],
        "default/gateway-acl-a",
        "Overridden",
    ),
    (
        "tp-acl-merge.yaml",
        &[],
        "default/gateway-acl-a",
        "Attached",
    ),
    (
        "tp-acl-conflict-fallback-to-shallow-merge.yaml",
        &[],
        "default/route-acl-rule0-b",
        "Overridden",
    ),
    (
        "tp-label_based.yaml",
        &["--kgateway-global-policy-namespace", "kgateway-system"],
        "kgateway-system/global-policy",
        "Merged",
    ),
];

fn golden(file: &str, command: &str, flags: &[&str]) -> Value {
    let path = format!("testdata/realworld/kgateway/{file}");
    let mut args = vec![command, "-f", path.as_str(), "-o", "json"];
    args.extend_from_slice(flags);
    dopol(&args).json()
}

#[test]
fn upstream_golden_inputs_give_the_goldens_results() {
    let locator = |n: &str| format!("trafficpolicy.gateway.kgateway.dev:{n}");
    for (file, flags, path, key, origins) in GOLDEN_RULES {
        let doc = golden(file, "effective", flags);
        let item = doc["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["pathId"] == *path);
        let rule = &item.unwrap_or_else(|| panic!("{file}: no {path}"))["rules"][key];
        let want: Vec<String> = origins.iter().map(|o| locator(o)).collect();
        assert_eq!(
            rule["origins"],
            serde_json::json!(want),
            "{file} {path} {key}"
        );
        assert_eq!(
            rule["source"],
            serde_json::json!(want[0]),
            "{file} {path} {key}"
        );
    }
    for (file, flags, policy, reason) in GOLDEN_STATUS {
        let doc = golden(file, "status", flags);
        let item = doc["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["policy"] == locator(policy));
        let item = item.unwrap_or_else(|| panic!("{file}: no status for {policy}"));
        assert_eq!(item["conditions"][1]["reason"], *reason, "{file} {policy}");
    }
}

#[test]
fn explain_lists_policies_in_merge_order_and_every_step() {
    let doc = dopol(&[
        "explain",
        "-f",
        "testdata/kgateway/ep-11268/manifests.yaml",
        "--route",
        "shop/example-route",
        "-o",
        "json",
    ])
    .json();
    let kind = &doc["items"][0]["kinds"][0];
    let names: Vec<&str> = kind["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "shop/extensionref-policy",
            "shop/policy-with-section-name",
            "shop/policy-without-section-name"
        ]
    );
    assert!(
        kind["policies"][0]["why"]
            .as_str()
            .unwrap()
            .starts_with("ExtensionRef filter #1")
    );
    let steps = kind["steps"].as_array().unwrap();
    // One step per policy, then the scopes combined.
    assert_eq!(steps.len(), 4);
    let second = crate::common::fixtures::step_changes(&steps[1]);
    assert_eq!(
        second,
        [("cors", "superseded"), ("transformation", "added")]
    );
    assert_eq!(steps[1]["strategy"], "AugmentedShallow");
    assert_eq!(steps[3]["block"], "all");
}

#[test]
fn kind_filter_takes_kind_dot_group() {
    for kind in [
        "TrafficPolicy.gateway.kgateway.dev",
        "trafficpolicies",
        "TrafficPolicy",
    ] {
        let doc = dopol(&[
            "effective",
            "-f",
            "testdata/kgateway/ep-11268/manifests.yaml",
            "-o",
            "json",
            "--kind",
            kind,
        ])
        .json();
        assert_eq!(
            doc["items"][0]["policyGroup"], "gateway.kgateway.dev",
            "{kind}"
        );
    }
    let doc = dopol(&[
        "effective",
        "-f",
        "testdata/kgateway/ep-11268/manifests.yaml",
        "-o",
        "json",
        "--kind",
        "TrafficPolicy.kuadrant.io",
    ]);
    doc.code(2).stderr_has(&["unknown policy kind"]);
}

/// kgateway's ListenerSet goldens (`testdata/realworld/kgateway-listener-sets/`, see its
/// `ORIGIN.md`; field-2026 §3.1), through the derived copies that give the Gateway a listener.
const LISTENER_SETS: &str = "testdata/realworld/kgateway-listener-sets/derived";

/// The status item of `policy` on `file`.
fn status_of(file: &str, policy: &str) -> Value {
    let doc = dopol(&["status", "-o", "json", "-f", file]).json();
    (doc["items"].as_array().into_iter().flatten())
        .find(|i| i["policy"] == policy)
        .cloned()
        .unwrap_or_else(|| panic!("no status of {policy}"))
}

/// The TrafficPolicy rules of path `id` on `file` (`null` when it has none).
fn rules_on(file: &str, id: &str) -> Value {
    let doc = dopol(&[
        "effective",
        "-o",
        "json",
        "--kind",
        "TrafficPolicy",
        "-f",
        file,
    ])
    .json();
    (doc["items"].as_array().into_iter().flatten())
        .find(|i| i["pathId"] == id)
        .map_or(Value::Null, |i| i["rules"].clone())
}

/// `shared-port-policy-isolation`: a `ListenerSet` + `sectionName` TrafficPolicy reaches the
/// routes of that set listener only, and reports on the ListenerSet (no `sectionName`).
#[test]
fn a_set_listener_policy_reaches_its_listener_and_reports_on_the_set() {
    let file = format!("{LISTENER_SETS}/shared-port-policy-isolation.yaml");
    let policy = "trafficpolicy.gateway.kgateway.dev:default/specific-listener-policy";
    let gw = "kgateway|default/example-gateway|default/example-gateway";
    let specific = rules_on(
        &file,
        &format!(
            "{gw}>default/specific-listenerset#http-9090|default/specific-route|default/specific-route#rule-1"
        ),
    );
    assert_eq!(
        specific["cors"]["value"],
        serde_json::json!({"allowOrigins": ["https://team-b-only.example.com"], "maxAge": 5})
    );
    assert_eq!(specific["cors"]["source"], policy);
    assert_eq!(specific["cors"]["origins"], serde_json::json!([policy]));
    let wildcard = rules_on(
        &file,
        &format!(
            "{gw}>default/wildcard-listenerset#http-9090|default/wildcard-route|default/wildcard-route#rule-1"
        ),
    );
    assert!(wildcard.get("cors").is_none(), "{wildcard}");
    // Upstream does not serve that path at all; dopol keeps it and says so.
    let lint = dopol(&["lint", "-o", "json", "-f", &file]).json();
    let isolated = (lint["diagnostics"].as_array().into_iter().flatten()).any(|d| {
        d["name"] == "shared-port-hostname-isolation"
            && d["object"] == "HTTPRoute default/wildcard-route"
    });
    assert!(isolated, "{lint}");
    let status = status_of(&file, policy);
    assert_eq!(
        status["ancestors"],
        serde_json::json!([{
            "ancestorRef": {"group": "gateway.networking.k8s.io", "kind": "ListenerSet",
                "namespace": "default", "name": "specific-listenerset"},
            "conditions": [
                {"type": "Accepted", "status": "True", "reason": "Valid", "message": "Policy accepted"},
                {"type": "Attached", "status": "True", "reason": "Attached", "message": "Attached to all targets"}
            ]
        }])
    );
}

/// `shared-port-route-policy-ancestor`: a route policy's route scope on a path through a
/// ListenerSet reports on the set, with the parentRef's `sectionName` (none here).
#[test]
fn a_route_policy_through_a_listener_set_reports_on_the_set() {
    let file = format!("{LISTENER_SETS}/shared-port-route-policy-ancestor.yaml");
    let status = status_of(
        &file,
        "trafficpolicy.gateway.kgateway.dev:default/b-route-policy",
    );
    let refs: Vec<&Value> = (status["ancestors"].as_array().into_iter().flatten())
        .map(|a| &a["ancestorRef"])
        .collect();
    assert_eq!(
        refs,
        [
            &serde_json::json!({"group": "gateway.networking.k8s.io", "kind": "ListenerSet",
            "namespace": "default", "name": "b-listenerset"})
        ]
    );
    let gw = "kgateway|default/example-gateway|default/example-gateway";
    let a = rules_on(
        &file,
        &format!("{gw}>default/a-listenerset#http-9090|default/a-route|default/a-route#rule-1"),
    );
    assert!(
        a.is_null() || a.as_object().is_some_and(|r| r.is_empty()),
        "{a}"
    );
}

/// `explain` on a path through a ListenerSet's listener lists the `S#L` policies, then the `S`
/// ones, at the listener level, before the Gateway's (field-2026 §3.1).
#[test]
fn explain_lists_the_listener_set_level() {
    let out = dopol(&[
        "explain",
        "-f",
        "testdata/kgateway/listenerset-targets/manifests.yaml",
        "--path",
        "kgateway|infra/gw|infra/gw>infra/ext#http|shop/app|shop/app#rule-1",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let at = |needle: &str| {
        (out.stdout.find(needle)).unwrap_or_else(|| panic!("no {needle:?}:\n{}", out.stdout))
    };
    let (set_listener, set, gateway) = (
        at("1  infra/set-http  listener infra/gw>infra/ext#http"),
        at("2  infra/set-wide  ListenerSet infra/ext"),
        at("3  infra/gw-wide   Gateway infra/gw"),
    );
    assert!(set_listener < set && set < gateway, "{}", out.stdout);
}
