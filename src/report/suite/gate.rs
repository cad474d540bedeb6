//! The no-weakening gate (`dopol test --against REV`): every path of the old revision compared
//! with the same path (by path id) now. A kind it had that is gone, and a rule whose source's
//! `overrides` no longer gives it, are weaker whatever the family; what a removed or changed
//! rule means is the family's to say ([`crate::policy::PolicyFamily::weakened`]), and a family
//! that cannot say is reported as such, never passed. Findings are grouped as `dopol diff`
//! groups its changes: each distinct weakening once, with the paths where it happens.

use crate::engine::{EffectiveSet, Engine};
use crate::model::Model;
use crate::policy::gate::Strength;
use crate::report::effective::{EffectiveRule, rules_of};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Whether a change is weaker or cannot be ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Weaker.
    Weaker,
    /// The family cannot say.
    CannotSay,
}

/// One distinct weakening and the paths where it happens.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Weakening {
    /// Weaker, or cannot say.
    pub verdict: Verdict,
    /// The policy kind.
    pub policy_kind: String,
    /// The rule key (none when the whole kind is gone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// What changed, in words.
    pub change: String,
    /// The path ids, in path order.
    pub paths: Vec<String>,
}

/// Compares every path of `old` with the same path of `new`.
pub fn compare(
    old: (&Engine<'_>, &EffectiveSet<'_>),
    new: (&Engine<'_>, &EffectiveSet<'_>),
) -> Vec<Weakening> {
    let ids: HashMap<String, u32> = (0..new.0.topology.paths.len())
        .map(|p| (new.0.topology.path_id(p).to_string(), p as u32))
        .collect();
    // Each old kind's index on the new side, once (the registries can differ: declared families).
    let (old_registry, new_registry) = (&old.0.model.registry, &new.0.model.registry);
    let new_kinds: Vec<Option<usize>> = (0..old_registry.kind_count())
        .map(|k| {
            let kind = old_registry.kind(k);
            (new_registry.find_by_name(&format!("{}.{}", kind.kind, kind.group)))
                .map(|k| new_registry.kind_index(k))
        })
        .collect();
    let mut grouped: BTreeMap<(Verdict, String, Option<String>, String), Vec<String>> =
        BTreeMap::new();
    for entry in &old.1.entries {
        let kind = old.0.model.registry.kind(old.1.kind(entry));
        let id = old.0.topology.path_id(entry.path as usize).to_string();
        let Some(&path) = ids.get(&id) else { continue };
        let old_rules = rules_of(old.0.model, &old.1.folds[entry.fold as usize].effective);
        let new_effective =
            new_kinds[old.1.kind(entry)].and_then(|k| super::check::path_rules(new.1, path, k));
        let new_rules = new_effective
            .map(|e| rules_of(new.0.model, e))
            .unwrap_or_default();
        for (verdict, rule, change) in
            path_changes(old.0.model, new.0.model, kind, &old_rules, &new_rules)
        {
            grouped
                .entry((verdict, kind.kind.to_string(), rule, change))
                .or_default()
                .push(id.clone());
        }
    }
    grouped
        .into_iter()
        .map(|((verdict, policy_kind, rule, change), paths)| Weakening {
            verdict,
            policy_kind,
            rule,
            change,
            paths,
        })
        .collect()
}

/// The weakenings of one kind on one path.
fn path_changes(
    old_model: &Model,
    new_model: &Model,
    kind: &crate::policy::PolicyKind,
    old: &[EffectiveRule<'_>],
    new: &[EffectiveRule<'_>],
) -> Vec<(Verdict, Option<String>, String)> {
    if !old.is_empty() && new.is_empty() {
        return vec![(
            Verdict::Weaker,
            None,
            format!("no effective {} any more", kind.kind),
        )];
    }
    let family = old_model.registry.family_of(kind);
    let mut found = Vec::new();
    for rule in old {
        let now = new.iter().find(|r| r.key == rule.key);
        if overridden(old_model, rule) && !now.is_some_and(|n| overridden(new_model, n)) {
            found.push((
                Verdict::Weaker,
                Some(rule.key.to_string()),
                format!("the override from {} is gone", rule.source),
            ));
            continue;
        }
        match family.weakened(kind, rule.key, rule.value, now.map(|n| n.value)) {
            Strength::Kept => {}
            Strength::Weaker(why) => found.push((Verdict::Weaker, Some(rule.key.to_string()), why)),
            Strength::CannotSay(why) => {
                found.push((Verdict::CannotSay, Some(rule.key.to_string()), why))
            }
        }
    }
    found
}

/// Whether an effective rule comes from its source's `overrides`.
fn overridden(model: &Model, rule: &EffectiveRule<'_>) -> bool {
    let policy = &model.policies[rule.policy as usize];
    policy
        .blocks
        .iter()
        .any(|b| b.kind.is_override() && b.rule(rule.key).is_some())
}
