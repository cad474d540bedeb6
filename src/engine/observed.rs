//! Rule outcomes of every path, indexed by policy: the shared input of `status`, `overridden`
//! and `reach`.

use crate::diag::Diagnostic;
use crate::engine::fold::RuleRef;
use crate::engine::outcomes::Outcome;
use crate::engine::{EffectiveEntry, Engine, PathOutcomes, SharedFolds};

/// Every path's fold with rule outcomes, and for each policy the paths it is on.
pub struct Observed<'e, 'm> {
    /// The engine.
    pub engine: &'e Engine<'m>,
    /// Outcomes per distinct policy list, and which list each path and kind uses.
    pub shared: SharedFolds<PathOutcomes<'m>>,
    /// For each policy: indices into `shared.entries` of the paths whose list contains it.
    pub entries_of_policy: Vec<Vec<u32>>,
}

/// One rule's outcome on one path.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'a> {
    /// Index into `Topology::paths`.
    pub path: u32,
    /// The rule's block index in its policy.
    pub block: u16,
    /// The rule's key.
    pub key: &'a str,
    /// What happened to it.
    pub outcome: &'a Outcome,
}

impl<'e, 'm> Observed<'e, 'm> {
    /// Folds every path recording outcomes.
    pub fn new(engine: &'e Engine<'m>) -> (Self, Vec<Diagnostic>) {
        let (shared, diagnostics) = engine.outcomes_all();
        let mut entries_of_policy = vec![Vec::new(); engine.model.policies.len()];
        for (index, entry) in shared.entries.iter().enumerate() {
            for &policy in &shared.results[entry.fold as usize].policies {
                // A policy on several elements of one path (families whose every attachment
                // takes part) is on that path once.
                let entries = &mut entries_of_policy[policy as usize];
                if entries.last() != Some(&(index as u32)) {
                    entries.push(index as u32);
                }
            }
        }
        (
            Observed {
                engine,
                shared,
                entries_of_policy,
            },
            diagnostics,
        )
    }

    /// The entry and fold of `shared.entries[index]`.
    pub fn entry(&self, index: u32) -> (&EffectiveEntry, &PathOutcomes<'m>) {
        let entry = &self.shared.entries[index as usize];
        (entry, &self.shared.results[entry.fold as usize])
    }

    /// Every outcome of `policy`'s rules, in path order (then rule order).
    pub fn observations(&self, policy: u32) -> Vec<Observation<'_>> {
        self.each_observation(policy).collect()
    }

    /// What [`Observed::observations`] lists, without collecting it.
    pub fn each_observation(&self, policy: u32) -> impl Iterator<Item = Observation<'_>> {
        let blocks = &self.engine.model.policies[policy as usize].blocks;
        self.outcomes_of(policy)
            .map(|(path, rule, outcome)| Observation {
                path,
                block: rule.block,
                key: blocks[rule.block as usize].rules[rule.rule as usize]
                    .key
                    .as_str(),
                outcome,
            })
    }

    /// What [`Observed::observations`] lists, as the folds record it (path, rule, outcome),
    /// without collecting it.
    pub fn outcomes_of(&self, policy: u32) -> impl Iterator<Item = (u32, RuleRef, &Outcome)> {
        self.entries_of_policy[policy as usize]
            .iter()
            .flat_map(move |&index| {
                let (entry, fold) = self.entry(index);
                // Outcomes are sorted by rule, so by policy first.
                let start = fold.outcomes.partition_point(|(r, _)| r.policy < policy);
                let end = fold.outcomes.partition_point(|(r, _)| r.policy <= policy);
                fold.outcomes[start..end]
                    .iter()
                    .map(move |(rule, outcome)| (entry.path, *rule, outcome))
            })
    }

    /// Locators of policy indices, sorted.
    pub fn locators(&self, policies: &[u32]) -> Vec<&'m str> {
        let mut locators: Vec<&str> = policies
            .iter()
            .map(|&p| self.engine.model.policies[p as usize].locator.as_str())
            .collect();
        locators.sort_unstable();
        locators.dedup();
        locators
    }
}
