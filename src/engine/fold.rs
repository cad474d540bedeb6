//! What every family's fold produces: the effective policy of a path (rule key → the rule that
//! provides it, with every policy that contributed to its value), and the decisions it reports
//! on the way.
//!
//! A fold is the family's ([`crate::policy::Evaluator::fold`]); this module holds only the
//! shapes the engine and the reports share. Every decision is reported to a [`FoldObserver`],
//! which is how `status`, `overridden`, `reach` and `explain` learn who beat whom without
//! re-deriving it from the final result.

use crate::model::Model;
use crate::name::Name;
use crate::yaml::{Node, Shared};
use std::sync::Arc;
use thin_vec::ThinVec;

/// Identifies one rule of one block of one policy; ordered by policy, block, then rule.
///
/// Eight bytes, the block and the rule sharing one word: a fold records an outcome for every
/// rule it sees and a report holds them all (on the 49 MB benchmark, 330,000 outcomes and as
/// many effective rules at `status`'s peak). A policy has at most four blocks (one per
/// [`crate::policy::BlockKind`]), and a block fewer than 2^24 rules: a rule is at least two
/// YAML nodes, and a document at most 16,000,000 (the `yaml-document-nodes` limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleRef {
    /// Index into `Model::policies`.
    pub policy: u32,
    /// The block's index in the high [`BLOCK_BITS`] bits, the rule's below.
    slot: u32,
}

/// Bits of [`RuleRef`]'s slot holding the block's index.
const BLOCK_BITS: u32 = 8;

/// Bits of [`RuleRef`]'s slot holding the rule's index.
const RULE_BITS: u32 = u32::BITS - BLOCK_BITS;

impl RuleRef {
    /// Rule `rule` of block `block` of policy `policy`.
    pub fn new(policy: u32, block: usize, rule: usize) -> RuleRef {
        assert!(
            block < 1 << BLOCK_BITS && rule < 1 << RULE_BITS,
            "a policy has at most 2^8 blocks of at most 2^24 rules"
        );
        RuleRef {
            policy,
            slot: ((block as u32) << RULE_BITS) | rule as u32,
        }
    }

    /// Index into the policy's blocks.
    pub fn block(self) -> usize {
        (self.slot >> RULE_BITS) as usize
    }

    /// Index into the block's rules.
    pub fn rule(self) -> usize {
        (self.slot & ((1 << RULE_BITS) - 1)) as usize
    }
}

/// A value several policies contributed to (a deep merge), highest priority first.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The merged value.
    pub value: Node,
    /// Every contributing policy, highest priority first; `origins[0]` is the source.
    pub origins: Vec<u32>,
}

impl PartialEq for Merged {
    fn eq(&self, other: &Merged) -> bool {
        self.origins == other.origins && self.value.same_value(&other.value)
    }
}

/// One rule of an effective policy: the winning policy's rule (its `source`), and — when the
/// value is not that rule's value verbatim — the merged value with all its origins.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectiveRule {
    /// The source's rule.
    pub rule: RuleRef,
    /// The merged value and origins, when others contributed.
    pub merged: Option<Arc<Merged>>,
}

impl EffectiveRule {
    /// A rule taken whole from one policy.
    pub fn whole(rule: RuleRef) -> EffectiveRule {
        EffectiveRule { rule, merged: None }
    }

    /// The policies whose values make up the rule's value, highest priority first.
    pub fn origins(&self) -> &[u32] {
        match &self.merged {
            Some(merged) => &merged.origins,
            None => std::slice::from_ref(&self.rule.policy),
        }
    }

    /// The rule's value.
    pub fn value<'a>(&'a self, model: &'a Model) -> &'a Node {
        match &self.merged {
            Some(merged) => &merged.value,
            None => {
                let r = &self.rule;
                &model.policies[r.policy as usize].blocks[r.block()].rules[r.rule()].value
            }
        }
    }
}

impl Eq for EffectiveRule {}

impl std::hash::Hash for EffectiveRule {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Equal rules have equal sources; the merged value only refines equality.
        self.rule.hash(state);
    }
}

impl std::ops::Deref for EffectiveRule {
    type Target = RuleRef;

    fn deref(&self) -> &RuleRef {
        &self.rule
    }
}

/// The effective policy: rule key → the rule that provides it.
///
/// Rules sorted by key in one list: a fold's result lives until the run ends, and there are
/// as many as distinct folds (60,000 on the benchmark's 36,000 routes), most with a handful
/// of rules, where a `BTreeMap` node holds room for eleven.
#[derive(Clone, Debug, Default, PartialEq, Hash)]
pub struct Effective<'m> {
    rules: Vec<(&'m str, EffectiveRule)>,
}

impl<'m> Effective<'m> {
    /// An empty effective policy.
    pub fn new() -> Effective<'m> {
        Effective { rules: Vec::new() }
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        // Folds mostly add keys in order: check the end first.
        match self.rules.last() {
            Some((last, _)) if *last < key => Err(self.rules.len()),
            _ => self.rules.binary_search_by(|(k, _)| (*k).cmp(key)),
        }
    }

    /// The rule providing `key`.
    pub fn get(&self, key: &str) -> Option<&EffectiveRule> {
        self.find(key).ok().map(|i| &self.rules[i].1)
    }

    /// The rule providing `key`, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut EffectiveRule> {
        self.find(key).ok().map(|i| &mut self.rules[i].1)
    }

    /// Whether a rule provides `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Sets the rule providing `key`, returning the one it replaces.
    pub fn insert(&mut self, key: &'m str, rule: EffectiveRule) -> Option<EffectiveRule> {
        match self.find(key) {
            Ok(i) => Some(std::mem::replace(&mut self.rules[i].1, rule)),
            Err(i) => {
                self.rules.insert(i, (key, rule));
                None
            }
        }
    }

    /// Removes the rule providing `key`.
    pub fn remove(&mut self, key: &str) -> Option<EffectiveRule> {
        self.find(key).ok().map(|i| self.rules.remove(i).1)
    }

    /// Keeps the rules `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&&'m str, &mut EffectiveRule) -> bool) {
        self.rules.retain_mut(|(k, r)| keep(k, r));
    }

    /// `(key, rule)` in key order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&&'m str, &EffectiveRule)> + ExactSizeIterator {
        self.into_iter()
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &&'m str> + ExactSizeIterator {
        self.rules.iter().map(|(k, _)| k)
    }

    /// The rules in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &EffectiveRule> + ExactSizeIterator {
        self.rules.iter().map(|(_, r)| r)
    }

    /// How many rules.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether there are no rules.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Drops the rules' spare room, moving them to `storage`: for a result that is kept (one
    /// per distinct fold).
    pub fn fit(&mut self, storage: super::Storage) {
        storage.fit(&mut self.rules);
    }
}

impl Eq for Effective<'_> {}

impl std::ops::Index<&str> for Effective<'_> {
    type Output = EffectiveRule;

    /// The rule providing `key`; panics when none does (as a map's index does).
    fn index(&self, key: &str) -> &EffectiveRule {
        self.get(key).expect("no rule with this key")
    }
}

impl<'m> FromIterator<(&'m str, EffectiveRule)> for Effective<'m> {
    /// As a map is collected: sorted by key, a later rule for a key replacing an earlier one.
    fn from_iter<I: IntoIterator<Item = (&'m str, EffectiveRule)>>(items: I) -> Self {
        let mut rules: Vec<(&'m str, EffectiveRule)> = items.into_iter().collect();
        // Stable: among equal keys the last collected stays last, and is the one kept.
        rules.sort_by(|a, b| a.0.cmp(b.0));
        let mut kept: Vec<(&'m str, EffectiveRule)> = Vec::with_capacity(rules.len());
        for (key, rule) in rules {
            match kept.last_mut() {
                Some(last) if last.0 == key => last.1 = rule,
                _ => kept.push((key, rule)),
            }
        }
        Effective { rules: kept }
    }
}

impl<'m> IntoIterator for Effective<'m> {
    type Item = (&'m str, EffectiveRule);
    type IntoIter = std::vec::IntoIter<(&'m str, EffectiveRule)>;

    fn into_iter(self) -> Self::IntoIter {
        self.rules.into_iter()
    }
}

impl<'a, 'm> IntoIterator for &'a Effective<'m> {
    type Item = (&'a &'m str, &'a EffectiveRule);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (&'m str, EffectiveRule)>,
        fn(&'a (&'m str, EffectiveRule)) -> (&'a &'m str, &'a EffectiveRule),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.rules.iter().map(|(k, r)| (k, r))
    }
}

/// What happened to a rule at one fold step. The last event about a rule is its outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleEvent {
    /// The rule entered `E`.
    Added,
    /// A default that lost to more specific policies (`by`: their indices, sorted).
    Superseded {
        /// The lower policies that provided the rules kept instead: one list shared by the
        /// rules a fold step supersedes together.
        by: Shared<u32>,
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
    /// The policy contributed to the rule's value but is not its source (a deep merge).
    Merged {
        /// The source.
        by: u32,
    },
    /// Lost a tie among policies of equal specificity that the controller resolves in an
    /// arbitrary order (agentgateway): `by` is the policy dopol picked.
    Tie {
        /// The policy dopol picked.
        by: u32,
    },
    /// Its block's constraint did not hold or failed.
    NotApplied {
        /// Why (one shared text for the rules of a block).
        reason: Name,
    },
}

impl RuleEvent {
    /// The outcome's name (docs/semantics.md#5-outcomes-status-and-reach): `effective` (still in `E`), `superseded`, `overridden`,
    /// `deactivated`, `merged`, `tie`, `not-applied`.
    pub fn as_str(&self) -> &'static str {
        match self {
            RuleEvent::Added => "effective",
            RuleEvent::Superseded { .. } => "superseded",
            RuleEvent::Overridden { .. } => "overridden",
            RuleEvent::Deactivated { .. } => "deactivated",
            RuleEvent::Merged { .. } => "merged",
            RuleEvent::Tie { .. } => "tie",
            RuleEvent::NotApplied { .. } => "not-applied",
        }
    }

    /// The policies that decided it (empty for `effective` and `not-applied`), borrowed: reports
    /// read it for every outcome on every path.
    pub fn by(&self) -> &[u32] {
        match self {
            RuleEvent::Superseded { by } => by,
            RuleEvent::Overridden { by }
            | RuleEvent::Deactivated { by }
            | RuleEvent::Merged { by }
            | RuleEvent::Tie { by } => std::slice::from_ref(by),
            RuleEvent::Added | RuleEvent::NotApplied { .. } => &[],
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

/// A condition of a block that could not be evaluated during a fold (reported as a warning
/// per path, worded by the family).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoldFailure {
    /// The policy whose block carries the condition.
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
    pub failures: ThinVec<FoldFailure>,
}

/// The sorted, unique policies providing the rules of `effective`.
pub fn sources(effective: &Effective<'_>) -> Vec<u32> {
    let mut sources: Vec<u32> = effective.values().map(|r| r.policy).collect();
    sources.sort_unstable();
    sources.dedup();
    sources
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn rule(n: u32) -> EffectiveRule {
        EffectiveRule::whole(RuleRef::new(n, 0, 0))
    }

    /// Random inserts, removals, lookups and retains give what a `BTreeMap` gives, and
    /// collecting keeps the last value of a key, in key order.
    #[test]
    fn effective_behaves_as_an_ordered_map() {
        const KEYS: [&str; 7] = ["a", "b", "c", "d#1", "d#2", "limits", "z"];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..2000 {
            let (mut ours, mut map) = (Effective::new(), BTreeMap::new());
            let mut pairs = Vec::new();
            for step in 0..20 {
                let key = KEYS[next(KEYS.len())];
                match next(5) {
                    0 | 1 => {
                        assert_eq!(ours.insert(key, rule(step)), map.insert(key, rule(step)));
                        pairs.push((key, rule(step)));
                    }
                    2 => assert_eq!(ours.remove(key), map.remove(key)),
                    3 => {
                        let keep = next(2) == 0;
                        ours.retain(|k, _| (k.len() == 1) == keep);
                        map.retain(|k, _| (k.len() == 1) == keep);
                    }
                    _ => assert_eq!(ours.get(key), map.get(key)),
                }
                assert_eq!(ours.contains_key(key), map.contains_key(key));
                assert!(ours.iter().eq(map.iter()));
                assert_eq!(ours.len(), map.len());
            }
            let collected: Effective = pairs.iter().cloned().collect();
            let expected: BTreeMap<&str, EffectiveRule> = pairs.into_iter().collect();
            assert!(collected.iter().eq(expected.iter()));
        }
    }
}
