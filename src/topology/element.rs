//! The typed elements hierarchies are made of, and the graph they form.
//!
//! Every hierarchy dopol evaluates — the Gateway API's (GatewayClass → Gateway → listener →
//! route → route rule) and those families build themselves (Kuma's Mesh → Dataplane →
//! inbound/outbound) — is a set of typed elements with edges between them. A path is a sequence
//! of elements, least specific first (`Hierarchy::elements`); the graph (`Hierarchy::graph`) is
//! what the paths of a hierarchy traverse, with the edges a link contributes (kgateway's route
//! delegation: a route rule → the route it hands its traffic to) typed apart from containment.
//!
//! Elements are derived on demand from a builder's compact storage (the 49 MB benchmark has
//! 360,000 Gateway API paths: they are kept as indices, never as element lists).

use crate::model::gateway::RouteKind;
use rustc_hash::FxHashMap;
use std::fmt;

/// What an element is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElementKind {
    /// A GatewayClass (named by the Gateways that use it).
    GatewayClass,
    /// A Gateway.
    Gateway,
    /// A ListenerSet joined to a Gateway (`infra/gw>team/ext`), between it and its listeners.
    ListenerSet,
    /// A listener of a Gateway (its own, or one a ListenerSet added).
    Listener,
    /// A route of a kind.
    Route(RouteKind),
    /// A rule of a route of a kind.
    RouteRule(RouteKind),
    /// A kind a family declares for a hierarchy of its own (`Mesh`, `Dataplane`, `outbound`).
    Declared(String),
}

impl ElementKind {
    /// The kind's name (`Gateway`, `HTTPRoute`, `HTTPRoute rule`, `Mesh`).
    pub fn name(&self) -> String {
        match self {
            ElementKind::GatewayClass => "GatewayClass".to_string(),
            ElementKind::Gateway => "Gateway".to_string(),
            ElementKind::ListenerSet => "ListenerSet".to_string(),
            ElementKind::Listener => "listener".to_string(),
            ElementKind::Route(kind) => kind.as_str().to_string(),
            ElementKind::RouteRule(kind) => format!("{} rule", kind.as_str()),
            ElementKind::Declared(name) => name.clone(),
        }
    }
}

/// One element: its kind and an identity that is stable across runs and unique among the
/// elements of its kind (`infra/gw`, `infra/gw#http`, `shop/api#rule-1`, for a family's element
/// the names from its root down, `default|shop/web|outbound:...`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ElementId {
    /// What it is.
    pub kind: ElementKind,
    /// Who it is.
    pub key: String,
}

impl ElementId {
    /// An element of `kind` named `key`.
    pub fn new(kind: ElementKind, key: impl Into<String>) -> ElementId {
        ElementId {
            kind,
            key: key.into(),
        }
    }
}

impl fmt::Display for ElementId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.key)
    }
}

/// What an edge says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    /// The child belongs to or is attached beneath the parent (a listener of a Gateway, a route
    /// accepted by a listener, a rule of a route).
    Contains,
    /// A link a family contributes: the parent (a route rule) hands its traffic to the child
    /// (a route), as kgateway's delegation does.
    Link,
}

/// The elements of a hierarchy and the typed edges between them.
#[derive(Debug, Default)]
pub struct ElementGraph {
    /// Every element, in the order first met (paths in order, each least specific first).
    elements: Vec<ElementId>,
    /// Where each element is in `elements`.
    index: FxHashMap<ElementId, u32>,
    /// Edges `(parent, child, kind)`, sorted and unique.
    edges: Vec<(u32, u32, EdgeKind)>,
}

impl ElementGraph {
    /// The graph `paths` traverse (each a sequence of elements, least specific first): an edge
    /// between each two consecutive elements of a path, a link's kind where `links` has that
    /// edge (containment otherwise), and every edge of `links`.
    pub fn new(
        links: Vec<(ElementId, ElementId)>,
        paths: impl Iterator<Item = Vec<ElementId>>,
    ) -> ElementGraph {
        let mut graph = ElementGraph::default();
        let mut linked = rustc_hash::FxHashSet::default();
        for (parent, child) in links {
            let edge = (graph.add(parent), graph.add(child));
            linked.insert(edge);
            graph.edges.push((edge.0, edge.1, EdgeKind::Link));
        }
        for path in paths {
            let ids: Vec<u32> = path.into_iter().map(|e| graph.add(e)).collect();
            for pair in ids.windows(2) {
                let kind = match linked.contains(&(pair[0], pair[1])) {
                    true => EdgeKind::Link,
                    false => EdgeKind::Contains,
                };
                graph.edges.push((pair[0], pair[1], kind));
            }
        }
        graph.edges.sort_unstable();
        graph.edges.dedup();
        graph
    }

    /// The number of `id`, adding it when new.
    fn add(&mut self, id: ElementId) -> u32 {
        if let Some(&at) = self.index.get(&id) {
            return at;
        }
        let at = self.elements.len() as u32;
        self.elements.push(id.clone());
        self.index.insert(id, at);
        at
    }

    /// Every element, in the order first met.
    pub fn elements(&self) -> &[ElementId] {
        &self.elements
    }

    /// Whether the graph has `id`.
    pub fn contains(&self, id: &ElementId) -> bool {
        self.index.contains_key(id)
    }

    /// The elements directly beneath `id`, with the kind of each edge, in element order.
    pub fn children(&self, id: &ElementId) -> Vec<(&ElementId, EdgeKind)> {
        self.neighbours(id, true)
    }

    /// The elements directly above `id`, with the kind of each edge, in element order.
    pub fn parents(&self, id: &ElementId) -> Vec<(&ElementId, EdgeKind)> {
        self.neighbours(id, false)
    }

    /// The elements beneath (`below`) or above `id`, with the kind of each edge.
    fn neighbours(&self, id: &ElementId, below: bool) -> Vec<(&ElementId, EdgeKind)> {
        let Some(&at) = self.index.get(id) else {
            return Vec::new();
        };
        let ends = |e: &(u32, u32, EdgeKind)| if below { (e.0, e.1) } else { (e.1, e.0) };
        let mut found: Vec<(u32, EdgeKind)> = (self.edges.iter())
            .filter(|e| ends(e).0 == at)
            .map(|e| (ends(e).1, e.2))
            .collect();
        found.sort_unstable();
        (found.into_iter())
            .map(|(other, kind)| (&self.elements[other as usize], kind))
            .collect()
    }

    /// The elements nothing is above (GatewayClasses, Meshes), in element order.
    pub fn roots(&self) -> Vec<&ElementId> {
        let mut has_parent = vec![false; self.elements.len()];
        for edge in &self.edges {
            has_parent[edge.1 as usize] = true;
        }
        (self.elements.iter().zip(has_parent))
            .filter(|(_, above)| !above)
            .map(|(e, _)| e)
            .collect()
    }
}
