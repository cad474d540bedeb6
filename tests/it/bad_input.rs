//! Bad input never panics and never silently disappears (docs/semantics.md#1-inputs): located diagnostics, the
//! broken object left out, the valid rest evaluated and printed, exit code 3.

use crate::common::{GATEWAY, dopol, effective, items, owners, root, run_in, stream, triples};

#[test]
fn broken_documents_are_reported_with_location_and_the_rest_is_printed() {
    let out = effective(&["testdata/bad/mixed"], &[]);
    out.code(3).stderr_has(&[
        // non-UTF-8: file, line, column, snippet
        "[DPL1003] the file is not valid UTF-8 (1 invalid byte sequence)",
        "testdata/bad/mixed/latin1.yaml:4:21",
        // YAML syntax error in the second document of a file
        "[DPL1001] invalid YAML: while parsing a flow sequence, expected ',' or ']'",
        "testdata/bad/mixed/syntax-error.yaml:18:",
        // wrong field type (the API server's message)
        "[DPL1015] spec.listeners[0].port: Invalid value: \"string\": spec.listeners[0].port in body must be of type integer: \"string\"",
        "testdata/bad/mixed/wrong-shapes.yaml:10:11",
        // missing required field
        "[DPL1015] spec.targetRef.name: Required value",
        // unknown strategy
        "[DPL1015] spec.defaults.strategy: Unsupported value: \"sometimes\": supported values: \"atomic\", \"merge\"",
        "testdata/bad/mixed/wrong-shapes.yaml:29:15",
        // YAML 1.1 boolean where Kubernetes wants a string
        "[DPL1005] `metadata.labels.enabled` must be a string, found a boolean",
        // not an object at all
        "[DPL1004] skipped a document that is not a Kubernetes object",
        "│     port: eighty",
    ]);
    let doc = out.json();
    let path = "kuadrant|infra/gw|infra/gw#http|app/shop|app/shop#rule-1";
    assert_eq!(
        owners(&doc, "AuthPolicy", path),
        triples(&[("authentication#fine", "fine-auth", "infra/fine-auth")])
    );
    assert_eq!(
        items(&doc).len(),
        2,
        "the good AuthPolicy and RateLimitPolicy, nothing from broken objects"
    );
}

#[test]
fn empty_input_is_an_input_error() {
    dopol(&["effective", "-f", "testdata/bad/empty"])
        .code(3)
        .stderr_has(&["[DPL1008] the input contains no Kubernetes objects"]);
    run_in(&root(), &["effective", "-f", "-"], Some(b""))
        .code(3)
        .stderr_has(&["[DPL1008]"]);
}

#[test]
fn unreadable_paths_are_reported_and_the_rest_evaluated() {
    let out = effective(
        &[
            "testdata/no-such-file.yaml",
            "testdata/nothing-*.yaml",
            "testdata/rfc0009/a1",
        ],
        &[],
    );
    out.code(3).stderr_has(&[
        "[DPL1002] `testdata/no-such-file.yaml` does not exist",
        "[DPL1002] `testdata/nothing-*.yaml` matches no file",
    ]);
    assert_eq!(items(&out.json()).len(), 1);
}

#[test]
fn duplicate_objects_name_both_locations_and_keep_the_first() {
    let out = effective(
        &["testdata/rfc0009/d1", "testdata/rfc0009/d2/policies.yaml"],
        &[],
    );
    out.code(3).stderr_has(&[
        "[DPL1006] AuthPolicy infra/gw-auth is defined more than once; the first definition is used",
        "testdata/rfc0009/d2/policies.yaml:5:9",
        "testdata/rfc0009/d1/policies.yaml:5:9",
    ]);
    // d1's route policy (authentication.c) is kept, not d2's.
    let doc = out.json();
    let got = owners(
        &doc,
        "AuthPolicy",
        "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1",
    );
    assert!(
        got.iter().any(|(k, _, _)| k == "authentication#c"),
        "{got:?}"
    );
}

#[test]
fn hostile_yaml_fails_cleanly() {
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        bomb.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![format!("*a{}", i - 1); 10].join(", ")
        ));
    }
    run_in(&root(), &["effective", "-f", "-"], Some(bomb.as_bytes()))
        .code(3)
        .stderr_has(&["aliases expand to more than"]);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    run_in(&root(), &["effective", "-f", "-"], Some(deep.as_bytes()))
        .code(3)
        .stderr_has(&["[DPL1001]"]);
    run_in(
        &root(),
        &["effective", "-f", "-"],
        Some(b"\x00\x01\x02 garbage: ["),
    )
    .code(3);
}

#[cfg(unix)]
#[test]
fn directory_symlink_loops_are_walked_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    for file in ["policies.yaml", "topology.yaml"] {
        std::fs::copy(
            root().join("testdata/rfc0009/a1").join(file),
            dir.path().join(file),
        )
        .expect("fixture copied");
    }
    std::os::unix::fs::symlink(dir.path(), dir.path().join("loop")).expect("symlink");
    let out = run_in(dir.path(), &["effective", "-f", ".", "-o", "json"], None);
    out.code(0).stderr_lacks(&["DPL1006", "duplicate"]);
    let reference = effective(&["testdata/rfc0009/a1"], &[]);
    assert_eq!(out.stdout, reference.stdout);
}

#[test]
fn a_limit_named_like_a_reserved_key_is_rejected() {
    let manifest = &stream(&[
        GATEWAY,
        "apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: rl, namespace: infra}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  when: [{predicate: \"true\"}]
  limits:
    \"###_TOP_LEVEL_PREDICATES_###\": {rates: [{limit: 1, window: 1m}]}
",
    ]);
    run_in(&root(), &["lint", "-f", "-"], Some(manifest.as_slice()))
        .code(3)
        .stdout_has(&[
            "[DPL1005] rule key `###_TOP_LEVEL_PREDICATES_###` is used twice in `spec`",
            "<stdin>:16:5",
        ]);
}

#[test]
fn syntax_errors_in_a_json_stream_point_into_the_right_value() {
    let stream =
        b"{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}
{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\",
  \"metadata\": {\"name\": \"b\",, }}
";
    run_in(&root(), &["lint", "-f", "-"], Some(stream))
        .code(3)
        .stdout_has(&["[DPL1001] invalid YAML", "<stdin>:3:28"]);
}
