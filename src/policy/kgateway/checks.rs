//! kgateway's own lint checks (docs/families.md §2.8) and their documentation: the traps of its
//! annotations (an invalid weight, an unknown or misplaced inheritance priority), attachments
//! that repeat, and selectors that select nothing — all silent in the controller.

use super::ScopeNote;
use super::evaluate::KgatewayEvaluator;
use super::evaluate::PRIORITY_ANNOTATION;
use super::family::WEIGHT_ANNOTATION;
use crate::diag::{Code, Diagnostic};
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::model::gateway::GATEWAY_GROUP;
use crate::policy::PathLevel;
use crate::topology::Topology;
use std::collections::BTreeMap;

/// DPL5008 and DPL5009: what the scopes of each path do to the route's providers and headers.
pub fn scope_checks(
    evaluator: &KgatewayEvaluator<'_>,
    observed: &Observed<'_, '_>,
) -> Vec<Diagnostic> {
    let model = evaluator.model();
    let engine = observed.engine;
    // (code, policy, what) → paths.
    let mut found: BTreeMap<(Code, u32, String), usize> = BTreeMap::new();
    for entry in &observed.shared.entries {
        if !std::ptr::eq(
            model.registry.kind(observed.shared.kind(entry)),
            evaluator.kind(),
        ) {
            continue;
        }
        let levels = engine.levels(
            &engine.topology.paths[entry.path as usize],
            observed.shared.kind(entry),
        );
        let view = PathLevel::borrow_all(&levels);
        for (note, policy) in evaluator.scope_notes(&view) {
            let (code, what) = match note {
                ScopeNote::DisablesRouteProviders { scope, providers } => (
                    Code::GATEWAY_DISABLES_ROUTE_PROVIDER,
                    format!(
                        "its {} scope `disable` switches off the route's providers ({})",
                        scope.as_str(),
                        providers
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ),
                ScopeNote::HeaderSetWins {
                    direction,
                    header,
                    winner,
                    over,
                } => (
                    Code::GATEWAY_HEADER_SET_WINS,
                    format!(
                        "its {} scope sets {} header `{header}`, which the {} scope also sets; the {} value is the one that stays",
                        winner.as_str(),
                        direction.as_str(),
                        over.as_str(),
                        winner.as_str()
                    ),
                ),
            };
            *found.entry((code, policy, what)).or_default() += 1;
        }
    }
    found
        .into_iter()
        .map(|((code, policy, what), paths)| {
            let p = &model.policies[policy as usize];
            Diagnostic::new(
                code,
                format!(
                    "{}: {what}, on {}",
                    p.display(),
                    crate::words::counted(paths, "path")
                ),
            )
            .with_label(p.name_span, "decides it")
            .with_object(p.display())
        })
        .collect()
}

/// Every finding of these checks about the evaluator's kind (the route annotations are
/// TrafficPolicy's: a declared kind does not report them again).
pub fn check(evaluator: &KgatewayEvaluator<'_>) -> Vec<Diagnostic> {
    let (model, topology) = (evaluator.model(), evaluator.topology());
    let mut diagnostics = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        if !std::ptr::eq(policy.kind, evaluator.kind()) {
            continue;
        }
        for error in &policy.errors {
            if error.contains(WEIGHT_ANNOTATION) {
                diagnostics.push(
                    Diagnostic::new(
                        Code::INVALID_POLICY_WEIGHT,
                        format!("{}: {error}", policy.display()),
                    )
                    .with_label(policy.name_span, "rejected by kgateway")
                    .with_object(policy.display()),
                );
            }
        }
        for selector in &policy.selectors {
            if selector.match_labels.is_empty() && selector.match_expressions.is_empty() {
                diagnostics.push(
                    Diagnostic::new(
                        Code::SELECTOR_SELECTS_NOTHING,
                        format!(
                            "a targetSelector of {} has no labels: kgateway selects nothing with it",
                            policy.display()
                        ),
                    )
                    .with_label(selector.span, "selects nothing")
                    .with_object(policy.display()),
                );
            }
        }
        diagnostics.extend(duplicates(model, topology, index as u32));
    }
    if !evaluator.plain() {
        diagnostics.extend(annotations(model));
    }
    diagnostics
}

/// DPL5006: the elements a policy reaches more than once.
fn duplicates(model: &Model, topology: &Topology, policy: u32) -> Vec<Diagnostic> {
    let p = &model.policies[policy as usize];
    let kind = model.registry.kind_index(p.kind);
    topology.targets.of_policy[policy as usize]
        .iter()
        .filter(|&&target| {
            topology
                .targets
                .on(target, kind)
                .iter()
                .filter(|&&q| q == policy)
                .count()
                > 1
        })
        .map(|target| {
            Diagnostic::new(
                Code::DUPLICATE_ATTACHMENT,
                format!(
                    "{} attaches to {} more than once; kgateway merges it once per attachment",
                    p.display(),
                    target.describe(model)
                ),
            )
            .with_label(p.name_span, "attached several times")
            .with_object(p.display())
        })
        .collect()
}

/// DPL5004 and DPL5005: the inheritance annotation where it is unknown or has no effect.
fn annotations(model: &Model) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for object in &model.objects {
        let Some(value) = object.annotation(PRIORITY_ANNOTATION) else {
            continue;
        };
        let span = object
            .metadata("annotations")
            .and_then(|annotations| annotations.get(PRIORITY_ANNOTATION))
            .map_or(object.name_span(), |n| n.span);
        let on_gateway = &*object.group == GATEWAY_GROUP && &*object.kind == "Gateway";
        let on_route = &*object.group == GATEWAY_GROUP && &*object.kind == "HTTPRoute";
        if on_gateway {
            diagnostics.push(
                Diagnostic::new(
                    Code::INHERITED_PRIORITY_ON_GATEWAY,
                    format!(
                        "{} has `{PRIORITY_ANNOTATION}: {value}`, which kgateway ignores on a Gateway",
                        object.display()
                    ),
                )
                .with_label(span, "no effect on a Gateway")
                .with_object(object.display()),
            );
        } else if on_route && super::Strategy::from_annotation(Some(value)).1 {
            diagnostics.push(
                Diagnostic::new(
                    Code::UNKNOWN_INHERITED_PRIORITY,
                    format!(
                        "{} has `{PRIORITY_ANNOTATION}: {value}`, which kgateway does not know; it means ShallowMergePreferChild",
                        object.display()
                    ),
                )
                .with_label(span, "unknown value")
                .with_object(object.display())
                .with_help("use ShallowMergePreferChild, ShallowMergePreferParent, DeepMergePreferChild or DeepMergePreferParent (exact case)"),
            );
        }
    }
    diagnostics
}
