//! The generic `policy-unreachable` and `policy-overridden` for Envoy Gateway kinds: an
//! accepted policy in the path to no route, and one that holds a slot on paths but whose
//! rules are effective or merged on none of them (more specific policies win everywhere).
//! A kind whose policies act on listeners (ClientTrafficPolicy) is judged on the listeners it
//! targets, routes or not: it is never "in the path to nothing" when it configures a
//! listener, and is overridden everywhere only when a more specific holder wins on every one.

use super::super::diags::OverriddenEverywhere;
use super::super::evaluate::EnvoyEvaluator;
use crate::diag::{Diagnostic, Severity};
use crate::engine::fold::RuleEvent;
use crate::engine::observed::Observed;
use crate::policy::Level;
use crate::topology::Target;

/// Both checks over the family's policies.
pub fn check(evaluator: &EnvoyEvaluator<'_>, observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    (0..model.policies.len() as u32)
        .filter(|&p| {
            evaluator.owns(p) && !evaluator.topology.targets.of_policy[p as usize].is_empty()
        })
        .filter_map(|p| {
            let on_listeners = listener_outcome(evaluator, p);
            match (
                on_listeners,
                observed.entries_of_policy[p as usize].is_empty(),
            ) {
                (Some(OnListeners::Wins), _) => None,
                (Some(OnListeners::Held), true) => Some(overridden_everywhere(evaluator, p, None)),
                (Some(OnListeners::NotHeld), true) => None,
                (None, true) => Some(unreachable(evaluator, p)),
                (_, false) => overridden(evaluator, observed, p),
            }
        })
        .collect()
}

/// How a policy of a kind that acts on listeners fares on the listeners it targets (its
/// Gateway's every listener for a Gateway target), routes or not (docs/families.md,
/// "Listener-level settings").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnListeners {
    /// It is the listener-level winner of at least one listener: it configures it.
    Wins,
    /// It holds a slot but a more specific holder wins on every listener.
    Held,
    /// It holds no slot (Conflicted everywhere, which `conflicted` reports).
    NotHeld,
}

/// `None` for a kind that does not act on listeners.
fn listener_outcome(evaluator: &EnvoyEvaluator<'_>, policy: u32) -> Option<OnListeners> {
    if !evaluator.spec(policy).acts_on_listeners {
        return None;
    }
    let model = evaluator.model;
    let kind = evaluator.kind_index(policy);
    let mut outcome = OnListeners::NotHeld;
    for &target in &evaluator.topology.targets.of_policy[policy as usize] {
        let (g, listeners) = match target {
            Target::Gateway(g) => (g, 0..model.gateways[g as usize].listeners.len() as u32),
            Target::Listener(g, l) => (g, l..l + 1),
            _ => continue,
        };
        for l in listeners {
            let holders = evaluator.holders(&[Target::Gateway(g), Target::Listener(g, l)], kind);
            if evaluator
                .decide(&holders)
                .is_some_and(|d| d.winner == policy)
            {
                return Some(OnListeners::Wins);
            }
            if holders.holds(policy) {
                outcome = OnListeners::Held;
            }
        }
    }
    Some(outcome)
}

/// An accepted policy on no path.
fn unreachable(evaluator: &EnvoyEvaluator<'_>, index: u32) -> Diagnostic {
    let model = evaluator.model;
    let policy = &model.policies[index as usize];
    let target = evaluator.topology.targets.of_policy[index as usize][0];
    crate::policy::outcomes::in_path_to_nothing(
        model,
        evaluator.topology,
        policy,
        target,
        policy.name_span,
    )
}

/// A policy holding slots on paths whose rules are effective or merged on none of them.
fn overridden(
    evaluator: &EnvoyEvaluator<'_>,
    observed: &Observed<'_, '_>,
    index: u32,
) -> Option<Diagnostic> {
    let observations = observed.observations(index);
    let wins = observations
        .iter()
        .any(|o| matches!(o.outcome, RuleEvent::Added | RuleEvent::Merged { .. }));
    // An Invalid route policy on a TCPRoute is reported by its status (§3.7).
    let targets = &evaluator.topology.targets.of_policy[index as usize];
    let invalid = || (targets.iter()).any(|&t| super::super::tcp::invalid_at(evaluator, index, t));
    if observations.is_empty() || wins || invalid() {
        return None;
    }
    // Not a more specific policy's doing when every field is only not applied (on a TCPRoute).
    let reasons: Option<Vec<&str>> = (observations.iter())
        .map(|o| match o.outcome {
            RuleEvent::NotApplied { reason } => Some(&**reason),
            _ => None,
        })
        .collect();
    let not_applied = reasons.and_then(|r| r.first().copied());
    Some(overridden_everywhere(evaluator, index, not_applied))
}

/// `policy-overridden` for `index`: info for a Gateway or listener policy (the documented
/// layout), else a warning.
fn overridden_everywhere(
    evaluator: &EnvoyEvaluator<'_>,
    index: u32,
    not_applied: Option<&str>,
) -> Diagnostic {
    let policy = &evaluator.model.policies[index as usize];
    // A Gateway or listener policy every route replaces is the documented layout.
    let wide = evaluator.topology.targets.of_policy[index as usize]
        .iter()
        .all(|t| matches!(t.level(), Level::Gateway | Level::Listener));
    let severity = if wide {
        Severity::Info
    } else {
        Severity::Warning
    };
    Diagnostic::from(OverriddenEverywhere {
        policy,
        not_applied,
    })
    .with_severity(severity)
    .with_label(policy.name_span, "overridden everywhere")
    .with_object(policy.display())
}
