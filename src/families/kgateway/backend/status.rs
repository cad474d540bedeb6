//! BackendConfigPolicy status as kgateway writes it (docs/families.md §2.10;
//! `backendconfigpolicy/status.go`): one ancestor per targeted backend (`{group: "", kind:
//! Service, namespace, name}`), Accepted True/`Valid` and Attached True/`Attached` — also when
//! an older policy's fields win [controller] (lint `bcp-field-shadowed` says so) — and, when a
//! BackendTLSPolicy targets the backend and the policy sets `tls`, Overridden
//! True/`ConflictedWithBackendTLSPolicy`. A BackendTLSPolicy's own status is not evaluated.

use super::evaluate::BcpEvaluator;
use super::family::is_tls_policy;
use crate::families::kgateway::status::{State, accepted, attached, sort_key};
use crate::policy::{AncestorRef, AncestorStatus, Condition, PolicyConditions};

/// The status of `policy`.
pub fn conditions(evaluator: &BcpEvaluator<'_>, policy: u32) -> PolicyConditions {
    let p = &evaluator.model.policies[policy as usize];
    if is_tls_policy(p.kind) {
        let why = "dopol reads a BackendTLSPolicy only to remove the tls of the BackendConfigPolicies of its targets: its own status is not evaluated";
        return PolicyConditions {
            conditions: vec![Condition::new("Accepted", "Unknown", "NotModelled", why)],
            ancestors: None,
        };
    }
    let invalid = !p.errors.is_empty();
    let accepted = accepted(p);
    let sets_tls = p.rules().any(|(_, r)| r.key.as_str() == "tls");
    let mut ancestors: Vec<AncestorStatus> = Vec::new();
    for (subject, on) in evaluator.subjects_of(policy) {
        let mut conditions = vec![accepted.clone(), attached(State::Attached, invalid)];
        if let Some(&tls) = on.tls.first().filter(|_| sets_tls && !invalid) {
            let tls = evaluator.model.policies[tls as usize].namespaced_name();
            let message = format!("spec.tls overridden by BackendTLSPolicy {tls}");
            let reason = "ConflictedWithBackendTLSPolicy";
            conditions.push(Condition::new("Overridden", "True", reason, message));
        }
        ancestors.push(AncestorStatus {
            ancestor_ref: AncestorRef {
                group: subject.group,
                kind: subject.kind,
                namespace: subject.namespace.clone(),
                name: subject.name.clone(),
                section_name: None,
            },
            conditions,
            conflicted_by: Vec::new(),
        });
    }
    if ancestors.is_empty() {
        let message = format!("{} has no targets", p.kind.kind);
        let accepted = match invalid {
            true => accepted,
            false => Condition::new("Accepted", "False", "TargetNotFound", message),
        };
        return PolicyConditions {
            conditions: vec![accepted],
            ancestors: Some(Vec::new()),
        };
    }
    ancestors.sort_by_key(|a| sort_key(&a.ancestor_ref));
    let mut top = ancestors[0].conditions[..2].to_vec();
    top.extend(
        (ancestors.iter())
            .flat_map(|a| a.conditions.get(2))
            .next()
            .cloned(),
    );
    PolicyConditions {
        conditions: top,
        ancestors: Some(ancestors),
    }
}
