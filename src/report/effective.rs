//! `dopol effective`: the effective policy of every path, with the source of every rule.
//!
//! Items are light (a path and the fold that produced its rules); rules are read from the
//! shared fold when rendered, so a report over 100k paths allocates nothing per rule.

use crate::engine::fold::Effective;
use crate::engine::{EffectiveSet, Engine};
use crate::model::Model;
use crate::policy::PolicyKind;
use crate::report::filter::Filters;
use crate::report::owned::{OwnedItemView, OwnedShown};
use crate::report::path_fields::{PathFields, PathParts};
use crate::report::uncovered::{UncoveredPath, missing_kinds};
use crate::topology::{PathId, Topology};
use crate::yaml::Node;
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

/// One rule of an effective policy.
#[derive(Clone, Debug)]
pub struct EffectiveRule<'m> {
    /// Rule key.
    pub key: &'m str,
    /// Value as written in the source policy.
    pub value: &'m Node,
    /// Index of the source policy.
    pub policy: u32,
    /// Locator of the source policy.
    pub source: &'m str,
    /// Locators of every policy that contributed to the value, highest priority first
    /// (`[source]` for a value taken whole from one policy).
    pub origins: Vec<&'m str>,
}

/// The effective policy of one path for one kind.
#[derive(Clone, Copy, Debug)]
pub struct EffectiveItem {
    /// The kind.
    pub kind: &'static PolicyKind,
    /// Index into `Topology::paths`.
    pub path: u32,
    /// The fold that produced it (items with the same fold have the same rules).
    pub fold: u32,
}

/// The items a report shows, in path order then kind order: every entry of the engine's set,
/// or those the filters keep.
pub struct ItemList<'s> {
    kinds: Vec<&'static PolicyKind>,
    entries: &'s [crate::engine::EffectiveEntry],
    /// Per fold: the index of its kind in the registry.
    fold_kinds: &'s [u32],
    /// Indices into `entries`; `None` when every entry is shown, so that nothing is stored
    /// for the usual report (a big input has a million entries).
    kept: Option<Vec<u32>>,
}

impl ItemList<'_> {
    /// How many items.
    pub fn len(&self) -> usize {
        self.kept.as_ref().map_or(self.entries.len(), Vec::len)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Item number `index` (below [`ItemList::len`]).
    pub fn get(&self, index: usize) -> EffectiveItem {
        let entry = match &self.kept {
            Some(kept) => &self.entries[kept[index] as usize],
            None => &self.entries[index],
        };
        EffectiveItem {
            kind: self.kinds[self.fold_kinds[entry.fold as usize] as usize],
            path: entry.path,
            fold: entry.fold,
        }
    }

    /// The items in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = EffectiveItem> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// The effective policy of one kind on a listener no route is attached to, for a family whose
/// policies of that kind act on listeners (docs/families.md, "Listener-level settings").
pub struct ListenerItem<'m> {
    /// The kind.
    pub kind: &'static PolicyKind,
    /// Index into `Model::gateways`.
    pub gateway: u32,
    /// Index into the Gateway's listeners.
    pub listener: u32,
    /// The listener's effective policy.
    pub effective: Effective<'m>,
}

impl ListenerItem<'_> {
    /// Its listener's id ([`listener_id`]).
    pub fn listener_id(&self, model: &Model) -> String {
        listener_id(model, self.gateway, self.listener)
    }
}

/// `<class>|<ns>/<gw>|<ns>/<gw>#<listener>`: the first three parts of the id of a path through
/// listener `listener` of Gateway `gateway`.
pub fn listener_id(model: &Model, gateway: u32, listener: u32) -> String {
    let mut id = crate::topology::listener_prefix(model, gateway, listener);
    id.pop();
    id
}

/// The listener items `filters` shows, in Gateway, listener, then kind order.
fn listener_items<'m>(engine: &Engine<'m>, filters: &Filters) -> Vec<ListenerItem<'m>> {
    let model = engine.model;
    engine
        .listener_folds()
        .into_iter()
        .filter(|f| {
            filters.shows_kind(model.registry.kind(f.kind))
                && filters.shows_listener(model, f.gateway)
                && (filters.policies.is_none() || filters.shows_policies(&f.policies))
        })
        .map(|f| ListenerItem {
            kind: model.registry.kind(f.kind),
            gateway: f.gateway,
            listener: f.listener,
            effective: f.folded.effective,
        })
        .collect()
}

/// `EffectivePolicyList`.
pub struct EffectiveReport<'s, 'm> {
    /// Items in path order, then kind order.
    pub items: ItemList<'s>,
    /// Listener-level items: listeners no route is attached to, for kinds whose policies act
    /// on listeners.
    pub listeners: Vec<ListenerItem<'m>>,
    /// The items of the hierarchies families build themselves, after the Gateway API items.
    pub owned: Vec<OwnedShown<'s>>,
    set: &'s EffectiveSet<'m>,
    model: &'m Model,
    topology: &'m Topology,
}

/// Builds the report from the engine's results, applying the filters.
pub fn build<'s, 'm>(
    engine: &'s Engine<'m>,
    set: &'s EffectiveSet<'m>,
    filters: &Filters,
) -> EffectiveReport<'s, 'm> {
    let model = engine.model;
    let topology = engine.topology;
    let kinds: Vec<_> = model.registry.kinds().collect();
    let shown = |i: u32| {
        let e = &set.entries[i as usize];
        filters.shows_kind(kinds[set.kind(e)])
            && filters.shows_path(model, topology, e.path)
            && (filters.policies.is_none()
                || filters.shows_policies(
                    &engine.path_policies(&topology.paths[e.path as usize], set.kind(e)),
                ))
    };
    // Listed only when some entry is left out: the list of every entry (most runs show them
    // all) was 8 MB at the peak of `effective` on the 49 MB benchmark.
    let count = set.entries.len() as u32;
    let kept = (0..count).position(|i| !shown(i)).map(|first| {
        let mut kept: Vec<u32> = (0..first as u32)
            .chain((first as u32 + 1..count).filter(|&i| shown(i)))
            .collect();
        crate::platform::fit(&mut kept);
        kept
    });
    EffectiveReport {
        items: ItemList {
            kinds,
            entries: &set.entries,
            fold_kinds: &set.kinds,
            kept,
        },
        listeners: listener_items(engine, filters),
        owned: crate::report::owned::shown(engine, filters),
        set,
        model,
        topology,
    }
}

/// The "(none)" rows of the table: the paths shown that lack a kind some shown path has.
/// Without them a path with no AuthPolicy would simply be missing from the table. Not with
/// `--policy`, whose report is about one policy's paths, not about coverage.
pub fn none_rows<'m>(
    engine: &Engine<'m>,
    set: &EffectiveSet<'m>,
    filters: &Filters,
    report: &EffectiveReport<'_, 'm>,
) -> Vec<UncoveredPath<'m>> {
    if filters.policies.is_some() {
        return Vec::new();
    }
    let kinds: Vec<_> = engine
        .model
        .registry
        .kinds()
        .filter(|k| report.items.iter().any(|i| std::ptr::eq(i.kind, *k)))
        .collect();
    missing_kinds(engine, set, filters, &kinds)
}

/// The rules of an effective policy, sorted by key.
pub fn rules_of<'a>(model: &'a Model, effective: &'a Effective<'_>) -> Vec<EffectiveRule<'a>> {
    effective
        .iter()
        .map(|(key, r)| EffectiveRule {
            key,
            value: r.value(model),
            policy: r.policy,
            source: model.policies[r.policy as usize].locator.as_str(),
            origins: r
                .origins()
                .iter()
                .map(|&p| model.policies[p as usize].locator.as_str())
                .collect(),
        })
        .collect()
}

/// The sorted unique source locators of some rules.
pub fn sources_of<'m>(rules: &[EffectiveRule<'m>]) -> Vec<&'m str> {
    let mut sources: Vec<&str> = rules.iter().map(|r| r.source).collect();
    sources.sort_unstable();
    sources.dedup();
    sources
}

impl<'s, 'm> EffectiveReport<'s, 'm> {
    /// The rules of an item, sorted by key.
    pub fn rules(&self, item: &EffectiveItem) -> Vec<EffectiveRule<'_>> {
        rules_of(self.model, self.effective(item))
    }

    /// The fold result behind an item (items with equal results have equal rules).
    pub fn effective(&self, item: &EffectiveItem) -> &'s Effective<'m> {
        self.fold_effective(item.fold)
    }

    /// The result of fold number `fold`.
    pub fn fold_effective(&self, fold: u32) -> &'s Effective<'m> {
        &self.set.folds[fold as usize].effective
    }

    /// The id of an item's path.
    pub fn path_id(&self, item: &EffectiveItem) -> PathId<'m> {
        self.topology.path_id(item.path as usize)
    }

    /// The parts of an item's path.
    pub fn fields(&self, item: &EffectiveItem) -> PathFields<'m> {
        PathFields::of(self.model, self.topology, item.path)
    }

    /// The parts of an item's path, borrowed.
    pub fn parts(&self, item: &EffectiveItem) -> PathParts<'m> {
        PathParts::of(self.model, self.topology, item.path)
    }

    /// The model the report is about.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// How many distinct folds the engine produced (fold ids are below this).
    pub fn fold_count(&self) -> usize {
        self.set.folds.len()
    }
}

/// Rules as a JSON object: key → `{value, source}`.
pub(crate) struct RuleMap<'a, 'm>(pub(crate) &'a [EffectiveRule<'m>]);

impl Serialize for RuleMap<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct ValueAndSource<'a, 'm>(&'a EffectiveRule<'m>);
        impl Serialize for ValueAndSource<'_, '_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut s = serializer.serialize_struct("Rule", 3)?;
                s.serialize_field("value", self.0.value)?;
                s.serialize_field("source", self.0.source)?;
                s.serialize_field("origins", &self.0.origins)?;
                s.end()
            }
        }
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for rule in self.0 {
            map.serialize_entry(rule.key, &ValueAndSource(rule))?;
        }
        map.end()
    }
}

struct ItemView<'r, 's, 'm> {
    report: &'r EffectiveReport<'s, 'm>,
    item: &'r EffectiveItem,
}

impl Serialize for ItemView<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rules = self.report.rules(self.item);
        let mut s = serializer.serialize_struct("EffectivePolicy", 9)?;
        s.serialize_field("policyKind", self.item.kind.kind)?;
        s.serialize_field("policyGroup", self.item.kind.group)?;
        s.serialize_field("pathId", &self.report.path_id(self.item))?;
        let fields = self.report.fields(self.item);
        s.serialize_field("gateway", &fields.gateway)?;
        s.serialize_field("listener", fields.listener)?;
        s.serialize_field("route", &fields.route)?;
        s.serialize_field("rule", fields.rule)?;
        s.serialize_field("rules", &RuleMap(&rules))?;
        s.serialize_field("sources", &sources_of(&rules))?;
        s.end()
    }
}

/// One listener item in JSON: kind, listener id, Gateway, listener, rules and sources.
pub(crate) struct ListenerView<'r, 'm> {
    pub(crate) model: &'m Model,
    pub(crate) item: &'r ListenerItem<'m>,
}

impl Serialize for ListenerView<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rules = rules_of(self.model, &self.item.effective);
        let gateway = &self.model.gateways[self.item.gateway as usize];
        let mut s = serializer.serialize_struct("ListenerPolicy", 7)?;
        s.serialize_field("policyKind", self.item.kind.kind)?;
        s.serialize_field("policyGroup", self.item.kind.group)?;
        s.serialize_field("listenerId", &self.item.listener_id(self.model))?;
        s.serialize_field(
            "gateway",
            &format!("{}/{}", gateway.namespace, gateway.name),
        )?;
        let listener = &gateway.listeners[self.item.listener as usize];
        let name = listener.qualified_name();
        s.serialize_field("listener", &name)?;
        s.serialize_field("rules", &RuleMap(&rules))?;
        s.serialize_field("sources", &sources_of(&rules))?;
        s.end()
    }
}

/// The listener items of a report, as a JSON list.
pub(crate) struct ListenerItems<'r, 's, 'm>(pub(crate) &'r EffectiveReport<'s, 'm>);

impl Serialize for ListenerItems<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.listeners.len()))?;
        for item in &self.0.listeners {
            seq.serialize_element(&ListenerView {
                model: self.0.model,
                item,
            })?;
        }
        seq.end()
    }
}

struct Items<'r, 's, 'm>(&'r EffectiveReport<'s, 'm>);

impl Serialize for Items<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let owned = crate::report::owned::count(&self.0.owned);
        let mut seq = serializer.serialize_seq(Some(self.0.items.len() + owned))?;
        for item in self.0.items.iter() {
            seq.serialize_element(&ItemView {
                report: self.0,
                item: &item,
            })?;
        }
        for item in self.0.owned.iter().flat_map(|o| &o.items) {
            seq.serialize_element(&OwnedItemView(self.0.model, item))?;
        }
        seq.end()
    }
}

impl Serialize for EffectiveReport<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("EffectivePolicyList", 4)?;
        s.serialize_field("apiVersion", crate::report::API_VERSION)?;
        s.serialize_field("kind", "EffectivePolicyList")?;
        s.serialize_field("items", &Items(self))?;
        if self.listeners.is_empty() {
            s.skip_field("listeners")?;
        } else {
            s.serialize_field("listeners", &ListenerItems(self))?;
        }
        s.end()
    }
}
