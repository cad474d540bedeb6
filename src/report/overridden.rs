//! `dopol overridden`: the rules that lost somewhere — which default was replaced, where, and
//! by whom — grouped by policy, rule, outcome and winner.

use super::status::lost;
use crate::engine::observed::Observed;
use crate::engine::outcomes::Outcome;
use crate::report::filter::Filters;
use crate::topology::PathId;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;

/// A rule that lost on some paths, for one reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostRule<'m> {
    /// Locator of the rule's policy.
    pub policy: String,
    /// The policy's kind (for tables).
    pub policy_kind: &'static str,
    /// The block the rule is in (`defaults`, `bare`, `overrides`).
    pub block: &'static str,
    /// Rule key.
    pub key: String,
    /// `superseded`, `overridden`, `deactivated` or `not-applied`.
    pub outcome: &'static str,
    /// Locators of the deciding policies.
    pub by: Vec<String>,
    /// Why, for `not-applied`.
    pub reason: Option<String>,
    /// Path ids, in path order.
    pub path_ids: Vec<PathId<'m>>,
    /// Path indices (not serialized), parallel to `path_ids`.
    pub paths: Vec<u32>,
    /// The ids of the paths of an owned hierarchy where it lost (written after `path_ids`).
    pub owned_path_ids: Vec<String>,
}

impl Serialize for LostRule<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Ids<'a, 'm>(&'a LostRule<'m>);
        impl Serialize for Ids<'_, '_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let gateway = self.0.path_ids.iter().map(|id| id.to_string());
                let owned = self.0.owned_path_ids.iter().map(|id| id.to_string());
                serializer.collect_seq(gateway.chain(owned))
            }
        }
        let mut s = serializer.serialize_struct("LostRule", 7)?;
        s.serialize_field("policy", &self.policy)?;
        s.serialize_field("block", self.block)?;
        s.serialize_field("key", &self.key)?;
        s.serialize_field("outcome", self.outcome)?;
        s.serialize_field("by", &self.by)?;
        match &self.reason {
            Some(reason) => s.serialize_field("reason", reason)?,
            None => s.skip_field("reason")?,
        }
        s.serialize_field("pathIds", &Ids(self))?;
        s.end()
    }
}

/// The lost rules of one policy, on the paths passing the filters, sorted by block, key,
/// outcome and winners (locators are unique, so the report is sorted by policy first).
pub fn lost_rules<'m>(
    observed: &Observed<'_, 'm>,
    filters: &Filters,
    policy: u32,
) -> Vec<LostRule<'m>> {
    let engine = observed.engine;
    let model = engine.model;
    // Borrowed while grouping (a policy on every path has as many observations); owned once
    // per group. Borrowed strings order as the owned ones would.
    type Group<'a> = (
        &'static str,
        &'a str,
        &'static str,
        Vec<&'a str>,
        Option<&'a str>,
    );
    // Grouped first by what the fold recorded, which costs no allocation per observation,
    // then by the report's key (events whose winners differ only in order are one group).
    let mut events: FxHashMap<(u16, &str, &Outcome), Vec<u32>> = FxHashMap::default();
    for observation in observed.each_observation(policy) {
        if lost(observation.outcome) && filters.shows_path(model, engine.topology, observation.path)
        {
            let event = (observation.block, observation.key, observation.outcome);
            events.entry(event).or_default().push(observation.path);
        }
    }
    let p = &model.policies[policy as usize];
    let mut groups: BTreeMap<Group<'_>, Vec<u32>> = BTreeMap::new();
    for ((block, key, outcome), paths) in events {
        let group = (
            p.blocks[block as usize].kind.as_str(),
            key,
            outcome.as_str(),
            observed.locators(outcome.by()),
            outcome.reason(),
        );
        groups.entry(group).or_default().extend(paths);
    }
    groups
        .into_iter()
        .map(|((block, key, outcome, by, reason), mut paths)| {
            paths.sort_unstable();
            paths.dedup();
            LostRule {
                policy: p.locator.clone(),
                policy_kind: p.kind.kind,
                block,
                key: key.to_string(),
                outcome,
                by: by.into_iter().map(str::to_string).collect(),
                reason: reason.map(str::to_string),
                path_ids: paths
                    .iter()
                    .map(|&i| engine.topology.path_id(i as usize))
                    .collect(),
                paths,
                owned_path_ids: Vec::new(),
            }
        })
        .chain(owned_lost_rules(engine, filters, policy))
        .collect()
}

/// The values of `policy` that lost on the paths of owned hierarchies the filters show,
/// grouped by rule key and winner (their outcome is `superseded`: a later contribution replaced
/// the value).
fn owned_lost_rules<'m>(
    engine: &crate::engine::Engine<'m>,
    filters: &Filters,
    policy: u32,
) -> Vec<LostRule<'m>> {
    let model = engine.model;
    let mut groups: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for paths in engine.owned() {
        for item in paths.items.iter().filter(|i| filters.shows_owned(paths, i)) {
            for lost in item.lost.iter().filter(|l| l.policy == policy) {
                let winner = model.policies[lost.winner as usize].locator.as_str();
                let ids = groups.entry((&lost.key, winner)).or_default();
                if ids.last() != Some(&item.path_id.as_str()) {
                    ids.push(&item.path_id);
                }
            }
        }
    }
    let p = &model.policies[policy as usize];
    groups
        .into_iter()
        .map(|((key, winner), ids)| LostRule {
            policy: p.locator.clone(),
            policy_kind: p.kind.kind,
            block: crate::policy::BlockKind::Spec.as_str(),
            key: key.to_string(),
            outcome: "superseded",
            by: vec![winner.to_string()],
            reason: None,
            path_ids: Vec::new(),
            paths: Vec::new(),
            owned_path_ids: ids.into_iter().map(str::to_string).collect(),
        })
        .collect()
}

/// `OverriddenRuleList` for the machine formats, each policy's lost rules built as they are
/// written and dropped after them.
pub fn stream<'a, 'm>(
    observed: &'a Observed<'_, 'm>,
    filters: &'a Filters,
) -> crate::report::LazyList<impl Fn(u32) -> Vec<LostRule<'m>> + 'a> {
    crate::report::LazyList {
        kind: "OverriddenRuleList",
        order: super::status::order(observed, filters),
        items: |p| lost_rules(observed, filters, p),
    }
}
