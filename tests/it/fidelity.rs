//! Saying exactly what the Kuadrant operator and the API server would say: Accepted=False
//! messages, names the API server rejects, objects that exist in another namespace, `explain`
//! on superseded atomic defaults, DPL4001 severities, unserved API versions, `diff` condition
//! messages, and `reach --policy`. Each case runs the real binary on a fixture under
//! `testdata/fidelity/` and asserts exact text or values.

use crate::common::{Finding, dopol, findings, rules};
use serde_json::Value;

/// Every lint diagnostic, in output order, with the document and the exit code.
fn lint(dir: &str, extra: &[&str]) -> (Vec<Finding>, Value, i32) {
    let mut args = vec!["lint", "-o", "json", "-f", dir];
    args.extend_from_slice(extra);
    let out = dopol(&args);
    let doc = out.json();
    (findings(&doc), doc, out.code)
}

fn condition<'a>(status: &'a Value, policy: &str, kind: &str) -> &'a Value {
    status["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["policy"] == policy)
        .unwrap_or_else(|| panic!("no status for {policy}"))["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} condition for {policy}"))
}

#[test]
fn accepted_false_names_the_policy_kind_as_the_operator_does() {
    let out = dopol(&[
        "status",
        "-o",
        "json",
        "-f",
        "testdata/fidelity/status-message",
    ]);
    out.code(0);
    let doc = out.json();
    for (policy, message) in [
        (
            "ratelimitpolicy.kuadrant.io:app/toystore-rlp",
            "RateLimitPolicy target toystore was not found",
        ),
        (
            "tokenratelimitpolicy.kuadrant.io:app/toystore-trlp",
            "TokenRateLimitPolicy target shop#rule-9 was not found",
        ),
        (
            "authpolicy.kuadrant.io:infra/gw-auth",
            "AuthPolicy target gw#https was not found",
        ),
    ] {
        let accepted = condition(&doc, policy, "Accepted");
        assert_eq!(accepted["status"], "False", "{policy}");
        assert_eq!(accepted["reason"], "TargetNotFound", "{policy}");
        assert_eq!(accepted["message"], message, "{policy}");
    }
    // The lint message keeps naming the target's kind, which says what is missing.
    let (found, _, _) = lint("testdata/fidelity/status-message", &[]);
    assert_eq!(
        found[0].3,
        "HTTPRoute target toystore was not found; RateLimitPolicy app/toystore-rlp is not accepted (TargetNotFound)"
    );
}

#[test]
fn diff_reports_the_accepted_message_with_the_policy_kind() {
    let out = dopol(&[
        "diff",
        "testdata/fidelity/severities",
        "testdata/fidelity/status-message",
        "-o",
        "json",
    ]);
    out.code(1);
    let doc = out.json();
    let status = doc["status"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["policy"] == "ratelimitpolicy.kuadrant.io:app/toystore-rlp")
        .expect("the new policy's conditions");
    assert_eq!(
        status["after"][0]["message"],
        "RateLimitPolicy target toystore was not found"
    );
}

#[test]
fn names_the_api_server_rejects_are_input_errors_with_the_rule_and_a_template_hint() {
    let out = dopol(&["lint", "-f", "testdata/fidelity/names"]);
    out.code(3);
    out.stdout_has(&[
        "× [DPL1013] `metadata.name` `${KUADRANT_GATEWAY_NAME}` is not a valid name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "help: `${KUADRANT_GATEWAY_NAME}` looks like an unexpanded template placeholder; render the manifest before checking it, e.g. `envsubst < manifest.yaml | dopol lint -f -`",
        "× [DPL1015] spec.listeners[0].hostname: Invalid value: \"maas.${CLUSTER_DOMAIN}\": spec.listeners[0].hostname in body should match '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'",
        "help: `${CLUSTER_DOMAIN}` looks like an unexpanded template placeholder",
        "help: `$(NAMESPACE)` looks like an unexpanded template placeholder; render the manifest before checking it, e.g. `envsubst < manifest.yaml | dopol lint -f -`",
    ]);
    let (found, _, code) = lint("testdata/fidelity/names", &[]);
    assert_eq!(code, 3);
    let names: Vec<(&str, u64)> = found
        .iter()
        .map(|(c, _, line, _)| (c.as_str(), *line))
        .collect();
    assert_eq!(
        names,
        [
            ("DPL1013", 5),
            ("DPL1015", 19),
            ("DPL1013", 33),
            ("DPL1013", 39),
            ("DPL1015", 47),
            ("DPL1015", 48),
            ("DPL1015", 63),
        ]
    );
    assert!(
        found[2]
            .3
            .starts_with("`metadata.name` `Shop_Route` is not a valid name")
    );
    assert!(found[3].3.starts_with(
        "`metadata.namespace` `$(NAMESPACE)` is not a valid namespace name: a lowercase RFC 1123 label"
    ));
    assert!(found[4].3.starts_with(
        "spec.parentRefs[0].sectionName: Invalid value: \"HTTP\": spec.parentRefs[0].sectionName in body should match"
    ));
    assert!(
        found[5]
            .3
            .starts_with("spec.hostnames[1]: Invalid value: \"api.example.com:8080\"")
    );
    assert!(
        found[6]
            .3
            .starts_with("spec.targetRef.sectionName: Invalid value: \"Checkout\"")
    );

    // The rejected objects are left out; the valid rest is evaluated.
    let out = dopol(&["effective", "-o", "json", "-f", "testdata/fidelity/names"]);
    out.code(3);
    let doc = out.json();
    let got = rules(
        &doc,
        "RateLimitPolicy",
        "istio|gateway-system/ok|gateway-system/ok#http|app/good|app/good#checkout",
    );
    assert_eq!(got.len(), 1);
    assert_eq!(
        (got[0].key.as_str(), got[0].source.as_str()),
        ("a", "ratelimitpolicy.kuadrant.io:app/good-limits")
    );
    assert_eq!(doc["items"].as_array().unwrap().len(), 1);
}

#[test]
fn an_invalid_namespace_flag_is_a_usage_error() {
    let out = dopol(&["effective", "-f", "testdata/fidelity/names", "-n", "${NS}"]);
    out.code(2).stderr_has(&[
        "-n `${NS}` is not a valid namespace name: a lowercase RFC 1123 label",
        "`${NS}` looks like an unexpanded template placeholder",
    ]);
}

#[test]
fn references_to_objects_in_another_namespace_say_where_they_are() {
    let out = dopol(&["lint", "-f", "testdata/fidelity/elsewhere"]);
    out.code(1);
    out.stdout_has(&[
        "[DPL2001] parentRef names Gateway default/kuadrant-ingressgateway, which is not in the input; a Gateway kuadrant-ingressgateway exists in namespace `gateway-system` (ParentNotFound)",
        "help: HTTPRoute default/toystore has no metadata.namespace and was read into the default namespace; if it belongs in `gateway-system` (as with `kubectl apply -n gateway-system`), pass `-n gateway-system` or set `metadata.namespace: gateway-system`; if it is meant to stay in `default`, set `parentRef.namespace: gateway-system` (a listener of the Gateway must then admit namespace `default` in `allowedRoutes`)",
        "[DPL2001] parentRef names Gateway gateway-sytem/kuadrant-ingressgateway, which is not in the input; a Gateway kuadrant-ingressgateway exists in namespace `gateway-system` (ParentNotFound)",
        "help: the parentRef's `namespace` names the wrong namespace: set it to `gateway-system`",
        "[DPL3001] Gateway target kuadrant-ingressgateway was not found in namespace `default` (a Gateway kuadrant-ingressgateway exists in namespace `gateway-system`); AuthPolicy default/gw-auth is not accepted (TargetNotFound)",
        "help: a targetRef names an object in the policy's own namespace; AuthPolicy default/gw-auth has no metadata.namespace and was read into the default namespace; if it belongs in `gateway-system` (as with `kubectl apply -n gateway-system`), pass `-n gateway-system` or set `metadata.namespace: gateway-system`",
        "[DPL3001] HTTPRoute target toystore was not found in namespace `shop` (an HTTPRoute toystore exists in namespace `default`); RateLimitPolicy shop/toystore is not accepted (TargetNotFound)",
        // The route found elsewhere is the one without metadata.namespace: it is the one to move.
        "help: HTTPRoute default/toystore has no metadata.namespace and was read into the default namespace; if it belongs in `shop` (as with `kubectl apply -n shop`), pass `-n shop` or set `metadata.namespace: shop`",
    ]);
    assert!(
        !out.stdout.contains("--assume-gateways"),
        "a stand-in would hide the cause:\n{}",
        out.stdout
    );

    // Following the hint fixes it: with `-n gateway-system` the route attaches and the
    // Gateway policy is accepted.
    let out = dopol(&[
        "effective",
        "-o",
        "json",
        "-n",
        "gateway-system",
        "-f",
        "testdata/fidelity/elsewhere",
    ]);
    out.code(0);
    let got = rules(
        &out.json(),
        "AuthPolicy",
        "istio|gateway-system/kuadrant-ingressgateway|gateway-system/kuadrant-ingressgateway#api|gateway-system/toystore|gateway-system/toystore#rule-1",
    );
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].key, "authorization#deny-all");
    assert_eq!(
        got[0].source,
        "authpolicy.kuadrant.io:gateway-system/gw-auth"
    );
}

#[test]
fn a_stand_in_for_a_gateway_that_exists_elsewhere_is_a_warning() {
    let out = dopol(&[
        "effective",
        "-f",
        "testdata/fidelity/elsewhere",
        "--assume-gateways",
    ]);
    out.code(0).stderr_has(&[
        "⚠ [DPL2009] Gateway default/kuadrant-ingressgateway is not in the input; assuming a stand-in (class `unknown`, listeners: default), although a Gateway kuadrant-ingressgateway exists in namespace `gateway-system`",
        "help: HTTPRoute default/toystore has no metadata.namespace and was read into the default namespace",
    ]);
}

#[test]
fn explain_says_what_happened_to_each_superseded_atomic_default() {
    let out = dopol(&[
        "explain",
        "-f",
        "testdata/fidelity/explain-atomic",
        "--route",
        "toystore/toystore",
    ]);
    out.code(0);
    let expected = "  [1] api-gateway/external-auth, defaults (atomic): E already had rules, so none of its rules apply [GEP-713: Atomic defaults]
      = authorization#deny-all  not applied: atomic defaults apply only to an empty E, and E has rules from toystore/toystore-auth
      = conditions#  not applied (atomic defaults, E not empty); E has its own, from toystore/toystore-auth
  Result:
      authentication#api-key-users ← toystore/toystore-auth
      conditions# ← toystore/toystore-auth
";
    assert!(out.stdout.ends_with(expected), "{}", out.stdout);
    assert!(!out.stdout.contains("kept from"), "{}", out.stdout);
    // Neither policy writes `strategy`: the CRD defaults it to atomic, and explain says so.
    for position in [1, 2] {
        let line = format!("\n  [{position}] spec.defaults.strategy = \"atomic\"\n");
        assert!(out.stdout.contains(&line), "{}", out.stdout);
    }
}

#[test]
fn a_gateway_default_every_route_replaces_is_info_and_an_override_that_loses_a_warning() {
    let (found, _, code) = lint("testdata/fidelity/severities", &[]);
    assert_eq!(code, 0);
    let got: Vec<(&str, &str, u64)> = found
        .iter()
        .map(|(c, s, l, _)| (c.as_str(), s.as_str(), *l))
        .collect();
    assert_eq!(
        got,
        [
            ("DPL4001", "info", 20),
            ("DPL4001", "info", 30),
            ("DPL4001", "warning", 61),
            ("DPL4001", "warning", 70),
        ]
    );
    assert_eq!(
        found[0].3,
        "AuthPolicy infra/deny-all: none of its rules is effective on any path (a gateway-level default every route replaces, as when each route brings its own policy)"
    );
    assert_eq!(
        found[3].3,
        "RateLimitPolicy app/shop-limits: none of its rules is effective on any path (RateLimitPolicy is overridden by [infra/gw-cap])"
    );
    // The documented deny-all pattern passes `--fail-on warning` once the accidents are gone.
    let (_, _, code) = lint(
        "testdata/fidelity/explain-atomic",
        &["--fail-on", "warning"],
    );
    assert_eq!(code, 0);
    let (_, _, code) = lint("testdata/fidelity/severities", &["--fail-on", "warning"]);
    assert_eq!(code, 1);
}

#[test]
fn diff_shows_the_message_when_only_the_message_changed() {
    let out = dopol(&[
        "diff",
        "testdata/fidelity/diff-message/old",
        "testdata/fidelity/diff-message/new",
    ]);
    out.code(1);
    assert!(
        out.stdout.ends_with(
            "Status:\n  infra/gw-limits\n    Enforced True (Enforced): \"RateLimitPolicy has been partially enforced\" → \"RateLimitPolicy has been successfully enforced\"\n1 path changed: 1 rule added, 0 removed, 1 changed; 1 status change\n"
        ),
        "{}",
        out.stdout
    );
    // A state change prints the new state and its message.
    let out = dopol(&[
        "diff",
        "testdata/fidelity/diff-message/new",
        "testdata/fidelity/status-message",
    ]);
    out.code(1).stdout_has(&[
        "  app/toystore-rlp\n    Accepted (absent) → False (TargetNotFound): RateLimitPolicy target toystore was not found\n",
        "  infra/gw-limits\n    Accepted True (Accepted) → (absent)\n    Enforced True (Enforced) → (absent)\n",
    ]);
}

#[test]
fn reach_takes_the_policy_as_a_flag_too() {
    let positional = dopol(&[
        "reach",
        "infra/platform-auth",
        "-f",
        "testdata/examples/shop",
    ]);
    let flag = dopol(&[
        "reach",
        "--policy",
        "infra/platform-auth",
        "-f",
        "testdata/examples/shop",
    ]);
    positional.code(0);
    flag.code(0);
    assert_eq!(positional.stdout, flag.stdout);
    assert!(
        flag.stdout
            .starts_with("AuthPolicy infra/platform-auth reaches 5 of 5 paths\n")
    );
    let one = dopol(&[
        "reach",
        "--policy",
        "app/shop-limits",
        "-f",
        "testdata/fidelity/severities",
    ]);
    one.code(0);
    assert!(
        one.stdout
            .starts_with("RateLimitPolicy app/shop-limits reaches 0 of 1 path\n"),
        "{}",
        one.stdout
    );
    dopol(&[
        "reach",
        "a/b",
        "--policy",
        "c/d",
        "-f",
        "testdata/examples/shop",
    ])
    .code(2);
}

#[test]
fn counts_read_as_english() {
    let out = dopol(&["effective", "-v", "-f", "testdata/fidelity/severities"]);
    out.code(0).stderr_has(&[
        "read 1 file, 8 documents: 8 objects dopol reads (1 gateway, 1 route, 6 policies), 0 objects of other kinds skipped; 1 path",
    ]);
}

#[test]
fn the_hostname_label_of_dpl2004_points_at_the_listener_hostname() {
    let (_, doc, _) = lint("testdata/attachment", &[]);
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "DPL2004")
        .unwrap();
    let related = &d["related"][0];
    assert_eq!(
        (
            related["line"].as_u64(),
            related["column"].as_u64(),
            related["message"].as_str()
        ),
        (Some(26), Some(15), Some("hostname of listener `public`"))
    );
}

/// The rate limit CRDs reject bare `limits` beside `defaults`, not a bare `when`
/// (`!(has(self.defaults) && has(self.limits))`), and the operator reads only the block
/// (`Spec.Proper()`): the top-level `when` is no error, takes no part in the effective policy,
/// and is reported as ignored. AuthPolicy's CRD names `when`: still `exclusive-blocks`.
#[test]
fn a_rate_limit_policys_top_level_when_beside_defaults_is_accepted_and_ignored() {
    let dir = "testdata/codes/bare-field-ignored";
    let (found, _, code) = lint(dir, &[]);
    assert_eq!(code, 0);
    let codes: Vec<(&str, &str, u64)> = found
        .iter()
        .map(|f| (f.0.as_str(), f.1.as_str(), f.2))
        .collect();
    assert_eq!(codes, [("DPL4015", "warning", 22)]);
    let doc = crate::common::effective(&[dir], &[]).json();
    let keys: Vec<String> = rules(
        &doc,
        "RateLimitPolicy",
        "istio|infra/gw|infra/gw#http|infra/shop|infra/shop#rule-1",
    )
    .into_iter()
    .map(|r| format!("{} {}", r.key, r.source))
    .collect();
    assert_eq!(
        keys,
        ["per-client ratelimitpolicy.kuadrant.io:infra/gw-limits"]
    );
    let auth = "apiVersion: kuadrant.io/v1
kind: AuthPolicy
metadata: {name: a, namespace: infra}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  when:
  - predicate: \"request.method == 'GET'\"
  defaults:
    rules: {authentication: {anon: {anonymous: {}}}}
";
    let out = crate::common::run_in(
        &crate::common::root(),
        &["lint", "-o", "json", "-f", "-"],
        Some(auth.as_bytes()),
    );
    let found: Vec<(String, String)> = findings(&out.json())
        .into_iter()
        .map(|f| (f.0, f.3))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "DPL1016", "{found:?}");
    assert!(
        found[0]
            .1
            .contains("Implicit and explicit defaults are mutually exclusive"),
        "{found:?}"
    );
}
