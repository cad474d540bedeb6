//! Gateway-listener targets that reach a ListenerSet's listeners (field-2026 §4.3 `*`
//! \[controller\]): agentgateway's proxy looks a set listener `S#L` up also as "Gateway `G`,
//! listener `L`", so a policy on the Gateway's own listener `L` applies on every `S#L` of that
//! name, above the set's own policies (the engine puts that listener after `S#L` on such paths,
//! `crate::engine::Engine::elements`); and a `G#x` target whose `x` only a ListenerSet has,
//! which the controller reports not found (`StatusSummary`), is still sent to the Gateway and
//! applies on every `S#x` (derived) — attached here to those set listeners, through its
//! Gateway `targetRef`, and read by the ladder at the Gateway-listener rung.

use super::diags::{BackendListenerSetIgnored, GatewayListenerLeaks};
use super::evaluate::AgwEvaluator;
use super::keys::Section;
use crate::diag::Diagnostic;
use crate::model::Model;
use crate::policy::{Policy, TargetRef};
use crate::topology::family::{Attachment, Via};
use crate::topology::listener_sets::is_set_kind;
use crate::topology::{Target, Topology};

/// A Gateway `targetRef` with `sectionName` of `policy` that names a listener some of the
/// Gateway's ListenerSets have: the Gateway, whether it has that listener itself, and the set
/// listeners reached (merged-listener indices).
struct Leak<'p> {
    index: usize,
    target: &'p TargetRef,
    gateway: u32,
    own: bool,
    reached: Vec<u32>,
}

/// The leaks of one policy.
fn leaks_of<'p>(model: &Model, policy: &'p Policy) -> Vec<Leak<'p>> {
    (crate::topology::listener_sets::gateway_sections(model, policy).into_iter())
        .filter(|s| !s.in_sets.is_empty())
        .map(|s| Leak {
            index: s.index,
            target: s.target,
            gateway: s.gateway,
            own: s.own,
            reached: s.in_sets,
        })
        .collect()
}

/// The attachments of `G#x` targets whose `x` only ListenerSets have, to those set listeners.
pub fn attachments(model: &Model, ours: &dyn Fn(&Policy) -> bool) -> Vec<Attachment> {
    let mut out = Vec::new();
    if model.listener_sets.is_empty() {
        return out;
    }
    for (p, policy) in model.policies.iter().enumerate() {
        if !ours(policy) {
            continue;
        }
        for leak in leaks_of(model, policy).into_iter().filter(|l| !l.own) {
            out.extend(leak.reached.iter().map(|&l| Attachment {
                policy: p as u32,
                target: Target::Listener(leak.gateway, l),
                via: Via::TargetRef(leak.index as u16),
            }));
        }
    }
    out
}

/// Whether `policy` reached set listener `target` through a Gateway `targetRef` (a `G#x`
/// whose `x` only ListenerSets have): it then sits at the Gateway-listener rung.
pub fn through_gateway(model: &Model, topology: &Topology, policy: u32, target: Target) -> bool {
    let p = &model.policies[policy as usize];
    let kind = model.registry.kind_index(p.kind);
    let (list, vias) = (
        topology.targets.on(target, kind),
        topology.targets.vias_on(target, kind),
    );
    list.iter().zip(vias).any(|(&q, via)| {
        q == policy
            && matches!(via, Via::TargetRef(i)
                if p.targets.get(*i as usize).is_some_and(|t| t.kind.as_str() == "Gateway"))
    })
}

/// The ListenerSet rungs' findings: each Gateway-listener target that reaches set listeners
/// (`agw-gateway-listener-leaks-into-listenerset`), and each ListenerSet target of a policy
/// with a `backend` section (`agw-backend-listenerset-ignored`).
pub fn checks(evaluator: &AgwEvaluator<'_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut out = Vec::new();
    if model.listener_sets.is_empty() {
        return out;
    }
    for (p, policy) in model.policies.iter().enumerate() {
        if !evaluator.owns(p as u32) {
            continue;
        }
        for leak in leaks_of(model, policy) {
            let gateway = &model.gateways[leak.gateway as usize];
            let reached = (leak.reached.iter())
                .filter_map(|&l| gateway.listeners[l as usize].qualified.as_deref())
                .map(str::to_string)
                .collect();
            let finding = GatewayListenerLeaks {
                policy,
                listener: format!(
                    "{}/{}#{}",
                    gateway.namespace,
                    gateway.name,
                    leak.target.section_name.as_deref().unwrap_or_default()
                ),
                own: leak.own,
                reached,
            };
            let span = leak.target.section_span.unwrap_or(leak.target.span);
            let diagnostic =
                Diagnostic::from(finding).with_label(span, "reaches ListenerSet listeners");
            out.push(diagnostic.with_object(policy.display()));
        }
        let backend = policy.blocks.first().is_some_and(|b| {
            (b.rules.iter()).any(|r| Section::of(r.key.as_str()) == Section::Backend)
        });
        for target in policy
            .targets
            .iter()
            .filter(|t| backend && is_set_kind(&t.kind))
        {
            let finding = BackendListenerSetIgnored {
                policy,
                target: target.to_string(),
            };
            let diagnostic =
                Diagnostic::from(finding).with_label(target.span, "backend not read here");
            out.push(diagnostic.with_object(policy.display()));
        }
    }
    out
}
