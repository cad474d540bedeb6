//! `dopol diff` between git revisions (a repository built in the test), directories, and
//! what-ifs (`--with`, `--without`), including on `effective`.

use crate::common::{dopol, items, owners, root, run_in};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

const CHECKOUT_AUTH: &str = "---
# The checkout rule brings its own credential.
apiVersion: kuadrant.io/v1
kind: AuthPolicy
metadata: {name: checkout-auth, namespace: shop, creationTimestamp: \"2025-03-03T00:00:00Z\"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: cart, sectionName: checkout}
  rules:
    authentication:
      jwt: {apiKey: {selector: {matchLabels: {app: checkout}}}}
";

const GATEWAY_DEFAULT: &str = "---
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: platform-defaults, namespace: infra, creationTimestamp: \"2025-05-01T00:00:00Z\"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: public}
  defaults:
    strategy: merge
    limits:
      per-ip: {rates: [{limit: 100, window: 1s}], counters: [{expression: source.address}]}
";

/// A repository with four commits: base (the shop example plus a rule-level AuthPolicy),
/// c1 a new gateway-level default, c2 the cart's AuthPolicy switched from bare rules to
/// merge overrides, c3 the http listener's policy deleted.
fn repository() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::create_dir(dir.join("manifests")).unwrap();
    let platform =
        std::fs::read_to_string(root().join("testdata/examples/shop/platform.yaml")).unwrap();
    let shop = std::fs::read_to_string(root().join("testdata/examples/shop/shop.yaml")).unwrap()
        + CHECKOUT_AUTH;
    std::fs::write(dir.join("manifests/platform.yaml"), &platform).unwrap();
    std::fs::write(dir.join("manifests/shop.yaml"), &shop).unwrap();
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "base"]);
    git(dir, &["tag", "c0"]);

    std::fs::write(
        dir.join("manifests/platform.yaml"),
        format!("{platform}{GATEWAY_DEFAULT}"),
    )
    .unwrap();
    git(dir, &["commit", "-q", "-am", "gateway default"]);
    git(dir, &["tag", "c1"]);

    let overrides = shop.replace(
        "    name: cart\n  rules:\n    authentication:\n      jwt:",
        "    name: cart\n  overrides:\n    strategy: merge\n    rules:\n      authentication:\n        jwt:",
    );
    let overrides = overrides.replace(
        "        apiKey:\n          selector:\n            matchLabels:\n              app: cart\n        credentials:\n          authorizationHeader:\n            prefix: APIKEY\n",
        "          apiKey:\n            selector:\n              matchLabels:\n                app: cart\n          credentials:\n            authorizationHeader:\n              prefix: APIKEY\n",
    );
    assert_ne!(overrides, shop, "the cart policy was rewritten");
    std::fs::write(dir.join("manifests/shop.yaml"), overrides).unwrap();
    git(
        dir,
        &["commit", "-q", "-am", "cart auth: bare rules to overrides"],
    );
    git(dir, &["tag", "c2"]);

    let without_http = format!("{platform}{GATEWAY_DEFAULT}");
    let start = without_http
        .find("# Plain-HTTP traffic")
        .expect("http-limits is in the platform file");
    let end = start
        + without_http[start..]
            .find("---")
            .expect("followed by a document");
    std::fs::write(
        dir.join("manifests/platform.yaml"),
        format!("{}{}", &without_http[..start], &without_http[end + 4..]),
    )
    .unwrap();
    git(
        dir,
        &["commit", "-q", "-am", "delete the http listener's policy"],
    );
    git(dir, &["tag", "c3"]);
    repo
}

/// `(pathId suffix, kind, key, change, before source, after source)` of a diff document.
fn changes(doc: &Value) -> Vec<(String, String, String, String, String, String)> {
    assert_eq!(doc["kind"], "EffectivePolicyDiff");
    let source = |v: &Value| {
        v["source"]
            .as_str()
            .map(|s| s.split(':').nth(1).unwrap().to_string())
            .unwrap_or_default()
    };
    doc["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let path = c["pathId"].as_str().unwrap();
            let path = path.split('|').skip(2).collect::<Vec<_>>().join("|");
            (
                path,
                c["policyKind"].as_str().unwrap().to_string(),
                c["key"].as_str().unwrap().to_string(),
                c["change"].as_str().unwrap().to_string(),
                source(&c["before"]),
                source(&c["after"]),
            )
        })
        .collect()
}

fn six(
    list: &[(&str, &str, &str, &str, &str, &str)],
) -> Vec<(String, String, String, String, String, String)> {
    list.iter()
        .map(|(a, b, c, d, e, f)| {
            (
                a.to_string(),
                b.to_string(),
                c.to_string(),
                d.to_string(),
                e.to_string(),
                f.to_string(),
            )
        })
        .collect()
}

fn diff_json(dir: &Path, old: &str, new: &str) -> (Value, i32) {
    let out = run_in(
        dir,
        &["diff", old, new, "-f", "manifests", "-o", "json"],
        None,
    );
    (out.json(), out.code)
}

const HTTP_CHECKOUT: &str = "infra/public#http|shop/cart|shop/cart#checkout";
const HTTPS_CHECKOUT: &str = "infra/public#https|shop/cart|shop/cart#checkout";

#[test]
fn each_commit_pair_lists_exactly_its_changes() {
    let repo = repository();
    let dir = repo.path();

    let (doc, code) = diff_json(dir, "git:c0", "git:c1");
    assert_eq!(code, 1);
    let per_ip: Vec<_> = [
        "infra/public#http|shop/cart|shop/cart#checkout",
        "infra/public#http|shop/cart|shop/cart#rule-2",
        "infra/public#https|shop/cart|shop/cart#checkout",
        "infra/public#https|shop/cart|shop/cart#rule-2",
        "infra/public#https|shop/catalog|shop/catalog#rule-1",
    ]
    .into_iter()
    .map(|p| {
        (
            p,
            "RateLimitPolicy",
            "per-ip",
            "added",
            "",
            "infra/platform-defaults",
        )
    })
    .collect();
    assert_eq!(changes(&doc), six(&per_ip));
    assert_eq!(doc["paths"], serde_json::json!([]));
    assert_eq!(
        doc["status"][0]["policy"],
        "ratelimitpolicy.kuadrant.io:infra/platform-defaults"
    );
    assert_eq!(doc["status"][0]["before"], serde_json::json!([]));

    let (doc, code) = diff_json(dir, "git:c1", "git:c2");
    assert_eq!(code, 1);
    assert_eq!(
        changes(&doc),
        six(&[
            (
                HTTP_CHECKOUT,
                "AuthPolicy",
                "authentication#jwt",
                "changed",
                "shop/checkout-auth",
                "shop/cart-auth"
            ),
            (
                HTTPS_CHECKOUT,
                "AuthPolicy",
                "authentication#jwt",
                "changed",
                "shop/checkout-auth",
                "shop/cart-auth"
            ),
        ])
    );
    assert_eq!(doc["changes"][0]["valueChanged"], true);
    assert_eq!(doc["changes"][0]["sourceChanged"], true);
    assert!(
        doc["changes"][0]["valueDiff"]
            .as_str()
            .unwrap()
            .contains("-       app: checkout\n+       app: cart\n"),
        "{}",
        doc["changes"][0]["valueDiff"]
    );
    let status: Vec<&str> = doc["status"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["policy"].as_str().unwrap())
        .collect();
    assert_eq!(
        status,
        [
            "authpolicy.kuadrant.io:shop/cart-auth",
            "authpolicy.kuadrant.io:shop/checkout-auth"
        ],
        "partially enforced ↔ successfully / overridden"
    );

    let (doc, code) = diff_json(dir, "git:c2", "git:c3");
    assert_eq!(code, 1);
    assert_eq!(
        changes(&doc),
        six(&[
            (
                HTTP_CHECKOUT,
                "RateLimitPolicy",
                "per-client",
                "removed",
                "infra/http-limits",
                ""
            ),
            (
                "infra/public#http|shop/cart|shop/cart#rule-2",
                "RateLimitPolicy",
                "per-client",
                "removed",
                "infra/http-limits",
                ""
            ),
        ])
    );
    assert_eq!(
        doc["status"][0]["policy"],
        "ratelimitpolicy.kuadrant.io:infra/http-limits"
    );
    assert_eq!(doc["status"][0]["after"], serde_json::json!([]));

    let (doc, code) = diff_json(dir, "git:c0", "git:c3");
    assert_eq!(code, 1);
    assert_eq!(changes(&doc).len(), 5 + 2 + 2);

    let (doc, code) = diff_json(dir, "git:c3", "git:c3");
    assert_eq!((code, doc["changes"].as_array().unwrap().len()), (0, 0));
}

#[test]
fn human_output_groups_identical_changes_and_by_path_with_paths() {
    let repo = repository();
    let out = run_in(
        repo.path(),
        &["diff", "git:c1", "git:c2", "-f", "manifests"],
        None,
    );
    out.code(1);
    let expected = "\
~ AuthPolicy authentication#jwt  value and source changed (shop/checkout-auth → shop/cart-auth)
  on 2 paths: Gateway infra/public, listeners http, https: shop/cart#checkout
      apiKey:
        selector:
          matchLabels:
    -       app: checkout
    +       app: cart
        allNamespaces: false
    + credentials:
    +   authorizationHeader:
    +     prefix: APIKEY
      metrics: false
      priority: 0
Status:
  shop/cart-auth
    Enforced True (Enforced): \"AuthPolicy has been partially enforced\" → \"AuthPolicy has been successfully enforced\"
  shop/checkout-auth
    Enforced True (Enforced) → False (Overridden): AuthPolicy is overridden by [shop/cart-auth]
2 paths changed: 0 rules added, 0 removed, 2 changed; 2 status changes
";
    assert_eq!(out.stdout, expected);
    let out = run_in(
        repo.path(),
        &["diff", "git:c1", "git:c2", "-f", "manifests", "--paths"],
        None,
    );
    out.code(1);
    let expected = "\
Gateway infra/public
  route shop/cart
    rule checkout
      AuthPolicy (listeners http, https)
        ~ authentication#jwt  value and source changed (shop/checkout-auth → shop/cart-auth)
              apiKey:
                selector:
                  matchLabels:
            -       app: checkout
            +       app: cart
                allNamespaces: false
            + credentials:
            +   authorizationHeader:
            +     prefix: APIKEY
              metrics: false
              priority: 0
Status:
  shop/cart-auth
    Enforced True (Enforced): \"AuthPolicy has been partially enforced\" → \"AuthPolicy has been successfully enforced\"
  shop/checkout-auth
    Enforced True (Enforced) → False (Overridden): AuthPolicy is overridden by [shop/cart-auth]
2 paths changed: 0 rules added, 0 removed, 2 changed; 2 status changes
";
    assert_eq!(out.stdout, expected);
    let stat = run_in(
        repo.path(),
        &["diff", "git:c2", "git:c3", "-f", "manifests", "--stat"],
        None,
    );
    stat.code(1);
    assert!(
        stat.stdout
            .ends_with("2 paths changed: 0 rules added, 2 removed, 0 changed; 1 status change\n"),
        "{}",
        stat.stdout
    );
}

#[test]
fn worktree_and_directory_sides() {
    let repo = repository();
    let dir = repo.path();
    // git:c0 against the working tree (c3): the pre-commit use case.
    let (doc, code) = diff_json(dir, "git:c0", ".");
    assert_eq!((code, changes(&doc).len()), (1, 9));
    // One side only: NEW is the -f inputs in the working tree.
    let out = run_in(
        dir,
        &["diff", "git:c2", "-f", "manifests", "-o", "json"],
        None,
    );
    assert_eq!((out.code, changes(&out.json()).len()), (1, 2));
    // Two directories.
    std::fs::create_dir(dir.join("copy")).unwrap();
    std::fs::copy(
        dir.join("manifests/platform.yaml"),
        dir.join("copy/platform.yaml"),
    )
    .unwrap();
    std::fs::copy(dir.join("manifests/shop.yaml"), dir.join("copy/shop.yaml")).unwrap();
    run_in(dir, &["diff", "manifests", "copy"], None)
        .code(0)
        .stderr_has(&["No differences."]);
    // Under directory sides, -f is relative to each side: an absolute path would compare the
    // same files twice.
    let absolute = dir.join("manifests/shop.yaml").display().to_string();
    run_in(dir, &["diff", "manifests", "copy", "-f", &absolute], None)
        .code(2)
        .stderr_has(&["with directory sides, -f names paths relative to each side"]);
    run_in(dir, &["diff", "manifests", "copy", "-f", "shop.yaml"], None)
        .code(0)
        .stderr_has(&["No differences."]);
}

#[test]
fn unknown_revisions_missing_paths_and_option_like_revisions() {
    let repo = repository();
    let dir = repo.path();
    run_in(
        dir,
        &["diff", "git:nope", "git:c1", "-f", "manifests"],
        None,
    )
    .code(3)
    .stderr_has(&["unknown revision `nope`"]);
    std::fs::create_dir(dir.join("later")).unwrap();
    std::fs::copy(dir.join("manifests/shop.yaml"), dir.join("later/shop.yaml")).unwrap();
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "later"]);
    run_in(dir, &["diff", "git:c0", "git:HEAD", "-f", "later"], None)
        .code(3)
        .stderr_has(&["[DPL1002] `git:c0:later` does not exist"]);
    run_in(
        dir,
        &["diff", "git:--output=/tmp/x", "git:c1", "-f", "manifests"],
        None,
    )
    .code(2)
    .stderr_has(&["is not a revision"]);
    let outside = tempfile::tempdir().unwrap();
    run_in(
        outside.path(),
        &["diff", "git:main", "git:main", "-f", "."],
        None,
    )
    .code(3)
    .stderr_has(&["needs a git repository"]);
}

#[test]
fn what_if_on_effective() {
    let base = dopol(&["effective", "-f", "testdata/examples/shop", "-o", "json"]).json();
    let path = "istio|infra/public|infra/public#http|shop/cart|shop/cart#checkout";
    let keys = |doc: &Value| -> Vec<String> {
        crate::common::rules(doc, "RateLimitPolicy", path)
            .into_iter()
            .map(|r| r.key)
            .collect()
    };
    assert_eq!(keys(&base), ["global", "per-client", "per-user"]);

    let without = dopol(&[
        "effective",
        "-f",
        "testdata/examples/shop",
        "-o",
        "json",
        "--without",
        "RateLimitPolicy/infra/http-limits",
    ]);
    without.code(0);
    assert_eq!(keys(&without.json()), ["global", "per-user"]);

    let with = dopol(&[
        "effective",
        "-f",
        "testdata/examples/shop",
        "-o",
        "json",
        "--with",
        "testdata/whatif/stricter-platform-limits.yaml",
        "--with",
        "testdata/whatif/catalog-auth.yaml",
    ]);
    with.code(0).stderr_lacks(&["DPL1006"]);
    let doc = with.json();
    let global = crate::common::rules(&doc, "RateLimitPolicy", path)
        .into_iter()
        .find(|r| r.key == "global")
        .unwrap();
    assert_eq!(
        global.value["rates"][0]["limit"], 500,
        "the overlay replaced infra/platform-limits"
    );
    let catalog = "istio|infra/public|infra/public#https|shop/catalog|shop/catalog#rule-1";
    assert!(
        owners(&doc, "AuthPolicy", catalog)
            .iter()
            .any(|(k, _, s)| k == "authentication#anonymous-reads" && s == "shop/catalog-auth")
    );
    assert_eq!(items(&doc).len(), items(&base).len());

    dopol(&[
        "effective",
        "-f",
        "testdata/examples/shop",
        "--without",
        "AuthPolicy/shop/nope",
    ])
    .code(2)
    .stderr_has(&["--without AuthPolicy/shop/nope matches no object"]);
    dopol(&[
        "effective",
        "-f",
        "testdata/examples/shop",
        "--without",
        "nonsense",
    ])
    .code(2);
    // Removing everything a report needs is not an error of the input.
    dopol(&[
        "status",
        "-f",
        "testdata/rfc0009/a1",
        "--without",
        "AuthPolicy/infra/gw-auth",
        "-o",
        "json",
    ])
    .code(0);
}

#[test]
fn single_sided_diff_is_a_what_if() {
    let out = dopol(&[
        "diff",
        "-f",
        "testdata/examples/shop",
        "-o",
        "json",
        "--with",
        "testdata/whatif/catalog-auth.yaml",
        "--without",
        "RateLimitPolicy/infra/http-limits",
    ]);
    out.code(1);
    let doc = out.json();
    assert_eq!(
        changes(&doc),
        six(&[
            (
                HTTP_CHECKOUT,
                "RateLimitPolicy",
                "per-client",
                "removed",
                "infra/http-limits",
                ""
            ),
            (
                "infra/public#http|shop/cart|shop/cart#rule-2",
                "RateLimitPolicy",
                "per-client",
                "removed",
                "infra/http-limits",
                ""
            ),
            (
                "infra/public#https|shop/catalog|shop/catalog#rule-1",
                "AuthPolicy",
                "authentication#anonymous-reads",
                "added",
                "",
                "shop/catalog-auth"
            ),
        ])
    );
    dopol(&["diff", "-f", "testdata/examples/shop"])
        .code(2)
        .stderr_has(&["nothing to compare"]);
    dopol(&[
        "diff",
        "-f",
        "testdata/examples/shop",
        "--with",
        "testdata/examples/shop/platform.yaml",
    ])
    .code(0)
    .stderr_has(&["No differences."]);
}

/// A Gateway, a route and a RateLimitPolicy on it whose limits are `limits` (indented under
/// `limits:`).
fn limits_side(limits: &str) -> String {
    format!(
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: infra}}
spec:
  gatewayClassName: istio
  listeners: [{{name: http, protocol: HTTP, port: 80, allowedRoutes: {{namespaces: {{from: All}}}}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: r, namespace: app}}
spec:
  parentRefs: [{{name: gw, namespace: infra}}]
  rules: [{{name: main}}]
---
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {{name: limits, namespace: app}}
spec:
  targetRef: {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}}
  limits:
{limits}"
    )
}

/// `diff` keeps no Kuadrant rule value: it compares them as written and reads them again where
/// written differently. A value written alike is the same unless it has an alias (whose anchor
/// may have changed elsewhere); one written differently is compared as a value.
#[test]
fn values_written_alike_are_the_same_and_the_others_are_compared_as_values() {
    let dir = tempfile::tempdir().unwrap();
    let old = "    same: {rates: [{limit: 1, window: 1m}]}
    reflowed:
      rates:
      - limit: 2
        window: 1m
    anchored: {rates: [{limit: 3, window: &w 1m}]}
    aliased: {rates: [{limit: 4, window: *w}]}
    written-out: {rates: [{limit: 5, window: *w}]}
    scalar:
      rates: [{limit: 7, window: 1m}]
      counters:
      - expression: |
          auth.identity.userid
    edited: {rates: [{limit: 6, window: 1m}]}
";
    let new = "    same: {rates: [{limit: 1, window: 1m}]}
    reflowed: {rates: [{limit: 2, window: 1m}]}
    anchored: {rates: [{limit: 3, window: &w 1h}]}
    aliased: {rates: [{limit: 4, window: *w}]}
    written-out: {rates: [{limit: 5, window: 1m}]}
    scalar:
      rates: [{limit: 7, window: 1m}]
      counters:
      - expression: |
          auth.identity.userid\x20\x20
    edited: {rates: [{limit: 60, window: 1m}]}
";
    for (side, limits) in [("old", old), ("new", new)] {
        std::fs::create_dir(dir.path().join(side)).unwrap();
        std::fs::write(dir.path().join(side).join("m.yaml"), limits_side(limits)).unwrap();
    }
    let out = run_in(dir.path(), &["diff", "old", "new", "-o", "json"], None);
    out.code(1);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let changed: Vec<(&str, &str, &str)> = (doc["changes"].as_array().unwrap().iter())
        .map(|c| {
            let window = |side: &str| c[side]["value"]["rates"][0]["window"].as_str().unwrap();
            (
                c["key"].as_str().unwrap(),
                window("before"),
                window("after"),
            )
        })
        .collect();
    // Every path of the route has the same changes, and only those: a trailing blank of a
    // block scalar is part of its value, though not of its span.
    let distinct: std::collections::BTreeSet<_> = changed.iter().copied().collect();
    assert_eq!(
        distinct.into_iter().collect::<Vec<_>>(),
        [
            ("aliased", "1m", "1h"),
            ("anchored", "1m", "1h"),
            ("edited", "1m", "1m"),
            ("scalar", "1m", "1m"),
        ]
    );
    assert_eq!(changed.len() % 4, 0, "{changed:?}");
    let edited = &doc["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == "edited")
        .unwrap();
    assert_eq!(edited["before"]["value"]["rates"][0]["limit"], 6);
    assert_eq!(edited["after"]["value"]["rates"][0]["limit"], 60);
    assert_eq!(
        edited["valueDiff"],
        "  rates:\n- - limit: 6\n+ - limit: 60\n    window: 1m\n"
    );
}
