//! A filter that matches nothing (`--route cartt`, `--gateway publik`, `-n nope`, `--policy`,
//! `--kind`) is a usage error naming the nearest name, the same way in every command.

use crate::common::dopol;

const SHOP: &str = "testdata/examples/shop";

fn fails_with(args: &[&str], message: &str) {
    let mut all = args.to_vec();
    all.extend(["-f", SHOP]);
    let out = dopol(&all);
    out.code(2);
    assert_eq!(out.stderr, format!("error: {message}\n"), "{args:?}");
    assert_eq!(out.stdout, "", "{args:?}");
}

const ROUTE: &str = "--route `cartt` matches no route; did you mean `cart`?";
const GATEWAY: &str = "--gateway `publik` matches no Gateway; did you mean `public`?";
const NAMESPACE: &str =
    "-n `nope` matches no namespace of a Gateway, route or policy (the input has infra, shop)";

#[test]
fn report_commands_name_the_nearest_route_gateway_and_namespace() {
    for command in ["effective", "overridden", "status"] {
        fails_with(&[command, "--route", "cartt"], ROUTE);
        fails_with(&[command, "--gateway", "publik"], GATEWAY);
        fails_with(&[command, "-n", "nope"], NAMESPACE);
        fails_with(
            &[command, "--route", "shopp/cart"],
            "--route `shopp/cart` matches no route; did you mean `shop/cart`?",
        );
        fails_with(
            &[command, "--policy", "infra/platform-aut"],
            "no policy matches `infra/platform-aut`; did you mean `infra/platform-auth`?",
        );
        fails_with(
            &[command, "--kind", "AuthPolicyy"],
            "unknown policy kind `AuthPolicyy`; did you mean `AuthPolicy`? (known: AuthPolicy, RateLimitPolicy, TokenRateLimitPolicy, TrafficPolicy, BackendTrafficPolicy, ClientTrafficPolicy, SecurityPolicy, EnvoyExtensionPolicy, MeshTimeout, MeshCircuitBreaker, MeshRateLimit, MeshTLS, MeshAccessLog, MeshFaultInjection, MeshRetry, MeshHealthCheck, MeshLoadBalancingStrategy, MeshTrafficPermission, MeshTrace, MeshMetric, MeshProxyPatch, MeshPassthrough, AgentgatewayPolicy, ListenerPolicy, BackendConfigPolicy, BackendTLSPolicy)",
        );
    }
    // No close name: the names there are.
    fails_with(
        &["effective", "--gateway", "internal"],
        "--gateway `internal` matches no Gateway (the input has public)",
    );
}

#[test]
fn reach_explain_lint_and_diff_say_it_the_same_way() {
    fails_with(&["reach", "infra/platform-auth", "-n", "nope"], NAMESPACE);
    fails_with(&["explain", "--route", "cartt"], ROUTE);
    fails_with(&["explain", "--route", "cart", "-n", "nope"], NAMESPACE);
    fails_with(
        &["explain", "--route", "shop/cart", "--rule", "chekout"],
        "route `shop/cart` has no rule `chekout` (its rules: checkout, rule-2); did you mean `checkout`?",
    );
    fails_with(&["lint", "-n", "nope"], NAMESPACE);
    let with = ["--with", "testdata/whatif/catalog-auth.yaml"];
    fails_with(&[&["diff", "--route", "cartt"][..], &with].concat(), ROUTE);
    fails_with(
        &[&["diff", "--gateway", "publik"][..], &with].concat(),
        GATEWAY,
    );
    fails_with(&[&["diff", "-n", "nope"][..], &with].concat(), NAMESPACE);
}

#[test]
fn names_that_exist_still_filter_and_an_empty_answer_is_not_an_error() {
    // The route exists; under this Gateway's https listener only: a real, filtered answer.
    dopol(&["effective", "-f", SHOP, "--route", "catalog", "-o", "json"]).code(0);
    // Namespaceless objects take -n as their namespace: it names them.
    dopol(&["effective", "-f", "testdata/namespaceless", "-n", "team"]).code(0);
    dopol(&["lint", "-f", SHOP, "-n", "shop"]).code(0);
}

#[test]
fn namespace_filters_reach_paths_and_lint_findings() {
    let out = dopol(&[
        "reach",
        "-f",
        "testdata/uncovered",
        "infra/gw-limits",
        "-n",
        "ops",
    ]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "RateLimitPolicy infra/gw-limits reaches 1 of 1 path\n\nGateway infra/gw\n  listener http\n    \
         HTTPRoute ops/health\n      rule rule-1: global\n"
    );
    let doc = dopol(&[
        "reach",
        "-f",
        "testdata/uncovered",
        "infra/gw-limits",
        "-n",
        "shop",
        "-o",
        "json",
    ])
    .json();
    assert_eq!(
        (doc["reached"].as_u64(), doc["paths"].as_u64()),
        (Some(3), Some(3))
    );

    // lint: the findings about objects in the namespace; the others are counted.
    let out = dopol(&["lint", "-f", "testdata/lint/matrix", "-n", "infra"]);
    out.code(0);
    assert!(out.stdout.contains("[DPL4005]") && !out.stdout.contains("[DPL3001]"));
    assert_eq!(
        out.stderr,
        "0 errors, 1 warning, 0 infos (2 in other namespaces) in 5 objects from 1 file\n"
    );
    let out = dopol(&["lint", "-f", "testdata/lint/matrix", "-n", "app"]);
    out.code(1);
    assert!(out.stdout.contains("[DPL3001]") && !out.stdout.contains("[DPL4005]"));
}

#[test]
fn topology_filters_that_match_nothing_say_so() {
    fails_with(&["topology", "--route", "cartt"], ROUTE);
    fails_with(&["topology", "-o", "json", "--gateway", "publik"], GATEWAY);
    fails_with(&["topology", "-n", "nope"], NAMESPACE);
}
