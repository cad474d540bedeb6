//! `dopol topology -o json|yaml` (`kind: Topology`) and the topology filters `--gateway`,
//! `--route` and `-n`, which narrow the tree, DOT, Mermaid and the document alike.

use crate::common::dopol;
use serde_json::{Value, json};

const SHOP: &str = "testdata/examples/shop";

fn document(args: &[&str]) -> Value {
    let mut all = vec!["topology", "-o", "json"];
    all.extend_from_slice(args);
    let out = dopol(&all);
    out.code(0);
    out.json()
}

/// `name` of every node at each level: gateways, listeners, routes, rules.
fn names(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for gateway in doc["gateways"].as_array().unwrap() {
        for listener in gateway["listeners"].as_array().unwrap() {
            for route in listener["routes"].as_array().unwrap() {
                for rule in route["rules"].as_array().unwrap() {
                    out.push(format!(
                        "{} {} {} {}",
                        gateway["name"].as_str().unwrap(),
                        listener["name"].as_str().unwrap(),
                        route["name"].as_str().unwrap(),
                        rule["name"].as_str().unwrap()
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn topology_json_nests_gateways_listeners_routes_rules_with_their_policies() {
    let doc = document(&["-f", SHOP]);
    assert_eq!(doc["apiVersion"], "dopol/v1");
    assert_eq!(doc["kind"], "Topology");
    assert_eq!(
        names(&doc),
        [
            "infra/public http shop/cart checkout",
            "infra/public http shop/cart rule-2",
            "infra/public https shop/cart checkout",
            "infra/public https shop/cart rule-2",
            "infra/public https shop/catalog rule-1",
        ]
    );
    let gateway = &doc["gateways"][0];
    assert_eq!(gateway["class"], "istio");
    assert_eq!(gateway["assumed"], false);
    assert_eq!(
        gateway["policies"][0],
        json!({
            "policyKind": "AuthPolicy",
            "policyGroup": "kuadrant.io",
            "name": "infra/platform-auth",
            "locator": "authpolicy.kuadrant.io:infra/platform-auth",
            "blocks": ["defaults merge"]
        })
    );
    let http = &gateway["listeners"][0];
    assert_eq!(http["protocol"], "HTTP");
    assert_eq!(http["port"], 80);
    assert_eq!(http["hostname"], "*.shop.example.com");
    assert_eq!(http["policies"][0]["name"], "infra/http-limits");
    let cart = &http["routes"][0];
    assert_eq!(cart["kind"], "HTTPRoute");
    assert_eq!(cart["policies"][0]["name"], "shop/cart-auth");
    assert_eq!(
        cart["rules"][0]["policies"][0]["name"],
        "shop/checkout-limits"
    );
    assert_eq!(cart["rules"][1]["policies"], json!([]));
    assert_eq!(doc["refused"], json!([]));
    assert_eq!(doc["notAccepted"], json!([]));
}

#[test]
fn topology_yaml_is_the_same_document() {
    let out = dopol(&["topology", "-f", SHOP, "-o", "yaml"]);
    out.code(0);
    assert!(
        out.stdout.starts_with(
            "apiVersion: dopol/v1\nkind: Topology\ngateways:\n- name: infra/public\n  class: istio\n"
        ),
        "{}",
        out.stdout
    );
    let again = dopol(&["topology", "-f", SHOP, "-o", "yaml"]);
    assert_eq!(out.stdout, again.stdout, "byte-identical across runs");
}

#[test]
fn refusals_and_unaccepted_policies_are_in_the_document() {
    let doc = document(&["-f", "testdata/attachment"]);
    let refused = doc["refused"].as_array().unwrap();
    assert!(
        refused
            .iter()
            .any(|r| r["route"] == "team-a/cross-namespace"
                && r["gateway"] == "infra/gw"
                && r["sectionName"] == "same-ns"
                && r["reason"] == "NotAllowedByListeners"),
        "{refused:?}"
    );
}

#[test]
fn route_filter_keeps_the_route_under_each_listener_that_accepted_it() {
    let doc = document(&["-f", SHOP, "--route", "catalog"]);
    assert_eq!(names(&doc), ["infra/public https shop/catalog rule-1"]);
    assert_eq!(
        doc["gateways"][0]["listeners"].as_array().unwrap().len(),
        1,
        "listener http has no catalog route"
    );
    let tree = dopol(&["topology", "-f", SHOP, "--route", "shop/catalog"]);
    tree.code(0);
    assert_eq!(
        tree.stdout,
        "\
GatewayClass istio
└─ Gateway infra/public
   ├─ policy AuthPolicy infra/platform-auth [defaults merge]
   ├─ policy RateLimitPolicy infra/platform-limits [overrides merge]
   └─ listener https (HTTPS:443 *.shop.example.com)
      └─ HTTPRoute shop/catalog
         └─ rule rule-1
"
    );
}

#[test]
fn gateway_and_namespace_filters() {
    let all = document(&["-f", "testdata/levels"]);
    let name = all["gateways"][0]["name"].as_str().unwrap().to_string();
    let one = document(&["-f", "testdata/levels", "--gateway", &name]);
    assert_eq!(names(&one), names(&all));
    // -n keeps paths whose route or Gateway is in the namespace.
    let shop = document(&["-f", SHOP, "-n", "shop"]);
    assert_eq!(names(&shop).len(), 5);
    let infra = document(&["-f", "testdata/uncovered", "-n", "ops"]);
    assert_eq!(names(&infra), ["infra/gw http ops/health rule-1"]);
    // The filters narrow DOT and Mermaid too.
    let dot = dopol(&["topology", "-f", SHOP, "--route", "catalog", "-o", "dot"]);
    assert!(
        !dot.stdout.contains("route:HTTPRoute:shop/cart"),
        "{}",
        dot.stdout
    );
    assert!(
        dot.stdout.contains("route:HTTPRoute:shop/catalog"),
        "{}",
        dot.stdout
    );
}

#[test]
fn route_filter_follows_delegation() {
    let doc = document(&["-f", "testdata/delegation", "--route", "a/a1"]);
    let root = &doc["gateways"][0]["listeners"][0]["routes"][0];
    assert_eq!(root["name"], "infra/root");
    let rules = root["rules"].as_array().unwrap();
    assert_eq!(
        rules.len(),
        1,
        "only the delegating rule on the way: {rules:?}"
    );
    assert_eq!(rules[0]["name"], "rule-2");
    let mid = &rules[0]["delegatesTo"][0];
    assert_eq!(mid["name"], "mid/mid-a");
    assert_eq!(mid["rules"][0]["delegatesTo"][0]["name"], "a/a1");
    assert_eq!(mid["rules"].as_array().unwrap().len(), 1);
}

/// Fixtures whose documents are checked against their schemas (delegation cycles, ExtensionRef
/// attachments, refusals, policies not accepted, assumed Gateways).
const SCHEMA_FIXTURES: [&str; 7] = [
    SHOP,
    "testdata/attachment",
    "testdata/delegation",
    "testdata/kgateway/attach-extensionref",
    "testdata/uncovered",
    "testdata/levels",
    "testdata/envoy/targets-selectors",
];

#[test]
fn topology_and_uncovered_documents_match_their_schemas() {
    for (schema, command) in [
        ("topology", &["topology", "-o", "json"][..]),
        (
            "uncoveredpathlist",
            &["effective", "--uncovered", "-o", "json"][..],
        ),
    ] {
        let path = crate::common::root().join(format!("docs/schema/{schema}.schema.json"));
        let text = std::fs::read_to_string(&path).expect("the schema exists");
        let schema_doc: Value = serde_json::from_str(&text).expect("the schema is JSON");
        let validator = jsonschema::validator_for(&schema_doc).expect("the schema compiles");
        for fixture in SCHEMA_FIXTURES {
            for extra in [&[][..], &["--assume-gateways"][..]] {
                let mut args = command.to_vec();
                args.extend(["-f", fixture]);
                args.extend(extra);
                let doc = dopol(&args).json();
                let errors: Vec<String> = validator
                    .iter_errors(&doc)
                    .map(|e| format!("{e} at {}", e.instance_path()))
                    .collect();
                assert!(errors.is_empty(), "{schema} {args:?}: {errors:#?}");
            }
        }
    }
}
