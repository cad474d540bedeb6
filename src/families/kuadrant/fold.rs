//! The fold (docs/semantics.md#4-the-fold, step 4) and its RFC 0009 extensions
//! (docs/semantics.md#41-constraints-and-deactivation).
//!
//! Start with an empty effective policy `E`; for each policy `S` from the most specific to the
//! least specific, and each of its blocks (defaults, bare, overrides), `E := merge(S, E)` with
//! the strategy of `S`'s block:
//!
//! | strategy of S        | result                                                    |
//! |----------------------|-----------------------------------------------------------|
//! | atomic defaults/bare | E if E has any rule, else S's rules                       |
//! | atomic overrides     | S's rules only                                            |
//! | merge defaults       | E plus each S rule whose key E lacks (E wins clashes)     |
//! | merge overrides      | S's rules plus each E rule whose key S lacks (S wins)     |
//!
//! Rules keep the policy that declared them as their source (`origins` = `[source]`: Kuadrant
//! never merges inside a rule). Every decision is reported to the observer.

use super::constraint::{ConstraintOutcome, Constraints};
use crate::engine::fold::{
    BlockStep, Effective, EffectiveRule, FoldFailure, FoldObserver, Folded, RuleEvent, RuleRef,
    sources,
};
use crate::model::Model;
use crate::policy::{BlockKind, Strategy};
use crate::yaml::Shared;
use std::collections::BTreeMap;

/// Folds `ordered` (least specific first) into the effective policy.
pub fn fold<'m>(
    model: &'m Model,
    ordered: &[u32],
    constraints: &Constraints,
    observer: &mut dyn FoldObserver<'m>,
) -> Folded<'m> {
    let mut failures = Vec::new();
    let mut effective = Effective::new();
    // Keys deactivated by the `unset`s of policies already folded, with the unsetting policy.
    let mut unset: BTreeMap<&'m str, u32> = BTreeMap::new();
    for &policy_index in ordered.iter().rev() {
        let policy = &model.policies[policy_index as usize];
        for (block_index, block) in policy.blocks.iter().enumerate() {
            let block_index = block_index as u16;
            let rule_ref = |rule: usize| RuleRef::new(policy_index, block_index as usize, rule);

            if let Some(constraint) = &block.constraint {
                let outcome =
                    constraints.evaluate(model, policy_index, block_index, constraint, &effective);
                let skipped = match outcome {
                    ConstraintOutcome::Applied => None,
                    ConstraintOutcome::False(reason) | ConstraintOutcome::Invalid(reason) => {
                        Some(reason)
                    }
                    ConstraintOutcome::Failed(reason) => {
                        failures.push(FoldFailure {
                            policy: policy_index,
                            block: block_index,
                            reason: reason.clone(),
                        });
                        Some(reason)
                    }
                };
                if let Some(reason) = skipped {
                    observer.block(
                        policy_index,
                        block_index,
                        &BlockStep::NotApplied {
                            reason: reason.clone(),
                        },
                    );
                    let reason = crate::name::Name::unshared(&reason);
                    for i in 0..block.rules.len() {
                        observer.rule(
                            rule_ref(i),
                            RuleEvent::NotApplied {
                                reason: reason.clone(),
                            },
                        );
                    }
                    observer.after_block(policy_index, block_index, &effective);
                    continue;
                }
            }
            observer.block(policy_index, block_index, &BlockStep::Applied);

            // Deactivation applies to defaults only; overrides cannot be deactivated.
            let mut active: Vec<usize> = Vec::with_capacity(block.rules.len());
            for (i, rule) in block.rules.iter().enumerate() {
                match unset.get(rule.key.as_str()) {
                    Some(&by) if block.kind != BlockKind::Overrides => {
                        observer.rule(rule_ref(i), RuleEvent::Deactivated { by });
                    }
                    _ => active.push(i),
                }
            }

            match (block.kind.is_override(), block.strategy) {
                (false, Strategy::Atomic) => {
                    if effective.is_empty() {
                        for &i in &active {
                            effective.insert(
                                block.rules[i].key.as_str(),
                                EffectiveRule::whole(rule_ref(i)),
                            );
                            observer.rule(rule_ref(i), RuleEvent::Added);
                        }
                    } else if !active.is_empty() {
                        let by = Shared::copied(&sources(&effective));
                        for &i in &active {
                            observer.rule(rule_ref(i), RuleEvent::Superseded { by: by.clone() });
                        }
                    }
                }
                (true, Strategy::Atomic) => {
                    for (_, lost) in std::mem::take(&mut effective) {
                        observer.rule(lost.rule, RuleEvent::Overridden { by: policy_index });
                    }
                    for &i in &active {
                        effective.insert(
                            block.rules[i].key.as_str(),
                            EffectiveRule::whole(rule_ref(i)),
                        );
                        observer.rule(rule_ref(i), RuleEvent::Added);
                    }
                }
                (false, Strategy::Merge) => {
                    for &i in &active {
                        let key = block.rules[i].key.as_str();
                        match effective.get(key) {
                            Some(existing) => {
                                observer.rule(
                                    rule_ref(i),
                                    RuleEvent::Superseded {
                                        by: Shared::copied(&[existing.policy]),
                                    },
                                );
                            }
                            None => {
                                effective.insert(key, EffectiveRule::whole(rule_ref(i)));
                                observer.rule(rule_ref(i), RuleEvent::Added);
                            }
                        }
                    }
                }
                (true, Strategy::Merge) => {
                    for &i in &active {
                        let key = block.rules[i].key.as_str();
                        if let Some(lost) = effective.insert(key, EffectiveRule::whole(rule_ref(i)))
                        {
                            observer.rule(lost.rule, RuleEvent::Overridden { by: policy_index });
                        }
                        observer.rule(rule_ref(i), RuleEvent::Added);
                    }
                }
            }
            observer.after_block(policy_index, block_index, &effective);
        }
        for entry in &policy.unset {
            unset.entry(entry.key.as_str()).or_insert(policy_index);
        }
    }
    Folded {
        effective,
        failures: failures.into(),
    }
}
