//! Issue 47's surface: what a user reading dopol's output on upstream manifests is told.
//! Envoy Gateway translator fixtures read as they are, the `status` table's conditions per
//! family, hints on `targetRefs` without `group` and on CEL string escapes, the namespace and
//! rule names in target findings, `explain --gateway`, and `reach` by a bare name. Each case runs
//! the real binary on a fixture (upstream ones under `testdata/fidelity2/`, with their
//! `ORIGIN.md`) and asserts exact output.

use crate::common::{at_width, dopol, findings};

/// Envoy Gateway's `backendtrafficpolicy-strategic-merge` translator fixture (input and golden).
const EG_MERGE: &str = "testdata/fidelity2/eg-strategic-merge/backendtrafficpolicy-strategic-merge";

/// A lint finding with its place: `(code, file, line, column, message)`.
type Placed = (String, String, u64, u64, String);

/// Every diagnostic of a `lint -o json` run with its place, stderr and the exit code.
fn located(args: &[&str]) -> (Vec<Placed>, String, i32) {
    let mut all = vec!["lint", "-o", "json"];
    all.extend_from_slice(args);
    let out = dopol(&all);
    let doc = out.json();
    let places = doc["diagnostics"].as_array().expect("diagnostics").iter();
    let found = findings(&doc)
        .into_iter()
        .zip(places)
        .map(|((code, _, line, message), d)| {
            let file = d["file"].as_str().unwrap_or_default().to_string();
            (code, file, line, d["column"].as_u64().unwrap_or(0), message)
        })
        .collect();
    (found, out.stderr, out.code)
}

fn deprecated(file: &str, line: u64, column: u64, policy: &str) -> Placed {
    (
        "DPL6004".into(),
        file.into(),
        line,
        column,
        format!(
            "BackendTrafficPolicy {policy}: `spec.targetRef` is deprecated (Envoy Gateway: Warning/DeprecatedField); use `targetRefs`"
        ),
    )
}

/// The translator's input is one mapping of lists: each object is read at its own place, and
/// `-v` names the format.
#[test]
fn eg_translator_input_is_read_object_by_object() {
    let file = format!("{EG_MERGE}.in.yaml");
    let (found, stderr, code) = located(&["-v", "-f", &file]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        found,
        [
            deprecated(&file, 59, 9, "envoy-gateway/policy-for-gateway"),
            deprecated(&file, 77, 9, "default/merged-policy-for-route"),
            deprecated(&file, 95, 9, "default/policy-for-route"),
        ]
    );
    assert_eq!(
        stderr,
        "read 1 file, 1 document: 6 objects dopol reads (1 gateway, 2 routes, 3 policies), 0 objects of other kinds skipped; 2 paths\n\
         recognised the Envoy Gateway translator fixture format (one mapping of lists of objects: `gateways:`, `httpRoutes:`, ...) in 1 document; each object is read at its own place\n\
         0 errors, 0 warnings, 3 infos in 6 objects from 1 file\n"
    );
}

/// The golden has the same objects (with their status) and the translator's intermediate
/// representations, which are named as not read.
#[test]
fn eg_translator_golden_reports_the_keys_it_does_not_read() {
    let file = format!("{EG_MERGE}.out.yaml");
    let (found, stderr, code) = located(&["-f", &file]);
    assert_eq!(code, 0, "{stderr}");
    let ignored = |key: &str, line| {
        (
            "DPL1022".to_string(),
            file.clone(),
            line,
            1,
            format!(
                "`{key}` of an Envoy Gateway translator fixture holds no Kubernetes object; not read"
            ),
        )
    };
    assert_eq!(
        found,
        [
            deprecated(&file, 14, 7, "default/merged-policy-for-route"),
            deprecated(&file, 54, 7, "default/policy-for-route"),
            deprecated(&file, 86, 7, "envoy-gateway/policy-for-gateway"),
            ignored("infraIR", 237),
            ignored("xdsIR", 256),
        ]
    );
    // Without -v, a report command says only that infos were left unshown.
    let out = dopol(&["effective", "-o", "json", "-f", &file]);
    out.code(0);
    assert_eq!(out.stderr, "note: 5 info diagnostics not shown (use -v)\n");
}

/// `status` shows every condition a controller writes, each under its own type: Envoy
/// Gateway's Gateway policy is Accepted, Merged (into the HTTPRoute's `mergeType` policy) and
/// Overridden (by the GRPCRoute's), as the golden's conditions say; none under a header that
/// reads "enforced".
#[test]
fn status_table_shows_envoy_gateway_merged_and_overridden() {
    let out = dopol(&["status", "-f", &format!("{EG_MERGE}.in.yaml")]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "\
KIND                  POLICY                            CONDITION   STATUS  REASON      MESSAGE
BackendTrafficPolicy  default/merged-policy-for-route   Accepted    True    Accepted    Policy has been accepted.
                                                        Merged      True    Merged      Merged with policy envoy-gateway/policy-for-gateway
BackendTrafficPolicy  default/policy-for-route          Accepted    True    Accepted    Policy has been accepted.
BackendTrafficPolicy  envoy-gateway/policy-for-gateway  Accepted    True    Accepted    Policy has been accepted.
                                                        Merged      True    Merged      This policy is being merged by other backendTrafficPolicies for these routes: [default/httproute-1]
                                                        Overridden  True    Overridden  This policy is being overridden by other backendTrafficPolicies for these routes: [default/grpcroute-1]

POLICY                            RULE KEY     OUTCOMES
default/merged-policy-for-route   connection   effective ×1
                                  httpUpgrade  effective ×1
                                  timeout      effective ×1
default/policy-for-route          connection   effective ×1
envoy-gateway/policy-for-gateway  httpUpgrade  superseded ×1, merged ×1
                                  timeout      superseded ×1, merged ×1
"
    );
}

/// In a terminal of 100 columns the kind and name head each policy's conditions, and the
/// messages are cut to the width.
#[test]
fn status_table_fits_100_columns() {
    let out = at_width(100, &["status", "-f", &format!("{EG_MERGE}.in.yaml")]);
    out.code(0);
    let conditions = out.stdout.split("\n\n").next().unwrap();
    assert_eq!(
        conditions,
        "\
CONDITION   STATUS  REASON      MESSAGE
kind BackendTrafficPolicy, policy default/merged-policy-for-route
Accepted    True    Accepted    Policy has been accepted.
Merged      True    Merged      Merged with policy envoy-gateway/policy-for-gateway
kind BackendTrafficPolicy, policy default/policy-for-route
Accepted    True    Accepted    Policy has been accepted.
kind BackendTrafficPolicy, policy envoy-gateway/policy-for-gateway
Accepted    True    Accepted    Policy has been accepted.
Merged      True    Merged      This policy is being merged by other backendTrafficPolicies for the…
Overridden  True    Overridden  This policy is being overridden by other backendTrafficPolicies for…"
    );
    assert!(
        out.stdout.lines().all(|l| l.chars().count() <= 100),
        "{}",
        out.stdout
    );
}

/// kgateway's conditions are Accepted (reason Valid) and Attached (reason Merged here), as in
/// the golden of its `traffic-policy/merge` test.
#[test]
fn status_table_shows_kgateway_accepted_and_attached() {
    let out = dopol(&["status", "-f", "testdata/fidelity2/kgw-merge/merge.yaml"]);
    out.code(0);
    let conditions = out.stdout.split("\n\n").next().unwrap();
    assert_eq!(
        conditions,
        "\
KIND           POLICY                             CONDITION  STATUS  REASON  MESSAGE
TrafficPolicy  infra/extensionref-policy          Accepted   True    Valid   Policy accepted
                                                  Attached   True    Merged  Merged with other policies in target(s) and attached
TrafficPolicy  infra/policy-with-section-name     Accepted   True    Valid   Policy accepted
                                                  Attached   True    Merged  Merged with other policies in target(s) and attached
TrafficPolicy  infra/policy-without-section-name  Accepted   True    Valid   Policy accepted
                                                  Attached   True    Merged  Merged with other policies in target(s) and attached"
    );
}

/// A `targetRefs` item without `group` (as Envoy Gateway's concept page writes them): one
/// finding per object, whose help says what to add and quotes the API server's second error.
#[test]
fn target_ref_without_group_is_one_finding_with_the_group_to_add() {
    let out = dopol(&[
        "lint",
        "-o",
        "json",
        "-f",
        "testdata/fidelity2/eg-targetrefs-no-group/precedence.yaml",
    ]);
    out.code(3);
    let doc = out.json();
    let found: Vec<(String, String, u64, String, String)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let text = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (
                text("code"),
                text("object"),
                d["line"].as_u64().unwrap(),
                text("message"),
                text("help"),
            )
        })
        .collect();
    let help = |kind: &str| {
        format!(
            "add `group: gateway.networking.k8s.io` (the API group of `{kind}`; a target reference has no default group)\n\
             the CRD's validation rules run once this is fixed; until then the API server also answers `<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`\n\
             schema: bundled crds/envoy-gateway/gateway.envoyproxy.io_backendtrafficpolicies.yaml, v1alpha1 openAPIV3Schema.properties.spec.properties.targetRefs.items"
        )
    };
    let finding = |object: &str, line, kind| {
        (
            "DPL1015".to_string(),
            format!("BackendTrafficPolicy default/{object}"),
            line,
            "spec.targetRefs[0].group: Required value".to_string(),
            help(kind),
        )
    };
    assert_eq!(
        found,
        [
            finding("gateway-policy", 8, "Gateway"),
            finding("route-policy", 21, "HTTPRoute"),
        ]
    );
}

/// DPL4011 on a regex's `\.` in a CEL string says what CEL's lexer rejects and the two ways to
/// write it that parse.
#[test]
fn predicate_with_an_unknown_string_escape_gets_the_escaping_help() {
    let out = dopol(&["lint", "-o", "json", "-f", "testdata/fidelity2/cel-escape"]);
    out.code(3);
    let doc = out.json();
    let found = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "DPL4011")
        .expect("DPL4011");
    assert_eq!(
        (&found["line"], &found["column"], &found["message"], &found["help"]),
        (
            &18.into(),
            &34.into(),
            &r#"invalid CEL in a request-time expression of AuthPolicy infra/lan-only: token recognition error at: '"^192\.'"#.into(),
            &r#"`\.` is not an escape of CEL strings: write the backslash twice (`"^192\\.168\\..*"`), or make the string raw, without escapes (`r"^192\.168\..*"`); CEL's escapes are \a \b \f \n \r \t \v \" \' \\ \? \`, \xHH, \uHHHH, \UHHHHHHHH and octal \NNN"#.into(),
        )
    );
}

/// DPL3001 for a route that exists in two other namespaces, one only because the route has no
/// `metadata.namespace`: the help names the namespace where it is written, not the first in
/// alphabetical order (`default`).
#[test]
fn target_not_found_help_names_the_namespace_where_the_target_is_written() {
    let out = dopol(&["lint", "-f", "testdata/fidelity2/target-elsewhere"]);
    out.code(1).stdout_has(&[
        "[DPL3001] HTTPRoute target toystore was not found in namespace `shop` (an HTTPRoute toystore exists in namespaces `default`, `toystore`); RateLimitPolicy shop/toystore is not accepted (TargetNotFound)",
        "  help: a targetRef names an object in the policy's own namespace (`shop`); create RateLimitPolicy shop/toystore in namespace `toystore` instead\n",
    ]);
}

/// DPL3002 for a route rule's sectionName lists the route's rule names, after the closest one.
#[test]
fn section_not_found_lists_the_route_rule_names() {
    let out = dopol(&["lint", "-f", "testdata/fidelity2/section-names"]);
    out.code(1);
    let found: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("[DPL3002]") || l.starts_with("  help:"))
        .collect();
    assert_eq!(
        found,
        [
            "  × [DPL3002] HTTPRoute target shop#chekout was not found; RateLimitPolicy app/r is not accepted (TargetNotFound)",
            "  help: did you mean `checkout`? (the rules of HTTPRoute app/shop are named `checkout`, `catalog`)",
            "  × [DPL3002] HTTPRoute target shop#cart was not found; RateLimitPolicy app/r2 is not accepted (TargetNotFound)",
            "  help: the rules of HTTPRoute app/shop are named `checkout`, `catalog`",
        ]
    );
}

/// Envoy Gateway's golden for a sectionName naming no rule: `Accepted` False `TargetNotFound`
/// with its message; the route's one rule has no `name`, and the help says so.
#[test]
fn section_not_found_on_unnamed_rules_says_what_to_add() {
    let file = "testdata/fidelity2/eg-section-route-rule/securitypolicy-invalid-no-section-name-route-rule.in.yaml";
    let out = dopol(&["status", "-f", file]);
    out.code(0);
    assert_eq!(
        out.stdout.lines().take(2).collect::<Vec<_>>(),
        [
            "KIND            POLICY                      CONDITION  STATUS  REASON          MESSAGE",
            "SecurityPolicy  default/policy-for-route-1  Accepted   False   TargetNotFound  No section name not-found-section-name found for HTTPRoute default/httproute-1",
        ]
    );
    out.stderr_has(&["  help: no rule of HTTPRoute default/httproute-1 has a `name`, which is what a sectionName names: give the rule meant `name: not-found-section-name`\n"]);
}

/// `explain --gateway` keeps the paths through that Gateway, as the other reports' `--gateway`
/// does (`name` or `ns/name`); one that names no Gateway is a usage error with the nearest name.
#[test]
fn explain_filters_by_gateway() {
    let file = "testdata/fidelity2/eg-multi-parents/backendtrafficpolicy-strategic-merge-with-multi-parents.in.yaml";
    let path = |gateway: &str| {
        format!(
            "envoy-gateway-class|envoy-gateway/{gateway}|envoy-gateway/{gateway}#http|default/httproute-1|default/httproute-1#rule-1"
        )
    };
    for (gateway, paths) in [
        ("gateway-1", vec![path("gateway-1")]),
        ("envoy-gateway/gateway-2", vec![path("gateway-2")]),
    ] {
        let out = dopol(&[
            "explain",
            "--route",
            "httproute-1",
            "--gateway",
            gateway,
            "-o",
            "json",
            "-f",
            file,
        ]);
        out.code(0);
        let doc = out.json();
        let ids: Vec<&str> = doc["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["pathId"].as_str().unwrap())
            .collect();
        assert_eq!(ids, paths, "{gateway}");
    }
    let out = dopol(&[
        "explain",
        "--route",
        "httproute-1",
        "--gateway",
        "gateway-3",
        "-f",
        file,
    ]);
    out.code(2);
    assert_eq!(
        out.stderr,
        "error: --gateway `gateway-3` matches no Gateway; did you mean `gateway-1`?\n"
    );
}

/// `reach NAME` accepts a policy name without namespace when one policy has it (here in
/// kgateway's `traffic-policy/merge` input), and lists the candidates when several do.
#[test]
fn reach_accepts_a_unique_bare_name() {
    let out = dopol(&[
        "reach",
        "policy-with-section-name",
        "-f",
        "testdata/fidelity2/kgw-merge/merge.yaml",
    ]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "\
TrafficPolicy infra/policy-with-section-name reaches 1 of 1 path

Gateway infra/example-gateway
  listener http
    HTTPRoute infra/example-route
      rule rule0: transformation

Lost:
  PATH                                                    RULE KEY  OUTCOME     BY
  infra/example-gateway#http → infra/example-route#rule0  cors      superseded  infra/extensionref-policy
"
    );
    let out = dopol(&["reach", "limits", "-f", "testdata/fidelity2/reach-bare"]);
    out.code(2);
    assert_eq!(
        out.stderr,
        "\
error: `limits` matches 2 policies; name one:
  authpolicy.kuadrant.io:infra/limits (AuthPolicy infra/limits)
  ratelimitpolicy.kuadrant.io:infra/limits (RateLimitPolicy infra/limits)
"
    );
    // With -n, a bare name is looked for in that namespace only.
    let out = dopol(&[
        "reach",
        "limits",
        "-n",
        "infra",
        "-f",
        "testdata/fidelity2/reach-bare",
    ]);
    out.code(2);
    assert!(
        out.stderr.starts_with("error: `limits` matches 2 policies"),
        "{}",
        out.stderr
    );
    let out = dopol(&["reach", "limitz", "-f", "testdata/fidelity2/reach-bare"]);
    out.code(2);
    assert_eq!(
        out.stderr,
        "error: no policy matches `limitz`; did you mean `limits`?\n"
    );
}
