//! ListenerPolicy's lint checks (docs/families.md §2.9): fields kgateway does not read where the
//! policy is attached (`listenerpolicy-field-ignored`, per attachment, whether or not a route is
//! attached), policies kgateway rejects (`invalid-policy-weight`), and HTTPListenerPolicy objects,
//! which dopol does not model (`httplistenerpolicy-deprecated`).

use super::diags::{FieldIgnored, HttpListenerPolicyDeprecated};
use super::evaluate::LpEvaluator;
use super::family::HTTP_LISTENER_POLICY;
use super::fold::ignored;
use crate::diag::Diagnostic;
use crate::families::kgateway::diags::PolicyRejected;
use crate::topology::Target;
use std::collections::BTreeSet;

/// Every finding of the family.
pub fn check(evaluator: &LpEvaluator<'_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut out = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        if !evaluator.owns(index as u32) {
            continue;
        }
        out.extend(PolicyRejected::of(policy));
        out.extend(ignored_fields(evaluator, index as u32));
    }
    for object in &model.objects {
        let spec = &HTTP_LISTENER_POLICY;
        if object.group.as_str() == spec.group && object.kind.as_str() == spec.kind {
            let name = format!(
                "{}/{}",
                object.namespace.as_deref().unwrap_or(""),
                object.name
            );
            out.push(
                Diagnostic::from(HttpListenerPolicyDeprecated { name: &name })
                    .with_label(object.name_span(), "not evaluated")
                    .with_object(format!("HTTPListenerPolicy {name}")),
            );
        }
    }
    out
}

/// The fields of `policy` kgateway does not read at one of its attachments, once per field,
/// attachment kind and reason.
fn ignored_fields(evaluator: &LpEvaluator<'_>, policy: u32) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let p = &model.policies[policy as usize];
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for &target in &evaluator.topology.targets.of_policy[policy as usize] {
        let (section, https, at) = match target {
            Target::Gateway(g) => (
                false,
                false,
                format!("Gateway {}", gateway_name(evaluator, g)),
            ),
            Target::Listener(g, l) => {
                let listener = evaluator.listener(g, l);
                let name = &model.gateways[g as usize].listeners[l as usize].name;
                let at = format!("listener {}#{name}", gateway_name(evaluator, g));
                (true, listener.https, at)
            }
            _ => continue,
        };
        for rule in p.blocks[0].rules.iter() {
            let (_, field) = super::keys::split(&rule.key);
            let Some(reason) = ignored(field, section, https) else {
                continue;
            };
            if !seen.insert((rule.key.as_str(), at.clone())) {
                continue;
            }
            let finding = FieldIgnored {
                policy: p,
                key: &rule.key,
                at: at.clone(),
                reason,
            };
            out.push(
                Diagnostic::from(finding)
                    .with_label(rule.key_span, "not read here")
                    .with_object(p.display()),
            );
        }
    }
    out
}

/// `namespace/name` of Gateway `g`.
fn gateway_name(evaluator: &LpEvaluator<'_>, g: u32) -> String {
    let gateway = &evaluator.model.gateways[g as usize];
    format!("{}/{}", gateway.namespace, gateway.name)
}
