//! The generic `policy-unreachable` and `policy-overridden` for Envoy Gateway kinds: an
//! accepted policy in the path to no route, and one that holds a slot on paths but whose
//! rules are effective or merged on none of them (more specific policies win everywhere).

use super::super::evaluate::EnvoyEvaluator;
use crate::diag::{Code, Diagnostic, Severity};
use crate::engine::fold::RuleEvent;
use crate::engine::observed::Observed;
use crate::policy::Level;

/// Both checks over the family's policies.
pub fn check(evaluator: &EnvoyEvaluator<'_>, observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut diagnostics = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        let index = index as u32;
        let targets = &evaluator.topology.targets.of_policy[index as usize];
        if !evaluator.owns(index) || targets.is_empty() {
            continue;
        }
        if observed.entries_of_policy[index as usize].is_empty() {
            let target = targets[0].describe(model);
            diagnostics.push(
                Diagnostic::new(
                    Code::PolicyUnreachable,
                    format!(
                        "{} targets {target}, which has no route beneath it; the policy is in the path to nothing",
                        policy.display()
                    ),
                )
                .with_label(policy.name_span, "no route is attached beneath its targets")
                .with_object(policy.display()),
            );
            continue;
        }
        let observations = observed.observations(index);
        let holds_somewhere = !observations.is_empty();
        let wins = observations
            .iter()
            .any(|o| matches!(o.outcome, RuleEvent::Added | RuleEvent::Merged { .. }));
        if !holds_somewhere || wins {
            continue;
        }
        // A Gateway or listener policy every route replaces is the documented layout.
        let wide = targets
            .iter()
            .all(|t| matches!(t.level(), Level::Gateway | Level::Listener));
        let severity = if wide {
            Severity::Info
        } else {
            Severity::Warning
        };
        diagnostics.push(
            Diagnostic::new(
                Code::PolicyOverridden,
                format!(
                    "{}: none of its fields is effective on any path: a more specific {} wins everywhere",
                    policy.display(),
                    policy.kind.kind
                ),
            )
            .with_severity(severity)
            .with_label(policy.name_span, "overridden everywhere")
            .with_object(policy.display())
            .with_help(format!("see `dopol reach {}`", policy.namespaced_name())),
        );
    }
    diagnostics
}
