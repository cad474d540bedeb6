//! `ctp-gateway-section-in-listenerset` (field-2026 §2.2 [controller]): a ClientTrafficPolicy
//! whose Gateway `sectionName` only a ListenerSet's listener has. Gateway API says such a target
//! names nothing (the other kinds are TargetNotFound), but Envoy Gateway looks a
//! ClientTrafficPolicy's section up in the merged listener list and applies the policy to the
//! first such listener; dopol follows the controller ([`super::super::sets::quirks`]) and warns.

use super::super::diags::GatewaySectionInListenerSet;
use super::super::evaluate::EnvoyEvaluator;
use super::super::spec::ListenerStyle;
use crate::diag::Diagnostic;
use crate::topology::Target;

/// One finding per such target of a ClientTrafficPolicy (a kind with sections).
pub fn check(evaluator: &EnvoyEvaluator<'_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut diagnostics = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        let index = index as u32;
        if !evaluator.owns(index) || evaluator.spec(index).listener_style != ListenerStyle::Section
        {
            continue;
        }
        for (i, target) in super::super::sets::quirks(model, policy) {
            let Target::Listener(g, l) = target else {
                continue;
            };
            let gw = &model.gateways[g as usize];
            let listener = &gw.listeners[l as usize];
            let Some(set) = listener.set.map(|s| &model.listener_sets[s as usize]) else {
                continue;
            };
            let written = &policy.targets[i];
            let finding = GatewaySectionInListenerSet {
                policy,
                gateway: format!("{}/{}", gw.namespace, gw.name),
                section: &listener.name,
                set: set.display(),
            };
            diagnostics.push(
                Diagnostic::from(finding)
                    .with_label(
                        written.section_span.unwrap_or(written.span),
                        "a ListenerSet's listener",
                    )
                    .with_object(policy.display()),
            );
        }
    }
    diagnostics
}
