//! CRD validation (issue #17), one fixture per schema feature (testdata/crd/features/, see its
//! README): every feature of the structural schema and of `x-kubernetes-validations` on a
//! made-up kind given with `--crds` and declared in a families file, a typo fixture per kind
//! family, `--crds` (directories, `kubectl get crd -o yaml` Lists, invalid files, a bundled
//! kind's CRD replaced), `--gateway-api-channel`, defaults, and the invariants: a refused
//! object is left out while the rest of the input is evaluated (exit 3), and a kind without a
//! CRD is evaluated as before. Every message is the API server's, pinned with its line and
//! column.

use crate::common::{Output, dopol, rules};
use serde_json::{Value, json};

const FEATURES: &str = "testdata/crd/features";
const FAMILIES: &str = "testdata/crd/features/families.yaml";
const CRDS: &str = "testdata/crd/features/crds";

/// `(code, line, column, message)` of one CRD diagnostic.
type Crd = (String, u64, u64, String);

/// The CRD diagnostics (DPL1009, DPL1015–DPL1019) of a `dopol lint -o json` run, in order.
pub(crate) fn crd_findings(out: &Output) -> Vec<Crd> {
    let doc = out.json();
    doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| {
            let code = d["code"].as_str().unwrap();
            code == "DPL1009" || ("DPL1015"..="DPL1019").contains(&code)
        })
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["column"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub(crate) fn owned(expected: &[(&str, u64, u64, &str)]) -> Vec<Crd> {
    expected
        .iter()
        .map(|(c, l, col, m)| (c.to_string(), *l, *col, m.to_string()))
        .collect()
}

/// `dopol lint -o json --families FAMILIES --crds CRDS -f <file>` plus `extra`.
fn lint_widgets(file: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "lint",
        "-o",
        "json",
        "--families",
        FAMILIES,
        "--crds",
        CRDS,
        "-f",
        file,
    ];
    args.extend_from_slice(extra);
    dopol(&args)
}

/// `testdata/crd/features/widget/<name>.yaml` gives exactly these CRD findings, exit 3.
fn widget(name: &str, expected: &[(&str, u64, u64, &str)]) {
    let file = format!("{FEATURES}/widget/{name}.yaml");
    let out = lint_widgets(&file, &[]);
    out.code(3);
    assert_eq!(crd_findings(&out), owned(expected), "{file}");
}

/// The help of the first diagnostic whose message is `message`.
fn help_of(out: &Output, message: &str) -> String {
    let doc = out.json();
    let found = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"] == message)
        .unwrap_or_else(|| panic!("no diagnostic {message:?}:\n{}", out.stdout));
    found["help"].as_str().unwrap_or("").to_string()
}

/// The effective items' `(policyKind, source)` pairs, sorted and deduplicated.
fn sources(doc: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| {
            let kind = i["policyKind"].as_str().unwrap().to_string();
            i["sources"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |s| (kind.clone(), s.as_str().unwrap().to_string()))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

// --- one fixture per schema feature (Widget, testdata/crd/features/crds/widgets.yaml) ---

/// `additionalProperties`: a schema checks every value; `false` forbids any key (kube-openapi's `forbidden property`, not an unknown field: pruning keeps the key).
#[test]
fn widget_additional_properties() {
    widget(
        "additional-properties",
        &[
            (
                "DPL1015",
                17,
                18,
                "spec.labels.team: Too long: may not be more than 5 bytes",
            ),
            (
                "DPL1015",
                17,
                34,
                "spec.labels.tier: Invalid value: \"integer\": spec.labels.tier in body must be of type string: \"integer\"",
            ),
            (
                "DPL1015",
                25,
                12,
                "spec.sealed: Invalid value: \"anything\": spec.sealed.anything in body is a forbidden property",
            ),
        ],
    );
}

/// A blocking error (`Unsupported value`) stops the rules (one "not checked" error); a non-blocking one (`pattern`) does not, so the false rule is reported too.
#[test]
fn widget_blocking() {
    widget(
        "blocking",
        &[
            (
                "DPL1015",
                8,
                9,
                "spec.mode: Unsupported value: \"medium\": supported values: \"fast\", \"slow\"",
            ),
            (
                "DPL1016",
                16,
                3,
                "spec: Invalid value: \"object\": min must not exceed max",
            ),
            (
                "DPL1015",
                18,
                9,
                "spec.code: Invalid value: \"ABC\": spec.code in body should match '^[a-z]+$'",
            ),
        ],
    );
}

/// `minimum`/`maximum` (inclusive) and `exclusiveMinimum`/`exclusiveMaximum`.
#[test]
fn widget_bounds() {
    widget(
        "bounds",
        &[
            (
                "DPL1015",
                17,
                13,
                "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
            ),
            (
                "DPL1015",
                18,
                10,
                "spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0",
            ),
            (
                "DPL1015",
                26,
                13,
                "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
            ),
            (
                "DPL1015",
                27,
                10,
                "spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1",
            ),
        ],
    );
}

/// `allOf`, `anyOf`, `oneOf` (none valid, two valid) and `not`: the composite error without a field, then the failing branch's errors.
#[test]
fn widget_combinators() {
    widget(
        "combinators",
        &[
            (
                "DPL1015",
                19,
                15,
                "<nil>: Invalid value: \"\": \"spec.allOfField\" must validate all the schemas (allOf)",
            ),
            (
                "DPL1015",
                19,
                15,
                "spec.allOfField: Too long: may not be more than 4 bytes",
            ),
            (
                "DPL1015",
                27,
                15,
                "<nil>: Invalid value: \"\": \"spec.anyOfField\" must validate at least one schema (anyOf)",
            ),
            (
                "DPL1015",
                27,
                15,
                "spec.anyOfField: Invalid value: \"mmm\": spec.anyOfField in body should match '^a'",
            ),
            (
                "DPL1015",
                35,
                15,
                "<nil>: Invalid value: \"\": \"spec.oneOfField\" must validate one and only one schema (oneOf). Found none valid",
            ),
            (
                "DPL1015",
                35,
                15,
                "spec.oneOfField: Invalid value: \"mmm\": spec.oneOfField in body should match '^a'",
            ),
            (
                "DPL1015",
                43,
                15,
                "<nil>: Invalid value: \"\": \"spec.oneOfField\" must validate one and only one schema (oneOf). Found 2 valid alternatives",
            ),
            (
                "DPL1015",
                51,
                13,
                "<nil>: Invalid value: \"\": \"spec.notField\" must not validate the schema (not)",
            ),
        ],
    );
}

/// `enum`: `Unsupported value` with the supported values, quoted.
#[test]
fn widget_enum() {
    widget(
        "enum",
        &[(
            "DPL1015",
            17,
            9,
            "spec.mode: Unsupported value: \"medium\": supported values: \"fast\", \"slow\"",
        )],
    );
}

/// `format`: date-time, ipv4 and uuid (a format error is a type error for the API server, so the rules are not checked).
#[test]
fn widget_format() {
    widget(
        "format",
        &[
            (
                "DPL1015",
                18,
                14,
                "spec.createdAt: Invalid value: \"yesterday\": spec.createdAt in body must be of type date-time: \"yesterday\"",
            ),
            (
                "DPL1015",
                19,
                12,
                "spec.address: Invalid value: \"10.0.0.256\": spec.address in body must be of type ipv4: \"10.0.0.256\"",
            ),
            (
                "DPL1015",
                20,
                7,
                "spec.id: Invalid value: \"not-a-uuid\": spec.id in body must be of type uuid: \"not-a-uuid\"",
            ),
        ],
    );
}

/// `x-kubernetes-int-or-string`: `80` and `http` pass, `true` does not.
#[test]
fn widget_int_or_string() {
    widget(
        "int-or-string",
        &[(
            "DPL1015",
            24,
            9,
            "spec.port: Invalid value: \"boolean\": spec.port in body must be of type integer,string: \"boolean\"",
        )],
    );
}

/// `minItems`, `maxItems` (`Too many`, which stops the rules) and `x-kubernetes-list-type: set`: in `[a, a, b, a]` only the second `a` is a duplicate, as the API server reports it.
#[test]
fn widget_items() {
    widget(
        "items",
        &[
            (
                "DPL1015",
                16,
                9,
                "spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items",
            ),
            (
                "DPL1015",
                24,
                9,
                "spec.tags: Too many: 5: must have at most 4 items",
            ),
            ("DPL1015", 32, 13, "spec.tags[1]: Duplicate value: \"a\""),
        ],
    );
}

/// `minLength` (`should be at least`) and `maxLength` (`Too long`, which stops the rules), in
/// characters.
#[test]
fn widget_lengths() {
    widget(
        "lengths",
        &[
            (
                "DPL1015",
                16,
                9,
                "spec.name: Invalid value: \"ab\": spec.name in body should be at least 3 chars long",
            ),
            (
                "DPL1015",
                24,
                9,
                "spec.name: Too long: may not be more than 8 bytes",
            ),
            // Characters, not bytes: `éééééééé` (16 bytes) fits 8; `éé` (4 bytes) is short.
            (
                "DPL1015",
                42,
                9,
                "spec.name: Invalid value: \"éé\": spec.name in body should be at least 3 chars long",
            ),
        ],
    );
}

/// `x-kubernetes-list-type: map`: items with the same map keys (the keys printed sorted, as Go prints a map).
#[test]
fn widget_list_map() {
    widget(
        "list-map",
        &[(
            "DPL1015",
            20,
            5,
            "spec.ports[1]: Duplicate value: map[string]interface {}{\"name\":\"http\", \"protocol\":\"TCP\"}",
        )],
    );
}

/// A version the CRD lists with `served: false` (DPL1018, at the apiVersion value); the served version passes.
#[test]
fn widget_not_served() {
    widget(
        "not-served",
        &[(
            "DPL1018",
            2,
            13,
            "Widget default/old uses `example.dopol.dev/v1beta1`, which the CRD lists but no longer serves (served: v1); the API server rejects it",
        )],
    );
}

/// `nullable`: `team: null` is kept (nullable), `contact: null` is pruned, so the required `contact` is missing; `rate: null` (not required) is pruned silently.
#[test]
fn widget_nullable() {
    widget(
        "nullable",
        &[("DPL1015", 17, 11, "spec.owner.contact: Required value")],
    );
}

/// `pattern`: the pattern as the CRD writes it.
#[test]
fn widget_pattern() {
    widget(
        "pattern",
        &[(
            "DPL1015",
            16,
            9,
            "spec.code: Invalid value: \"ABC\": spec.code in body should match '^[a-z]+$'",
        )],
    );
}

/// `x-kubernetes-preserve-unknown-fields`: anything below `extra` passes; a misspelled `extras` beside it is an unknown field, with a suggestion.
#[test]
fn widget_preserve_unknown_fields() {
    widget(
        "preserve-unknown-fields",
        &[("DPL1009", 18, 3, "unknown field \"spec.extras\"")],
    );
}

/// `required`: `spec.size` missing, and `spec` itself (the root's `required`).
#[test]
fn widget_required() {
    widget(
        "required",
        &[
            ("DPL1015", 6, 3, "spec.size: Required value"),
            ("DPL1015", 9, 1, "spec: Required value"),
        ],
    );
}

/// `x-kubernetes-validations`: `message`, `messageExpression` (evaluated), `fieldPath` with `reason: FieldValueRequired` (`spec.rate: Required value: ...`), and a rule on a nested field, reported at that field.
#[test]
fn widget_rules() {
    widget(
        "rules",
        &[
            (
                "DPL1016",
                19,
                3,
                "spec: Invalid value: \"object\": min must not exceed max",
            ),
            (
                "DPL1016",
                28,
                3,
                "spec: Invalid value: \"object\": a huge widget needs 3 replicas, not 2",
            ),
            (
                "DPL1016",
                36,
                3,
                "spec.rate: Required value: a slow widget needs a rate",
            ),
            (
                "DPL1016",
                46,
                11,
                "spec.window: Invalid value: \"object\": start must be before end",
            ),
        ],
    );
}

/// `type`: a string given a number, a boolean a string, an integer a fraction, an array a map. Each is a type error, which stops the rules (one "not checked" error per object, at its first key).
#[test]
fn widget_type() {
    widget(
        "type",
        &[
            (
                "DPL1015",
                16,
                9,
                "spec.size: Invalid value: \"integer\": spec.size in body must be of type string: \"integer\"",
            ),
            (
                "DPL1015",
                24,
                12,
                "spec.enabled: Invalid value: \"string\": spec.enabled in body must be of type boolean: \"string\"",
            ),
            (
                "DPL1015",
                32,
                13,
                "spec.replicas: Invalid value: \"number\": spec.replicas in body must be of type integer: \"number\"",
            ),
            (
                "DPL1015",
                40,
                9,
                "spec.tags: Invalid value: \"object\": spec.tags in body must be of type array: \"object\"",
            ),
        ],
    );
}

/// Defaults: `replicas: 1` and `tuning` (an empty default object whose properties have
/// defaults) are applied before the family merges, so they are effective rules; values the
/// object sets are kept.
#[test]
fn widget_defaults_are_effective() {
    let file = format!("{FEATURES}/widget/defaults.yaml");
    let out = dopol(&[
        "effective",
        "-o",
        "json",
        "--families",
        FAMILIES,
        "--crds",
        CRDS,
        "-f",
        &file,
    ]);
    out.code(0);
    let doc = out.json();
    let values = |route: &str| -> Vec<(String, Value)> {
        let path =
            format!("example|default/gw|default/gw#http|default/{route}|default/{route}#rule-1");
        rules(&doc, "Widget", &path)
            .into_iter()
            .map(|r| (r.key, r.value))
            .collect()
    };
    assert_eq!(
        values("a"),
        vec![
            ("replicas".to_string(), json!(1)),
            ("size".to_string(), json!("small")),
            (
                "tuning".to_string(),
                json!({"level": "normal", "weight": 5})
            ),
        ]
    );
    assert_eq!(
        values("b"),
        vec![
            ("replicas".to_string(), json!(4)),
            ("size".to_string(), json!("small")),
            ("tuning".to_string(), json!({"level": "high", "weight": 5})),
        ]
    );
}

/// `explain` names every field the CRD's defaults added to a policy, with its value, in JSON
/// and in the text; fields the policy wrote are not listed.
#[test]
fn explain_says_what_was_defaulted() {
    let file = format!("{FEATURES}/widget/defaults.yaml");
    let explain = |route: &str, format: &str| {
        let out = dopol(&[
            "explain",
            "-o",
            format,
            "--families",
            FAMILIES,
            "--crds",
            CRDS,
            "-f",
            &file,
            "--route",
            route,
        ]);
        out.code(0);
        out
    };
    let defaulted = |route: &str| -> Vec<(String, Value)> {
        let doc = explain(route, "json").json();
        let policies = &doc["items"][0]["kinds"][0]["policies"];
        assert_eq!(policies.as_array().map(Vec::len), Some(1), "{doc}");
        (policies[0]["defaulted"]
            .as_array()
            .cloned()
            .unwrap_or_default())
        .iter()
        .map(|d| {
            (
                d["field"].as_str().unwrap_or("").to_string(),
                d["value"].clone(),
            )
        })
        .collect()
    };
    assert_eq!(
        defaulted("default/a"),
        vec![
            ("spec.replicas".to_string(), json!(1)),
            (
                "spec.tuning".to_string(),
                json!({"level": "normal", "weight": 5})
            ),
        ]
    );
    assert_eq!(
        defaulted("default/b"),
        vec![("spec.tuning.weight".to_string(), json!(5))]
    );
    let text = explain("default/b", "table").stdout;
    assert!(
        text.contains("  Defaulted by the CRD (the API server adds them; the fold reads them as written):\n  [1] spec.tuning.weight = 5\n"),
        "{text}"
    );
}

/// Defaults of a bundled CRD (Envoy Gateway BackendTrafficPolicy): `retry: {}` becomes
/// `numRetries: 2`, the circuit breaker's unset limits 1024.
#[test]
fn bundled_crd_defaults_are_effective() {
    let out = dopol(&[
        "effective",
        "-o",
        "json",
        "-f",
        &format!("{FEATURES}/typos/envoy-gateway.yaml"),
    ]);
    out.code(3);
    let doc = out.json();
    let found: Vec<(String, Value, String)> = rules(
        &doc,
        "BackendTrafficPolicy",
        "eg|shop/gw|shop/gw#http|shop/app|shop/app#rule-1",
    )
    .into_iter()
    .map(|r| (r.key, r.value, r.source))
    .collect();
    let source = "backendtrafficpolicy.gateway.envoyproxy.io:shop/gateway-defaults".to_string();
    assert_eq!(
        found,
        vec![
            (
                "circuitBreaker".to_string(),
                json!({"maxConnections": 10, "maxParallelRequests": 1024, "maxParallelRetries": 1024, "maxPendingRequests": 1024}),
                source.clone()
            ),
            ("retry".to_string(), json!({"numRetries": 2}), source),
        ]
    );
}

// --- a typo per kind family: refused with a suggestion, the rest still evaluated, exit 3 ---

/// Lints `file` (extra args first) and checks the one unknown-field error, its suggestion and
/// the schema named in the help; then `effective` still prints exactly `expected` sources.
fn typo(
    file: &str,
    extra: &[&str],
    finding: (u64, u64, &str),
    suggestion: &str,
    schema: &str,
    expected: &[(&str, &str)],
) {
    let file = format!("{FEATURES}/typos/{file}");
    let mut args = vec!["lint", "-o", "json"];
    args.extend_from_slice(extra);
    args.extend(["-f", &file]);
    let out = dopol(&args);
    out.code(3);
    let (line, column, message) = finding;
    let unknown: Vec<Crd> = crd_findings(&out)
        .into_iter()
        .filter(|f| f.0 == "DPL1009")
        .collect();
    assert_eq!(
        unknown,
        owned(&[("DPL1009", line, column, message)]),
        "{file}"
    );
    assert_eq!(
        help_of(&out, message),
        format!("did you mean `{suggestion}`?\nschema: {schema}")
    );
    let mut args = vec!["effective", "-o", "json"];
    args.extend_from_slice(extra);
    args.extend(["-f", &file]);
    let out = dopol(&args);
    out.code(3).stderr_has(&[message]);
    assert_eq!(sources(&out.json()), pairs(expected), "{file}");
}

#[test]
fn typo_gateway_api_httproute() {
    typo(
        "gateway-api.yaml",
        &[],
        (17, 5, "unknown field \"spec.rules[0].backendRef\""),
        "backendRefs",
        "bundled crds/gateway-api/experimental/gateway.networking.k8s.io_httproutes.yaml, v1 openAPIV3Schema.properties.spec.properties.rules.items",
        &[(
            "RateLimitPolicy",
            "ratelimitpolicy.kuadrant.io:shop/good-limits",
        )],
    );
}

/// The Kuadrant typo of issue #17: `limit:` for `limits:`. Strict field validation names the
/// field; the CRD's rule then finds no limit (see the report on what the API server prints).
#[test]
fn typo_kuadrant_ratelimitpolicy() {
    typo(
        "kuadrant.yaml",
        &[],
        (24, 3, "unknown field \"spec.limit\""),
        "limits",
        "bundled crds/kuadrant-operator/kuadrant.io_ratelimitpolicies.yaml, v1 openAPIV3Schema.properties.spec",
        &[(
            "RateLimitPolicy",
            "ratelimitpolicy.kuadrant.io:infra/gateway-limits",
        )],
    );
    let out = dopol(&[
        "lint",
        "-o",
        "json",
        "-f",
        &format!("{FEATURES}/typos/kuadrant.yaml"),
    ]);
    assert_eq!(
        crd_findings(&out),
        // The unknown field is the root cause: reported first, the rule it breaks after it.
        owned(&[
            ("DPL1009", 24, 3, "unknown field \"spec.limit\""),
            (
                "DPL1016",
                23,
                3,
                "spec: Invalid value: \"object\": At least one spec.limits must be defined"
            ),
        ])
    );
}

#[test]
fn typo_kgateway_trafficpolicy() {
    typo(
        "kgateway.yaml",
        &[],
        (24, 3, "unknown field \"spec.timeout\""),
        "timeouts",
        "bundled crds/kgateway/gateway.kgateway.dev_trafficpolicies.yaml, v1alpha1 openAPIV3Schema.properties.spec",
        &[(
            "TrafficPolicy",
            "trafficpolicy.gateway.kgateway.dev:infra/gateway-timeouts",
        )],
    );
}

#[test]
fn typo_envoy_gateway_backendtrafficpolicy() {
    typo(
        "envoy-gateway.yaml",
        &[],
        (23, 3, "unknown field \"spec.retrys\""),
        "retry",
        "bundled crds/envoy-gateway/gateway.envoyproxy.io_backendtrafficpolicies.yaml, v1alpha1 openAPIV3Schema.properties.spec",
        &[(
            "BackendTrafficPolicy",
            "backendtrafficpolicy.gateway.envoyproxy.io:shop/gateway-defaults",
        )],
    );
}

/// A kind declared in a families file, validated against its CRD given with `--crds`.
#[test]
fn typo_declared_family_kind() {
    typo(
        "declared.yaml",
        &["--families", FAMILIES, "--crds", CRDS],
        (22, 3, "unknown field \"spec.sise\""),
        "size",
        "testdata/crd/features/crds/widgets.yaml (--crds), v1 openAPIV3Schema.properties.spec",
        &[("Widget", "widget.example.dopol.dev:default/good")],
    );
}

// --- --crds ---

/// A kind with no CRD known is evaluated as before: without `--crds`, the declared Widget's
/// wrongly typed `size: 3` is not checked, and the Widget takes part in `effective`.
#[test]
fn a_kind_without_crd_is_not_validated() {
    let file = format!("{FEATURES}/widget/type.yaml");
    let out = dopol(&["lint", "-o", "json", "--families", FAMILIES, "-f", &file]);
    assert_eq!(crd_findings(&out), Vec::<Crd>::new());
    let with_crd = lint_widgets(&file, &[]);
    with_crd.code(3);
    assert!(crd_findings(&with_crd).contains(&(
        "DPL1015".to_string(),
        16,
        9,
        "spec.size: Invalid value: \"integer\": spec.size in body must be of type string: \"integer\"".to_string()
    )));
}

/// `--crds FILE` (not the directory): Widget is validated, Gadget has no CRD and is evaluated
/// as before (its false rule is not reported, no rule-not-evaluated info).
#[test]
fn crds_file_validates_only_its_kinds() {
    let out = dopol(&[
        "lint",
        "-o",
        "json",
        "--families",
        FAMILIES,
        "--crds",
        "testdata/crd/features/crds/widgets.yaml",
        "-f",
        &format!("{FEATURES}/gadgets.yaml"),
        "-f",
        &format!("{FEATURES}/widget/enum.yaml"),
    ]);
    out.code(3);
    assert_eq!(
        crd_findings(&out),
        owned(&[(
            "DPL1015",
            17,
            9,
            "spec.mode: Unsupported value: \"medium\": supported values: \"fast\", \"slow\""
        ),])
    );
}

/// A rule dopol cannot evaluate (`isSorted`, from Kubernetes' CEL list library): one
/// rule-not-evaluated info for the kind however many objects use it; the kind's other rules
/// are still evaluated. The CRD file is a `kind: List`, as `kubectl get crd -o yaml` prints.
#[test]
fn rule_not_evaluated_is_one_info_per_kind() {
    let out = lint_widgets(&format!("{FEATURES}/gadgets.yaml"), &[]);
    out.code(3);
    assert_eq!(
        crd_findings(&out),
        owned(&[
            (
                "DPL1017",
                0,
                0,
                "Gadget.example.dopol.dev v1: the CRD rule `self.priorities.isSorted()` at openAPIV3Schema.properties.spec is not evaluated: uses `isSorted` (Kubernetes CEL list library), which dopol does not implement"
            ),
            (
                "DPL1016",
                14,
                3,
                "spec: Invalid value: \"object\": at most three priorities"
            ),
        ])
    );
    let doc = out.json();
    let info = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "DPL1017")
        .unwrap();
    assert_eq!(info["severity"], "info");
    assert_eq!(info["name"], "rule-not-evaluated");
    assert_eq!(doc["summary"]["infos"], 1);
}

/// A `--crds` file that is not a CRD, or whose schema does not compile: DPL1019, nothing is
/// evaluated, exit 2.
#[test]
fn invalid_crds_stop_the_run() {
    let manifests = format!("{FEATURES}/override/manifests.yaml");
    let out = dopol(&[
        "effective",
        "--crds",
        "testdata/crd/features/invalid-crds/not-a-crd.yaml",
        "-f",
        &manifests,
    ]);
    out.code(2).stderr_has(&[
        "[DPL1019] skipped a document that is not a CustomResourceDefinition with spec.group, spec.names.kind and spec.versions",
        "╭─[testdata/crd/features/invalid-crds/not-a-crd.yaml:2:1]",
        "error: --crds: 1 problem; nothing was evaluated",
    ]);
    assert_eq!(out.stdout, "");
    let out = dopol(&[
        "lint",
        "--crds",
        "testdata/crd/features/invalid-crds/broken-schema.yaml",
        "-f",
        &manifests,
    ]);
    out.code(2).stderr_has(&[
        "[DPL1019] the CRD of Gizmo.example.dopol.dev version v1: openAPIV3Schema.properties.spec.properties.size.type: unknown type `strin`",
        "╭─[testdata/crd/features/invalid-crds/broken-schema.yaml:2:1]",
        "error: --crds: 1 problem; nothing was evaluated",
    ]);
    assert_eq!(out.stdout, "");
    let out = dopol(&[
        "lint",
        "--crds",
        "testdata/crd/features/invalid-crds",
        "-f",
        &manifests,
    ]);
    out.code(2)
        .stderr_has(&["error: --crds: 2 problems; nothing was evaluated"]);
}

/// `--crds` replaces a bundled kind's CRD: the RateLimitPolicy CRD without `spec.when` makes
/// the field unknown; with the bundled CRD the same object is valid.
#[test]
fn crds_override_a_bundled_kind() {
    let manifests = format!("{FEATURES}/override/manifests.yaml");
    let crd = "testdata/crd/features/override/kuadrant.io_ratelimitpolicies.yaml";
    let out = dopol(&["lint", "-o", "json", "--crds", crd, "-f", &manifests]);
    out.code(3);
    let message = "unknown field \"spec.when\"";
    assert_eq!(crd_findings(&out), owned(&[("DPL1009", 24, 3, message)]));
    assert_eq!(
        help_of(&out, message),
        format!("schema: {crd} (--crds), v1 openAPIV3Schema.properties.spec")
    );
    let out = dopol(&["lint", "-o", "json", "-f", &manifests]);
    assert_eq!(crd_findings(&out), Vec::<Crd>::new());
    let out = dopol(&["effective", "-o", "json", "-f", &manifests]);
    out.code(0);
    assert_eq!(
        sources(&out.json()),
        pairs(&[("RateLimitPolicy", "ratelimitpolicy.kuadrant.io:shop/limits")])
    );
}

/// `--gateway-api-channel`: a field only in the experimental Gateway CRD is an unknown field
/// with `standard` (the Gateway is refused, so nothing is reached), valid with `experimental`.
#[test]
fn gateway_api_channel() {
    let file = format!("{FEATURES}/channel/gateway.yaml");
    let out = dopol(&[
        "lint",
        "-o",
        "json",
        "--gateway-api-channel",
        "standard",
        "-f",
        &file,
    ]);
    out.code(3);
    let message = "unknown field \"spec.defaultScope\"";
    assert_eq!(crd_findings(&out), owned(&[("DPL1009", 8, 3, message)]));
    assert_eq!(
        help_of(&out, message),
        "schema: bundled crds/gateway-api/standard/gateway.networking.k8s.io_gateways.yaml, v1 openAPIV3Schema.properties.spec"
    );
    for channel in [&["--gateway-api-channel", "experimental"][..], &[]] {
        let mut args = vec!["effective", "-o", "json", "-f", &file];
        args.extend_from_slice(channel);
        let out = dopol(&args);
        out.code(0);
        assert_eq!(
            sources(&out.json()),
            pairs(&[("RateLimitPolicy", "ratelimitpolicy.kuadrant.io:shop/limits")])
        );
    }
}

/// The root's `required` of a bundled CRD: an HTTPRoute without `spec` is refused.
#[test]
fn bundled_root_required() {
    let input = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: default}\n";
    let out = crate::common::run_in(
        &crate::common::root(),
        &["lint", "-o", "json", "-f", "-"],
        Some(input.as_bytes()),
    );
    out.code(3);
    assert_eq!(
        crd_findings(&out),
        owned(&[("DPL1015", 1, 1, "spec: Required value"),])
    );
}
