//! kgateway checks about what a path's route levels do to each other (docs/families.md §2.4, §2.8): a
//! DeepMergePreferParent step that keeps the child's plain field (kgateway#14724), a parent whose
//! authentication a child in another namespace can replace, and route rule built-ins that mean
//! the same as an effective TrafficPolicy field.

use super::How;
use super::diags::{BuiltinShadowsPolicy, DeepMergePlainField, DelegateeCanDisableAuth};
use super::evaluate::{KgatewayEvaluator, StepNote};
use crate::diag::Diagnostic;
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::PathLevel;
use std::collections::{BTreeMap, BTreeSet};

/// Built-ins of a route rule and the TrafficPolicy field with the same meaning.
const BUILTINS: &[(&str, &str)] = &[
    ("timeouts", "timeouts"),
    ("retry", "retry"),
    ("URLRewrite", "urlRewrite"),
    ("RequestHeaderModifier", "headerModifiers"),
    ("ResponseHeaderModifier", "headerModifiers"),
    ("CORS", "cors"),
];

/// Every finding of these checks.
pub fn check(evaluator: &KgatewayEvaluator<'_>, observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = evaluator.model();
    let mut diagnostics = Vec::new();
    let mut plain: BTreeMap<(u32, String), usize> = BTreeMap::new();
    let mut auth: BTreeMap<u32, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
    let mut shadows: BTreeSet<(u32, u32, &'static str, &'static str)> = BTreeSet::new();
    let engine = observed.engine;
    for entry in &observed.shared.entries {
        if !std::ptr::eq(
            model.registry.kind(observed.shared.kind(entry)),
            evaluator.kind(),
        ) {
            continue;
        }
        let path = &engine.topology.paths[entry.path as usize];
        let levels = engine.levels(path, observed.shared.kind(entry));
        let view = PathLevel::borrow_all(&levels);
        let split = evaluator.split(&view);
        if split.routes.len() > 1 {
            let mut notes: Vec<StepNote> = Vec::new();
            evaluator.route_scope_traced(&split.routes, Some(&mut notes));
            for note in notes.iter().filter(|n| n.how == How::PreferParentKeptChild) {
                if let Some(parent) = note.parent {
                    *plain.entry((parent, note.key.clone())).or_default() += 1;
                }
            }
            let auth_fields = !evaluator.plain();
            for (parent, keys, child_ns) in replaceable_auth(evaluator, &split.routes)
                .into_iter()
                .filter(|_| auth_fields)
            {
                let found = auth.entry(parent).or_default();
                found.0.extend(keys);
                found.1.insert(child_ns);
            }
        }
        let effective = &observed.shared.results[entry.fold as usize]
            .folded
            .effective;
        // The route built-ins shadow TrafficPolicy fields; a declared kind's fields are its own.
        let builtins = match evaluator.plain() {
            true => Vec::new(),
            false => builtins(model, path.route, path.rule),
        };
        for (builtin, field) in builtins {
            if effective.contains_key(field) {
                shadows.insert((path.route, path.rule, builtin, field));
            }
        }
    }
    diagnostics.extend(plain_field(model, &plain));
    diagnostics.extend(delegatee_auth(evaluator, &auth));
    diagnostics.extend(shadowed(model, shadows));
    diagnostics
}

/// Auth keys of a parent level a child in another namespace may replace: for each delegating
/// route whose strategy does not prefer the parent, the auth keys its level sets (a deep
/// strategy keeps a parent's `disable`, so those are safe), with the child's namespace.
fn replaceable_auth(
    evaluator: &KgatewayEvaluator<'_>,
    routes: &[(u32, Vec<u32>)],
) -> Vec<(u32, Vec<String>, String)> {
    const AUTH: &[&str] = &["extAuth", "jwtAuth", "basicAuth", "apiKeyAuth", "oauth2"];
    let model = evaluator.model();
    let mut found = Vec::new();
    for pair in routes.windows(2) {
        let ((parent, policies), (child, _)) = (&pair[0], &pair[1]);
        let strategy = evaluator.route_strategy(*parent);
        let (parent_route, child_route) = (
            &model.routes[*parent as usize],
            &model.routes[*child as usize],
        );
        if strategy.prefers_b() || parent_route.namespace == child_route.namespace {
            continue;
        }
        let level = evaluator.level(policies);
        let keys: Vec<String> = AUTH
            .iter()
            .filter_map(|key| level.values.get(*key).map(|c| (key, c)))
            .filter(|(_, c)| !(strategy.is_deep() && c.is_disable()))
            .map(|(key, _)| key.to_string())
            .collect();
        if !keys.is_empty() {
            found.push((*parent, keys, child_route.namespace.to_string()));
        }
    }
    found
}

fn plain_field(model: &Model, found: &BTreeMap<(u32, String), usize>) -> Vec<Diagnostic> {
    found
        .iter()
        .map(|((parent, key), &paths)| {
            let route = &model.routes[*parent as usize];
            Diagnostic::from(DeepMergePlainField { route, key, paths })
                .with_label(route.name_span, "DeepMergePreferParent")
                .with_object(route.display())
        })
        .collect()
}

fn delegatee_auth(
    evaluator: &KgatewayEvaluator<'_>,
    found: &BTreeMap<u32, (BTreeSet<String>, BTreeSet<String>)>,
) -> Vec<Diagnostic> {
    found
        .iter()
        .map(|(&parent, (keys, namespaces))| {
            let route = &evaluator.model().routes[parent as usize];
            Diagnostic::from(DelegateeCanDisableAuth {
                route,
                strategy: evaluator.route_strategy(parent),
                namespaces,
                keys,
            })
            .with_label(route.name_span, "delegates")
            .with_object(route.display())
        })
        .collect()
}

/// The built-ins a route rule sets, with the TrafficPolicy field of the same meaning.
fn builtins(model: &Model, route: u32, rule: u32) -> Vec<(&'static str, &'static str)> {
    let route = &model.routes[route as usize];
    let Some(rule) = model
        .tree(&model.objects[route.object as usize])
        .get_path(&["spec", "rules"])
        .and_then(crate::yaml::Node::as_seq)
        .and_then(|rules| rules.get(rule as usize))
    else {
        return Vec::new();
    };
    let filters: Vec<&str> = rule
        .get("filters")
        .and_then(crate::yaml::Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|f| f.get("type").and_then(crate::yaml::Node::as_str))
        .collect();
    BUILTINS
        .iter()
        .filter(|(builtin, _)| rule.get(builtin).is_some() || filters.contains(builtin))
        .copied()
        .collect()
}

fn shadowed(
    model: &Model,
    found: BTreeSet<(u32, u32, &'static str, &'static str)>,
) -> Vec<Diagnostic> {
    found
        .into_iter()
        .map(|(route, rule, builtin, field)| {
            let route = &model.routes[route as usize];
            let rule = &route.rules[rule as usize];
            Diagnostic::from(BuiltinShadowsPolicy {
                route,
                rule,
                builtin,
                field,
            })
            .with_label(rule.span, "built-in here")
            .with_object(route.display())
        })
        .collect()
}
