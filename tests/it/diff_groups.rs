//! `dopol diff` for a reviewer: identical changes printed once with where they happen in the
//! topology, a totals line, `--paths` and `--stat` for per-path detail, the report filters, and
//! no "No differences." when a side failed to load.

use crate::common::{dopol, root, run_in};

const MANY: &str = "testdata/diff/many-routes";
const CHANGE: &str = "testdata/diff/whatif/platform-change.yaml";

fn platform_change(extra: &[&str]) -> crate::common::Output {
    let mut args = vec!["diff", "-f", MANY, "--with", CHANGE];
    args.extend(extra);
    dopol(&args)
}

/// The many routes plus a route on the https listener only.
fn new_route(extra: &[&str]) -> crate::common::Output {
    let mut args = vec![
        "diff",
        "-f",
        MANY,
        "--with",
        "testdata/diff/whatif/new-route.yaml",
    ];
    args.extend(extra);
    dopol(&args)
}

/// The value diff of the per-ip default, 50 → 60.
const PER_IP_DIFF: &str = concat!(
    "      rates:\n",
    "    - - limit: 50\n",
    "    + - limit: 60\n",
    "        window: 1s\n",
    "      counters:\n",
    "      - expression: source.address\n",
);

const GLOBAL_CHANGE: &str = "\
~ RateLimitPolicy global  value changed (from infra/platform-limits)
  on 80 paths: Gateway infra/public, all routes
      rates:
    - - limit: 1000
    + - limit: 900
        window: 1s
";

#[test]
fn a_gateway_change_over_40_routes_prints_once_with_its_scope_and_totals() {
    let out = platform_change(&[]);
    out.code(1);
    let expected = format!(
        "{GLOBAL_CHANGE}\
~ RateLimitPolicy per-ip  value changed (from infra/platform-defaults)
  on 64 paths: Gateway infra/public, listeners http, https: shop/r-09, shop/r-10, shop/r-11, shop/r-12, shop/r-13, shop/r-14, … and 26 more
{PER_IP_DIFF}80 paths changed: 0 rules added, 0 removed, 144 changed; 0 status changes
"
    );
    assert_eq!(out.stdout, expected);
}

#[test]
fn paths_and_stat_keep_the_per_path_detail_with_the_same_totals() {
    let totals = "80 paths changed: 0 rules added, 0 removed, 144 changed; 0 status changes\n";
    let paths = platform_change(&["--paths"]);
    paths.code(1);
    assert!(
        paths.stdout.starts_with(
            "\
Gateway infra/public
  route shop/r-01
    rule rule-1
      RateLimitPolicy (listeners http, https)
        ~ global  value changed (from infra/platform-limits)
"
        ),
        "{}",
        paths.stdout
    );
    assert_eq!(paths.stdout.matches("\n  route shop/r-").count(), 40);
    assert!(paths.stdout.ends_with(totals), "{}", paths.stdout);
    let stat = platform_change(&["--stat"]);
    stat.code(1);
    assert_eq!(stat.stdout.lines().count(), 81);
    assert!(
        stat.stdout.starts_with(
            "+0   -0   ~1    istio|infra/public|infra/public#http|shop/r-01|shop/r-01#rule-1\n"
        ),
        "{}",
        stat.stdout
    );
    assert!(stat.stdout.ends_with(totals), "{}", stat.stdout);
    platform_change(&["--stat", "--paths"])
        .code(2)
        .stderr_has(&["cannot be used with"]);
}

#[test]
fn the_json_document_still_has_one_change_per_path() {
    let out = platform_change(&["-o", "json"]);
    out.code(1);
    let doc = out.json();
    assert_eq!(doc["kind"], "EffectivePolicyDiff");
    let changes = doc["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 144);
    assert_eq!(
        changes[0]["pathId"],
        "istio|infra/public|infra/public#http|shop/r-01|shop/r-01#rule-1"
    );
    let keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["apiVersion", "kind", "changes", "paths", "status"]);
}

#[test]
fn new_paths_are_summarized_by_the_topology_too() {
    let out = new_route(&[]);
    out.code(1);
    assert_eq!(
        out.stdout,
        "\
+ RateLimitPolicy global  from infra/platform-limits
  on 1 path: Gateway infra/public, listener https: shop/r-41
+ RateLimitPolicy per-ip  from infra/platform-defaults
  on 1 path: Gateway infra/public, listener https: shop/r-41
Paths:
  + 1 path: Gateway infra/public, listener https: shop/r-41
1 path changed: 2 rules added, 0 removed, 0 changed; 0 status changes
"
    );
}

#[test]
fn several_parts_of_a_scope_go_one_per_line() {
    // The shop's cart route brings its own JWT on both listeners; the catalog (https only)
    // gets the platform's: against an empty Gateway, one change spans two listener parts.
    let out = dopol(&["diff", "testdata/rfc0009/a1", "testdata/examples/shop"]);
    out.code(1).stdout_has(&[
        "\
+ AuthPolicy authentication#jwt  from shop/cart-auth
  on 4 paths:
    Gateway infra/public, listener http, all routes
    Gateway infra/public, listener https: shop/cart
",
        "\
Paths:
  + 5 paths: Gateway infra/public, all routes
  - 1 path: Gateway infra/gw, all routes
",
    ]);
}

#[test]
fn a_big_gateway_change_stays_a_few_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join(MANY).join("platform.yaml"),
        dir.path().join("platform.yaml"),
    )
    .unwrap();
    let routes: Vec<String> = (1..=2000)
        .map(|i| {
            format!(
                "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: r-{i}, namespace: shop}}\nspec:\n  parentRefs: [{{name: public, namespace: infra}}]\n  rules: [{{backendRefs: [{{name: r-{i}, port: 8080}}]}}]\n"
            )
        })
        .collect();
    std::fs::write(dir.path().join("routes.yaml"), routes.join("---\n")).unwrap();
    let dir_arg = dir.path().display().to_string();
    let change = root().join(CHANGE).display().to_string();
    let out = run_in(&root(), &["diff", "-f", &dir_arg, "--with", &change], None);
    out.code(1);
    assert_eq!(
        out.stdout,
        format!(
            "\
~ RateLimitPolicy global  value changed (from infra/platform-limits)
  on 4000 paths: Gateway infra/public, all routes
      rates:
    - - limit: 1000
    + - limit: 900
        window: 1s
~ RateLimitPolicy per-ip  value changed (from infra/platform-defaults)
  on 4000 paths: Gateway infra/public, all routes
{PER_IP_DIFF}4000 paths changed: 0 rules added, 0 removed, 8000 changed; 0 status changes
"
        )
    );
}

#[test]
fn diff_takes_the_report_filters() {
    let route = platform_change(&["--route", "r-12"]);
    route.code(1);
    assert_eq!(
        route.stdout,
        format!(
            "\
~ RateLimitPolicy global  value changed (from infra/platform-limits)
  on 2 paths: Gateway infra/public, listeners http, https: shop/r-12
      rates:
    - - limit: 1000
    + - limit: 900
        window: 1s
~ RateLimitPolicy per-ip  value changed (from infra/platform-defaults)
  on 2 paths: Gateway infra/public, listeners http, https: shop/r-12
{PER_IP_DIFF}2 paths changed: 0 rules added, 0 removed, 4 changed; 0 status changes
"
        )
    );
    let policy = platform_change(&["--policy", "infra/platform-limits", "--gateway", "public"]);
    policy.code(1);
    assert_eq!(
        policy.stdout,
        format!(
            "{GLOBAL_CHANGE}80 paths changed: 0 rules added, 0 removed, 80 changed; 0 status changes\n"
        )
    );
    let kind = platform_change(&["--kind", "AuthPolicy"]);
    kind.code(0).stderr_has(&["No differences."]);
    assert_eq!(kind.stdout, "");
    // -n: the changes are on paths whose Gateway is in infra.
    platform_change(&["-n", "infra", "-o", "json"]).code(1);
    let json = platform_change(&["--route", "shop/r-40", "-o", "json"]).json();
    assert_eq!(json["changes"].as_array().unwrap().len(), 4);

    // A route's own policy removed: --policy names it though it exists only on the old side.
    let gone = dopol(&[
        "diff",
        "-f",
        MANY,
        "--without",
        "RateLimitPolicy/shop/r-03-limits",
        "--policy",
        "shop/r-03-limits",
    ]);
    gone.code(1);
    assert_eq!(
        gone.stdout,
        "\
~ RateLimitPolicy per-ip  value and source changed (shop/r-03-limits → infra/platform-defaults)
  on 2 paths: Gateway infra/public, listeners http, https: shop/r-03
      rates:
    - - limit: 10
    + - limit: 50
        window: 1s
      counters:
      - expression: source.address
Status:
  shop/r-03-limits
    Accepted True (Accepted) → (absent)
    Enforced True (Enforced) → (absent)
2 paths changed: 0 rules added, 0 removed, 2 changed; 1 status change
"
    );
    // Path changes follow the path filters: the new route is outside --route r-01.
    new_route(&["--route", "r-01"])
        .code(0)
        .stderr_has(&["No differences."]);
}

#[test]
fn diff_filters_that_match_nothing_suggest_the_nearest_name() {
    for (args, message) in [
        (
            &["--route", "r-1222"][..],
            "error: --route `r-1222` matches no route; did you mean `r-12`?\n",
        ),
        (
            &["--gateway", "publik"],
            "error: --gateway `publik` matches no Gateway; did you mean `public`?\n",
        ),
        (
            &["-n", "nope"],
            "error: -n `nope` matches no namespace of a Gateway, route or policy (the input has infra, shop)\n",
        ),
        (
            &["--policy", "infra/platform-limit"],
            "error: no policy matches `infra/platform-limit`; did you mean `infra/platform-limits`?\n",
        ),
        (
            &["--kind", "RateLimitPolicyy"],
            "error: unknown policy kind `RateLimitPolicyy`; did you mean `RateLimitPolicy`? (known: AuthPolicy, RateLimitPolicy, TokenRateLimitPolicy, TrafficPolicy, BackendTrafficPolicy, ClientTrafficPolicy, SecurityPolicy, EnvoyExtensionPolicy, MeshTimeout, MeshCircuitBreaker, MeshRateLimit, MeshTLS, MeshAccessLog, MeshFaultInjection, MeshRetry, MeshHealthCheck, MeshLoadBalancingStrategy, MeshTrafficPermission, MeshTrace, MeshMetric, MeshProxyPatch, MeshPassthrough, AgentgatewayPolicy, ListenerPolicy, BackendConfigPolicy, BackendTLSPolicy)\n",
        ),
    ] {
        let out = platform_change(args);
        out.code(2);
        assert_eq!(out.stderr, message, "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}");
    }
    // A name only the new side has is a name.
    new_route(&["--route", "r-41"]).code(1);
}

/// Runs a diff that must stop with exit 3, print nothing on stdout, say `message` and never
/// "No differences.".
fn cannot_compare(args: &[&str], message: &str) {
    let out = dopol(args);
    out.code(3)
        .stderr_has(&[message])
        .stderr_lacks(&["No differences."]);
    assert_eq!(out.stdout, "", "{args:?}");
}

#[test]
fn a_side_that_failed_to_load_is_named_and_no_diff_is_printed() {
    cannot_compare(
        &["diff", "testdata/nope", "testdata/examples/shop"],
        "[DPL1002] `testdata/nope` does not exist",
    );
    cannot_compare(
        &["diff", "testdata/nope", "testdata/examples/shop"],
        "error: cannot compare: the old side (`testdata/nope`) did not load cleanly (input errors above); no differences are shown\n",
    );
    // The same broken input on both sides: not "No differences." either.
    cannot_compare(
        &[
            "diff",
            "testdata/bad/mixed",
            "testdata/bad/mixed",
            "-o",
            "json",
        ],
        "error: cannot compare: the old side (`testdata/bad/mixed`) and the new side (`testdata/bad/mixed`) did not load cleanly",
    );
    // A what-if whose added file fails: the new side is the -f inputs with the overlay.
    cannot_compare(
        &[
            "diff",
            "-f",
            "testdata/examples/shop",
            "--with",
            "testdata/bad/mixed/syntax-error.yaml",
        ],
        "error: cannot compare: the new side (the -f inputs with --with/--without) did not load cleanly",
    );
}
