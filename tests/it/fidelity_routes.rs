//! Issue 47, points 2, 4 and 6 and the rule-numbering friction, on upstream fixtures (their
//! origins in each `testdata/fidelity2/<case>/ORIGIN.md`): TCPRoutes, TLSRoutes and UDPRoutes
//! attach and have paths, and Envoy Gateway's SecurityPolicy applies only `authorization` on a
//! TCPRoute; ListenerSets are a level (their listeners carry paths); every path has its own id, and
//! `duplicate-rule-name` names the families it concerns.

use crate::common::{GATEWAY, dopol, findings, root, rules, run_in};
use serde_json::{Value, json};

const TCP_AUTHZ: &str = "testdata/fidelity2/eg-tcproute-authorization/tcproute-securitypolicy-with-authorization-client-cidr.in.yaml";
const TCP_MERGE_INVALID: &str = "testdata/fidelity2/eg-securitypolicy-merge-tcp-invalid/securitypolicy-with-merge-tcp-invalid.in.yaml";
const LISTENER_SETS: &str =
    "testdata/fidelity2/listenerset-http-routing/listenerset-http-routing.yaml";
const RULE_NAMES: &str = "testdata/fidelity2/rule-name-collision/manifests.yaml";

/// `dopol <args> -f -` on `input`.
fn on_stdin(args: &[&str], input: &str) -> crate::common::Output {
    let mut all = args.to_vec();
    all.extend(["-f", "-"]);
    run_in(&root(), &all, Some(input.as_bytes()))
}

/// The status item of `locator` in a `status -o json` document.
fn status_of<'d>(doc: &'d Value, locator: &str) -> &'d Value {
    doc["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["policy"] == locator)
        .unwrap_or_else(|| panic!("no status for {locator}"))
}

/// `[(type, status, reason, message)]` of a list of conditions.
fn conditions(list: &Value) -> Vec<(String, String, String, String)> {
    let text = |c: &Value, k: &str| c[k].as_str().unwrap_or_default().to_string();
    list.as_array()
        .expect("conditions")
        .iter()
        .map(|c| {
            (
                text(c, "type"),
                text(c, "status"),
                text(c, "reason"),
                text(c, "message"),
            )
        })
        .collect()
}

fn condition(
    kind: &str,
    status: &str,
    reason: &str,
    message: &str,
) -> (String, String, String, String) {
    (kind.into(), status.into(), reason.into(), message.into())
}

const SP: &str = "securitypolicy.gateway.envoyproxy.io";

fn tcp_path(gateway: &str, listener: &str, route: &str) -> String {
    format!(
        "envoy-gateway-class|envoy-gateway/{gateway}|envoy-gateway/{gateway}#{listener}|default/{route}|default/{route}#rule-1"
    )
}

/// Upstream `tcproute-securitypolicy-with-authorization-client-cidr`: a SecurityPolicy on a
/// TCPRoute is accepted on the route's listener and its authorization is the route's; the second
/// one is Conflicted there; a Gateway policy with authorization and cors gives the TCP route only
/// the authorization, the HTTP route both.
#[test]
fn a_securitypolicy_on_a_tcproute_is_accepted_and_applies_its_authorization() {
    let status = dopol(&["status", "-o", "json", "-f", TCP_AUTHZ]);
    let doc = status.json();
    let bar = status_of(&doc, &format!("{SP}:default/sp-tcpr-app-bar"));
    assert_eq!(
        conditions(&bar["conditions"]),
        [condition(
            "Accepted",
            "True",
            "Accepted",
            "Policy has been accepted."
        )]
    );
    assert_eq!(bar["ancestors"][0]["ancestorRef"]["name"], "gateway-tcp");
    assert_eq!(bar["ancestors"][0]["ancestorRef"]["sectionName"], "bar");
    let conflict = status_of(&doc, &format!("{SP}:default/sp-tcpr-app-conflict"));
    assert_eq!(
        conditions(&conflict["conditions"]),
        [condition(
            "Accepted",
            "False",
            "Conflicted",
            "Unable to target TCPRoute tcpr-app-bar, another SecurityPolicy has already attached to it"
        )]
    );
    // The golden's lines 396–397: the listener with its own policy and the route with its own.
    let whole = status_of(&doc, &format!("{SP}:envoy-gateway/sp-gw-tcp-whole"));
    assert_eq!(
        conditions(&whole["conditions"]),
        [
            condition("Accepted", "True", "Accepted", "Policy has been accepted."),
            condition(
                "Overridden",
                "True",
                "Overridden",
                "This policy is being overridden by other securityPolicies for these gateway listeners: [envoy-gateway/gateway-tcp/foo] and these routes: [default/tcpr-app-bar]"
            ),
        ]
    );
    let section = status_of(
        &doc,
        &format!("{SP}:envoy-gateway/sp-tcpr-app-invalid-section"),
    );
    assert_eq!(
        conditions(&section["conditions"]),
        [condition(
            "Accepted",
            "False",
            "TargetNotFound",
            "No section name bogus found for Gateway envoy-gateway/gateway-tcp"
        )]
    );
    let mixed = status_of(&doc, &format!("{SP}:envoy-gateway/sp-mixed-gateway"));
    assert_eq!(
        conditions(&mixed["conditions"]),
        [condition(
            "Accepted",
            "True",
            "Accepted",
            "Policy has been accepted."
        )]
    );

    let effective = dopol(&["effective", "-o", "json", "-f", TCP_AUTHZ]);
    effective.code(0);
    let doc = effective.json();
    let keys_and_sources = |path: &str| -> Vec<(String, String)> {
        rules(&doc, "SecurityPolicy", path)
            .into_iter()
            .map(|r| (r.key, r.source))
            .collect()
    };
    let own = |key: &str, policy: &str| (key.to_string(), format!("{SP}:{policy}"));
    assert_eq!(
        keys_and_sources(&tcp_path("gateway-tcp", "bar", "tcpr-app-bar")),
        [own("authorization", "default/sp-tcpr-app-bar")]
    );
    assert_eq!(
        rules(
            &doc,
            "SecurityPolicy",
            &tcp_path("gateway-tcp", "bar", "tcpr-app-bar")
        )[0]
        .value,
        json!({"defaultAction": "Deny", "rules": [{"action": "Allow", "name": "allow-route-bar", "principal": {"clientCIDRs": ["10.10.2.0/24"]}}]})
    );
    assert_eq!(
        keys_and_sources(&tcp_path("gateway-tcp", "foo", "tcpr-app-foo")),
        [own("authorization", "envoy-gateway/sp-gw-tcp-section-foo")]
    );
    assert_eq!(
        keys_and_sources(&tcp_path("gateway-mixed", "foo", "tcpr-app-mixed")),
        [own("authorization", "envoy-gateway/sp-mixed-gateway")]
    );
    assert_eq!(
        keys_and_sources(&tcp_path("gateway-mixed", "http", "hr-app-mixed")),
        [
            own("authorization", "envoy-gateway/sp-mixed-gateway"),
            own("cors", "envoy-gateway/sp-mixed-gateway")
        ]
    );

    // `explain` says which fields are left out on the TCPRoute.
    let explain = dopol(&[
        "explain",
        "-f",
        TCP_AUTHZ,
        "--route",
        "default/tcpr-app-mixed",
    ]);
    explain.code(0).stdout_has(&[
        "on a TCPRoute Envoy Gateway applies only authorization; the other fields are left out [GEP-713: Atomic defaults]\n      ! cors\n  Result:\n      authorization ← envoy-gateway/sp-mixed-gateway\n",
    ]);

    // Nothing says "has no targets" or "no route is attached"; the one error is upstream's own
    // TargetNotFound (sectionName `bogus`).
    let lint = dopol(&["lint", "-o", "json", "-f", TCP_AUTHZ]);
    let found = findings(&lint.json());
    let errors: Vec<&str> = found
        .iter()
        .filter(|f| f.1 == "error")
        .map(|f| f.0.as_str())
        .collect();
    assert_eq!(errors, ["DPL3002"]);
    assert!(
        found
            .iter()
            .all(|f| !f.3.contains("no targets") && !f.3.contains("no route is attached")),
        "{found:?}"
    );
}

/// Upstream `securitypolicy-with-merge-tcp-invalid`: the route policy merged with the Gateway's
/// basicAuth is Invalid with upstream's message, merges into nothing, and the TCP path gets
/// nothing; the Gateway policy is Overridden by it.
#[test]
fn a_merged_securitypolicy_with_more_than_authorization_is_invalid_on_a_tcproute() {
    let doc = dopol(&["status", "-o", "json", "-f", TCP_MERGE_INVALID]).json();
    let route = status_of(&doc, &format!("{SP}:default/policy-for-route"));
    let invalid = condition(
        "Accepted",
        "False",
        "Invalid",
        "Only authorization is supported for TCP (routes/listeners).",
    );
    assert_eq!(
        conditions(&route["conditions"]),
        std::slice::from_ref(&invalid)
    );
    assert_eq!(route["ancestors"].as_array().unwrap().len(), 1);
    assert_eq!(route["ancestors"][0]["ancestorRef"]["sectionName"], "tcp");
    assert_eq!(conditions(&route["ancestors"][0]["conditions"]), [invalid]);
    assert_eq!(
        route["rules"][0]["outcomes"][0]["outcome"], "not-applied",
        "{}",
        route["rules"]
    );
    let gateway = status_of(&doc, &format!("{SP}:envoy-gateway/policy-for-gateway"));
    assert_eq!(
        conditions(&gateway["ancestors"][0]["conditions"]),
        [
            condition("Accepted", "True", "Accepted", "Policy has been accepted."),
            condition(
                "Overridden",
                "True",
                "Overridden",
                "This policy is being overridden by other securityPolicies for these routes: [default/tcproute-1]"
            )
        ]
    );
    let effective = dopol(&["effective", "-o", "json", "-f", TCP_MERGE_INVALID]);
    assert_eq!(effective.json()["items"], json!([]));
}

/// TCPRoute, TLSRoute and UDPRoute attachment: allowedRoutes kinds by listener protocol,
/// sectionName, TLSRoute hostnames; a Kuadrant Gateway policy whose Gateway has only a TCPRoute
/// is in the path to nothing for that reason, not "no route attached".
#[test]
fn xroutes_attach_by_protocol_section_and_hostname() {
    let input = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: l4, namespace: infra}
spec:
  gatewayClassName: eg
  listeners:
  - {name: tcp, protocol: TCP, port: 9000, allowedRoutes: {namespaces: {from: All}}}
  - {name: udp, protocol: UDP, port: 53, allowedRoutes: {namespaces: {from: All}}}
  - {name: tls, protocol: TLS, port: 443, hostname: '*.example.com', tls: {mode: Passthrough}, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: db, namespace: app}
spec:
  parentRefs: [{name: l4, namespace: infra, sectionName: tcp}]
  rules: [{backendRefs: [{name: db, port: 5432}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: UDPRoute
metadata: {name: dns, namespace: app}
spec:
  parentRefs: [{name: l4, namespace: infra}]
  rules: [{backendRefs: [{name: dns, port: 53}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha3
kind: TLSRoute
metadata: {name: web, namespace: app}
spec:
  parentRefs: [{name: l4, namespace: infra}]
  hostnames: [www.example.com]
  rules: [{backendRefs: [{name: web, port: 443}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: {name: other, namespace: app}
spec:
  parentRefs: [{name: l4, namespace: infra, sectionName: tls}]
  hostnames: [www.example.org]
  rules: [{backendRefs: [{name: other, port: 443}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: wrong, namespace: app}
spec:
  parentRefs: [{name: l4, namespace: infra, sectionName: udp}]
  rules: [{backendRefs: [{name: db, port: 5432}]}]
---
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: gw-limit, namespace: infra}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: l4, sectionName: tcp}
  limits:
    all: {rates: [{limit: 5, window: 1s}]}
";
    // Every path, none with the Kuadrant policy (which applies to HTTP routes only).
    let doc = on_stdin(&["effective", "--uncovered", "-o", "json"], input).json();
    let mut ids = Vec::new();
    collect_path_ids(&doc, &mut ids);
    assert_eq!(
        ids,
        [
            "eg|infra/l4|infra/l4#tcp|app/db|app/db#rule-1",
            "eg|infra/l4|infra/l4#udp|app/dns|app/dns#rule-1",
            "eg|infra/l4|infra/l4#tls|app/web|app/web#rule-1",
        ]
    );
    let topology = on_stdin(&["topology", "-o", "json"], input).json();
    let refused: Vec<(&str, &str)> = topology["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["route"].as_str().unwrap(), r["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        refused,
        [
            ("app/other", "NoMatchingListenerHostname"),
            ("app/wrong", "NotAllowedByListeners")
        ]
    );
    let lint = on_stdin(&["lint", "-o", "json"], input);
    let found = findings(&lint.json());
    let messages: Vec<(&str, &str)> = found.iter().map(|f| (f.0.as_str(), f.3.as_str())).collect();
    assert_eq!(
        messages[..2],
        [
            (
                "DPL2004",
                "the hostnames of TLSRoute app/other (www.example.org) intersect no listener hostname of Gateway infra/l4 (*.example.com) (NoMatchingListenerHostname)"
            ),
            (
                "DPL2003",
                "no listener of Gateway infra/l4 allows TCPRoute app/wrong: listener `udp` (protocol UDP) does not accept TCPRoute (NotAllowedByListeners)"
            ),
        ]
    );
    let unreached: Vec<&str> = messages
        .iter()
        .filter(|(code, _)| *code == "DPL4002")
        .map(|(_, m)| *m)
        .collect();
    assert_eq!(
        unreached,
        [
            "RateLimitPolicy infra/gw-limit targets listener infra/l4#tcp, to which only TCPRoutes are attached, which kuadrant policies do not apply to; the policy is in the path to nothing"
        ],
    );
}

/// `request -o json GET http://<host><path>` on conformance `listenerset-http-routing`.
fn to_listener_sets(host: &str, path: &str) -> crate::common::Output {
    let url = format!("http://{host}{path}");
    dopol(&["request", "-o", "json", "-f", LISTENER_SETS, "GET", &url])
}

/// Conformance `listenerset-http-routing`, unchanged: every route attaches, through the
/// Gateway's own listeners or the ListenerSets' (paths `G>S#L` after the Gateway's own), nothing
/// is "attached to no listener", and `request` answers 200 through a ListenerSet's listener as
/// upstream does (`/gateway-route` there is a 404: a Gateway parentRef never reaches it).
#[test]
fn listener_sets_attach_routes_and_request_answers_through_their_listeners() {
    let lint = dopol(&["lint", "-o", "json", "-f", LISTENER_SETS]);
    lint.code(0);
    assert!(findings(&lint.json()).is_empty());
    let gw = "gateway-conformance-infra/gateway-with-listener-sets-http-routing";
    let set = |n: u32, l: u32| {
        format!(
            "{gw}>gateway-conformance-infra/listener-set-http-routing-{n}#listener-set-http-routing-{n}-listener-{l}"
        )
    };
    // The listener segment of the path a request takes.
    let listener_of = |host: &str, path: &str| -> String {
        let trace = to_listener_sets(host, path).json();
        let id = trace["match"]["pathId"].as_str().unwrap_or_default();
        id.split('|').nth(2).unwrap_or_default().to_string()
    };
    let hosts = ["gateway-listener-1.com", "gateway-listener-2.com"];
    for (i, host) in hosts.iter().enumerate() {
        let own = format!("{gw}#gateway-listener-{}", i + 1);
        assert_eq!(listener_of(host, "/route"), own);
    }
    for (n, l) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
        let host = format!("listener-set-http-routing-{n}-listener-{l}.com");
        assert_eq!(listener_of(&host, "/route"), set(n, l));
    }
    let set_host = "listener-set-http-routing-1-listener-1.com";
    let section = listener_of(set_host, "/listener-set-http-routing-1-section-route");
    assert_eq!(section, set(1, 1));

    // Upstream: 200 from infra-backend-v1 through `attaches-to-all-listeners`, on a Gateway
    // hostname and on a ListenerSet's.
    for host in ["gateway-listener-1.com", set_host] {
        let served = to_listener_sets(host, "/route");
        served.code(0);
        let trace = served.json();
        assert_eq!(
            trace["match"]["rule"],
            "gateway-conformance-infra/attaches-to-all-listeners#rule-1"
        );
        let backend = "Service gateway-conformance-infra/infra-backend-v1:8080";
        assert_eq!(trace["backends"][0]["backend"], backend, "{trace}");
    }
    let through_set = to_listener_sets(set_host, "/route").json();
    assert_eq!(through_set["listener"]["listener"], set(1, 1));

    // Upstream: `/gateway-route` on a ListenerSet hostname is 404.
    let missed = to_listener_sets(set_host, "/gateway-route");
    missed.code(1);
    assert_eq!(missed.json()["notFound"]["status"], 404);

    // A host no listener receives is still a 404.
    let nobody = to_listener_sets("nobody.example", "/route");
    nobody.code(1);
    assert_eq!(nobody.json()["notFound"]["reason"], "no-listener");
}

/// A route whose only parent is a ListenerSet not in the input: its parentRef is a parent not
/// found, and a policy on it follows that finding.
#[test]
fn a_route_of_a_missing_listener_set_is_a_parent_not_found() {
    let input = format!(
        "{GATEWAY}---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: extra, namespace: infra}}
spec:
  parentRefs: [{{group: gateway.networking.k8s.io, kind: ListenerSet, name: more}}]
---
apiVersion: kuadrant.io/v1
kind: AuthPolicy
metadata: {{name: extra-auth, namespace: infra}}
spec:
  targetRef: {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: extra}}
  rules:
    authentication:
      key: {{apiKey: {{selector: {{}}}}, credentials: {{authorizationHeader: {{prefix: KEY}}}}}}
"
    );
    let lint = on_stdin(&["lint", "-o", "json"], &input);
    let found = findings(&lint.json());
    let codes: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert!(!codes.contains(&"DPL2005"), "{codes:?}");
    let parent = found.iter().find(|f| f.0 == "DPL2001").expect("DPL2001");
    assert_eq!(
        parent.3,
        "parentRef names ListenerSet infra/more, which is not in the input (ParentNotFound)"
    );
    let unreached = found.iter().find(|f| f.0 == "DPL4002").expect("DPL4002");
    assert!(unreached.3.contains("DPL2001"), "{}", unreached.3);
}

/// An unnamed rule followed by a rule named `rule-1`: two paths, two ids (the written name keeps
/// `rule-1`, the unnamed rule is `rules[0]`); Kuadrant's sectionName `rule-1` takes the unnamed
/// rule (its positional name, first), Envoy Gateway's the written one; DPL2007 names kuadrant
/// only. A GRPCRoute of the same namespace and name on the listener has its kind in its ids.
#[test]
fn every_path_has_its_own_id_and_duplicate_rule_name_names_its_families() {
    let effective = dopol(&["effective", "-o", "json", "-f", RULE_NAMES]);
    let doc = effective.json();
    let prefix = "kuadrant|infra/gw|infra/gw#http|";
    let unnamed = format!("{prefix}app/shop|app/shop#rules[0]");
    let named = format!("{prefix}app/shop|app/shop#rule-1");
    let grpc = format!("{prefix}app/shop[GRPCRoute]|app/shop[GRPCRoute]#rule-1");
    let keys = |kind: &str, path: &str| -> Vec<(String, String)> {
        rules(&doc, kind, path)
            .into_iter()
            .map(|r| (r.key, r.source))
            .collect()
    };
    assert_eq!(
        keys("RateLimitPolicy", &unnamed),
        [(
            "one".to_string(),
            "ratelimitpolicy.kuadrant.io:app/rule-one".to_string()
        )]
    );
    assert_eq!(keys("RateLimitPolicy", &named), []);
    assert_eq!(
        keys("BackendTrafficPolicy", &named),
        [(
            "retry".to_string(),
            "backendtrafficpolicy.gateway.envoyproxy.io:app/rule-one".to_string()
        )]
    );
    assert_eq!(keys("BackendTrafficPolicy", &unnamed), []);

    let every = dopol(&["effective", "--uncovered", "-o", "json", "-f", RULE_NAMES]).json();
    let mut ids: Vec<String> = Vec::new();
    collect_path_ids(&every, &mut ids);
    assert_eq!(ids.len(), 3, "{ids:?}");
    ids.sort();
    let before = ids.len();
    ids.dedup();
    assert_eq!(before, ids.len(), "duplicate path ids: {ids:?}");
    for id in [&unnamed, &named, &grpc] {
        assert!(ids.contains(id), "{id} not in {ids:?}");
    }

    let lint = dopol(&["lint", "-o", "json", "-f", RULE_NAMES]);
    lint.code(0);
    let doc = lint.json();
    let duplicate: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "DPL2007")
        .collect();
    assert_eq!(duplicate.len(), 1);
    assert_eq!(duplicate[0]["severity"], "warning");
    assert_eq!(
        duplicate[0]["message"],
        "the unnamed rule rules[0] has the positional name `rule-1`, which another rule writes; dopol calls it `rules[0]` in path ids; for kuadrant (which read positional names) a sectionName `rule-1` is ambiguous"
    );
    assert_eq!(
        duplicate[0]["help"],
        "give rules[0] a name, or rename the rule that writes `rule-1` (avoid the `rule-N` pattern for written names)"
    );
}

/// Every string under a `pathId` key, anywhere in `doc`.
fn collect_path_ids(doc: &Value, ids: &mut Vec<String>) {
    match doc {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value.as_str()) {
                    ("pathId", Some(id)) => ids.push(id.to_string()),
                    _ => collect_path_ids(value, ids),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_path_ids(v, ids)),
        _ => {}
    }
}

/// The request trace names the deciding match by its 0-based index in the rule's `matches`
/// (`matches[1]`), beside the rule's 1-based positional name (`rule-2`).
#[test]
fn request_names_the_match_by_its_index_beside_the_rule_name() {
    let input = format!(
        "{GATEWAY}---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: shop, namespace: app}}
spec:
  parentRefs: [{{name: gw, namespace: infra}}]
  rules:
  - matches: [{{path: {{type: Exact, value: /a}}}}]
  - matches: [{{path: {{type: Exact, value: /b}}}}, {{path: {{type: Exact, value: /c}}}}]
"
    );
    let out = on_stdin(&["request", "GET", "http://x.example/c"], &input);
    out.code(0)
        .stdout_has(&["Match     app/shop#rule-2 (matches[1]; no other rule matched)"]);
}

/// An Envoy Gateway policy whose only target is a ListenerSet absent from the input is not
/// "without targets": Envoy Gateway leaves it silently (no ancestor), dopol's status says the
/// target was not found (docs/families.md §1, Unresolved policies), and lint finds nothing.
#[test]
fn a_policy_targeting_only_a_listener_set_is_not_said_to_have_no_targets() {
    let input = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: shop}
spec:
  gatewayClassName: eg
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: ls, namespace: shop}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: ListenerSet, name: extra}]
  cors: {allowOrigins: ['https://a.example']}
";
    let lint = on_stdin(&["lint", "-o", "json"], input);
    lint.code(0);
    let codes: Vec<String> = findings(&lint.json()).into_iter().map(|f| f.0).collect();
    assert!(codes.is_empty(), "{codes:?}");
    let doc = on_stdin(&["status", "-o", "json"], input).json();
    let status = status_of(&doc, &format!("{SP}:shop/ls"));
    assert_eq!(
        conditions(&status["conditions"]),
        [condition(
            "Accepted",
            "False",
            "TargetNotFound",
            "SecurityPolicy target extra was not found"
        )]
    );
    let topology = on_stdin(&["topology", "-o", "json"], input).json();
    assert_eq!(topology["notAccepted"], json!([]));
}

/// A route SecurityPolicy Invalid on a TCPRoute sets nothing there, and the Gateway policy's
/// `authorization` applies, as Envoy Gateway gives it to every TCP route without one; the
/// Invalid message says whether the policy's own spec or its merge failed.
#[test]
fn an_invalid_route_policy_leaves_the_tcproute_to_the_gateway_authorization() {
    let dir = "testdata/fidelity2/eg-tcp-invalid-fallback";
    let doc = dopol(&["effective", "-o", "json", "-f", dir]).json();
    let path = |route: &str| format!("eg|ns/gw|ns/gw#tcp|ns/{route}|ns/{route}#rule-1");
    for route in ["t", "u"] {
        let found: Vec<(String, Value, String)> = rules(&doc, "SecurityPolicy", &path(route))
            .into_iter()
            .map(|r| (r.key, r.value, r.source))
            .collect();
        assert_eq!(
            found,
            [(
                "authorization".to_string(),
                json!({"defaultAction": "Deny"}),
                format!("{SP}:ns/gw-sp")
            )],
            "{route}"
        );
    }
    let doc = dopol(&["status", "-o", "json", "-f", dir]).json();
    let accepted =
        |policy: &str| conditions(&status_of(&doc, &format!("{SP}:ns/{policy}"))["conditions"]);
    assert_eq!(
        accepted("route-sp"),
        [condition(
            "Accepted",
            "False",
            "Invalid",
            "Only authorization is supported for TCP (routes/listeners)."
        )]
    );
    assert_eq!(
        accepted("own-cors"),
        [condition(
            "Accepted",
            "False",
            "Invalid",
            "Invalid SecurityPolicy for TCP route: only authorization is supported for TCP (routes/listeners)."
        )]
    );
}

/// A Gateway `ns/gw` of class `class` with one listener, `http` on port 80 for
/// `*.example.com` (`admit`: its `allowedListeners` line, or nothing), and a ListenerSet `ns/ls`
/// of `set_kind` (`api`) with listener `a` for `a.example.com`.
fn listener_set_input(class: &str, admit: &str, set_kind: &str, api: &str) -> String {
    format!(
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: ns}}
spec:
  gatewayClassName: {class}
{admit}  listeners:
  - {{name: http, port: 80, protocol: HTTP, hostname: '*.example.com'}}
---
apiVersion: {api}
kind: {set_kind}
metadata: {{name: ls, namespace: ns}}
spec:
  parentRef: {{name: gw}}
  listeners:
  - {{name: a, port: 80, protocol: HTTP, hostname: a.example.com}}
"
    )
}

/// An HTTPRoute `ns/r` on `ns/gw`, one rule; `kind` may be `GRPCRoute`.
fn ns_route(kind: &str) -> String {
    format!(
        "---
apiVersion: gateway.networking.k8s.io/v1
kind: {kind}
metadata: {{name: r, namespace: ns}}
spec:
  parentRefs: [{{name: gw}}]
  rules: [{{backendRefs: [{{name: s, port: 80}}]}}]
"
    )
}

/// `request GET http://a.example.com/x -o json`.
const TO_A: &[&str] = &["request", "GET", "http://a.example.com/x", "-o", "json"];

/// The experimental channel's XListenerSet (which kgateway serves) is read as a ListenerSet
/// (`legacy-xlistenerset`, info): its listener receives the host it names.
#[test]
fn an_xlistenerset_is_a_listener_set() {
    let input = listener_set_input(
        "kgateway",
        "  allowedListeners: {namespaces: {from: All}}\n",
        "XListenerSet",
        "gateway.networking.x-k8s.io/v1alpha1",
    );
    let lint = on_stdin(&["lint", "-o", "json"], &input);
    let codes: Vec<String> = findings(&lint.json()).into_iter().map(|f| f.0).collect();
    assert_eq!(codes, ["DPL2020"]);
    let out = on_stdin(TO_A, &input);
    out.code(1);
    let trace = out.json();
    assert_eq!(trace["listener"]["listener"], "ns/gw>ns/ls#a");
    assert_eq!(trace["notFound"]["reason"], "no-route");
}

/// A Gateway admits no ListenerSet unless `spec.allowedListeners` says so (GEP-1713: absent
/// means none): such a set takes no request, `request` answers through the Gateway's listener,
/// and `listenerset-not-allowed` says the set is not admitted.
#[test]
fn a_listener_set_the_gateway_does_not_admit_takes_no_request() {
    let sets = listener_set_input("eg", "", "ListenerSet", "gateway.networking.k8s.io/v1");
    let input = sets + &ns_route("HTTPRoute");
    let out = on_stdin(TO_A, &input);
    out.code(0);
    let trace = out.json();
    assert_eq!(
        trace["match"]["pathId"],
        "eg|ns/gw|ns/gw#http|ns/r|ns/r#rule-1"
    );
    let doc = on_stdin(&["lint", "-o", "json"], &input).json();
    assert_eq!(
        doc["diagnostics"][0]["message"],
        "ListenerSet ns/ls is not admitted by Gateway ns/gw (allowedListeners): its listeners serve nothing"
    );
}

/// `--route ns/name[Kind]`, as path ids write a route sharing its namespace and name with a
/// route of an earlier kind, picks that route only.
#[test]
fn route_filters_take_the_kind_suffix_of_path_ids() {
    let input = [
        crate::common::EG_GATEWAY,
        &ns_route("HTTPRoute"),
        &ns_route("GRPCRoute"),
    ]
    .concat();
    let kinds = |route: &str| -> Vec<String> {
        let out = on_stdin(&["topology", "-o", "json", "--route", route], &input);
        out.code(0);
        let doc = out.json();
        let routes = doc["gateways"][0]["listeners"][0]["routes"]
            .as_array()
            .unwrap()
            .clone();
        routes
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    r["kind"].as_str().unwrap(),
                    r["name"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(kinds("ns/r[GRPCRoute]"), ["GRPCRoute ns/r"]);
    assert_eq!(kinds("ns/r[HTTPRoute]"), ["HTTPRoute ns/r"]);
    assert_eq!(kinds("ns/r"), ["HTTPRoute ns/r", "GRPCRoute ns/r"]);
}
