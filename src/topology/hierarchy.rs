//! What a hierarchy declares to the reports: its levels, table columns, filters, and per path
//! its elements, id and display segments.
//!
//! A builder owns its paths' storage and answers for them through [`Hierarchy`]; the reports
//! read columns, filters and segments from it without knowing which hierarchy it is. The Gateway
//! API builder ([`super::gateway_api::GatewayApi`]) keeps its paths as four indices and a chain
//! and derives the rest on demand; a family with a hierarchy of its own hands its paths over
//! built ([`crate::engine::owned::OwnedPaths`]). A path's element count may vary: a level can
//! be optional or repeat ([`Occurs`]), as route and rule do along a delegation chain, so a
//! builder can add a level (a ListenerSet between Gateway and listener) without touching the
//! reports.
//!
//! A filter flag answers one question of every hierarchy: a path passes when the hierarchy
//! declares the flag and the flag's pattern matches ([`HierarchyFilter`]); a flag a hierarchy
//! does not declare hides all of its paths (`--mesh` hides every Gateway API path, `--gateway`
//! every mesh path).

use super::element::{ElementGraph, ElementId};
use crate::model::gateway::Route;

/// How often a level's elements occur on one path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occurs {
    /// Exactly once.
    Once,
    /// Once or not at all.
    Optional,
    /// Once or more, in turn with the next repeated level (a delegation chain's routes and
    /// rules).
    Repeated,
}

/// A level of a hierarchy: what its elements are and how often a path has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// What its elements are (`Gateway`, `route rule`, `Dataplane`).
    pub name: &'static str,
    /// How often a path has one.
    pub occurs: Occurs,
}

/// How a filter's pattern is compared with a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matching {
    /// `[ns/]name` against the filter's segment (`ns/name`, or a plain name that must equal
    /// the pattern).
    Name,
    /// `[ns/]name`, optionally with `[Kind]`, against every route on the path: its leaf route
    /// and each route of its delegation chain.
    RouteOnPath,
}

/// A filter flag a hierarchy answers (`--gateway`, `--dataplane`), and what it tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HierarchyFilter {
    /// The flag, without dashes (`dataplane`).
    pub flag: &'static str,
    /// The display segment (and table column) it is about.
    pub segment: usize,
    /// How its pattern matches.
    pub matching: Matching,
}

impl HierarchyFilter {
    /// A flag matching `[ns/]name` against segment `segment`.
    pub const fn by_name(flag: &'static str, segment: usize) -> HierarchyFilter {
        HierarchyFilter {
            flag,
            segment,
            matching: Matching::Name,
        }
    }
}

/// A hierarchy's paths, as the reports read them.
pub trait Hierarchy {
    /// The hierarchy's name, for headings (`Gateway API`, `mesh`).
    fn name(&self) -> &'static str;
    /// Its levels, least specific first.
    fn levels(&self) -> &'static [Level];
    /// The column headings of its path tables, one per display segment.
    fn columns(&self) -> &'static [&'static str];
    /// The filters it answers.
    fn filters(&self) -> &[HierarchyFilter];
    /// How many paths it has.
    fn path_count(&self) -> usize;
    /// The elements of path `path`, least specific first (their number may differ from path to
    /// path).
    fn elements(&self, path: usize) -> Vec<ElementId>;
    /// The id of path `path`.
    fn path_id(&self, path: usize) -> String;
    /// The display segments of path `path`, one per column.
    fn segments(&self, path: usize) -> Vec<String>;
    /// The edges links contribute (a route rule → a route it delegates to), parent first.
    fn links(&self) -> Vec<(ElementId, ElementId)> {
        Vec::new()
    }
    /// The graph of its elements: the edges its paths traverse and its links' (built on
    /// demand, from every path's elements).
    fn graph(&self) -> ElementGraph {
        ElementGraph::new(
            self.links(),
            (0..self.path_count()).map(|path| self.elements(path)),
        )
    }
    /// Whether path `path` is in namespace `namespace` (for `-n`): by default, whether one of
    /// its `ns/name` segments is.
    fn in_namespace(&self, path: usize, namespace: &str) -> bool {
        segments_in_namespace(&self.segments(path), namespace)
    }
    /// Whether `pattern`, given to `filter` (one of [`Hierarchy::filters`]), matches path `path`:
    /// by default, its [`Matching`] against the filter's segment.
    fn filter_matches(&self, path: usize, filter: &HierarchyFilter, pattern: &str) -> bool {
        segment_filter_matches(&self.segments(path), filter, pattern)
    }
}

/// Whether one of `segments` is an `ns/name` in `namespace`.
pub fn segments_in_namespace(segments: &[String], namespace: &str) -> bool {
    (segments.iter())
        .filter_map(|s| s.split_once('/'))
        .any(|(ns, _)| ns == namespace)
}

/// Whether `pattern` matches `filter`'s segment among `segments`.
pub fn segment_filter_matches(
    segments: &[String],
    filter: &HierarchyFilter,
    pattern: &str,
) -> bool {
    let pattern = match filter.matching {
        Matching::Name => pattern,
        Matching::RouteOnPath => route_pattern(pattern).0,
    };
    (segments.get(filter.segment)).is_some_and(|s| segment_matches(s, pattern))
}

/// Whether a path segment (`ns/name` or a plain name) matches a `[ns/]name` pattern.
pub fn segment_matches(segment: &str, pattern: &str) -> bool {
    match segment.split_once('/') {
        Some((namespace, name)) => matches_name(pattern, namespace, name),
        None => segment == pattern,
    }
}

/// Whether `[ns/]name` names the object `namespace/name`.
pub fn matches_name(pattern: &str, namespace: &str, name: &str) -> bool {
    match pattern.split_once('/') {
        Some((ns, n)) => ns == namespace && n == name,
        None => pattern == name,
    }
}

/// A `--route` pattern without its `[Kind]` suffix (path ids write `ns/name[GRPCRoute]` for a
/// route sharing its namespace and name with a route of an earlier kind), and that kind.
pub fn route_pattern(pattern: &str) -> (&str, Option<&str>) {
    match pattern.strip_suffix(']').and_then(|p| p.rsplit_once('[')) {
        Some((name, kind)) => (name, Some(kind)),
        None => (pattern, None),
    }
}

/// Whether a `--route` pattern (`name`, `ns/name`, either with `[Kind]`) names `route`.
pub fn matches_route(pattern: &str, route: &Route) -> bool {
    let (name, kind) = route_pattern(pattern);
    kind.is_none_or(|k| k == route.kind.as_str())
        && matches_name(name, &route.namespace, &route.name)
}
