//! The rule cut (docs/families.md §5.2) and the conditional-list reading (§5.4) as pure functions; the
//! fold over whole manifests is checked by `testdata/agentgateway/` (`tests/it/agentgateway.rs`).

use super::keys::{Section, conditional_without_fallback, is_union, rules};
use crate::families::kgateway::testing::{j, yaml};

/// `(key, compact JSON value)` of a spec's rules.
fn cut(spec: &str) -> Vec<(String, String)> {
    rules(&yaml(spec))
        .into_iter()
        .map(|r| (r.key.to_string(), r.value.to_json().to_string()))
        .collect()
}

#[test]
fn sections_split_and_phase_are_cut_as_the_proxy_stores_them() {
    let keys: Vec<String> = cut("
frontend: {tcp: {keepalive: {}}}
traffic:
  timeouts: {request: 1s}
  headerModifiers: {request: {set: []}, response: {add: []}}
  rateLimit: {local: [{requests: 1, unit: Seconds}], global: {domain: d}}
backend:
  ai: {prompt: {}, defaults: []}
  mcp: {authorization: {policy: {}}}
  http: {version: HTTP2}
strategy: {inheritance: Override}
")
    .into_iter()
    .map(|(k, _)| k)
    .collect();
    assert_eq!(
        keys,
        [
            "backend.ai.defaults",
            "backend.ai.prompt",
            "backend.http",
            "backend.mcp.authorization",
            "frontend.tcp",
            "traffic.headerModifiers.request",
            "traffic.headerModifiers.response",
            "traffic.rateLimit.global",
            "traffic.rateLimit.local",
            "traffic.timeouts",
        ]
    );
}

#[test]
fn pre_routing_policies_fold_apart_and_phase_is_no_key() {
    let cut = cut("traffic: {phase: PreRouting, extAuth: {x: 1}, authorization: {policy: {}}}");
    let keys: Vec<&str> = cut.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["preRouting.authorization", "preRouting.extAuth"]);
    assert_eq!(Section::of(keys[0]), Section::PreRouting);
    assert!(is_union(keys[0]));
}

#[test]
fn a_conditional_rate_limit_is_split_by_what_each_entry_sets() {
    let cut = cut("
traffic:
  rateLimit:
    conditional:
    - {condition: a, policy: {local: [1], global: {g: 1}}}
    - {condition: b, policy: {global: {g: 2}}}
    - {policy: {global: {g: 3}}}
");
    assert_eq!(cut[0].0, "traffic.rateLimit.global");
    assert_eq!(
        cut[0].1,
        j(
            "{conditional: [{condition: a, policy: {global: {g: 1}}}, {condition: b, policy: {global: {g: 2}}}, {policy: {global: {g: 3}}}]}"
        )
    );
    assert_eq!(cut[1].0, "traffic.rateLimit.local");
    assert_eq!(
        cut[1].1,
        j("{conditional: [{condition: a, policy: {local: [1]}}]}")
    );
}

#[test]
fn only_a_conditional_list_without_a_fallback_shadows() {
    let list = yaml("{conditional: [{condition: a, policy: {}}]}");
    let fallback = yaml("{conditional: [{condition: a, policy: {}}, {policy: {}}]}");
    assert!(conditional_without_fallback("traffic.extAuth", &list));
    assert!(!conditional_without_fallback("traffic.extAuth", &fallback));
    assert!(!conditional_without_fallback("traffic.timeouts", &list));
    assert!(!conditional_without_fallback(
        "traffic.extAuth",
        &yaml("{x: 1}")
    ));
}
