//! `dopol diff`: how the effective policy of every path changes between two inputs.
//!
//! Each side is evaluated once (one fold per distinct policy list, with outcomes, which also
//! give the `Enforced` conditions). The sides are compared by path id, policy kind and rule key;
//! values are compared structurally, and rendered to YAML only for a value that changed (for
//! its line diff). So a diff of two large revisions costs about two evaluations.

use super::status::{Condition, conditions};
use crate::engine::fold::Effective;
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::yaml::Node;
use rustc_hash::FxHashMap;
use serde::Serialize;
use serde::ser::SerializeStruct;
use std::collections::{BTreeMap, BTreeSet};

/// A rule as it is on one side.
#[derive(Clone, Debug)]
pub struct RuleVersion<'a> {
    /// The value.
    pub value: &'a Node,
    /// The source policy's locator.
    pub source: &'a str,
    /// Every contributing policy's locator, highest priority first.
    pub origins: Vec<&'a str>,
}

/// What happened to a rule key on a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChangeKind {
    /// Only in the new effective policy.
    Added,
    /// Only in the old one.
    Removed,
    /// In both, with a different value or source.
    Changed,
}

impl ChangeKind {
    /// `added`, `removed`, `changed`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
        }
    }
}

/// A changed rule of one path's effective policy.
#[derive(Clone, Debug)]
pub struct RuleChange<'a> {
    /// The policy kind.
    pub policy_kind: &'static str,
    /// The path id.
    pub path_id: &'a str,
    /// The rule key.
    pub key: &'a str,
    /// What changed.
    pub change: ChangeKind,
    /// Before (absent when added).
    pub before: Option<RuleVersion<'a>>,
    /// After (absent when removed).
    pub after: Option<RuleVersion<'a>>,
    /// For `changed`: whether the value differs.
    pub value_changed: bool,
    /// For `changed`: whether the source differs.
    pub source_changed: bool,
    /// For a changed value: a line diff of its YAML rendering (`-`, `+`, ` ` prefixes).
    pub value_diff: Option<String>,
}

/// A path that appeared or disappeared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathChange {
    /// The path id.
    #[serde(rename = "pathId")]
    pub path_id: String,
    /// `added` or `removed`.
    pub change: &'static str,
}

/// A policy whose conditions changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusChange {
    /// Locator.
    pub policy: String,
    /// Conditions before (empty when the policy did not exist).
    pub before: Vec<Condition>,
    /// Conditions after (empty when the policy no longer exists).
    pub after: Vec<Condition>,
}

/// `EffectivePolicyDiff`.
#[derive(Clone, Debug, Default)]
pub struct DiffReport<'a> {
    /// Rule changes in path order (the new side's, then paths only the old side has), kind, key.
    pub changes: Vec<RuleChange<'a>>,
    /// Paths that appeared (in the new side's order), then those that disappeared.
    pub paths: Vec<PathChange>,
    /// Policies whose `Accepted`/`Enforced` conditions changed, sorted by locator.
    pub status: Vec<StatusChange>,
}

impl DiffReport<'_> {
    /// Whether the two sides have the same effective policies and statuses.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.paths.is_empty() && self.status.is_empty()
    }
}

/// For each path of one side (by index): its non-empty effective policies, kind by kind.
fn effective_by_path<'o, 'm>(
    observed: &'o Observed<'_, 'm>,
) -> Vec<Vec<(usize, &'o Effective<'m>)>> {
    let mut by_path = vec![Vec::new(); observed.engine.topology.paths.len()];
    for entry in &observed.shared.entries {
        let effective = &observed.shared.results[entry.fold as usize]
            .folded
            .effective;
        if !effective.is_empty() {
            by_path[entry.path as usize].push((entry.kind, effective));
        }
    }
    by_path
}

fn version<'a>(
    model: &'a Model,
    effective: &'a Effective<'_>,
    key: &str,
) -> Option<RuleVersion<'a>> {
    let rule = effective.get(key)?;
    Some(RuleVersion {
        value: rule.value(model),
        source: &model.policies[rule.policy as usize].locator,
        origins: rule
            .origins()
            .iter()
            .map(|&p| model.policies[p as usize].locator.as_str())
            .collect(),
    })
}

/// A line diff of two values' YAML renderings: each line prefixed with `- `, `+ ` or two spaces.
pub fn value_diff(before: &Node, after: &Node) -> String {
    let render = |node: &Node| serde_saphyr::to_string(node).unwrap_or_default();
    let (old, new) = (render(before), render(after));
    let diff = similar::TextDiff::from_lines(&old, &new);
    let mut out = String::new();
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => '-',
            similar::ChangeTag::Insert => '+',
            similar::ChangeTag::Equal => ' ',
        };
        out.push(sign);
        out.push(' ');
        out.push_str(change.value().trim_end_matches('\n'));
        out.push('\n');
    }
    out
}

/// Conditions of every policy of a side, by locator.
fn conditions_by_locator(observed: &Observed<'_, '_>) -> BTreeMap<String, Vec<Condition>> {
    let model = observed.engine.model;
    (0..model.policies.len() as u32)
        .map(|p| {
            (
                model.policies[p as usize].locator.clone(),
                conditions(observed, p),
            )
        })
        .collect()
}

/// Compares two evaluated sides. Paths are visited in the new side's order, then the paths
/// only the old side has, in its order; no sorting of path ids is needed.
pub fn build<'a, 'o: 'a, 'n: 'a>(
    old: &'a Observed<'_, 'o>,
    new: &'a Observed<'_, 'n>,
) -> DiffReport<'a> {
    let (old_model, new_model) = (old.engine.model, new.engine.model);
    let kinds: Vec<&'static str> = new_model.registry.kinds().map(|k| k.kind).collect();
    let (old_ids, new_ids) = (&old.engine.topology.path_ids, &new.engine.topology.path_ids);
    let old_effective = effective_by_path(old);
    let new_effective = effective_by_path(new);
    let old_index: FxHashMap<&str, usize> = old_ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let new_index: FxHashMap<&str, usize> = new_ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let pairs = (0..new_ids.len())
        .map(|n| (old_index.get(new_ids[n].as_str()).copied(), Some(n)))
        .chain(
            (0..old_ids.len())
                .filter(|&o| !new_index.contains_key(old_ids[o].as_str()))
                .map(|o| (Some(o), None)),
        );
    let mut changes = Vec::new();
    for (o, n) in pairs {
        let path_id = n.map_or_else(
            || old_ids[o.expect("one side has the path")].as_str(),
            |n| new_ids[n].as_str(),
        );
        let before_kinds = o.map_or(&[][..], |o| old_effective[o].as_slice());
        let after_kinds = n.map_or(&[][..], |n| new_effective[n].as_slice());
        for (kind, _) in kinds.iter().enumerate() {
            let before = before_kinds
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|(_, e)| *e);
            let after = after_kinds
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|(_, e)| *e);
            if before.is_none() && after.is_none() {
                continue;
            }
            let keys: BTreeSet<&'a str> = before
                .iter()
                .flat_map(|e| e.keys().copied())
                .chain(after.iter().flat_map(|e| e.keys().copied()))
                .collect();
            for key in keys {
                let b = before.and_then(|e| version(old_model, e, key));
                let a = after.and_then(|e| version(new_model, e, key));
                let (change, value_changed, source_changed) = match (&b, &a) {
                    (None, Some(_)) => (ChangeKind::Added, false, false),
                    (Some(_), None) => (ChangeKind::Removed, false, false),
                    (Some(b), Some(a)) => {
                        let value_changed = !b.value.same_value(a.value);
                        let source_changed = b.source != a.source;
                        if !value_changed && !source_changed && b.origins == a.origins {
                            continue;
                        }
                        (ChangeKind::Changed, value_changed, source_changed)
                    }
                    (None, None) => continue,
                };
                changes.push(RuleChange {
                    policy_kind: kinds[kind],
                    path_id,
                    key,
                    change,
                    before: b.clone(),
                    after: a.clone(),
                    value_changed,
                    source_changed,
                    value_diff: match (&b, &a) {
                        (Some(b), Some(a)) if value_changed => Some(value_diff(b.value, a.value)),
                        _ => None,
                    },
                });
            }
        }
    }

    let paths: Vec<PathChange> = new_ids
        .iter()
        .filter(|id| !old_index.contains_key(id.as_str()))
        .map(|id| PathChange {
            path_id: id.clone(),
            change: "added",
        })
        .chain(
            old_ids
                .iter()
                .filter(|id| !new_index.contains_key(id.as_str()))
                .map(|id| PathChange {
                    path_id: id.clone(),
                    change: "removed",
                }),
        )
        .collect();

    let (old_status, new_status) = (conditions_by_locator(old), conditions_by_locator(new));
    let policies: BTreeSet<&String> = old_status.keys().chain(new_status.keys()).collect();
    let status = policies
        .into_iter()
        .filter_map(|policy| {
            let before = old_status.get(policy).cloned().unwrap_or_default();
            let after = new_status.get(policy).cloned().unwrap_or_default();
            (before != after).then(|| StatusChange {
                policy: policy.clone(),
                before,
                after,
            })
        })
        .collect();
    DiffReport {
        changes,
        paths,
        status,
    }
}

struct VersionView<'v, 'a>(&'v RuleVersion<'a>);

impl Serialize for VersionView<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("RuleVersion", 2)?;
        s.serialize_field("value", self.0.value)?;
        s.serialize_field("source", self.0.source)?;
        // Only a merged value has origins beyond its source (docs/families.md §1); Kuadrant's never do.
        if self.0.origins.len() > 1 {
            s.serialize_field("origins", &self.0.origins)?;
        }
        s.end()
    }
}

impl Serialize for RuleChange<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("RuleChange", 9)?;
        s.serialize_field("policyKind", self.policy_kind)?;
        s.serialize_field("pathId", self.path_id)?;
        s.serialize_field("key", self.key)?;
        s.serialize_field("change", self.change.as_str())?;
        if let Some(before) = &self.before {
            s.serialize_field("before", &VersionView(before))?;
        }
        if let Some(after) = &self.after {
            s.serialize_field("after", &VersionView(after))?;
        }
        if self.change == ChangeKind::Changed {
            s.serialize_field("valueChanged", &self.value_changed)?;
            s.serialize_field("sourceChanged", &self.source_changed)?;
        }
        if let Some(diff) = &self.value_diff {
            s.serialize_field("valueDiff", diff)?;
        }
        s.end()
    }
}

impl Serialize for DiffReport<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("EffectivePolicyDiff", 5)?;
        s.serialize_field("apiVersion", crate::report::API_VERSION)?;
        s.serialize_field("kind", "EffectivePolicyDiff")?;
        s.serialize_field("changes", &self.changes)?;
        s.serialize_field("paths", &self.paths)?;
        s.serialize_field("status", &self.status)?;
        s.end()
    }
}
