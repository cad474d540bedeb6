//! `dopol request` through the real binary: listener choice, Gateway API route precedence (every
//! step), nearest misses, gRPC, usage and input errors, and the RequestTrace document.

use crate::common::{dopol, root, run_in};
use serde_json::Value;

const PRECEDENCE: &str = "testdata/request/precedence";
const LISTENERS: &str = "testdata/request/listeners";

/// `dopol request -o json -f DIR args...`: the trace and the exit code.
fn trace(dir: &str, args: &[&str]) -> (Value, i32) {
    let mut all = vec!["request", "-o", "json", "-f", dir];
    all.extend_from_slice(args);
    let out = dopol(&all);
    assert!(out.stdout.starts_with('{'), "no trace: {}", out.stderr);
    (out.json(), out.code)
}

/// `(rule, decidedBy)` of the match.
fn matched(doc: &Value) -> (String, Value) {
    let m = &doc["match"];
    assert!(!m.is_null(), "no match: {:#}", doc["notFound"]);
    (
        m["rule"].as_str().unwrap().to_string(),
        m["decidedBy"].clone(),
    )
}

/// `(last path element, lostBecause)` of the losing candidates.
fn losers(doc: &Value) -> Vec<(String, String)> {
    doc["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let id = c["pathId"].as_str().unwrap();
            (
                id.rsplit('|').next().unwrap().to_string(),
                c["lostBecause"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_precedence_step_decides_somewhere() {
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["GET", "http://api.example.com/orders"],
            "app/precise#rule-1",
            "hostname-precise",
        ),
        (
            &["GET", "http://x.test/shop/cart"],
            "app/paths#exact",
            "path-type",
        ),
        (
            &["GET", "http://x.test/shop/cart/"],
            "app/paths#longer",
            "path-length",
        ),
        (
            &["POST", "http://x.test/shop/cart/items", "-H", "x-team: a"],
            "app/paths#method",
            "method",
        ),
        (
            &[
                "GET",
                "http://x.test/shop/cart/items",
                "-H",
                "X-Team: a",
                "-H",
                "x-env: prod",
            ],
            "app/paths#two-headers",
            "header-count",
        ),
        (
            &["GET", "http://x.test/search?q=a%20b&q=other"],
            "app/paths#query",
            "query-count",
        ),
        (
            &["GET", "http://x.test/shop/x"],
            "app/paths#prefix",
            "creation-timestamp",
        ),
        (
            &["GET", "http://x.test/tie"],
            "app/alpha#rule-1",
            "rule-order",
        ),
    ];
    for (args, rule, step) in cases {
        let (doc, code) = trace(PRECEDENCE, args);
        assert_eq!(code, 0, "{args:?}");
        assert_eq!(
            matched(&doc),
            (rule.to_string(), Value::from(*step)),
            "{args:?}"
        );
    }
}

#[test]
fn losers_say_where_they_lost_and_name_only_ties_are_noted() {
    let (doc, _) = trace(PRECEDENCE, &["GET", "http://x.test/tie"]);
    let lost = losers(&doc);
    assert_eq!(lost[0], ("app/alpha#rule-2".into(), "rule-order".into()));
    assert_eq!(lost[1], ("app/beta#rule-1".into(), "route-name".into()));
    assert_eq!(doc["candidates"][1]["matched"], true);
    assert_eq!(
        doc["candidates"][1]["message"],
        "matched, but app/alpha#rule-1 wins at step route-name"
    );
    assert!(
        doc["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("app/alpha beat app/beta on names only"),
        "{:#}",
        doc["notes"]
    );
    // The header entry repeated in one match counts once: `headers` (X-Team twice) ties with
    // nothing and loses to `two-headers` at header-count.
    let (doc, _) = trace(
        PRECEDENCE,
        &[
            "GET",
            "http://x.test/shop/cart/items",
            "-H",
            "x-team: a",
            "-H",
            "x-env: prod",
        ],
    );
    assert_eq!(
        losers(&doc)[0],
        ("app/paths#headers".into(), "header-count".into())
    );
}

#[test]
fn a_wildcard_route_serves_hosts_the_precise_one_does_not() {
    // Hostname precedence ranks matching rules only: `precise` does not apply to www.
    let (doc, _) = trace(PRECEDENCE, &["GET", "http://www.example.com/orders"]);
    assert_eq!(matched(&doc), ("app/wildcard#rule-1".into(), Value::Null));
    let (doc, _) = trace(PRECEDENCE, &["GET", "http://www.example.com/v2/x"]);
    assert_eq!(matched(&doc).0, "app/wildcard#regex");
    assert!(
        doc["notes"][0]
            .as_str()
            .unwrap()
            .contains("implementation-specific")
    );
}

#[test]
fn no_match_is_a_404_with_the_nearest_miss() {
    let (doc, code) = trace(
        PRECEDENCE,
        &["GET", "http://x.test/search?x=1", "-H", "x-team: b"],
    );
    // /search rules: `plain-search` matches. Use a path nothing matches instead.
    assert_eq!(code, 0, "{doc:#}");
    let (doc, code) = trace(PRECEDENCE, &["DELETE", "http://x.test/shopping"]);
    assert_eq!(code, 1);
    assert!(doc["match"].is_null());
    let nf = &doc["notFound"];
    assert_eq!(
        (nf["status"].as_u64(), nf["reason"].as_str()),
        (Some(404), Some("no-route"))
    );
    assert_eq!(
        nf["nearest"],
        "istio|infra/gw|infra/gw#http|app/alpha|app/alpha#rule-1"
    );
    let first = &doc["candidates"][0];
    assert_eq!(
        (
            first["matched"].as_bool(),
            first["lostBecause"].as_str(),
            first["failing"].as_u64()
        ),
        (Some(false), Some("path"), Some(1))
    );
    assert_eq!(
        first["message"],
        "path /shopping is not under PathPrefix /tie"
    );
    // A miss on two conditions ranks after every miss on one.
    let method = doc["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["pathId"].as_str().unwrap().ends_with("#method"))
        .unwrap();
    assert_eq!(method["failing"], 2);
    assert_eq!(
        method["message"],
        "path /shopping is not under PathPrefix /shop/cart/items; method DELETE is not POST"
    );
}

#[test]
fn the_most_specific_listener_serves_and_isolates_its_routes() {
    let cases = [
        (
            "http://shop.example.com/",
            "infra/edge#exact",
            "exact-hostname",
        ),
        (
            "http://a.api.example.com/",
            "infra/edge#deep-wild",
            "wildcard-hostname",
        ),
        (
            "http://www.example.com/",
            "infra/edge#wild",
            "wildcard-hostname",
        ),
        ("http://other.test/", "infra/edge#catch-all", "catch-all"),
        ("http://10.0.0.1/", "infra/edge#catch-all", "catch-all"),
        (
            "https://shop.example.com/",
            "infra/edge#tls",
            "exact-hostname",
        ),
    ];
    for (url, listener, reason) in cases {
        let (doc, code) = trace(LISTENERS, &["GET", url]);
        assert_eq!(code, 0, "{url}");
        assert_eq!(
            (
                doc["listener"]["listener"].as_str(),
                doc["listener"]["reason"].as_str()
            ),
            (Some(listener), Some(reason)),
            "{url}"
        );
    }
    let (doc, _) = trace(LISTENERS, &["GET", "http://shop.example.com/special"]);
    assert_eq!(
        doc["listener"]["message"],
        "listener `exact` has hostname shop.example.com; less specific listeners that also match: `wild`, `catch-all`"
    );
    // `catch-all-only` is attached to the catch-all listener only: never a candidate here.
    assert_eq!(matched(&doc).0, "app/everywhere#rule-1");
    assert!(losers(&doc).is_empty(), "{:#}", doc["candidates"]);
    let (doc, _) = trace(LISTENERS, &["GET", "http://other.test/special"]);
    assert_eq!(
        matched(&doc),
        ("app/catch-all-only#rule-1".into(), Value::from("path-type"))
    );
    let (doc, _) = trace(LISTENERS, &["GET", "https://shop.example.com/"]);
    assert!(
        doc["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("TLS is not modelled")
    );
}

#[test]
fn conflicted_or_absent_listeners_are_404s_and_two_gateways_need_a_choice() {
    let (doc, code) = trace(
        "testdata/request/conflicted/manifests.yaml",
        &[
            "GET",
            "http://twin.example.com:8080/",
            "--crds",
            "testdata/request/conflicted/gateway-crd.yaml",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(doc["notFound"]["reason"], "conflicted-listeners");
    assert!(doc["listener"].is_null());
    // With the bundled CRD, the API server refuses that Gateway (exit 3): no listener at all.
    let (doc, code) = trace(
        "testdata/request/conflicted/manifests.yaml",
        &["GET", "http://twin.example.com:8080/"],
    );
    assert_eq!(
        (code, doc["notFound"]["reason"].as_str()),
        (3, Some("no-listener"))
    );
    let (doc, code) = trace(LISTENERS, &["GET", "http://x:7777/"]);
    assert_eq!(
        (code, doc["notFound"]["reason"].as_str()),
        (1, Some("no-listener"))
    );
    let out = dopol(&["request", "-f", LISTENERS, "GET", "http://x:9090/"]);
    out.code(2).stderr_has(&[
        "several Gateways can receive http://x:9090 (infra/internal, infra/internal-2); pass --gateway",
    ]);
    assert!(out.stdout.is_empty());
    let (doc, code) = trace(
        LISTENERS,
        &["GET", "http://x:9090/", "--gateway", "infra/internal-2"],
    );
    assert_eq!(
        (code, doc["listener"]["gateway"].as_str()),
        (1, Some("infra/internal-2"))
    );
    dopol(&[
        "request",
        "-f",
        LISTENERS,
        "GET",
        "http://x:9090/",
        "--gateway",
        "nope",
    ])
    .code(2)
    .stderr_has(&["--gateway `nope` is not in the input"]);
}

#[test]
fn usage_errors_print_nothing_on_stdout() {
    for args in [
        &["GET", "ftp://x/"][..],
        &["GET", "http://x/", "-H", "bad header"],
        &["GET", "http://x/", "--attr", "request.method=POST"],
        &["G ET", "http://x/"],
        &["--grpc", "Svc"],
    ] {
        let mut all = vec!["request", "-f", PRECEDENCE];
        all.extend_from_slice(args);
        let out = dopol(&all);
        out.code(2);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
    }
}

#[test]
fn the_trace_document_follows_the_contract() {
    let (doc, code) = trace(
        PRECEDENCE,
        &[
            "get",
            "http://X.Test:80/shop/cart?id=3#frag",
            "-H",
            "User-Agent: curl",
            "--attr",
            "auth.identity.userid=bob",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(doc["apiVersion"], "dopol/v1");
    assert_eq!(doc["kind"], "RequestTrace");
    assert_eq!(
        doc["request"],
        serde_json::json!({
            "method": "GET", "scheme": "http", "host": "x.test", "port": 80,
            "path": "/shop/cart", "query": "id=3", "headers": {"user-agent": "curl"},
            "grpc": null, "attributes": {"auth": {"identity": {"userid": "bob"}}}
        })
    );
    assert_eq!(
        doc["match"],
        serde_json::json!({
            "pathId": "istio|infra/gw|infra/gw#http|app/paths|app/paths#exact",
            "route": "app/paths", "rule": "app/paths#exact", "matchIndex": 0,
            "decidedBy": "path-type"
        })
    );
    assert_eq!(
        doc["notes"][0],
        "method `get` read as `GET` (methods are case-sensitive)"
    );
    assert_eq!(doc["notFound"], Value::Null);
    assert_eq!(doc["policies"], serde_json::json!([]));
}

#[test]
fn input_errors_still_print_the_trace_with_exit_3() {
    let manifests =
        std::fs::read_to_string(root().join(PRECEDENCE).join("manifests.yaml")).unwrap();
    let broken = format!(
        "{manifests}---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: Bad_Name, namespace: app}}\n"
    );
    let out = run_in(
        &root(),
        &["request", "-f", "-", "GET", "http://x.test/shop/cart"],
        Some(broken.as_bytes()),
    );
    out.code(3).stderr_has(&["[DPL1013]"]);
    assert!(
        out.stdout.contains("Match     app/paths#exact"),
        "{}",
        out.stdout
    );
}

#[test]
fn grpc_requests_rank_service_method_and_headers() {
    let grpc = "testdata/request/grpc";
    let authority = "grpc.example.com:50051";
    let cases: &[(&[&str], &str, Value)] = &[
        (
            &["--grpc", "shop.v1.Cart/Add"],
            "app/cart#add",
            "method-length".into(),
        ),
        (
            &["--grpc", "shop.v1.Cart/Add", "-H", "x-canary: true"],
            "app/cart#add-canary",
            "header-count".into(),
        ),
        (
            &["--grpc", "shop.v1.Cart/Remove"],
            "app/cart#any-method",
            "hostname-precise".into(),
        ),
        (
            &["--grpc", "shop.v2.Orders/List"],
            "app/cart#regex",
            "hostname-precise".into(),
        ),
    ];
    for (args, rule, step) in cases {
        let mut all = args.to_vec();
        all.extend(["--authority", authority]);
        let (doc, code) = trace(grpc, &all);
        assert_eq!(code, 0, "{args:?}");
        assert_eq!(matched(&doc), (rule.to_string(), step.clone()), "{args:?}");
        assert_eq!(doc["request"]["method"], "POST");
        // The HTTPRoute on the same listener is never a candidate for a gRPC request.
        assert!(!losers(&doc).iter().any(|(p, _)| p.starts_with("app/web")));
    }
    let (doc, _) = trace(
        grpc,
        &["--grpc", "shop.v1.Cart/Remove", "--authority", authority],
    );
    assert_eq!(
        losers(&doc)[1],
        ("app/cart#add".to_string(), "grpc-method".to_string())
    );
    let (doc, code) = trace(grpc, &["--grpc", "a.B/C", "--authority", "other:50052"]);
    assert_eq!(code, 1);
    assert_eq!(doc["notFound"]["status"], "UNIMPLEMENTED");
}

/// A YAML file as JSON, read with dopol's own parser.
fn yaml_file(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let mut diagnostics = Vec::new();
    let documents = dopol::yaml::parse_chunk(
        dopol::source::SourceId(0),
        &text,
        0..text.len(),
        &mut diagnostics,
    );
    assert!(diagnostics.is_empty(), "{path:?}: {diagnostics:?}");
    documents[0].root.to_json()
}

/// The `dopol request` arguments of one conformance case.
fn case_args(dir: &std::path::Path, gateway: &str, request: &Value) -> Vec<String> {
    let mut args: Vec<String> = vec!["request".into(), "-o".into(), "json".into()];
    for file in ["manifests.yaml", "base.yaml"] {
        if dir.join(file).exists() {
            args.extend(["-f".into(), dir.join(file).to_string_lossy().into_owned()]);
        }
    }
    if !gateway.is_empty() {
        args.extend(["--gateway".into(), gateway.to_string()]);
    }
    match request["grpc"].as_str() {
        Some(call) => args.extend([
            "--grpc".into(),
            call.into(),
            "--authority".into(),
            request["authority"].as_str().unwrap().into(),
        ]),
        None => args.extend([
            request["method"].as_str().unwrap_or("GET").into(),
            request["url"].as_str().unwrap().into(),
        ]),
    }
    for (name, value) in request["headers"].as_object().into_iter().flatten() {
        args.extend(["-H".into(), format!("{name}: {}", value.as_str().unwrap())]);
    }
    args
}

/// Gateway API's own conformance cases (`testdata/request/conformance/`, transcribed with the
/// upstream expectation of which route rule each request reaches).
#[test]
fn gateway_api_conformance_cases() {
    let base = root().join("testdata/request/conformance");
    let mut dirs: Vec<_> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("expect.yaml").exists())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "conformance cases missing");
    let mut checked = 0;
    for dir in dirs {
        let expect = yaml_file(&dir.join("expect.yaml"));
        let gateway = expect["gateway"].as_str().unwrap_or("");
        for case in expect["cases"].as_array().unwrap() {
            let args = case_args(&dir, gateway, &case["request"]);
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = dopol(&argv);
            let doc = out.json();
            let want = &case["expect"];
            let label = format!("{}: {:?}", dir.display(), case["request"]);
            if want["status"].is_null() {
                assert_eq!(out.code, 0, "{label}: {:#}", doc["notFound"]);
                let route = want["route"].as_str().unwrap();
                assert_eq!(doc["match"]["route"], route, "{label}");
                if let Some(rule) = want["rule"].as_str() {
                    assert_eq!(doc["match"]["rule"], format!("{route}#{rule}"), "{label}");
                }
            } else {
                assert_eq!(out.code, 1, "{label}: {:#}", doc["match"]);
                assert!(doc["match"].is_null(), "{label}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 175, "conformance cases checked");
}

#[test]
fn a_fallback_below_a_more_specific_hostname_is_noted() {
    // `wildcard` (*.example.com) applies to www.example.com but has no rule for /shop/cart;
    // `paths` (no hostnames) serves it — where Envoy-based data planes answer 404.
    let (doc, code) = trace(PRECEDENCE, &["GET", "http://www.example.com/shop/cart"]);
    assert_eq!(code, 0);
    assert_eq!(matched(&doc).0, "app/paths#exact");
    assert!(
        doc["notes"][0]
            .as_str()
            .unwrap()
            .contains("Envoy-based data planes group routes by virtual host and answer 404 here"),
        "{:#}",
        doc["notes"]
    );
}

const KUADRANT: &str = "testdata/request/kuadrant";

/// `(applies, why)` of one rule of one kind in a trace.
fn verdict(doc: &Value, kind: &str, key: &str) -> (Value, String) {
    let rule = doc["policies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["policyKind"] == kind)
        .unwrap_or_else(|| panic!("no {kind}"))["rules"][key]
        .clone();
    assert!(!rule.is_null(), "no rule {key} of {kind}");
    (
        rule["applies"].clone(),
        rule["why"].as_str().unwrap().to_string(),
    )
}

#[test]
fn kuadrant_rules_apply_by_their_when_in_kleene_logic() {
    let (doc, code) = trace(
        KUADRANT,
        &["POST", "http://api.toystore.com/toys", "-H", "x-team: toys"],
    );
    assert_eq!(code, 0);
    assert_eq!(doc["policies"][0]["policyKind"], "AuthPolicy");
    assert_eq!(verdict(&doc, "AuthPolicy", "conditions#").0, true);
    assert_eq!(
        verdict(&doc, "AuthPolicy", "authorization#admins-only-for-writes").0,
        true
    );
    assert_eq!(
        verdict(&doc, "AuthPolicy", "authorization#team-header").0,
        true
    );
    // A predicate on an attribute that was not given is unknown and names it.
    let (applies, why) = verdict(&doc, "RateLimitPolicy", "per-user");
    assert_eq!(applies, "unknown");
    assert_eq!(
        why,
        "its `when`: `auth.identity.userid != 'bob'` needs auth.identity.userid (wasm-shim CEL); pass --attr auth.identity.userid=VALUE"
    );
    let rlp = &doc["policies"][1]["rules"];
    assert_eq!(
        rlp["per-user"]["predicates"],
        serde_json::json!([{"predicate": "auth.identity.userid != 'bob'", "result": "unknown", "needs": ["auth.identity.userid"]}])
    );
    // Counters: the operator's limit identifier, and the descriptor values where known.
    assert_eq!(
        rlp["writes"]["counter"],
        serde_json::json!({
            "namespace": "shop/toystore",
            "limit": "limit.writes__5569393a",
            "counters": [
                {"expression": "request.method", "value": "POST"},
                {"expression": "request.headers['x-team']", "value": "toys"}
            ]
        })
    );
    assert_eq!(
        rlp["per-user"]["counter"]["limit"],
        "limit.per_user__473b55c4"
    );
    assert_eq!(
        rlp["per-user"]["counter"]["counters"][0]["value"],
        Value::Null
    );
    assert!(
        rlp["everyone"]["counter"]["counters"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // The RateLimitPolicy reads auth.*: the note says the AuthPolicy on the path exports it.
    assert!(
        doc["notes"].as_array().unwrap().iter().any(|n| n
            .as_str()
            .unwrap()
            .contains("the effective AuthPolicy exports it")),
        "{:#}",
        doc["notes"]
    );
}

#[test]
fn kuadrant_attributes_decide_and_a_false_top_level_when_switches_everything_off() {
    let (doc, _) = trace(
        KUADRANT,
        &[
            "GET",
            "http://api.toystore.com/toys",
            "--attr",
            "auth.identity.userid=bob",
        ],
    );
    assert_eq!(verdict(&doc, "RateLimitPolicy", "bob").0, true);
    assert_eq!(verdict(&doc, "RateLimitPolicy", "per-user").0, false);
    assert_eq!(
        verdict(&doc, "RateLimitPolicy", "writes"),
        (
            Value::from(false),
            "its `when`: `request.method == 'POST'` is false (wasm-shim CEL)".to_string()
        )
    );
    // A limit that does not apply carries no counter key.
    assert!(doc["policies"][1]["rules"]["writes"]["counter"].is_null());
    // Authorino's selector form: an absent header is not `toys`.
    assert_eq!(
        verdict(&doc, "AuthPolicy", "authorization#team-header").0,
        false
    );

    let (doc, _) = trace(KUADRANT, &["GET", "http://api.toystore.com/health"]);
    assert_eq!(matched(&doc).0, "shop/toystore#health");
    let (applies, why) = verdict(&doc, "AuthPolicy", "authentication#api-key");
    assert_eq!(applies, false);
    assert!(
        why.ends_with("so the auth service is not called (the request passes unauthenticated)"),
        "{why}"
    );
    let (applies, why) = verdict(&doc, "RateLimitPolicy", "everyone");
    assert_eq!(applies, false);
    assert!(
        why.ends_with("so no limit of this kind counts the request"),
        "{why}"
    );
    // `--kind` narrows the policies section.
    let (doc, _) = trace(
        KUADRANT,
        &[
            "GET",
            "http://api.toystore.com/toys",
            "--kind",
            "AuthPolicy",
        ],
    );
    assert_eq!(doc["policies"].as_array().unwrap().len(), 1);
}

#[test]
fn the_documented_example_is_what_dopol_prints() {
    let readme = std::fs::read_to_string(root().join("docs/request.md")).unwrap();
    let command = "$ dopol request -f testdata/request/kuadrant POST http://api.toystore.com/toys -H 'x-team: toys' --attr auth.identity.userid=alice\n";
    let start = readme
        .find(command)
        .expect("docs/request.md shows the example")
        + command.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let out = dopol(&[
        "request",
        "-f",
        KUADRANT,
        "POST",
        "http://api.toystore.com/toys",
        "-H",
        "x-team: toys",
        "--attr",
        "auth.identity.userid=alice",
    ]);
    out.code(0);
    assert_eq!(out.stdout, shown);
}

#[test]
fn odd_requests_never_break_the_answer() {
    let paths = [
        "/",
        "//",
        "/a/../b",
        "/./x",
        "/%zz",
        "/%2F%2f",
        "/é/ü",
        "/v2example",
        "/v2/",
        "/a?b=c&&d",
        "/x?%ff=%00",
        "/?q",
        "/very/long/path/with/many/segments/a/b/c/d/e/f/g/h/i/j/k",
    ];
    for dir in [
        PRECEDENCE,
        LISTENERS,
        "testdata/request/conformance/httproute-query-param-matching",
    ] {
        for path in paths {
            for host in [
                "x.test",
                "api.example.com",
                "[::1]",
                "127.0.0.1",
                "shop.example.com.",
            ] {
                let url = format!("http://{host}{path}");
                let mut args = vec!["request", "-o", "json", "-f", dir, "OPTIONS", &url];
                args.extend(["-H", "x-team: a", "-H", "X-Team: b"]);
                if dir.contains("conformance") {
                    args.extend([
                        "-f",
                        "testdata/request/conformance/httproute-query-param-matching/base.yaml",
                    ]);
                }
                let out = dopol(&args);
                assert!(
                    out.code == 0 || out.code == 1 || out.code == 2,
                    "{dir} {url}: exit {}: {}",
                    out.code,
                    out.stderr
                );
                if out.code != 2 {
                    let doc = out.json();
                    assert_eq!(doc["kind"], "RequestTrace");
                    assert_eq!(doc["match"].is_null(), out.code == 1, "{dir} {url}");
                }
            }
        }
    }
}

/// `--kind` chooses the kinds shown, not what the data plane has: a RateLimitPolicy reading
/// `auth.identity` still sees the AuthPolicy that exports it.
#[test]
fn kind_filter_keeps_what_other_kinds_give_the_shown_ones() {
    let args = [
        "GET",
        "http://api.toystore.com/toys",
        "--kind",
        "RateLimitPolicy",
    ];
    let (doc, code) = trace("testdata/request/kuadrant", &args);
    assert_eq!(code, 0);
    let kinds: Vec<&str> = doc["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["policyKind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["RateLimitPolicy"]);
    assert_eq!(
        doc["notes"],
        serde_json::json!([
            "RateLimitPolicy reads auth.identity: the data plane has it only when an AuthPolicy on the same path exports it in its success response; the effective AuthPolicy exports it (response.success.filters.identity, from authpolicy.kuadrant.io:shop/toystore-auth)"
        ])
    );
}
