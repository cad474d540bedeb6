//! Envoy Gateway on upstream manifests (issue 47, points 1, 7 and 8): what the controller's
//! goldens and docs say, through the binary, on the fixtures of `testdata/fidelity2/envoy-*`
//! (each with its `ORIGIN.md`).
//!
//! - `mergeType` merges the route's and its parent's rate-limit rules (route first), as Envoy
//!   Gateway merges the built rate limits, and the parent is then not "overridden everywhere";
//! - a ClientTrafficPolicy on a Gateway without routes configures its listeners: `effective`,
//!   `reach` and `lint` say so;
//! - `explain` of a `mergeType` policy says what is merged from whom.

use crate::common::{GATEWAY, dopol, effective, findings, run_in, stream};
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
        let dir = format!(
            "testdata/fidelity2/envoy-merge-{block}-ratelimit/backendtrafficpolicy-strategic-merge-{block}-ratelimit.in.yaml"
        );
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
        "testdata/fidelity2/envoy-merge-local-ratelimit/backendtrafficpolicy-strategic-merge-local-ratelimit.in.yaml",
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
        "testdata/fidelity2/envoy-merge-local-ratelimit/backendtrafficpolicy-strategic-merge-local-ratelimit.in.yaml",
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
  [1] default/policy-for-route, BackendTrafficPolicy default/policy-for-route holds the most specific slot of the path: with mergeType StrategicMerge, its fields are merged with those of its parent BackendTrafficPolicy envoy-gateway/policy-for-gateway1 in the next step [GEP-713: Custom]
      + connection
      + httpUpgrade
      + rateLimit
      + timeout
  [1] default/policy-for-route, mergeType StrategicMerge: merged with its parent BackendTrafficPolicy envoy-gateway/policy-for-gateway1 (the holder of Gateway envoy-gateway/gateway-1): keys only the parent sets are inherited from it (none here); keys both set are merged, the route policy's values winning (`httpUpgrade`, `rateLimit`, `timeout`; `rateLimit`: the rate-limit rules of both are enforced, the route policy's first); keys only the route policy sets (`connection`) [GEP-713: Custom]
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

const CTP: &str = "testdata/fidelity2/envoy-ctp-no-route";
const CTP_LOCATOR: &str = "clienttrafficpolicy.gateway.envoyproxy.io:envoy-gateway/";

/// A ClientTrafficPolicy configures listeners no route is attached to (point 7): `effective`
/// shows each listener's settings as the golden's IR has them, `reach` names the listener, and
/// `lint` does not call the policies "in the path to nothing".
#[test]
fn client_traffic_policy_configures_listeners_without_routes() {
    let out = effective(&[CTP], &[]);
    out.code(0);
    let doc = out.json();
    assert_eq!(doc["items"], json!([]));
    let listener = |name: &str, policy: &str, value: Value| {
        let source = format!("{CTP_LOCATOR}{policy}");
        json!({
            "policyKind": "ClientTrafficPolicy",
            "policyGroup": "gateway.envoyproxy.io",
            "listenerId": format!("envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#{name}"),
            "gateway": "envoy-gateway/gateway-1",
            "listener": name,
            "rules": {"tcpKeepalive": {"value": value, "source": source, "origins": [source]}},
            "sources": [source],
        })
    };
    assert_eq!(
        doc["listeners"],
        json!([
            listener(
                "http-1",
                "target-gateway-1-section-http-1",
                json!({"probes": 3, "idleTime": "20m", "interval": "60s"})
            ),
            listener("http-2", "target-gateway-1", json!({})),
        ])
    );
    let table = dopol(&["effective", "-f", CTP]);
    table.code(0);
    assert_eq!(
        table.stdout,
        "Gateway envoy-gateway/gateway-1 (class envoy-gateway-class)
LISTENER  ROUTE RULE  KIND                 RULE KEY      SOURCE                                         VALUE
http-1    (no route)  ClientTrafficPolicy  tcpKeepalive  envoy-gateway/target-gateway-1-section-http-1  {probes: 3, idleTime: 20m, interval: 60s}
http-2    (no route)  ClientTrafficPolicy  tcpKeepalive  envoy-gateway/target-gateway-1                 {}
"
    );
    let reach = dopol(&["reach", "envoy-gateway/target-gateway-1", "-f", CTP]);
    reach.code(0);
    assert_eq!(
        reach.stdout,
        "ClientTrafficPolicy envoy-gateway/target-gateway-1 reaches 0 of 0 paths, and 1 listener no route is attached to

Gateway envoy-gateway/gateway-1
  listener http-2 (no route): tcpKeepalive
"
    );
    let reach = dopol(&[
        "reach",
        "envoy-gateway/target-gateway-1-section-http-1",
        "-o",
        "json",
        "-f",
        CTP,
    ]);
    reach.code(0);
    let doc = reach.json();
    assert_eq!(doc["listenersReached"], 1);
    assert_eq!(
        doc["effective"],
        json!([{"gateway": "envoy-gateway/gateway-1", "listeners": [{
            "listener": "http-1",
            "routes": [],
            "listenerId": "envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#http-1",
            "keys": ["tcpKeepalive"],
        }]}])
    );
    let lint = dopol(&["lint", "-o", "json", "-f", CTP]);
    lint.code(0);
    let codes: Vec<String> = findings(&lint.json()).into_iter().map(|f| f.0).collect();
    assert_eq!(codes, ["DPL6004", "DPL6004"], "only deprecated-target-ref");
}

/// A Gateway ClientTrafficPolicy every listener of which has its own is overridden everywhere
/// (DPL4001, info), not in the path to nothing; a listener with routes keeps its paths (and
/// gets no listener item).
#[test]
fn a_gateway_client_traffic_policy_overridden_on_every_listener_is_dpl4001() {
    // Beside the upstream input, piped in: listener http-2 gets its own policy, so the Gateway
    // policy wins nowhere.
    let http2 = "apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata:
  namespace: envoy-gateway
  name: target-gateway-1-section-http-2
spec:
  tcpKeepalive: {}
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: gateway-1
    sectionName: http-2
";
    let root = crate::common::root();
    let lint = run_in(
        &root,
        &["lint", "-o", "json", "-f", CTP, "-f", "-"],
        Some(http2.as_bytes()),
    );
    lint.code(0);
    let found = findings(&lint.json());
    let dpl4001: Vec<_> = found.iter().filter(|f| f.0 == "DPL4001").collect();
    assert_eq!(dpl4001.len(), 1, "{found:?}");
    assert_eq!(dpl4001[0].1, "info");
    assert!(
        dpl4001[0].3.contains("envoy-gateway/target-gateway-1:"),
        "{}",
        dpl4001[0].3
    );
    assert!(found.iter().all(|f| f.0 != "DPL4002"), "{found:?}");
    // With a route on http-1, its path carries the listener policy and http-1 has no listener
    // item; http-2 still has one.
    let route = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  namespace: envoy-gateway
  name: r
spec:
  parentRefs:
  - name: gateway-1
    sectionName: http-1
  rules:
  - backendRefs:
    - name: s
      port: 80
";
    let out = run_in(
        &root,
        &["effective", "-o", "json", "-f", CTP, "-f", "-"],
        Some(route.as_bytes()),
    );
    out.code(0);
    let doc = out.json();
    let on_path = rule(
        &doc,
        "ClientTrafficPolicy",
        "envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#http-1|envoy-gateway/r|envoy-gateway/r#rule-1",
        "tcpKeepalive",
    );
    assert_eq!(
        on_path["source"],
        format!("{CTP_LOCATOR}target-gateway-1-section-http-1")
    );
    let listeners: Vec<&str> = doc["listeners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["listener"].as_str().unwrap())
        .collect();
    assert_eq!(listeners, ["http-2"]);
}

/// `routingType` as Envoy Gateway's precedence index resolves it: the golden (a rule policy
/// without `mergeType` pins it unset, one with `mergeType` takes the Gateway's), and, from the
/// controller's code (`policyindex.go`; no golden covers it), a listener policy that does not
/// set it lets the Gateway's through, with or without `mergeType`.
#[test]
fn routing_type_is_resolved_as_the_precedence_index_does() {
    let dir = "testdata/fidelity2/envoy-routing-type-mergetype-unset";
    let out = effective(&[dir], &[]);
    out.code(0);
    let doc = out.json();
    let path = |rule: &str| {
        format!(
            "envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#http|default/httproute-1|default/httproute-1#{rule}"
        )
    };
    let btp_items = |rule: &str| {
        doc["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["policyKind"] == BTP && i["pathId"] == path(rule))
            .count()
    };
    assert_eq!(btp_items("rule-0"), 0, "no routingType on rule-0");
    let routing = rule(&doc, BTP, &path("rule-1"), "routingType");
    assert_eq!(routing["value"], "Service");
    assert_eq!(
        routing["origins"],
        json!([btp("envoy-gateway/policy-for-gateway")])
    );

    let route = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {namespace: shop, name: r}
spec:
  parentRefs: [{namespace: infra, name: gw, sectionName: http}]
  rules: [{backendRefs: [{name: s, port: 80}]}]
";
    let policy = |name: &str, section: &str, fields: &str| {
        format!(
            "apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata:
  namespace: infra
  name: {name}
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: gw{section}
{fields}"
        )
    };
    let gateway_policy = policy(
        "gateway",
        "",
        "  routingType: Service\n  timeout: {http: {requestTimeout: 30s}}\n",
    );
    let listener_policy = policy(
        "listener",
        "\n    sectionName: http",
        "  timeout: {http: {requestTimeout: 5s}}\n",
    );
    let input = stream(&[GATEWAY, route, &gateway_policy, &listener_policy]);
    let out = run_in(
        &crate::common::root(),
        &["effective", "-o", "json", "-f", "-"],
        Some(&input),
    );
    out.code(0);
    let doc = out.json();
    let path = "kuadrant|infra/gw|infra/gw#http|shop/r|shop/r#rule-1";
    let routing = rule(&doc, BTP, path, "routingType");
    assert_eq!(routing["value"], "Service");
    assert_eq!(routing["origins"], json!([btp("infra/gateway")]));
    let timeout = rule(&doc, BTP, path, "timeout");
    assert_eq!(timeout["value"], json!({"http": {"requestTimeout": "5s"}}));
    assert_eq!(timeout["source"], btp("infra/listener"));
    // `explain` says where `routingType` comes from.
    let explain = run_in(
        &crate::common::root(),
        &["explain", "--path", path, "-f", "-"],
        Some(&input),
    );
    explain.code(0);
    let steps: Vec<&str> = explain
        .stdout
        .lines()
        .skip_while(|l| !l.contains("Merge steps, in order:"))
        .skip(1)
        .collect();
    assert_eq!(
        steps,
        [
            "  [1] infra/listener, BackendTrafficPolicy infra/listener holds the most specific slot of the path: its fields are the effective policy as a whole but for `routingType` from BackendTrafficPolicy infra/gateway, which Envoy Gateway resolves through its precedence index; nothing else is inherited from less specific policies [GEP-713: Atomic defaults]",
            "      + timeout",
            "      + routingType",
            "      = timeout  the value from infra/listener stays",
            "  Result:",
            "      routingType ← infra/gateway",
            "      timeout ← infra/listener",
        ]
    );
}

/// Listener rows take their Gateway's place in path order (namespace, then name), whatever the
/// order of the input: Gateway `a` (listeners only) before Gateway `b` (a path), and `reach`
/// lists them the same way.
#[test]
fn listener_rows_follow_path_order() {
    let gateway = |name: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{namespace: infra, name: {name}}}
spec:
  gatewayClassName: eg
  listeners:
  - {{name: http, protocol: HTTP, port: 80, allowedRoutes: {{namespaces: {{from: All}}}}}}
"
        )
    };
    let route = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {namespace: infra, name: r}
spec:
  parentRefs: [{name: b}]
  rules: [{backendRefs: [{name: s, port: 80}]}]
";
    let ctp = "apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {namespace: infra, name: both}
spec:
  timeout: {http: {idleTimeout: 10s}}
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: b
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: a
";
    let input = stream(&[&gateway("b"), route, ctp, &gateway("a")]);
    let root = crate::common::root();
    let table = run_in(&root, &["effective", "-f", "-"], Some(&input));
    table.code(0);
    assert_eq!(
        table.stdout,
        "Gateway infra/a (class eg)
LISTENER  ROUTE RULE  KIND                 RULE KEY  SOURCE      VALUE
http      (no route)  ClientTrafficPolicy  timeout   infra/both  {http: {idleTimeout: 10s}}

Gateway infra/b (class eg)
LISTENER  ROUTE RULE      KIND                 RULE KEY  SOURCE      VALUE
http      infra/r#rule-1  ClientTrafficPolicy  timeout   infra/both  {http: {idleTimeout: 10s}}
"
    );
    let reach = run_in(&root, &["reach", "infra/both", "-f", "-"], Some(&input));
    reach.code(0);
    assert_eq!(
        reach.stdout,
        "ClientTrafficPolicy infra/both reaches 1 of 1 path, and 1 listener no route is attached to

Gateway infra/a
  listener http (no route): timeout

Gateway infra/b
  listener http
    HTTPRoute infra/r
      rule rule-1: timeout
"
    );
}

/// `status` counts a ClientTrafficPolicy's outcomes on the listeners it configures without
/// routes (the golden `clienttrafficpolicy-tcp-keepalive`): never "on no path" for a policy
/// that configures a listener.
#[test]
fn status_gives_the_outcomes_on_listeners_without_routes() {
    let table = dopol(&["status", "-f", CTP]);
    table.code(0);
    assert!(
        table.stdout.ends_with(
            "POLICY                                         RULE KEY      OUTCOMES
envoy-gateway/target-gateway-1                 tcpKeepalive  on listeners without routes: effective ×1, superseded ×1
envoy-gateway/target-gateway-1-section-http-1  tcpKeepalive  on listeners without routes: effective ×1
"
        ),
        "{}",
        table.stdout
    );
    let doc = dopol(&["status", "-f", CTP, "-o", "json"]).json();
    let listener = |name: &str| {
        format!("envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#{name}")
    };
    let rules = |policy: &str| {
        let items = doc["items"].as_array().unwrap();
        let item = items
            .iter()
            .find(|i| i["policy"] == format!("{CTP_LOCATOR}{policy}"))
            .unwrap();
        item["rules"].clone()
    };
    assert_eq!(
        rules("target-gateway-1"),
        json!([{"key": "tcpKeepalive", "outcomes": [], "listenerOutcomes": [
            {"listenerId": listener("http-1"), "outcome": "superseded",
             "by": [format!("{CTP_LOCATOR}target-gateway-1-section-http-1")]},
            {"listenerId": listener("http-2"), "outcome": "effective", "by": []},
        ]}])
    );
    assert_eq!(
        rules("target-gateway-1-section-http-1"),
        json!([{"key": "tcpKeepalive", "outcomes": [], "listenerOutcomes": [
            {"listenerId": listener("http-1"), "outcome": "effective", "by": []},
        ]}])
    );
}

/// A listener whose only paths go through route delegation, which Envoy Gateway policies do not
/// follow, still gets its ClientTrafficPolicy: the kind folds no path through it.
#[test]
fn a_listener_with_only_delegated_paths_keeps_its_client_traffic_policy() {
    let input = b"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: ns}
spec:
  gatewayClassName: eg
  listeners:
  - {name: a, port: 80, protocol: HTTP}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: parent, namespace: ns}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: c1}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: c1, namespace: ns}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: parent}]
  rules: [{}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: ctp, namespace: ns}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeout: {http: {idleTimeout: 5s}}
";
    let out = crate::common::run_in(
        &crate::common::root(),
        &["effective", "-o", "json", "-f", "-"],
        Some(input),
    );
    let doc = out.json();
    let source = "clienttrafficpolicy.gateway.envoyproxy.io:ns/ctp";
    assert_eq!(
        doc["listeners"],
        json!([{
            "policyKind": "ClientTrafficPolicy",
            "policyGroup": "gateway.envoyproxy.io",
            "listenerId": "eg|ns/gw|ns/gw#a",
            "gateway": "ns/gw",
            "listener": "a",
            "rules": {"timeout": {"value": {"http": {"idleTimeout": "5s"}}, "source": source, "origins": [source]}},
            "sources": [source],
        }])
    );
}

/// `diff` compares the listener-level settings too: a new ClientTrafficPolicy on a listener no
/// route is attached to is a change (never "No differences"), in text and JSON.
#[test]
fn diff_shows_changes_on_listeners_without_routes() {
    let args = [
        "diff",
        "-f",
        CTP,
        "--with",
        "testdata/whatif/ctp-section-http-2.yaml",
    ];
    let out = dopol(&args);
    out.code(1);
    assert_eq!(
        out.stdout,
        "Listeners without routes:
  envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#http-2
    ~ ClientTrafficPolicy tcpKeepalive  value and source changed (envoy-gateway/target-gateway-1 → envoy-gateway/target-gateway-1-section-http-2)
        - {}
        + probes: 5
Status:
  envoy-gateway/target-gateway-1
    Overridden True (Overridden): \"There are existing ClientTrafficPolicies that are overriding these sections [http-1]\" → \"There are existing ClientTrafficPolicies that are overriding these sections [http-1 http-2]\"
  envoy-gateway/target-gateway-1-section-http-2
    Accepted (absent) → True (Accepted): Policy has been accepted.
0 paths changed: 0 rules added, 0 removed, 0 changed; 2 status changes; 1 rule changed on listeners without routes
"
    );
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let doc = dopol(&json_args).json();
    let source = |name: &str| format!("{CTP_LOCATOR}{name}");
    assert_eq!(
        doc["listeners"],
        json!([{
            "listenerId": "envoy-gateway-class|envoy-gateway/gateway-1|envoy-gateway/gateway-1#http-2",
            "policyKind": "ClientTrafficPolicy",
            "key": "tcpKeepalive",
            "change": "changed",
            "before": {"value": {}, "source": source("target-gateway-1")},
            "after": {"value": {"probes": 5}, "source": source("target-gateway-1-section-http-2")},
            "valueChanged": true,
            "sourceChanged": true,
            "valueDiff": "- {}\n+ probes: 5\n",
        }])
    );
}
