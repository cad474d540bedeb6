//! `dopol diff`: how the effective policy of every path changes between two inputs.
//!
//! Each side is evaluated once (one fold per distinct policy list; no outcomes are recorded:
//! neither the rule changes nor any family's conditions read them). The sides are compared by
//! path id, policy kind and rule key; values are compared as written where the run dropped them
//! (see `same_value`), else structurally, and rendered to YAML only for a value that changed
//! (for its line diff, computed once per distinct pair of values). So a diff of two large
//! revisions costs about two evaluations.
//!
//! The same change often happens on many paths (a Gateway's override reaches every route): the
//! report keeps one entry per path (the JSON contract) and [`DiffReport::groups`] gathers
//! identical changes, each with its [`Scope`] in the topology, for the reviewer's rendering.

use super::diff_scope::{Scope, Universe};
use super::filter::{Filters, shows_kind_index};
use super::status::{Condition, conditions};
use crate::engine::fold::{Effective, EffectiveRule};
use crate::engine::observed::Observed;
use crate::engine::{PathOutcomes, SharedFolds};
use crate::model::Model;
use crate::topology::{PathId, Topology};
use crate::yaml::Node;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;
use serde::ser::SerializeStruct;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::BuildHasher;
use std::sync::Arc;

/// A rule as it is on one side: its effective rule, read through the side's model (a diff of
/// two big revisions holds a hundred thousand changes: two words a side, not a list of
/// locators each).
#[derive(Clone, Copy)]
pub struct RuleVersion<'a> {
    rule: &'a EffectiveRule,
    model: &'a Model,
}

impl<'a> RuleVersion<'a> {
    /// The value (read again from the input when the run dropped it: see `same_value`).
    pub fn value(&self) -> &'a Node {
        let rule = &self.rule.rule;
        match self.rule.merged {
            Some(_) => self.rule.value(self.model),
            None => (self.model).rule_value(rule.policy, rule.block(), rule.rule()),
        }
    }

    /// How the value is written, when that says what it is ([`Model::written_value`]).
    fn written(&self) -> Option<crate::model::WrittenValue<'a>> {
        let rule = &self.rule.rule;
        match self.rule.merged {
            Some(_) => None,
            None => (self.model).written_value(rule.policy, rule.block(), rule.rule()),
        }
    }

    /// The source policy's locator.
    pub fn source(&self) -> &'a str {
        &self.model.policies[self.rule.rule.policy as usize].locator
    }

    /// Every contributing policy's locator, highest priority first.
    pub fn origins(&self) -> impl ExactSizeIterator<Item = &'a str> + Clone + 'a {
        let policies = &self.model.policies;
        (self.rule.origins().iter()).map(|&p| policies[p as usize].locator.as_str())
    }
}

impl std::fmt::Debug for RuleVersion<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuleVersion")
            .field("value", self.value())
            .field("source", &self.source())
            .field("origins", &self.origins().collect::<Vec<_>>())
            .finish()
    }
}

/// What happened to a rule key on a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

/// How one rule key differs between the two sides: what the renderings and the JSON read of a
/// change, a path's ([`RuleChange`]) or a listener's ([`ListenerChange`]).
#[derive(Clone, Debug)]
pub struct KeyChange<'a> {
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
    /// For a changed value: a line diff of its YAML rendering (`-`, `+`, ` ` prefixes), shared
    /// by every change of the same pair of values (an edited limit changes it on every path
    /// the policy reaches).
    pub value_diff: Option<Arc<str>>,
}

impl<'a> KeyChange<'a> {
    /// How `b` and `a` differ (`None` when they do not): `same` says whether two versions have
    /// the same value, `diff` gives the line diff of two values.
    fn of(
        b: Option<RuleVersion<'a>>,
        a: Option<RuleVersion<'a>>,
        same: impl FnOnce(&RuleVersion<'a>, &RuleVersion<'a>) -> bool,
        diff: impl FnOnce(&'a Node, &'a Node) -> Arc<str>,
    ) -> Option<KeyChange<'a>> {
        let (change, value_changed, source_changed) = match (&b, &a) {
            (None, Some(_)) => (ChangeKind::Added, false, false),
            (Some(_), None) => (ChangeKind::Removed, false, false),
            (Some(b), Some(a)) => {
                let (value, source) = (!same(b, a), b.source() != a.source());
                if !value && !source && b.origins().eq(a.origins()) {
                    return None;
                }
                (ChangeKind::Changed, value, source)
            }
            (None, None) => return None,
        };
        let value_diff = match (&b, &a) {
            (Some(b), Some(a)) if value_changed => Some(diff(b.value(), a.value())),
            _ => None,
        };
        Some(KeyChange {
            change,
            before: b,
            after: a,
            value_changed,
            source_changed,
            value_diff,
        })
    }

    /// Writes the fields after `change`: `before`, `after`, and for a change the flags and the
    /// value diff.
    fn write_fields<S: SerializeStruct>(&self, s: &mut S) -> Result<(), S::Error> {
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
            s.serialize_field("valueDiff", &**diff)?;
        }
        Ok(())
    }
}

/// A changed rule of one path's effective policy.
#[derive(Clone, Debug)]
pub struct RuleChange<'a> {
    /// The policy kind.
    pub policy_kind: &'static str,
    /// The path id.
    pub path_id: PathId<'a>,
    /// The rule key.
    pub key: &'a str,
    /// How it changed.
    pub sides: KeyChange<'a>,
}

impl<'a> std::ops::Deref for RuleChange<'a> {
    type Target = KeyChange<'a>;
    fn deref(&self) -> &KeyChange<'a> {
        &self.sides
    }
}

/// A path that appeared or disappeared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathChange<'a> {
    /// The path id.
    #[serde(rename = "pathId")]
    pub path_id: PathId<'a>,
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
#[derive(Debug, Default)]
pub struct DiffReport<'a> {
    /// Rule changes in path order (the new side's, then paths only the old side has), kind, key.
    pub changes: Vec<RuleChange<'a>>,
    /// Paths that appeared (in the new side's order), then those that disappeared.
    pub paths: Vec<PathChange<'a>>,
    /// Policies whose `Accepted`/`Enforced` conditions changed, sorted by locator.
    pub status: Vec<StatusChange>,
    /// Every path id of either side (unfiltered), to say where a change happens.
    pub universe: Universe<'a>,
    /// Changed rules of listeners no route is attached to (kinds whose policies configure
    /// listeners), by listener id, kind and key.
    pub listeners: Vec<ListenerChange<'a>>,
    /// Changed values on the paths of owned hierarchies, by path id, kind and key.
    pub owned: Vec<super::diff_owned::OwnedChange>,
}

/// A changed rule of a listener no route is attached to, for a kind whose policies configure
/// listeners (docs/families.md, "Listener-level settings").
#[derive(Clone, Debug)]
pub struct ListenerChange<'a> {
    /// The listener id (`<class>|<ns>/<gw>|<ns>/<gw>#<listener>`).
    pub listener_id: String,
    /// The policy kind.
    pub policy_kind: &'static str,
    /// The rule key.
    pub key: &'a str,
    /// How it changed.
    pub sides: KeyChange<'a>,
}

impl<'a> std::ops::Deref for ListenerChange<'a> {
    type Target = KeyChange<'a>;
    fn deref(&self) -> &KeyChange<'a> {
        &self.sides
    }
}

impl Serialize for ListenerChange<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("ListenerChange", 9)?;
        s.serialize_field("listenerId", &self.listener_id)?;
        s.serialize_field("policyKind", self.policy_kind)?;
        s.serialize_field("key", self.key)?;
        s.serialize_field("change", self.change.as_str())?;
        self.sides.write_fields(&mut s)?;
        s.end()
    }
}

/// One side's listener-level rules the filters show: (listener id, kind, key) → the rule.
type ListenerRules<'a> = BTreeMap<(String, &'static str, &'a str), RuleVersion<'a>>;

/// The listener-level rules of one side that `filters` shows.
fn listener_rules<'a>(side: &'a Observed<'_, '_>, filters: &Filters) -> ListenerRules<'a> {
    let model = side.engine.model;
    let mut rules = BTreeMap::new();
    for fold in side.listener_folds() {
        let kind = model.registry.kind(fold.kind);
        if !filters.shows_kind(kind) || !filters.shows_listener(model, fold.gateway) {
            continue;
        }
        let id = super::effective::listener_id(model, fold.gateway, fold.listener);
        for (key, rule) in fold.folded.effective.iter() {
            let version = RuleVersion { rule, model };
            rules.insert((id.clone(), kind.kind, *key), version);
        }
    }
    rules
}

/// How the listener-level rules differ between the two sides, by listener id, kind and key.
fn listener_changes<'a>(
    old: &'a Observed<'_, '_>,
    new: &'a Observed<'_, '_>,
    filters: &DiffFilters,
) -> Vec<ListenerChange<'a>> {
    let mut before = listener_rules(old, &filters.old);
    let after = listener_rules(new, &filters.new);
    let mut keys: BTreeSet<(String, &'static str, &'a str)> = before.keys().cloned().collect();
    keys.extend(after.keys().cloned());
    let mut changes = Vec::new();
    for key in keys {
        let (b, a) = (before.remove(&key), after.get(&key).copied());
        let Some(sides) = KeyChange::of(b, a, same_value, |b, a| value_diff(b, a).into()) else {
            continue;
        };
        let (listener_id, policy_kind, key) = key;
        changes.push(ListenerChange {
            listener_id,
            policy_kind,
            key,
            sides,
        });
    }
    changes
}

/// The same change on a set of paths.
#[derive(Clone, Debug)]
pub struct ChangeGroup {
    /// Indices into [`DiffReport::changes`], in report order; the first stands for all.
    pub changes: Vec<usize>,
    /// Where the paths are.
    pub scope: Scope,
}

impl DiffReport<'_> {
    /// Whether the two sides have the same effective policies and statuses.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
            && self.paths.is_empty()
            && self.status.is_empty()
            && self.listeners.is_empty()
            && self.owned.is_empty()
    }

    /// Identical changes gathered (same policy kind, rule key and kind of change, same values,
    /// sources and origins before and after), sorted by policy kind, rule key, then first
    /// appearance. Linear in the number of changes: values are told apart by their rendering,
    /// computed once per distinct value node.
    pub fn groups(&self) -> Vec<ChangeGroup> {
        let mut values = ValueIds::default();
        let mut index: FxHashMap<GroupKey<'_>, usize> = FxHashMap::default();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, change) in self.changes.iter().enumerate() {
            let key = (
                change.policy_kind,
                change.key,
                change.change,
                values.side(&change.before),
                values.side(&change.after),
            );
            let next = groups.len();
            let group = *index.entry(key).or_insert(next);
            if group == next {
                groups.push(Vec::new());
            }
            groups[group].push(i);
        }
        groups.sort_by_key(|g| {
            let first = &self.changes[g[0]];
            (first.policy_kind, first.key, g[0])
        });
        groups
            .into_iter()
            .map(|changes| {
                let ids: Vec<PathId<'_>> =
                    changes.iter().map(|&c| self.changes[c].path_id).collect();
                ChangeGroup {
                    scope: self.universe.scope(&ids),
                    changes,
                }
            })
            .collect()
    }

    /// Where the paths that appeared (`added`) or disappeared (`removed`) are.
    pub fn path_scope(&self, change: &str) -> Scope {
        let ids: Vec<PathId<'_>> = self
            .paths
            .iter()
            .filter(|p| p.change == change)
            .map(|p| p.path_id)
            .collect();
        self.universe.scope(&ids)
    }
}

/// One side of a change as grouping sees it: source, origins, value id.
type SideKey<'a> = Option<(&'a str, Vec<&'a str>, usize)>;
/// What makes two changes the same.
type GroupKey<'a> = (&'a str, &'a str, ChangeKind, SideKey<'a>, SideKey<'a>);

/// Numbers values by their YAML rendering, rendering each node once.
#[derive(Default)]
struct ValueIds {
    by_node: FxHashMap<*const Node, usize>,
    by_text: FxHashMap<String, usize>,
}

impl ValueIds {
    fn side<'a>(&mut self, version: &Option<RuleVersion<'a>>) -> SideKey<'a> {
        version
            .as_ref()
            .map(|v| (v.source(), v.origins().collect(), self.id(v.value())))
    }

    fn id(&mut self, node: &Node) -> usize {
        if let Some(&id) = self.by_node.get(&(node as *const Node)) {
            return id;
        }
        let text = render_value(node);
        let next = self.by_text.len();
        let id = *self.by_text.entry(text).or_insert(next);
        self.by_node.insert(node as *const Node, id);
        id
    }
}

/// What `diff` shows: the report filters with each side's delegation chains (for `--route`),
/// and `--policy` as locators, since a policy's index differs between the sides.
#[derive(Clone, Debug, Default)]
pub struct DiffFilters {
    /// The filters with the old side's chains.
    pub old: Filters,
    /// The filters with the new side's chains.
    pub new: Filters,
    /// `--policy`: locators of the policies named, on either side.
    pub policies: Option<Vec<String>>,
}

impl DiffFilters {
    /// Whether a rule change involves a policy of `--policy` (as its source or an origin).
    fn shows_change(&self, change: &RuleChange<'_>) -> bool {
        self.policies.as_ref().is_none_or(|wanted| {
            [&change.before, &change.after]
                .into_iter()
                .flatten()
                .flat_map(|v| std::iter::once(v.source()).chain(v.origins()))
                .any(|locator| wanted.iter().any(|w| w == locator))
        })
    }

    /// Whether a policy's status change is shown (`--kind`, `-n`, `--policy`): `--policy` is
    /// matched by locator here, as policy indices differ between the sides.
    fn shows_policy(&self, model: &Model, policy: u32) -> bool {
        let locator = &model.policies[policy as usize].locator;
        self.new.shows_policy(model, policy)
            && (self.policies.as_ref()).is_none_or(|wanted| wanted.contains(locator))
    }
}

/// One side's effective policies by path: where each path's entries start in the side's
/// shared entries (in path order, then kind order). A list per path of its effective policies
/// was 32 MB a side on the 49 MB benchmark; this is a number a path.
struct ByPath<'o, 'm> {
    shared: &'o SharedFolds<PathOutcomes<'m>>,
    /// `starts[p]..starts[p + 1]` are path `p`'s entries.
    starts: Vec<u32>,
}

impl<'o, 'm> ByPath<'o, 'm> {
    fn new(observed: &'o Observed<'_, 'm>) -> Self {
        let shared = &observed.shared;
        let paths = observed.engine.topology.paths.len();
        let mut starts = Vec::with_capacity(paths + 1);
        let mut at = 0;
        for path in 0..=paths {
            while shared
                .entries
                .get(at)
                .is_some_and(|e| (e.path as usize) < path)
            {
                at += 1;
            }
            starts.push(at as u32);
        }
        ByPath { shared, starts }
    }

    /// The effective policy of `kind` on `path`, when it is not empty.
    fn effective(&self, path: usize, kind: usize) -> Option<&'o Effective<'m>> {
        let entries =
            &self.shared.entries[self.starts[path] as usize..self.starts[path + 1] as usize];
        let entry = entries.iter().find(|e| self.shared.kind(e) == kind)?;
        let effective = &self.shared.results[entry.fold as usize].folded.effective;
        (!effective.is_empty()).then_some(effective)
    }
}

fn version<'a>(
    model: &'a Model,
    effective: &'a Effective<'_>,
    key: &str,
) -> Option<RuleVersion<'a>> {
    let rule = effective.get(key)?;
    Some(RuleVersion { rule, model })
}

/// A value's YAML rendering.
fn render_value(node: &Node) -> String {
    serde_saphyr::to_string(node).unwrap_or_default()
}

/// A line diff of two values' YAML renderings: each line prefixed with `- `, `+ ` or two spaces.
pub fn value_diff(before: &Node, after: &Node) -> String {
    let (old, new) = (render_value(before), render_value(after));
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

/// A policy of the old side and of the new side, either absent.
type PolicyPair = (Option<u32>, Option<u32>);

/// The policies whose conditions differ between the sides, sorted by locator. The conditions
/// are worked out a policy at a time and dropped unless they differ: holding every policy's
/// of both sides was a fifth of the report's memory on a big input.
fn status_changes(
    old: &Observed<'_, '_>,
    new: &Observed<'_, '_>,
    filters: &DiffFilters,
) -> Vec<StatusChange> {
    // Both sides' policies the filters show, paired by locator (a locator written twice on
    // a side is its last policy's).
    let mut pairs: BTreeMap<&str, PolicyPair> = BTreeMap::new();
    for (side, model) in [old.engine.model, new.engine.model].into_iter().enumerate() {
        for p in (0..model.policies.len() as u32).filter(|&p| filters.shows_policy(model, p)) {
            let pair = pairs
                .entry(&model.policies[p as usize].locator)
                .or_default();
            *(if side == 0 { &mut pair.0 } else { &mut pair.1 }) = Some(p);
        }
    }
    let pairs: Vec<(&str, PolicyPair)> = pairs.into_iter().collect();
    pairs
        .into_par_iter()
        .filter_map(|(locator, (o, n))| {
            let before = o.map(|p| conditions(old, p)).unwrap_or_default();
            let after = n.map(|p| conditions(new, p)).unwrap_or_default();
            (before != after).then(|| StatusChange {
                policy: locator.to_string(),
                before,
                after,
            })
        })
        .collect()
}

/// Compares two evaluated sides, keeping what the filters show. Paths are visited in the new
/// side's order, then the paths only the old side has, in its order; no sorting of path ids is
/// needed.
pub fn build<'a, 'o: 'a, 'n: 'a>(
    old: &'a Observed<'_, 'o>,
    new: &'a Observed<'_, 'n>,
    filters: &DiffFilters,
) -> DiffReport<'a> {
    let (old_topology, new_topology) = (old.engine.topology, new.engine.topology);
    let (pairs, old_only) = pair_paths(old_topology, new_topology);
    let shown = |(o, n): Pair| match (o, n) {
        (_, Some(n)) => filters.new.shows_path(new.engine.model, new_topology, n),
        (Some(o), None) => filters.old.shows_path(old.engine.model, old_topology, o),
        (None, None) => false,
    };
    let pairs: Vec<_> = pairs.into_iter().filter(|&pair| shown(pair)).collect();
    // The rule changes, the scope of the paths and each side's conditions do not depend on
    // each other: they are computed at the same time.
    let universe = || {
        Universe::new(
            (0..new_topology.paths.len())
                .map(|n| new_topology.path_id(n))
                .chain(old_only.iter().map(|&o| old_topology.path_id(o as usize))),
        )
    };
    let ((changes, universe), status) = rayon::join(
        || rayon::join(|| rule_changes(old, new, &pairs, filters), universe),
        || status_changes(old, new, filters),
    );
    let paths: Vec<PathChange<'a>> = pairs
        .iter()
        .filter_map(|&(o, n)| match (o, n) {
            (None, Some(n)) => Some((new_topology.path_id(n as usize), "added")),
            (Some(o), None) => Some((old_topology.path_id(o as usize), "removed")),
            _ => None,
        })
        .map(|(path_id, change)| PathChange { path_id, change })
        .collect();
    DiffReport {
        changes,
        paths,
        status,
        universe,
        listeners: listener_changes(old, new, filters),
        owned: super::diff_owned::changes(old.engine, new.engine, (&filters.old, &filters.new)),
    }
}

/// Each path once, as [`Pair`]s: the new side's paths (with the old side's index of the same id,
/// if any), then those only the old side has; and the indices of the latter. Only the old side's
/// ids are indexed (a path of the old side is on the new side when some new id found it), by
/// [`PathId`], hashed and compared as its text without writing it out: written, the ids were
/// 32 MB a side on the 49 MB benchmark.
fn pair_paths(old: &Topology, new: &Topology) -> (Vec<Pair>, Vec<u32>) {
    let (old_count, new_count) = (old.paths.len(), new.paths.len());
    // Hashing an id reads all of its text: done for both sides on every core first.
    let hashes = |side: &Topology| -> Vec<u64> {
        (0..side.paths.len())
            .into_par_iter()
            .map(|i| rustc_hash::FxBuildHasher.hash_one(side.path_id(i)))
            .collect()
    };
    let (old_hashes, new_hashes) = rayon::join(|| hashes(old), || hashes(new));
    let key = |side, hashes: &[u64], i: usize| HashedId(hashes[i], PathId::new(side, i));
    // An id written twice on the old side is indexed once, at its last path, and both its
    // paths go with that entry: `indexed[o]` is where old path `o`'s id is indexed.
    let mut old_index: FxHashMap<HashedId<'_>, u32> = FxHashMap::default();
    old_index.reserve(old_count);
    let mut indexed = vec![0u32; old_count];
    for o in (0..old_count).rev() {
        indexed[o] = *old_index
            .entry(key(old, &old_hashes, o))
            .or_insert(o as u32);
    }
    let mut found = vec![false; old_count];
    let mut pairs: Vec<Pair> = (0..new_count)
        .map(|n| {
            let o = old_index.get(&key(new, &new_hashes, n)).copied();
            if let Some(o) = o {
                found[o as usize] = true;
            }
            (o, Some(n as u32))
        })
        .collect();
    let old_only: Vec<u32> = (0..old_count as u32)
        .filter(|&o| !found[indexed[o as usize] as usize])
        .collect();
    pairs.extend(old_only.iter().map(|&o| (Some(o), None)));
    (pairs, old_only)
}

/// A path id with its hash, computed once.
#[derive(PartialEq, Eq)]
struct HashedId<'a>(u64, PathId<'a>);

impl std::hash::Hash for HashedId<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.0);
    }
}

/// One path of either side: its index on the old side, on the new side (a path on both has
/// both). Indices of paths fit in `u32` ([`crate::topology::Path`]); a pair of `usize`s was
/// 11 MB on the 49 MB benchmark.
type Pair = (Option<u32>, Option<u32>);

/// The rule changes of the paths `pairs` (old index, new index) of the kinds and policies the
/// filters show. A value diff is computed once per pair of value nodes in a chunk of paths: an
/// override that reaches 10,000 paths is one fold, so one diff per chunk.
fn rule_changes<'a, 'o: 'a, 'n: 'a>(
    old: &'a Observed<'_, 'o>,
    new: &'a Observed<'_, 'n>,
    pairs: &[Pair],
    filters: &DiffFilters,
) -> Vec<RuleChange<'a>> {
    let (old_model, new_model) = (old.engine.model, new.engine.model);
    let registry = &new_model.registry;
    let kinds: Vec<&'static str> = registry.kinds().map(|k| k.kind).collect();
    let (old_topology, new_topology) = (old.engine.topology, new.engine.topology);
    let (old_effective, new_effective) = (ByPath::new(old), ByPath::new(new));
    // Paths are compared on every core, a chunk at a time, each chunk with its own memo of
    // value diffs; the chunks' changes are joined in path order.
    let mapped: Vec<&crate::source::SourceFile> = [old_model, new_model]
        .into_iter()
        .flat_map(|model| model.sources.iter().map(|(_, file)| file))
        .filter(|file| file.is_mapped())
        .collect();
    let per_chunk: Vec<Vec<RuleChange<'a>>> = pairs
        .par_chunks(PAIRS_PER_TASK)
        .map(|pairs| {
            let mut memo = Memo::default();
            let mut changes = Vec::new();
            for (i, &(o, n)) in pairs.iter().enumerate() {
                if i % RELEASE_EVERY == 0 {
                    // Values compared as written read their text where it is, all over the
                    // inputs (a listener's routes are): a mapped input's pages go back every
                    // few paths (a page another task is reading is read in again).
                    mapped.iter().for_each(|file| file.release());
                }
                let (o, n) = (o.map(|o| o as usize), n.map(|n| n as usize));
                let path_id = n.map_or_else(
                    || old_topology.path_id(o.expect("one side has the path")),
                    |n| new_topology.path_id(n),
                );
                for (kind, _) in kinds.iter().enumerate() {
                    if !shows_kind_index(registry, &filters.new.kinds, kind) {
                        continue;
                    }
                    let before = o.and_then(|o| old_effective.effective(o, kind));
                    let after = n.and_then(|n| new_effective.effective(n, kind));
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
                        changes.extend(
                            key_change(b, a, path_id, &mut memo)
                                .map(|c| RuleChange {
                                    policy_kind: kinds[kind],
                                    key,
                                    ..c
                                })
                                .filter(|c| filters.shows_change(c)),
                        );
                    }
                }
            }
            crate::platform::fit(&mut changes);
            changes
        })
        .collect();
    crate::platform::join_parts(per_chunk)
}

/// Paths [`rule_changes`] compares between two hand-backs of the inputs' pages.
const RELEASE_EVERY: usize = 256;

/// Paths one task of [`rule_changes`] compares.
const PAIRS_PER_TASK: usize = 2048;

/// What one task of [`rule_changes`] works out once: whether the values of two effective
/// rules are the same, and the line diff of two values.
#[derive(Default)]
struct Memo {
    same: FxHashMap<(*const EffectiveRule, *const EffectiveRule), bool>,
    diffs: FxHashMap<(*const Node, *const Node), Arc<str>>,
}

/// Whether two versions of a rule have the same value. A diff keeps only the values its
/// evaluation reads ([`crate::model::RuleValues::Evaluation`]: two models of rule values were
/// the biggest part of its memory); the others are compared as written, and read again from the
/// input only when written differently (or to be shown, for a change).
fn same_value(b: &RuleVersion<'_>, a: &RuleVersion<'_>) -> bool {
    match (b.written(), a.written()) {
        (Some(before), Some(after)) if before == after => true,
        _ => b.value().same_value(a.value()),
    }
}

/// How one rule key differs between two versions on `path_id` (`None` when it does not), with
/// no kind or key yet. Values are compared once per pair of effective rules (paths that share
/// folds share them), and a value diff is computed once per pair of value nodes (`memo`).
fn key_change<'a>(
    b: Option<RuleVersion<'a>>,
    a: Option<RuleVersion<'a>>,
    path_id: PathId<'a>,
    memo: &mut Memo,
) -> Option<RuleChange<'a>> {
    let Memo { same, diffs } = memo;
    let same = |b: &RuleVersion<'a>, a: &RuleVersion<'a>| {
        let pair = (
            b.rule as *const EffectiveRule,
            a.rule as *const EffectiveRule,
        );
        *same.entry(pair).or_insert_with(|| same_value(b, a))
    };
    let diff = |b: &'a Node, a: &'a Node| {
        let pair = (b as *const Node, a as *const Node);
        diffs
            .entry(pair)
            .or_insert_with(|| value_diff(b, a).into())
            .clone()
    };
    Some(RuleChange {
        policy_kind: "",
        path_id,
        key: "",
        sides: KeyChange::of(b, a, same, diff)?,
    })
}

struct VersionView<'v, 'a>(&'v RuleVersion<'a>);

impl Serialize for VersionView<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("RuleVersion", 2)?;
        s.serialize_field("value", self.0.value())?;
        s.serialize_field("source", self.0.source())?;
        // Only a merged value has origins beyond its source (docs/families.md §1); a single-source family's never do.
        if self.0.origins().len() > 1 {
            s.serialize_field("origins", &self.0.origins().collect::<Vec<_>>())?;
        }
        s.end()
    }
}

impl Serialize for RuleChange<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("RuleChange", 9)?;
        s.serialize_field("policyKind", self.policy_kind)?;
        s.serialize_field("pathId", &self.path_id)?;
        s.serialize_field("key", self.key)?;
        s.serialize_field("change", self.change.as_str())?;
        self.sides.write_fields(&mut s)?;
        s.end()
    }
}

impl Serialize for DiffReport<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("EffectivePolicyDiff", 6)?;
        s.serialize_field("apiVersion", crate::report::API_VERSION)?;
        s.serialize_field("kind", "EffectivePolicyDiff")?;
        s.serialize_field("changes", &self.changes)?;
        s.serialize_field("paths", &self.paths)?;
        s.serialize_field("status", &self.status)?;
        if !self.listeners.is_empty() {
            s.serialize_field("listeners", &self.listeners)?;
        }
        if !self.owned.is_empty() {
            s.serialize_field("owned", &self.owned)?;
        }
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::pair_paths;
    use crate::topology::Topology;

    fn ids(list: &[&'static str]) -> Topology {
        Topology::of_path_ids(list)
    }

    #[test]
    fn paths_pair_by_id_new_side_first_then_the_old_only() {
        // `a` is written twice on the old side: both its paths go with the new `a`.
        let (pairs, old_only) = pair_paths(&ids(&["a", "b", "a", "c"]), &ids(&["c", "a", "d"]));
        assert_eq!(
            pairs,
            [
                (Some(3), Some(0)),
                (Some(2), Some(1)),
                (None, Some(2)),
                (Some(1), None)
            ]
        );
        assert_eq!(old_only, [1]);
    }
}
