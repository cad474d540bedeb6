//! The generic `section-not-found` for an Envoy Gateway target on a ListenerSet's listener
//! whose `sectionName` the ListenerSet lacks (field-2026 §2.2): the topology, which reports the
//! other missing sections, leaves ListenerSet targets to the family ([`super::super::sets`]).

use super::super::diags::SetSectionNotFound;
use super::super::evaluate::EnvoyEvaluator;
use super::super::sets::{SetOutcome, outcome, set_refs};
use crate::diag::Diagnostic;

/// One finding per such target.
pub fn check(evaluator: &EnvoyEvaluator<'_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    (model.policies.iter().enumerate())
        .filter(|(index, _)| evaluator.owns(*index as u32))
        .flat_map(|(_, policy)| set_refs(policy).into_iter().map(move |t| (policy, t)))
        .filter_map(|(policy, target)| {
            let SetOutcome::SectionNotFound(set) = outcome(model, policy, &target) else {
                return None;
            };
            let finding = SetSectionNotFound {
                policy,
                set: &model.listener_sets[set as usize],
                section: target.section.unwrap_or_default(),
            };
            let diagnostic = Diagnostic::from(finding)
                .with_label(target.span, "no such listener")
                .with_object(policy.display());
            Some(diagnostic)
        })
        .collect()
}
