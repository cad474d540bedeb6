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

/// One path's stack: each kind's `explain` account and the rules that lost there.
#[derive(Serialize)]
struct Stack<'a> {
    kinds: &'a [super::explain::KindExplanation],
    lost: &'a [LostRow],
}

/// Everything the page shows but the effective values.
#[derive(Serialize)]
pub struct ViewData {
    /// Every policy of the input, in model order.
    pub policies: Vec<ViewPolicy>,
    /// The elements of every hierarchy, a parent before its children.
    pub nodes: Vec<Node>,
    /// `[path id, stack number]` per path: the Gateway API paths, then the owned ones.
    pub paths: Vec<(String, u32)>,
    /// The distinct stacks, each serialized once.
    pub stacks: Vec<Box<RawValue>>,
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
    let shown: Vec<usize> = (0..gateway_api.path_count())
        .filter(|&p| filters.shows_path(model, engine.topology, p as u32))
        .collect();
    let explained: Vec<String> = shown
        .par_iter()
        .map(|&p| {
            let kinds = explain_path(engine, p, |_| true).kinds;
            stack_text(&kinds, lost.get(&(p as u32)).map_or(&[], Vec::as_slice))
        })
        .collect();
    for (&p, text) in shown.iter().zip(explained) {
        let path = graph.add_path(gateway_api.path_id(p), text);
        graph.add_elements(engine, &gateway_api, p, path);
    }
    for paths in engine.owned() {
        let hierarchy = paths.hierarchy();
        let mut index: FxHashMap<String, u32> = FxHashMap::default();
        for p in (0..hierarchy.path_count()).filter(|&p| shows_owned(filters, paths, p)) {
            let id = hierarchy.path_id(p);
            let kinds = explain_owned(engine, &id, |_| true).map_or_else(Vec::new, |e| e.kinds);
            let text = stack_text(&kinds, owned_lost.get(&id).map_or(&[], Vec::as_slice));
            index.insert(id.clone(), graph.add_path(id, text));
        }
        for root in &paths.tree {
            graph.add_owned(root, -1, &index);
        }
    }
    ViewData {
        policies,
        nodes: graph.nodes,
        paths: graph.paths,
        stacks: graph.stacks,
    }
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

/// A stack as the page reads it (compact JSON).
fn stack_text(kinds: &[super::explain::KindExplanation], lost: &[LostRow]) -> String {
    serde_json::to_string(&Stack { kinds, lost }).unwrap_or_else(|_| "null".into())
}

/// The graph as it is built: nodes by identity under their parent, stacks by their text.
#[derive(Default)]
struct Graph {
    nodes: Vec<Node>,
    paths: Vec<(String, u32)>,
    stacks: Vec<Box<RawValue>>,
    node_of: FxHashMap<(i64, ElementId), u32>,
    stack_of: FxHashMap<String, u32>,
}

impl Graph {
    /// Adds a path and its stack (shared with the paths that have the same one); its number.
    fn add_path(&mut self, id: String, stack: String) -> u32 {
        let next = self.stacks.len() as u32;
        let number = match self.stack_of.get(&stack) {
            Some(&n) => n,
            None => {
                let raw = RawValue::from_string(stack.clone()).unwrap_or_else(|_| null());
                self.stacks.push(raw);
                self.stack_of.insert(stack, next);
                next
            }
        };
        self.paths.push((id, number));
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
