//! `status`, `overridden`, `reach`, `explain`, `topology` (docs/semantics.md#5-outcomes-status-and-reach).

use crate::common::dopol;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let out = dopol(args);
    assert!(
        out.code == 0 || out.code == 3,
        "exit {}: {}",
        out.code,
        out.stderr
    );
    out.json()
}

fn status_of<'a>(doc: &'a Value, locator: &str) -> &'a Value {
    assert_eq!(doc["apiVersion"], "dopol/v1");
    assert_eq!(doc["kind"], "PolicyStatusList");
    doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["policy"] == locator)
        .unwrap_or_else(|| panic!("no status for {locator}"))
}

fn condition(item: &Value, kind: &str) -> Option<(String, String, String)> {
    item["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == kind)
        .map(|c| {
            (
                c["status"].as_str().unwrap().into(),
                c["reason"].as_str().unwrap().into(),
                c["message"].as_str().unwrap().into(),
            )
        })
}

/// `(pathId suffix after the route, outcome, by)` for one rule of one policy.
fn outcomes(item: &Value, key: &str) -> Vec<(String, String, Vec<String>)> {
    let rule = item["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == key)
        .unwrap_or_else(|| panic!("no rule {key}"));
    rule["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let path = o["pathId"].as_str().unwrap();
            let rule = path.rsplit('|').next().unwrap().to_string();
            let by = o["by"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_str().unwrap().to_string())
                .collect();
            (rule, o["outcome"].as_str().unwrap().to_string(), by)
        })
        .collect()
}

fn cond(status: &str, reason: &str, message: &str) -> Option<(String, String, String)> {
    Some((status.into(), reason.into(), message.into()))
}

fn o(rule: &str, outcome: &str, by: &[&str]) -> (String, String, Vec<String>) {
    (
        rule.into(),
        outcome.into(),
        by.iter().map(|s| s.to_string()).collect(),
    )
}

#[test]
fn default_superseded_on_some_routes_is_partially_enforced() {
    let doc = json(&["status", "-f", "testdata/examples/shop", "-o", "json"]);
    let item = status_of(&doc, "authpolicy.kuadrant.io:infra/platform-auth");
    assert_eq!(
        condition(item, "Accepted"),
        cond("True", "Accepted", "AuthPolicy has been accepted")
    );
    assert_eq!(
        condition(item, "Enforced"),
        cond("True", "Enforced", "AuthPolicy has been partially enforced")
    );
    let jwt = outcomes(item, "authentication#jwt");
    assert_eq!(
        jwt.iter().filter(|(_, o, _)| o == "effective").count(),
        1,
        "{jwt:?}"
    );
    assert!(
        jwt.iter()
            .filter(|(_, o, _)| o == "superseded")
            .all(|(_, _, by)| by == &["authpolicy.kuadrant.io:shop/cart-auth"])
    );
    assert_eq!(jwt.len(), 5);
    // A merge override replacing one key: checkout's `global` is overridden by the platform.
    let checkout = status_of(&doc, "ratelimitpolicy.kuadrant.io:shop/checkout-limits");
    assert_eq!(
        condition(checkout, "Enforced"),
        cond(
            "True",
            "Enforced",
            "RateLimitPolicy has been partially enforced"
        )
    );
    assert_eq!(
        outcomes(checkout, "global"),
        vec![
            o(
                "shop/cart#checkout",
                "overridden",
                &["ratelimitpolicy.kuadrant.io:infra/platform-limits"]
            );
            2
        ]
    );
    assert_eq!(
        outcomes(checkout, "per-user"),
        vec![o("shop/cart#checkout", "effective", &[]); 2]
    );
}

#[test]
fn atomic_override_rule_level_loss_unknown_and_not_accepted() {
    let doc = json(&["status", "-f", "testdata/status", "-o", "json"]);
    let route_auth = status_of(&doc, "authpolicy.kuadrant.io:app/route-auth");
    assert_eq!(
        condition(route_auth, "Enforced"),
        cond(
            "False",
            "Overridden",
            "AuthPolicy is overridden by [infra/gw-lockdown]"
        )
    );
    assert_eq!(
        outcomes(route_auth, "authentication#app-key"),
        [
            o(
                "app/shop#login",
                "overridden",
                &["authpolicy.kuadrant.io:infra/gw-lockdown"]
            ),
            o(
                "app/shop#rule-2",
                "overridden",
                &["authpolicy.kuadrant.io:infra/gw-lockdown"]
            ),
        ]
    );
    let lockdown = status_of(&doc, "authpolicy.kuadrant.io:infra/gw-lockdown");
    assert_eq!(
        condition(lockdown, "Enforced"),
        cond(
            "True",
            "Enforced",
            "AuthPolicy has been successfully enforced"
        )
    );

    let login = status_of(&doc, "ratelimitpolicy.kuadrant.io:app/login-limits");
    assert_eq!(
        condition(login, "Enforced"),
        cond(
            "False",
            "Overridden",
            "RateLimitPolicy is overridden by [app/route-cap]"
        )
    );
    assert_eq!(
        outcomes(login, "login"),
        [o(
            "app/shop#login",
            "overridden",
            &["ratelimitpolicy.kuadrant.io:app/route-cap"]
        )]
    );

    let empty = status_of(
        &doc,
        "ratelimitpolicy.kuadrant.io:infra/empty-listener-limits",
    );
    assert_eq!(
        condition(empty, "Accepted"),
        cond("True", "Accepted", "RateLimitPolicy has been accepted")
    );
    assert_eq!(
        condition(empty, "Enforced"),
        cond(
            "False",
            "Unknown",
            "RateLimitPolicy is not in the path to any existing routes"
        )
    );
    assert!(outcomes(empty, "unused").is_empty());

    let ghost = status_of(&doc, "authpolicy.kuadrant.io:app/ghost");
    assert_eq!(
        condition(ghost, "Accepted"),
        cond(
            "False",
            "TargetNotFound",
            "AuthPolicy target nope was not found"
        )
    );
    assert_eq!(
        condition(ghost, "Enforced"),
        None,
        "no Enforced condition when not accepted"
    );
}

#[test]
fn creation_order_decides_between_two_gateway_defaults_both_ways() {
    for (variant, winner, loser) in [
        ("a-older", "tokens-b", "tokens-a"),
        ("b-older", "tokens-a", "tokens-b"),
    ] {
        let doc = json(&[
            "status",
            "-f",
            &format!("testdata/creation-order/{variant}"),
            "-o",
            "json",
        ]);
        let win = status_of(
            &doc,
            &format!("tokenratelimitpolicy.kuadrant.io:infra/{winner}"),
        );
        let lose = status_of(
            &doc,
            &format!("tokenratelimitpolicy.kuadrant.io:infra/{loser}"),
        );
        assert_eq!(
            condition(win, "Enforced"),
            cond(
                "True",
                "Enforced",
                "TokenRateLimitPolicy has been successfully enforced"
            ),
            "{variant}"
        );
        assert_eq!(
            condition(lose, "Enforced"),
            cond(
                "False",
                "Overridden",
                &format!("TokenRateLimitPolicy is overridden by [infra/{winner}]")
            ),
            "{variant}"
        );
        let key = format!("{}-tier", &loser[7..8]);
        assert_eq!(
            outcomes(lose, &key),
            [o(
                "app/shop#rule-1",
                "superseded",
                &[&format!("tokenratelimitpolicy.kuadrant.io:infra/{winner}")]
            )],
            "{variant}"
        );
    }
}

#[test]
fn overridden_groups_lost_rules_by_policy_rule_and_winner() {
    let doc = json(&["overridden", "-f", "testdata/examples/shop", "-o", "json"]);
    assert_eq!(doc["kind"], "OverriddenRuleList");
    let items = doc["items"].as_array().unwrap();
    let summary: Vec<(String, String, String, String, usize)> = items
        .iter()
        .map(|i| {
            (
                i["policy"].as_str().unwrap().into(),
                i["key"].as_str().unwrap().into(),
                i["outcome"].as_str().unwrap().into(),
                i["by"][0].as_str().unwrap().into(),
                i["pathIds"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "authpolicy.kuadrant.io:infra/platform-auth".into(),
                "authentication#jwt".into(),
                "superseded".into(),
                "authpolicy.kuadrant.io:shop/cart-auth".into(),
                4
            ),
            (
                "ratelimitpolicy.kuadrant.io:shop/checkout-limits".into(),
                "global".into(),
                "overridden".into(),
                "ratelimitpolicy.kuadrant.io:infra/platform-limits".into(),
                2
            ),
        ]
    );
    assert_eq!(items[0]["block"], "defaults");
    // Filters: only infra's policies.
    let infra = json(&[
        "overridden",
        "-f",
        "testdata/examples/shop",
        "-n",
        "infra",
        "-o",
        "json",
    ]);
    assert_eq!(infra["items"].as_array().unwrap().len(), 1);
    let table = dopol(&["overridden", "-f", "testdata/examples/shop"]).stdout;
    assert!(table.contains("AuthPolicy infra/platform-auth (defaults)    authentication#jwt  superseded  shop/cart-auth"), "{table}");
}

#[test]
fn reach_of_a_policy_and_of_one_rule() {
    let doc = json(&[
        "reach",
        "infra/platform-auth",
        "-f",
        "testdata/examples/shop",
        "-o",
        "json",
    ]);
    assert_eq!(doc["kind"], "PolicyReach");
    assert_eq!(
        (doc["reached"].as_u64(), doc["paths"].as_u64()),
        (Some(5), Some(5))
    );
    let jwt = json(&[
        "reach",
        "infra/platform-auth#authentication#jwt",
        "-f",
        "testdata/examples/shop",
        "-o",
        "json",
    ]);
    assert_eq!(jwt["rule"], "authentication#jwt");
    assert_eq!(
        (jwt["reached"].as_u64(), jwt["paths"].as_u64()),
        (Some(1), Some(5))
    );
    assert_eq!(jwt["effective"][0]["gateway"], "infra/public");
    assert_eq!(jwt["effective"][0]["listeners"][0]["listener"], "https");
    assert_eq!(
        jwt["effective"][0]["listeners"][0]["routes"][0]["route"],
        "shop/catalog"
    );
    let lost = jwt["lost"].as_array().unwrap();
    assert_eq!(lost.len(), 4);
    assert!(
        lost.iter().all(|l| l["outcome"] == "superseded"
            && l["by"][0] == "authpolicy.kuadrant.io:shop/cart-auth")
    );
    let text = dopol(&[
        "reach",
        "infra/platform-auth#authentication#jwt",
        "-f",
        "testdata/examples/shop",
    ])
    .stdout;
    assert!(
        text.starts_with("rule authentication#jwt of infra/platform-auth reaches 1 of 5 paths\n"),
        "{text}"
    );
    dopol(&[
        "reach",
        "infra/platform-auth#authentication#jtw",
        "-f",
        "testdata/examples/shop",
    ])
    .code(2)
    .stderr_has(&[
        "has no rule `authentication#jtw`",
        "did you mean `authentication#jwt`?",
    ]);
}

#[test]
fn explain_shows_order_reasons_and_each_step() {
    let out = dopol(&[
        "explain",
        "--route",
        "app/route",
        "-f",
        "testdata/rfc0009/d2",
    ]);
    out.code(0);
    let expected = "\
Legend: + added  = superseded (a default that lost to E)  ~ replaced  - dropped  & merged  x deactivated  ! not applied

Path kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1

AuthPolicy — 2 policies, least specific first:
  #  POLICY           TARGET           BLOCKS             CREATED  WHY HERE
  1  infra/gw-auth    Gateway infra/gw  overrides (merge)  -        least specific: attached to the gateway
  2  app/route-auth   HTTPRoute app/route  bare (atomic)  -        route level is more specific than gateway
";
    assert!(
        out.stdout
            .starts_with(&expected[..expected.find("  #").unwrap()]),
        "{}",
        out.stdout
    );
    for needle in [
        "[2] app/route-auth, bare rules (atomic defaults): E was empty, so its rules apply",
        "      + authentication#a\n      + authorization#d\n",
        "[1] infra/gw-auth, overrides (merge): its rules win clashes; E keeps its other keys",
        "      ~ authentication#a  app/route-auth → infra/gw-auth\n      + authorization#b\n",
        "  Result:\n      authentication#a ← infra/gw-auth\n      authorization#b ← infra/gw-auth\n      authorization#d ← app/route-auth\n",
    ] {
        assert!(
            out.stdout.contains(needle),
            "missing {needle:?} in:\n{}",
            out.stdout
        );
    }
    let doc = json(&[
        "explain",
        "--path",
        "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1",
        "-f",
        "testdata/rfc0009/d2",
        "-o",
        "json",
    ]);
    assert_eq!(doc["kind"], "PathExplanationList");
    let steps = doc["items"][0]["kinds"][0]["steps"].as_array().unwrap();
    assert_eq!(steps[1]["changes"][0]["action"], "replaced");
    assert_eq!(
        steps[1]["changes"][0]["source"],
        "authpolicy.kuadrant.io:app/route-auth"
    );
    dopol(&[
        "explain",
        "--path",
        "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-2",
        "-f",
        "testdata/rfc0009/d2",
    ])
    .code(2)
    .stderr_has(&[
        "no path has id",
        "did you mean `kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1`?",
    ]);
}

#[test]
fn explain_names_same_target_ordering_by_timestamp_and_by_name() {
    let out = dopol(&[
        "explain",
        "--route",
        "app/route",
        "--kind",
        "TokenRateLimitPolicy",
        "-f",
        "testdata/ordering",
    ]);
    out.code(0);
    assert!(out.stdout.contains("same target as app/zeta-timestamped; no creationTimestamp counts as newest, so more specific"), "{}", out.stdout);
    assert!(out.stdout.contains("same target as app/alpha; same creationTimestamp (or none): ordered by name, so more specific"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("= shared  E already has it, from app/beta"),
        "{}",
        out.stdout
    );
}

#[test]
fn topology_tree_dot_and_mermaid() {
    let tree = dopol(&["topology", "-f", "testdata/attachment"]).stdout;
    for needle in [
        "GatewayClass kuadrant\n└─ Gateway infra/gw\n   ├─ policy RateLimitPolicy infra/gw-limits [bare]\n",
        "   ├─ listener public (HTTPS:443 *.example.com)\n   │  ├─ HTTPRoute team-a/shop\n",
        "Refused attachments:\n",
        "HTTPRoute team-a/wrong-host → Gateway infra/gw#public: NoMatchingListenerHostname",
    ] {
        assert!(tree.contains(needle), "missing {needle:?} in:\n{tree}");
    }
    let dot = dopol(&["topology", "-f", "testdata/examples/shop", "-o", "dot"]);
    dot.code(0);
    assert!(dot.stdout.starts_with("digraph dopol {\n"));
    assert!(dot.stdout.contains("\"policy:authpolicy.kuadrant.io:infra/platform-auth\" -> \"gateway:infra/public\" [style=dashed, arrowhead=open];"), "{}", dot.stdout);
    let mermaid = dopol(&["topology", "-f", "testdata/examples/shop", "-o", "mermaid"]).stdout;
    assert!(mermaid.starts_with("flowchart LR\n"));
    assert!(mermaid.contains(" -.-> "));
    assert_eq!(
        mermaid,
        dopol(&["topology", "-f", "testdata/examples/shop", "-o", "mermaid"]).stdout,
        "byte-stable"
    );
}

#[test]
fn topology_reports_invalid_constraints_as_input_errors() {
    let out = dopol(&["topology", "-f", "testdata/constraints/invalid"]);
    out.code(3).stderr_has(&[
        "[DPL4009] invalid constraint in `overrides` of RateLimitPolicy app/block-scalar-error",
    ]);
    assert!(
        out.stdout
            .starts_with("GatewayClass kuadrant\n└─ Gateway infra/gw\n"),
        "{}",
        out.stdout
    );
}
