//! The generic `target-not-found` for an Envoy Gateway policy that names no target at all (no
//! `targetRef`, `targetRefs` or `targetSelectors`): none of its targets resolves (docs/families.md §1
//! Unresolved policies), although the topology, which reports targets that miss and selectors
//! that select nothing, has nothing to point at.

use super::super::diags::NoTargets;
use super::super::evaluate::EnvoyEvaluator;
use crate::diag::Diagnostic;

/// One finding per policy of the family without any target.
pub fn check(evaluator: &EnvoyEvaluator<'_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    model
        .policies
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            evaluator.owns(*i as u32)
                && p.targets.is_empty()
                && p.selectors.is_empty()
                && super::super::sets::set_refs(p).is_empty()
        })
        .map(|(_, policy)| {
            Diagnostic::from(NoTargets { policy })
                .with_label(policy.name_span, "targets nothing")
                .with_object(policy.display())
        })
        .collect()
}
