//! The BackendConfigPolicy evaluator (docs/families.md §2.10): every targeted backend's
//! effective policy, computed once when the evaluator is made and handed to the reports as owned
//! paths, one per subject.
//!
//! On one subject the policies are ordered as kgateway orders attachments (§2.3: weight, age —
//! a missing timestamp the oldest —, `group/kind/namespace/name`); the first policy setting a
//! field keeps it, later ones fill the unset fields (AugmentedShallow per top-level field, `dns`
//! per sub-field; `merge.go`). A BackendTLSPolicy targeting the subject removes `tls`.

use super::family::{KINDS, is_tls_policy};
use super::subjects::{self, Subject};
use crate::diag::Diagnostic;
use crate::engine::fold::{FoldFailure, FoldObserver, Folded};
use crate::engine::observed::Observed;
use crate::engine::owned::{
    OwnedExplanation, OwnedItem, OwnedLoss, OwnedNode, OwnedPaths, OwnedRule, OwnedStep,
};
use crate::model::Model;
use crate::policy::{Evaluator, PathView, PolicyConditions};
use crate::topology::hierarchy::{Level, Occurs};
use std::collections::BTreeMap;

/// The owned hierarchy's one level: a backend.
const LEVELS: &[Level] = &[Level {
    name: "backend",
    occurs: Occurs::Once,
}];

/// The policies on one subject.
#[derive(Debug, Default)]
pub(super) struct OnSubject {
    /// BackendConfigPolicies, highest priority first.
    pub configs: Vec<u32>,
    /// BackendTLSPolicies, by namespace/name.
    pub tls: Vec<u32>,
}

/// The family's evaluation of one model.
pub struct BcpEvaluator<'m> {
    pub(super) model: &'m Model,
    /// Per subject, its policies.
    pub(super) subjects: BTreeMap<Subject, OnSubject>,
    paths: OwnedPaths,
}

impl<'m> BcpEvaluator<'m> {
    /// Reads every policy of the family and computes each subject's effective policy.
    pub fn new(model: &'m Model) -> BcpEvaluator<'m> {
        let mut subjects: BTreeMap<Subject, OnSubject> = BTreeMap::new();
        for (p, policy) in model.policies.iter().enumerate() {
            if !KINDS.iter().any(|k| std::ptr::eq(k, policy.kind)) {
                continue;
            }
            for subject in subjects::of(policy) {
                let on = subjects.entry(subject).or_default();
                match is_tls_policy(policy.kind) {
                    true => on.tls.push(p as u32),
                    false => on.configs.push(p as u32),
                }
            }
        }
        for on in subjects.values_mut() {
            on.configs.sort_by_cached_key(|&p| {
                let policy = &model.policies[p as usize];
                let name = format!(
                    "{}/{}/{}",
                    policy.kind.group,
                    policy.kind.kind,
                    policy.namespaced_name()
                );
                (
                    std::cmp::Reverse(policy.priority),
                    policy.creation_timestamp,
                    name,
                )
            });
        }
        let mut evaluator = BcpEvaluator {
            model,
            subjects,
            paths: OwnedPaths {
                name: "backend",
                levels: LEVELS,
                columns: &["KIND", "BACKEND"],
                filters: &[],
                ..OwnedPaths::default()
            },
        };
        let items: Vec<OwnedItem> = (evaluator.subjects.iter())
            .filter(|(_, on)| !on.configs.is_empty())
            .map(|(subject, on)| evaluator.item(subject, on))
            .collect();
        evaluator.paths.tree = items.iter().map(node).collect();
        evaluator.paths.items = items;
        evaluator
    }

    /// The effective BackendConfigPolicy of one subject.
    fn item(&self, subject: &Subject, on: &OnSubject) -> OwnedItem {
        let model = self.model;
        let valid: Vec<u32> = (on.configs.iter().copied())
            .filter(|&p| model.policies[p as usize].errors.is_empty())
            .collect();
        let mut rules: BTreeMap<&str, OwnedRule> = BTreeMap::new();
        let mut lost = Vec::new();
        for &p in &valid {
            for rule in model.policies[p as usize].rules().map(|(_, r)| r) {
                let value = rule.value.to_json();
                match rules.get(rule.key.as_str()) {
                    Some(winner) => lost.push(OwnedLoss {
                        key: rule.key.to_string(),
                        value,
                        policy: p,
                        winner: winner.source,
                    }),
                    None => {
                        let owned = OwnedRule {
                            key: rule.key.to_string(),
                            value,
                            source: p,
                            origins: vec![p],
                        };
                        rules.insert(rule.key.as_str(), owned);
                    }
                }
            }
        }
        if let (Some(&tls_policy), Some(removed)) = (on.tls.first(), rules.remove("tls")) {
            for loss in lost.iter_mut().filter(|l| l.key == "tls") {
                loss.winner = tls_policy;
            }
            lost.push(OwnedLoss {
                key: removed.key,
                value: removed.value,
                policy: removed.source,
                winner: tls_policy,
            });
        }
        let kind = match subject.group {
            "" => subject.kind.to_string(),
            group => format!("{}.{group}", subject.kind),
        };
        OwnedItem {
            path_id: subject.id(),
            segments: vec![kind, subject.namespaced_name()],
            kind: &KINDS[0],
            rules: rules.into_values().collect(),
            lost,
            extra: Vec::new(),
            policies: valid.clone(),
            explanation: explanation(model, &valid, on),
        }
    }

    /// The subjects `policy` targets, with their policies.
    pub(super) fn subjects_of(&self, policy: u32) -> impl Iterator<Item = (&Subject, &OnSubject)> {
        (self.subjects.iter())
            .filter(move |(_, on)| on.configs.contains(&policy) || on.tls.contains(&policy))
    }
}

/// How a subject's value came about: the policies lowest priority first, each filling or
/// replacing keys (the same result as kgateway's first-keeps merge, read bottom up), then the
/// BackendTLSPolicy removing `tls`.
fn explanation(model: &Model, valid: &[u32], on: &OnSubject) -> OwnedExplanation {
    let mut steps = Vec::new();
    let mut set: Vec<String> = Vec::new();
    for &p in valid.iter().rev() {
        let policy = &model.policies[p as usize];
        let keys: Vec<String> = policy.rules().map(|(_, r)| r.key.to_string()).collect();
        let (replaced, added): (Vec<String>, Vec<String>) =
            keys.into_iter().partition(|k| set.contains(k));
        set.extend(added.iter().cloned());
        let created = model.policy_created_text(p).unwrap_or_else(|| "-".into());
        steps.push(OwnedStep {
            policy: p,
            entry: "spec".into(),
            key: vec![
                policy.priority.to_string(),
                created,
                policy.namespaced_name(),
            ],
            relevance: "targetRefs".into(),
            added,
            replaced,
        });
    }
    if let Some(&tls_policy) = on.tls.first() {
        steps.push(OwnedStep {
            policy: tls_policy,
            entry: "BackendTLSPolicy".into(),
            relevance: "targets the backend: removes tls".into(),
            replaced: set.iter().filter(|k| *k == "tls").cloned().collect(),
            ..OwnedStep::default()
        });
    }
    OwnedExplanation {
        order: "lowest priority first: kgateway.dev/policy-weight (lower first), then newer, then by name; a higher policy's field replaces a lower one's (AugmentedShallow: the first policy in kgateway's order keeps a field)".into(),
        key_columns: vec!["weight", "created", "name"],
        steps,
        notes: Vec::new(),
    }
}

/// A subject's node in the owned tree.
fn node(item: &OwnedItem) -> OwnedNode {
    OwnedNode {
        kind: item.segments[0].clone(),
        name: item.segments[1].clone(),
        policies: item.policies.clone(),
        children: Vec::new(),
        paths: vec![item.path_id.clone()],
    }
}

impl<'m> Evaluator<'m> for BcpEvaluator<'m> {
    fn fold(&self, _view: &PathView<'_>, _observer: &mut dyn FoldObserver<'m>) -> Folded<'m> {
        // BackendConfigPolicies attach to no Gateway API path: the engine has none to fold.
        Folded::default()
    }

    fn fold_warning(&self, path_id: &str, failure: &FoldFailure) -> Diagnostic {
        Diagnostic::from(crate::families::kgateway::diags::RouteReplaced {
            path: path_id,
            reason: &failure.reason,
        })
    }

    fn conditions(&self, _observed: &Observed<'_, 'm>, policy: u32) -> PolicyConditions {
        super::status::conditions(self, policy)
    }

    fn lint(&self, _observed: &Observed<'_, 'm>) -> Vec<Diagnostic> {
        super::checks::check(self, &self.paths)
    }

    fn owned_paths(&self) -> Option<&OwnedPaths> {
        Some(&self.paths)
    }
}
