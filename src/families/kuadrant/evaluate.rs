//! The Kuadrant family's evaluation of a model: the RFC 0009 fold over the four levels, the
//! operator's `Accepted`/`Enforced` conditions (docs/semantics.md#5-outcomes-status-and-reach), and its own checks.
//!
//! `Enforced` is computed the operator's way: for each path whose policy list contains P and
//! each rule key k of P — if k is absent from the path's effective policy, every source of that
//! effective policy counts as overriding P; if present with another source, that source counts;
//! if present with P as source, P is affecting the path. One choice the spec leaves open: P
//! never counts as overriding itself (it can be a source of a path that lacks one of its keys,
//! when an `unset` dropped that key).

use super::constraint::Constraints;
use super::diags::ConstraintEvaluation;
use super::{extensions, fold};
use crate::diag::Diagnostic;
use crate::engine::Engine;
use crate::engine::fold::{FoldFailure, FoldObserver, Folded};
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::{Condition, Evaluator, PathView, Policy, PolicyConditions, PolicyKind};
use std::collections::BTreeSet;

/// Compiled constraints over one model, for the policies of one family's kinds (the fold is
/// kind-generic: the built-in Kuadrant family and every kind declared with the `kuadrant` model
/// use it, each over its own policies).
pub struct KuadrantEvaluator<'m> {
    model: &'m Model,
    kinds: &'static [PolicyKind],
    constraints: Constraints,
}

/// Whether `policy` is of one of `kinds` (the kinds of the family evaluating it).
pub fn owns(kinds: &[PolicyKind], policy: &Policy) -> bool {
    kinds.iter().any(|k| std::ptr::eq(k, policy.kind))
}

impl<'m> KuadrantEvaluator<'m> {
    /// Compiles every constraint of the policies of `kinds`; compile errors are the
    /// diagnostics.
    pub fn new(
        model: &'m Model,
        kinds: &'static [PolicyKind],
    ) -> (KuadrantEvaluator<'m>, Vec<Diagnostic>) {
        let (constraints, diagnostics) = Constraints::compile(model, kinds);
        (
            KuadrantEvaluator {
                model,
                kinds,
                constraints,
            },
            diagnostics,
        )
    }
}

impl<'m> Evaluator<'m> for KuadrantEvaluator<'m> {
    fn fold(&self, view: &PathView<'_>, observer: &mut dyn FoldObserver<'m>) -> Folded<'m> {
        fold::fold(self.model, &view.policies(), &self.constraints, observer)
    }

    fn engine_checks(&self, engine: &Engine<'m>) -> Vec<Diagnostic> {
        extensions::check(engine, self.kinds)
    }

    fn fold_warning(&self, path_id: &str, failure: &FoldFailure) -> Diagnostic {
        let policy = &self.model.policies[failure.policy as usize];
        let block = &policy.blocks[failure.block as usize];
        let span = block.constraint.as_ref().map_or(block.span, |c| c.span);
        let finding = ConstraintEvaluation {
            policy,
            block: block.kind,
            path_id,
            reason: &failure.reason,
        };
        Diagnostic::from(finding)
            .with_label(span, "this constraint")
            .with_object(policy.display())
    }

    fn conditions(&self, observed: &Observed<'_, 'm>, policy: u32) -> PolicyConditions {
        let engine = observed.engine;
        let conditions = match &engine.topology.targets.not_accepted[policy as usize] {
            Some(message) => vec![Condition {
                kind: "Accepted",
                status: "False",
                reason: "TargetNotFound",
                message: message.clone(),
            }],
            None => vec![
                Condition {
                    kind: "Accepted",
                    status: "True",
                    reason: "Accepted",
                    message: format!(
                        "{} has been accepted",
                        engine.model.policies[policy as usize].kind.kind
                    ),
                },
                enforced(observed, policy),
            ],
        };
        PolicyConditions {
            conditions,
            ancestors: None,
        }
    }

    fn lint(&self, observed: &Observed<'_, 'm>) -> Vec<Diagnostic> {
        let owned = |policy: &Policy| owns(self.kinds, policy);
        let (mut diagnostics, granularity) = rayon::join(
            || super::outcomes::check(observed, &owned),
            || super::granularity::check(observed, &owned),
        );
        diagnostics.extend(granularity);
        diagnostics.extend(super::listener_sets::check(observed, &owned));
        diagnostics
    }
}

/// The end of the `Enforced` message of a policy some of whose rules are overridden.
pub(super) const PARTIALLY: &str = "has been partially enforced";

/// The `Enforced` condition of an accepted policy.
fn enforced(observed: &Observed<'_, '_>, policy: u32) -> Condition {
    let model = observed.engine.model;
    let p = &model.policies[policy as usize];
    let keys: BTreeSet<&str> = p.rules().map(|(_, r)| r.key.as_str()).collect();
    let mut affecting = false;
    let mut overriding: BTreeSet<u32> = BTreeSet::new();
    // What a path contributes depends only on its fold, which many paths share: each distinct
    // fold is read once.
    let mut folds: Vec<_> = observed.entries_of_policy[policy as usize]
        .iter()
        .map(|&index| observed.entry(index))
        .map(|(entry, fold)| (entry.fold, fold))
        .collect();
    folds.sort_unstable_by_key(|&(id, _)| id);
    folds.dedup_by_key(|&mut (id, _)| id);
    for (_, fold) in folds {
        let effective = &fold.folded.effective;
        for key in &keys {
            match effective.get(key) {
                Some(rule) if rule.policy == policy => affecting = true,
                Some(rule) => {
                    overriding.insert(rule.policy);
                }
                None => overriding.extend(
                    effective
                        .values()
                        .map(|r| r.policy)
                        .filter(|&q| q != policy),
                ),
            }
        }
    }
    let kind = p.kind.kind;
    let overriders = || {
        let mut names: Vec<String> = overriding
            .iter()
            .map(|&q| model.policies[q as usize].namespaced_name())
            .collect();
        names.sort();
        names.dedup();
        names.join(" ")
    };
    let (status, reason, message) = match (affecting, overriding.is_empty()) {
        (false, true) => (
            "False",
            "Unknown",
            format!("{kind} is not in the path to any existing routes"),
        ),
        (false, false) => (
            "False",
            "Overridden",
            format!("{kind} is overridden by [{}]", overriders()),
        ),
        (true, false) => ("True", "Enforced", format!("{kind} {PARTIALLY}")),
        (true, true) => (
            "True",
            "Enforced",
            format!("{kind} has been successfully enforced"),
        ),
    };
    Condition {
        kind: "Enforced",
        status,
        reason,
        message,
    }
}
