//! The fold (SPEC §4 step 4, and the §4.1 extensions).
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
//! Rules keep the policy that declared them as their source. Every decision is reported to a
//! [`FoldObserver`], which is how `status`, `overridden`, `reach` and `explain` learn who beat
//! whom without re-deriving it from the final result.

use super::constraint::{ConstraintOutcome, Constraints};
use crate::model::Model;
use crate::policy::{BlockKind, Strategy};
use std::collections::BTreeMap;

/// Identifies one rule of one block of one policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleRef {
    /// Index into `Model::policies`.
    pub policy: u32,
    /// Index into the policy's blocks.
    pub block: u16,
    /// Index into the block's rules.
    pub rule: u32,
}

/// The effective policy: rule key → the rule that provides it.
pub type Effective<'m> = BTreeMap<&'m str, RuleRef>;

/// What happened to a rule at one fold step. The last event about a rule is its outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RuleEvent {
    /// The rule entered `E`.
    Added,
    /// A default that lost to more specific policies (`by`: their indices, sorted).
    Superseded {
        /// The lower policies that provided the rules kept instead.
        by: Vec<u32>,
    },
    /// A rule in `E` removed or replaced by a higher override.
    Overridden {
        /// The overriding policy.
        by: u32,
    },
    /// Dropped from a defaults block by an `unset` of a lower policy.
    Deactivated {
        /// The policy whose `unset` named it.
        by: u32,
    },
    /// Its block's constraint did not hold or failed.
    NotApplied {
        /// Why.
        reason: String,
    },
}

impl RuleEvent {
    /// The outcome's name (SPEC §5): `effective` (still in `E`), `superseded`, `overridden`,
    /// `deactivated`, `not-applied`.
    pub fn as_str(&self) -> &'static str {
        match self {
            RuleEvent::Added => "effective",
            RuleEvent::Superseded { .. } => "superseded",
            RuleEvent::Overridden { .. } => "overridden",
            RuleEvent::Deactivated { .. } => "deactivated",
            RuleEvent::NotApplied { .. } => "not-applied",
        }
    }

    /// The policies that decided it (empty for `effective` and `not-applied`).
    pub fn by(&self) -> Vec<u32> {
        match self {
            RuleEvent::Superseded { by } => by.clone(),
            RuleEvent::Overridden { by } | RuleEvent::Deactivated { by } => vec![*by],
            RuleEvent::Added | RuleEvent::NotApplied { .. } => Vec::new(),
        }
    }

    /// The reason, for `not-applied`.
    pub fn reason(&self) -> Option<&str> {
        match self {
            RuleEvent::NotApplied { reason } => Some(reason),
            _ => None,
        }
    }
}

/// How a block step went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockStep {
    /// The block was merged with its strategy.
    Applied,
    /// The block's constraint was false or could not be evaluated.
    NotApplied {
        /// Why.
        reason: String,
    },
}

/// Receives every decision of a fold. All methods default to doing nothing.
pub trait FoldObserver<'m> {
    /// A block of a policy is about to be merged (or was skipped by its constraint).
    fn block(&mut self, _policy: u32, _block: u16, _step: &BlockStep) {}
    /// A decision about one rule.
    fn rule(&mut self, _rule: RuleRef, _event: RuleEvent) {}
    /// The block's merge is done; `effective` is `E` after it.
    fn after_block(&mut self, _policy: u32, _block: u16, _effective: &Effective<'m>) {}
}

/// An observer that records nothing (the fast path for `effective`).
pub struct NoObserver;

impl FoldObserver<'_> for NoObserver {}

/// A constraint that could not be evaluated during a fold (reported as a warning per path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstraintFailure {
    /// The policy whose block carries the constraint.
    pub policy: u32,
    /// The block.
    pub block: u16,
    /// Why it failed.
    pub reason: String,
}

/// The result of a fold.
#[derive(Clone, Debug, Default)]
pub struct Folded<'m> {
    /// The effective policy.
    pub effective: Effective<'m>,
    /// Constraints that failed to evaluate (their blocks were not applied).
    pub failures: Vec<ConstraintFailure>,
}

/// Folds `ordered` (least specific first) into the effective policy.
pub fn fold<'m>(
    model: &'m Model,
    ordered: &[u32],
    constraints: &Constraints,
    observer: &mut dyn FoldObserver<'m>,
) -> Folded<'m> {
    let mut failures = Vec::new();
    let mut effective: Effective<'m> = BTreeMap::new();
    // Keys deactivated by the `unset`s of policies already folded, with the unsetting policy.
    let mut unset: BTreeMap<&'m str, u32> = BTreeMap::new();
    for &policy_index in ordered.iter().rev() {
        let policy = &model.policies[policy_index as usize];
        for (block_index, block) in policy.blocks.iter().enumerate() {
            let block_index = block_index as u16;
            let rule_ref = |rule: usize| RuleRef {
                policy: policy_index,
                block: block_index,
                rule: rule as u32,
            };

            if let Some(constraint) = &block.constraint {
                let outcome =
                    constraints.evaluate(model, policy_index, block_index, constraint, &effective);
                let skipped = match outcome {
                    ConstraintOutcome::Applied => None,
                    ConstraintOutcome::False(reason) | ConstraintOutcome::Invalid(reason) => {
                        Some(reason)
                    }
                    ConstraintOutcome::Failed(reason) => {
                        failures.push(ConstraintFailure {
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
                            effective.insert(block.rules[i].key.as_str(), rule_ref(i));
                            observer.rule(rule_ref(i), RuleEvent::Added);
                        }
                    } else if !active.is_empty() {
                        let by = sources(&effective);
                        for &i in &active {
                            observer.rule(rule_ref(i), RuleEvent::Superseded { by: by.clone() });
                        }
                    }
                }
                (true, Strategy::Atomic) => {
                    for (_, lost) in std::mem::take(&mut effective) {
                        observer.rule(lost, RuleEvent::Overridden { by: policy_index });
                    }
                    for &i in &active {
                        effective.insert(block.rules[i].key.as_str(), rule_ref(i));
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
                                        by: vec![existing.policy],
                                    },
                                );
                            }
                            None => {
                                effective.insert(key, rule_ref(i));
                                observer.rule(rule_ref(i), RuleEvent::Added);
                            }
                        }
                    }
                }
                (true, Strategy::Merge) => {
                    for &i in &active {
                        let key = block.rules[i].key.as_str();
                        if let Some(lost) = effective.insert(key, rule_ref(i)) {
                            observer.rule(lost, RuleEvent::Overridden { by: policy_index });
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
        failures,
    }
}

/// The sorted, unique policies providing the rules of `effective`.
pub fn sources(effective: &Effective<'_>) -> Vec<u32> {
    let mut sources: Vec<u32> = effective.values().map(|r| r.policy).collect();
    sources.sort_unstable();
    sources.dedup();
    sources
}
