//! `conflicted` (envoyproxy/gateway#8845): a policy that targets a slot another policy of its
//! kind already holds is not accepted there — silently, apart from a status condition. One
//! finding per lost target (a whole ListenerSet counts once), naming the holder and why it came
//! first.

use super::super::diags::Conflicted;
use super::super::evaluate::EnvoyEvaluator;
use super::super::slots::{Claim, Slot, claim_on, claims, first_claimer};
use crate::diag::Diagnostic;
use crate::policy::{Policy, Via};
use crate::source::Span;

/// One finding per (policy, target) it lost.
pub fn check(evaluator: &EnvoyEvaluator<'_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let targets = &evaluator.topology.targets;
    let mut diagnostics = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        let index = index as u32;
        if !evaluator.owns(index) {
            continue;
        }
        let kind = evaluator.kind_index(index);
        let unique: std::collections::BTreeSet<_> =
            targets.of_policy[index as usize].iter().copied().collect();
        let slots = unique.into_iter().flat_map(|t| {
            [
                (Claim::Own, Slot::At(t)),
                (Claim::GatewaySection, Slot::GatewaySection(t)),
            ]
            .map(move |(claim, slot)| (t, claim, slot))
        });
        for (target, claim, slot) in slots {
            if !claims(model, evaluator.topology, (target, kind), index, claim) {
                continue;
            }
            let Some(winner) = first_claimer(model, evaluator.topology, (target, kind), claim)
                .filter(|&w| w != index)
            else {
                continue;
            };
            let via = targets
                .on(target, kind)
                .iter()
                .zip(targets.vias_on(target, kind))
                .find(|(p, v)| **p == index && claim_on(model, target, index, **v) == claim)
                .map(|(_, via)| *via);
            diagnostics.push(
                Diagnostic::from(Conflicted {
                    policy,
                    target: slot.describe(model),
                    holder: &model.policies[winner as usize],
                })
                .with_label(span_of(policy, via), "Conflicted here")
                .with_object(policy.display()),
            );
        }
        diagnostics.extend(set_conflicts(evaluator, index));
    }
    diagnostics
}

/// One finding per whole ListenerSet `policy` targets whose `S` slot another policy holds.
fn set_conflicts(evaluator: &EnvoyEvaluator<'_>, index: u32) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let policy = &model.policies[index as usize];
    let mut seen = Vec::new();
    let mut diagnostics = Vec::new();
    for (set, via) in super::super::sets::whole_targets(model, policy) {
        if seen.contains(&set) {
            continue;
        }
        seen.push(set);
        let claims = super::super::sets::set_claims(model, set, policy.kind);
        let Some(&winner) = claims.first().filter(|&&w| w != index) else {
            continue;
        };
        diagnostics.push(
            Diagnostic::from(Conflicted {
                policy,
                target: Slot::Set(set).describe(model),
                holder: &model.policies[winner as usize],
            })
            .with_label(span_of(policy, Some(via)), "Conflicted here")
            .with_object(policy.display()),
        );
    }
    diagnostics
}

/// Where the attachment through `via` is written.
fn span_of(policy: &Policy, via: Option<Via>) -> Span {
    match via {
        Some(Via::TargetRef(i)) => match policy.targets.get(i as usize) {
            Some(target) => target.span,
            None => {
                super::super::sets::span_of(policy, Via::TargetRef(i)).unwrap_or(policy.name_span)
            }
        },
        Some(Via::Selector(i)) => policy.selectors[i as usize].span,
        _ => policy.name_span,
    }
}
