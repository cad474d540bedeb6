//! `dopol explain` for Envoy Gateway policies: every policy on the path's elements, most
//! specific slot first, each either holding its slot or Conflicted there (naming the holder and
//! why it came first); then the step that picks the most specific holder, and — with
//! `mergeType` — the step that merges it into its parent, key by key.

use super::evaluate::EnvoyEvaluator;
use super::slots::{Decision, why_first};
use crate::engine::fold::Effective;
use crate::policy::{ExplainedMerge, ExplainedPolicy, FamilyExplanation, MergeChange, PathView};
use crate::topology::Target;

/// The level word of a slot.
fn level(target: Target) -> &'static str {
    match target {
        Target::Gateway(_) => "Gateway",
        Target::Listener(..) => "listener",
        Target::Route(_) => "route",
        Target::RouteRule(..) => "route rule",
    }
}

/// The explanation of one path.
pub fn explain(evaluator: &EnvoyEvaluator<'_>, view: &PathView<'_>) -> FamilyExplanation {
    let order = "most specific slot first (route rule, route, listener, Gateway); on each slot the oldest policy, then namespace/name, holds it and the others are Conflicted there";
    let Some(&first) = view.policies().first() else {
        return FamilyExplanation {
            order,
            ..FamilyExplanation::default()
        };
    };
    let kind = evaluator.kind_index(first);
    let elements: Vec<Target> = view.levels.iter().map(|l| l.target).collect();
    let holders = evaluator.holders(&elements, kind);
    let decision = evaluator.decide(&holders);
    let effective = evaluator.effective(decision);
    let mut steps = Vec::new();
    if let Some(decision) = decision {
        steps.push(winner_step(evaluator, &holders, decision));
        steps.extend(merge_step(evaluator, decision, &effective));
        steps.extend(super::tcp::explain_step(
            evaluator, view.path, &decision, &effective,
        ));
    }
    FamilyExplanation {
        order,
        policies: policies(evaluator, &elements, kind),
        steps,
    }
}

/// Every policy on every element, most specific first, with its place.
fn policies(
    evaluator: &EnvoyEvaluator<'_>,
    elements: &[Target],
    kind: usize,
) -> Vec<ExplainedPolicy> {
    let model = evaluator.model;
    let mut out = Vec::new();
    for &target in elements.iter().rev() {
        let on = evaluator.topology.targets.on(target, kind);
        let Some(&holder) = on.first() else {
            continue;
        };
        for &policy in on {
            let why = if policy == holder {
                format!(
                    "holds the {} slot {} (first in age order)",
                    level(target),
                    target.describe(model)
                )
            } else {
                format!(
                    "Conflicted on {}: {} holds the slot because {}; takes no part here",
                    target.describe(model),
                    model.policies[holder as usize].display(),
                    why_first(
                        &model.policies[holder as usize],
                        &model.policies[policy as usize]
                    )
                )
            };
            out.push(ExplainedPolicy {
                policy,
                target,
                level: level(target),
                why,
            });
        }
    }
    out
}

/// The most specific holder wins; less specific holders' keys are superseded.
fn winner_step(
    evaluator: &EnvoyEvaluator<'_>,
    holders: &super::slots::Holders,
    decision: Decision,
) -> ExplainedMerge {
    let model = evaluator.model;
    let winner = decision.winner;
    let mut changes: Vec<MergeChange> = model.policies[winner as usize].blocks[0]
        .rules
        .iter()
        .map(|r| MergeChange {
            key: r.key.to_string(),
            action: "added",
            source: winner,
            by: Vec::new(),
        })
        .collect();
    for &(_, policy) in holders.slots.iter().filter(|&&(_, p)| p != winner) {
        if decision.parent.is_some_and(|(parent, ..)| parent == policy) {
            continue;
        }
        changes.extend(
            model.policies[policy as usize].blocks[0]
                .rules
                .iter()
                .map(|r| MergeChange {
                    key: r.key.to_string(),
                    action: "superseded",
                    source: policy,
                    by: vec![winner],
                }),
        );
    }
    let empty = changes.iter().all(|c| c.source != winner);
    ExplainedMerge {
        policy: Some(winner),
        subject: decision.slot.describe(model),
        scope: level(decision.slot),
        strategy: "most specific slot",
        summary: format!(
            "{} holds the most specific slot of the path: its fields are the effective policy as a whole, nothing is inherited from less specific policies{}",
            model.policies[winner as usize].display(),
            if empty { " (it sets no field)" } else { "" }
        ),
        skipped: None,
        changes,
    }
}

/// With `mergeType`: the winner (the patch) merged into its parent, key by key.
fn merge_step(
    evaluator: &EnvoyEvaluator<'_>,
    decision: Decision,
    effective: &Effective<'_>,
) -> Option<ExplainedMerge> {
    let model = evaluator.model;
    let (parent, slot, merge_type) = decision.parent?;
    let winner = decision.winner;
    let parent_keys = &model.policies[parent as usize].blocks[0];
    let mut changes = Vec::new();
    for (key, rule) in effective {
        let (action, source, by) = match rule.origins() {
            [only] if *only == parent => ("added", parent, Vec::new()),
            [_, ..] if rule.origins().len() > 1 => ("merged", parent, vec![winner]),
            _ if parent_keys.rule(key).is_some() => ("replaced", parent, vec![winner]),
            _ => ("added", winner, Vec::new()),
        };
        changes.push(MergeChange {
            key: key.to_string(),
            action,
            source,
            by,
        });
    }
    Some(ExplainedMerge {
        policy: Some(winner),
        subject: format!("into {}", model.policies[parent as usize].display()),
        scope: level(decision.slot),
        strategy: merge_type.as_str(),
        summary: format!(
            "mergeType {}: merged into its parent {} (the holder of {}); keys only the parent sets are kept, keys both set are merged with the route policy winning",
            merge_type.as_str(),
            model.policies[parent as usize].display(),
            slot.describe(model)
        ),
        skipped: None,
        changes,
    })
}
