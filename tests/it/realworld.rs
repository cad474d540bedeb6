//! dopol on manifests nobody here wrote (`testdata/realworld/`, copied from the Kuadrant operator
//! and Gateway API repositories), as a user would run it.

use crate::common::{dopol, items, rules};

const KUADRANT: &str = "testdata/realworld/kuadrant-operator";
const TOYSTORE: &str = "testdata/realworld/kuadrant-operator/examples/toystore";

#[test]
fn toystore_effective_policy_with_a_stand_in_gateway() {
    let out = dopol(&[
        "effective",
        "-f",
        TOYSTORE,
        "--assume-gateways",
        "-o",
        "json",
    ]);
    // The TokenRateLimitPolicy's `window: 1d` does not match the CRD's duration pattern, and
    // the route's AuthPolicy `toystore` indents `credentials` one level too far out, so it is
    // read as a rule whose field `authorizationHeader` is unknown: the API server refuses both.
    out.code(3).stderr_has(&[
        "[DPL1015] spec.limits.free.rates[0].window: Invalid value: \"1d\": spec.limits.free.rates[0].window in body should match '^([0-9]{1,5}(h|m|s|ms)){1,4}$'",
        "tokenratelimitpolicy_httproute.yaml:14:17",
        "[DPL1009] unknown field \"spec.rules.authentication.credentials.authorizationHeader\"",
        "toystore/authpolicy.yaml:19:9",
    ]);
    let doc = out.json();
    let path = "unknown|gateway-system/kuadrant-ingressgateway|gateway-system/kuadrant-ingressgateway#default|default/toystore|default/toystore#rule-1";
    // The route's remaining bare AuthPolicy (toystore-protection; `toystore` was refused) wins
    // among atomic defaults; the Gateway's policy is superseded.
    let auth: Vec<(String, String)> = rules(&doc, "AuthPolicy", path)
        .into_iter()
        .map(|r| (r.key, r.source))
        .collect();
    assert_eq!(
        auth,
        [
            (
                "authentication#k8s-service-accounts".to_string(),
                "authpolicy.kuadrant.io:default/toystore-protection".to_string()
            ),
            (
                "authentication#keycloak-users".to_string(),
                "authpolicy.kuadrant.io:default/toystore-protection".to_string()
            ),
            (
                "authorization#k8s-rbac".to_string(),
                "authpolicy.kuadrant.io:default/toystore-protection".to_string()
            ),
        ]
    );
    let limits: Vec<String> = rules(&doc, "RateLimitPolicy", path)
        .into_iter()
        .map(|r| r.key)
        .collect();
    assert_eq!(
        limits,
        [
            "admin-delete-per-user",
            "admin-post-toy-per-user",
            "get-toy",
            "global"
        ]
    );
    assert_eq!(
        items(&doc).len(),
        2,
        "the TokenRateLimitPolicy was left out"
    );
}

#[test]
fn lint_the_whole_kuadrant_example_set() {
    let out = dopol(&["lint", "-f", KUADRANT, "--assume-gateways", "-o", "json"]);
    out.code(3);
    let doc = out.json();
    let found = |code: &str, needle: &str| {
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == code && d["message"].as_str().unwrap().contains(needle))
    };
    assert!(found("DPL1015", "Invalid value: \"1d\""));
    assert!(found(
        "DPL1009",
        "unknown field \"spec.rules.authentication.credentials.authorizationHeader\""
    ));
    assert!(found(
        "DPL4004",
        "AuthPolicy default/authpolicy-sample and AuthPolicy default/toystore-protection both target HTTPRoute default/toystore"
    ));
    assert!(found(
        "DPL4004",
        "their order changes the effective policy of 1 path"
    ));
    assert!(found(
        "DPL4001",
        "RateLimitPolicy gateway-system/toystore-gw: none of its rules is effective"
    ));
    assert!(found(
        "DPL2009",
        "Gateway gateway-system/kuadrant-ingressgateway is not in the input"
    ));
    // Every request-time predicate of the examples is valid CEL.
    assert!(!found("DPL4011", ""));
}

#[test]
fn cross_namespace_routing_by_namespace_labels() {
    let out = dopol(&[
        "topology",
        "-f",
        "testdata/realworld/gateway-api/cross-namespace-routing",
    ]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "\
GatewayClass shared-gateway-class
└─ Gateway infra-ns/shared-gateway
   └─ listener https (HTTPS:443 foo.example.com)
      ├─ HTTPRoute site-ns/home
      │  └─ rule rule-1
      ├─ HTTPRoute site-ns/login
      │  └─ rule rule-1
      └─ HTTPRoute store-ns/store
         └─ rule rule-1
"
    );
    // Without the Namespace objects the selector cannot be decided: assumed accepted, said so.
    let out = dopol(&[
        "lint",
        "-f",
        "testdata/realworld/gateway-api/cross-namespace-routing/gateway.yaml",
        "-f",
        "testdata/realworld/gateway-api/cross-namespace-routing/store-route.yaml",
    ]);
    out.code(0);
    assert!(out.stdout.contains("[DPL2008] listener `https` of Gateway infra-ns/shared-gateway selects namespaces by label, but Namespace `store-ns` is not in the input"), "{}", out.stdout);
}
