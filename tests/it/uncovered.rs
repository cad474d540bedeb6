//! What is not covered is an answer too: `effective --uncovered` lists the paths without an
//! effective policy of some kinds, the default table shows "(none)" for a kind a path lacks,
//! and JSON items name their path's parts.

use crate::common::{Output, dopol, effective};
use serde_json::{Value, json};

/// Every path has a RateLimitPolicy; only shop/cart has an AuthPolicy.
const GAPS: &str = "testdata/uncovered";

/// `dopol effective -f GAPS --uncovered <extra>`.
fn uncovered(extra: &[&str]) -> Output {
    let mut args = vec!["effective", "-f", GAPS, "--uncovered"];
    args.extend_from_slice(extra);
    dopol(&args)
}

fn uncovered_json(extra: &[&str]) -> Value {
    let mut args = vec!["-o", "json"];
    args.extend_from_slice(extra);
    let out = uncovered(&args);
    out.code(0);
    out.json()
}

#[test]
fn uncovered_lists_the_paths_without_an_auth_policy() {
    let out = uncovered(&["--kind", "AuthPolicy"]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "\
GATEWAY   LISTENER  ROUTE RULE           MISSING
infra/gw  http      ops/health#rule-1    AuthPolicy
infra/gw  http      shop/catalog#browse  AuthPolicy
infra/gw  http      shop/catalog#search  AuthPolicy
"
    );
}

#[test]
fn uncovered_json_names_each_path_and_the_kinds_it_lacks() {
    let doc = uncovered_json(&["--kind", "AuthPolicy"]);
    assert_eq!(doc["kind"], "UncoveredPathList");
    assert_eq!(
        doc["checkedKinds"],
        json!([{"policyKind": "AuthPolicy", "policyGroup": "kuadrant.io"}])
    );
    let items = doc["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(
        items[1],
        json!({
            "pathId": "kuadrant|infra/gw|infra/gw#http|shop/catalog|shop/catalog#browse",
            "gateway": "infra/gw",
            "listener": "http",
            "route": "shop/catalog",
            "rule": "browse",
            "missing": [{"policyKind": "AuthPolicy", "policyGroup": "kuadrant.io"}]
        })
    );
    let rules: Vec<&str> = items.iter().map(|i| i["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["rule-1", "browse", "search"]);
}

#[test]
fn uncovered_checks_every_kind_in_the_input_by_default() {
    let doc = uncovered_json(&[]);
    let kinds: Vec<&str> = doc["checkedKinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["policyKind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["AuthPolicy", "RateLimitPolicy"]);
    assert_eq!(doc["items"].as_array().unwrap().len(), 3);
    // A kind the input has no policy of, asked for: every path lacks it.
    let token = uncovered_json(&["--kind", "TokenRateLimitPolicy"]);
    assert_eq!(token["items"].as_array().unwrap().len(), 4);
    // Filters narrow the paths checked.
    let catalog = uncovered_json(&["--route", "shop/catalog"]);
    assert_eq!(catalog["items"].as_array().unwrap().len(), 2);
}

#[test]
fn uncovered_says_when_every_path_is_covered() {
    let out = uncovered(&["--kind", "RateLimitPolicy"]);
    out.code(0);
    assert_eq!(out.stdout, "");
    out.stderr_has(&["Every path has an effective RateLimitPolicy (4 paths evaluated)."]);
    let doc = uncovered_json(&["--kind", "RateLimitPolicy"]);
    assert_eq!(doc["items"], json!([]));
    let yaml = uncovered(&["-o", "yaml", "--kind", "authpolicy"]);
    yaml.code(0);
    assert!(
        yaml.stdout
            .starts_with("apiVersion: dopol/v1\nkind: UncoveredPathList\n"),
        "{}",
        yaml.stdout
    );
    yaml.stdout_has(&["- pathId: kuadrant|infra/gw|infra/gw#http|ops/health|ops/health#rule-1\n"]);
}

#[test]
fn uncovered_refuses_policy_and_compact() {
    uncovered(&["--policy", "shop/cart-auth"])
        .code(2)
        .stderr_has(&["--policy"]);
    uncovered(&["--compact", "-o", "json"]).code(2);
}

#[test]
fn the_table_shows_none_for_a_kind_a_path_lacks() {
    let out = dopol(&["effective", "-f", GAPS]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "\
Gateway infra/gw (class kuadrant)
LISTENER  ROUTE RULE           KIND             RULE KEY                SOURCE           VALUE
http      ops/health#rule-1    AuthPolicy       (none)
                               RateLimitPolicy  global                  infra/gw-limits  {rates: [{limit: 1000, window: 1s}]}
http      shop/cart#checkout   AuthPolicy       authentication#api-key  shop/cart-auth   {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, metrics: false, priority: 0}
                               RateLimitPolicy  global                  infra/gw-limits  {rates: [{limit: 1000, window: 1s}]}
http      shop/catalog#browse  AuthPolicy       (none)
                               RateLimitPolicy  global                  infra/gw-limits  {rates: [{limit: 1000, window: 1s}]}
http      shop/catalog#search  AuthPolicy       (none)
                               RateLimitPolicy  global                  infra/gw-limits  {rates: [{limit: 1000, window: 1s}]}
"
    );
    // Only kinds shown: with --kind RateLimitPolicy no path lacks anything.
    let rlp = dopol(&["effective", "-f", GAPS, "--kind", "RateLimitPolicy"]);
    assert!(!rlp.stdout.contains("(none)"), "{}", rlp.stdout);
    // A policy-centred report is not about coverage.
    let cart = dopol(&["effective", "-f", GAPS, "--policy", "infra/gw-limits"]);
    assert!(!cart.stdout.contains("(none)"), "{}", cart.stdout);
    // With -o wide every row names its path, "(none)" rows too.
    let wide = dopol(&["effective", "-f", GAPS, "-o", "wide"]);
    wide.stdout_has(&["infra/gw  http      shop/catalog#search  AuthPolicy       (none)\n"]);
}

#[test]
fn effective_json_items_name_their_path_parts() {
    let doc = effective(&[GAPS], &[]).json();
    let items = doc["items"].as_array().unwrap();
    assert_eq!(items.len(), 5, "the JSON lists effective policies only");
    let first = &items[0];
    assert_eq!(
        first["pathId"],
        "kuadrant|infra/gw|infra/gw#http|ops/health|ops/health#rule-1"
    );
    assert_eq!(first["gateway"], "infra/gw");
    assert_eq!(first["listener"], "http");
    assert_eq!(first["route"], "ops/health");
    assert_eq!(first["rule"], "rule-1");
    let keys: Vec<&String> = first.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "policyKind",
            "policyGroup",
            "pathId",
            "gateway",
            "listener",
            "route",
            "rule",
            "rules",
            "sources"
        ]
    );
    let yaml = dopol(&["effective", "-f", GAPS, "-o", "yaml"]);
    yaml.stdout_has(&[
        "  gateway: infra/gw\n  listener: http\n  route: shop/cart\n  rule: checkout\n",
    ]);
}

#[test]
fn under_delegation_the_route_is_the_leaf_and_the_id_keeps_the_chain() {
    let doc = effective(&["testdata/delegation"], &[]).json();
    let delegated = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["pathId"].as_str().unwrap().contains('>'))
        .expect("a delegated path");
    let id = delegated["pathId"].as_str().unwrap();
    let leaf = id.rsplit('|').next().unwrap();
    let (route, rule) = leaf.rsplit('>').next().unwrap().split_once('#').unwrap();
    assert_eq!(delegated["route"], route);
    assert_eq!(delegated["rule"], rule);
}
