//! kgateway route delegation in the topology (docs/families.md §1 "Route delegation in the topology",
//! §2.6) on `testdata/delegation`: the paths and their ids, the order they come in, each reason a
//! child or child rule is dropped, matcher inheritance, cycles, and what other commands and
//! families make of delegated paths.

use crate::common::{dopol, root};
use dopol::diag::Code;
use dopol::pipeline::{Evaluated, InputOptions, evaluate_files};
use dopol::topology::{NO_CHAIN, path_id_parts};
use serde_json::Value;

const DIR: &str = "testdata/delegation";
const PREFIX: &str = "kgateway|infra/gw|infra/gw#http|";

fn evaluated() -> Evaluated {
    evaluate_files(&InputOptions {
        files: vec![root().join(DIR).to_string_lossy().into_owned()],
        ..InputOptions::default()
    })
}

/// `(code, object, message)` of the topology's diagnostics with one of `codes`.
fn diagnostics(evaluated: &Evaluated, codes: &[Code]) -> Vec<(Code, String, String)> {
    let mut found: Vec<(Code, String, String)> = evaluated
        .topology
        .diagnostics
        .iter()
        .filter(|d| codes.contains(&d.code))
        .map(|d| {
            (
                d.code,
                d.object.clone().unwrap_or_default(),
                d.message.clone(),
            )
        })
        .collect();
    found.sort();
    found
}

/// The items of `dopol effective -f testdata/delegation -o json <extra>`.
fn effective_items(extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["effective", "-f", DIR, "-o", "json"];
    args.extend_from_slice(extra);
    dopol(&args).json()["items"]
        .as_array()
        .expect("items")
        .clone()
}

/// The path ids of effective items, each once, sorted.
fn item_paths(items: &[Value]) -> Vec<String> {
    let ids: std::collections::BTreeSet<String> = items
        .iter()
        .map(|i| i["pathId"].as_str().unwrap().to_string())
        .collect();
    ids.into_iter().collect()
}

#[test]
fn every_path_with_its_chain_in_root_rule_order() {
    let evaluated = evaluated();
    let written = evaluated.topology.written_path_ids();
    let ids: Vec<&str> = written
        .iter()
        .map(|id| id.strip_prefix(PREFIX).expect("one listener"))
        .collect();
    assert_eq!(
        ids,
        [
            "infra/root|infra/root#rule-1",
            // two levels; the chained path sorts before mid-a's own rule-2 (chain rule-1)
            "infra/root#rule-2>mid/mid-a#rule-1>a/a1|a/a1#rule-1",
            "infra/root#rule-2>mid/mid-a|mid/mid-a#rule-2",
            // "*": t2 and t3 are dropped; t1 again through a second parent rule
            "infra/root#every>team/t1|team/t1#rule-1",
            "infra/root#also-t1>team/t1|team/t1#rule-1",
            // label in every namespace
            "infra/root#labelled>lbl-x/l1|lbl-x/l1#rule-1",
            "infra/root#labelled>lbl-y/l2|lbl-y/l2#rule-1",
            // the cycle back to loop-a is cut; the other rules stay
            "infra/root#loop>mid/loop-a#rule-1>mid/loop-b|mid/loop-b#rule-2",
            "infra/root#loop>mid/loop-a|mid/loop-a#rule-2",
            // inherited matcher (any path), and below it the merged match decides
            "infra/root#match>m/m-inherit|m/m-inherit#any",
            "infra/root#match>m/m-inherit#deeper>m/m-grand|m/m-grand#in",
            // own matcher: only the rule repeating header and method
            "infra/root#match>m/m-plain|m/m-plain#ok",
        ]
    );
    for (i, id) in evaluated.topology.written_path_ids().iter().enumerate() {
        let joined = evaluated.topology.path_id(i);
        assert_eq!(joined.to_string(), id);
        assert!(joined == *id);
        assert_eq!(evaluated.topology.find_path(id), Some(i));
        let parts = path_id_parts(id).expect("five parts");
        assert!(parts[4].starts_with(parts[3].rsplit('>').next().unwrap()));
    }
}

#[test]
fn chains_hold_the_delegating_rules_root_first() {
    let evaluated = evaluated();
    let (model, topology) = (&evaluated.model, &evaluated.topology);
    let index = topology
        .find_path(&format!(
            "{PREFIX}infra/root#rule-2>mid/mid-a#rule-1>a/a1|a/a1#rule-1"
        ))
        .expect("two-level path");
    let path = topology.paths[index];
    let name = |r: u32| {
        let route = &model.routes[r as usize];
        format!("{}/{}", route.namespace, route.name)
    };
    assert_ne!(path.chain, NO_CHAIN);
    let chain: Vec<(String, u32)> = topology.chains[path.chain as usize]
        .iter()
        .map(|&(r, k)| (name(r), k))
        .collect();
    assert_eq!(
        chain,
        [("infra/root".to_string(), 1), ("mid/mid-a".to_string(), 0)]
    );
    assert_eq!(name(path.route), "a/a1");
    // Gateway, listener, then route and rule per chain element, the leaf last.
    assert_eq!(topology.elements(&path).len(), 2 + 2 * 3);
    assert_eq!(
        topology.rule_label(model, &path),
        "infra/root#rule-2>mid/mid-a#rule-1>a/a1#rule-1"
    );
    let plain = topology
        .find_path(&format!("{PREFIX}infra/root|infra/root#rule-1"))
        .expect("plain path");
    assert_eq!(topology.paths[plain].chain, NO_CHAIN);
}

#[test]
fn dropped_children_and_rules_are_reported_once_with_the_reason() {
    let evaluated = evaluated();
    let found = diagnostics(&evaluated, &[Code::DELEGATION_CHILD_DROPPED]);
    let summary: Vec<(&str, &str)> = found
        .iter()
        .map(|(_, object, message)| {
            let reason = [
                "spec.hostnames",
                "parentRefs are set and none names HTTPRoute infra/root",
                "(a cycle)",
                "rules `no-header`, `bad-method`",
                "rule `out`",
            ]
            .into_iter()
            .find(|r| message.contains(r))
            .unwrap_or(message);
            (object.as_str(), reason)
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("HTTPRoute m/m-grand", "rule `out`"),
            ("HTTPRoute m/m-plain", "rules `no-header`, `bad-method`"),
            ("HTTPRoute mid/loop-a", "(a cycle)"),
            ("HTTPRoute team/t2", "spec.hostnames"),
            (
                "HTTPRoute team/t3",
                "parentRefs are set and none names HTTPRoute infra/root"
            ),
        ]
    );
    // The merged (inherited) match is the one the grandchild is checked against.
    assert!(found[0].2.contains(
        "under m/m-inherit#deeper: it has no match valid under the parent's match PathPrefix /m/sub, header x-team: blue, method GET"
    ));
}

#[test]
fn routes_reached_by_delegation_are_not_reported_as_attached_to_nothing() {
    let evaluated = evaluated();
    let not_attached: Vec<String> = diagnostics(&evaluated, &[Code::ROUTE_NOT_ATTACHED])
        .into_iter()
        .map(|(_, object, _)| object)
        .collect();
    // Dropped children (t2, t3) are explained by delegation-child-dropped instead; orphan names a
    // parent route that does not delegate to it.
    assert_eq!(not_attached, ["HTTPRoute m/orphan"]);
}

#[test]
fn kuadrant_policies_get_nothing_on_delegated_paths() {
    let paths = item_paths(&effective_items(&["--kind", "RateLimitPolicy"]));
    // The policy on infra/root reaches its own rule only, not the rules delegated from it; the
    // one on team/t1 reaches nothing.
    assert_eq!(paths, [format!("{PREFIX}infra/root|infra/root#rule-1")]);

    let lint = dopol(&["lint", "-f", DIR, "-o", "json"]).json();
    let infos: Vec<(&str, &str)> = lint["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["name"] == "delegation-not-supported")
        .map(|d| {
            (
                d["object"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(infos, [("RateLimitPolicy team/t1-limits", "info")]);
}

#[test]
fn trafficpolicies_reach_every_delegated_path() {
    let items = effective_items(&["--kind", "TrafficPolicy"]);
    assert_eq!(items.len(), evaluated().topology.paths.len());
    assert!(
        items.iter().all(|i| i["rules"]["csrf"]["source"]
            == "trafficpolicy.gateway.kgateway.dev:infra/everywhere")
    );
}

#[test]
fn route_filter_matches_any_route_of_the_chain() {
    let ids = |route: &str| item_paths(&effective_items(&["--route", route]));
    assert_eq!(
        ids("mid/mid-a"),
        [
            format!("{PREFIX}infra/root#rule-2>mid/mid-a#rule-1>a/a1|a/a1#rule-1"),
            format!("{PREFIX}infra/root#rule-2>mid/mid-a|mid/mid-a#rule-2"),
        ]
    );
    assert_eq!(ids("infra/root").len(), evaluated().topology.paths.len());
    assert_eq!(ids("a1").len(), 1);
}

#[test]
fn topology_shows_delegated_routes_under_their_rule() {
    let out = dopol(&["topology", "-f", DIR]);
    out.stdout_has(&[
        "rule rule-2\n",
        "delegates to HTTPRoute mid/mid-a",
        "delegates to HTTPRoute a/a1",
        // the cycle is cut where kgateway cuts it: loop-b's rule-1 keeps no child
        "delegates to HTTPRoute mid/loop-b",
    ]);
    assert!(!out.stdout.contains("delegates to HTTPRoute team/t2"));
    assert!(!out.stdout.contains("(cycle"));
    let dot = dopol(&["topology", "-f", DIR, "-o", "dot"]);
    dot.stdout_has(&[
        "\"route:HTTPRoute:infra/root#rule-2\" -> \"route:HTTPRoute:mid/mid-a\" [label=\"delegates\"];",
    ]);
    let mermaid = dopol(&["topology", "-f", DIR, "-o", "mermaid"]);
    mermaid.stdout_has(&["-- delegates -->"]);
}

#[test]
fn other_commands_accept_delegated_paths() {
    let id = format!("{PREFIX}infra/root#rule-2>mid/mid-a#rule-1>a/a1|a/a1#rule-1");
    dopol(&["explain", "-f", DIR, "--path", &id])
        .code(0)
        .stdout_has(&["csrf"]);
    dopol(&["status", "-f", DIR]).code(0);
    dopol(&["reach", "-f", DIR, "infra/everywhere"])
        .code(0)
        .stdout_has(&["HTTPRoute a/a1"]);
    let out = dopol(&[
        "request",
        "-f",
        DIR,
        "GET",
        "http://example.com/mid/a/1",
        "-o",
        "json",
    ]);
    out.code(0);
    assert_eq!(out.json()["match"]["pathId"], Value::from(id));
    dopol(&["diff", DIR, DIR]).code(0);
}

#[test]
fn mutual_delegation_is_cut_on_each_chain_and_drawn_once() {
    // Each route is attached to the Gateway and names the other as a parent route too.
    let route = |name: &str, other: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: {name}, namespace: infra}}
spec:
  parentRefs:
  - {{name: gw}}
  - {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: {other}}}
  rules:
  - backendRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: {other}}}]
  - matches: [{{path: {{value: /{name}}}}}]
"
        )
    };
    let (a, b) = (route("a", "b"), route("b", "a"));
    let manifest = crate::common::stream(&[crate::common::GATEWAY, &a, &b]);
    let run = |args: &[&str]| crate::common::run_in(&root(), args, Some(manifest.as_slice()));
    let tree = run(&["topology", "-f", "-"]);
    tree.code(0).stdout_has(&[
        "delegates to HTTPRoute infra/a (cycle, shown above)",
        "delegates to HTTPRoute infra/b (cycle, shown above)",
    ]);
    let lint = run(&["lint", "-f", "-", "-o", "json"]).json();
    let cycles = lint["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["name"] == "delegation-child-dropped")
        .count();
    assert_eq!(cycles, 2);
}
