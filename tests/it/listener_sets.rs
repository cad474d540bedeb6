//! ListenerSet as a level of the hierarchy (issue 49 item 1, docs/semantics.md §2), on the
//! Gateway API conformance manifests copied unchanged into
//! `testdata/realworld/gateway-api/listenerset/` (see its `ORIGIN.md`): the handshake
//! (`allowedListeners`), the merged listener list and its conflicts, route attachment through a
//! ListenerSet's listeners and `request` through them, each asserted as the conformance test
//! expects.

use crate::common::{dopol, findings, root, run_in};

/// The conformance manifest `listenerset-<name>.yaml`.
fn case(name: &str) -> String {
    format!("testdata/realworld/gateway-api/listenerset/listenerset-{name}.yaml")
}

/// The route rule `request GET http://<host><path>` reaches on `file` (`ns/route#rule`), or
/// `None` for a 404.
fn served(file: &str, host: &str, path: &str) -> Option<String> {
    let url = format!("http://{host}{path}");
    let out = dopol(&["request", "-o", "json", "-f", file, "GET", &url]);
    let trace = out.json();
    if !trace["notFound"].is_null() {
        assert_eq!(trace["notFound"]["status"], 404, "{trace}");
        return None;
    }
    Some(
        trace["match"]["rule"]
            .as_str()
            .expect("a match")
            .to_string(),
    )
}

/// The `(code, message)` of every lint finding of `file`, infos included.
fn lint(file: &str) -> Vec<(String, String)> {
    let out = dopol(&["lint", "-o", "json", "-v", "-f", file]);
    (findings(&out.json()).into_iter())
        .map(|f| (f.0, f.3))
        .collect()
}

fn codes(file: &str) -> Vec<String> {
    lint(file).into_iter().map(|f| f.0).collect()
}

/// `listenerset-default-not-allowed`, `-allowed-namespace-none`: a Gateway without
/// `allowedListeners`, or with `from: None`, admits no ListenerSet (Accepted=False/NotAllowed).
#[test]
fn a_gateway_admits_no_listener_set_by_default_or_with_none() {
    for name in ["default-not-allowed", "allowed-namespace-none"] {
        assert_eq!(codes(&case(name)), ["DPL2015"], "{name}");
    }
}

/// `listenerset-allowed-namespace-selector`: the set in the selected namespace is admitted, the
/// other is not (NotAllowed).
#[test]
fn a_selector_admits_the_listener_sets_of_the_namespaces_it_selects() {
    let found = lint(&case("allowed-namespace-selector"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "DPL2015");
    assert!(found[0].1.starts_with(
        "ListenerSet gateway-api-listenerset-selector-not-allowed-ns/listenerset-not-in-selected-namespace is not admitted"
    ));
}

/// `listenerset-hostname-conflict`: per port, a ListenerSet listener with a Gateway listener's
/// hostname is Conflicted (HostnameConflict), the first ListenerSet (by name, no
/// creationTimestamp) wins among sets, and a set with no accepted listener is
/// ListenersNotValid.
#[test]
fn hostname_conflicts_follow_the_merged_listener_order() {
    let found = lint(&case("hostname-conflict"));
    let conflicted: Vec<&str> = (found.iter())
        .filter(|f| f.0 == "DPL2018")
        .map(|f| f.1.split(' ').nth(1).unwrap())
        .collect();
    let ns = "gateway-conformance-infra";
    assert_eq!(
        conflicted,
        [
            format!(
                "{ns}/listenerset-with-hostname-conflict-with-gateway-1#hostname-conflict-with-gateway-listener"
            ),
            format!(
                "{ns}/listenerset-with-hostname-conflict-with-gateway-2#hostname-conflict-with-gateway-listener"
            ),
            format!(
                "{ns}/listenerset-with-hostname-conflict-with-listener-set-1#hostname-conflict-with-listener-set-listener"
            ),
            format!(
                "{ns}/listenerset-with-hostname-conflict-with-listener-set-2#hostname-conflict-with-listener-set-listener"
            ),
        ]
    );
    assert!(
        found
            .iter()
            .all(|f| f.1.contains("(HostnameConflict)") || f.0 != "DPL2018")
    );
    let not_valid: Vec<&str> = (found.iter())
        .filter(|f| f.0 == "DPL2019")
        .map(|f| f.1.split(' ').nth(4).unwrap())
        .collect();
    assert_eq!(
        not_valid,
        [
            format!("{ns}/listenerset-with-hostname-conflict-with-gateway-2"),
            format!("{ns}/listenerset-with-hostname-conflict-with-listener-set-2"),
        ]
    );
}

/// `listenerset-protocol-conflict`: the Gateway's HTTP holds port 80, so every TCP listener of
/// the sets is Conflicted (ProtocolConflict); the sets with no other listener are
/// ListenersNotValid.
#[test]
fn protocol_conflicts_leave_the_gateway_class_on_the_port() {
    let found = lint(&case("protocol-conflict"));
    let conflicted = (found.iter()).filter(|f| f.0 == "DPL2018");
    assert_eq!(conflicted.clone().count(), 4, "{found:?}");
    assert!(
        conflicted
            .clone()
            .all(|f| f.1.contains("(ProtocolConflict)"))
    );
    assert!(
        conflicted
            .clone()
            .all(|f| f.1.contains("conflicts with gateway-listener"))
    );
    assert_eq!(found.iter().filter(|f| f.0 == "DPL2019").count(), 2);
}

/// `listenerset-allowed-routes-namespaces`: `from: Same` on a ListenerSet listener is the
/// ListenerSet's namespace; `All` takes every route; a cross-namespace set refuses a route of
/// the Gateway's namespace (NotAllowedByListeners).
#[test]
fn allowed_routes_of_a_listener_set_read_its_own_namespace() {
    let file = case("allowed-routes-namespaces");
    let all = "listener-set-listener-allowed-routes-all.com";
    let same = "listener-set-listener-allowed-routes-same.com";
    let selector = "listener-set-listener-allowed-routes-selector.com";
    let (infra, allowed, other) = (
        "gateway-conformance-infra",
        "gateway-api-routes-allowed-ns",
        "gateway-api-routes-not-allowed-ns",
    );
    // (host, route, the namespace of the route served, or `None` for a 404)
    let expected = [
        (all, "route-in-same-namespace", Some(infra)),
        (all, "route-in-selected-namespace", Some(allowed)),
        (all, "route-not-in-selected-namespace", Some(other)),
        (same, "route-in-same-namespace", Some(infra)),
        (same, "route-in-selected-namespace", None),
        (same, "route-not-in-selected-namespace", None),
        (selector, "route-in-selected-namespace", Some(allowed)),
        (selector, "route-not-in-selected-namespace", None),
    ];
    for (host, route, namespace) in expected {
        let rule = namespace.map(|ns| format!("{ns}/{route}#rule-1"));
        assert_eq!(served(&file, host, &format!("/{route}")), rule, "{host}");
    }
    // Upstream answers 404 for `/route-in-same-namespace` on the selector listener; the
    // conformance suite's own Namespace manifest is not in the file, so dopol assumes the
    // route accepted and says so (DPL2008 selector-undecidable).
    let found = lint(&file);
    assert!(found.iter().any(|f| f.0 == "DPL2008"), "{found:?}");
    let refused = found.iter().find(|f| f.0 == "DPL2003").expect("DPL2003");
    assert!(
        refused
            .1
            .contains("HTTPRoute gateway-conformance-infra/route-in-gateway-namespace")
    );
}

/// `listenerset-gateway-parent-section-name-not-found`: a Gateway parentRef's `sectionName`
/// that only a ListenerSet has is NoMatchingParent; the route through the ListenerSet serves.
#[test]
fn a_gateway_parent_never_reaches_a_listener_set_listener() {
    let file = case("gateway-parent-section-name-not-found");
    let found = lint(&file);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "DPL2002");
    let ns = "gateway-conformance-infra";
    assert_eq!(
        served(&file, "ls-section-name.com", "/goodsection"),
        Some(format!("{ns}/route-via-listenerset#rule-1"))
    );
    assert_eq!(served(&file, "gw-section.com", "/badsection"), None);
}

/// `listenerset-dual-parentref-independence`: each parentRef is evaluated on its own; a route
/// refused by its Gateway parentRef still serves through its ListenerSet parentRef.
#[test]
fn each_parent_ref_attaches_on_its_own() {
    let file = case("dual-parentref-independence");
    let ns = "gateway-conformance-infra";
    let both = Some(format!("{ns}/route-dual-parentref-both#rule-1"));
    assert_eq!(served(&file, "gw-dual.com", "/dualboth"), both);
    assert_eq!(served(&file, "ls-dual.com", "/dualboth"), both);
    assert_eq!(
        served(&file, "ls-dual.com", "/dualone"),
        Some(format!("{ns}/route-dual-parentref-one#rule-1"))
    );
    assert_eq!(served(&file, "gw-dual.com", "/dualone"), None);
    assert_eq!(codes(&file), ["DPL2002"]);
}

/// Adding a ListenerSet no Gateway admits changes no path: `effective -o json` stays byte for
/// byte what it was (the paths of an input without ListenerSets are today's).
#[test]
fn a_listener_set_not_admitted_changes_no_path() {
    let set = "apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: extra, namespace: default}
spec:
  parentRef: {name: nobody-admits-me}
  listeners: [{name: x, port: 80, protocol: HTTP}]
";
    let effective = |extra: Option<&str>| {
        let dir = tempfile::tempdir().unwrap();
        for file in crate::common::yaml_files(&root().join("testdata/rfc0009/a1")) {
            std::fs::copy(&file, dir.path().join(file.file_name().unwrap())).unwrap();
        }
        if let Some(extra) = extra {
            std::fs::write(dir.path().join("zz-listenerset.yaml"), extra).unwrap();
        }
        let out = run_in(dir.path(), &["effective", "-o", "json", "-f", "."], None);
        out.code(0);
        out.stdout
    };
    let plain = effective(None);
    assert!(plain.contains("pathId"), "{plain}");
    assert_eq!(plain, effective(Some(set)));
}

/// Gateway `infra/gw` with its own listener `http` and ListenerSet `team-a/ext` adding another
/// `http`, a route through each, and a whole-Gateway TrafficPolicy.
const SHARED: &str = "testdata/listenersets/shared.yaml";

/// The set's listener keeps its own id, sorts after the Gateway's, and takes the whole-Gateway
/// policy; tables and JSON name it `ns/set#name`; `topology` shows the set as a node.
#[test]
fn every_command_names_the_listener_set() {
    let out = dopol(&["effective", "-o", "json", "-f", SHARED]);
    let doc = out.json();
    let items = doc["items"].as_array().unwrap();
    let ids: Vec<&str> = items
        .iter()
        .map(|i| i["pathId"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "kgateway|infra/gw|infra/gw#http|infra/www|infra/www#rule-1",
            "kgateway|infra/gw|infra/gw>team-a/ext#http|team-a/app|team-a/app#rule-1",
        ]
    );
    assert_eq!(items[1]["listener"], "team-a/ext#http");
    assert_eq!(
        items[1]["rules"]["timeouts"]["source"],
        items[0]["rules"]["timeouts"]["source"]
    );
    dopol(&["effective", "-f", SHARED]).code(0).stdout_has(&[
        "team-a/ext#http  team-a/app#rule-1  TrafficPolicy  timeouts  infra/gw-timeout",
    ]);
    dopol(&["topology", "-f", SHARED]).code(0).stdout_has(&[
        "   └─ ListenerSet team-a/ext\n      └─ listener http (HTTP:80 a.example.com)\n         └─ HTTPRoute team-a/app",
    ]);
    let tree = dopol(&["topology", "-o", "json", "-f", SHARED]).json();
    let set = &tree["gateways"][0]["listenerSets"][0];
    assert_eq!(set["name"], "team-a/ext");
    assert_eq!(set["listeners"][0]["routes"][0]["name"], "team-a/app");
    assert_eq!(
        tree["gateways"][0]["listeners"].as_array().unwrap().len(),
        1
    );
}

/// `explain --listener`: a bare name matches the Gateway's listener and the set's, `G#L` the
/// Gateway's own only, `S#L` and `G>S#L` the set's.
#[test]
fn listener_selectors_tell_the_gateway_and_its_listener_sets_apart() {
    let explains = |route: &str, listener: &str| {
        let out = dopol(&[
            "explain",
            "-f",
            SHARED,
            "--route",
            route,
            "--listener",
            listener,
        ]);
        out.code == 0
    };
    for listener in [
        "http",
        "team-a/ext#http",
        "ext#http",
        "infra/gw>team-a/ext#http",
    ] {
        assert!(explains("app", listener), "{listener}");
    }
    for listener in ["infra/gw#http", "gw#http", "other/gw>team-a/ext#http"] {
        assert!(!explains("app", listener), "{listener}");
    }
    assert!(explains("www", "infra/gw#http") && !explains("www", "team-a/ext#http"));
}

/// Kuadrant knows no ListenerSet: a Gateway's RateLimitPolicy applies on the Gateway's own
/// listener only, and lint names the ListenerSet it skips (`family-ignores-listenerset`).
#[test]
fn kuadrant_policies_skip_listener_sets_and_say_so() {
    let file = "testdata/codes/family-ignores-listenerset";
    let doc = dopol(&["effective", "-o", "json", "-f", file]).json();
    let items = doc["items"].as_array().unwrap();
    let limited: Vec<&str> = (items.iter())
        .filter(|i| !i["rules"].as_object().unwrap().is_empty())
        .map(|i| i["listener"].as_str().unwrap())
        .collect();
    assert_eq!(limited, ["http"]);
    assert_eq!(codes(file), ["DPL4016"]);
}

/// Inputs without ListenerSets keep their reports byte for byte through the ListenerSet target
/// work (the whole-set level, the fold key, the families' set rungs): each case of
/// `testdata/listenersets/unchanged/cases.txt` against the stdout and exit code the binary built
/// from main before it wrote (`<name>.out`).
#[test]
fn inputs_without_listener_sets_keep_their_reports_byte_for_byte() {
    let dir = root().join("testdata/listenersets/unchanged");
    let cases = std::fs::read_to_string(dir.join("cases.txt")).unwrap();
    let mut checked = 0;
    for line in cases
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (name, args) = line.split_once(' ').unwrap();
        let args: Vec<&str> = args.split_whitespace().collect();
        let out = dopol(&args);
        let got = format!("{}exit code: {}\n", out.stdout, out.code);
        let want = std::fs::read_to_string(dir.join(format!("{name}.out"))).unwrap();
        assert!(got == want, "{name}: `dopol {}` differs", args.join(" "));
        checked += 1;
    }
    assert!(checked >= 10, "{checked} cases");
}
