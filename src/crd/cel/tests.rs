use super::*;
use crate::crd::schema::{Additional, Schema};
use crate::source::SourceId;
use crate::yaml::{Node, parse_chunk};
use std::path::{Path, PathBuf};

pub(crate) fn yaml(text: &str) -> Node {
    let mut diagnostics = Vec::new();
    let mut documents = parse_chunk(SourceId(0), text, 0..text.len(), &mut diagnostics);
    assert!(diagnostics.is_empty(), "{text}");
    documents.remove(0).root
}

fn crd_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("crds/ is readable")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            crd_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

/// Every (file, version, compiled schema) of the bundled CRDs.
fn bundled_schemas() -> Vec<(String, String, Schema)> {
    let mut files = Vec::new();
    crd_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("crds"),
        &mut files,
    );
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let json = yaml(&text).to_json();
        let versions = json["spec"]["versions"].as_array().expect("versions");
        for version in versions {
            let schema = Schema::compile(&version["schema"]["openAPIV3Schema"]).expect("schema");
            let name = path
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(&path)
                .display()
                .to_string();
            out.push((
                name,
                version["name"].as_str().unwrap_or("").to_string(),
                schema,
            ));
        }
    }
    out
}

/// The schema node holding a rule whose text contains `needle`, in the first schema of the
/// first file whose path contains `file`.
fn find<'s>(
    schemas: &'s [(String, String, Schema)],
    file: &str,
    needle: &str,
) -> (&'s Schema, &'s RuleSpec) {
    fn walk<'s>(s: &'s Schema, needle: &str) -> Option<(&'s Schema, &'s RuleSpec)> {
        if let Some(rule) = s.rules.iter().find(|r| r.rule.contains(needle)) {
            return Some((s, rule));
        }
        s.properties
            .iter()
            .find_map(|(_, p)| walk(p, needle))
            .or_else(|| s.items.as_deref().and_then(|i| walk(i, needle)))
            .or_else(|| match &s.additional {
                Additional::Schema(a) => walk(a, needle),
                _ => None,
            })
    }
    schemas
        .iter()
        .filter(|(name, _, _)| name.contains(file))
        .find_map(|(_, _, s)| walk(s, needle))
        .unwrap_or_else(|| panic!("no rule with {needle:?} in {file}"))
}

fn check(schema: &Schema, rule: &RuleSpec, value: &str) -> Verdict {
    let compiled = CompiledRule::compile(rule).expect("compiles");
    compiled.evaluate(&to_cel(&yaml(value), schema))
}

fn spec(rule: &str) -> RuleSpec {
    RuleSpec::new(rule)
}

fn object_schema(json: serde_json::Value) -> Schema {
    Schema::compile(&json).expect("schema")
}

#[test]
fn every_bundled_rule_compiles() {
    let schemas = bundled_schemas();
    let mut total = 0;
    let mut failures = Vec::new();
    for (file, version, schema) in &schemas {
        let mut rules = Vec::new();
        schema.visit_rules("", &mut rules);
        for (path, rule) in rules {
            total += 1;
            if let Err(reason) = CompiledRule::compile(rule) {
                failures.push(format!(
                    "{file} {version} {path}: {reason}\n  {}",
                    rule.rule
                ));
            }
        }
    }
    println!("{total} rules, {} not compiled", failures.len());
    assert!(total > 900, "{total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gateway_api_parent_refs_are_unique() {
    // gateway-api standard HTTPRoute v1, spec.parentRefs: the `exists_one` rule over
    // `__namespace__`, `sectionName` and `port`.
    let schemas = bundled_schemas();
    let (schema, rule) = find(
        &schemas,
        "standard/gateway.networking.k8s.io_httproutes",
        "p1.__namespace__ == p2.__namespace__ )) && (((!has(p1.sectionName)",
    );
    // The API server applies the schema defaults (`group`, `kind`) before the rules run.
    let ok = "- {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: a}\n\
              - {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: b}\n\
              - {group: gateway.networking.k8s.io, kind: Gateway, name: gw, namespace: other}";
    assert_eq!(check(schema, rule, ok), Verdict::Pass);
    let duplicate = "- {group: g, kind: Gateway, name: gw, namespace: ns, sectionName: a}\n\
                     - {group: g, kind: Gateway, name: gw, namespace: ns, sectionName: a}";
    let message = rule.message.as_deref().expect("message").trim().to_string();
    assert_eq!(
        check(schema, rule, duplicate),
        Verdict::Fail(message.clone())
    );
    // An empty namespace counts as absent.
    let empty = "- {group: g, kind: K, name: gw, namespace: ''}\n- {group: g, kind: K, name: gw}";
    assert_eq!(check(schema, rule, empty), Verdict::Fail(message));
}

#[test]
fn gateway_listeners_exists_one() {
    // gateway-api standard Gateway v1, spec.listeners: `self.all(l1, self.exists_one(l2, ...))`.
    let schemas = bundled_schemas();
    let (schema, rule) = find(
        &schemas,
        "standard/gateway.networking.k8s.io_gateways",
        "self.all(l1, self.exists_one(l2, l1.port == l2.port",
    );
    let ok = "- {name: a, port: 80, protocol: HTTP}\n- {name: b, port: 80, protocol: HTTP, hostname: x.example}";
    assert_eq!(check(schema, rule, ok), Verdict::Pass);
    let clash = "- {name: a, port: 80, protocol: HTTP}\n- {name: b, port: 80, protocol: HTTP}";
    assert!(matches!(check(schema, rule, clash), Verdict::Fail(_)));
}

#[test]
fn kuadrant_defaults_and_limits_are_exclusive() {
    // Kuadrant RateLimitPolicy v1, spec: defaults/overrides vs. implicit limits.
    let schemas = bundled_schemas();
    let (schema, rule) = find(
        &schemas,
        "kuadrant.io_ratelimitpolicies",
        "has(self.defaults) && has(self.limits)",
    );
    let target = "targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}\n";
    let ok = format!("{target}limits: {{a: {{rates: [{{limit: 1, window: 1m}}]}}}}");
    assert_eq!(check(schema, rule, &ok), Verdict::Pass);
    let both = format!(
        "{target}limits: {{a: {{rates: [{{limit: 1, window: 1m}}]}}}}\n\
         defaults: {{limits: {{a: {{rates: [{{limit: 1, window: 1m}}]}}}}}}"
    );
    let verdict = check(schema, rule, &both);
    assert!(matches!(verdict, Verdict::Fail(_)), "{verdict:?}");
}

#[test]
fn durations() {
    // gateway-api standard HTTPRoute v1, spec.rules[].timeouts: backendRequest within request.
    let schemas = bundled_schemas();
    let (schema, rule) = find(
        &schemas,
        "standard/gateway.networking.k8s.io_httproutes",
        "duration(self.backendRequest) > duration(self.request)",
    );
    assert_eq!(
        check(schema, rule, "{request: 10s, backendRequest: 5s}"),
        Verdict::Pass
    );
    assert_eq!(
        check(schema, rule, "{request: 0s, backendRequest: 5s}"),
        Verdict::Pass
    );
    assert!(matches!(
        check(schema, rule, "{request: 1s, backendRequest: 1m}"),
        Verdict::Fail(_)
    ));
    // Envoy Gateway: a duration lower bound.
    let (schema, rule) = find(&schemas, "envoy-gateway", "duration(self.samplingWindow)");
    assert_eq!(check(schema, rule, "{samplingWindow: 2s}"), Verdict::Pass);
    assert!(matches!(
        check(schema, rule, "{samplingWindow: 500ms}"),
        Verdict::Fail(_)
    ));
}

#[test]
fn kgateway_quantities() {
    // kgateway TrafficPolicy: an int-or-string size bounded with the quantity library.
    let schemas = bundled_schemas();
    let (schema, rule) = find(
        &schemas,
        "kgateway",
        "quantity(self).isLessThan(quantity('4Gi'))",
    );
    assert_eq!(check(schema, rule, "1Gi"), Verdict::Pass);
    assert_eq!(check(schema, rule, "100"), Verdict::Pass);
    assert!(matches!(check(schema, rule, "5Gi"), Verdict::Fail(_)));
    assert!(matches!(check(schema, rule, "0"), Verdict::Fail(_)));
    assert!(matches!(check(schema, rule, "'0'"), Verdict::Fail(_)));
    let label = rule.message.as_deref().unwrap_or(&rule.rule).trim();
    assert_eq!(
        check(schema, rule, "lots"),
        Verdict::Error(format!("{} evaluating rule: {label}", quantity::ERR_FORMAT))
    );
    assert_eq!(
        check(schema, rule, "1kk"),
        Verdict::Error(format!("{} evaluating rule: {label}", quantity::ERR_SUFFIX))
    );
}

#[test]
fn agentgateway_wildcards_use_index_of() {
    // agentgateway AgentgatewayPolicy: one `*` at most, first or last (strings `indexOf`).
    let schemas = bundled_schemas();
    let (schema, rule) = find(
        &schemas,
        "agentgateway",
        "k.indexOf('*') == k.lastIndexOf('*')",
    );
    assert_eq!(
        check(schema, rule, "['tools/*', '*/list', 'ping']"),
        Verdict::Pass
    );
    assert!(matches!(check(schema, rule, "['a*b']"), Verdict::Fail(_)));
    assert!(matches!(check(schema, rule, "['*a*']"), Verdict::Fail(_)));
}

#[test]
fn index_of_follows_cel_go() {
    let schema = object_schema(serde_json::json!({"type": "string"}));
    for rule in [
        "'hello mellow'.indexOf('ello') == 1 && 'hello mellow'.indexOf('jello') == -1",
        "'hello mellow'.indexOf('ello', 2) == 7 && 'hello'.indexOf('') == 0",
        "'hello mellow'.lastIndexOf('ello') == 7 && 'hello mellow'.lastIndexOf('ello', 6) == 1",
        "'hello'.lastIndexOf('') == 5 && 'ü*'.indexOf('*') == 1",
        "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(3) == -1",
    ] {
        assert_eq!(check(&schema, &spec(rule), "a"), Verdict::Pass, "{rule}");
    }
}

#[test]
fn optional_old_self_is_unset_on_create() {
    let schema = object_schema(serde_json::json!({"type": "string"}));
    let mut rule = spec("!oldSelf.hasValue() && oldSelf.orValue('x') == 'x' && self == 'a'");
    rule.optional_old_self = true;
    assert_eq!(check(&schema, &rule, "a"), Verdict::Pass);
    assert!(matches!(check(&schema, &rule, "b"), Verdict::Fail(_)));
    rule.optional_old_self = false;
    assert!(matches!(check(&schema, &rule, "a"), Verdict::Error(_)));
}

#[test]
fn messages_follow_the_api_server() {
    let schema = object_schema(serde_json::json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "num": {"type": "number"},
                       "namespace": {"type": "string"}, "a-b": {"type": "integer"}}
    }));
    let mut rule = spec("  self.name == 'x'  ");
    assert_eq!(
        check(&schema, &rule, "name: z"),
        Verdict::Fail("failed rule: self.name == 'x'".into())
    );
    rule.message = Some(" must be x ".into());
    assert_eq!(
        check(&schema, &rule, "name: z"),
        Verdict::Fail("must be x".into())
    );
    rule.message_expression = Some("'got ' + self.name".into());
    assert_eq!(
        check(&schema, &rule, "name: z"),
        Verdict::Fail("got z".into())
    );
    rule.message_expression = Some("1".into());
    assert_eq!(
        check(&schema, &rule, "name: z"),
        Verdict::Fail("must be x".into())
    );

    let missing = spec("self.name == 'x'");
    assert_eq!(
        check(&schema, &missing, "num: 1"),
        Verdict::Error("no such key: name evaluating rule: self.name == 'x'".into())
    );
    let overload = spec("self.name > 1");
    assert_eq!(
        check(&schema, &overload, "name: a"),
        Verdict::Error(
            "'no such overload': call arguments did not match a supported operator, function \
             or macro signature for rule: self.name > 1"
                .into()
        )
    );
    // Numbers are doubles, escaped names, undeclared fields invisible, non-nullable nulls
    // pruned.
    let typed = spec(
        "self.num == 1.0 && self.__namespace__ == 'ns' && self.a__dash__b == 2 && \
         !has(self.extra) && !has(self.name)",
    );
    assert_eq!(
        check(
            &schema,
            &typed,
            "{num: 1, namespace: ns, a-b: 2, extra: 1, name: null}"
        ),
        Verdict::Pass
    );
}

#[test]
fn unsupported_and_hostile_rules_are_refused_or_stopped() {
    let reason = CompiledRule::compile(&spec("self.isSorted()")).unwrap_err();
    assert!(reason.contains("list library"), "{reason}");
    let reason = CompiledRule::compile(&spec("frob(self)")).unwrap_err();
    assert!(reason.contains("frob"), "{reason}");
    assert!(CompiledRule::compile(&spec("self.x +")).is_err());
    assert!(CompiledRule::compile(&spec(&"(".repeat(10_000))).is_err());

    let schema = object_schema(serde_json::json!({"type": "integer"}));
    let list = format!("[{}]", vec!["0"; 1000].join(","));
    let runaway = spec(&format!("{list}.all(a, {list}.all(b, a + b == self))"));
    let started = std::time::Instant::now();
    let verdict = check(&schema, &runaway, "0");
    assert!(
        matches!(&verdict, Verdict::Error(e) if e.contains("steps")),
        "{verdict:?}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));

    let regex = spec("'aaaa'.matches('^(a|aa)*$') && !matches('b', 'a')");
    assert_eq!(check(&schema, &regex, "0"), Verdict::Pass);
    let bad = spec("'a'.matches('(')");
    assert!(matches!(check(&schema, &bad, "0"), Verdict::Error(e) if e.contains("regexp")));
}

#[test]
fn tall_rules_run_on_the_worker() {
    // The HTTPRoute rule summing matches over 16 rules is taller than the inline limit.
    let schemas = bundled_schemas();
    let (schema, rule) = find(
        &schemas,
        "standard/gateway.networking.k8s.io_httproutes",
        "(self.size() > 0 ? self[0].matches.size() : 0)",
    );
    let one = "- matches: [{path: {type: PathPrefix, value: /}}]\n";
    assert_eq!(check(schema, rule, &one.repeat(3)), Verdict::Pass);
    let many = format!(
        "- matches: [{}]\n",
        vec!["{path: {type: PathPrefix, value: /}}"; 65].join(", ")
    );
    assert!(matches!(
        check(schema, rule, &many.repeat(2)),
        Verdict::Fail(_)
    ));
}

/// Evaluates every rule under `schema` on `node`, as the validator does: `to_cel` once per
/// node with rules. Returns the number of rules evaluated and of failures.
fn validate(node: &Node, schema: &Schema, counts: &mut (usize, usize)) {
    if !schema.has_rules() {
        return;
    }
    if !schema.rules.is_empty() {
        let value = to_cel(node, schema);
        for rule in schema.rules.iter().filter(|r| !r.is_transition()) {
            if let Ok(compiled) = rule.compiled() {
                counts.0 += 1;
                let verdict = compiled.evaluate(&value);
                if verdict != Verdict::Pass {
                    if counts.1 < 8 {
                        eprintln!("{verdict:?}");
                    }
                    counts.1 += 1;
                }
            }
        }
    }
    if let Some(entries) = node.as_map() {
        for entry in entries {
            if let Some(child) = schema.field(&entry.key.text) {
                validate(&entry.value, child, counts);
            }
        }
    }
    if let (Some(items), Some(schema)) = (node.as_seq(), schema.items.as_deref()) {
        for item in items {
            validate(item, schema, counts);
        }
    }
}

/// The API server applies defaults (`group`, `kind`) before the rules: the route spells them.
/// `cargo test --release --lib crd::cel::tests::bench -- --ignored --nocapture`
#[test]
#[ignore]
fn bench_httproutes() {
    let schemas = bundled_schemas();
    let (_, _, root) = schemas
        .iter()
        .find(|(f, v, _)| f.contains("standard/gateway.networking.k8s.io_httproutes") && v == "v1")
        .expect("httproute v1");
    let route = yaml(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: ns}\n\
         spec:\n  parentRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}, {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: https}]\n  \
         hostnames: [a.example.com]\n  rules:\n  \
         - matches: [{path: {type: PathPrefix, value: /api}}, {headers: [{name: x, value: y}]}]\n    \
           filters: [{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: a, value: b}]}}]\n    \
           backendRefs: [{group: '', kind: Service, name: svc, port: 8080, weight: 1}]\n  \
         - matches: [{path: {type: Exact, value: /login}}]\n    backendRefs: [{group: '', kind: Service, name: login, port: 80}]\n",
    );
    let started = std::time::Instant::now();
    let mut counts = (0, 0);
    for _ in 0..36_000 {
        validate(&route, root, &mut counts);
    }
    let elapsed = started.elapsed();
    println!(
        "36000 HTTPRoutes: {} rule evaluations, {} not passing, {elapsed:?} ({:?} per route)",
        counts.0,
        counts.1,
        elapsed / 36_000
    );
    assert_eq!(counts.1, 0);
}

#[test]
fn the_resource_root_shows_type_and_object_meta() {
    let schema = object_schema(serde_json::json!({
        "type": "object",
        "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                       "metadata": {"type": "object"}, "spec": {"type": "object",
                       "properties": {"a": {"type": "integer"}}}}
    }));
    let rule = CompiledRule::compile(&spec(
        "self.kind == 'K' && self.metadata.name == 'nm' && !has(self.metadata.namespace) && self.spec.a == 1",
    ))
    .expect("compiles");
    let node = yaml("apiVersion: v1\nkind: K\nmetadata: {name: nm, namespace: ns}\nspec: {a: 1}");
    assert_eq!(rule.evaluate(&to_cel_root(&node, &schema)), Verdict::Pass);
}

/// Whether the fast path says `rule` holds on `node`.
fn fast(rule: &CompiledRule, node: &Node, schema: &Schema, root: bool) -> bool {
    Direct::new(node, schema, root).is_some_and(|mut direct| direct.holds(rule))
}

#[test]
fn the_fast_path_says_holds_only_when_the_rule_holds() {
    let schema = object_schema(serde_json::json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"}, "kind": {"type": "string"},
            "port": {"type": "integer"}, "ratio": {"type": "number"},
            "namespace": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "timeout": {"type": "string", "format": "duration"},
            "size": {"x-kubernetes-int-or-string": true},
            "gone": {"type": "string"}
        }
    }));
    let value = yaml(
        "{name: abc, kind: A, port: 80, ratio: 2, namespace: x, tags: [a, bb], \
         labels: {a: x, b: y}, timeout: 1s, size: 10, gone: null}",
    );
    // (rule, the fast path knows it holds, the general verdict is a pass)
    let cases: &[(&str, bool, bool)] = &[
        ("has(self.name) && self.name.startsWith('a')", true, true),
        (
            "self.name.endsWith('c') && self.name.contains('b')",
            true,
            true,
        ),
        ("self.name.startsWith('b')", false, false),
        ("self.port + 1 > 80 && self.port - 1 < 80", true, true),
        ("self.ratio == 2.0", true, true),
        ("self.tags.all(t, t.size() < 4)", true, true),
        (
            "self.tags.exists(t, t == 'bb') && self.tags.exists_one(t, t == 'a')",
            true,
            true,
        ),
        ("self.tags.all(t, t == 'a')", false, false),
        (
            "self.__namespace__ == 'x' && self['__namespace__'] == 'x'",
            true,
            true,
        ),
        (
            "size(self.labels) == 2 && self.labels['a'] == 'x' && has(self.labels.b)",
            true,
            true,
        ),
        (
            "self.kind in ['A', 'B'] && !(self.kind in ['C'])",
            true,
            true,
        ),
        ("self.name.matches('^a[b-c]+$')", true, true),
        (
            "self.tags[1] == 'bb' && size(self.tags) == 2 && self.size == 10",
            true,
            true,
        ),
        ("!has(self.gone) && size(self.labels) == 2", true, true),
        (
            "!has(self.port) || self.port <= 65535 ? true : false",
            true,
            true,
        ),
        // Outside the fast path: the general path decides.
        ("self.timeout == duration('1s')", false, true),
        ("self.tags.map(t, t + 'x').size() == 2", false, true),
        ("self.port == 80.0", false, true),
        // The size of an object reads every field, and `timeout` is a duration.
        ("size(self) == 9", false, true),
        ("self.name == 1", false, false),
        ("self.missing == 1", false, false),
        ("self.tags[5] == 'x'", false, false),
        ("self.port + 9223372036854775807 > 0", false, false),
        (
            "self.name.size() > 1 && self.tags.size() > 1 && self.labels.size() > 1",
            true,
            true,
        ),
    ];
    for (text, holds, passes) in cases {
        let rule = CompiledRule::compile(&spec(text)).expect(text);
        assert_eq!(fast(&rule, &value, &schema, false), *holds, "{text}");
        let verdict = rule.evaluate(&to_cel(&value, &schema));
        assert_eq!(verdict == Verdict::Pass, *passes, "{text}: {verdict:?}");
    }
}

#[test]
fn the_fast_path_reads_the_resource_root_as_the_api_server_does() {
    let schema = object_schema(serde_json::json!({
        "type": "object",
        "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                       "metadata": {"type": "object"}, "spec": {"type": "object",
                       "properties": {"a": {"type": "integer"}}}}
    }));
    let node = yaml("apiVersion: v1\nkind: K\nmetadata: {name: nm}\nspec: {a: 1}");
    let holds = |text: &str| {
        fast(
            &CompiledRule::compile(&spec(text)).expect(text),
            &node,
            &schema,
            true,
        )
    };
    assert!(holds(
        "self.kind == 'K' && self.apiVersion == 'v1' && self.spec.a == 1"
    ));
    // `metadata` of a resource is left to the general path.
    assert!(!holds("self.metadata.name == 'nm'"));
}

/// Every bundled kind: (group, kind, version, schema).
fn bundled_kinds() -> Vec<(String, String, String, Schema)> {
    let mut files = Vec::new();
    crd_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("crds"),
        &mut files,
    );
    let mut out = Vec::new();
    for path in files {
        let json = yaml(&std::fs::read_to_string(&path).expect("readable")).to_json();
        let group = json["spec"]["group"].as_str().unwrap_or("").to_string();
        let kind = json["spec"]["names"]["kind"]
            .as_str()
            .unwrap_or("")
            .to_string();
        for version in json["spec"]["versions"].as_array().expect("versions") {
            let schema = Schema::compile(&version["schema"]["openAPIV3Schema"]).expect("schema");
            let name = version["name"].as_str().unwrap_or("").to_string();
            out.push((group.clone(), kind.clone(), name, schema));
        }
    }
    out
}

/// Walks `node` under `schema` and compares the two paths on every rule: returns how many
/// rules passed, and how many of those the fast path answered.
fn compare_paths(node: &Node, schema: &Schema, root: bool, counts: &mut (usize, usize)) {
    if !schema.has_rules() {
        return;
    }
    let value = if root {
        to_cel_root(node, schema)
    } else {
        to_cel(node, schema)
    };
    for rule in schema.rules.iter().filter(|r| !r.is_transition()) {
        let Ok(compiled) = rule.compiled() else {
            continue;
        };
        let holds = fast(compiled, node, schema, root);
        let verdict = compiled.evaluate(&value);
        assert!(
            !holds || verdict == Verdict::Pass,
            "{}: {verdict:?}",
            rule.rule
        );
        if verdict == Verdict::Pass {
            counts.0 += 1;
            counts.1 += usize::from(holds);
        }
    }
    if let Some(entries) = node.as_map() {
        for entry in entries {
            if let Some(child) = schema.field(&entry.key.text) {
                compare_paths(&entry.value, child, false, counts);
            }
        }
    }
    if let (Some(items), Some(schema)) = (node.as_seq(), schema.items.as_deref()) {
        for item in items {
            compare_paths(item, schema, false, counts);
        }
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

/// Calls `f` with every object under `testdata/` that a bundled CRD version describes.
fn for_each_fixture_object(mut f: impl FnMut(&Node, &Schema)) {
    let kinds = bundled_kinds();
    let mut files = Vec::new();
    yaml_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"),
        &mut files,
    );
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut diagnostics = Vec::new();
        for document in parse_chunk(SourceId(0), &text, 0..text.len(), &mut diagnostics) {
            let root = &document.root;
            let field = |name: &str| root.get(name).and_then(|n| n.as_str()).unwrap_or("");
            let (group, version) = field("apiVersion").rsplit_once('/').unwrap_or(("", ""));
            let kind = field("kind");
            for (_, _, _, schema) in kinds
                .iter()
                .filter(|(g, k, v, _)| g == group && k == kind && v == version)
            {
                f(root, schema);
            }
        }
    }
}

#[test]
fn the_fast_path_agrees_with_the_general_path_on_every_fixture() {
    let mut counts = (0, 0);
    for_each_fixture_object(|root, schema| compare_paths(root, schema, true, &mut counts));
    println!(
        "{} passing rule evaluations, {} on the fast path",
        counts.0, counts.1
    );
    assert!(counts.0 > 1000, "{counts:?}");
    assert!(
        counts.1 * 10 >= counts.0 * 8,
        "the fast path answered too few: {counts:?}"
    );
}

/// Every value under a schema node with rules, keyed as the verdict memo keys it (by what
/// the rules observe), must get the verdicts of every other value with the same key.
fn alike_values(
    node: &Node,
    schema: &Schema,
    root: bool,
    seen: &mut std::collections::HashMap<(u64, String), (String, Vec<Verdict>)>,
    shared: &mut usize,
) {
    if !schema.has_rules() {
        return;
    }
    let compiled: Vec<&CompiledRule> = (schema.rules.iter())
        .filter(|r| !r.is_transition() || r.optional_old_self)
        .filter_map(|r| r.compiled().as_ref().ok())
        .collect();
    if !compiled.is_empty() && !root {
        let whole = |n: &Node, out: &mut String| {
            out.push_str(&serde_json::to_string(&n.to_json()).unwrap_or_default());
            true
        };
        let mut key = String::new();
        assert!(schema.seen().write_key(node, &mut key, usize::MAX, &whole));
        let verdicts = super::evaluate_all(&compiled, &to_cel(node, schema));
        let shown = serde_json::to_string(&node.to_json()).unwrap_or_default();
        match seen.entry((schema.memo_id(), key)) {
            std::collections::hash_map::Entry::Occupied(first) => {
                let (first_value, first_verdicts) = first.get();
                assert_eq!(
                    first_verdicts,
                    &verdicts,
                    "{first_value} and {shown} are alike to {:?}",
                    compiled.iter().map(|c| &c.label).collect::<Vec<_>>()
                );
                *shared += usize::from(*first_value != shown);
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert((shown, verdicts));
            }
        }
    }
    if let Some(entries) = node.as_map() {
        for entry in entries {
            if let Some(child) = schema.field(&entry.key.text) {
                alike_values(&entry.value, child, false, seen, shared);
            }
        }
    }
    if let (Some(items), Some(schema)) = (node.as_seq(), schema.items.as_deref()) {
        for item in items {
            alike_values(item, schema, false, seen, shared);
        }
    }
}

#[test]
fn values_alike_to_their_rules_get_the_same_verdicts_on_every_fixture() {
    let (mut seen, mut shared) = (std::collections::HashMap::new(), 0);
    for_each_fixture_object(|root, schema| {
        alike_values(root, schema, true, &mut seen, &mut shared);
    });
    // Distinct values that shared a key (and so were checked against each other).
    assert!(shared > 500, "only {shared} distinct values shared a key");
}

/// `expr` with every node id set to 0: the two parsers number map literal entries differently,
/// and nothing reads ids.
fn without_ids(expr: &IdedExpr) -> String {
    let text = format!("{expr:?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("id: ") {
        out.push_str(&rest[..at + 4]);
        rest = rest[at + 4..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('0');
    }
    out.push_str(rest);
    out
}

/// The fast parser may read a rule only if it builds the grammar's tree (`RuleParser`): for
/// every bundled rule and message expression, and for forms bundled rules do not use.
#[test]
fn the_fast_parser_builds_the_grammar_tree_for_every_bundled_rule() {
    let mut texts: Vec<String> = Vec::new();
    for (_, _, schema) in &bundled_schemas() {
        let mut rules = Vec::new();
        schema.visit_rules("", &mut rules);
        for (_, rule) in rules {
            texts.push(rule.rule.to_string());
            texts.extend(rule.message_expression.as_deref().map(str::to_string));
        }
    }
    let bundled = texts.len();
    texts.extend(
        [
            r#"{'a': 0, 'b': 1}[x] <= {?'c': optional.of(2)}['c']"#,
            r#"a.?b.orValue(c) ? [1, ?x, 3][0] : -1"#,
            r#"self.all(k, k != 'v') && self.exists_one(x, x == 1u) && has(self.a.b)"#,
            r#"r'\d' + string(b'\x00') + '''multi
line''' + "\u00e9\t""#,
            r#"x in [1.5e3, -0.0, 0x1F] || !!y || -(-z) == 3 % 2 * 4 / 5"#,
            r#"self.map(x, x * 2).filter(y, y > 1).size() > 0 ? 'a' : 'b'"#,
            r#"a.b.c(d)[e].f == g.h(i, j) && .top.level"#,
        ]
        .map(str::to_string),
    );
    let mut differences = Vec::new();
    for text in &texts {
        let grammar = grammar_parse(text).map(|e| without_ids(&e));
        let fast = fast_parser().parse(text).map(|e| without_ids(&e));
        match (grammar, fast) {
            (Ok(g), Ok(f)) if g == f => {}
            (g, f) => differences.push(format!("{text}\n  grammar: {g:?}\n  fast: {f:?}")),
        }
    }
    assert!(bundled > 900, "{bundled}");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
