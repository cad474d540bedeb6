//! `dopol explain` for Envoy Gateway policies: every policy on the path's elements, most
//! specific slot first, each either holding its slot or Conflicted there (naming the holder and
//! why it came first); then the step that picks the most specific holder, and — with
//! `mergeType` — the step that merges it into its parent, key by key.

use super::evaluate::EnvoyEvaluator;
use super::slots::{Claim, Decision, Slot, claims, why_first};
use crate::engine::fold::Effective;
use crate::policy::{
    ExplainedMerge, ExplainedPolicy, FamilyExplanation, GepStrategy, MergeChange, PathView,
};
use crate::topology::Target;

/// The level word of a slot.
fn level(slot: Slot) -> &'static str {
    match slot {
        Slot::At(Target::Gateway(_)) => "Gateway",
        Slot::At(Target::Listener(..)) | Slot::GatewaySection(_) => "listener",
        Slot::At(Target::Route(_)) => "route",
        Slot::At(Target::RouteRule(..)) => "route rule",
        Slot::Set(_) | Slot::At(Target::ListenerSet(_)) => "ListenerSet",
    }
}

/// The explanation of one path.
pub fn explain(evaluator: &EnvoyEvaluator<'_>, view: &PathView<'_>) -> FamilyExplanation {
    let order = if evaluator.model.listener_sets.is_empty() {
        "most specific slot first (route rule, route, listener, Gateway); on each slot the oldest policy, then namespace/name, holds it and the others are Conflicted there"
    } else {
        "most specific slot first (route rule, route, listener, ListenerSet, Gateway); on each slot the oldest policy, then namespace/name, holds it and the others are Conflicted there"
    };
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
    let effective = evaluator.effective(&holders, decision);
    let mut steps = Vec::new();
    if let Some(decision) = decision {
        steps.push(winner_step(evaluator, &holders, decision, &effective));
        steps.extend(merge_step(evaluator, decision, &effective));
        steps.extend(super::tcp::explain_step(
            evaluator, view.path, &decision, &effective,
        ));
        steps.extend(super::ports::explain_step(evaluator, &decision, &effective));
    }
    FamilyExplanation {
        order,
        policies: policies(evaluator, &elements, kind),
        steps,
    }
}

/// Every policy on every element, most specific first, with its place; on a ListenerSet's
/// listener, the claimers of its own slot, then those of its set's.
fn policies(
    evaluator: &EnvoyEvaluator<'_>,
    elements: &[Target],
    kind: usize,
) -> Vec<ExplainedPolicy> {
    let (model, topology) = (evaluator.model, evaluator.topology);
    let mut out = Vec::new();
    for &target in elements.iter().rev() {
        let on = topology.targets.on(target, kind);
        let set = super::slots::set_of(model, target);
        let slots = [(Claim::Own, Slot::At(target))]
            .into_iter()
            .chain(set.map(|s| (Claim::Set, Slot::Set(s))))
            .chain(set.map(|_| (Claim::GatewaySection, Slot::GatewaySection(target))));
        for (claim, slot) in slots {
            let claimers: Vec<u32> = (on.iter().copied())
                .filter(|&p| claims(model, topology, (target, kind), p, claim))
                .collect();
            out.extend(slot_policies(evaluator, target, slot, &claimers));
        }
    }
    out
}

/// The claimers of one slot (reached on element `target`), the first holding it.
fn slot_policies(
    evaluator: &EnvoyEvaluator<'_>,
    target: Target,
    slot: Slot,
    claimers: &[u32],
) -> Vec<ExplainedPolicy> {
    let model = evaluator.model;
    let Some(&holder) = claimers.first() else {
        return Vec::new();
    };
    let refused = match slot {
        Slot::Set(_) => super::ports::refused_set(evaluator, holder, target),
        Slot::At(_) | Slot::GatewaySection(_) => None,
    };
    (claimers.iter())
        .map(|&policy| {
            let why = if policy != holder {
                format!(
                    "Conflicted on {}: {} holds the slot because {}; takes no part here",
                    slot.describe(model),
                    model.policies[holder as usize].display(),
                    why_first(
                        &model.policies[holder as usize],
                        &model.policies[policy as usize]
                    )
                )
            } else if let Some(message) = &refused {
                format!(
                    "holds the {} slot {}, but the controller refuses it on this listener ({message}.): it neither applies nor claims it here",
                    level(slot),
                    slot.describe(model)
                )
            } else {
                format!(
                    "holds the {} slot {} (first in age order)",
                    level(slot),
                    slot.describe(model)
                )
            };
            ExplainedPolicy {
                policy,
                target,
                level: level(slot),
                why,
            }
        })
        .collect()
}

/// The most specific holder wins; less specific holders' keys are superseded.
fn winner_step(
    evaluator: &EnvoyEvaluator<'_>,
    holders: &super::slots::Holders,
    decision: Decision,
    effective: &Effective<'_>,
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
        for r in &model.policies[policy as usize].blocks[0].rules {
            // An indexed field (§3.4, `routingType`) a less specific holder gives.
            let taken = effective
                .get(r.key.as_str())
                .is_some_and(|e| e.rule.policy == policy);
            changes.push(MergeChange {
                key: r.key.to_string(),
                action: if taken { "added" } else { "superseded" },
                source: policy,
                by: if taken { Vec::new() } else { vec![winner] },
            });
        }
    }
    let empty = changes.iter().all(|c| c.source != winner);
    let taken: Vec<String> = changes
        .iter()
        .filter(|c| c.source != winner && c.action == "added")
        .map(|c| {
            format!(
                "`{}` from {}",
                c.key,
                model.policies[c.source as usize].display()
            )
        })
        .collect();
    let what = match decision.parent {
        Some((parent, _, merge_type)) => format!(
            "with mergeType {}, its fields are merged with those of its parent {} in the next step",
            merge_type.as_str(),
            model.policies[parent as usize].display()
        ),
        None if taken.is_empty() => "its fields are the effective policy as a whole, nothing is inherited from less specific policies".to_string(),
        None => format!(
            "its fields are the effective policy as a whole but for {}, which Envoy Gateway resolves through its precedence index; nothing else is inherited from less specific policies",
            taken.join(", ")
        ),
    };
    ExplainedMerge {
        policy: Some(winner),
        subject: decision.slot.describe(model),
        scope: level(decision.slot),
        strategy: super::merge::MOST_SPECIFIC_SLOT,
        gep: match decision.parent {
            Some((_, _, merge_type)) => merge_type.gep(),
            None => (evaluator.declared_strategy).unwrap_or(GepStrategy::AtomicDefaults),
        },
        summary: format!(
            "{} holds the most specific slot of the path: {what}{}",
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
    let mut keys = MergeKeys::default();
    for (key, rule) in effective {
        let (action, source, by) = match rule.origins() {
            [only] if *only == parent => ("added", parent, Vec::new()),
            [only] if *only != winner => ("added", *only, Vec::new()),
            [_, ..] if rule.origins().len() > 1 => ("merged", parent, vec![winner]),
            _ if parent_keys.rule(key).is_some() => ("replaced", parent, vec![winner]),
            _ => ("added", winner, Vec::new()),
        };
        keys.note(key, action, source, (winner, parent), model);
        changes.push(MergeChange {
            key: key.to_string(),
            action,
            source,
            by,
        });
    }
    let parent_name = model.policies[parent as usize].display();
    Some(ExplainedMerge {
        policy: Some(winner),
        subject: format!("into {parent_name}"),
        scope: level(decision.slot),
        strategy: merge_type.as_str(),
        gep: merge_type.gep(),
        summary: format!(
            "mergeType {}: merged with its parent {parent_name} (the holder of {}): {}",
            merge_type.as_str(),
            slot.describe(model),
            keys.describe(&field_notes(evaluator, decision))
        ),
        skipped: None,
        changes,
    })
}

/// The keys of a merge step by what happened to them.
#[derive(Default)]
struct MergeKeys {
    inherited: Vec<String>,
    merged: Vec<String>,
    replaced: Vec<String>,
    own: Vec<String>,
    /// Indexed fields (§3.4) another holder gives: "`key` from ns/name".
    elsewhere: Vec<String>,
}

impl MergeKeys {
    /// Files `key`, whose `source` is the route policy, its parent or (an indexed field)
    /// another holder.
    fn note(
        &mut self,
        key: &str,
        action: &str,
        source: u32,
        (winner, parent): (u32, u32),
        model: &crate::model::Model,
    ) {
        let list = match action {
            "added" if source == parent => &mut self.inherited,
            "added" if source != winner => {
                let from = model.policies[source as usize].display();
                self.elsewhere.push(format!("`{key}` from {from}"));
                return;
            }
            "merged" => &mut self.merged,
            "replaced" => &mut self.replaced,
            _ => &mut self.own,
        };
        list.push(format!("`{key}`"));
    }

    /// In words: what is inherited from the parent, what is merged, what keeps the route
    /// policy's value, what only it sets; `notes` says how fields merged their own way combine.
    fn describe(&self, notes: &[String]) -> String {
        let list = |keys: &[String]| keys.join(", ");
        let inherited = if self.inherited.is_empty() {
            "none here".to_string()
        } else {
            list(&self.inherited)
        };
        let mut parts = vec![format!(
            "keys only the parent sets are inherited from it ({inherited})"
        )];
        if !self.merged.is_empty() {
            let notes: String = notes.iter().map(|n| format!("; {n}")).collect();
            parts.push(format!(
                "keys both set are merged, the route policy's values winning ({}{notes})",
                list(&self.merged)
            ));
        }
        if !self.replaced.is_empty() {
            parts.push(format!(
                "keys both set keep the route policy's value ({})",
                list(&self.replaced)
            ));
        }
        if !self.own.is_empty() {
            parts.push(format!(
                "keys only the route policy sets ({})",
                list(&self.own)
            ));
        }
        if !self.elsewhere.is_empty() {
            parts.push(format!(
                "Envoy Gateway resolves {} through its precedence index",
                list(&self.elsewhere)
            ));
        }
        parts.join("; ")
    }
}

/// How the fields a kind merges its own way (§3.4) combined on this path, where both policies
/// set them.
fn field_notes(evaluator: &EnvoyEvaluator<'_>, decision: Decision) -> Vec<String> {
    let Some((parent, ..)) = decision.parent else {
        return Vec::new();
    };
    let model = evaluator.model;
    let sets = |policy: u32, field: &str| {
        model.policies[policy as usize].blocks[0]
            .rule(field)
            .is_some()
    };
    evaluator
        .spec(decision.winner)
        .field_merges
        .iter()
        .filter(|(field, _)| sets(decision.winner, field) && sets(parent, field))
        .map(|(field, how)| format!("`{field}`: {}", how.describe()))
        .collect()
}
