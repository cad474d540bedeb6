//! The generic `policy-unreachable` and `policy-overridden` for Envoy Gateway kinds: an
//! accepted policy in the path to no route, and one that holds a slot on paths but whose
//! rules are effective or merged on none of them (more specific policies win everywhere).

use super::super::diags::OverriddenEverywhere;
use super::super::evaluate::EnvoyEvaluator;
use crate::diag::{Diagnostic, Severity};
use crate::engine::fold::RuleEvent;
use crate::engine::observed::Observed;
use crate::policy::Level;

/// Both checks over the family's policies.
pub fn check(evaluator: &EnvoyEvaluator<'_>, observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    (0..model.policies.len() as u32)
        .filter(|&p| {
            evaluator.owns(p) && !evaluator.topology.targets.of_policy[p as usize].is_empty()
        })
        .filter_map(|p| {
            if observed.entries_of_policy[p as usize].is_empty() {
                Some(unreachable(evaluator, p))
            } else {
                overridden(evaluator, observed, p)
            }
        })
        .collect()
}

/// An accepted policy on no path.
fn unreachable(evaluator: &EnvoyEvaluator<'_>, index: u32) -> Diagnostic {
    let model = evaluator.model;
    let policy = &model.policies[index as usize];
    let target = evaluator.topology.targets.of_policy[index as usize][0];
    crate::lint::checks::outcomes::in_path_to_nothing(
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
    let diagnostic = Diagnostic::from(OverriddenEverywhere { policy })
        .with_severity(severity)
        .with_label(policy.name_span, "overridden everywhere")
        .with_object(policy.display());
    Some(diagnostic)
}
