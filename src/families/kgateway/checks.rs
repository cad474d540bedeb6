//! kgateway's own lint checks (docs/families.md §2.8): the errors kgateway records on a policy
//! (an invalid weight among them), the traps of its annotations (an unknown or misplaced
//! inheritance priority), attachments that repeat, and selectors that select nothing.

use super::ScopeNote;
use super::annotations::{current_priority_value, near_misses};
use super::diags::{
    AnnotationNearMiss, DuplicateAttachment, InheritedPriority, Miss, PolicyRejected,
    PriorityIgnored, ScopeOverride, SelectorSelectsNothing,
};
use super::evaluate::KgatewayEvaluator;
use super::evaluate::PRIORITY_ANNOTATION;
use super::family::WEIGHT_ANNOTATION;
use crate::diag::Diagnostic;
use crate::engine::observed::Observed;
use crate::load::Object;
use crate::model::Model;
use crate::model::gateway::GATEWAY_GROUP;
use crate::policy::PathLevel;
use crate::source::Span;
use crate::topology::Topology;
use std::collections::BTreeMap;

/// DPL5008 and DPL5009: what the scopes of each path do to the route's providers and headers.
pub fn scope_checks(
    evaluator: &KgatewayEvaluator<'_>,
    observed: &Observed<'_, '_>,
) -> Vec<Diagnostic> {
    let model = evaluator.model();
    let engine = observed.engine;
    // (policy, note) → paths.
    let mut found: BTreeMap<(u32, ScopeNote), usize> = BTreeMap::new();
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
            *found.entry((policy, note)).or_default() += 1;
        }
    }
    found
        .iter()
        .map(|((policy, note), &paths)| {
            let policy = &model.policies[*policy as usize];
            Diagnostic::from(ScopeOverride {
                policy,
                note,
                paths,
            })
            .with_label(policy.name_span, "decides it")
            .with_object(policy.display())
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
        // DPL5003 and DPL5010: the errors kgateway records (the type tells them apart), at the
        // weight annotation's value when it is the weight's.
        for error in &policy.errors {
            let weight = error.contains(WEIGHT_ANNOTATION);
            let span = (weight.then(|| weight_span(model, index as u32)).flatten())
                .unwrap_or(policy.name_span);
            diagnostics.push(
                Diagnostic::from(PolicyRejected { policy, error })
                    .with_label(span, "rejected by kgateway")
                    .with_object(policy.display()),
            );
        }
        for selector in &policy.selectors {
            if selector.match_labels.is_empty() && selector.match_expressions.is_empty() {
                diagnostics.push(
                    Diagnostic::from(SelectorSelectsNothing { policy })
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
            Diagnostic::from(DuplicateAttachment {
                policy: p,
                target: target.describe(model),
            })
            .with_label(p.name_span, "attached several times")
            .with_object(p.display())
        })
        .collect()
}

/// Where the value of `policy`'s weight annotation is written.
fn weight_span(model: &Model, policy: u32) -> Option<Span> {
    annotation_span(model.policy_object(policy)?, WEIGHT_ANNOTATION)
}

/// Where the value of annotation `key` of `object` is written.
fn annotation_span(object: &Object, key: &str) -> Option<Span> {
    let annotations = object.metadata("annotations")?;
    annotations.get(key).map(|n| n.span)
}

/// DPL5014 for near-miss annotation keys; DPL5004, DPL5005 and DPL5015: the inheritance
/// annotation where it is unknown, has no effect, or has a kgateway 2.0 value.
fn annotations(model: &Model) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for object in &model.objects {
        for miss in near_misses(object) {
            diagnostics.push(near_miss(
                object,
                miss.key,
                miss.value,
                Miss::Key(miss.known),
                miss.span,
            ));
        }
        let Some(value) = object.annotation(PRIORITY_ANNOTATION) else {
            continue;
        };
        let span = annotation_span(object, PRIORITY_ANNOTATION).unwrap_or(object.name_span());
        let is = |kind: &str| &*object.group == GATEWAY_GROUP && &*object.kind == kind;
        let ignored = if is("Gateway") {
            PriorityIgnored::OnGateway
        } else if !is("HTTPRoute") || !super::Strategy::from_annotation(Some(value)).1 {
            continue;
        } else if let Some(new) = current_priority_value(value) {
            diagnostics.push(near_miss(
                object,
                PRIORITY_ANNOTATION,
                value,
                Miss::OldValue(new),
                span,
            ));
            continue;
        } else {
            PriorityIgnored::Unknown
        };
        let finding = InheritedPriority {
            object,
            value,
            ignored,
        };
        let label = finding.label();
        diagnostics.push(
            Diagnostic::from(finding)
                .with_label(span, label)
                .with_object(object.display()),
        );
    }
    diagnostics
}

/// DPL5014 or DPL5015 for one annotation, labelled at `span`.
fn near_miss(object: &Object, key: &str, value: &str, miss: Miss, span: Span) -> Diagnostic {
    let finding = AnnotationNearMiss {
        object,
        key,
        value,
        miss,
    };
    let label = finding.label();
    Diagnostic::from(finding)
        .with_label(span, label)
        .with_object(object.display())
}
