//! `dopol lint`: every check is triggered by a fixture (code, severity and line asserted), a
//! clean example has no findings, and the controls (suppression, thresholds) work.

use crate::common::{GATEWAY, ROUTE, dopol, root, run_in, stream};
use dopol::diag::Code;
use serde_json::Value;

/// `(code, -f inputs and extra flags, severity, file, line)`: one case per code in the catalogue.
const CASES: &[(&str, &[&str], &str, &str, u64)] = &[
    (
        "DPL1001",
        &["testdata/bad/mixed"],
        "error",
        "testdata/bad/mixed/syntax-error.yaml",
        18,
    ),
    (
        "DPL1002",
        &["testdata/no-such-file.yaml"],
        "error",
        "testdata/no-such-file.yaml",
        1,
    ),
    (
        "DPL1003",
        &["testdata/bad/mixed"],
        "error",
        "testdata/bad/mixed/latin1.yaml",
        4,
    ),
    (
        "DPL1004",
        &["testdata/bad/mixed"],
        "warning",
        "testdata/bad/mixed/wrong-shapes.yaml",
        48,
    ),
    (
        "DPL1005",
        &["testdata/bad/mixed"],
        "error",
        "testdata/bad/mixed/wrong-shapes.yaml",
        40,
    ),
    (
        "DPL1006",
        &["testdata/lint/duplicate-object"],
        "error",
        "testdata/lint/duplicate-object/b.yaml",
        4,
    ),
    (
        "DPL1007",
        &["testdata/deprecated"],
        "error",
        "testdata/deprecated/manifests.yaml",
        14,
    ),
    (
        "DPL1008",
        &["testdata/bad/empty"],
        "error",
        "testdata/bad/empty/empty.yaml",
        1,
    ),
    (
        "DPL1009",
        &["testdata/lint/unknown-field"],
        "error",
        "testdata/lint/unknown-field/manifests.yaml",
        23,
    ),
    (
        // A declared kind without a CRD: the family checks what the CRD would (the built-in
        // Kuadrant kinds get DPL1016 from their CRDs instead).
        "DPL1010",
        &[
            "testdata/families/kuadrant-model/manifests.yaml",
            "--families=testdata/families/kuadrant-model/families.yaml",
        ],
        "error",
        "testdata/families/kuadrant-model/manifests.yaml",
        72,
    ),
    (
        "DPL1011",
        &[
            "testdata/families/kuadrant-model/manifests.yaml",
            "--families=testdata/families/kuadrant-model/families.yaml",
        ],
        "error",
        "testdata/families/kuadrant-model/manifests.yaml",
        81,
    ),
    (
        "DPL1012",
        &["testdata/lint/unsupported-api-version"],
        "warning",
        "testdata/lint/unsupported-api-version/manifests.yaml",
        15,
    ),
    (
        "DPL1013",
        &["testdata/lint/invalid-name"],
        "error",
        "testdata/lint/invalid-name/manifests.yaml",
        5,
    ),
    (
        "DPL1015",
        &["testdata/bad/mixed"],
        "error",
        "testdata/bad/mixed/wrong-shapes.yaml",
        10,
    ),
    (
        "DPL1016",
        &["testdata/constraints/invalid"],
        "error",
        "testdata/constraints/invalid/manifests.yaml",
        69,
    ),
    (
        "DPL1016",
        &["testdata/lint/empty-block-rejected-by-crd"],
        "error",
        "testdata/lint/empty-block-rejected-by-crd/manifests.yaml",
        19,
    ),
    (
        "DPL2001",
        &["testdata/attachment"],
        "warning",
        "testdata/attachment/manifests.yaml",
        100,
    ),
    (
        "DPL2002",
        &["testdata/attachment"],
        "warning",
        "testdata/attachment/manifests.yaml",
        62,
    ),
    (
        "DPL2003",
        &["testdata/attachment"],
        "warning",
        "testdata/attachment/manifests.yaml",
        47,
    ),
    (
        "DPL2004",
        &["testdata/attachment"],
        "warning",
        "testdata/attachment/manifests.yaml",
        54,
    ),
    (
        "DPL2005",
        &["testdata/lint/route-not-attached"],
        "warning",
        "testdata/lint/route-not-attached/manifests.yaml",
        12,
    ),
    (
        // Once per kind, about the CRD rather than an object: no location.
        "DPL1017",
        &[
            "testdata/crd/features/gadgets.yaml",
            "--families=testdata/crd/features/families.yaml",
            "--crds=testdata/crd/features/crds",
        ],
        "info",
        "",
        0,
    ),
    (
        "DPL1018",
        &[
            "testdata/crd/features/widget/not-served.yaml",
            "--families=testdata/crd/features/families.yaml",
            "--crds=testdata/crd/features/crds",
        ],
        "error",
        "testdata/crd/features/widget/not-served.yaml",
        2,
    ),
    (
        "DPL1019",
        &[
            "testdata/examples/shop",
            "--crds=testdata/crd/features/invalid-crds/not-a-crd.yaml",
        ],
        "error",
        "testdata/crd/features/invalid-crds/not-a-crd.yaml",
        2,
    ),
    (
        // Every Gateway CRD since v0.8 refuses this first (DPL1016); the check is for a cluster
        // whose Gateway CRD does not.
        "DPL2006",
        &[
            "testdata/lint/duplicate-listener-name-rejected-by-crd",
            "--crds=testdata/request/conflicted/gateway-crd.yaml",
        ],
        "error",
        "testdata/lint/duplicate-listener-name-rejected-by-crd/manifests.yaml",
        8,
    ),
    (
        "DPL2007",
        &["testdata/lint/duplicate-rule-name"],
        "warning",
        "testdata/lint/duplicate-rule-name/manifests.yaml",
        17,
    ),
    (
        "DPL2008",
        &["testdata/attachment"],
        "info",
        "testdata/attachment/manifests.yaml",
        32,
    ),
    (
        "DPL2009",
        &[
            "testdata/realworld/kuadrant-operator/examples/toystore/httproute.yaml",
            "--assume-gateways",
        ],
        "info",
        "testdata/realworld/kuadrant-operator/examples/toystore/httproute.yaml",
        10,
    ),
    (
        "DPL2010",
        &["testdata/delegation"],
        "warning",
        "testdata/delegation/children.yaml",
        55,
    ),
    (
        "DPL2011",
        &["testdata/delegation"],
        "info",
        "testdata/delegation/policies.yaml",
        28,
    ),
    (
        "DPL2015",
        &["testdata/codes/listenerset-not-allowed"],
        "warning",
        "testdata/codes/listenerset-not-allowed/manifests.yaml",
        10,
    ),
    (
        "DPL2016",
        &["testdata/codes/listenerset-parent-not-found"],
        "warning",
        "testdata/codes/listenerset-parent-not-found/manifests.yaml",
        5,
    ),
    (
        "DPL2017",
        &["testdata/codes/namespace-labels-unknown"],
        "info",
        "testdata/codes/namespace-labels-unknown/manifests.yaml",
        14,
    ),
    (
        "DPL2018",
        &["testdata/codes/listener-conflicted"],
        "warning",
        "testdata/codes/listener-conflicted/manifests.yaml",
        15,
    ),
    (
        "DPL2019",
        &["testdata/codes/listenerset-no-listener"],
        "warning",
        "testdata/codes/listenerset-no-listener/manifests.yaml",
        11,
    ),
    (
        "DPL2020",
        &["testdata/codes/legacy-xlistenerset"],
        "info",
        "testdata/codes/legacy-xlistenerset/manifests.yaml",
        11,
    ),
    (
        "DPL2021",
        &["testdata/codes/gateway-listener-policy-skips-listenerset"],
        "info",
        "testdata/codes/gateway-listener-policy-skips-listenerset/manifests.yaml",
        32,
    ),
    (
        "DPL3001",
        &["testdata/targets"],
        "error",
        "testdata/targets/manifests.yaml",
        22,
    ),
    (
        "DPL3002",
        &["testdata/targets"],
        "error",
        "testdata/targets/manifests.yaml",
        31,
    ),
    (
        "DPL3003",
        &["testdata/lint/invalid-target-kind"],
        "error",
        "testdata/lint/invalid-target-kind/manifests.yaml",
        32,
    ),
    (
        "DPL4001",
        &["testdata/status"],
        "warning",
        "testdata/status/manifests.yaml",
        23,
    ),
    (
        "DPL4002",
        &["testdata/status"],
        "warning",
        "testdata/status/manifests.yaml",
        65,
    ),
    (
        "DPL4003",
        &["testdata/ordering"],
        "info",
        "testdata/ordering/policies.yaml",
        17,
    ),
    (
        "DPL4004",
        &["testdata/ordering"],
        "warning",
        "testdata/ordering/policies.yaml",
        83,
    ),
    (
        "DPL4005",
        &["testdata/rfc0009/e3"],
        "warning",
        "testdata/rfc0009/e3/policies.yaml",
        18,
    ),
    (
        "DPL4006",
        &["testdata/rfc0009/f2"],
        "warning",
        "testdata/rfc0009/f2/policies.yaml",
        36,
    ),
    (
        "DPL4007",
        &["testdata/lint/unset-unmatched"],
        "warning",
        "testdata/lint/unset-unmatched/manifests.yaml",
        35,
    ),
    (
        "DPL4008",
        &["testdata/rfc0009/e3"],
        "info",
        "testdata/rfc0009/e3/policies.yaml",
        16,
    ),
    (
        "DPL4009",
        &["testdata/constraints/invalid"],
        "error",
        "testdata/constraints/invalid/manifests.yaml",
        27,
    ),
    (
        "DPL4010",
        &["testdata/constraints/valid"],
        "warning",
        "testdata/constraints/valid/manifests.yaml",
        63,
    ),
    (
        "DPL4011",
        &["testdata/constraints/invalid"],
        "error",
        "testdata/constraints/invalid/manifests.yaml",
        53,
    ),
    (
        "DPL2012",
        &["testdata/kgateway/delegation-mixed-backends/manifests.yaml"],
        "warning",
        "testdata/kgateway/delegation-mixed-backends/manifests.yaml",
        19,
    ),
    (
        "DPL5001",
        &["testdata/kgateway/attach-extensionref/manifests.yaml"],
        "error",
        "testdata/kgateway/attach-extensionref/manifests.yaml",
        56,
    ),
    (
        "DPL5002",
        &["testdata/kgateway/invalid-weight/manifests.yaml"],
        "error",
        "testdata/kgateway/invalid-weight/manifests.yaml",
        57,
    ),
    (
        "DPL5003",
        &["testdata/kgateway/invalid-weight/manifests.yaml"],
        "error",
        "testdata/kgateway/invalid-weight/manifests.yaml",
        61,
    ),
    (
        "DPL5004",
        &["testdata/codes/unknown-inherited-priority/manifests.yaml"],
        "warning",
        "testdata/codes/unknown-inherited-priority/manifests.yaml",
        16,
    ),
    (
        "DPL5005",
        &["testdata/kgateway/annotation-on-gateway/manifests.yaml"],
        "warning",
        "testdata/kgateway/annotation-on-gateway/manifests.yaml",
        10,
    ),
    (
        "DPL5006",
        &["testdata/kgateway/duplicate-attachment/manifests.yaml"],
        "warning",
        "testdata/kgateway/duplicate-attachment/manifests.yaml",
        40,
    ),
    (
        "DPL5007",
        &["testdata/kgateway/attach-selectors/manifests.yaml"],
        "warning",
        "testdata/kgateway/attach-selectors/manifests.yaml",
        153,
    ),
    (
        "DPL5008",
        &["testdata/kgateway/scope-providers/manifests.yaml"],
        "warning",
        "testdata/kgateway/scope-providers/manifests.yaml",
        120,
    ),
    (
        "DPL5010",
        &["testdata/kgateway/invalid-acl/manifests.yaml"],
        "error",
        "testdata/kgateway/invalid-acl/manifests.yaml",
        21,
    ),
    (
        "DPL5011",
        &["testdata/kgateway/delegation-deep-prefer-parent/manifests.yaml"],
        "warning",
        "testdata/kgateway/delegation-deep-prefer-parent/manifests.yaml",
        24,
    ),
    (
        "DPL5012",
        &["testdata/kgateway/deep-extauth/manifests.yaml"],
        "warning",
        "testdata/kgateway/deep-extauth/manifests.yaml",
        22,
    ),
    (
        "DPL5013",
        &["testdata/kgateway/builtin-shadows/manifests.yaml"],
        "info",
        "testdata/kgateway/builtin-shadows/manifests.yaml",
        17,
    ),
    (
        "DPL4015",
        &["testdata/codes/bare-field-ignored/manifests.yaml"],
        "warning",
        "testdata/codes/bare-field-ignored/manifests.yaml",
        22,
    ),
    (
        "DPL4016",
        &["testdata/codes/family-ignores-listenerset"],
        "info",
        "testdata/codes/family-ignores-listenerset/manifests.yaml",
        32,
    ),
    (
        "DPL4020",
        &["testdata/codes/reported-but-ineffective"],
        "warning",
        "testdata/codes/reported-but-ineffective/manifests.yaml",
        19,
    ),
    (
        "DPL4021",
        &["testdata/codes/rule-effective-nowhere"],
        "info",
        "testdata/codes/rule-effective-nowhere/manifests.yaml",
        19,
    ),
    (
        "DPL4022",
        &["testdata/codes/class-not-family-controller"],
        "warning",
        "testdata/codes/class-not-family-controller/manifests.yaml",
        46,
    ),
    (
        "DPL4014",
        &[
            "testdata/request/conformance/gateway-http-listener-isolation-with-hostname-intersection/manifests.yaml",
        ],
        "warning",
        "testdata/request/conformance/gateway-http-listener-isolation-with-hostname-intersection/manifests.yaml",
        152,
    ),
    (
        "DPL5014",
        &["testdata/codes/misspelled-kgateway-annotation/manifests.yaml"],
        "warning",
        "testdata/codes/misspelled-kgateway-annotation/manifests.yaml",
        16,
    ),
    (
        "DPL5015",
        &["testdata/kgateway/delegation-unknown-annotation/manifests.yaml"],
        "warning",
        "testdata/kgateway/delegation-unknown-annotation/manifests.yaml",
        28,
    ),
    (
        "DPL5020",
        &["testdata/codes/listenerpolicy-field-ignored/manifests.yaml"],
        "info",
        "testdata/codes/listenerpolicy-field-ignored/manifests.yaml",
        15,
    ),
    (
        "DPL5021",
        &["testdata/codes/httplistenerpolicy-deprecated/manifests.yaml"],
        "info",
        "testdata/codes/httplistenerpolicy-deprecated/manifests.yaml",
        11,
    ),
    (
        "DPL5022",
        &["testdata/codes/bcp-field-shadowed/manifests.yaml"],
        "info",
        "testdata/codes/bcp-field-shadowed/manifests.yaml",
        10,
    ),
    (
        "DPL5023",
        &["testdata/codes/bcp-selector-not-modelled/manifests.yaml"],
        "info",
        "testdata/codes/bcp-selector-not-modelled/manifests.yaml",
        5,
    ),
    (
        "DPL1020",
        &[
            "testdata/examples/shop",
            "--config=testdata/config/bad-level.yaml",
        ],
        "error",
        "testdata/config/bad-level.yaml",
        4,
    ),
    (
        "DPL1021",
        &["testdata/examples/shop", "testdata/inputs/chart"],
        "info",
        "testdata/inputs/chart/templates/route.yaml",
        5,
    ),
    (
        "DPL1022",
        &["testdata/fidelity2/eg-strategic-merge/backendtrafficpolicy-strategic-merge.out.yaml"],
        "info",
        "testdata/fidelity2/eg-strategic-merge/backendtrafficpolicy-strategic-merge.out.yaml",
        237,
    ),
    (
        "DPL1014",
        &[
            "examples/families/timeouts",
            "--families=testdata/families/bad/unknown-model.yaml",
        ],
        "error",
        "testdata/families/bad/unknown-model.yaml",
        10,
    ),
    (
        "DPL4012",
        &[
            "testdata/examples/shop",
            "--families=examples/families/ratelimitpolicy.yaml",
        ],
        "info",
        "examples/families/ratelimitpolicy.yaml",
        8,
    ),
    (
        "DPL4013",
        &["testdata/lint/unknown-ignore-code"],
        "warning",
        "testdata/lint/unknown-ignore-code/manifests.yaml",
        8,
    ),
    (
        "DPL5009",
        &["testdata/kgateway/scope-headers/manifests.yaml"],
        "warning",
        "testdata/kgateway/scope-headers/manifests.yaml",
        95,
    ),
    (
        "DPL6001",
        &["testdata/envoy/auth-replaced/manifests.yaml"],
        "warning",
        "testdata/envoy/auth-replaced/manifests.yaml",
        45,
    ),
    (
        "DPL6002",
        &["testdata/envoy/conflict-age/manifests.yaml"],
        "warning",
        "testdata/envoy/conflict-age/manifests.yaml",
        34,
    ),
    (
        "DPL6003",
        &["testdata/envoy/json-merge/manifests.yaml"],
        "warning",
        "testdata/envoy/json-merge/manifests.yaml",
        45,
    ),
    (
        "DPL6004",
        &["testdata/envoy/targets-selectors/manifests.yaml"],
        "info",
        "testdata/envoy/targets-selectors/manifests.yaml",
        81,
    ),
    (
        "DPL6009",
        &["testdata/envoy/ctp-gateway-section/manifests.yaml"],
        "warning",
        "testdata/envoy/ctp-gateway-section/manifests.yaml",
        50,
    ),
    (
        "DPL6005",
        &["testdata/envoy/targets-selectors/manifests.yaml"],
        "warning",
        "testdata/envoy/targets-selectors/manifests.yaml",
        46,
    ),
    (
        "DPL6008",
        &["testdata/codes/selector-target-not-granted/manifests.yaml"],
        "info",
        "testdata/codes/selector-target-not-granted/manifests.yaml",
        43,
    ),
    (
        "DPL7001",
        &["testdata/codes/kuma-invalid-policy/manifests.yaml"],
        "error",
        "testdata/codes/kuma-invalid-policy/manifests.yaml",
        39,
    ),
    (
        "DPL7002",
        &["testdata/codes/kuma-to-target-not-found/manifests.yaml"],
        "warning",
        "testdata/codes/kuma-to-target-not-found/manifests.yaml",
        39,
    ),
    (
        "DPL7003",
        &["testdata/codes/kuma-section-port-number/manifests.yaml"],
        "warning",
        "testdata/codes/kuma-section-port-number/manifests.yaml",
        39,
    ),
    (
        "DPL7004",
        &["testdata/codes/kuma-dataplane-name-ref-from-global/manifests.yaml"],
        "warning",
        "testdata/codes/kuma-dataplane-name-ref-from-global/manifests.yaml",
        39,
    ),
    (
        "DPL7005",
        &["testdata/codes/kuma-consumer-overrides-producer/manifests.yaml"],
        "info",
        "testdata/codes/kuma-consumer-overrides-producer/manifests.yaml",
        45,
    ),
    (
        "DPL7006",
        &["testdata/codes/kuma-route-ignores-service-entries/manifests.yaml"],
        "info",
        "testdata/codes/kuma-route-ignores-service-entries/manifests.yaml",
        48,
    ),
    (
        "DPL7007",
        &["testdata/codes/kuma-mtp-from-ignored/manifests.yaml"],
        "warning",
        "testdata/codes/kuma-mtp-from-ignored/manifests.yaml",
        49,
    ),
    (
        "DPL7008",
        &["testdata/codes/kuma-mtp-without-mtls/manifests.yaml"],
        "warning",
        "testdata/codes/kuma-mtp-without-mtls/manifests.yaml",
        32,
    ),
    (
        "DPL7009",
        &["testdata/codes/kuma-role-label-overwritten/manifests.yaml"],
        "warning",
        "testdata/codes/kuma-role-label-overwritten/manifests.yaml",
        35,
    ),
    (
        "DPL7010",
        &["testdata/codes/kuma-equal-display-names/manifests.yaml"],
        "warning",
        "testdata/codes/kuma-equal-display-names/manifests.yaml",
        35,
    ),
    (
        "DPL7011",
        &["testdata/codes/kuma-meshservices-disabled/manifests.yaml"],
        "info",
        "testdata/codes/kuma-meshservices-disabled/manifests.yaml",
        34,
    ),
    (
        "DPL7012",
        &["testdata/codes/kuma-deprecated-targetref/manifests.yaml"],
        "info",
        "testdata/codes/kuma-deprecated-targetref/manifests.yaml",
        38,
    ),
    (
        "DPL7013",
        &["testdata/codes/kuma-selects-no-dataplane/manifests.yaml"],
        "info",
        "testdata/codes/kuma-selects-no-dataplane/manifests.yaml",
        35,
    ),
    (
        "DPL7014",
        &["testdata/codes/kuma-shadow-skipped/manifests.yaml"],
        "info",
        "testdata/codes/kuma-shadow-skipped/manifests.yaml",
        35,
    ),
    (
        "DPL7015",
        &["testdata/codes/kuma-mesh-assumed/manifests.yaml"],
        "info",
        "testdata/codes/kuma-mesh-assumed/manifests.yaml",
        6,
    ),
    (
        "DPL7016",
        &["testdata/codes/kuma-not-modelled/manifests.yaml"],
        "info",
        "testdata/codes/kuma-not-modelled/manifests.yaml",
        40,
    ),
    (
        "DPL8001",
        &["testdata/codes/agw-equal-specificity-tie/manifests.yaml"],
        "warning",
        "testdata/codes/agw-equal-specificity-tie/manifests.yaml",
        29,
    ),
    (
        "DPL8002",
        &["testdata/codes/agw-conditional-shadows-parent/manifests.yaml"],
        "warning",
        "testdata/codes/agw-conditional-shadows-parent/manifests.yaml",
        31,
    ),
    (
        "DPL8005",
        &["testdata/codes/agw-buffer-least-specific-wins/manifests.yaml"],
        "warning",
        "testdata/codes/agw-buffer-least-specific-wins/manifests.yaml",
        29,
    ),
    (
        "DPL8006",
        &["testdata/codes/agw-override-on-rule/manifests.yaml"],
        "info",
        "testdata/codes/agw-override-on-rule/manifests.yaml",
        21,
    ),
    (
        "DPL8007",
        &["testdata/codes/agw-attached-but-ineffective/manifests.yaml"],
        "info",
        "testdata/codes/agw-attached-but-ineffective/manifests.yaml",
        19,
    ),
    (
        "DPL8008",
        &["testdata/codes/agw-backend-level-not-modelled/manifests.yaml"],
        "info",
        "testdata/codes/agw-backend-level-not-modelled/manifests.yaml",
        21,
    ),
    (
        "DPL8003",
        &["testdata/codes/agw-gateway-listener-leaks-into-listenerset/manifests.yaml"],
        "warning",
        "testdata/codes/agw-gateway-listener-leaks-into-listenerset/manifests.yaml",
        20,
    ),
    (
        "DPL8004",
        &["testdata/codes/agw-backend-listenerset-ignored/manifests.yaml"],
        "warning",
        "testdata/codes/agw-backend-listenerset-ignored/manifests.yaml",
        20,
    ),
    (
        "DPL5016",
        &["testdata/codes/shared-port-hostname-isolation/manifests.yaml"],
        "info",
        "testdata/codes/shared-port-hostname-isolation/manifests.yaml",
        18,
    ),
];

fn lint_json(inputs: &[&str], extra: &[&str]) -> (Value, i32) {
    let mut args = vec!["lint", "-o", "json"];
    for input in inputs {
        if input.starts_with("--") {
            args.push(input);
        } else {
            args.push("-f");
            args.push(input);
        }
    }
    args.extend_from_slice(extra);
    let out = dopol(&args);
    (out.json(), out.code)
}

#[test]
fn every_check_has_a_fixture_that_triggers_it_at_the_right_line() {
    // A wrong suite's codes are reported by `dopol test`, not `lint`: tests/it/codes.rs runs
    // each one's fixture through `dopol test` (and tests/it/test_cmd.rs the rest).
    let suite_codes = dopol::report::suite::diags::CODES;
    // A retired code is never reported (tests/it/codes.rs checks it).
    let mut failures: Vec<String> = Code::all()
        .filter(|code| !suite_codes.contains(code))
        .filter(|code| !code.summary().starts_with("Retired:"))
        .filter(|code| !CASES.iter().any(|c| c.0 == code.as_str()))
        .map(|code| format!("no lint case for {code}"))
        .collect();
    for (code, inputs, severity, file, line) in CASES {
        let (doc, _) = lint_json(inputs, &[]);
        // An empty file and line 0: a finding about a kind, which has no location.
        let found = doc["diagnostics"].as_array().unwrap().iter().find(|d| {
            d["code"] == *code
                && if file.is_empty() {
                    d["file"].is_null() && d["line"].is_null()
                } else {
                    d["file"] == *file && d["line"].as_u64() == Some(*line)
                }
        });
        let Some(found) = found else {
            let got: Vec<String> = doc["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| format!("{} {}:{}", d["code"], d["file"], d["line"]))
                .collect();
            failures.push(format!("{code} not reported at {file}:{line}; got {got:?}"));
            continue;
        };
        assert_eq!(found["severity"], *severity, "{code}");
        assert_eq!(found["name"], Code::parse(code).unwrap().name(), "{code}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_clean_example_has_no_findings() {
    let out = dopol(&["lint", "-f", "testdata/examples/shop"]);
    out.code(0);
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
}

#[test]
fn exit_codes_follow_fail_on_and_input_errors_win() {
    // warnings only: passes by default, fails with --fail-on warning, the format never matters
    for format in ["human", "json", "sarif", "github", "junit"] {
        dopol(&["lint", "-f", "testdata/attachment", "-o", format]).code(0);
        dopol(&[
            "lint",
            "-f",
            "testdata/attachment",
            "-o",
            format,
            "--fail-on",
            "warning",
        ])
        .code(1);
        dopol(&["lint", "-f", "testdata/bad/mixed", "-o", format]).code(3);
    }
    dopol(&["lint", "-f", "testdata/targets"]).code(1);
    dopol(&["lint", "-f", "testdata/rfc0009/e3", "--fail-on", "info"]).code(1);
    dopol(&[
        "lint",
        "-f",
        "testdata/rfc0009/e3",
        "--fail-on",
        "info",
        "--ignore",
        "DPL4005,rfc-extension",
    ])
    .code(0);
}

#[test]
fn min_severity_hides_but_still_counts() {
    let (doc, _) = lint_json(&["testdata/attachment"], &["--min-severity", "warning"]);
    assert!(
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["severity"] != "info")
    );
    assert_eq!(doc["summary"]["hidden"], 1);
    let out = dopol(&[
        "lint",
        "-f",
        "testdata/attachment",
        "--min-severity",
        "warning",
    ]);
    assert_eq!(
        out.stderr.lines().last(),
        Some("0 errors, 5 warnings, 0 infos (1 below --min-severity) in 12 objects from 1 file")
    );
}

#[test]
fn annotations_and_ignore_suppress_and_are_counted() {
    let (doc, _) = lint_json(&["testdata/lint/suppressed"], &[]);
    let codes: Vec<(&str, &str)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["object"].as_str().unwrap()))
        .collect();
    assert_eq!(codes, [("DPL2001", "HTTPRoute app/reported")]);
    assert_eq!(
        doc["summary"]["suppressed"], 2,
        "one by code name, one by `*`"
    );
    let out = dopol(&[
        "lint",
        "-f",
        "testdata/lint/suppressed",
        "--ignore",
        "DPL2001",
    ]);
    out.code(0);
    assert_eq!(
        out.stderr,
        "no issues (3 suppressed) in 4 objects from 1 file\n"
    );
    dopol(&[
        "lint",
        "-f",
        "testdata/lint/suppressed",
        "--ignore",
        "DPL9999",
    ])
    .code(2)
    .stderr_has(&["unknown diagnostic code `DPL9999`"]);
}

#[test]
fn input_errors_cannot_be_suppressed() {
    let manifest = &stream(&[
        GATEWAY,
        "apiVersion: kuadrant.io/v1
kind: AuthPolicy
metadata:
  name: hushed
  namespace: infra
  annotations: {dopol.io/ignore: \"*\"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  defaults:
    strategy: sometimes
    rules: {authentication: {a: {plain: {selector: a}}}}
",
    ]);
    let out = run_in(
        &root(),
        &["lint", "-f", "-", "--ignore", "DPL1015"],
        Some(manifest.as_slice()),
    );
    out.code(3)
        .stdout_has(&[
            "[DPL1015] spec.defaults.strategy: Unsupported value: \"sometimes\"",
            "<stdin>:18:15",
            // NotSupported blocks the CEL rules, as in the API server, which says so: told
            // in the help, not as a finding of its own
            "the CRD's validation rules run once this is fixed; until then the API server also answers `<nil>: Invalid value: \"null\": some validation rules were not checked",
        ])
        .stderr_has(&["1 error, 0 warnings, 0 infos in 2 objects from 1 file"]);
}

#[test]
fn list_and_explain_document_every_check() {
    let list = dopol(&["lint", "--list"]);
    list.code(0);
    for code in Code::all() {
        assert!(
            list.stdout.contains(code.as_str()) && list.stdout.contains(code.name()),
            "{code}"
        );
        let explain = dopol(&["lint", "--explain", code.name()]);
        explain.code(0);
        assert!(
            explain.stdout.starts_with(&format!(
                "{} {} ({} by default)\n",
                code.as_str(),
                code.name(),
                code.default_severity()
            )),
            "{}",
            explain.stdout
        );
        assert!(explain.stdout.contains("How to fix:"));
    }
    dopol(&["lint", "--explain", "nope"]).code(2);
}

#[test]
fn granularity_compares_windows_by_duration() {
    // `60s` keeps the `1m` rate; only the daily rate is lost.
    let manifest = &stream(&[
        GATEWAY,
        ROUTE,
        "apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: gw-override, namespace: infra}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  overrides:
    strategy: merge
    limits:
      per.user: {rates: [{limit: 50, window: 60s}]}
---
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: route-limits, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}
  limits:
    per.user: {rates: [{limit: 100, window: 1m}, {limit: 10000, window: 24h}]}
",
    ]);
    let out = run_in(
        &root(),
        &["lint", "-f", "-", "-o", "json"],
        Some(manifest.as_slice()),
    );
    out.code(0);
    let doc = out.json();
    let granularity: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "DPL4005")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        granularity,
        [
            "the merge override of limit `per.user` in RateLimitPolicy infra/gw-override replaces the whole limit of RateLimitPolicy app/route-limits, whose rates over `24h` are lost"
        ]
    );
}
