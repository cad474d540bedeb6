//! User-defined policy families (docs/families.md §4) through the real binary: the re-declared
//! RateLimitPolicy gives byte-identical reports, the example TimeoutPolicy, a kgateway-model
//! kind, bad families files (located `invalid-families` errors, exit 2), and
//! `.dopol/families.yaml` picked up from the working directory.

use crate::common::{dopol, in_process, root, run_in};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const RLP_FAMILIES: &str = "examples/families/ratelimitpolicy.yaml";
const TIMEOUT_FAMILIES: &str = "examples/families/timeoutpolicy.yaml";
const TIMEOUTS: &str = "examples/families/timeouts";

/// Fixture directories where the re-declared RateLimitPolicy cannot give the built-in's
/// results, with why (docs/families.md "User-defined families" lists them too):
const EXCEPTIONS: &[(&str, &str)] = &[
    // v1beta3 objects: the built-in kind knows v1beta3 as an unserved version (read, reported
    // as `deprecated-api-version`); a declaration lists only current versions, so they are
    // `unsupported-api-version` and skipped.
    ("testdata/deprecated", "unserved API version v1beta3"),
    // Objects the CRD rejects on purpose, among them blocks holding only `when` predicates: the
    // hand-written empty-block check counts `limits` for the built-in kind, any rule for a
    // declaration (`what_a_declaration_cannot_reproduce`).
    (
        "testdata/crd/upstream/kuadrant-operator",
        "empty-block message",
    ),
    // A top-level `when` beside `defaults`: RateLimitPolicy's CRD names only `limits` in its
    // exclusive-blocks rule (accepted, ignored: `bare-field-ignored`); for a declaration every
    // bare rule clashes with a block (`exclusive-blocks`).
    (
        "testdata/codes/bare-field-ignored",
        "top-level when beside defaults",
    ),
];

/// Every directory under testdata holding a RateLimitPolicy manifest directly.
fn rlp_fixtures() -> Vec<String> {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        let holds = entries.iter().any(|p| {
            p.is_file()
                && std::fs::read_to_string(p).is_ok_and(|t| t.contains("kind: RateLimitPolicy"))
        });
        if holds {
            let relative = dir.strip_prefix(root()).unwrap();
            found.push(relative.to_string_lossy().into_owned());
        }
        for path in entries.iter().filter(|p| p.is_dir()) {
            walk(path, found);
        }
    }
    let mut found = Vec::new();
    walk(&root().join("testdata"), &mut found);
    found
}

/// `args` with and without the re-declaration: stdout and exit code must be identical (run in
/// process: the sweep runs some 3,500 commands).
fn same(args: &[&str]) {
    let plain = in_process(args);
    let mut declared_args = args.to_vec();
    declared_args.extend(["--families", RLP_FAMILIES]);
    let declared = in_process(&declared_args);
    assert_eq!(declared.stdout, plain.stdout, "stdout of {args:?}");
    assert_eq!(declared.code, plain.code, "exit code of {args:?}");
}

/// The RateLimitPolicies of a fixture (`ns/name`) and its path ids.
fn policies_and_paths(dir: &str) -> (Vec<String>, Vec<String>) {
    let status = in_process(&["status", "-o", "json", "-f", dir]).json();
    let policies = status["items"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|i| {
            i["policy"]
                .as_str()?
                .strip_prefix("ratelimitpolicy.kuadrant.io:")
        })
        .map(str::to_string)
        .collect();
    let effective = in_process(&["effective", "-o", "json", "-f", dir]).json();
    let mut paths: Vec<String> = effective["items"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter(|i| i["policyKind"] == "RateLimitPolicy")
        .map(|i| i["pathId"].as_str().unwrap().to_string())
        .collect();
    paths.dedup();
    (policies, paths)
}

fn check_fixture(dir: &str) {
    for format in ["table", "json", "yaml"] {
        for command in ["effective", "status", "overridden"] {
            same(&[command, "-o", format, "-f", dir]);
        }
    }
    for format in ["tree", "dot", "mermaid"] {
        same(&["topology", "-o", format, "-f", dir]);
    }
    let (policies, paths) = policies_and_paths(dir);
    for policy in policies.iter().take(2) {
        let locator = format!("RateLimitPolicy/{policy}");
        for format in ["table", "json", "yaml"] {
            same(&["reach", &locator, "-o", format, "-f", dir]);
            same(&["diff", "-o", format, "-f", dir, "--without", &locator]);
        }
    }
    for path in paths.iter().take(2) {
        for format in ["table", "json", "yaml"] {
            same(&["explain", "--path", path, "-o", format, "-f", dir]);
        }
    }
    lint_same_but_note(dir);
}

/// `lint -o json`: the same findings plus one `family-overrides-builtin` info at the
/// declaration.
fn lint_same_but_note(dir: &str) {
    let plain = in_process(&["lint", "-o", "json", "-f", dir]);
    let declared = in_process(&["lint", "-o", "json", "-f", dir, "--families", RLP_FAMILIES]);
    assert_eq!(declared.code, plain.code, "lint exit code for {dir}");
    let (plain, mut declared) = (plain.json(), declared.json());
    // Suggested commands repeat the run's inputs, `--families` included.
    let flag = format!(" --families {RLP_FAMILIES}`");
    for d in declared["diagnostics"].as_array_mut().unwrap() {
        if let Some(help) = d["help"].as_str() {
            d["help"] = Value::from(help.replace(&flag, "`"));
        }
    }
    let without_note: Vec<&Value> = declared["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] != "DPL4012")
        .collect();
    let expected: Vec<&Value> = plain["diagnostics"].as_array().unwrap().iter().collect();
    assert_eq!(without_note, expected, "lint findings for {dir}");
    let notes: Vec<&Value> = declared["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "DPL4012")
        .collect();
    assert_eq!(notes.len(), 1, "{dir}: {notes:?}");
    assert_eq!(notes[0]["file"], RLP_FAMILIES);
    assert_eq!(notes[0]["line"], 8);
    assert_eq!(notes[0]["severity"], "info");
}

#[test]
fn redeclared_rate_limit_policy_gives_byte_identical_reports() {
    let fixtures: Vec<String> = rlp_fixtures()
        .into_iter()
        .filter(|d| !EXCEPTIONS.iter().any(|(e, _)| e == d))
        .collect();
    assert!(fixtures.len() >= 20, "{fixtures:?}");
    std::thread::scope(|scope| {
        for chunk in fixtures.chunks(fixtures.len().div_ceil(3)) {
            scope.spawn(move || chunk.iter().for_each(|dir| check_fixture(dir)));
        }
    });
}

/// The sweeps above run commands in process; here that gives what the binary prints, to the
/// byte, on both streams, with its exit code — for every command and format the sweeps use,
/// an input error, a usage error and a flag that does not parse.
#[test]
fn in_process_runs_match_the_binary() {
    let dir = "testdata/examples/shop";
    let policy = "RateLimitPolicy/shop/checkout-limits";
    let mut runs: Vec<Vec<&str>> = Vec::new();
    for format in ["table", "json", "yaml"] {
        for command in ["effective", "status", "overridden"] {
            runs.push(vec![command, "-o", format, "-f", dir]);
        }
        runs.push(vec!["reach", policy, "-o", format, "-f", dir]);
        runs.push(vec!["diff", "-o", format, "-f", dir, "--without", policy]);
    }
    for format in ["tree", "dot", "mermaid"] {
        runs.push(vec!["topology", "-o", format, "-f", dir]);
    }
    runs.extend([
        vec!["lint", "-o", "json", "-f", dir, "--families", RLP_FAMILIES],
        vec!["lint", "-f", "testdata/codes/bare-field-ignored", "-v"],
        vec!["effective", "-f", "testdata/families/limit-shape"],
        vec!["reach", "RateLimitPolicy/nowhere/none", "-f", dir],
        vec!["effective", "--no-such-flag"],
    ]);
    for args in runs {
        let (binary, inside) = (dopol(&args), in_process(&args));
        assert_eq!(inside.stdout, binary.stdout, "stdout of {args:?}");
        assert_eq!(inside.stderr, binary.stderr, "stderr of {args:?}");
        assert_eq!(inside.code, binary.code, "exit code of {args:?}");
    }
}

#[test]
fn what_a_declaration_cannot_reproduce() {
    // testdata/deprecated: the v1beta3 RateLimitPolicies are skipped with a warning.
    dopol(&[
        "effective",
        "-f",
        "testdata/deprecated",
        "--families",
        RLP_FAMILIES,
    ])
    .code(0)
    .stderr_has(&["[DPL1012]"]);
    // A top-level `when` beside `defaults`: ignored by the built-in kind, an error for a
    // declaration.
    let dir = "testdata/codes/bare-field-ignored";
    dopol(&["lint", "-f", dir])
        .code(0)
        .stderr_has(&["0 errors"]);
    dopol(&["lint", "-f", dir, "--families", RLP_FAMILIES])
        .code(3)
        .stdout_has(&["[DPL1010] Implicit and explicit defaults are mutually exclusive"]);
    // The CRD's shape rules inside a limit: objects are validated against the CRD of their
    // group and kind, so the declared kind (which takes limits whole) rejects the object too
    // (testdata/families/limit-shape, also checked byte for byte above).
    let dir = "testdata/families/limit-shape";
    for extra in [&[][..], &["--families", RLP_FAMILIES][..]] {
        let mut args = vec!["effective", "-f", dir];
        args.extend_from_slice(extra);
        dopol(&args).code(3).stderr_has(&[
            "[DPL1015] spec.limits.daily.rates[0].window: Invalid value: \"1d\"",
            "[DPL1009] unknown field \"spec.limits.daily.burst\"",
        ]);
    }
    let doc = report_exiting("effective", dir, RLP_FAMILIES, 3);
    assert_eq!(doc["items"], json!([]));
}

#[test]
fn request_keeps_the_built_in_predicates_of_a_redeclared_kind() {
    for args in [
        ["POST", "http://api.toystore.com/toys", "-H", "x-team: toys"],
        ["GET", "http://api.toystore.com/toys", "-H", "x-team: none"],
    ] {
        let mut all = vec!["request", "-o", "json", "-f", "testdata/request/kuadrant"];
        all.extend_from_slice(&args);
        same(&all);
    }
}

/// `dopol <command> -o json -f <manifests> --families <families>`, exit 0, as JSON.
fn report(command: &str, manifests: &str, families: &str) -> Value {
    report_exiting(command, manifests, families, 0)
}

/// [`report`] of a run that exits with `code`.
fn report_exiting(command: &str, manifests: &str, families: &str, code: i32) -> Value {
    let out = dopol(&[
        command,
        "-o",
        "json",
        "-f",
        manifests,
        "--families",
        families,
    ]);
    out.code(code);
    out.json()
}

/// `effective -o json` rules of one path: key → (value, source, origins).
fn rules_of(doc: &Value, kind: &str, path_suffix: &str) -> Value {
    let item = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["policyKind"] == kind && i["pathId"].as_str().unwrap().ends_with(path_suffix))
        .unwrap_or_else(|| panic!("no {kind} item for {path_suffix}: {doc:#}"));
    item["rules"].clone()
}

fn rule(value: Value, source: &str) -> Value {
    json!({"value": value, "source": source, "origins": [source]})
}

#[test]
fn timeout_policy_effective_values_sources_and_origins() {
    let doc = report("effective", TIMEOUTS, TIMEOUT_FAMILIES);
    let gw = "timeoutpolicy.platform.example.com:infra/gw-timeouts";
    let cart = "timeoutpolicy.platform.example.com:shop/cart-timeouts";
    let cap = "timeoutpolicy.platform.example.com:infra/gw-idle-cap";
    assert_eq!(
        rules_of(&doc, "TimeoutPolicy", "shop/cart#rule-1"),
        json!({
            "idle#": rule(json!("5m"), cap),
            "retries#connect-failure": rule(json!({"name": "connect-failure", "attempts": 3}), cart),
            "retries#on-5xx": rule(json!({"name": "on-5xx", "attempts": 2}), gw),
            "timeouts#backendRequest": rule(json!("20s"), gw),
            "timeouts#request": rule(json!("5s"), cart),
        })
    );
    assert_eq!(
        rules_of(&doc, "TimeoutPolicy", "shop/catalog#rule-1"),
        json!({
            "idle#": rule(json!("5m"), cap),
            "retries#on-5xx": rule(json!({"name": "on-5xx", "attempts": 2}), gw),
            "timeouts#backendRequest": rule(json!("20s"), gw),
            "timeouts#request": rule(json!("30s"), gw),
        })
    );
    assert_eq!(doc["items"][0]["policyGroup"], "platform.example.com");
}

#[test]
fn timeout_policy_status_and_overridden() {
    let out = dopol(&[
        "status",
        "-o",
        "json",
        "-f",
        TIMEOUTS,
        "--families",
        TIMEOUT_FAMILIES,
    ]);
    let doc = out.json();
    let conditions = |name: &str| -> Vec<(String, String, String, String)> {
        let item = doc["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["policy"].as_str().unwrap().ends_with(&format!("/{name}")))
            .unwrap_or_else(|| panic!("{name}: {doc:#}"));
        item["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let s = |k: &str| c[k].as_str().unwrap().to_string();
                (s("type"), s("status"), s("reason"), s("message"))
            })
            .collect()
    };
    for (name, enforced) in [
        ("gw-timeouts", "partially"),
        ("cart-timeouts", "partially"),
        ("gw-idle-cap", "successfully"),
    ] {
        let expected = [
            (
                "Accepted",
                "True",
                "Accepted",
                "TimeoutPolicy has been accepted".to_string(),
            ),
            (
                "Enforced",
                "True",
                "Enforced",
                format!("TimeoutPolicy has been {enforced} enforced"),
            ),
        ]
        .map(|(t, s, r, m)| (t.to_string(), s.to_string(), r.to_string(), m));
        assert_eq!(conditions(name), expected, "{name}");
    }
    let overridden = report("overridden", TIMEOUTS, TIMEOUT_FAMILIES);
    let short = |v: &Value| {
        v.as_str()
            .unwrap()
            .rsplit(['|', ':'])
            .next()
            .unwrap()
            .to_string()
    };
    type Row = (String, String, String, String, Vec<String>, Vec<String>);
    let lost: Vec<Row> = overridden["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let all = |k: &str| i[k].as_array().unwrap().iter().map(short).collect();
            let s = |k: &str| i[k].as_str().unwrap().to_string();
            (
                short(&i["policy"]),
                s("block"),
                s("key"),
                s("outcome"),
                all("by"),
                all("pathIds"),
            )
        })
        .collect();
    let row = |p: &str, k: &str, o: &str, by: &str, paths: &[&str]| {
        let paths = paths.iter().map(|p| p.to_string()).collect();
        (
            p.to_string(),
            "defaults".to_string(),
            k.to_string(),
            o.to_string(),
            vec![by.to_string()],
            paths,
        )
    };
    assert_eq!(
        lost,
        [
            row(
                "infra/gw-timeouts",
                "idle#",
                "superseded",
                "infra/gw-idle-cap",
                &["shop/cart#rule-1", "shop/catalog#rule-1"]
            ),
            row(
                "infra/gw-timeouts",
                "timeouts#request",
                "superseded",
                "shop/cart-timeouts",
                &["shop/cart#rule-1"]
            ),
            row(
                "shop/cart-timeouts",
                "idle#",
                "overridden",
                "infra/gw-idle-cap",
                &["shop/cart#rule-1"]
            ),
        ]
    );
}

#[test]
fn kgateway_model_kind_merges_plain_fields_by_scope() {
    let dir = "testdata/families/kgateway-model";
    let doc = report(
        "effective",
        &format!("{dir}/manifests.yaml"),
        &format!("{dir}/families.yaml"),
    );
    let route = "headerpolicy.edge.example.com:shop/route-headers";
    let gw = "headerpolicy.edge.example.com:infra/gw-headers";
    let ext = "headerpolicy.edge.example.com:shop/ext-headers";
    // rule-1: the ExtensionRef policy first, then the route's; the Gateway scope fills the
    // rest (every rule is a plain field: most specific scope wins whole).
    assert_eq!(
        rules_of(&doc, "HeaderPolicy", "shop/app#rule-1"),
        json!({
            "banner": rule(json!("from-extension-ref"), ext),
            "cacheControl": rule(json!({"maxAge": 60}), route),
            "server": rule(json!("edge"), gw),
        })
    );
    assert_eq!(
        rules_of(&doc, "HeaderPolicy", "shop/app#rule-2"),
        json!({
            "banner": rule(json!("route"), route),
            "cacheControl": rule(json!({"maxAge": 60}), route),
            "server": rule(json!("edge"), gw),
        })
    );
    let status = report(
        "status",
        &format!("{dir}/manifests.yaml"),
        &format!("{dir}/families.yaml"),
    );
    let gw_item = status["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["policy"] == "headerpolicy.edge.example.com:infra/gw-headers")
        .unwrap();
    assert_eq!(gw_item["conditions"][0]["reason"], "Valid");
    assert_eq!(gw_item["conditions"][1]["type"], "Attached");
    assert_eq!(gw_item["ancestors"][0]["ancestorRef"]["name"], "gw");
}

/// A kgateway-model kind with `ListenerSet` in `targetKinds` (field-2026 §1.6): on a path
/// through a set's listener its listener level is `S#L` then `S`, above the Gateway scope.
#[test]
fn kgateway_model_kind_reads_listener_set_targets() {
    let dir = "testdata/families/kgateway-listenerset";
    let doc = report(
        "effective",
        &format!("{dir}/manifests.yaml"),
        &format!("{dir}/families.yaml"),
    );
    let p = |name: &str| format!("headerpolicy.edge.example.com:infra/{name}");
    assert_eq!(
        rules_of(&doc, "HeaderPolicy", "shop/app#rule-1"),
        json!({
            "banner": rule(json!("set"), &p("set-headers")),
            "cacheControl": rule(json!("set-listener"), &p("set-http-headers")),
            "server": rule(json!("edge"), &p("gw-headers")),
        })
    );
    let status = report(
        "status",
        &format!("{dir}/manifests.yaml"),
        &format!("{dir}/families.yaml"),
    );
    let set = (status["items"].as_array().unwrap().iter())
        .find(|i| i["policy"] == p("set-headers"))
        .unwrap();
    assert_eq!(set["ancestors"][0]["ancestorRef"]["kind"], "ListenerSet");
}

#[test]
fn envoy_gateway_model_kind_wins_whole_merges_and_conflicts() {
    let dir = "testdata/families/envoy-model";
    let (manifests, families) = (
        format!("{dir}/manifests.yaml"),
        format!("{dir}/families.yaml"),
    );
    let doc = report("effective", &manifests, &families);
    let at = |name: &str| format!("backendpolicy.edge.example.com:shop/{name}");
    let both = |value: Value| json!({"value": value, "source": at("cart"), "origins": [at("cart"), at("gw-defaults")]});
    // StrategicMerge into the oldest Gateway policy: maps merged, `compression` keyed by `type`
    // (route items first); `comment` is excluded, so it is no rule.
    assert_eq!(
        rules_of(&doc, "BackendPolicy", "shop/cart#rule-1"),
        json!({
            "compression": both(json!([{"type": "Brotli"}, {"type": "Gzip"}])),
            "timeout": both(json!({"request": "5s", "idle": "5m"})),
        })
    );
    // No mergeType: the route policy wins whole, nothing inherited.
    assert_eq!(
        rules_of(&doc, "BackendPolicy", "shop/catalog#rule-1"),
        json!({"retries": rule(json!(3), &at("catalog"))})
    );
    let status = report("status", &manifests, &families);
    let conditions = |name: &str| {
        let item = status["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["policy"] == at(name))
            .unwrap_or_else(|| panic!("{name}: {status:#}"));
        let list = item["ancestors"][0]["conditions"]
            .as_array()
            .unwrap()
            .clone();
        list.iter()
            .map(|c| format!("{}/{}: {}", c["type"], c["reason"], c["message"]).replace('"', ""))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        conditions("gw-defaults")[1..],
        [
            "Merged/Merged: This policy is being merged by other backendPolicies for these routes: [shop/cart]",
            "Overridden/Overridden: This policy is being overridden by other backendPolicies for these routes: [shop/catalog]",
        ]
    );
    assert!(
        conditions("cart")
            .contains(&"Merged/Merged: Merged with policy shop/gw-defaults".to_string())
    );
    assert_eq!(
        conditions("gw-late"),
        [
            "Accepted/Conflicted: Unable to target Gateway gw, another BackendPolicy has already attached to it"
        ]
    );
}

/// A bad families file: the `(line, column)` of every problem (exit 2), and stderr.
fn bad(name: &str) -> (Vec<(u64, u64)>, String) {
    let file = format!("testdata/families/bad/{name}.yaml");
    let out = dopol(&["effective", "-f", TIMEOUTS, "--families", &file]);
    out.code(2);
    let lines: Vec<&str> = out.stderr.lines().collect();
    let mut located = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.contains("[DPL1014]") {
            continue;
        }
        let at = lines[i..]
            .iter()
            .find_map(|l| l.split_once(&format!("[{file}:")).map(|(_, rest)| rest))
            .unwrap_or_else(|| panic!("not located:\n{}", out.stderr));
        let mut parts = at.trim_end_matches(']').split(':');
        let line: u64 = parts.next().unwrap().parse().unwrap();
        let column: u64 = parts.next().unwrap().parse().unwrap();
        located.push((line, column));
    }
    (located, out.stderr)
}

#[test]
fn bad_families_files_give_located_errors_and_exit_2() {
    type Case<'a> = (&'a str, &'a [(u64, u64)], &'a str);
    let cases: &[Case] = &[
        ("unknown-model", &[(10, 10)], "did you mean `kgateway`?"),
        (
            "path-not-in-schema",
            &[(14, 11)],
            "does not exist in the declared schema",
        ),
        ("duplicate-kind", &[(15, 9)], "is declared twice"),
        ("unknown-key", &[(11, 3)], "did you mean `targetKinds`?"),
        ("rules-and-fields", &[(13, 3)], "both `rules` and `fields`"),
        (
            "bad-template",
            &[(13, 65)],
            "the only placeholder is `{name}`",
        ),
        (
            "blocks-on-kgateway",
            &[(12, 3)],
            "only for the `kuadrant` model",
        ),
        ("yaml-syntax", &[(10, 10)], "invalid YAML"),
        (
            "listenerset-on-kuadrant",
            &[(9, 26)],
            "`ListenerSet` is read by the `kgateway` and `envoy-gateway` models only, not by `kuadrant`",
        ),
    ];
    for (name, at, message) in cases {
        let (located, stderr) = bad(name);
        assert_eq!(&located, at, "{name}:\n{stderr}");
        assert!(
            stderr.contains(message),
            "{name}: no {message:?}:\n{stderr}"
        );
        assert!(
            stderr.contains("error: the families file is not valid"),
            "{stderr}"
        );
    }
}

#[test]
fn families_errors_in_lint_json() {
    let out = dopol(&[
        "lint",
        "-o",
        "json",
        "-f",
        TIMEOUTS,
        "--families",
        "testdata/families/bad/unknown-model.yaml",
    ]);
    out.code(2);
    let doc = out.json();
    let found = &doc["diagnostics"][0];
    assert_eq!(found["code"], "DPL1014");
    assert_eq!(found["file"], "testdata/families/bad/unknown-model.yaml");
    assert_eq!(
        (found["line"].as_u64(), found["column"].as_u64()),
        (Some(10), Some(10))
    );
    assert_eq!(found["help"], "did you mean `kgateway`?");
    assert_eq!(doc["diagnostics"].as_array().unwrap().len(), 1);
}

#[test]
fn dopol_families_yaml_is_read_from_the_working_directory() {
    let dir = root().join("testdata/families/workdir");
    let out = run_in(
        &dir,
        &["effective", "-o", "json", "-f", "manifests.yaml", "-v"],
        None,
    );
    out.code(0);
    out.stderr_has(&["reading policy families from .dopol/families.yaml"]);
    let doc = out.json();
    let rules = rules_of(&doc, "TimeoutPolicy", "shop/cart#rule-1");
    assert_eq!(
        rules["timeouts#request"],
        rule(
            json!("5s"),
            "timeoutpolicy.platform.example.com:shop/cart-timeouts"
        )
    );
    // --families wins over the working directory's file.
    let out = run_in(
        &dir,
        &[
            "effective",
            "-f",
            "manifests.yaml",
            "--families",
            "../bad/unknown-model.yaml",
        ],
        None,
    );
    out.code(2);
}

#[test]
fn kuadrant_model_unset_constraint_and_crd_like_checks() {
    let dir = "testdata/families/kuadrant-model";
    let (manifests, families) = (
        format!("{dir}/manifests.yaml"),
        format!("{dir}/families.yaml"),
    );
    let doc = report_exiting("effective", &manifests, &families, 3);
    let locator = |name: &str| format!("timeoutpolicy.platform.example.com:{name}");
    // cart: `unset` deactivates the Gateway default `timeouts#request`; the listener override's
    // constraint sees the declared spec shape (spec.timeouts.backendRequest) and holds.
    assert_eq!(
        rules_of(&doc, "TimeoutPolicy", "shop/cart#rule-1"),
        json!({
            "idle#": rule(json!("1m"), &locator("infra/gw-cap")),
            "timeouts#backendRequest": rule(json!("5s"), &locator("shop/cart")),
        })
    );
    // orders: the constraint does not hold, the Gateway defaults apply.
    assert_eq!(
        rules_of(&doc, "TimeoutPolicy", "shop/orders#rule-1"),
        json!({
            "idle#": rule(json!("10m"), &locator("infra/gw-defaults")),
            "timeouts#backendRequest": rule(json!("20s"), &locator("infra/gw-defaults")),
            "timeouts#request": rule(json!("30s"), &locator("infra/gw-defaults")),
        })
    );
    let lint = report_exiting("lint", &manifests, &families, 3);
    let found: Vec<(String, u64, u64)> = lint["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            let n = |k: &str| d[k].as_u64().unwrap();
            (
                d["name"].as_str().unwrap().to_string(),
                n("line"),
                n("column"),
            )
        })
        .collect();
    let at = |name: &str, line, column| (name.to_string(), line, column);
    assert_eq!(
        found,
        [
            at("exclusive-blocks", 72, 3),
            at("empty-block", 81, 3),
            at("invalid-object", 89, 15),
        ]
    );
}

#[test]
fn every_command_works_for_a_declared_kind() {
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["-f", TIMEOUTS, "--families", TIMEOUT_FAMILIES]);
        dopol(&all)
    };
    run(&["reach", "infra/gw-timeouts"])
        .code(0)
        .stdout_has(&["TimeoutPolicy infra/gw-timeouts reaches 2 of 2 paths"]);
    run(&["explain", "--route", "shop/cart"])
        .code(0)
        .stdout_has(&["[2] infra/gw-idle-cap, overrides (merge)"]);
    run(&["topology"]).code(0).stdout_has(&[
        "policy TimeoutPolicy infra/gw-idle-cap [overrides merge]",
        "policy TimeoutPolicy shop/cart-timeouts [defaults merge]",
    ]);
    // What if the listener override goes: each route's own or the Gateway's idle comes back.
    let diff = run(&[
        "diff",
        "-o",
        "json",
        "--without",
        "TimeoutPolicy/infra/gw-idle-cap",
    ]);
    diff.code(1);
    let text = diff.stdout;
    assert!(
        text.contains("\"1h\"") && text.contains("\"10m\""),
        "{text}"
    );
    // No request-time conditions: every effective rule applies.
    run(&["request", "GET", "http://x/cart"])
        .code(0)
        .stdout_has(&["timeouts#request         true     this family has no request-time conditions  shop/cart-timeouts"]);
}

/// An envoy-gateway-model kind with `ListenerSet` in `targetKinds` (field-2026 §1.6): Envoy
/// Gateway's slots, the most specific winning whole (`S#L` > `S` > `G`), and the scope-graph
/// wording naming ListenerSets in the losers' Overridden.
#[test]
fn envoy_gateway_model_kind_reads_listener_set_targets() {
    let dir = "testdata/families/envoy-listenerset";
    let (manifests, families) = (
        format!("{dir}/manifests.yaml"),
        format!("{dir}/families.yaml"),
    );
    let doc = report("effective", &manifests, &families);
    let p = |name: &str| format!("headerpolicy.edge.example.com:infra/{name}");
    assert_eq!(
        rules_of(&doc, "HeaderPolicy", "shop/app#rule-1"),
        json!({"cacheControl": rule(json!("set-listener"), &p("set-http-headers"))})
    );
    let status = report("status", &manifests, &families);
    let item = |name: &str| {
        (status["items"].as_array().unwrap().iter())
            .find(|i| i["policy"] == p(name))
            .unwrap()
            .clone()
    };
    assert_eq!(
        item("gw-headers")["conditions"][1]["message"],
        "This policy is being overridden by other headerPolicies for these listenersets: [infra/ext] and these listenerset listeners: [infra/ext/http]"
    );
    assert_eq!(item("set-headers")["conditions"][1]["reason"], "Overridden");
    assert_eq!(
        item("set-http-headers")["conditions"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}
