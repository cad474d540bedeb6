//! Bounded work (docs/limits.md), through the real binary: for every limit, a crafted input
//! that hits it stops fast, with a diagnostic naming the limit and its value, the exit code of
//! an input problem (never 4, a bug), and the valid rest of the input still evaluated.

use crate::common::{GATEWAY, Output, ROUTE, rules, run_in, stream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The path of [`ROUTE`]'s only rule.
const PATH: &str = "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1";

/// How long a run that hits a limit may take, in a debug build.
const FAST: Duration = Duration::from_secs(5);

/// A valid RateLimitPolicy on [`ROUTE`], with the limit `kept`.
const VALID_POLICY: &str = "apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: valid, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}
  limits:
    kept: {rates: [{limit: 5, window: 1s}]}
";

/// A scratch directory of input files, removed when dropped.
struct Inputs(PathBuf);

impl Inputs {
    /// A new directory named after the test, holding `valid.yaml` ([`GATEWAY`], [`ROUTE`],
    /// [`VALID_POLICY`]) and `hostile.yaml`.
    fn new(test: &str, hostile: &str) -> Inputs {
        let dir = std::env::temp_dir().join(format!("dopol-limits-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let inputs = Inputs(dir);
        inputs.write("valid.yaml", &stream(&[GATEWAY, ROUTE, VALID_POLICY]));
        inputs.write("hostile.yaml", hostile.as_bytes());
        inputs
    }

    fn write(&self, name: &str, bytes: &[u8]) {
        std::fs::write(self.0.join(name), bytes).expect("input written");
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// Runs `dopol args...` in the directory, asserting it finished within `within`.
    fn run_within(&self, args: &[&str], within: Duration) -> Output {
        let started = Instant::now();
        let out = run_in(self.path(), args, None);
        let elapsed = started.elapsed();
        assert!(
            elapsed < within,
            "took {elapsed:?}; stderr:\n{}",
            out.stderr
        );
        assert_ne!(out.code, 4, "internal error; stderr:\n{}", out.stderr);
        out
    }

    /// `dopol effective -o json -f .`, within [`FAST`].
    fn effective(&self) -> Output {
        self.run_within(&["effective", "-o", "json", "-f", "."], FAST)
    }

    /// `dopol request -o json -f . GET http://x.test/`, within [`FAST`].
    fn request(&self) -> Output {
        let args = ["request", "-o", "json", "-f", ".", "GET", "http://x.test/"];
        self.run_within(&args, FAST)
    }
}

impl Drop for Inputs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Asserts that the valid policy's limit `kept` is in the effective policy of [`PATH`].
fn valid_policy_evaluated(out: &Output) {
    let keys: Vec<String> = rules(&out.json(), "RateLimitPolicy", PATH)
        .into_iter()
        .map(|rule| rule.key)
        .collect();
    assert!(keys.contains(&"kept".to_string()), "{keys:?}");
}

/// A RateLimitPolicy on the Gateway whose `overrides` block has the constraint `when`.
fn constrained_policy(when: &str) -> String {
    format!(
        "apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {{name: hostile, namespace: infra}}
spec:
  targetRef: {{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}
  overrides:
    strategy: merge
    when: \"{when}\"
    limits:
      hostile: {{rates: [{{limit: 1, window: 1s}}]}}
"
    )
}

/// An AuthPolicy on [`ROUTE`] whose authorization rule `hostile` has the request-time
/// `predicate` (another kind than [`VALID_POLICY`], so that neither overrides the other).
fn predicate_policy(predicate: &str) -> String {
    format!(
        "apiVersion: kuadrant.io/v1
kind: AuthPolicy
metadata: {{name: hostile, namespace: app}}
spec:
  targetRef: {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}}
  rules:
    authorization:
      hostile:
        when:
        - predicate: \"{predicate}\"
        opa: {{rego: \"allow = true\"}}
"
    )
}

/// A CEL list literal of `n` zeros.
fn zeros(n: usize) -> String {
    format!("[{}]", vec!["0"; n].join(","))
}

// YAML (src/yaml/parse.rs, src/load/objects.rs).

#[test]
fn yaml_depth() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let inputs = Inputs::new("yaml-depth", &deep);
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL1001]",
        "collections are nested deeper than 255 levels (the `yaml-depth` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn yaml_alias_nodes() {
    // Ten levels of ten aliases each: 10^10 nodes once expanded.
    let mut bomb = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\n");
    bomb.push_str("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let inputs = Inputs::new("yaml-alias-nodes", &bomb);
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL1001]",
        "aliases expand to more than 1000000 nodes (the `yaml-alias-nodes` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn yaml_alias_bytes() {
    // Twenty aliases of a 1 MiB string: few nodes, but 20 MiB once copied out.
    let long = "x".repeat(1 << 20);
    let copies = vec!["*s"; 20].join(", ");
    let hostile = format!("s: &s {long}\ncopies: [{copies}]\n");
    let inputs = Inputs::new("yaml-alias-bytes", &hostile);
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL1001]",
        "aliases expand to more than 16777216 bytes of text (the `yaml-alias-bytes` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
#[ignore = "parses 32 MB to reach the limit: about a minute in a debug build; run with --ignored"]
fn yaml_document_nodes() {
    // The densest document there is: a flow sequence of one-digit numbers, a node every two
    // bytes (32 MB). Reaching the limit means parsing all of it: this run is the one that
    // takes longer (about a minute in a debug build on two cores, a few seconds in release).
    let nodes = 16_000_000;
    let mut dense = String::with_capacity(2 * nodes + 2);
    dense.push('[');
    dense.push_str(&"0,".repeat(nodes));
    dense.push_str("0]\n");
    let inputs = Inputs::new("yaml-document-nodes", &dense);
    let out = inputs.run_within(
        &["effective", "-o", "json", "-f", "."],
        Duration::from_secs(120),
    );
    out.code(3).stderr_has(&[
        "[DPL1001]",
        "the document holds more than 16000000 nodes (the `yaml-document-nodes` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn a_large_list_is_one_document_and_still_read() {
    // `kubectl get -o yaml` writes one List: 100,000 items are far below the node limit.
    let mut list = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for i in 0..100_000 {
        list.push_str(&format!(
            "- {{apiVersion: v1, kind: ConfigMap, metadata: {{name: c{i}, namespace: app}}, data: {{k: v}}}}\n"
        ));
    }
    list.push_str(
        "- {apiVersion: kuadrant.io/v1, kind: AuthPolicy, metadata: {name: listed, namespace: app}, spec: {targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}, rules: {authentication: {listed: {plain: {selector: x}}}}}}\n",
    );
    let inputs = Inputs::new("large-list", &list);
    let out = inputs.run_within(
        &["effective", "-o", "json", "-f", "."],
        Duration::from_secs(30),
    );
    out.code(0).stderr_lacks(&["limit)"]);
    let keys: Vec<String> = rules(&out.json(), "AuthPolicy", PATH)
        .into_iter()
        .map(|rule| rule.key)
        .collect();
    assert!(
        keys.contains(&"authentication#listed".to_string()),
        "{keys:?}"
    );
    valid_policy_evaluated(&out);
}

#[test]
fn list_nesting() {
    let mut nested =
        String::from("{apiVersion: v1, kind: ConfigMap, metadata: {name: inner, namespace: app}}");
    for _ in 0..5 {
        nested = format!("{{apiVersion: v1, kind: List, items: [{nested}]}}");
    }
    let inputs = Inputs::new("list-nesting", &format!("{nested}\n"));
    let out = inputs.effective();
    out.code(0).stderr_has(&[
        "[DPL1004]",
        "lists nested more than 4 deep are not read (the `list-nesting` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn many_anchors_and_large_merges_take_linear_time() {
    // 30,000 anchors, each aliased, and a merge of 30,000 keys into 30,000 others: no limit
    // is hit, and neither costs quadratic time.
    let mut hostile = String::from("anchors:\n");
    for i in 0..30_000 {
        hostile.push_str(&format!("- &a{i} {i}\n"));
    }
    hostile.push_str("aliases:\n");
    for i in 0..30_000 {
        hostile.push_str(&format!("- *a{i}\n"));
    }
    let keys = |prefix: &str| {
        (0..30_000)
            .map(|i| format!("{prefix}{i}: 1"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    hostile.push_str(&format!(
        "base: &base {{{}}}\nmerged: {{<<: *base, {}}}\n",
        keys("b"),
        keys("m")
    ));
    let inputs = Inputs::new("anchors", &hostile);
    let out = inputs.effective();
    // The document is not an object: a warning, and the rest is evaluated.
    out.code(0).stderr_has(&["[DPL1004]"]);
    valid_policy_evaluated(&out);
}

// CEL (src/expr/).

#[test]
fn cel_length() {
    let predicate = format!("request.path == '{}'", "x".repeat(9000));
    let inputs = Inputs::new("cel-length", &predicate_policy(&predicate));
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL4011]",
        "the expression is too long: 9018 bytes, more than 8192 (the `cel-length` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn cel_brackets() {
    let predicate = format!("{}true{}", "(".repeat(40), ")".repeat(40));
    let inputs = Inputs::new("cel-brackets", &predicate_policy(&predicate));
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL4011]",
        "the expression nests brackets more than 32 levels deep (the `cel-brackets` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn cel_parser_depth() {
    let predicate = format!("{}true", "true ? true : ".repeat(200));
    let inputs = Inputs::new("cel-parser-depth", &predicate_policy(&predicate));
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL4011]",
        "levels deep for the parser (the `cel-parser-depth` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn cel_tree_depth() {
    let when = format!("spec.a{} > 0", " + 1".repeat(70));
    let inputs = Inputs::new("cel-tree-depth", &constrained_policy(&when));
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL4009]",
        "the expression is nested more than 64 levels deep (the `cel-tree-depth` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn cel_comprehension_nesting() {
    let when = "[1].all(a, [1].all(b, [1].all(c, a + b + c > 0)))";
    let inputs = Inputs::new("cel-comprehension-nesting", &constrained_policy(when));
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL4009]",
        "comprehensions are nested more than 2 levels deep (the `cel-comprehension-nesting` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn cel_variable_uses() {
    let when = format!("['x'].all(t, {} != '')", ["t"; 11].join(" + "));
    let inputs = Inputs::new("cel-variable-uses", &constrained_policy(&when));
    let out = inputs.effective();
    out.code(3).stderr_has(&[
        "[DPL4009]",
        "`t` is used more than 10 times in its comprehension (the `cel-variable-uses` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn cel_steps_in_a_constraint() {
    // A million iterations: the budget stops it after 100,000 steps; the block is not applied.
    let list = zeros(1000);
    let when = format!("{list}.all(a, {list}.all(b, a + b == 0))");
    let inputs = Inputs::new("cel-steps-constraint", &constrained_policy(&when));
    let out = inputs.effective();
    out.code(0).stderr_has(&[
        "[DPL4010]",
        "evaluation stopped after 100000 steps (the `cel-steps` limit)",
    ]);
    valid_policy_evaluated(&out);
}

#[test]
fn cel_steps_in_a_predicate() {
    let list = zeros(1000);
    let predicate = format!("{list}.all(a, {list}.all(b, a + b == 0))");
    let inputs = Inputs::new("cel-steps-predicate", &predicate_policy(&predicate));
    let out = inputs.request();
    out.code(0).stdout_has(&[
        "evaluation stopped after 100000 steps (the `cel-steps` limit)",
        "\"kept\"",
    ]);
}

#[test]
fn cel_string_bytes() {
    // 1,000 bytes, ×32 twice (1 MB), ×32 once more: past the limit.
    let times32 = format!(".replace('a', '{}')", "a".repeat(32));
    let predicate = format!("'{}'{}.size() > 0", "a".repeat(1000), times32.repeat(3));
    let inputs = Inputs::new("cel-string-bytes", &predicate_policy(&predicate));
    let out = inputs.request();
    out.code(0).stdout_has(&[
        "the result would exceed 1048576 bytes (the `cel-string-bytes` limit)",
        "\"kept\"",
    ]);
}

/// A diagnostic far out on a long line (miette cannot draw past column 65,535) names its
/// place as `file:line:column` instead of a snippet: no crash, the rest still evaluated.
#[test]
fn a_diagnostic_on_a_very_long_line_names_its_place() {
    let long = format!("[{}}}\n", "0,".repeat(40_000));
    let inputs = Inputs::new("long-line", &long);
    let out = inputs.effective();
    out.code(3).stderr_has(&["hostile.yaml:1:80002: "]);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    valid_policy_evaluated(&out);
}

/// The limits of CRD rules, through `--crds`: a rule nesting comprehensions four deep and one
/// using a variable 25 times are not evaluated (DPL1017 info, with the limit named); the objects
/// are still read.
#[test]
fn crd_rule_limits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/crd/features");
    let crd = std::fs::read_to_string(root.join("crds/gadgets.yaml")).expect("gadgets CRD");
    let uses = vec!["p == 1"; 25].join(" || ");
    let rules = format!(
        "              - rule: self.priorities.all(a, self.priorities.all(b, self.priorities.all(c, self.priorities.all(d, a <= d))))\n\
         \u{20}               message: nested\n\
         \u{20}             - rule: \"self.priorities.all(p, {uses})\"\n\
         \u{20}               message: many uses\n"
    );
    let crd = crd.replacen(
        "              - rule: self.priorities.isSorted()\n",
        &format!("{rules}              - rule: self.priorities.isSorted()\n"),
        1,
    );
    let inputs = Inputs::new("crd-rule-limits", "");
    inputs.write("crds.yaml", crd.as_bytes());
    let gadgets = std::fs::read(root.join("gadgets.yaml")).expect("gadgets");
    inputs.write("hostile.yaml", &gadgets);
    let families = root.join("families.yaml").display().to_string();
    let out = inputs.run_within(
        &[
            "lint",
            "-o",
            "json",
            "--min-severity",
            "info",
            "--families",
            &families,
            "--crds",
            "crds.yaml",
            "-f",
            "hostile.yaml",
        ],
        FAST,
    );
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let messages: Vec<&str> = doc["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["code"] == "DPL1017")
        .filter_map(|d| d["message"].as_str())
        .collect();
    let has = |needle: &str| messages.iter().any(|m| m.contains(needle));
    assert!(
        has(
            "comprehensions are nested more than 3 levels deep (the `crd-comprehension-nesting` limit)"
        ),
        "{messages:?}"
    );
    assert!(
        has("`p` is used more than 24 times in its comprehension (the `crd-variable-uses` limit)"),
        "{messages:?}"
    );
}
