//! Fidelity II, `dopol request` and its neighbours on upstream manifests (issue 47): kgateway
//! delegated paths answer with their parents' hostnames and matches (point 3), the wrong and
//! 2.0-era kgateway annotations are flagged (point 9), a backend `request` cannot resolve is
//! said to answer 500, and a route shadowed by a more specific listener is flagged.

use crate::common::{findings, root, run_in};
use serde_json::Value;

/// The files of an upstream kgateway guide (`testdata/fidelity2/<guide>/`) as the site renders
/// them: its namespace shortcode replaced by the snippet's text, one stream in apply order.
fn kgateway_guide(guide: &str) -> Vec<u8> {
    let files = crate::common::yaml_files(&root().join("testdata/fidelity2").join(guide));
    let documents: Vec<String> = files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f).unwrap().replace(
                r#"{{< reuse "kgw-docs/snippets/namespace.md" >}}"#,
                "kgateway-system",
            )
        })
        .collect();
    documents.join("---\n").into_bytes()
}

/// `dopol request -f - <args>` on `input`, with its exit code checked.
fn request(input: &[u8], args: &[&str], code: i32) -> crate::common::Output {
    let mut all = vec!["request", "-f", "-"];
    all.extend_from_slice(args);
    let out = run_in(&root(), &all, Some(input));
    out.code(code);
    out
}

/// `(rule key, source)` of every rule of a kind in a trace.
fn sources(trace: &Value, kind: &str) -> Vec<(String, String)> {
    let policy = trace["policies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["policyKind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {trace}"));
    policy["rules"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, r)| (k.clone(), r["source"].as_str().unwrap().to_string()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

const POLICIES_GUIDE: &str = "kgateway-delegation-policies";
const PATH_PARENT1: &str = "kgateway|kgateway-system/http|kgateway-system/http#http|kgateway-system/parent1#rule-1>team1/child-team1|team1/child-team1#rule-1";
const PATH_PARENT2: &str = "kgateway|kgateway-system/http|kgateway-system/http#http|kgateway-system/parent2#rule-1>team1/child-team1|team1/child-team1#rule-1";
const PARENT_POLICY: &str = "trafficpolicy.gateway.kgateway.dev:kgateway-system/parent-policy";
const CHILD_POLICY: &str = "trafficpolicy.gateway.kgateway.dev:team1/child-policy";

/// Guide steps 6–9: each parent's host reaches the child through that parent, with that
/// parent's merge: parent1 (ShallowMergePreferParent) keeps its transformation, parent2 (the
/// wrong key, so the default ShallowMergePreferChild) takes the child's; both keep the parent's
/// rate limit. The other parent's path is a candidate that fails on the hostname.
#[test]
fn a_delegated_path_answers_only_for_its_parents_hosts() {
    let input = kgateway_guide(POLICIES_GUIDE);
    for (host, path, other, transformation) in [
        (
            "delegation-parent1.example",
            PATH_PARENT1,
            PATH_PARENT2,
            PARENT_POLICY,
        ),
        (
            "delegation-parent2.example",
            PATH_PARENT2,
            PATH_PARENT1,
            CHILD_POLICY,
        ),
    ] {
        let url = format!("http://{host}:8080/anything/team1/foo");
        let trace = request(&input, &["GET", &url, "-o", "json"], 0).json();
        assert_eq!(trace["match"]["pathId"], path, "{host}");
        assert_eq!(trace["match"]["route"], "team1/child-team1");
        assert_eq!(trace["match"]["rule"], "team1/child-team1#rule-1");
        assert_eq!(trace["match"]["decidedBy"], Value::Null);
        assert_eq!(
            sources(&trace, "TrafficPolicy"),
            pairs(&[
                ("rateLimit.local", PARENT_POLICY),
                ("transformation", transformation)
            ]),
            "{host}"
        );
        let candidates = trace["candidates"].as_array().unwrap();
        assert_eq!(candidates.len(), 1, "{host}");
        assert_eq!(candidates[0]["pathId"], other);
        assert_eq!(candidates[0]["matched"], false);
        assert_eq!(candidates[0]["lostBecause"], "hostname");
        assert_eq!(candidates[0]["failing"], 1);
        let parent = if host.contains("parent1") {
            "delegation-parent2.example"
        } else {
            "delegation-parent1.example"
        };
        assert_eq!(
            candidates[0]["message"],
            format!("host {host} matches none of the route's hostnames ({parent})")
        );
    }
    let human = request(
        &input,
        &[
            "GET",
            "http://delegation-parent2.example:8080/anything/team1/foo",
        ],
        0,
    );
    human.stdout_has(&[
        &format!("Path      {PATH_PARENT2}\n"),
        "  transformation   true     this family has no request-time conditions  team1/child-policy\n",
    ]);
}

/// A host neither parent serves: 404, though the catch-all listener receives it.
#[test]
fn a_host_no_parent_serves_is_not_found() {
    let input = kgateway_guide(POLICIES_GUIDE);
    let url = "http://other.example:8080/anything/team1/foo";
    let trace = request(&input, &["GET", url, "-o", "json"], 1).json();
    assert_eq!(trace["match"], Value::Null);
    assert_eq!(trace["notFound"]["status"], 404);
    assert_eq!(trace["notFound"]["reason"], "no-route");
    assert_eq!(trace["notFound"]["nearest"], PATH_PARENT1);
    assert_eq!(trace["policies"], serde_json::json!([]));
    let failing: Vec<(&str, &str)> = trace["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["pathId"].as_str().unwrap(),
                c["lostBecause"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        failing,
        [(PATH_PARENT1, "hostname"), (PATH_PARENT2, "hostname")]
    );
    request(&input, &["GET", url], 1).stdout_has(&["Match     none: 404 (no-route)"]);
}

/// Point 9: the guide's `delegation.kgateway.dev/inherited-policy-priority: PreferChild` on
/// parent2 is kgateway 2.0's key and value; kgateway 2.1 reads neither. Lint says so, with the
/// key (and value) kgateway reads, and nothing else in the guide is flagged.
#[test]
fn the_guides_old_annotation_key_is_flagged() {
    let input = kgateway_guide(POLICIES_GUIDE);
    let out = run_in(&root(), &["lint", "-f", "-", "-o", "json"], Some(&input));
    out.code(0);
    let doc = out.json();
    assert_eq!(
        findings(&doc),
        [(
            "DPL5014".to_string(),
            "warning".to_string(),
            46,
            "HTTPRoute kgateway-system/parent2 has annotation `delegation.kgateway.dev/inherited-policy-priority`, which kgateway does not read: it reads `kgateway.dev/inherited-policy-priority`, so the annotation is as good as absent".to_string()
        )]
    );
    assert_eq!(
        doc["diagnostics"][0]["help"],
        "did you mean `kgateway.dev/inherited-policy-priority`? (with the 2.1 value `ShallowMergePreferChild` for `PreferChild`)"
    );
    assert_eq!(
        doc["diagnostics"][0]["name"],
        "misspelled-kgateway-annotation"
    );
}

/// Point 9: `explain` says where each parent's strategy came from: parent1's annotation, and
/// for parent2 the default, naming the key kgateway does not read.
#[test]
fn explain_says_the_default_when_the_annotation_is_absent() {
    let input = kgateway_guide(POLICIES_GUIDE);
    let args = ["explain", "-f", "-", "--route", "team1/child-team1"];
    let out = run_in(&root(), &args, Some(&input));
    out.code(0);
    out.stdout_has(&[
        "  [0] HTTPRoute kgateway-system/parent1, this parent route's level folded into its children's with OverridableShallow (its `kgateway.dev/inherited-policy-priority: ShallowMergePreferParent`) [GEP-713: Patch overrides]\n",
        "  [0] HTTPRoute kgateway-system/parent2, this parent route's level folded into its children's with AugmentedShallow (default; no annotation: kgateway does not read `delegation.kgateway.dev/inherited-policy-priority`) [GEP-713: Patch defaults]\n",
    ]);
    assert!(
        !out.stdout
            .contains("(its `kgateway.dev/inherited-policy-priority`)")
    );
    let json = run_in(
        &root(),
        &[&args[..], &["-o", "json"]].concat(),
        Some(&input),
    );
    json.code(0);
    let mut summaries: Vec<String> = Vec::new();
    collect_summaries(&json.json(), &mut summaries);
    assert_eq!(
        summaries,
        [
            "this parent route's level folded into its children's with OverridableShallow (its `kgateway.dev/inherited-policy-priority: ShallowMergePreferParent`)",
            "this parent route's level folded into its children's with AugmentedShallow (default; no annotation: kgateway does not read `delegation.kgateway.dev/inherited-policy-priority`)",
        ]
    );
}

/// Every `summary` of a step across route levels, in document order.
fn collect_summaries(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(s)) = map.get("summary")
                && s.contains("folded into its children's")
            {
                out.push(s.clone());
            }
            map.values().for_each(|v| collect_summaries(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_summaries(v, out)),
        _ => {}
    }
}

/// Without any annotation the step says so in those words.
#[test]
fn explain_says_no_annotation() {
    let input = kgateway_guide(POLICIES_GUIDE);
    let text = String::from_utf8(input).unwrap().replace(
        "   delegation.kgateway.dev/inherited-policy-priority: PreferChild\n",
        "   example.com/unrelated: x\n",
    );
    let args = ["explain", "-f", "-", "--route", "team1/child-team1"];
    let out = run_in(&root(), &args, Some(text.as_bytes()));
    out.code(0);
    out.stdout_has(&[
        "  [0] HTTPRoute kgateway-system/parent2, this parent route's level folded into its children's with AugmentedShallow (default; no annotation) [GEP-713: Patch defaults]\n",
    ]);
}

const ISOLATION: &str =
    "testdata/request/conformance/gateway-http-listener-isolation-with-hostname-intersection";

/// Friction: a route hostname a more specific listener takes is flagged, exactly where the
/// upstream conformance manifests comment "request matching is prevented by the isolation of …
/// listener" (kubernetes-sigs/gateway-api `gateway-http-listener-isolation-with-hostname-intersection.yaml`,
/// copied unchanged in `testdata/request/conformance/`).
#[test]
fn hostnames_a_more_specific_listener_takes_are_flagged() {
    let out = crate::common::dopol(&["lint", "-f", ISOLATION, "-o", "json"]);
    out.code(0);
    let doc = out.json();
    let shadowed: Vec<(u64, String)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "DPL4014")
        .map(|d| {
            assert_eq!(d["severity"], "warning");
            assert_eq!(d["name"], "shadowed-by-listener");
            (
                d["line"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let gw = "gateway-conformance-infra/http-listener-isolation-with-hostname-intersection";
    let lead = |route: &str, listener: &str, hostname: &str| {
        format!(
            "HTTPRoute gateway-conformance-infra/{route}-with-hostname-intersection is attached to listener {gw}#{listener} ({hostname}), but more specific listeners of the Gateway, where the route is not attached, take"
        )
    };
    assert_eq!(
        shadowed,
        [
            (
                152,
                format!(
                    "{} 3 of its 4 hostnames there: *.example.com goes to `wildcard-example-com` (*.example.com); *.foo.example.com goes to `wildcard-foo-example-com` (*.foo.example.com); abc.foo.example.com goes to `abc-foo-example-com` (abc.foo.example.com)",
                    lead(
                        "attaches-to-empty-hostname",
                        "empty-hostname",
                        "no hostname"
                    )
                )
            ),
            (
                176,
                format!(
                    "{} 2 of its 3 hostnames there: *.foo.example.com goes to `wildcard-foo-example-com` (*.foo.example.com); abc.foo.example.com goes to `abc-foo-example-com` (abc.foo.example.com)",
                    lead(
                        "attaches-to-wildcard-example-com",
                        "wildcard-example-com",
                        "*.example.com"
                    )
                )
            ),
            (
                200,
                format!(
                    "{} 1 of its 3 hostnames there: abc.foo.example.com goes to `abc-foo-example-com` (abc.foo.example.com)",
                    lead(
                        "attaches-to-wildcard-foo-example-com",
                        "wildcard-foo-example-com",
                        "*.foo.example.com"
                    )
                )
            ),
        ]
    );
}

/// `request` picks the most specific listener and, when nothing there matches, names the route
/// that lists the host on a less specific one.
#[test]
fn request_takes_the_most_specific_listener_and_names_the_isolated_route() {
    let gateway = "gateway-conformance-infra/http-listener-isolation-with-hostname-intersection";
    let args = [
        "request",
        "-f",
        ISOLATION,
        "--gateway",
        gateway,
        "GET",
        "http://abc.foo.example.com/empty-hostname",
        "-o",
        "json",
    ];
    let out = crate::common::dopol(&args);
    out.code(1);
    let trace = out.json();
    assert_eq!(
        trace["listener"]["listener"],
        format!("{gateway}#abc-foo-example-com")
    );
    assert_eq!(trace["listener"]["reason"], "exact-hostname");
    assert_eq!(trace["notFound"]["status"], 404);
    let routes = [
        "attaches-to-empty-hostname",
        "attaches-to-wildcard-example-com",
        "attaches-to-wildcard-foo-example-com",
    ];
    let listeners = [
        "empty-hostname",
        "wildcard-example-com",
        "wildcard-foo-example-com",
    ];
    let want: Vec<String> = routes
        .iter()
        .zip(listeners)
        .map(|(route, listener)| format!("HTTPRoute gateway-conformance-infra/{route}-with-hostname-intersection lists host abc.foo.example.com but is attached to `{listener}`, not to `abc-foo-example-com`, the more specific listener that serves it (listener isolation; lint DPL4014)"))
        .collect();
    assert_eq!(trace["notes"], serde_json::json!(want));
}

const BASE: &str = "testdata/request/conformance/httproute-matching/base.yaml";
const BACKEND_REFS: &str = "testdata/fidelity2/backend-refs";
const WEB_BACKEND: &str = "Service gateway-conformance-web-backend/web-backend:8080";

/// `dopol request -f base -f <conformance test> GET http://example.com/ <extra>`.
fn conformance_run(test: &str, extra: &[&str], code: i32) -> crate::common::Output {
    let dir = format!("{BACKEND_REFS}/{test}");
    let args = [
        "request",
        "-f",
        BASE,
        "-f",
        &dir,
        "GET",
        "http://example.com/",
    ];
    let out = crate::common::dopol(&[&args[..], extra].concat());
    out.code(code);
    out
}

/// [`conformance_run`] with `-o json`, parsed.
fn conformance_request(test: &str, code: i32) -> Value {
    conformance_run(test, &["-o", "json"], code).json()
}

const NOT_PERMITTED: &str = "cannot be resolved (RefNotPermitted): it is in namespace gateway-conformance-web-backend and no ReferenceGrant there lets HTTPRoutes of namespace gateway-conformance-infra reference it";
const ALL_500: &str = "500: no backend of the rule can be resolved (Service gateway-conformance-web-backend/web-backend:8080: no ReferenceGrant permits it), so every request it matches receives a 500 (Gateway API; conformance httproute-invalid-cross-namespace-backend-ref)";

/// Friction: a cross-namespace backendRef without a ReferenceGrant (conformance
/// `httproute-invalid-cross-namespace-backend-ref`: 500), and with only wrong ones
/// (`httproute-invalid-reference-grant`: 500): the rule matches, the answer is a 500, exit 1.
#[test]
fn a_backend_no_reference_grant_permits_answers_500() {
    for (test, route) in [
        (
            "httproute-invalid-cross-namespace-backend-ref",
            "invalid-cross-namespace-backend-ref",
        ),
        ("httproute-invalid-reference-grant", "reference-grant"),
    ] {
        let trace = conformance_request(test, 1);
        assert_eq!(
            trace["match"]["rule"],
            format!("gateway-conformance-infra/{route}#rule-1"),
            "{test}"
        );
        assert_eq!(
            trace["backends"],
            serde_json::json!([{"backend": WEB_BACKEND, "weight": 1, "resolution": "ref-not-permitted", "message": NOT_PERMITTED}]),
            "{test}"
        );
        assert_eq!(
            trace["backendFailure"],
            serde_json::json!({"status": 500, "share": "all", "message": ALL_500}),
            "{test}"
        );
    }
    let out = conformance_run("httproute-invalid-cross-namespace-backend-ref", &[], 1);
    out.stdout_has(&[
        &format!("Response  {ALL_500}\n"),
        &format!("Backend   {WEB_BACKEND} (weight 1): {NOT_PERMITTED}\n"),
    ]);
}

/// With the ReferenceGrant (conformance `httproute-reference-grant`: 200) the backend is
/// permitted; dopol says so and that it does not check the Service exists.
#[test]
fn a_permitted_backend_is_not_claimed_to_exist() {
    let trace = conformance_request("httproute-reference-grant", 0);
    assert_eq!(
        trace["match"]["rule"],
        "gateway-conformance-infra/reference-grant#rule-1"
    );
    assert_eq!(trace["backendFailure"], Value::Null);
    assert_eq!(
        trace["backends"],
        serde_json::json!([{"backend": WEB_BACKEND, "weight": 1, "resolution": "not-checked",
            "message": "ReferenceGrant gateway-conformance-web-backend/reference-grant permits it; dopol does not read Services, so whether it exists is not checked"}])
    );
}

/// An unknown backend kind (conformance `httproute-invalid-backendref-unknown-kind`: 500 where
/// unsupported): dopol cannot know the implementation's kinds, and says so.
#[test]
fn an_unknown_backend_kind_is_left_to_the_implementation() {
    let trace = conformance_request("httproute-invalid-backendref-unknown-kind", 0);
    assert_eq!(trace["backendFailure"], Value::Null);
    assert_eq!(
        trace["backends"],
        serde_json::json!([{"backend": "NonExistent.unknownkind.example.com gateway-conformance-infra/infra-backend-v1:8080",
            "weight": 1, "resolution": "unknown-kind",
            "message": "a kind dopol does not model: an implementation that does not support it answers 500 (InvalidKind), one that does routes to it"}])
    );
}

/// The "Multiple parents" guide, steps 6–9: each parent's host reaches each child through that
/// parent; step 9 (parent2, /anything/team2/bar, whose only child names parent1 only) is a 500
/// upstream, and in dopol: `invalid-delegation`.
#[test]
fn the_multi_parent_guide_routes_each_host_through_its_parent() {
    let input = kgateway_guide("kgateway-delegation-multi-parent");
    let prefix = "kgateway|kgateway-system/http|kgateway-system/http#http|kgateway-system";
    for (host, path, want) in [
        (
            "delegation-parent1.example",
            "/anything/team1/foo",
            "parent1#rule-1>team1/child-team1|team1/child-team1#rule-1",
        ),
        (
            "delegation-parent1.example",
            "/anything/team2/bar",
            "parent1#rule-2>team2/child-team2|team2/child-team2#rule-1",
        ),
        (
            "delegation-parent2.example",
            "/anything/team1/foo",
            "parent2#rule-1>team1/child-team1|team1/child-team1#rule-1",
        ),
    ] {
        let url = format!("http://{host}:8080{path}");
        let trace = request(&input, &["GET", &url, "-o", "json"], 0).json();
        assert_eq!(
            trace["match"]["pathId"],
            format!("{prefix}/{want}"),
            "{url}"
        );
        assert_eq!(trace["notes"], serde_json::json!([]), "{url}");
    }
    let url = "http://delegation-parent2.example:8080/anything/team2/bar";
    let trace = request(&input, &["GET", url, "-o", "json"], 1).json();
    assert_eq!(
        trace["notFound"],
        serde_json::json!({
            "status": 500,
            "reason": "invalid-delegation",
            "nearest": null,
            "message": "kgateway-system/parent2#rule-2 matches this request but delegates to no valid child here (lint DPL2010 says why): kgateway replaces it with a direct 500 response (\"invalid route configuration detected and replaced with a direct response\")"
        })
    );
    assert_eq!(trace["notes"], serde_json::json!([]));
    let text = request(&input, &["GET", url], 1).stdout;
    assert!(
        text.contains(
            "Match     none: 500 (invalid-delegation): kgateway-system/parent2#rule-2 matches"
        ),
        "{text}"
    );
}

/// A child rule answers only with its matches on the chain: its own matches valid under the
/// delegating rule (the one outside `/shop` is dropped), or, inheriting, merged with it.
#[test]
fn a_child_rule_answers_only_with_its_matches_on_the_chain() {
    let parent = infra_route(
        "parent",
        &format!(
            "  parentRefs: [{{name: gw}}]\n  hostnames: [shop.example.com]\n  rules:\n{}{}",
            delegating_rule("/shop", "child"),
            delegating_rule("/team", "heir")
        ),
    );
    let child = infra_route(
        "child",
        "  rules:\n  - matches: [{path: {type: PathPrefix, value: /shop/cart}}, {path: {type: PathPrefix, value: /other}}]\n",
    );
    let heir = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: heir
  namespace: infra
  annotations: {delegation.kgateway.dev/inherit-parent-matcher: \"true\"}
spec:
  rules:
  - matches: [{path: {type: PathPrefix, value: /cart}}]
";
    let input = crate::common::stream(&[crate::common::GATEWAY, &parent, &child, heir]);
    let path = |chain: &str, leaf: &str| {
        format!(
            "kuadrant|infra/gw|infra/gw#http|infra/parent#{chain}>infra/{leaf}|infra/{leaf}#rule-1"
        )
    };
    for (url, want) in [
        (
            "http://shop.example.com/shop/cart/1",
            Some(path("rule-1", "child")),
        ),
        ("http://shop.example.com/other", None),
        (
            "http://shop.example.com/team/cart",
            Some(path("rule-2", "heir")),
        ),
        ("http://shop.example.com/cart", None),
    ] {
        let code = if want.is_some() { 0 } else { 1 };
        let trace = request(&input, &["GET", url, "-o", "json"], code).json();
        match want {
            Some(want) => assert_eq!(trace["match"]["pathId"], want, "{url}"),
            None => {
                assert_eq!(trace["match"], Value::Null, "{url}");
                assert_eq!(trace["notFound"]["reason"], "no-route", "{url}");
            }
        }
    }
}

/// One child reached through two rules of one parent: two candidates with the same leaf rule.
/// The loser's message names the winner with its chain, never the rule as beating itself.
#[test]
fn a_rule_reached_twice_does_not_beat_itself() {
    let parent = infra_route(
        "parent",
        &format!(
            "  parentRefs: [{{name: gw}}]\n  rules:\n{}{}",
            delegating_rule("/a", "child"),
            delegating_rule("/a/b", "child")
        ),
    );
    let child = infra_route(
        "child",
        "  rules:\n  - matches: [{path: {type: PathPrefix, value: /a/b/c}}]\n",
    );
    let input = crate::common::stream(&[crate::common::GATEWAY, &parent, &child]);
    let trace = request(&input, &["GET", "http://x.example/a/b/c", "-o", "json"], 0).json();
    let path = |rule: &str| {
        format!(
            "kuadrant|infra/gw|infra/gw#http|infra/parent#{rule}>infra/child|infra/child#rule-1"
        )
    };
    assert_eq!(trace["match"]["pathId"], path("rule-1"));
    assert_eq!(trace["match"]["decidedBy"], "rule-order");
    assert_eq!(
        trace["candidates"],
        serde_json::json!([{"pathId": path("rule-2"), "matched": true, "lostBecause": "rule-order",
            "message": "matched, but infra/parent#rule-1>infra/child#rule-1 wins at step rule-order"}])
    );
}

/// An HTTPRoute `infra/<name>` with `spec` (YAML lines under `spec:`, indented two spaces).
fn infra_route(name: &str, spec: &str) -> String {
    format!(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: {name}, namespace: infra}}\nspec:\n{spec}"
    )
}

/// A delegating rule of a parent route: `matches` on `prefix`, delegating to HTTPRoute `child`.
fn delegating_rule(prefix: &str, child: &str) -> String {
    format!(
        "  - matches: [{{path: {{type: PathPrefix, value: {prefix}}}}}]\n    backendRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: {child}}}]\n"
    )
}

/// A backendRef of weight 0 receives no request: unresolvable or not, it causes no 500 while
/// another backend has weight.
#[test]
fn an_unresolvable_backend_of_weight_zero_causes_no_500() {
    let route = "---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: ns}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{name: good, port: 80, weight: 1}, {name: bad, namespace: other, port: 80, weight: 0}]
";
    let input = [crate::common::EG_GATEWAY, route].concat();
    let trace = request(input.as_bytes(), &["GET", "http://h/a", "-o", "json"], 0).json();
    assert_eq!(trace["backends"][1]["resolution"], "ref-not-permitted");
    assert_eq!(trace["backendFailure"], serde_json::Value::Null);
}
