//! Issue 49 item 6, status that does not lie: dopol's own per-target outcome in `status -o json`
//! (`dopol.ancestors[].targets[]`, GEP-5058's shape), beside the controller's conditions.

use crate::common::dopol;
use serde_json::{Value, json};

fn item<'a>(doc: &'a Value, policy: &str) -> &'a Value {
    let items = doc["items"].as_array().unwrap();
    (items.iter())
        .find(|i| i["policy"] == policy)
        .unwrap_or_else(|| panic!("no status item {policy}"))
}

fn effective(target: &Value) -> (&str, &str, &str) {
    let c = &target["conditions"][0];
    assert_eq!(c["type"], "dopol.io/Effective");
    (
        c["status"].as_str().unwrap(),
        c["reason"].as_str().unwrap(),
        c["message"].as_str().unwrap(),
    )
}

#[test]
fn a_policy_on_two_routes_says_which_one_it_lost_on() {
    let out = dopol(&["status", "-f", "testdata/per-target-status", "-o", "json"]);
    out.code(0);
    let doc = out.json();
    let two = item(&doc, "trafficpolicy.gateway.kgateway.dev:web/two-routes");
    // kgateway writes one Attached per ancestor: the worst state, Overridden, for both targets.
    assert_eq!(two["conditions"][1]["reason"], "Overridden");
    let ancestors = two["dopol"]["ancestors"].as_array().unwrap();
    assert_eq!(ancestors.len(), 1);
    assert_eq!(
        ancestors[0]["ancestorRef"],
        json!({"group": "gateway.networking.k8s.io", "kind": "Gateway", "namespace": "web", "name": "gw"})
    );
    let targets = ancestors[0]["targets"].as_array().unwrap();
    let names: Vec<&str> = targets
        .iter()
        .map(|t| t["targetRef"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["app", "shop"]);
    assert_eq!(
        effective(&targets[0]),
        (
            "False",
            "Ineffective",
            "its 1 rule: not effective on the 1 path through it: `timeouts` (loses to trafficpolicy.gateway.kgateway.dev:web/app-rule)"
        )
    );
    assert_eq!(
        effective(&targets[1]),
        (
            "True",
            "Effective",
            "its 1 rule: effective on the 2 paths through it"
        )
    );
    let rule = item(&doc, "trafficpolicy.gateway.kgateway.dev:web/app-rule");
    let target = &rule["dopol"]["ancestors"][0]["targets"][0];
    assert_eq!(target["targetRef"]["sectionName"], "api");
    assert_eq!(effective(target).1, "Effective");
}

#[test]
fn filters_narrow_the_per_target_outcome_as_they_narrow_rules() {
    let args = ["status", "-f", "testdata/per-target-status", "-o", "json"];
    let out = dopol(&[&args[..], &["--route", "web/shop"]].concat());
    out.code(0);
    let doc = out.json();
    let two = item(&doc, "trafficpolicy.gateway.kgateway.dev:web/two-routes");
    let targets = two["dopol"]["ancestors"][0]["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 1);
    assert_eq!(targets[0]["targetRef"]["name"], "shop");
    // On no listed path: no `dopol` at all.
    let rule = item(&doc, "trafficpolicy.gateway.kgateway.dev:web/app-rule");
    assert!(rule.get("dopol").is_none());
}

#[test]
fn a_partial_loss_is_partially_effective_and_kuadrant_items_have_it_too() {
    let out = dopol(&["status", "-f", "testdata/examples/shop", "-o", "json"]);
    out.code(0);
    let doc = out.json();
    let checkout = item(&doc, "ratelimitpolicy.kuadrant.io:shop/checkout-limits");
    let target = &checkout["dopol"]["ancestors"][0]["targets"][0];
    let (status, reason, message) = effective(target);
    assert_eq!((status, reason), ("True", "PartiallyEffective"));
    assert!(
        message.starts_with("1 of its 2 rules not effective on")
            || message.starts_with("1 of its 2 rules effective on none of"),
        "{message}"
    );
    assert!(
        message.contains("`global` (loses to ratelimitpolicy.kuadrant.io:infra/platform-limits)"),
        "{message}"
    );
}

#[test]
fn a_listener_set_and_its_listener_are_named_as_the_set() {
    let out = dopol(&[
        "status",
        "-f",
        "testdata/kgateway/listenerset-targets",
        "-o",
        "json",
    ]);
    let doc = out.json();
    for (policy, section) in [("set-http", Some("http")), ("set-wide", None)] {
        let locator = format!("trafficpolicy.gateway.kgateway.dev:infra/{policy}");
        let target = &item(&doc, &locator)["dopol"]["ancestors"][0]["targets"][0];
        let mut expected = json!({"group": "gateway.networking.k8s.io", "kind": "ListenerSet", "namespace": "infra", "name": "ext"});
        if let Some(section) = section {
            expected["sectionName"] = json!(section);
        }
        assert_eq!(target["targetRef"], expected, "{policy}");
    }
}
