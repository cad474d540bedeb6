//! Paths a family builds over a hierarchy of its own.
//!
//! The Gateway API hierarchy (GatewayClass → Gateway → listener → route → rule, see
//! [`crate::topology`]) is the one most families attach to, and the engine folds its paths for
//! them. A family whose policies configure something else — Kuma's policies configure proxies,
//! per destination and per inbound (docs/families.md, "Kuma") — brings its own hierarchy: it
//! builds its paths, orders and merges their contributions itself, and hands the reports the
//! result in the shape below. The reports know nothing of the hierarchy beyond what it declares:
//! its table columns ([`OwnedPaths::columns`]), its filters ([`OwnedFilter`]), and per path an
//! opaque id with one display segment per column: they read it through the
//! [`Hierarchy`] interface ([`OwnedPaths::hierarchy`]), as they read the Gateway API's.

use crate::kinds::PolicyKind;
use crate::topology::element::{ElementId, ElementKind};
use crate::topology::hierarchy::{Hierarchy, HierarchyFilter, Level};
use serde_json::Value as Json;

/// A filter flag a hierarchy answers (`--mesh`, `--dataplane`), and the segment it tests: the
/// filters of every hierarchy are one type ([`HierarchyFilter`]).
pub type OwnedFilter = HierarchyFilter;

/// Every path of one family's own hierarchy, with its effective policies.
#[derive(Debug, Default)]
pub struct OwnedPaths {
    /// The hierarchy's name, for headings (`mesh`).
    pub name: &'static str,
    /// Its levels, least specific first (`Mesh`, `Dataplane`, ...): the elements of a path are
    /// the nodes of [`OwnedPaths::tree`] from a root down to the node that lists the path.
    pub levels: &'static [Level],
    /// The column headings of its path tables, one per segment (`MESH`, `DATAPLANE`, ...).
    pub columns: &'static [&'static str],
    /// The filters it answers.
    pub filters: &'static [OwnedFilter],
    /// The effective policy of every path and kind that has one, sorted by path id, then by
    /// the kind's position in the registry.
    pub items: Vec<OwnedItem>,
    /// The elements of the hierarchy as a tree, for `dopol topology`.
    pub tree: Vec<OwnedNode>,
    /// How the hierarchy was built where the input left a choice (Kuma: how the local zone
    /// was chosen), printed at `-v`; empty when the input has nothing of the hierarchy.
    pub notes: Vec<String>,
}

/// The effective policy of one kind on one path of an owned hierarchy.
#[derive(Debug, Clone)]
pub struct OwnedItem {
    /// The path id (opaque to the reports; unique per kind).
    pub path_id: String,
    /// One display value per [`OwnedPaths::columns`] entry.
    pub segments: Vec<String>,
    /// The policy kind.
    pub kind: &'static PolicyKind,
    /// The effective rules, sorted by key.
    pub rules: Vec<OwnedRule>,
    /// The values that lost on this path (for `overridden` and rule outcomes).
    pub lost: Vec<OwnedLoss>,
    /// Family fields printed after `rules` and `sources` in JSON items, in order
    /// (`mergedFrom`, `conf`, `fallbackFrom`).
    pub extra: Vec<(&'static str, Json)>,
    /// Every policy that takes part on this path (index into `Model::policies`), highest
    /// priority first.
    pub policies: Vec<u32>,
    /// How the value came about, for `dopol explain`.
    pub explanation: OwnedExplanation,
}

/// One effective rule of an owned path.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedRule {
    /// The rule key (a dotted leaf path, `http.requestTimeout`).
    pub key: String,
    /// The value, as the controller would apply it.
    pub value: Json,
    /// The policy that gave it (index into `Model::policies`).
    pub source: u32,
    /// Every policy that contributed, highest priority first (`[source]` for a value taken
    /// whole from one policy).
    pub origins: Vec<u32>,
}

/// A value a policy set on a path that a later one replaced.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedLoss {
    /// The rule key.
    pub key: String,
    /// The value that lost.
    pub value: Json,
    /// The policy that set it.
    pub policy: u32,
    /// The policy whose value is effective.
    pub winner: u32,
}

/// How an owned path's value came about: the ordered contributions and each merge step.
#[derive(Debug, Clone, Default)]
pub struct OwnedExplanation {
    /// What orders the contributions, for the heading.
    pub order: String,
    /// The columns of each contribution's sort key (`top`, `origin`, `role`, `to`, `name`).
    pub key_columns: Vec<&'static str>,
    /// The contributions, lowest priority first (the order they are merged in).
    pub steps: Vec<OwnedStep>,
    /// Further remarks (a fallback chain tried, a tie broken by dopol).
    pub notes: Vec<String>,
}

/// One contribution to an owned path and what merging it did.
#[derive(Debug, Clone, Default)]
pub struct OwnedStep {
    /// The policy.
    pub policy: u32,
    /// Which part of it (`to[0]`, `rules[1]`, `default`).
    pub entry: String,
    /// Its sort key, one value per [`OwnedExplanation::key_columns`] entry.
    pub key: Vec<String>,
    /// Why it is relevant to this path (`Mesh`, `whole service`, `exact`).
    pub relevance: String,
    /// The rule keys it set for the first time.
    pub added: Vec<String>,
    /// The rule keys whose earlier value it replaced.
    pub replaced: Vec<String>,
}

/// One element of an owned hierarchy's tree (`dopol topology`).
#[derive(Debug, Clone, Default)]
pub struct OwnedNode {
    /// What it is (`Mesh`, `Dataplane`, `inbound`, `outbound`).
    pub kind: String,
    /// Its name.
    pub name: String,
    /// The policies attached to or selecting it (index into `Model::policies`).
    pub policies: Vec<u32>,
    /// Its children.
    pub children: Vec<OwnedNode>,
    /// The ids of the paths ending at it (so that `topology` keeps, under the hierarchy's
    /// filters, the elements of the paths they show).
    pub paths: Vec<String>,
}

impl OwnedPaths {
    /// Its paths as a [`Hierarchy`]: one path per path id, in item order.
    pub fn hierarchy(&self) -> OwnedHierarchy<'_> {
        let mut firsts: Vec<u32> = Vec::new();
        for (index, item) in self.items.iter().enumerate() {
            let last = firsts.last().map(|&f| &self.items[f as usize].path_id);
            if last != Some(&item.path_id) {
                firsts.push(index as u32);
            }
        }
        OwnedHierarchy {
            paths: self,
            firsts,
        }
    }
}

/// The paths of an owned hierarchy, one per path id (its items, one per kind, are
/// consecutive: they are sorted by path id).
pub struct OwnedHierarchy<'a> {
    paths: &'a OwnedPaths,
    /// The first item of each path.
    firsts: Vec<u32>,
}

impl OwnedHierarchy<'_> {
    /// The first item of path `path`.
    fn item(&self, path: usize) -> &OwnedItem {
        &self.paths.items[self.firsts[path] as usize]
    }
}

/// The nodes from one of `nodes` down to the one listing path `id`, pushed on `above`.
fn node_chain<'t>(nodes: &'t [OwnedNode], id: &str, above: &mut Vec<&'t OwnedNode>) -> bool {
    for node in nodes {
        above.push(node);
        if node.paths.iter().any(|p| p == id) || node_chain(&node.children, id, above) {
            return true;
        }
        above.pop();
    }
    false
}

impl Hierarchy for OwnedHierarchy<'_> {
    fn name(&self) -> &'static str {
        self.paths.name
    }

    fn levels(&self) -> &'static [Level] {
        self.paths.levels
    }

    fn columns(&self) -> &'static [&'static str] {
        self.paths.columns
    }

    fn filters(&self) -> &[HierarchyFilter] {
        self.paths.filters
    }

    fn path_count(&self) -> usize {
        self.firsts.len()
    }

    /// Each node's key is the names from its root down, `|`-separated (`default|shop/web`).
    fn elements(&self, path: usize) -> Vec<ElementId> {
        let mut chain = Vec::new();
        node_chain(&self.paths.tree, &self.item(path).path_id, &mut chain);
        let mut key = String::new();
        (chain.into_iter())
            .map(|node| {
                if !key.is_empty() {
                    key.push('|');
                }
                key.push_str(&node.name);
                ElementId::new(ElementKind::Declared(node.kind.clone()), key.as_str())
            })
            .collect()
    }

    fn path_id(&self, path: usize) -> String {
        self.item(path).path_id.clone()
    }

    fn segments(&self, path: usize) -> Vec<String> {
        self.item(path).segments.clone()
    }
}
