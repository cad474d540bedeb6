//! RFC 0009 beyond the controller (docs/semantics.md#41-constraints-and-deactivation): constraints (`when` as CEL over the lower
//! effective policy) and deactivation (`unset`).

use crate::common::{
    GATEWAY, ROUTE, dopol, effective, owners, root, rules, run_in, stream, triples,
};

const PATH: &str = "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1";

fn values(example: &str, kind: &str) -> Vec<(String, serde_json::Value, String)> {
    let out = effective(&[&format!("testdata/rfc0009/{example}")], &[]);
    out.code(0);
    rules(&out.json(), kind, PATH)
        .into_iter()
        .map(|r| (r.key, r.value, r.source))
        .collect()
}

#[test]
fn e1_constraint_false_keeps_the_lower_rules() {
    assert_eq!(
        values("e1", "AuthPolicy"),
        [
            (
                "authentication#a".into(),
                serde_json::json!({"plain": {"selector": "route"}, "priority": 30, "metrics": false}),
                "authpolicy.kuadrant.io:app/route-auth".into()
            ),
            (
                "authentication#b".into(),
                serde_json::json!({"plain": {"selector": "route"}, "priority": 120, "metrics": false}),
                "authpolicy.kuadrant.io:app/route-auth".into()
            ),
        ]
    );
}

#[test]
fn e2_constraint_true_applies_the_merge_override() {
    assert_eq!(
        values("e2", "AuthPolicy"),
        [
            (
                "authentication#a".into(),
                serde_json::json!({"plain": {"selector": "gateway"}, "priority": 50, "metrics": false}),
                "authpolicy.kuadrant.io:infra/gw-auth".into()
            ),
            (
                "authentication#b".into(),
                serde_json::json!({"plain": {"selector": "route"}, "priority": 120, "metrics": false}),
                "authpolicy.kuadrant.io:app/route-auth".into()
            ),
        ]
    );
}

#[test]
fn e3_whole_limit_replaced_and_the_daily_rate_is_lost() {
    let got = values("e3", "RateLimitPolicy");
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].0, "a");
    assert_eq!(
        got[0].1,
        serde_json::json!({"rates": [{"limit": 50, "window": "10s"}]}),
        "only the 50/10s rate: 100/min and 10000/day are gone"
    );
    assert_eq!(got[0].2, "ratelimitpolicy.kuadrant.io:infra/gw-limits");
    assert_eq!(
        (got[1].0.as_str(), got[1].2.as_str()),
        ("b", "ratelimitpolicy.kuadrant.io:app/route-limits")
    );
}

#[test]
fn f1_unset_deactivates_a_higher_default() {
    let out = effective(&["testdata/rfc0009/f1"], &[]);
    out.code(0).stderr_lacks(&["DPL4006", "DPL4007"]);
    assert_eq!(
        owners(&out.json(), "AuthPolicy", PATH),
        triples(&[("authentication#b", "route", "app/route-auth")])
    );
    let status = dopol(&["status", "-f", "testdata/rfc0009/f1", "-o", "json"]).json();
    let gw = status["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["policy"] == "authpolicy.kuadrant.io:infra/gw-auth")
        .unwrap();
    let outcome = &gw["rules"][0]["outcomes"][0];
    assert_eq!(
        (outcome["outcome"].as_str(), outcome["by"][0].as_str()),
        (
            Some("deactivated"),
            Some("authpolicy.kuadrant.io:app/route-auth")
        )
    );
}

#[test]
fn f2_overrides_cannot_be_deactivated_and_the_unset_is_flagged() {
    let out = effective(&["testdata/rfc0009/f2"], &[]);
    out.code(0).stderr_has(&[
        "[DPL4006] `unset: rules.authentication.a` of AuthPolicy app/route-auth names a rule that AuthPolicy infra/gw-auth sets as an override; overrides cannot be deactivated, so this entry has no effect there",
        "testdata/rfc0009/f2/policies.yaml:36:5",
    ]);
    assert_eq!(
        owners(&out.json(), "AuthPolicy", PATH),
        triples(&[
            ("authentication#a", "gateway", "infra/gw-auth"),
            ("authentication#b", "route", "app/route-auth")
        ])
    );
}

fn path(route: &str) -> String {
    format!("kuadrant|infra/gw|infra/gw#http|app/{route}|app/{route}#main")
}

#[test]
fn constraint_cases_integer_arithmetic_missing_key_non_boolean_empty_lower_and_unset_by_key() {
    let out = effective(&["testdata/constraints/valid"], &[]);
    out.code(0).stderr_has(&[
        "[DPL4010] the `overrides` block of RateLimitPolicy app/missing-cap was not applied on path kuadrant|infra/gw|infra/gw#http|app/missing|app/missing#main: constraint `spec.limits.zz.rates.size() > 0` could not be evaluated: no such key: zz",
        "[DPL4010] the `overrides` block of RateLimitPolicy app/nonbool-cap was not applied on path kuadrant|infra/gw|infra/gw#http|app/nonbool|app/nonbool#main: constraint `spec.limits.a.rates[0].limit` could not be evaluated: the expression returned an integer (100), not a boolean",
    ]);
    let doc = out.json();
    let source = |route: &str, key: &str| -> String {
        rules(
            &doc,
            if route == "unsetkey" {
                "AuthPolicy"
            } else {
                "RateLimitPolicy"
            },
            &path(route),
        )
        .into_iter()
        .find(|r| r.key == key)
        .map(|r| r.source.split(':').nth(1).unwrap().to_string())
        .unwrap_or_else(|| "absent".into())
    };
    assert_eq!(
        source("arith", "a"),
        "app/arith-cap",
        "`limit + 1 == 101` holds: YAML integers are CEL ints"
    );
    assert_eq!(source("missing", "a"), "app/missing-lower");
    assert_eq!(source("nonbool", "a"), "app/nonbool-lower");
    assert_eq!(
        source("empty", "fallback"),
        "app/empty-default",
        "nothing below: spec is {{}}"
    );
    assert_eq!(
        source("unsetkey", "authentication#a"),
        "absent",
        "unset given as a rule key"
    );
    assert_eq!(
        source("unsetkey", "authentication#keep"),
        "app/unsetkey-defaults"
    );
    assert_eq!(source("unsetkey", "authentication#b"), "app/unsetkey-rule");
}

#[test]
fn not_applied_and_deactivated_outcomes_reach_every_report() {
    let status = dopol(&["status", "-f", "testdata/constraints/valid", "-o", "json"]).json();
    let item = |name: &str| {
        status["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["policy"].as_str().unwrap().ends_with(name))
            .unwrap()
            .clone()
    };
    let missing = item("/missing-cap");
    let outcome = &missing["rules"][0]["outcomes"][0];
    assert_eq!(outcome["outcome"], "not-applied");
    assert!(
        outcome["reason"]
            .as_str()
            .unwrap()
            .contains("no such key: zz"),
        "{outcome}"
    );
    let defaults = item("/unsetkey-defaults");
    let a = defaults["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "authentication#a")
        .unwrap();
    assert_eq!(a["outcomes"][0]["outcome"], "deactivated");
    assert_eq!(
        a["outcomes"][0]["by"][0],
        "authpolicy.kuadrant.io:app/unsetkey-rule"
    );

    let overridden = dopol(&["overridden", "-f", "testdata/constraints/valid"]).stdout;
    assert!(
        overridden.contains("deactivated  app/unsetkey-rule"),
        "{overridden}"
    );
    assert!(
        overridden.contains(
            "not-applied  constraint `spec.limits.a.rates[0].limit` could not be evaluated"
        ),
        "{overridden}"
    );

    let explain = dopol(&[
        "explain",
        "--route",
        "app/missing",
        "-f",
        "testdata/constraints/valid",
    ])
    .stdout;
    assert!(explain.contains("[1] app/missing-cap, its constraint did not hold, so the block was skipped [GEP-713: Patch overrides]\n      ! constraint `spec.limits.zz.rates.size() > 0` could not be evaluated: no such key: zz\n      ! a\n"), "{explain}");
    let explain = dopol(&[
        "explain",
        "--route",
        "app/unsetkey",
        "-f",
        "testdata/constraints/valid",
    ])
    .stdout;
    assert!(
        explain.contains("      x authentication#a  unset by app/unsetkey-rule\n"),
        "{explain}"
    );

    let reach = dopol(&[
        "reach",
        "app/unsetkey-defaults#authentication#a",
        "-f",
        "testdata/constraints/valid",
    ])
    .stdout;
    assert!(
        reach.contains("reaches 0 of 1 path") && reach.contains("deactivated  app/unsetkey-rule"),
        "{reach}"
    );
}

#[test]
fn invalid_cel_is_located_inside_the_yaml_scalar() {
    let out = effective(&["testdata/constraints/invalid"], &[]);
    out.code(3).stderr_has(&[
        // compile error inside a `|` block scalar: line 27, the `)` at column 24
        "[DPL4009] invalid constraint in `overrides` of RateLimitPolicy app/block-scalar-error: mismatched input ')'",
        "testdata/constraints/invalid/manifests.yaml:27:24",
        " 27 │         r.limit > 50 &&)\n    ·                        ┬\n",
        // unknown variables are caught when loading, not first when evaluating
        "[DPL4009] invalid constraint in `defaults` of RateLimitPolicy app/unknown-variable: unknown variable `request`; constraints can use `spec` and `self`",
        "testdata/constraints/invalid/manifests.yaml:39:11",
        // request-time predicates are syntax-checked, never evaluated
        "[DPL4011] invalid CEL in a request-time expression of RateLimitPolicy app/bad-predicate: mismatched input '<EOF>'",
        "testdata/constraints/invalid/manifests.yaml:53:46",
        // both blocks: the CRD refuses the policy, so it is left out (#17 over docs/semantics.md#3-policy-kinds-and-rule-keys)
        "[DPL1016] spec: Invalid value: \"object\": Explicit overrides and explicit defaults are mutually exclusive",
    ]);
    out.stderr_lacks(&["DPL4010"]);
    let doc = out.json();
    assert_eq!(
        owners(&doc, "AuthPolicy", &path("both")),
        triples(&[("authentication#low", "lower", "app/both-lower")]),
        "the refused both-blocks policy takes no part"
    );
}

#[test]
fn hostile_constraints_fail_cleanly() {
    let base = std::fs::read_to_string(root().join("testdata/rfc0009/e1/topology.yaml")).unwrap();
    let deep = format!("{}spec.a{}", "(".repeat(5000), ")".repeat(5000));
    let huge = format!("spec.a == '{}'", "x".repeat(20_000));
    for expression in [deep, huge] {
        let policy = format!(
            "{base}---\napiVersion: kuadrant.io/v1\nkind: AuthPolicy\nmetadata: {{name: p, namespace: infra}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}\n  overrides:\n    when: \"{expression}\"\n    rules:\n      authentication:\n        a: {{plain: {{selector: x}}}}\n"
        );
        let out = run_in(&root(), &["effective", "-f", "-"], Some(policy.as_bytes()));
        out.code(3).stderr_has(&["[DPL4009]"]);
    }
}

#[test]
fn unset_names_limits_whose_names_contain_dots() {
    let manifest = &stream(&[
        GATEWAY,
        ROUTE,
        "apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: gw-limits, namespace: infra}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  defaults:
    strategy: merge
    limits:
      per.user: {rates: [{limit: 10, window: 1m}]}
      global: {rates: [{limit: 1000, window: 1m}]}
---
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: route-limits, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}
  limits:
    own: {rates: [{limit: 5, window: 1s}]}
  unset: [limits.per.user]
",
    ]);
    let out = run_in(
        &root(),
        &["effective", "-f", "-", "-o", "json"],
        Some(manifest.as_slice()),
    );
    out.code(0).stderr_lacks(&["DPL4006", "DPL4007"]);
    let keys: Vec<(String, String)> = rules(&out.json(), "RateLimitPolicy", PATH)
        .into_iter()
        .map(|r| (r.key, r.source))
        .collect();
    assert_eq!(
        keys,
        [
            (
                "global".to_string(),
                "ratelimitpolicy.kuadrant.io:infra/gw-limits".to_string()
            ),
            (
                "own".to_string(),
                "ratelimitpolicy.kuadrant.io:app/route-limits".to_string()
            ),
        ]
    );
}
