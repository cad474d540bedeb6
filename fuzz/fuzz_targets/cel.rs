//! The CEL layer on arbitrary text: Kuadrant predicates and counters (both evaluators) with
//! request attributes, block constraints on a spec, and CRD rules (compiled, then evaluated by
//! the general path and the fast path on a small typed object). The first line of the input is
//! the expression; the rest, when it is JSON, the attributes or spec.
#![no_main]

use dopol::crd::cel::{CompiledRule, Direct, Verdict, to_cel};
use dopol::crd::schema::{RuleSpec, Schema};
use dopol::families::kuadrant::kleene::{Evaluator, counter, predicate};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value, json};
use std::sync::OnceLock;

fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        Schema::compile(&json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"}, "port": {"type": "integer"},
                "ratio": {"type": "number"}, "namespace": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "timeout": {"type": "string", "format": "duration"},
                "size": {"x-kubernetes-int-or-string": true}
            }
        }))
        .expect("schema")
    })
}

fn object() -> &'static dopol::yaml::Node {
    static OBJECT: OnceLock<dopol::yaml::Node> = OnceLock::new();
    OBJECT.get_or_init(|| {
        let text = "{name: abc, port: 80, ratio: 2.5, namespace: x, tags: [a, bb], \
                    labels: {a: x}, timeout: 1s, size: 10}";
        let mut diagnostics = Vec::new();
        let mut documents = dopol::yaml::parse_chunk(
            dopol::source::SourceId(0),
            text,
            0..text.len(),
            &mut diagnostics,
        );
        documents.remove(0).root
    })
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let (expression, rest) = text.split_once('\n').unwrap_or((text, ""));
    let attributes: Map<String, Value> = match serde_json::from_str(rest) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let _ = predicate(expression, &attributes, Evaluator::WasmShim);
    let _ = predicate(expression, &attributes, Evaluator::Authorino);
    let _ = counter(expression, &attributes);
    if let Ok(constraint) = dopol::expr::Constraint::compile(expression) {
        let _ = constraint.evaluate(&Value::Object(attributes.clone()));
    }
    if let Ok(rule) = CompiledRule::compile(&RuleSpec::new(expression)) {
        let general = rule.evaluate(&to_cel(object(), schema()));
        let fast = Direct::new(object(), schema(), false).is_some_and(|mut d| d.holds(&rule));
        // The fast path only ever says "holds", and only when the general path agrees.
        assert!(
            !fast || general == Verdict::Pass,
            "{expression}: {general:?}"
        );
    }
});
