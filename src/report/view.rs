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
//! policies): a kind's explanation is computed once per distinct fold of the engine (paths with
//! the same policies share one), each distinct explanation and list of lost rows is serialized
//! once, and paths refer to them by number, as the compact index does for effective policies.
//! The element a policy is attached to on a path is read from the graph by the page, not from
//! the shared explanation (which names the first path's).

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

/// Everything the page shows but the effective values' bodies.
#[derive(Serialize)]
pub struct ViewData {
    /// Every policy of the input, in model order.
    pub policies: Vec<ViewPolicy>,
    /// The elements of every hierarchy, a parent before its children.
    pub nodes: Vec<Node>,
    /// `[folds, lost, effective]` per path (the Gateway API paths, then the owned ones): the
    /// numbers of its kinds' explanations in [`ViewData::folds`], in kind order, of
    /// its lost rows in [`ViewData::lost`], and of its effective policies (`p<N>` of the
    /// `EffectivePolicyIndex`).
    pub paths: Vec<(Vec<u32>, u32, Vec<u32>)>,
    /// `[path, id]` for each path whose id is not the names of its elements joined by `|`
    /// (for the others the page joins the names: on the benchmark corpus the ids were half
    /// the page's data, and none needed writing).
    pub path_ids: Vec<(u32, String)>,
    /// The distinct explanations of one kind on a path, each once ([`encode_kind`]): paths
    /// with the same policies share one, as they share the engine's fold.
    pub folds: Vec<Box<RawValue>>,
    /// Per explanation in [`ViewData::folds`], what the filters and the search read without
    /// reading the explanation: `[policy kind, [its policies, as indices into
    /// ViewData::policies]]`.
    pub fold_heads: Vec<(&'static str, Vec<u32>)>,
    /// The distinct lists of lost rows of a path, each once ([`encode_lost`]).
    pub lost: Vec<Box<RawValue>>,
    /// The strings the explanations and lost rows name, each once: they refer to them by
    /// index (-1 for none).
    pub strings: Vec<String>,
}

/// Builds the view's data over the paths `filters` shows.
pub fn build(
    engine: &Engine<'_>,
    observed: &Observed<'_, '_>,
    filters: &Filters,
    effective: &EffectiveNumbers<'_>,
) -> ViewData {
    let model = engine.model;
    let policies = (0..model.policies.len() as u32)
        .map(|p| view_policy(observed, p))
        .collect();
    let (rows, lost, owned_lost) = lost_by_path(engine, observed, filters);
    let mut graph = Graph {
        policy_number: (model.policies.iter().enumerate())
            .map(|(i, p)| (p.locator.as_str(), i as u32))
            .collect(),
        ..Graph::default()
    };
    let gateway_api = GatewayApi::new(model, engine.topology);
    // One explanation per distinct fold, from its first path.
    let shared = engine
        .fold_distinct(|path, kind, _| explain_path(engine, path as usize, |k| k == kind).kinds);
    // Each explanation is encoded, then dropped: only the encoding is kept.
    let numbers: Vec<Option<u32>> = (shared.results.into_iter())
        .map(|kinds| kinds.first().map(|k| graph.add_fold(k)))
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
        let numbers = effective
            .gateway_api
            .get(&(p as u32))
            .cloned()
            .unwrap_or_default();
        let path = graph.add_path(gateway_api.path_id(p), folds, rows, numbers);
        graph.add_elements(engine, &gateway_api, p, path);
    }
    for paths in engine.owned() {
        let hierarchy = paths.hierarchy();
        let mut index: FxHashMap<String, u32> = FxHashMap::default();
        for p in (0..hierarchy.path_count()).filter(|&p| shows_owned(filters, paths, p)) {
            let id = hierarchy.path_id(p);
            let kinds = explain_owned(engine, &id, |_| true).map_or_else(Vec::new, |e| e.kinds);
            let folds = kinds.iter().map(|k| graph.add_fold(k)).collect();
            let rows = owned_lost.get(&id).map_or(&[][..], Vec::as_slice);
            let numbers = effective
                .owned
                .get(id.as_str())
                .cloned()
                .unwrap_or_default();
            index.insert(id.clone(), graph.add_path(id, folds, rows, numbers));
        }
        for root in &paths.tree {
            graph.add_owned(root, -1, &index);
        }
    }
    let path_ids = graph.unjoined_ids();
    let lost = (graph.lost.texts.iter())
        .map(|list| {
            let rows = list.iter().map(|&r| &rows.texts[r as usize]);
            raw(encode_lost(rows, &mut graph.strings).to_string())
        })
        .collect();
    ViewData {
        policies,
        nodes: graph.nodes,
        paths: graph.paths,
        path_ids,
        folds: graph.folds.values,
        fold_heads: graph.fold_heads,
        lost,
        strings: graph.strings.texts,
    }
}

/// The numbers of the effective policies of each path, as `EffectivePolicyIndex` numbers
/// them (`p<N>`), in kind order: by Gateway API path index, and by owned path id.
#[derive(Default)]
pub struct EffectiveNumbers<'a> {
    /// Gateway API paths.
    pub gateway_api: FxHashMap<u32, Vec<u32>>,
    /// Paths of owned hierarchies.
    pub owned: FxHashMap<&'a str, Vec<u32>>,
}

/// An explanation of one kind, in positions, strings as numbers into [`ViewData::strings`]:
/// `[kind, policies, steps, effective, origins, notes]`; a policy `[position, policy, name,
/// target, level, creationTimestamp, blocks, why, defaulted]` (`defaulted` as in `explain -o
/// json`); a step `[position, policy, block, strategy, gep, summary, applied (0/1), reason,
/// changes]`, each change `[key, action, source, by]`; `effective` `[key, source]` pairs;
/// `origins` `[key, origins]`. Each step's running effective policy is left out (the page shows
/// the changes and the result).
fn encode_kind(
    kind: &super::explain::KindExplanation,
    strings: &mut Interned<String>,
) -> serde_json::Value {
    use serde_json::json;
    let mut s = |text: &str| strings.add(text.to_string());
    let policies: Vec<_> = (kind.policies.iter())
        .map(|p| {
            let created = p.created.as_deref().map_or(-1, |c| i64::from(s(c)));
            let blocks: Vec<u32> = p.blocks.iter().map(|b| s(b)).collect();
            json!([
                p.position,
                s(&p.policy),
                s(&p.name),
                s(&p.target),
                s(p.level),
                created,
                blocks,
                s(&p.why),
                p.defaulted
            ])
        })
        .collect();
    let steps: Vec<_> = (kind.steps.iter())
        .map(|step| {
            let changes: Vec<_> = (step.changes.iter())
                .map(|c| {
                    let by: Vec<u32> = c.by.iter().map(|b| s(b)).collect();
                    json!([s(&c.key), s(c.action), s(&c.source), by])
                })
                .collect();
            let reason = step.reason.as_deref().map_or(-1, |r| i64::from(s(r)));
            let gep = s(step.gep.name());
            json!([
                step.position,
                s(&step.policy),
                s(step.block),
                s(step.strategy),
                gep,
                s(&step.summary),
                u8::from(step.applied),
                reason,
                changes
            ])
        })
        .collect();
    let pairs = |list: &[(String, String)], s: &mut dyn FnMut(&str) -> u32| -> Vec<[u32; 2]> {
        list.iter().map(|(k, v)| [s(k), s(v)]).collect()
    };
    let effective = pairs(&kind.effective, &mut s);
    let origins: Vec<_> = (kind.origins.iter())
        .map(|o| {
            json!([
                s(&o.key),
                o.origins.iter().map(|x| s(x)).collect::<Vec<u32>>()
            ])
        })
        .collect();
    let notes: Vec<u32> = kind.notes.iter().map(|n| s(n)).collect();
    json!([
        s(kind.policy_kind),
        policies,
        steps,
        effective,
        origins,
        notes
    ])
}

/// A path's lost rows, strings as numbers into [`ViewData::strings`]: each `[policy, block,
/// key, outcome, by, reason]` (`reason` -1 when there is none).
fn encode_lost<'r>(
    rows: impl Iterator<Item = &'r LostRow>,
    strings: &mut Interned<String>,
) -> serde_json::Value {
    let mut s = |text: &str| strings.add(text.to_string());
    let rows: Vec<_> = rows
        .map(|r| {
            let by: Vec<u32> = r.by.iter().map(|b| s(b)).collect();
            let reason = r.reason.as_deref().map_or(-1, |x| i64::from(s(x)));
            serde_json::json!([
                s(&r.policy),
                s(r.block),
                s(&r.key),
                s(r.outcome),
                by,
                reason
            ])
        })
        .collect();
    serde_json::Value::Array(rows)
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

/// The lost rows of the input, each once, and the numbers of those of every Gateway API path
/// (by path index) and every owned path (by id): `overridden`'s items turned around.
#[allow(clippy::type_complexity)]
fn lost_by_path(
    engine: &Engine<'_>,
    observed: &Observed<'_, '_>,
    filters: &Filters,
) -> (
    Interned<LostRow>,
    FxHashMap<u32, Vec<u32>>,
    FxHashMap<String, Vec<u32>>,
) {
    let rules: Vec<Vec<LostRule<'_>>> = (0..engine.model.policies.len() as u32)
        .into_par_iter()
        .map(|p| lost_rules(observed, filters, p))
        .collect();
    let mut rows = Interned::default();
    let mut by_path: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut by_owned: FxHashMap<String, Vec<u32>> = FxHashMap::default();
    for rule in rules.iter().flatten() {
        let row = rows.add(LostRow::of(rule));
        for &path in &rule.paths {
            by_path.entry(path).or_default().push(row);
        }
        for id in &rule.owned_path_ids {
            by_owned.entry(id.clone()).or_default().push(row);
        }
    }
    (rows, by_path, by_owned)
}

/// The graph as it is built: nodes by identity under their parent, stacks by their text.
/// Values numbered by first appearance, each kept once.
struct Interned<T> {
    texts: Vec<T>,
    number_of: FxHashMap<T, u32>,
}

impl<T> Default for Interned<T> {
    fn default() -> Self {
        Interned {
            texts: Vec::new(),
            number_of: FxHashMap::default(),
        }
    }
}

impl<T: std::hash::Hash + Eq + Clone> Interned<T> {
    /// The number of `value`, added when new.
    fn add(&mut self, value: T) -> u32 {
        if let Some(&n) = self.number_of.get(&value) {
            return n;
        }
        let n = self.texts.len() as u32;
        self.texts.push(value.clone());
        self.number_of.insert(value, n);
        n
    }
}

/// Encoded explanations numbered by first appearance, each kept once, as JSON text (found
/// again by the hash of its text: the text is kept once).
#[derive(Default)]
struct Encoded {
    values: Vec<Box<RawValue>>,
    number_of: FxHashMap<u64, Vec<u32>>,
}

impl Encoded {
    /// The number of `value`, added when new; whether it was.
    fn add(&mut self, value: serde_json::Value) -> (u32, bool) {
        use std::hash::BuildHasher;
        let text = value.to_string();
        let hash = rustc_hash::FxBuildHasher.hash_one(text.as_str());
        let same = self.number_of.entry(hash).or_default();
        if let Some(&n) = (same.iter()).find(|&&n| self.values[n as usize].get() == text) {
            return (n, false);
        }
        let n = self.values.len() as u32;
        same.push(n);
        self.values.push(raw(text));
        (n, true)
    }
}

/// JSON text that serde_json wrote, kept as it is.
fn raw(text: String) -> Box<RawValue> {
    RawValue::from_string(text).unwrap_or_default()
}

/// The graph as it is built: nodes by identity under their parent; explanations, lost rows
/// and strings each once.
#[derive(Default)]
struct Graph<'m> {
    nodes: Vec<Node>,
    /// `[folds, lost, effective]` per path ([`ViewData::paths`]).
    paths: Vec<(Vec<u32>, u32, Vec<u32>)>,
    /// Each path's id, beside `paths`.
    ids: Vec<String>,
    folds: Encoded,
    fold_heads: Vec<(&'static str, Vec<u32>)>,
    /// The distinct lists of lost rows (numbers of rows), encoded once at the end.
    lost: Interned<Vec<u32>>,
    strings: Interned<String>,
    node_of: FxHashMap<(i64, ElementId), u32>,
    /// A policy's number in [`ViewData::policies`], by locator.
    policy_number: FxHashMap<&'m str, u32>,
}

impl Graph<'_> {
    /// Adds a path with its explanations, lost rows (their numbers) and effective policies;
    /// its number.
    fn add_path(&mut self, id: String, folds: Vec<u32>, lost: &[u32], effective: Vec<u32>) -> u32 {
        let lost = self.lost.add(lost.to_vec());
        self.paths.push((folds, lost, effective));
        self.ids.push(id);
        self.paths.len() as u32 - 1
    }

    /// `(path, id)` of each path whose id is not the names of its elements joined by `|`.
    fn unjoined_ids(&self) -> Vec<(u32, String)> {
        let mut joined_at = vec![false; self.ids.len()];
        for node in &self.nodes {
            if node.4.is_empty() {
                continue;
            }
            let mut names = vec![node.1.as_str()];
            let mut at = node.2;
            while let Some(parent) = usize::try_from(at).ok().and_then(|a| self.nodes.get(a)) {
                names.push(&parent.1);
                at = parent.2;
            }
            names.reverse();
            let joined = names.join("|");
            for &p in &node.4 {
                joined_at[p as usize] |= self.ids[p as usize] == joined;
            }
        }
        (self.ids.iter().enumerate())
            .filter(|&(p, _)| !joined_at[p])
            .map(|(p, id)| (p as u32, id.clone()))
            .collect()
    }

    /// The number of a kind's explanation, added when new (with its head).
    fn add_fold(&mut self, kind: &super::explain::KindExplanation) -> u32 {
        let encoded = encode_kind(kind, &mut self.strings);
        let (n, new) = self.folds.add(encoded);
        if new {
            let policies = (kind.policies.iter())
                .filter_map(|p| self.policy_number.get(p.policy.as_str()).copied())
                .collect();
            self.fold_heads.push((kind.policy_kind, policies));
        }
        n
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
