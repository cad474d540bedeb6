//! `dopol explain` for AgentgatewayPolicies: the path's ladder (docs/families.md §5.3) least specific
//! first, each policy with its rung and whether it locks (`inheritance: Override`); then one step
//! per policy and rung saying what became of each of its keys — added, superseded by a more
//! specific value, dropped under a lock, lost a tie, merged into a union key — with the
//! conditional lists that have no fallback named.

use super::evaluate::AgwEvaluator;
use super::keys::{Section, conditional_without_fallback, is_union};
use super::ladder::Step;
use crate::engine::fold::{RuleEvent, RuleRef};
use crate::policy::{ExplainedMerge, ExplainedPolicy, FamilyExplanation, MergeChange, PathView};

/// The order `explain` lists policies in.
const ORDER: &str = "least specific first: Gateway, Gateway port (frontend), listener, then each route and its rule (root first); traffic values replace less specific ones unless an Override locks the key, traffic.buffer keeps the least specific, frontend/preRouting/backend take the most specific; on one element the oldest, then namespace/name, is dopol's pick in a tie";

/// The explanation of one path.
pub fn explain(evaluator: &AgwEvaluator<'_>, view: &PathView<'_>) -> FamilyExplanation {
    let steps = evaluator.ladder(view);
    let fold = evaluator.fold_steps(&steps);
    let mut policies = Vec::new();
    let mut merges = Vec::new();
    for step in &steps {
        for &policy in &step.policies {
            policies.push(ExplainedPolicy {
                policy,
                target: step.target,
                level: step.rung.name(),
                why: why(evaluator, step, policy),
            });
            merges.extend(merge_step(evaluator, step, policy, &fold.events));
        }
    }
    FamilyExplanation {
        order: ORDER,
        policies,
        steps: merges,
    }
}

/// Why a policy sits on its rung.
fn why(evaluator: &AgwEvaluator<'_>, step: &Step, policy: u32) -> String {
    let model = evaluator.model;
    let place = match step.rung {
        super::ladder::Rung::Port(port) => {
            format!("targets port {port} of {}", step.target.describe(model))
        }
        _ => format!("targets {}", step.target.describe(model)),
    };
    if evaluator.over(policy) {
        format!("{place}; strategy.inheritance: Override locks the traffic keys it sets")
    } else {
        place
    }
}

/// The action and deciding policies `explain` shows for a key's outcome; a lost tie is worded
/// as a value that stays (the winner's), with a note saying it is a tie.
fn action(
    evaluator: &AgwEvaluator<'_>,
    key: &str,
    event: &RuleEvent,
    notes: &mut Vec<String>,
) -> (&'static str, Vec<u32>) {
    match event {
        RuleEvent::Added => ("added", Vec::new()),
        RuleEvent::Tie { by } => {
            let winner = evaluator.model.policies[*by as usize].namespaced_name();
            notes.push(format!(
                "tie on `{key}` with {winner} (equal specificity: the controller may apply either; dopol shows {winner})"
            ));
            ("superseded", vec![*by])
        }
        RuleEvent::Overridden { by } => ("dropped", vec![*by]),
        other => (other.as_str(), other.by().to_vec()),
    }
}

/// What became of each key of `policy` on this rung.
fn merge_step(
    evaluator: &AgwEvaluator<'_>,
    step: &Step,
    policy: u32,
    events: &std::collections::BTreeMap<RuleRef, RuleEvent>,
) -> Option<ExplainedMerge> {
    let model = evaluator.model;
    let rules = &model.policies[policy as usize].blocks[0].rules;
    let mut changes = Vec::new();
    let mut notes = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let key = rule.key.as_str();
        if !step.rung.reads(Section::of(key)) {
            continue;
        }
        let Some(event) = events.get(&RuleRef::new(policy, 0, i)) else {
            continue;
        };
        let (action, by) = action(evaluator, key, event, &mut notes);
        if is_union(key) && matches!(event, RuleEvent::Added | RuleEvent::Merged { .. }) {
            notes.push(format!("`{key}` combines every level (ruleSets)"));
        }
        if conditional_without_fallback(key, &rule.value) {
            notes.push(format!("`{key}` is a conditional list without fallback"));
        }
        if evaluator.over(policy) && Section::of(key) == Section::Traffic && action == "added" {
            notes.push(format!("locks `{key}`"));
        }
        changes.push(MergeChange {
            key: key.to_string(),
            action,
            source: policy,
            by,
        });
    }
    if changes.is_empty() {
        return None;
    }
    let summary = if notes.is_empty() {
        format!("on the {}", step.rung.name())
    } else {
        notes.join("; ")
    };
    let named = super::evaluate::inheritance(evaluator.over(policy));
    Some(ExplainedMerge {
        policy: Some(policy),
        subject: step.target.describe(model),
        scope: step.rung.name(),
        strategy: named.strategy,
        gep: named.gep,
        summary,
        skipped: None,
        changes,
    })
}
