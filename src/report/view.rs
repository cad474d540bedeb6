//! `dopol view`: the data behind the one-page HTML view of the effective-policy stack.
//!
//! The page shows what the other reports compute, nothing new: the graph of every hierarchy
//! (the Gateway API paths' elements, delegation chains included, and the trees families build
//! themselves), the policies attached at each element, and per path its *stack* — the
//! `explain` account of each kind (`PathExplanation::kinds`) and the `overridden` rows of the
//! path (who lost which rule, to whom). The effective values themselves are the
//! `EffectivePolicyIndex` (`effective -o json --compact`), embedded whole beside this data.
//!
//! Big inputs repeat the same stack on many paths (every rule of a route under the same
//! policies): stacks are serialized once each and paths refer to them by number, as the
//! compact index does for effective policies.

use super::explain::{explain_owned, explain_path};
use super::filter::Filters;
use super::overridden::{LostRule, lost_rules};
use crate::engine::Engine;
use crate::engine::observed::Observed;
use crate::policy::owned::OwnedNode;
use crate::topology::element::{ElementId, ElementKind};
use crate::topology::gateway_api::GatewayApi;
use crate::topology::hierarchy::Hierarchy;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;
use serde_json::value::RawValue;

/// A policy of the input, as the page names and colours it.
#[derive(Debug, Serialize)]
pub struct ViewPolicy {
    /// Its locator (`authpolicy.kuadrant.io:shop/cart-auth`).
    pub locator: String,
    /// Its kind.
    pub kind: &'static str,
    /// Its family (`kuadrant`): the badge's colour.
    pub family: &'static str,
    /// `ns/name`.
    pub name: String,
    /// Whether its status says another policy holds its target (Envoy Gateway's `Conflicted`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub conflicted: bool,
}

/// One element of a hierarchy, serialized as `[kind, name, parent, policies, paths]`: `parent`
/// is the index of its parent node (-1 for a root), `policies` the indices into
/// [`ViewData::policies`] attached to it, `paths` the indices into [`ViewData::paths`] of the
/// paths ending at it.
#[derive(Debug, Serialize)]
pub struct Node(pub String, pub String, pub i64, pub Vec<u32>, pub Vec<u32>);

/// A rule of a policy that lost on a path: `overridden`'s item without its path list.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, Hash)]
pub struct LostRow {
    /// Locator of the policy that lost.
    pub policy: String,
    /// Its block (`bare`, `defaults`, `overrides`, `spec`).
    pub block: &'static str,
    /// The rule key.
    pub key: String,
    /// `superseded`, `overridden`, `deactivated`, `tie` or `not-applied`.
    pub outcome: &'static str,
    /// The policies that decided it.
    pub by: Vec<String>,
    /// For `not-applied`: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl LostRow {
    fn of(rule: &LostRule<'_>) -> LostRow {
        LostRow {
            policy: rule.policy.clone(),
            block: rule.block,
            key: rule.key.clone(),
            outcome: rule.outcome,
            by: rule.by.clone(),
            reason: rule.reason.clone(),
        }
    }
}

/// Everything the page shows but the effective values.
#[derive(Serialize)]
pub struct ViewData {
    /// Every policy of the input, in model order.
    pub policies: Vec<ViewPolicy>,
    /// The elements of every hierarchy, a parent before its children.
    pub nodes: Vec<Node>,
    /// `[path id, folds, lost]` per path (the Gateway API paths, then the owned ones): the
    /// numbers of its kinds' explanations in [`ViewData::folds`], in kind order, and of its
    /// lost rows in [`ViewData::lost`].
    pub paths: Vec<(String, Vec<u32>, u32)>,
    /// The distinct explanations of one kind on a path (`explain`'s kind, without the running
    /// effective policy after each step), each serialized once: paths with the same policies
    /// share one, as they share the engine's fold.
    pub folds: Vec<Box<RawValue>>,
    /// The distinct lists of lost rows of a path, each serialized once.
    pub lost: Vec<Box<RawValue>>,
}

/// Builds the view's data over the paths `filters` shows.
pub fn build(engine: &Engine<'_>, observed: &Observed<'_, '_>, filters: &Filters) -> ViewData {
    let model = engine.model;
    let policies = (0..model.policies.len() as u32)
        .map(|p| view_policy(observed, p))
        .collect();
    let (lost, owned_lost) = lost_by_path(engine, observed, filters);
    let mut graph = Graph::default();
    let gateway_api = GatewayApi::new(model, engine.topology);
    // One explanation per distinct fold, from its first path.
    let shared = engine.fold_distinct(|path, kind, _| {
        let kinds = explain_path(engine, path as usize, |k| k == kind).kinds;
        kinds.first().map(kind_text)
    });
    let numbers: Vec<Option<u32>> = (shared.results.into_iter())
        .map(|text| text.map(|t| graph.folds.add(t)))
        .collect();
    let mut entries = shared.entries.iter().peekable();
    for p in 0..gateway_api.path_count() {
        let mut folds = Vec::new();
        while let Some(entry) = entries.next_if(|e| e.path as usize == p) {
            folds.extend(numbers[entry.fold as usize]);
        }
        if !filters.shows_path(model, engine.topology, p as u32) {
            continue;
        }
        let rows = lost.get(&(p as u32)).map_or(&[][..], Vec::as_slice);
        let path = graph.add_path(gateway_api.path_id(p), folds, rows);
        graph.add_elements(engine, &gateway_api, p, path);
    }
    for paths in engine.owned() {
        let hierarchy = paths.hierarchy();
        let mut index: FxHashMap<String, u32> = FxHashMap::default();
        for p in (0..hierarchy.path_count()).filter(|&p| shows_owned(filters, paths, p)) {
            let id = hierarchy.path_id(p);
            let kinds = explain_owned(engine, &id, |_| true).map_or_else(Vec::new, |e| e.kinds);
            let folds = kinds
                .iter()
                .map(|k| graph.folds.add(kind_text(k)))
                .collect();
            let rows = owned_lost.get(&id).map_or(&[][..], Vec::as_slice);
            index.insert(id.clone(), graph.add_path(id, folds, rows));
        }
        for root in &paths.tree {
            graph.add_owned(root, -1, &index);
        }
    }
    ViewData {
        policies,
        nodes: graph.nodes,
        paths: graph.paths,
        folds: graph.folds.texts,
        lost: graph.lost.texts,
    }
}

/// One kind's explanation as the page reads it: compact JSON without each step's running
/// effective policy (the page shows the changes and the result, not every intermediate one).
fn kind_text(kind: &super::explain::KindExplanation) -> String {
    let mut value = serde_json::to_value(kind).unwrap_or_default();
    if let Some(steps) = value.get_mut("steps").and_then(|s| s.as_array_mut()) {
        for step in steps.iter_mut().filter_map(|s| s.as_object_mut()) {
            step.remove("effective");
        }
    }
    value.to_string()
}

/// Whether the filters show path `p` of an owned hierarchy (any of its items).
fn shows_owned(filters: &Filters, paths: &crate::policy::owned::OwnedPaths, p: usize) -> bool {
    let id = paths.hierarchy().path_id(p);
    (paths.items.iter())
        .filter(|i| i.path_id == id)
        .any(|i| filters.shows_owned(paths, i))
}

fn view_policy(observed: &Observed<'_, '_>, p: u32) -> ViewPolicy {
    let policy = &observed.engine.model.policies[p as usize];
    ViewPolicy {
        locator: policy.locator.clone(),
        kind: policy.kind.kind,
        family: policy.kind.family,
        name: format!("{}/{}", policy.namespace, policy.name),
        conflicted: crate::report::suite::check::conflicted(&observed.conditions(p)),
    }
}

/// The lost rows of every Gateway API path (by path index) and every owned path (by id):
/// `overridden`'s items turned around.
#[allow(clippy::type_complexity)]
fn lost_by_path(
    engine: &Engine<'_>,
    observed: &Observed<'_, '_>,
    filters: &Filters,
) -> (
    FxHashMap<u32, Vec<LostRow>>,
    FxHashMap<String, Vec<LostRow>>,
) {
    let rules: Vec<Vec<LostRule<'_>>> = (0..engine.model.policies.len() as u32)
        .into_par_iter()
        .map(|p| lost_rules(observed, filters, p))
        .collect();
    let mut by_path: FxHashMap<u32, Vec<LostRow>> = FxHashMap::default();
    let mut by_owned: FxHashMap<String, Vec<LostRow>> = FxHashMap::default();
    for rule in rules.iter().flatten() {
        let row = LostRow::of(rule);
        for &path in &rule.paths {
            by_path.entry(path).or_default().push(row.clone());
        }
        for id in &rule.owned_path_ids {
            by_owned.entry(id.clone()).or_default().push(row.clone());
        }
    }
    (by_path, by_owned)
}

/// The graph as it is built: nodes by identity under their parent, stacks by their text.
/// Texts numbered by first appearance, each kept once.
#[derive(Default)]
struct Interned {
    texts: Vec<Box<RawValue>>,
    number_of: FxHashMap<String, u32>,
}

impl Interned {
    /// The number of `text` (JSON), added when new.
    fn add(&mut self, text: String) -> u32 {
        if let Some(&n) = self.number_of.get(&text) {
            return n;
        }
        let n = self.texts.len() as u32;
        let raw = RawValue::from_string(text.clone()).unwrap_or_else(|_| null());
        self.texts.push(raw);
        self.number_of.insert(text, n);
        n
    }
}

/// The graph as it is built: nodes by identity under their parent; explanations and lost
/// rows by their text.
#[derive(Default)]
struct Graph {
    nodes: Vec<Node>,
    paths: Vec<(String, Vec<u32>, u32)>,
    folds: Interned,
    lost: Interned,
    node_of: FxHashMap<(i64, ElementId), u32>,
}

impl Graph {
    /// Adds a path with its explanations and lost rows; its number.
    fn add_path(&mut self, id: String, folds: Vec<u32>, lost: &[LostRow]) -> u32 {
        let lost = self
            .lost
            .add(serde_json::to_string(lost).unwrap_or_else(|_| "[]".into()));
        self.paths.push((id, folds, lost));
        self.paths.len() as u32 - 1
    }

    /// Adds the elements of Gateway API path `p` (numbered `path`) under one another, with the
    /// policies attached to each.
    fn add_elements(
        &mut self,
        engine: &Engine<'_>,
        hierarchy: &GatewayApi<'_>,
        p: usize,
        path: u32,
    ) {
        let topology = engine.topology;
        let mut targets = topology.elements(&topology.paths[p]).into_iter();
        let mut parent = -1i64;
        for element in hierarchy.elements(p) {
            let modelled = !matches!(
                element.kind,
                ElementKind::GatewayClass | ElementKind::ListenerSet
            );
            let target = if modelled { targets.next() } else { None };
            let key = (parent, element);
            let node = match self.node_of.get(&key) {
                Some(&n) => n,
                None => {
                    let policies = target.map_or_else(Vec::new, |t| attached(engine, t));
                    let n = self.nodes.len() as u32;
                    let (kind, name) = (key.1.kind.name(), key.1.key.clone());
                    self.nodes
                        .push(Node(kind, name, parent, policies, Vec::new()));
                    self.node_of.insert(key, n);
                    n
                }
            };
            parent = node as i64;
        }
        if let Some(last) = self.nodes.get_mut(parent as usize) {
            last.4.push(path);
        }
    }

    /// Adds an owned tree's node and its children under `parent`.
    fn add_owned(&mut self, node: &OwnedNode, parent: i64, index: &FxHashMap<String, u32>) {
        let paths = (node.paths.iter()).filter_map(|id| index.get(id).copied());
        let n = self.nodes.len() as i64;
        self.nodes.push(Node(
            node.kind.clone(),
            node.name.clone(),
            parent,
            node.policies.clone(),
            paths.collect(),
        ));
        for child in &node.children {
            self.add_owned(child, n, index);
        }
    }
}

/// The policies of every kind attached to `target`, in kind order.
fn attached(engine: &Engine<'_>, target: crate::topology::targets::Target) -> Vec<u32> {
    let kinds = engine.model.registry.kinds().count();
    (0..kinds)
        .flat_map(|k| engine.topology.targets.on(target, k).iter().copied())
        .collect()
}

fn null() -> Box<RawValue> {
    RawValue::from_string("null".into()).expect("null is JSON")
}
