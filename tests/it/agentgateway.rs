//! agentgateway's `AgentgatewayPolicy` (docs/families.md, agentgateway): every fixture under
//! `testdata/agentgateway/` against the results worked out from docs/families.md §5 in its
//! `expect.yaml` (values, `source`, `origins`, rule outcomes, status with the `StatusSummary`
//! pseudo-ancestor, lint), and the upstream manifests and goldens under
//! `testdata/realworld/agentgateway/` (see its `ORIGIN.md`) against the facts they state.

use crate::common::fixtures::{Fixtures, document, yaml_to_json};
use crate::common::{dopol, root};
use serde_json::Value;

#[test]
fn every_case_matches_its_expectations() {
    Fixtures {
        dir: "testdata/agentgateway",
        kind: Some("AgentgatewayPolicy"),
        pending: &[],
    }
    .check_all();
}

const REALWORLD: &str = "testdata/realworld/agentgateway";

/// The e2e `testTrafficPolicyInheritanceOverride` (`routing_test.go`): with the e2e base
/// Gateway, a request to the route gets `x-policy-inheritance: gateway` — the Gateway policy's
/// Override value — and the route policy's value is overridden by it.
#[test]
fn e2e_inheritance_override_keeps_the_gateway_value() {
    let base = format!("{REALWORLD}/agent-gateway-base.yaml");
    let manifest = format!("{REALWORLD}/inheritance-override.yaml");
    let out = dopol(&["effective", "-o", "json", "-f", &base, "-f", &manifest]);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let items = json["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{}", out.stdout);
    let rule = &items[0]["rules"]["traffic.headerModifiers.response"];
    assert_eq!(
        rule["value"]["set"][0],
        serde_json::json!({"name": "x-policy-inheritance", "value": "gateway"})
    );
    let gateway = "agentgatewaypolicy.agentgateway.dev:agentgateway-base/inheritance-gateway";
    assert_eq!(rule["source"], gateway);
    let lost = dopol(&["overridden", "-o", "json", "-f", &base, "-f", &manifest]);
    let lost: Value = serde_json::from_str(&lost.stdout).unwrap();
    let item = &lost["items"][0];
    assert_eq!(
        item["policy"],
        "agentgatewaypolicy.agentgateway.dev:agentgateway-base/inheritance-route"
    );
    assert_eq!(item["outcome"], "overridden", "{item}");
    assert_eq!(item["by"][0], gateway, "{item}");
}

/// The objects of a controller golden (its `# Output` document left out), as one manifest.
fn golden_objects(name: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(root().join(REALWORLD).join(name)).unwrap();
    let objects: Vec<&str> = text
        .split("\n---\n")
        .filter(|doc| yaml_to_json(doc).get("apiVersion").is_some())
        .collect();
    let out = std::env::temp_dir().join(format!("dopol-agw-realworld-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join(name);
    std::fs::write(&path, objects.join("\n---\n")).unwrap();
    path
}

/// The status `ancestors` a controller golden's `# Output` document expects for its first
/// policy, without `lastTransitionTime` and `controllerName`.
fn golden_ancestors(name: &str) -> Value {
    let text = std::fs::read_to_string(root().join(REALWORLD).join(name)).unwrap();
    let output = (text.split("\n---\n").map(yaml_to_json))
        .find(|doc| doc.get("status").is_some() && doc.get("apiVersion").is_none())
        .expect("an output document");
    let mut ancestors = output["status"][0]["status"]["ancestors"].clone();
    for ancestor in ancestors.as_array_mut().into_iter().flatten() {
        ancestor.as_object_mut().unwrap().remove("controllerName");
        for condition in ancestor["conditions"].as_array_mut().into_iter().flatten() {
            condition
                .as_object_mut()
                .unwrap()
                .remove("lastTransitionTime");
        }
    }
    ancestors
}

/// dopol's status `ancestors` of the only policy of a controller golden's objects.
fn dopol_ancestors(name: &str) -> Value {
    let path = golden_objects(name);
    let status = document("status", &path.to_string_lossy(), &[]);
    assert_eq!(
        status["items"].as_array().map(Vec::len),
        Some(1),
        "{status}"
    );
    status["items"][0]["ancestors"].clone()
}

/// The controller goldens with ListenerSet targets (field-2026 §4.3, §4.7): a whole-set target,
/// a set-listener target and a route attached through a set report on the Gateway; a missing set
/// listener gives only the `StatusSummary` pseudo-ancestor with the controller's words.
#[test]
fn listenerset_goldens_give_the_goldens_status() {
    for name in [
        "listenerset-targetref.yaml",
        "listenerset-sectionname.yaml",
        "http-route-ancestor-listenerset.yaml",
        "listenerset-section-missing-not-attached.yaml",
        "listenerset-selector.yaml",
    ] {
        assert_eq!(dopol_ancestors(name), golden_ancestors(name), "{name}");
    }
}

/// `http-route-ancestor-listenerset.yaml`: the route policy's `traffic.timeouts` is effective on
/// the path through the ListenerSet's listener, as the golden's output `timeout.request: 5s`.
#[test]
fn listenerset_route_golden_applies_through_the_set_listener() {
    let path = golden_objects("http-route-ancestor-listenerset.yaml");
    let effective = document("effective", &path.to_string_lossy(), &[]);
    let item = &effective["items"][0];
    assert_eq!(
        item["pathId"],
        "agentgateway|default/listenerset-gw|default/listenerset-gw>default/listenerset#http-9090|default/listenerset-route|default/listenerset-route#rule-1"
    );
    assert_eq!(
        item["rules"]["traffic.timeouts"]["value"],
        serde_json::json!({"request": "5s"})
    );
}

/// `explain` shows the ladder, the lock and what each step did.
#[test]
fn explain_shows_locks_and_ties() {
    let manifests = "testdata/agentgateway/tie/manifests.yaml";
    let path = "agentgateway|shop/gw|shop/gw#http|shop/app|shop/app#api";
    let out = dopol(&["explain", "-f", manifests, "--path", path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for needle in [
        "locks `traffic.retry`",
        "tie on `traffic.timeouts` with shop/app-a",
        "= traffic.timeouts  the value from shop/app-a stays",
        "traffic.retry  from shop/app-b, by shop/app-lock",
    ] {
        assert!(out.stdout.contains(needle), "{needle}:\n{}", out.stdout);
    }
}

/// A route-level conditional list shows in `reach` and `diff` like any value.
#[test]
fn reach_topology_and_diff_work() {
    let manifests = "testdata/agentgateway/conditional/manifests.yaml";
    let reach = dopol(&["reach", "-f", manifests, "shop/api-extauth"]);
    assert_eq!(reach.code, 0, "{}", reach.stderr);
    assert!(reach.stdout.contains("traffic.extAuth"), "{}", reach.stdout);
    let topology = dopol(&["topology", "-f", manifests]);
    assert_eq!(topology.code, 0, "{}", topology.stderr);
    assert!(
        topology.stdout.contains("api-extauth"),
        "{}",
        topology.stdout
    );
    let other = "testdata/agentgateway/buffer/manifests.yaml";
    let diff = dopol(&["diff", manifests, other]);
    assert!(diff.stdout.contains("traffic.buffer"), "{}", diff.stdout);
}

/// Shape rules of the vendored CRD (`x-kubernetes-validations`) are input errors.
#[test]
fn crd_shape_errors_are_input_errors() {
    let out = dopol(&[
        "lint",
        "-f",
        "testdata/codes/agw-backend-level-not-modelled/manifests.yaml",
    ]);
    assert!(!out.stdout.contains("DPL1016"), "{}", out.stdout);
    let bad = "apiVersion: agentgateway.dev/v1alpha1
kind: AgentgatewayPolicy
metadata: {name: p, namespace: shop}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}]
  frontend: {tcp: {keepalive: {time: 10s}}}
";
    let out = crate::common::run_in(&root(), &["lint", "-f", "-"], Some(bad.as_bytes()));
    assert!(
        out.stdout
            .contains("the 'frontend' field can only target a Gateway"),
        "{}",
        out.stdout
    );
}
