//! BackendConfigPolicy's lint checks (docs/families.md §2.10): fields that lost to another
//! policy on a backend (`bcp-field-shadowed`; a `tls` a BackendTLSPolicy removes is reported by
//! the status, Overridden), `targetSelectors` dopol does not evaluate, and invalid weights.

use super::diags::{FieldShadowed, SelectorNotModelled};
use super::evaluate::BcpEvaluator;
use super::family::is_tls_policy;
use crate::diag::Diagnostic;
use crate::engine::owned::OwnedPaths;
use crate::families::kgateway::diags::PolicyRejected;
use std::collections::BTreeMap;

/// Every finding of the family.
pub fn check(evaluator: &BcpEvaluator<'_>, paths: &OwnedPaths) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut losses: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for item in &paths.items {
        for loss in &item.lost {
            let winner = &model.policies[loss.winner as usize];
            if is_tls_policy(winner.kind) {
                continue;
            }
            losses.entry(loss.policy).or_default().push(format!(
                "`{}` on {} loses to {}",
                loss.key,
                item.path_id,
                winner.display()
            ));
        }
    }
    let mut out = Vec::new();
    for (&p, losses) in &losses {
        let policy = &model.policies[p as usize];
        out.push(
            Diagnostic::from(FieldShadowed {
                policy,
                losses: losses.clone(),
            })
            .with_label(policy.name_span, "Attached, some fields lost")
            .with_object(policy.display()),
        );
    }
    let configs =
        (model.policies.iter()).filter(|p| std::ptr::eq(p.kind, &super::family::KINDS[0]));
    for policy in configs {
        out.extend(PolicyRejected::of(policy));
        if let Some(selectors) = super::subjects::has_selectors(policy) {
            out.push(
                Diagnostic::from(SelectorNotModelled { policy })
                    .with_label(selectors.span, "not evaluated")
                    .with_object(policy.display()),
            );
        }
    }
    out
}
