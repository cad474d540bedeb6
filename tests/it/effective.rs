//! `dopol effective`: ordering, levels, targets, attachment, input forms and filters.

use crate::common::{ROUTE, dopol, effective, items, owners, root, rules, run_in, stream, triples};

#[test]
fn same_element_ordering_newest_default_oldest_override_name_tie_and_missing_timestamps() {
    let out = effective(&["testdata/ordering"], &[]);
    out.code(0);
    let doc = out.json();
    let path = "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1";
    // Defaults on one target: the newest wins; the older one still fills the gap.
    assert_eq!(
        owners(&doc, "AuthPolicy", path),
        triples(&[
            (
                "authentication#older-only",
                "z-older-default",
                "app/z-older-default"
            ),
            (
                "authentication#shared",
                "a-newer-default",
                "app/a-newer-default"
            ),
        ])
    );
    // Overrides on one target: the oldest wins.
    let limits = rules(&doc, "RateLimitPolicy", path);
    let shared = limits
        .iter()
        .find(|r| r.key == "shared")
        .expect("shared limit");
    assert_eq!(
        shared.source,
        "ratelimitpolicy.kuadrant.io:infra/z-older-override"
    );
    assert_eq!(shared.value["rates"][0]["limit"], 1);
    let newer_only = limits
        .iter()
        .find(|r| r.key == "newer-only")
        .expect("newer-only limit");
    assert_eq!(
        newer_only.source,
        "ratelimitpolicy.kuadrant.io:infra/a-newer-override"
    );
    // No timestamps: name order (beta counts as newer than alpha); a timestamped policy counts
    // as older than both.
    let tokens = rules(&doc, "TokenRateLimitPolicy", path);
    let got: Vec<(&str, &str, i64)> = tokens
        .iter()
        .map(|r| {
            (
                r.key.as_str(),
                r.source.as_str(),
                r.value["rates"][0]["limit"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("shared", "tokenratelimitpolicy.kuadrant.io:app/beta", 200),
            (
                "timestamped-only",
                "tokenratelimitpolicy.kuadrant.io:app/zeta-timestamped",
                400
            ),
        ]
    );
}

#[test]
fn listener_and_rule_level_policies_and_one_path_per_listener() {
    let out = effective(&["testdata/levels"], &[]);
    out.code(0);
    let doc = out.json();
    let id = |listener: &str, route_rule: &str| {
        format!(
            "kuadrant|infra/gw|infra/gw#{listener}|app/{}|app/{route_rule}",
            route_rule.split('#').next().unwrap()
        )
    };
    let expect = [
        ("http", "other#rule-1", "gateway-default", "infra/gw-limits"),
        ("http", "shop#login", "login", "app/login-limits"),
        ("http", "shop#rule-2", "gateway-default", "infra/gw-limits"),
        ("https", "other#rule-1", "https-only", "infra/https-limits"),
        ("https", "shop#login", "login", "app/login-limits"),
        ("https", "shop#rule-2", "https-only", "infra/https-limits"),
    ];
    let paths: Vec<String> = items(&doc).into_iter().map(|(_, p)| p).collect();
    assert_eq!(
        paths,
        expect
            .iter()
            .map(|(l, r, _, _)| id(l, r))
            .collect::<Vec<_>>(),
        "six paths, in order"
    );
    for (listener, route_rule, key, source) in expect {
        let got = rules(&doc, "RateLimitPolicy", &id(listener, route_rule));
        assert_eq!(got.len(), 1, "{listener} {route_rule}");
        assert_eq!(got[0].key, key);
        assert_eq!(
            got[0].source,
            format!("ratelimitpolicy.kuadrant.io:{source}")
        );
    }
}

#[test]
fn missing_targets_and_sections_make_policies_not_accepted() {
    let out = effective(&["testdata/targets"], &[]);
    out.code(0).stderr_has(&[
        "[DPL3001] HTTPRoute target shopp was not found; AuthPolicy app/missing-route is not accepted",
        "did you mean `shop`?",
        "[DPL3002] Gateway target gw#htps was not found",
        "did you mean `https`?",
        "[DPL3002] HTTPRoute target shop#logout was not found",
        "[DPL3001] Gateway target gw was not found in namespace `app` (a Gateway gw exists in namespace `infra`); AuthPolicy app/wrong-namespace is not accepted (TargetNotFound)",
        "help: a targetRef names an object in the policy's own namespace (`app`); create AuthPolicy app/wrong-namespace in namespace `infra` instead",
        "testdata/targets/manifests.yaml:22:72",
    ]);
    let doc = out.json();
    assert_eq!(
        owners(
            &doc,
            "AuthPolicy",
            "kuadrant|infra/gw|infra/gw#https|app/shop|app/shop#login"
        ),
        triples(&[("authentication#ok", "accepted", "app/accepted")])
    );
    assert_eq!(items(&doc).len(), 1);
}

#[test]
fn attachment_follows_allowed_routes_kinds_and_hostnames() {
    let out = effective(&["testdata/attachment"], &["-v"]);
    out.code(0).stderr_has(&[
        "[DPL2003] no listener of Gateway infra/gw allows HTTPRoute team-a/cross-namespace",
        "accepts routes from its own namespace (infra) only (NotAllowedByListeners)",
        "[DPL2004] the hostnames of HTTPRoute team-a/wrong-host (shop.example.org)",
        "[DPL2002] Gateway infra/gw has no listener named `publik` (NoMatchingParent)",
        "did you mean `public`?",
        "does not list kind HTTPRoute in allowedRoutes.kinds",
        "[DPL2001] parentRef names Gateway infra/elsewhere, which is not in the input",
        "[DPL2008] listener `team-a-only` of Gateway infra/gw selects namespaces by label, but Namespace `unknown` is not in the input",
    ]);
    let paths: Vec<String> = items(&out.json()).into_iter().map(|(_, p)| p).collect();
    assert_eq!(
        paths,
        [
            "kuadrant|infra/gw|infra/gw#public|team-a/shop|team-a/shop#rule-1",
            "kuadrant|infra/gw|infra/gw#public|team-b/b-shop|team-b/b-shop#rule-1",
            "kuadrant|infra/gw|infra/gw#team-a-only|team-a/shop|team-a/shop#rule-1",
            "kuadrant|infra/gw|infra/gw#team-a-only|unknown/unknown-ns|unknown/unknown-ns#rule-1",
        ]
    );
}

#[test]
fn info_diagnostics_are_counted_when_hidden() {
    effective(&["testdata/attachment"], &[])
        .code(0)
        .stderr_has(&["note: 1 info diagnostic not shown (use -v)"])
        .stderr_lacks(&["DPL2008"]);
}

#[test]
fn output_is_byte_identical_across_runs_and_formats_parse() {
    for format in ["json", "yaml", "table"] {
        let a = dopol(&["effective", "-f", "testdata/levels", "-o", format]);
        let b = dopol(&["effective", "-f", "testdata/levels", "-o", format]);
        a.code(0);
        assert_eq!(a.stdout, b.stdout, "{format} differs between runs");
        assert!(!a.stdout.is_empty());
    }
    let yaml = dopol(&["effective", "-f", "testdata/rfc0009/d2", "-o", "yaml"]).stdout;
    assert!(
        yaml.starts_with("apiVersion: dopol/v1\nkind: EffectivePolicyList\nitems:\n"),
        "{yaml}"
    );
    assert!(
        yaml.contains("source: authpolicy.kuadrant.io:infra/gw-auth"),
        "{yaml}"
    );
}

#[test]
fn table_groups_by_gateway_listener_and_route_rule() {
    let out = dopol(&["effective", "-f", "testdata/rfc0009/d2"]);
    out.code(0);
    let expected = "\
Gateway infra/gw (class kuadrant)
LISTENER  ROUTE RULE        KIND        RULE KEY          SOURCE          VALUE
http      app/route#rule-1  AuthPolicy  authentication#a  infra/gw-auth   {plain: {selector: gateway}, metrics: false, priority: 0}
                                        authorization#b   infra/gw-auth   {opa: {rego: gateway, allValues: false}, metrics: false, priority: 0}
                                        authorization#d   app/route-auth  {opa: {rego: route, allValues: false}, metrics: false, priority: 0}
";
    assert_eq!(out.stdout, expected);
}

#[test]
fn filters_by_kind_namespace_gateway_route_and_policy() {
    let paths = |extra: &[&str]| -> Vec<(String, String)> {
        items(&effective(&["testdata/levels"], extra).json())
    };
    let all = paths(&[]);
    assert_eq!(all.len(), 6);
    let kinds = |extra: &[&str]| -> Vec<String> {
        items(&effective(&["testdata/ordering"], extra).json())
            .into_iter()
            .map(|(k, _)| k)
            .collect()
    };
    assert_eq!(
        kinds(&[]),
        ["AuthPolicy", "RateLimitPolicy", "TokenRateLimitPolicy"]
    );
    assert_eq!(kinds(&["--kind", "AuthPolicy"]), ["AuthPolicy"]);
    assert_eq!(
        kinds(&[
            "--kind",
            "tokenratelimitpolicies",
            "--kind",
            "ratelimitpolicy"
        ]),
        ["RateLimitPolicy", "TokenRateLimitPolicy"]
    );
    assert_eq!(paths(&["-n", "app"]).len(), 6, "routes in app");
    // A namespace no object is in would show nothing: a usage error, not an empty answer.
    effective(&["testdata/levels"], &["-n", "elsewhere"])
        .code(2)
        .stderr_has(&["-n `elsewhere` matches no namespace of a Gateway, route or policy"]);
    assert_eq!(paths(&["--route", "app/shop"]).len(), 4);
    assert_eq!(
        paths(&["--route", "other", "--gateway", "infra/gw"]).len(),
        2
    );
    assert_eq!(
        paths(&["--policy", "infra/https-limits"]).len(),
        3,
        "every https path has the listener policy on it"
    );
    assert_eq!(
        paths(&["--policy", "RateLimitPolicy/app/login-limits"]).len(),
        2
    );
    assert_eq!(
        paths(&["--policy", "ratelimitpolicy.kuadrant.io:app/login-limits"]).len(),
        2
    );
    let bad = dopol(&[
        "effective",
        "-f",
        "testdata/levels",
        "--policy",
        "app/login-limit",
    ]);
    bad.code(2)
        .stderr_has(&["no policy matches `app/login-limit`; did you mean `app/login-limits`?"]);
    dopol(&["effective", "-f", "testdata/levels", "--kind", "Nope"])
        .code(2)
        .stderr_has(&["unknown policy kind `Nope`"]);
}

#[test]
fn inputs_globs_stdin_lists_json_and_repeated_files() {
    let glob = effective(&["testdata/rfc0009/d*/*.yaml"], &[]);
    glob.code(3);
    assert_eq!(
        items(&glob.json()).len(),
        1,
        "d1 and d2 define the same objects: duplicates reported"
    );
    glob.stderr_has(&["[DPL1006]"]);

    let repeated = effective(
        &["testdata/rfc0009/a1", "testdata/rfc0009/a1/policies.yaml"],
        &[],
    );
    repeated.code(0).stderr_lacks(&["DPL1006"]);

    let stdin = std::fs::read(root().join("testdata/rfc0009/b2/topology.yaml")).unwrap();
    let mut input = stdin.clone();
    input.extend_from_slice(b"\n---\n");
    input.extend(std::fs::read(root().join("testdata/rfc0009/b2/policies.yaml")).unwrap());
    let out = run_in(
        &root(),
        &["effective", "-o", "json", "-f", "-"],
        Some(&input),
    );
    out.code(0);
    assert_eq!(
        owners(
            &out.json(),
            "AuthPolicy",
            "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1"
        )
        .len(),
        2
    );

    let list = effective(&["testdata/formats"], &[]);
    list.code(0);
    let doc = list.json();
    assert_eq!(
        owners(
            &doc,
            "AuthPolicy",
            "kuadrant|infra/gw|infra/gw#http|app/from-list|app/from-list#rule-1"
        ),
        triples(&[("authentication#listed", "list", "app/from-list-auth")])
    );
    assert_eq!(
        owners(
            &doc,
            "AuthPolicy",
            "kuadrant|infra/gw|infra/gw#http|app/from-json|app/from-json#rule-1"
        ),
        triples(&[("authentication#json", "json", "app/from-json-auth")])
    );
    // A file of concatenated JSON objects (`kubectl get -o json` of several objects).
    assert_eq!(
        owners(
            &doc,
            "AuthPolicy",
            "kuadrant|infra/gw|infra/gw#http|app/from-stream|app/from-stream#rule-1"
        ),
        triples(&[("authentication#stream", "stream", "app/from-stream-auth")])
    );
}

#[test]
fn an_empty_kinds_list_allows_the_listener_protocol_defaults() {
    // `allowedRoutes.kinds: []` is the same as leaving it out (the API server defaults it).
    let manifest = &stream(&[
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: kuadrant
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}, kinds: []}}

",
        ROUTE,
        "apiVersion: kuadrant.io/v1
kind: AuthPolicy
metadata: {name: auth, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}
  rules: {authentication: {a: {plain: {selector: route}}}}
",
    ]);
    let out = run_in(
        &root(),
        &["effective", "-f", "-", "-o", "json"],
        Some(manifest.as_slice()),
    );
    out.code(0);
    assert_eq!(
        owners(
            &out.json(),
            "AuthPolicy",
            "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1"
        ),
        triples(&[("authentication#a", "route", "app/auth")])
    );
}

#[test]
fn default_namespace_comes_from_dash_n() {
    let out = effective(&["testdata/namespaceless"], &["-n", "team"]);
    out.code(0);
    assert_eq!(
        items(&out.json()),
        [(
            "RateLimitPolicy".to_string(),
            "kuadrant|team/gw|team/gw#http|team/route|team/route#rule-1".to_string()
        )]
    );
    let default = effective(&["testdata/namespaceless"], &[]);
    assert_eq!(
        items(&default.json())[0].1,
        "kuadrant|default/gw|default/gw#http|default/route|default/route#rule-1"
    );
}

#[test]
fn assume_gateways_creates_stand_ins_for_application_repositories() {
    let without = effective(
        &[
            "testdata/realworld/kuadrant-operator/examples/toystore/httproute.yaml",
            "testdata/realworld/kuadrant-operator/examples/toystore/ratelimitpolicy_httproute.yaml",
        ],
        &[],
    );
    without
        .code(0)
        .stderr_has(&["[DPL2001]", "--assume-gateways"]);
    assert!(items(&without.json()).is_empty());
    let with = effective(
        &[
            "testdata/realworld/kuadrant-operator/examples/toystore/httproute.yaml",
            "testdata/realworld/kuadrant-operator/examples/toystore/ratelimitpolicy_httproute.yaml",
        ],
        &["--assume-gateways", "-v"],
    );
    with.code(0).stderr_has(&["[DPL2009] Gateway gateway-system/kuadrant-ingressgateway is not in the input; assuming a stand-in"]);
    let keys: Vec<String> = rules(&with.json(), "RateLimitPolicy", "unknown|gateway-system/kuadrant-ingressgateway|gateway-system/kuadrant-ingressgateway#default|default/toystore|default/toystore#rule-1")
        .into_iter()
        .map(|r| r.key)
        .collect();
    assert_eq!(
        keys,
        [
            "admin-delete-per-user",
            "admin-post-toy-per-user",
            "get-toy",
            "global"
        ]
    );
}

#[test]
fn unserved_api_version_is_reported_and_still_evaluated_as_v1() {
    let out = effective(&["testdata/deprecated"], &[]);
    out.code(0).stderr_has(&[
        "⚠ [DPL1007] RateLimitPolicy infra/old uses `kuadrant.io/v1beta3`, which is not served by Kuadrant >= 1.0 (the API server rejects it); migrate to kuadrant.io/v1",
        "help: change `apiVersion` to kuadrant.io/v1; dopol evaluates this object as v1 meanwhile",
    ]);
    let doc = out.json();
    assert_eq!(items(&doc).len(), 1);
    let rules = rules(
        &doc,
        "RateLimitPolicy",
        "kuadrant|infra/gw|infra/gw#http|infra/route|infra/route#rule-1",
    );
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0].key, "global");
    assert_eq!(rules[0].source, "ratelimitpolicy.kuadrant.io:infra/old");
    // lint fails on it with the default --fail-on error.
    dopol(&["lint", "-f", "testdata/deprecated"])
        .code(1)
        .stdout_has(&["× [DPL1007]"]);
}

#[test]
fn fast_json_matches_the_serde_rendering_of_the_report() {
    use dopol::engine::Engine;
    use dopol::pipeline::{InputOptions, evaluate_files};
    use dopol::report::{effective, filter::Filters};
    // Over 4,096 items, so items are written in several batches: one fold shared by every
    // route, and every 997th route with a fold of its own, some first used in a later batch.
    let many = tempfile::tempdir().unwrap();
    let mut text = many_routes(4500);
    for i in (0..4500).step_by(997) {
        text.push_str(&format!(
            "---\napiVersion: kuadrant.io/v1\nkind: RateLimitPolicy\nmetadata: {{name: r{i}, namespace: app}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route-{i}}}\n  limits:\n    own: {{rates: [{{limit: {i}, window: 1m}}]}}\n"
        ));
    }
    std::fs::write(many.path().join("many.yaml"), text).unwrap();
    let many = many.path().display().to_string();
    for dir in [
        "testdata/levels",
        "testdata/ordering",
        "testdata/rfc0009/d2",
        "testdata/formats",
        "testdata/bad/empty",
        &many,
    ] {
        let options = InputOptions {
            files: vec![crate::common::root().join(dir).display().to_string()],
            ..InputOptions::default()
        };
        let evaluated = evaluate_files(&options);
        let (engine, _) = Engine::new(&evaluated.model, &evaluated.topology);
        let (set, _) = engine.effective_all();
        let report = effective::build(&engine, &set, &Filters::default());
        let mut fast = Vec::new();
        dopol::render::effective_json::write(&mut fast, &report).unwrap();
        let reference = serde_json::to_string_pretty(&report).unwrap() + "\n";
        assert_eq!(String::from_utf8(fast).unwrap(), reference, "{dir}");
        if dir == many {
            assert!(report.items.len() > 4096, "{}", report.items.len());
            assert!(report.fold_count() >= 6, "{}", report.fold_count());
        }
    }
}

/// A stream with one Gateway, `routes` HTTPRoutes and a limit on the Gateway: one path per route.
fn many_routes(routes: usize) -> String {
    let mut text = String::from(crate::common::GATEWAY);
    text.push_str(
        "---\napiVersion: kuadrant.io/v1\nkind: RateLimitPolicy\nmetadata: {name: gw-limits, namespace: infra}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}\n  limits:\n    per-client: {rates: [{limit: 100, window: 1m}]}\n",
    );
    for i in 0..routes {
        text.push_str("---\n");
        text.push_str(&ROUTE.replace("name: route,", &format!("name: route-{i},")));
    }
    text
}

#[test]
fn a_closed_pipe_ends_the_run_quietly_with_exit_0() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.yaml");
    std::fs::write(&file, many_routes(3000)).unwrap();
    for format in ["json", "yaml"] {
        let args = ["effective", "-f", file.to_str().unwrap(), "-o", format];
        // The whole document is far bigger than a pipe's buffer and the writer's.
        assert!(dopol(&args).code(0).stdout.len() > 512 * 1024, "{format}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_dopol"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{format}");
        assert!(head.starts_with(if format == "json" {
            b"{"
        } else {
            b"apiVersion"
        }));
    }
}

#[test]
fn compact_json_lists_each_policy_once_and_maps_every_path_to_it() {
    for dir in [
        "testdata/levels",
        "testdata/ordering",
        "testdata/examples/shop",
        "testdata/rfc0009/d2",
    ] {
        let full = effective(&[dir], &[]).code(0).json();
        let compact = effective(&[dir], &["--compact"]).code(0).json();
        assert_eq!(compact["apiVersion"], "dopol/v1");
        assert_eq!(compact["kind"], "EffectivePolicyIndex");
        let policies = compact["policies"].as_object().unwrap();
        let paths = compact["paths"].as_object().unwrap();
        // Every item of the full list is found through its path and kind, with the same rules.
        let items = full["items"].as_array().unwrap();
        for item in items {
            let kind = item["policyKind"].as_str().unwrap();
            let id = paths[item["pathId"].as_str().unwrap()][kind]
                .as_str()
                .unwrap();
            let policy = &policies[id];
            assert_eq!(policy["policyKind"], item["policyKind"], "{dir} {id}");
            assert_eq!(policy["rules"], item["rules"], "{dir} {id}");
            assert_eq!(policy["sources"], item["sources"], "{dir} {id}");
        }
        // Nothing more: as many references as items, every policy used, none listed twice.
        let references: Vec<&str> = paths
            .values()
            .flat_map(|kinds| kinds.as_object().unwrap().values())
            .map(|id| id.as_str().unwrap())
            .collect();
        assert_eq!(references.len(), items.len(), "{dir}");
        for (id, policy) in policies {
            assert!(references.contains(&id.as_str()), "{dir}: {id} unused");
            let twins = policies.values().filter(|other| *other == policy).count();
            assert_eq!(twins, 1, "{dir}: {id} listed twice");
        }
    }
}

#[test]
fn compact_json_values_filters_and_usage() {
    let doc = effective(&["testdata/levels"], &["--compact"])
        .code(0)
        .json();
    let login = "kuadrant|infra/gw|infra/gw#http|app/shop|app/shop#login";
    assert_eq!(
        doc["paths"][login],
        serde_json::json!({"RateLimitPolicy": "p1"})
    );
    assert_eq!(
        doc["policies"]["p1"]["rules"]["login"]["value"]["rates"][0]["limit"],
        5
    );
    assert_eq!(
        doc["policies"]["p1"]["sources"],
        serde_json::json!(["ratelimitpolicy.kuadrant.io:app/login-limits"])
    );
    assert_eq!(doc["policies"].as_object().unwrap().len(), 3);
    // Filters apply as in the full list.
    let auth = effective(
        &["testdata/ordering"],
        &["--compact", "--kind", "AuthPolicy"],
    )
    .code(0)
    .json();
    let kinds: Vec<&str> = auth["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|k| k.as_object().unwrap().keys().map(String::as_str))
        .collect();
    assert!(
        !kinds.is_empty() && kinds.iter().all(|k| *k == "AuthPolicy"),
        "{kinds:?}"
    );
    // Only with -o json.
    dopol(&["effective", "-f", "testdata/levels", "--compact"])
        .code(2)
        .stderr_has(&["--compact needs -o json"]);
}
