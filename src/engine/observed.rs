//! Rule outcomes of every path, indexed by policy: the shared input of `status`, `overridden`
//! and `reach`.

use crate::diag::Diagnostic;
use crate::engine::fold::RuleRef;
use crate::engine::outcomes::Outcome;
use crate::engine::{EffectiveEntry, Engine, FoldParts, PathOutcomes, SharedFolds, Storage};

/// Every path's fold with rule outcomes, and for each policy the paths it is on.
pub struct Observed<'e, 'm> {
    /// The engine.
    pub engine: &'e Engine<'m>,
    /// Outcomes per distinct policy list, and which list each path and kind uses.
    pub shared: SharedFolds<PathOutcomes<'m>>,
    /// For each policy: indices into `shared.entries` of the paths whose list contains it.
    pub entries_of_policy: PolicyEntries,
    /// The listener-level folds ([`Engine::listener_folds`]), computed when first asked for.
    listener_folds: std::sync::OnceLock<Vec<super::listeners::ListenerFold<'m>>>,
}

/// For each policy, indices into [`SharedFolds::entries`] (`entries_of_policy[p]` is a
/// slice): one list for every policy with where each policy's part starts. A list per policy,
/// grown one push at a time, held up to twice its entries (a Gateway's policy is on every path
/// under it) plus a header per policy.
#[derive(Debug, Default)]
pub struct PolicyEntries {
    /// Where each policy's part of `entries` starts, and a last one where it ends.
    starts: Vec<usize>,
    entries: Vec<u32>,
}

impl PolicyEntries {
    /// The entries each of `policies` policies is on, in entry order, each once: `lists(entry)`
    /// gives the policies of the first `count` entries (a policy may be listed more than once).
    fn build<'a>(
        policies: usize,
        count: usize,
        lists: impl Fn(usize) -> &'a [u32],
    ) -> PolicyEntries {
        // A policy on several elements of one path (families whose every attachment takes
        // part) is on that path once: `each` skips a repeat of the entry a policy last had.
        let each = |visit: &mut dyn FnMut(usize, u32)| {
            let mut last = vec![u32::MAX; policies];
            for index in 0..count {
                for &policy in lists(index) {
                    let seen = &mut last[policy as usize];
                    if *seen != index as u32 {
                        *seen = index as u32;
                        visit(policy as usize, index as u32);
                    }
                }
            }
        };
        let mut starts = vec![0usize; policies + 1];
        each(&mut |policy, _| starts[policy + 1] += 1);
        for p in 0..policies {
            starts[p + 1] += starts[p];
        }
        let mut next = starts.clone();
        let mut entries = vec![0u32; starts[policies]];
        each(&mut |policy, index| {
            entries[next[policy]] = index;
            next[policy] += 1;
        });
        PolicyEntries { starts, entries }
    }
}

impl std::ops::Index<usize> for PolicyEntries {
    type Output = [u32];

    fn index(&self, policy: usize) -> &[u32] {
        &self.entries[self.starts[policy]..self.starts[policy + 1]]
    }
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
        Self::with(engine, engine.outcomes_all())
    }

    /// [`Observed::new`] keeping `parts` of each fold (a reader of outcomes only asks for
    /// [`FoldParts::Outcomes`]: no fold keeps its effective policy).
    pub fn keeping(engine: &'e Engine<'m>, parts: FoldParts) -> (Self, Vec<Diagnostic>) {
        Self::with(
            engine,
            engine.outcomes_where(|_| true, parts, Storage::UntilExit),
        )
    }

    /// [`Observed::new`] for a caller that drops it before the run ends ([`Storage::Scoped`]).
    pub fn scoped(engine: &'e Engine<'m>) -> (Self, Vec<Diagnostic>) {
        Self::with(
            engine,
            engine.outcomes_where(|_| true, FoldParts::All, Storage::Scoped),
        )
    }

    /// Folds every path, recording the outcomes of only the folds `policy` takes part in: what
    /// `reach` reads (see [`Engine::outcomes_where`]). The diagnostics are those of
    /// [`Observed::new`]; every other policy is on no path.
    pub fn of_policy(engine: &'e Engine<'m>, policy: u32) -> (Self, Vec<Diagnostic>) {
        let on_path = |levels: &[(_, Vec<u32>)]| levels.iter().any(|(_, p)| p.contains(&policy));
        Self::with(
            engine,
            engine.outcomes_where(on_path, FoldParts::All, Storage::UntilExit),
        )
    }

    fn with(
        engine: &'e Engine<'m>,
        (shared, diagnostics): (SharedFolds<PathOutcomes<'m>>, Vec<Diagnostic>),
    ) -> (Self, Vec<Diagnostic>) {
        let entries_of_policy =
            PolicyEntries::build(engine.model.policies.len(), shared.entries.len(), |index| {
                &shared.results[shared.entries[index].fold as usize].policies
            });
        (
            Observed {
                engine,
                shared,
                entries_of_policy,
                listener_folds: std::sync::OnceLock::new(),
            },
            diagnostics,
        )
    }

    /// The effective policy of each listener no route is attached to, for kinds whose policies
    /// configure listeners (empty when no family's do), with its rule outcomes.
    pub fn listener_folds(&self) -> &[super::listeners::ListenerFold<'m>] {
        self.listener_folds
            .get_or_init(|| self.engine.listener_folds())
    }

    /// The conditions and per-ancestor conditions policy `policy`'s family writes on it.
    pub fn conditions(&self, policy: u32) -> super::evaluator::PolicyConditions {
        let model = self.engine.model;
        let kind = model
            .registry
            .kind_index(model.policies[policy as usize].kind);
        self.engine.evaluator(kind).conditions(self, policy)
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
        self.observations_on(policy, &self.entries_of_policy[policy as usize])
    }

    /// What [`Observed::each_observation`] lists on `entries`, a run of the policy's
    /// `entries_of_policy`: a big policy's outcomes are formatted a run at a time, in parallel.
    pub fn observations_on<'s>(
        &'s self,
        policy: u32,
        entries: &'s [u32],
    ) -> impl Iterator<Item = Observation<'s>> {
        let blocks = &self.engine.model.policies[policy as usize].blocks;
        self.outcomes_on(policy, entries)
            .map(|(path, rule, outcome)| Observation {
                path,
                block: rule.block() as u16,
                key: blocks[rule.block()].rules[rule.rule()].key.as_str(),
                outcome,
            })
    }

    /// What [`Observed::observations`] lists, as the folds record it (path, rule, outcome),
    /// without collecting it.
    pub fn outcomes_of(&self, policy: u32) -> impl Iterator<Item = (u32, RuleRef, &Outcome)> {
        self.outcomes_on(policy, &self.entries_of_policy[policy as usize])
    }

    /// What [`Observed::outcomes_of`] lists on `entries` (a run of the policy's entries).
    fn outcomes_on<'s>(
        &'s self,
        policy: u32,
        entries: &'s [u32],
    ) -> impl Iterator<Item = (u32, RuleRef, &'s Outcome)> {
        entries.iter().flat_map(move |&index| {
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

#[cfg(test)]
mod tests {
    use super::PolicyEntries;

    /// What the list per policy held: each entry pushed once per policy, in entry order.
    fn per_policy(policies: usize, lists: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new(); policies];
        for (index, list) in lists.iter().enumerate() {
            for &policy in list {
                let entries: &mut Vec<u32> = &mut out[policy as usize];
                if entries.last() != Some(&(index as u32)) {
                    entries.push(index as u32);
                }
            }
        }
        out
    }

    #[test]
    fn each_policy_lists_its_entries_once_in_order() {
        let lists: Vec<Vec<u32>> = vec![vec![0, 2], vec![], vec![2, 2, 0], vec![3, 0, 3], vec![2]];
        let built = PolicyEntries::build(5, lists.len(), |i| &lists[i]);
        let expected = per_policy(5, &lists);
        assert_eq!(expected[0], [0, 2, 3]);
        assert_eq!(expected[2], [0, 2, 4]);
        for (policy, entries) in expected.iter().enumerate() {
            assert_eq!(&built[policy], entries.as_slice(), "policy {policy}");
        }
        // Policies on no entry (1, 4) have empty parts.
        assert!(built[1].is_empty() && built[4].is_empty());
    }

    #[test]
    fn random_lists_match_a_list_per_policy() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..200 {
            let policies = 1 + next(12) as usize;
            let lists: Vec<Vec<u32>> = (0..next(40))
                .map(|_| (0..next(6)).map(|_| next(policies as u64) as u32).collect())
                .collect();
            let built = PolicyEntries::build(policies, lists.len(), |i| &lists[i]);
            for (policy, entries) in per_policy(policies, &lists).iter().enumerate() {
                assert_eq!(&built[policy], entries.as_slice());
            }
        }
        let none = PolicyEntries::build(0, 0, |_| &[]);
        assert_eq!(none.starts, [0]);
    }
}
