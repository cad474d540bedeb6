//! A kind declared at run time with the Envoy Gateway model (docs/families.md §4.3): its spec, not its
//! name, decides the messages, `mergeType`, the rule cut and the auth check.

use super::{EnvoyGateway, EnvoyKindSpec, ListenerStyle, RuleCut};
use crate::engine::Engine;
use crate::engine::observed::Observed;
use crate::load::files::WorkTree;
use crate::pipeline::{InputOptions, evaluate};
use crate::policy::{PolicyKind, Registry, Rule};
use std::sync::Arc;

const INPUT: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: shop}
spec:
  gatewayClassName: eg
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: app, namespace: shop}
spec:
  parentRefs: [{name: gw}]
  rules:
  - {name: api, backendRefs: [{name: app, port: 80}]}
  - {name: other, backendRefs: [{name: app, port: 80}]}
---
apiVersion: platform.example.com/v1
kind: TimeoutPolicy
metadata: {name: gw, namespace: shop, creationTimestamp: \"2025-01-01T00:00:00Z\"}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeouts: {request: 30s, idle: 60s}
  auth: {basic: true}
---
apiVersion: platform.example.com/v1
kind: TimeoutPolicy
metadata: {name: route, namespace: shop, creationTimestamp: \"2025-01-02T00:00:00Z\"}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}]
  mergeType: JSONMerge
  timeouts: {request: 5s}
---
apiVersion: platform.example.com/v1
kind: TimeoutPolicy
metadata: {name: rule-a, namespace: shop, creationTimestamp: \"2025-01-03T00:00:00Z\"}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app, sectionName: api}]
  timeouts: {request: 1s}
---
apiVersion: platform.example.com/v1
kind: TimeoutPolicy
metadata: {name: rule-b, namespace: shop, creationTimestamp: \"2025-01-04T00:00:00Z\"}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app, sectionName: api}]
  timeouts: {request: 2s}
";

/// `timeouts.<name>` → rule `timeouts#<name>`; `auth` whole.
fn cut(spec: &crate::yaml::Node) -> Vec<Rule> {
    let mut rules: Vec<Rule> = spec
        .get("timeouts")
        .and_then(|t| t.as_map())
        .unwrap_or_default()
        .iter()
        .map(|e| Rule {
            key: crate::name::Name::new(&format!("timeouts#{}", e.key.text)),
            value: e.value.clone(),
            key_span: e.key.span,
        })
        .collect();
    rules.extend(spec.entry("auth").map(|e| Rule {
        key: "auth".into(),
        value: e.value.clone(),
        key_span: e.key.span,
    }));
    rules
}

fn registry() -> Registry {
    let kind: &'static PolicyKind = Box::leak(Box::new(PolicyKind {
        family: "envoy-gateway",
        group: "platform.example.com",
        kind: "TimeoutPolicy",
        versions: &["v1"],
        unserved_versions: &[],
        target_kinds: &["Gateway", "HTTPRoute"],
        target_kind_message: "TimeoutPolicy targets Gateways and HTTPRoutes",
    }));
    let spec = EnvoyKindSpec {
        plural: "timeoutPolicies".into(),
        rule_plural: "timeoutPolicies".into(),
        merge_type: true,
        list_merge_keys: Vec::new(),
        targets: super::spec::TARGET_FIELDS,
        rules: RuleCut::Custom(Arc::new(cut)),
        auth_fields: vec!["auth".into()],
        listener_style: ListenerStyle::Listener,
        tcp_fields: None,
        acts_on_listeners: false,
        indexed_fields: Vec::new(),
        field_merges: Vec::new(),
    };
    let mut registry = Registry::builtin();
    registry.add(Arc::new(EnvoyGateway::declared(kind, spec)));
    registry
}

#[test]
fn a_declared_kind_uses_its_spec_for_rules_merges_and_messages() {
    let options = InputOptions {
        files: vec!["-".into()],
        registry: Arc::new(registry()),
        ..InputOptions::default()
    };
    let evaluated = evaluate(&options, &WorkTree, &mut INPUT.as_bytes());
    assert!(
        evaluated.diagnostics().all(|d| !d.is_input_error()),
        "{:?}",
        evaluated.diagnostics().collect::<Vec<_>>()
    );
    let (engine, _) = Engine::new(&evaluated.model, &evaluated.topology);
    let (effective, _) = engine.effective_all();
    let rules = effective.rules(&effective.entries[0]);
    let keys: Vec<&str> = rules.keys().copied().collect();
    // The rule policy rule-a wins whole (no mergeType): only its key.
    assert_eq!(keys, ["timeouts#request"]);
    let model = &evaluated.model;
    assert_eq!(
        model.policies[rules["timeouts#request"].policy as usize].name,
        "rule-a"
    );

    // Rule `other`: the route policy merged into the Gateway's, cut by the custom cut.
    let merged = effective.rules(&effective.entries[1]);
    let origins = |key: &str| -> Vec<&str> {
        merged[key]
            .origins()
            .iter()
            .map(|&p| model.policies[p as usize].name.as_str())
            .collect()
    };
    assert_eq!(origins("timeouts#request"), ["route"]);
    assert_eq!(origins("timeouts#idle"), ["gw"]);
    assert_eq!(origins("auth"), ["gw"]);

    let (observed, _) = Observed::new(&engine);
    let lint: Vec<String> = engine
        .evaluators()
        .flat_map(|e| e.lint(&observed))
        .filter(|d| d.code == crate::diag::Code::AUTH_REPLACED_WITHOUT_MERGE)
        .map(|d| d.message)
        .collect();
    assert_eq!(
        lint,
        [
            "TimeoutPolicy shop/rule-a replaces TimeoutPolicy shop/gw on 1 path without mergeType: its `auth` is off there"
        ]
    );
    let find = |name: &str| model.policies.iter().position(|p| p.name == name).unwrap() as u32;
    let status = |name: &str| {
        engine
            .evaluator(engine.model.registry.kind_count() - 1)
            .conditions(&observed, find(name))
    };
    let conflicted = status("rule-b");
    assert_eq!(
        conflicted.conditions[0].message,
        "Unable to target RouteRule app/api, another TimeoutPolicy has already attached to it"
    );
    let route = status("route");
    assert_eq!(
        route.conditions[2].message,
        "This policy is being overridden by other timeoutPolicies for these route rules: [api]"
    );
}
