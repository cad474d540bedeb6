//! `selector-target-not-granted` (field-2026 §2.6): a targetSelector with `namespaces.from: All`
//! or `Selector` matches an object in another namespace, but no ReferenceGrant there permits the
//! policy to reference it. Envoy Gateway v1.8 drops such a match without a word (it removed the
//! condition that said so), so the policy silently does not apply there; dopol leaves the match
//! out as well and says so here. ListenerSet selectors ([`super::super::sets`]) the same.

use super::super::diags::SelectorTargetNotGranted;
use super::super::evaluate::EnvoyEvaluator;
use crate::diag::Diagnostic;
use crate::topology::Target;
use crate::topology::targets::not_granted;

/// One finding per selector and match without a ReferenceGrant.
pub fn check(evaluator: &EnvoyEvaluator<'_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut diagnostics = Vec::new();
    for (i, policy) in model.policies.iter().enumerate() {
        if !evaluator.owns(i as u32) || policy.selectors.iter().all(|s| s.cross_namespace.is_none())
        {
            continue;
        }
        let targets = not_granted(model, policy)
            .into_iter()
            .map(|(index, target)| {
                let namespace: &str = match target {
                    Target::Gateway(g) | Target::Listener(g, _) => {
                        &model.gateways[g as usize].namespace
                    }
                    Target::Route(r) | Target::RouteRule(r, _) => {
                        &model.routes[r as usize].namespace
                    }
                    Target::ListenerSet(s) => &model.listener_sets[s as usize].namespace,
                };
                (index, target.describe(model), namespace)
            });
        let sets =
            (super::super::sets::not_granted(model, policy).into_iter()).map(|(index, set)| {
                let s = &model.listener_sets[set as usize];
                (index, s.display(), s.namespace.as_str())
            });
        for (index, target, namespace) in targets.chain(sets) {
            let finding = SelectorTargetNotGranted {
                policy,
                index,
                target,
                namespace,
            };
            diagnostics.push(
                Diagnostic::from(finding)
                    .with_label(policy.selectors[index].span, "no ReferenceGrant")
                    .with_object(policy.display()),
            );
        }
    }
    diagnostics
}
