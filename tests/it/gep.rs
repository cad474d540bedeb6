//! GEP-713's strategy names (issue 49 item 5): every built-in kind's strategies in `status -o
//! json` and `explain`, and kinds a families file declares by a GEP strategy alone, merged as
//! the GEP defines each strategy.

use crate::common::{dopol, rules, triples};
use serde_json::{Value, json};

const FAMILIES: &str = "testdata/families/gep/families.yaml";
const MANIFESTS: &str = "testdata/families/gep/manifests.yaml";
const PATH: &str = "example|infra/gw|infra/gw#http|shop/cart|shop/cart#pay";

/// `(policy locator, family word, GEP name)` of every strategy of every status item of `args`.
fn strategies(args: &[&str]) -> Vec<(String, String, String)> {
    let mut argv = vec!["status", "-o", "json"];
    argv.extend_from_slice(args);
    let out = dopol(&argv);
    out.code(0);
    let doc = out.json();
    let mut found = Vec::new();
    for item in doc["items"].as_array().unwrap() {
        for s in item["strategies"].as_array().unwrap() {
            found.push((text(&item["policy"]), text(&s["strategy"]), text(&s["gep"])));
        }
    }
    found
}

fn text(value: &Value) -> String {
    value.as_str().unwrap().to_string()
}

#[test]
fn kuadrant_blocks_are_named_by_kind_and_strategy() {
    let rlp = "ratelimitpolicy.kuadrant.io:";
    assert_eq!(
        strategies(&["-f", "testdata/examples/shop", "--kind", "RateLimitPolicy"]),
        triples(&[
            (
                &format!("{rlp}infra/http-limits"),
                "merge",
                "Patch defaults"
            ),
            (
                &format!("{rlp}infra/platform-limits"),
                "merge",
                "Patch overrides"
            ),
            (
                &format!("{rlp}shop/checkout-limits"),
                "atomic",
                "Atomic defaults"
            ),
        ])
    );
}

#[test]
fn envoy_gateway_names_merge_type_and_its_absence() {
    let btp = "backendtrafficpolicy.gateway.envoyproxy.io:";
    let json_merge =
        "testdata/realworld/envoy-gateway/backendtrafficpolicy-compression-json-merge.in.yaml";
    assert_eq!(
        strategies(&["-f", json_merge]),
        triples(&[
            (
                &format!("{btp}default/route-compression-policy"),
                "JSONMerge",
                "Patch defaults"
            ),
            (
                &format!("{btp}envoy-gateway/gateway-compression-policy"),
                "most specific slot",
                "Atomic defaults"
            ),
        ])
    );
    let strategic = "testdata/fidelity2/envoy-merge-local-ratelimit/backendtrafficpolicy-strategic-merge-local-ratelimit.in.yaml";
    assert_eq!(
        strategies(&["-f", strategic])[0],
        triples(&[(
            &format!("{btp}default/policy-for-route"),
            "StrategicMerge",
            "Custom"
        )])[0]
    );
}

#[test]
fn agentgateway_names_inheritance() {
    let agw = "agentgatewaypolicy.agentgateway.dev:";
    assert_eq!(
        strategies(&["-f", "testdata/agentgateway/override-lock"]),
        triples(&[
            (
                &format!("{agw}shop/api-rule"),
                "Override",
                "Patch overrides"
            ),
            (&format!("{agw}shop/app-route"), "Default", "Patch defaults"),
            (&format!("{agw}shop/gw-lock"), "Override", "Patch overrides"),
        ])
    );
}

#[test]
fn kgateway_and_kuma_name_their_merges() {
    for (input, word) in [
        ("testdata/kgateway/attach-targetrefs", "AugmentedShallow"),
        (
            "testdata/realworld/kuma/inspect-overriding-meshtimeout",
            "merge",
        ),
    ] {
        let found = strategies(&["-f", input]);
        assert!(!found.is_empty(), "{input}");
        for (policy, strategy, gep) in found {
            assert_eq!(
                (strategy.as_str(), gep.as_str()),
                (word, "Patch defaults"),
                "{policy}"
            );
        }
    }
}

/// Each explain step carries the GEP name beside the family's word, in JSON and in text.
#[test]
fn explain_steps_carry_the_gep_name() {
    let args = [
        "explain",
        "-f",
        "testdata/examples/shop",
        "--route",
        "shop/cart",
        "--rule",
        "checkout",
        "--listener",
        "https",
        "--kind",
        "RateLimitPolicy",
    ];
    let out = dopol(&[&args[..], &["-o", "json"]].concat());
    out.code(0);
    let doc = out.json();
    let steps = doc["items"][0]["kinds"][0]["steps"].as_array().unwrap();
    let pairs: Vec<(Value, Value, Value)> = (steps.iter())
        .map(|s| (s["block"].clone(), s["strategy"].clone(), s["gep"].clone()))
        .collect();
    assert_eq!(
        pairs,
        [
            (json!("bare"), json!("atomic"), json!("Atomic defaults")),
            (json!("overrides"), json!("merge"), json!("Patch overrides")),
        ]
    );
    let text = dopol(&args);
    text.stdout_has(&[
        "  [1] infra/platform-limits, overrides (merge): its rules win clashes; E keeps its other keys [GEP-713: Patch overrides]\n",
    ]);
}

/// `(rule key, value, source ns/name)` as a test writes it.
type Row<'a> = (&'a str, i64, &'a str);

/// A kind declared by `strategy: <GEP name>` merges as the GEP defines it: a Gateway policy
/// `{a: 1, b: 2}` and an HTTPRoute policy `{a: 10, c: 3}`, older Gateway policy.
#[test]
fn a_kind_declared_by_gep_strategy_merges_as_the_gep_says() {
    let out = dopol(&[
        "effective",
        "-o",
        "json",
        "--families",
        FAMILIES,
        "-f",
        MANIFESTS,
    ]);
    out.code(0);
    let doc = out.json();
    let effective = |kind: &str| -> Vec<(String, Value, String)> {
        (rules(&doc, kind, PATH).into_iter())
            .map(|r| {
                let source = r.source.rsplit_once(':').unwrap().1.to_string();
                (r.key, r.value, source)
            })
            .collect()
    };
    let rows = |list: &[Row]| -> Vec<(String, Value, String)> {
        (list.iter())
            .map(|(k, v, s)| (k.to_string(), json!(v), s.to_string()))
            .collect()
    };
    let (team, platform) = ("shop/team", "infra/platform");
    let expected: [(&str, &[Row]); 5] = [
        ("AtomicDefaultsPolicy", &[("a", 10, team), ("c", 3, team)]),
        (
            "PatchDefaultsPolicy",
            &[("a", 10, team), ("b", 2, platform), ("c", 3, team)],
        ),
        (
            "AtomicOverridesPolicy",
            &[("a", 1, platform), ("b", 2, platform)],
        ),
        (
            "PatchOverridesPolicy",
            &[("a", 1, platform), ("b", 2, platform), ("c", 3, team)],
        ),
        ("NonePolicy", &[("requests", 10, "shop/first")]),
    ];
    for (kind, list) in expected {
        assert_eq!(effective(kind), rows(list), "{kind}");
    }
}

/// Status names the declared strategy, and None rejects the challenger as the GEP requires.
#[test]
fn a_kind_declared_by_gep_strategy_reports_it() {
    let out = dopol(&[
        "status",
        "-o",
        "json",
        "--families",
        FAMILIES,
        "-f",
        MANIFESTS,
    ]);
    out.code(0);
    let doc = out.json();
    let item = |policy: &str| -> Value {
        let items = doc["items"].as_array().unwrap();
        let found = items.iter().find(|i| i["policy"] == policy);
        found.unwrap_or_else(|| panic!("{policy}")).clone()
    };
    for (kind, block, strategy, gep) in [
        ("atomicdefaultspolicy", "bare", "atomic", "Atomic defaults"),
        ("patchdefaultspolicy", "defaults", "merge", "Patch defaults"),
        (
            "atomicoverridespolicy",
            "overrides",
            "atomic",
            "Atomic overrides",
        ),
        (
            "patchoverridespolicy",
            "overrides",
            "merge",
            "Patch overrides",
        ),
    ] {
        let policy = item(&format!("{kind}.gep.example.com:shop/team"));
        assert_eq!(
            policy["strategies"],
            json!([{"block": block, "strategy": strategy, "gep": gep}]),
            "{kind}"
        );
    }
    let second = item("nonepolicy.gep.example.com:shop/second");
    assert_eq!(
        second["strategies"],
        json!([{"block": "spec", "strategy": "None", "gep": "None"}])
    );
    assert_eq!(second["conditions"][0]["status"], "False");
    assert_eq!(second["conditions"][0]["reason"], "Conflicted");
    let first = item("nonepolicy.gep.example.com:shop/first");
    assert_eq!(first["conditions"][0]["status"], "True");
}

/// What a declaration by strategy cannot say is an error at its line and column: Custom (no
/// merge to run), `model` beside `strategy`, None with more than one level.
#[test]
fn a_declaration_by_strategy_that_cannot_run_is_an_error() {
    let base = std::fs::read_to_string(crate::common::root().join(FAMILIES)).unwrap();
    let cases = [
        (
            base.replacen("strategy: AtomicDefaults", "strategy: Custom", 1),
            "`families[0].strategy`: `Custom` names no merge dopol can run; declare a `model` instead",
            ":8:13",
        ),
        (
            base.replacen(
                "strategy: PatchDefaults",
                "strategy: PatchDefaults\n  model: kuadrant",
                1,
            ),
            "`families[1].model`: a kind declared by `strategy` takes no `model` (the strategy decides the merge)",
            ":16:3",
        ),
        (
            base.replacen(
                "  targetKinds: [HTTPRoute]\n",
                "  targetKinds: [Gateway, HTTPRoute]\n",
                1,
            ),
            "`families[4].strategy`: None is for a kind with one target kind and `sectionName: false`",
            ":36:13",
        ),
        (
            base.replacen("strategy: AtomicDefaults", "strategy: Atomic", 1),
            "families[0].strategy",
            ":8:13",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (text, message, at) in cases {
        let file = dir.path().join("families.yaml");
        std::fs::write(&file, &text).unwrap();
        let file = file.to_string_lossy().into_owned();
        let out = dopol(&["effective", "--families", &file, "-f", MANIFESTS]);
        out.code(2)
            .stderr_has(&[message, &format!("families.yaml{at}")])
            .stderr_lacks(&["is not one of `kuadrant`"]);
    }
}
