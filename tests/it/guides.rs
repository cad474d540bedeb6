//! The Kuadrant operator's user guides (`testdata/realworld/kuadrant-guides/`, manifests copied
//! unchanged), run two ways: as a user first does, on the files with their `${VAR}` placeholders
//! (the API server would reject those names, and so does dopol, with a hint), and as the guide
//! applies them — the shell expands the unquoted heredocs with the guide's exported values, and
//! `kubectl -n X` places objects without a namespace. Each test asserts what the guide says
//! happens.

use crate::common::{dopol, findings, root, rules, run_in};
use serde_json::Value;

const GUIDES: &str = "testdata/realworld/kuadrant-guides";

/// The values the guides export (`api-gateway`, `external`, `toystore`, ...).
pub(crate) const ENV: &[(&str, &str)] = &[
    ("KUADRANT_GATEWAY_NS", "api-gateway"),
    ("KUADRANT_GATEWAY_NAME", "external"),
    ("KUADRANT_DEVELOPER_NS", "toystore"),
    ("KUADRANT_ZONE_ROOT_DOMAIN", "example.com"),
    ("KUADRANT_CLUSTER_ISSUER_NAME", "self-signed"),
];

/// The guide's files in apply order, `${VAR}` expanded as the shell does, as one stream.
pub(crate) fn applied(guide: &str, env: &[(&str, &str)]) -> Vec<u8> {
    let files = crate::common::yaml_files(&root().join(GUIDES).join(guide));
    let mut documents = Vec::new();
    for file in files {
        let mut text = std::fs::read_to_string(&file).unwrap();
        for (name, value) in env {
            text = text.replace(&format!("${{{name}}}"), value);
        }
        assert!(!text.contains("${"), "unexpanded variable in {file:?}");
        documents.push(text);
    }
    documents.join("\n---\n").into_bytes()
}

/// `dopol effective -o json -f - <extra>` on the applied guide.
fn effective(guide: &str, env: &[(&str, &str)], extra: &[&str]) -> Value {
    let mut args = vec!["effective", "-o", "json", "-f", "-"];
    args.extend_from_slice(extra);
    let out = run_in(&root(), &args, Some(&applied(guide, env)));
    out.code(0);
    out.json()
}

/// `(key, source)` pairs of an effective policy.
fn keyed(doc: &Value, kind: &str, path: &str) -> Vec<(String, String)> {
    rules(doc, kind, path)
        .into_iter()
        .map(|r| (r.key, r.source))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn unexpanded_guide_manifests_are_refused_with_a_template_hint() {
    let out = dopol(&["lint", "-f", &format!("{GUIDES}/secure-protect-connect")]);
    out.code(3).stdout_has(&[
        "[DPL1013] `metadata.name` `${KUADRANT_GATEWAY_NAME}` is not a valid name",
        "[DPL1015] spec.listeners[0].hostname: Invalid value: \"api.${KUADRANT_ZONE_ROOT_DOMAIN}\": spec.listeners[0].hostname in body should match",
        "help: `${KUADRANT_ZONE_ROOT_DOMAIN}` looks like an unexpanded template placeholder",
    ]);
}

#[test]
fn secure_protect_connect_the_route_policies_replace_the_gateway_defaults() {
    let doc = effective("secure-protect-connect", ENV, &[]);
    let path = "istio|api-gateway/external|api-gateway/external#api|toystore/toystore|toystore/toystore#rule-1";
    // "an AuthPolicy that overrides the Deny all created earlier": the route's atomic defaults
    // win, the Gateway's deny-all does not apply; `/health` stays excluded (the `when`).
    assert_eq!(
        keyed(&doc, "AuthPolicy", path),
        pairs(&[
            (
                "authentication#api-key-users",
                "authpolicy.kuadrant.io:toystore/toystore-auth"
            ),
            (
                "conditions#",
                "authpolicy.kuadrant.io:toystore/toystore-auth"
            ),
            (
                "response.success.metadata#identity",
                "authpolicy.kuadrant.io:toystore/toystore-auth"
            ),
        ])
    );
    // "a RateLimitPolicy to override the default RateLimitPolicy": 5 per 10s per user, 2 for bob.
    let limits = rules(&doc, "RateLimitPolicy", path);
    let got: Vec<(&str, &Value)> = limits
        .iter()
        .map(|r| (r.key.as_str(), &r.value["rates"][0]))
        .collect();
    assert_eq!(
        got,
        [
            (
                "bob-limit",
                &serde_json::json!({"limit": 2, "window": "10s"})
            ),
            (
                "general-user",
                &serde_json::json!({"limit": 5, "window": "10s"})
            ),
        ]
    );
    assert!(
        limits
            .iter()
            .all(|r| r.source == "ratelimitpolicy.kuadrant.io:toystore/toystore-rlp")
    );
    // The guide's pattern (Gateway defaults every route replaces) passes `--fail-on warning`;
    // lint says so as info.
    let out = run_in(
        &root(),
        &["lint", "-f", "-", "--fail-on", "warning", "-o", "json"],
        Some(&applied("secure-protect-connect", ENV)),
    );
    out.code(0);
    let found: Vec<(String, String)> = findings(&out.json())
        .into_iter()
        .map(|(code, severity, _, _)| (code, severity))
        .collect();
    assert_eq!(found, pairs(&[("DPL4001", "info"), ("DPL4001", "info")]));
}

#[test]
fn gateway_rl_for_cluster_operators_limits_only_the_external_gateway() {
    // The Gateways and the policy are applied with `-n gateway-system` and carry no namespace.
    // Read without `-n`, dopol points at the cause instead of offering stand-ins.
    let dir = format!("{GUIDES}/gateway-rl-for-cluster-operators");
    let out = dopol(&["lint", "-f", &dir]);
    out.stdout_has(&[
        "[DPL2001] parentRef names Gateway gateway-system/external, which is not in the input; a Gateway external exists in namespace `default` (ParentNotFound)",
        "help: Gateway default/external has no metadata.namespace and was read into the default namespace; if it belongs in `gateway-system` (as with `kubectl apply -n gateway-system`), pass `-n gateway-system` or set `metadata.namespace: gateway-system`",
    ]);
    assert!(!out.stdout.contains("--assume-gateways"), "{}", out.stdout);
    // As the guide applies them (the route then lands in gateway-system too, which changes no
    // attachment: its parentRefs name their namespace).
    let out = dopol(&[
        "effective",
        "-o",
        "json",
        "-n",
        "gateway-system",
        "-f",
        &dir,
    ]);
    out.code(0);
    let doc = out.json();
    let external = "istio|gateway-system/external|gateway-system/external#external|gateway-system/toystore|gateway-system/toystore#rule-1";
    let internal = "istio|gateway-system/internal|gateway-system/internal#local|gateway-system/toystore|gateway-system/toystore#rule-1";
    // "Up to 5 successful requests every 10 seconds through the external ingress gateway".
    let limits = rules(&doc, "RateLimitPolicy", external);
    assert_eq!(limits.len(), 1);
    assert_eq!(limits[0].key, "global");
    assert_eq!(
        limits[0].source,
        "ratelimitpolicy.kuadrant.io:gateway-system/gw-rlp"
    );
    assert_eq!(
        limits[0].value["rates"],
        serde_json::json!([{"limit": 5, "window": "10s"}])
    );
    // "Unlimited successful (200 OK) through the internal ingress gateway".
    assert!(rules(&doc, "RateLimitPolicy", internal).is_empty());
    assert_eq!(doc["items"].as_array().unwrap().len(), 1);
}

#[test]
fn simple_rl_limits_only_the_post_rule() {
    let doc = effective("simple-rl-for-app-developers", ENV, &[]);
    let base =
        "istio|api-gateway/external|api-gateway/external#http|default/toystore|default/toystore#";
    // "Up to 5 successful requests every 10 seconds to POST /toys".
    assert_eq!(
        keyed(&doc, "RateLimitPolicy", &format!("{base}create-toy")),
        pairs(&[("create-toy", "ratelimitpolicy.kuadrant.io:default/toystore")])
    );
    // "Unlimited successful (200 OK) to GET /toys".
    assert!(rules(&doc, "RateLimitPolicy", &format!("{base}get-toys")).is_empty());
}

#[test]
fn authenticated_rl_gives_alice_and_bob_their_limits_behind_api_keys() {
    let doc = effective("authenticated-rl-for-app-developers", ENV, &[]);
    let path = "istio|api-gateway/external|api-gateway/external#http|toystore/toystore|toystore/toystore#rule-1";
    assert_eq!(
        keyed(&doc, "AuthPolicy", path),
        pairs(&[
            (
                "authentication#api-key-users",
                "authpolicy.kuadrant.io:toystore/toystore"
            ),
            (
                "response.success.metadata#identity",
                "authpolicy.kuadrant.io:toystore/toystore"
            ),
        ])
    );
    assert_eq!(
        keyed(&doc, "RateLimitPolicy", path),
        pairs(&[
            (
                "alice-limit",
                "ratelimitpolicy.kuadrant.io:toystore/toystore"
            ),
            ("bob-limit", "ratelimitpolicy.kuadrant.io:toystore/toystore"),
        ])
    );
}

#[test]
fn auth_for_app_devs_and_platform_engineers_deny_all_reaches_only_the_unprotected_route() {
    let doc = effective("auth-for-app-devs-and-platform-engineers", ENV, &[]);
    let base = "istio|api-gateway/external|api-gateway/external#http|toystore/";
    // "the other route will inherit the default policy attached to the gateway": 403.
    assert_eq!(
        keyed(
            &doc,
            "AuthPolicy",
            &format!("{base}other|toystore/other#rule-1")
        ),
        pairs(&[
            (
                "authorization#deny-all",
                "authpolicy.kuadrant.io:api-gateway/gw-auth"
            ),
            (
                "response.unauthorized#",
                "authpolicy.kuadrant.io:api-gateway/gw-auth"
            ),
        ])
    );
    // `/cars` and `/dolls` need an API key; `/admin` also needs the admins group.
    assert_eq!(
        keyed(
            &doc,
            "AuthPolicy",
            &format!("{base}toystore|toystore/toystore#toys")
        ),
        pairs(&[(
            "authentication#api-key-authn",
            "authpolicy.kuadrant.io:toystore/toystore-authn"
        )])
    );
    assert_eq!(
        keyed(
            &doc,
            "AuthPolicy",
            &format!("{base}toystore|toystore/toystore#admins")
        ),
        pairs(&[
            (
                "authentication#api-key-authn",
                "authpolicy.kuadrant.io:toystore/toystore-authn"
            ),
            (
                "authorization#only-admins",
                "authpolicy.kuadrant.io:toystore/toystore-admins"
            ),
        ])
    );
}

#[test]
fn token_rate_limiting_tutorial_limits_each_tier_behind_the_gateway_auth() {
    let env = [
        ("KUADRANT_GATEWAY_NS", "gateway-system"),
        ("KUADRANT_GATEWAY_NAME", "trlp-tutorial-gateway"),
    ];
    let doc = effective("authenticated-token-ratelimiting-tutorial", &env, &[]);
    let path = "istio|gateway-system/trlp-tutorial-gateway|gateway-system/trlp-tutorial-gateway#http|default/trlp-tutorial-llm-sim|default/trlp-tutorial-llm-sim#rule-1";
    let limits = rules(&doc, "TokenRateLimitPolicy", path);
    let got: Vec<(&str, &Value)> = limits
        .iter()
        .map(|r| (r.key.as_str(), &r.value["rates"]))
        .collect();
    assert_eq!(
        got,
        [
            ("free", &serde_json::json!([{"limit": 50, "window": "1m"}])),
            ("gold", &serde_json::json!([{"limit": 200, "window": "1m"}])),
        ]
    );
    assert!(limits.iter().all(|r| r.source
        == "tokenratelimitpolicy.kuadrant.io:gateway-system/trlp-tutorial-token-limits"));
    assert_eq!(
        keyed(&doc, "AuthPolicy", path)
            .into_iter()
            .map(|(k, _)| k)
            .collect::<Vec<_>>(),
        [
            "authentication#api-key-users",
            "authorization#allow-groups",
            "response.success.metadata#identity"
        ]
    );
}

#[test]
fn simple_rl_requests_reach_the_rules_the_guide_names() {
    let manifests = applied("simple-rl-for-app-developers", ENV);
    let request = |method: &str, url: &str| {
        let out = run_in(
            &root(),
            &["request", "-o", "json", "-f", "-", method, url],
            Some(&manifests),
        );
        let doc = out.json();
        (out.code, doc)
    };
    // "Up to 5 successful requests every 10 seconds to POST /toys": the create-toy rule, whose
    // limit applies to a POST.
    let (code, doc) = request("POST", "http://api.toystore.com/toys");
    assert_eq!(code, 0);
    assert_eq!(doc["match"]["rule"], "default/toystore#create-toy");
    assert_eq!(doc["policies"][0]["rules"]["create-toy"]["applies"], true);
    // "Unlimited successful (200 OK) to GET /toys": no RateLimitPolicy on get-toys.
    let (code, doc) = request("GET", "http://api.toystore.com/toys");
    assert_eq!(
        (code, doc["match"]["rule"].as_str()),
        (0, Some("default/toystore#get-toys"))
    );
    assert_eq!(doc["policies"], serde_json::json!([]));
    // The guide's side note curls `/toy` and expects 200, but no rule matches it: 404.
    let (code, doc) = request("GET", "http://api.toystore.com/toy");
    assert_eq!(code, 1);
    assert_eq!(
        doc["notFound"]["nearest"],
        "istio|api-gateway/external|api-gateway/external#http|default/toystore|default/toystore#get-toys"
    );
}
