//! Envoy Gateway on upstream manifests (issue 47, points 1, 7 and 8): what the controller's
//! goldens and docs say, through the binary, on the fixtures of `testdata/fidelity2/envoy-*`
//! (each with its `ORIGIN.md`).
//!
//! - `mergeType` merges the route's and its parent's rate-limit rules (route first), as Envoy
//!   Gateway merges the built rate limits, and the parent is then not "overridden everywhere";
//! - a ClientTrafficPolicy on a Gateway without routes configures its listeners: `effective`,
//!   `reach` and `lint` say so;
//! - `explain` of a `mergeType` policy says what is merged from whom.

use crate::common::{dopol, effective, findings};
use serde_json::{Value, json};

const BTP: &str = "BackendTrafficPolicy";
const LOCATOR: &str = "backendtrafficpolicy.gateway.envoyproxy.io:";

/// The `rules.<key>` entry of the effective item of `kind` on `path_id`.
fn rule(doc: &Value, kind: &str, path_id: &str, key: &str) -> Value {
    doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["policyKind"] == kind && i["pathId"] == path_id)
        .unwrap_or_else(|| panic!("no {kind} item on {path_id}"))["rules"][key]
        .clone()
}

fn btp(name: &str) -> String {
    format!("{LOCATOR}{name}")
}

/// A rate-limit rule matching header `x-user-id: <value>`, 5 per hour, as the manifests write it
/// (plus the CRD's `invert: false` default).
fn user_rule(value: &str, shared: Option<bool>) -> Value {
    let mut rule = json!({
        "clientSelectors": [{"headers": [{"name": "x-user-id", "type": "Exact", "value": value, "invert": false}]}],
        "limit": {"requests": 5, "unit": "Hour"},
    });
    if let Some(shared) = shared {
        rule["shared"] = json!(shared);
    }
    rule
}

const GW1: &str = "envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#http|default/httproute-1|default/httproute-1#rule-1";
const GW2: &str = "envoy-gateway-class|envoy-gateway/gateway-2|envoy-gateway/gateway-2#http|default/httproute-1|default/httproute-1#rule-1";

/// The two translator goldens: on gateway-1 the route's rule then the Gateway's, both origins;
/// on gateway-2 (no Gateway policy) the route's alone.
#[test]
fn merge_type_enforces_the_rate_limit_rules_of_the_route_and_its_parent() {
    for (block, ty, shared) in [("local", "Local", None), ("global", "Global", Some(true))] {
        let dir = format!("testdata/fidelity2/envoy-merge-{block}-ratelimit/as-manifests.yaml");
        let out = effective(&[&dir], &[]);
        out.code(0);
        let doc = out.json();
        let merged = rule(&doc, BTP, GW1, "rateLimit");
        assert_eq!(
            merged["value"],
            json!({"type": ty, block: {"rules": [user_rule("one", shared), user_rule("two", shared)]}}),
            "{block}"
        );
        assert_eq!(merged["source"], btp("default/policy-for-route"), "{block}");
        assert_eq!(
            merged["origins"],
            json!([
                btp("default/policy-for-route"),
                btp("envoy-gateway/policy-for-gateway1")
            ]),
            "{block}"
        );
        let alone = rule(&doc, BTP, GW2, "rateLimit");
        assert_eq!(
            alone["value"],
            json!({"type": ty, block: {"rules": [user_rule("one", shared)]}}),
            "{block}"
        );
        assert_eq!(alone["origins"], json!([btp("default/policy-for-route")]));
        // The rest of the golden's traffic settings on gateway-1.
        assert_eq!(
            rule(&doc, BTP, GW1, "httpUpgrade")["value"],
            json!([{"type": "spdy/3.1"}, {"type": "websocket"}])
        );
        assert_eq!(
            rule(&doc, BTP, GW1, "timeout")["value"],
            json!({"tcp": {"connectTimeout": "10s"}, "http": {"connectionIdleTimeout": "16s", "maxConnectionDuration": "17s"}})
        );
        // The Gateway policy's rule is merged, not superseded.
        let lint = dopol(&["lint", "-o", "json", "-f", &dir]);
        lint.code(0);
        let codes: Vec<String> = findings(&lint.json()).into_iter().map(|f| f.0).collect();
        assert_eq!(
            codes,
            ["DPL6004", "DPL6004"],
            "{block}: only deprecated-target-ref"
        );
    }
}

const CONCEPT: &str = "testdata/fidelity2/envoy-concept-merge-ratelimit";
const CONCEPT_PATH: &str = "eg|default/eg|default/eg#http|default/signup-service-httproute|default/signup-service-httproute#rule-1";

fn cidr_rule(requests: u64, unit: &str, shared: bool) -> Value {
    json!({
        "clientSelectors": [{"sourceCIDR": {"type": "Distinct", "value": "0.0.0.0/0", "invert": false}}],
        "limit": {"requests": requests, "unit": unit},
        "shared": shared,
    })
}

/// The concept page: "both rate limits being enforced", and no DPL4001 on the Gateway policy.
#[test]
fn the_concept_page_example_enforces_both_rate_limits() {
    let out = effective(&[CONCEPT], &[]);
    out.code(0);
    let merged = rule(&out.json(), BTP, CONCEPT_PATH, "rateLimit");
    assert_eq!(
        merged["value"],
        json!({"global": {"rules": [cidr_rule(5, "Minute", false), cidr_rule(100, "Second", true)]}})
    );
    assert_eq!(
        merged["origins"],
        json!([
            btp("default/route-backendtrafficpolicy"),
            btp("default/global-backendtrafficpolicy")
        ])
    );
    let lint = dopol(&["lint", "-o", "json", "-f", CONCEPT]);
    lint.code(0);
    assert_eq!(findings(&lint.json()), Vec::new());
}

/// `explain` of a `mergeType` route policy (point 8): the winner step says its fields are merged
/// with its parent's, the merge step says what is inherited, merged and how `rateLimit`
/// combines, the Legend has `&`, and "Result:" names every origin of a merged key. The whole
/// text, reviewed.
#[test]
fn explain_says_what_merge_type_merges_from_whom() {
    let out = dopol(&[
        "explain",
        "-f",
        "testdata/fidelity2/envoy-merge-local-ratelimit/as-manifests.yaml",
        "--path",
        GW1,
    ]);
    out.code(0);
    assert_eq!(out.stdout, EXPLAIN_GW1);
    let json = dopol(&[
        "explain",
        "-o",
        "json",
        "-f",
        "testdata/fidelity2/envoy-merge-local-ratelimit/as-manifests.yaml",
        "--path",
        GW1,
    ]);
    json.code(0);
    let both = json!([
        btp("default/policy-for-route"),
        btp("envoy-gateway/policy-for-gateway1")
    ]);
    assert_eq!(
        json.json()["items"][0]["kinds"][0]["origins"],
        json!([
            {"key": "httpUpgrade", "origins": both},
            {"key": "rateLimit", "origins": both},
            {"key": "timeout", "origins": both},
        ])
    );
}

const EXPLAIN_GW1: &str = r#"Legend: + added  = superseded (a default that lost to E)  ~ replaced  - dropped  & merged  x deactivated  ! not applied

Path envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#http|default/httproute-1|default/httproute-1#rule-1

BackendTrafficPolicy — 2 policies, most specific slot first (route rule, route, listener, Gateway); on each slot the oldest policy, then namespace/name, holds it and the others are Conflicted there:
  #  POLICY                             TARGET                           BLOCKS  CREATED  WHY HERE
  1  default/policy-for-route           HTTPRoute default/httproute-1            -        holds the route slot HTTPRoute default/httproute-1 (first in age order)
  2  envoy-gateway/policy-for-gateway1  Gateway envoy-gateway/gateway-1          -        holds the Gateway slot Gateway envoy-gateway/gateway-1 (first in age order)

  Defaulted by the CRD (the API server adds them; the fold reads them as written):
  [1] spec.rateLimit.local.rules[0].clientSelectors[0].headers[0].invert = false
  [2] spec.rateLimit.local.rules[0].clientSelectors[0].headers[0].invert = false

  Merge steps, in order:
  [1] default/policy-for-route, BackendTrafficPolicy default/policy-for-route holds the most specific slot of the path: with mergeType StrategicMerge, its fields are merged with those of its parent BackendTrafficPolicy envoy-gateway/policy-for-gateway1 in the next step
      + connection
      + httpUpgrade
      + rateLimit
      + timeout
  [1] default/policy-for-route, mergeType StrategicMerge: merged with its parent BackendTrafficPolicy envoy-gateway/policy-for-gateway1 (the holder of Gateway envoy-gateway/gateway-1): keys only the parent sets are inherited from it (none here); keys both set are merged, the route policy's values winning (`httpUpgrade`, `rateLimit`, `timeout`; `rateLimit`: the rate-limit rules of both are enforced, the route policy's first); keys only the route policy sets (`connection`)
      + connection
      & httpUpgrade  with default/policy-for-route
      & rateLimit  with default/policy-for-route
      & timeout  with default/policy-for-route
  Result:
      connection ← default/policy-for-route
      httpUpgrade ← default/policy-for-route & envoy-gateway/policy-for-gateway1
      rateLimit ← default/policy-for-route & envoy-gateway/policy-for-gateway1
      timeout ← default/policy-for-route & envoy-gateway/policy-for-gateway1
"#;
