//! `dopol effective --uncovered`: the paths with no effective policy of some kinds, e.g. the
//! routes no AuthPolicy protects. A path that lacks a kind vanishes from `EffectivePolicyList`,
//! so its absence is listed here as data of its own (`UncoveredPathList`).

use crate::engine::{EffectiveSet, Engine};
use crate::model::Model;
use crate::policy::PolicyKind;
use crate::report::filter::Filters;
use crate::report::path_fields::PathFields;
use crate::topology::{PathId, Topology};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// A path and the kinds it has no effective policy of.
#[derive(Clone, Debug)]
pub struct UncoveredPath<'m> {
    /// Index into `Topology::paths`.
    pub path: u32,
    /// The path id.
    pub path_id: PathId<'m>,
    /// Kinds without an effective policy on the path, in registry order.
    pub missing: Vec<&'static PolicyKind>,
}

/// `UncoveredPathList`.
pub struct UncoveredReport<'m> {
    /// Uncovered paths in path order.
    pub items: Vec<UncoveredPath<'m>>,
    /// The kinds that were checked, in registry order.
    pub kinds: Vec<&'static PolicyKind>,
    model: &'m Model,
    topology: &'m Topology,
}

/// The kinds `--uncovered` checks: those given with `--kind`, else every kind of which the
/// input has at least one policy (a kind nobody uses would list every path). Never a kind of a
/// family that builds its own hierarchy: its paths exist only where its policies are, and a
/// Gateway API path cannot lack it.
pub fn checked_kinds(engine: &Engine<'_>, filters: &Filters) -> Vec<&'static PolicyKind> {
    let model = engine.model;
    model
        .registry
        .kinds()
        .enumerate()
        .filter(|(index, _)| engine.evaluator(*index).owned_paths().is_none())
        .map(|(_, kind)| kind)
        .filter(|k| {
            if filters.kinds.is_empty() {
                model.policies.iter().any(|p| std::ptr::eq(p.kind, *k))
            } else {
                filters.shows_kind(k)
            }
        })
        .collect()
}

/// For every path shown by the filters, which of `kinds` (registry order) it lacks; paths
/// lacking none are left out.
pub fn missing_kinds<'m>(
    engine: &Engine<'m>,
    set: &EffectiveSet<'m>,
    filters: &Filters,
    kinds: &[&'static PolicyKind],
) -> Vec<UncoveredPath<'m>> {
    let model = engine.model;
    let topology = engine.topology;
    let registry = &model.registry;
    let wanted: Vec<usize> = (0..registry.kind_count())
        .filter(|&k| kinds.iter().any(|w| std::ptr::eq(*w, registry.kind(k))))
        .collect();
    let mut covered = vec![Vec::new(); topology.paths.len()];
    for entry in &set.entries {
        covered[entry.path as usize].push(set.kind(entry));
    }
    filters
        .paths(model, topology)
        .filter_map(|path| {
            let missing: Vec<&'static PolicyKind> = wanted
                .iter()
                .filter(|k| !covered[path].contains(k))
                .map(|&k| registry.kind(k))
                .collect();
            (!missing.is_empty()).then(|| UncoveredPath {
                path: path as u32,
                path_id: topology.path_id(path),
                missing,
            })
        })
        .collect()
}

/// Builds the report: the paths shown by the filters that lack a checked kind.
pub fn build<'m>(
    engine: &Engine<'m>,
    set: &EffectiveSet<'m>,
    filters: &Filters,
) -> UncoveredReport<'m> {
    let kinds = checked_kinds(engine, filters);
    UncoveredReport {
        items: missing_kinds(engine, set, filters, &kinds),
        kinds,
        model: engine.model,
        topology: engine.topology,
    }
}

impl<'m> UncoveredReport<'m> {
    /// The parts of an item's path.
    pub fn fields(&self, item: &UncoveredPath<'m>) -> PathFields<'m> {
        PathFields::of(self.model, self.topology, item.path)
    }
}

/// A kind as `{policyKind, policyGroup}`.
struct KindRef(&'static PolicyKind);

impl Serialize for KindRef {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Kind", 2)?;
        s.serialize_field("policyKind", self.0.kind)?;
        s.serialize_field("policyGroup", self.0.group)?;
        s.end()
    }
}

struct ItemView<'r, 'm>(&'r UncoveredReport<'m>, &'r UncoveredPath<'m>);

impl Serialize for ItemView<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = self.0.fields(self.1);
        let missing: Vec<KindRef> = self.1.missing.iter().map(|k| KindRef(k)).collect();
        let mut s = serializer.serialize_struct("UncoveredPath", 6)?;
        s.serialize_field("pathId", &self.1.path_id)?;
        s.serialize_field("gateway", &fields.gateway)?;
        s.serialize_field("listener", fields.listener)?;
        s.serialize_field("route", &fields.route)?;
        s.serialize_field("rule", fields.rule)?;
        s.serialize_field("missing", &missing)?;
        s.end()
    }
}

impl Serialize for UncoveredReport<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let items: Vec<ItemView> = self.items.iter().map(|i| ItemView(self, i)).collect();
        let kinds: Vec<KindRef> = self.kinds.iter().map(|k| KindRef(k)).collect();
        let mut s = serializer.serialize_struct("UncoveredPathList", 4)?;
        s.serialize_field("apiVersion", crate::report::API_VERSION)?;
        s.serialize_field("kind", "UncoveredPathList")?;
        s.serialize_field("checkedKinds", &kinds)?;
        s.serialize_field("items", &items)?;
        s.end()
    }
}
