//! Where a change happens, said by the topology: "Gateway infra/public, all routes" instead of
//! 5,000 path ids.
//!
//! A set of paths is described against the *universe*, every path id of either side of a diff:
//! when the set holds every path of a Gateway, or of some of its listeners, that is what is
//! said; otherwise the routes (or, for a route only partly covered, its rules) are listed.
//! Working on path ids alone keeps this independent of the two sides' models, and linear in the
//! number of ids. The ids are read from their pieces ([`PathId::fields`]), never written out:
//! the names are borrowed from the pieces, so the universe holds no text of its own.

use crate::topology::PathId;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// A name read from a path id: borrowed from the id's pieces (written out only for the route
/// of a path through delegation, whose chain is a piece of its own).
pub type Part<'a> = Cow<'a, str>;

/// A path id's parts as a scope sees them: Gateway, listener name (`ns/set#name` for a
/// ListenerSet's), route (with its delegation chain, as in the id), rule name.
pub fn parts(id: PathId<'_>) -> [Part<'_>; 4] {
    match id.fields() {
        Some([_, gateway, listener, route, rule]) => [
            gateway.text(),
            // A ListenerSet's listener (`ns/gw>ns/set#name`) is `ns/set#name`, apart from the
            // Gateway's own listener of that name.
            (listener.after_first('>'))
                .map_or_else(|| listener.after_last('#').text(), |l| l.text()),
            route.text(),
            rule.after_last('#').text(),
        ],
        None => [id.to_string().into(), "".into(), "".into(), "".into()],
    }
}

/// A route under a listener of a Gateway.
type RouteKey<'a> = (Part<'a>, Part<'a>, Part<'a>);

/// How many paths of the universe each Gateway, listener and route (under a listener) has, and
/// their orders of first appearance.
#[derive(Debug, Default)]
pub struct Universe<'a> {
    gateways: FxHashMap<Part<'a>, usize>,
    listeners: FxHashMap<(Part<'a>, Part<'a>), usize>,
    routes: FxHashMap<RouteKey<'a>, usize>,
    /// Rank of each Gateway, listener and route by first appearance, for a stable order.
    rank: FxHashMap<Part<'a>, usize>,
}

impl<'a> Universe<'a> {
    /// Counts the paths of `ids` (each id once).
    pub fn new(ids: impl IntoIterator<Item = PathId<'a>>) -> Universe<'a> {
        let mut universe = Universe::default();
        for id in ids {
            let [gateway, listener, route, _] = parts(id);
            *universe.gateways.entry(gateway.clone()).or_default() += 1;
            *universe
                .listeners
                .entry((gateway.clone(), listener.clone()))
                .or_default() += 1;
            for name in [&gateway, &listener, &route] {
                if !universe.rank.contains_key(name) {
                    let next = universe.rank.len();
                    universe.rank.insert(name.clone(), next);
                }
            }
            *universe
                .routes
                .entry((gateway, listener, route))
                .or_default() += 1;
        }
        universe
    }

    fn rank(&self, name: &str) -> usize {
        self.rank.get(name).copied().unwrap_or(usize::MAX)
    }

    /// Describes a set of distinct path ids of the universe.
    pub fn scope(&self, ids: &[PathId<'a>]) -> Scope {
        let mut rules: FxHashMap<RouteKey<'a>, Vec<Part<'a>>> = FxHashMap::default();
        for &id in ids {
            let [gateway, listener, route, rule] = parts(id);
            rules
                .entry((gateway, listener, route))
                .or_default()
                .push(rule);
        }
        let mut routes: Vec<(RouteKey<'a>, Vec<Part<'a>>)> = rules.into_iter().collect();
        routes.sort_by(|((g1, l1, r1), _), ((g2, l2, r2), _)| {
            let (g1, l1, r1, g2, l2, r2) = (&**g1, &**l1, &**r1, &**g2, &**l2, &**r2);
            let key = |g, l, r| (self.rank(g), g, self.rank(l), l, self.rank(r), r);
            key(g1, l1, r1).cmp(&key(g2, l2, r2))
        });
        let mut parts = Vec::new();
        for gateway in routes.chunk_by(|a, b| a.0.0 == b.0.0) {
            parts.extend(self.gateway_parts(gateway));
        }
        Scope {
            paths: ids.len(),
            parts,
        }
    }

    /// One Gateway's part of a set (its routes in the set, in order): the whole Gateway, or its
    /// listeners fully in the set, then listeners listing the same routes, merged.
    fn gateway_parts(&self, routes: &[(RouteKey<'a>, Vec<Part<'a>>)]) -> Vec<ScopePart> {
        let gateway = &routes[0].0.0;
        let part = |listeners: Vec<String>, routes: Vec<String>| ScopePart {
            gateway: gateway.to_string(),
            listeners,
            routes,
        };
        let in_set: usize = routes.iter().map(|(_, rules)| rules.len()).sum();
        if in_set == self.gateways[gateway] {
            return vec![part(Vec::new(), Vec::new())];
        }
        let mut full = Vec::new();
        let mut partial: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        for listener in routes.chunk_by(|a, b| a.0.1 == b.0.1) {
            let name = &listener[0].0.1;
            let in_set: usize = listener.iter().map(|(_, rules)| rules.len()).sum();
            if in_set == self.listeners[&(gateway.clone(), name.clone())] {
                full.push(name.to_string());
                continue;
            }
            let entries = self.entries(listener);
            match partial.iter_mut().find(|(_, e)| *e == entries) {
                Some((names, _)) => names.push(name.to_string()),
                None => partial.push((vec![name.to_string()], entries)),
            }
        }
        let mut parts = Vec::new();
        if !full.is_empty() {
            parts.push(part(full, Vec::new()));
        }
        parts.extend(partial.into_iter().map(|(l, r)| part(l, r)));
        parts
    }

    /// A listener's routes in the set: `ns/route` when all its paths there are, else one
    /// `ns/route#rule` per rule.
    fn entries(&self, routes: &[(RouteKey<'a>, Vec<Part<'a>>)]) -> Vec<String> {
        let mut entries = Vec::new();
        for (key, rules) in routes {
            if rules.len() == self.routes[key] {
                entries.push(key.2.to_string());
            } else {
                entries.extend(rules.iter().map(|rule| format!("{}#{rule}", key.2)));
            }
        }
        entries
    }
}

/// Where a set of paths is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// How many paths.
    pub paths: usize,
    /// Gateway by Gateway (in the universe's order), the parts of the set.
    pub parts: Vec<ScopePart>,
}

/// Paths of one Gateway: all of them, all of some listeners', or some routes' of some listeners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopePart {
    /// `ns/name` of the Gateway.
    pub gateway: String,
    /// The listeners (empty: every listener of the Gateway).
    pub listeners: Vec<String>,
    /// `ns/route` (all its paths under these listeners) or `ns/route#rule` entries (empty:
    /// every route of these listeners).
    pub routes: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(listener: &str, route: &str, rule: &str) -> String {
        format!("c|ns/gw|ns/gw#{listener}|ns/{route}|ns/{route}#{rule}")
    }

    fn part(listeners: &[&str], routes: &[&str]) -> ScopePart {
        ScopePart {
            gateway: "ns/gw".into(),
            listeners: listeners.iter().map(|s| s.to_string()).collect(),
            routes: routes.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn whole_gateway_listener_route_and_rule() {
        let all: Vec<String> = vec![
            id("http", "a", "r1"),
            id("http", "a", "r2"),
            id("http", "b", "r1"),
            id("https", "a", "r1"),
            id("https", "a", "r2"),
            id("https", "b", "r1"),
            id("grpc", "c", "r1"),
        ];
        let texts: Vec<&str> = all.iter().map(String::as_str).collect();
        let topology = crate::topology::Topology::of_path_ids(&texts);
        let universe = Universe::new((0..all.len()).map(|i| topology.path_id(i)));
        let pick = |which: &[usize]| -> Vec<PathId<'_>> {
            which.iter().map(|&i| topology.path_id(i)).collect()
        };
        assert_eq!(
            universe.scope(&pick(&[0, 1, 2, 3, 4, 5, 6])).parts,
            [part(&[], &[])]
        );
        assert_eq!(
            universe.scope(&pick(&[0, 1, 2])).parts,
            [part(&["http"], &[])]
        );
        assert_eq!(
            universe.scope(&pick(&[0, 1, 3, 4])).parts,
            [part(&["http", "https"], &["ns/a"])]
        );
        assert_eq!(
            universe.scope(&pick(&[0, 1, 2, 3])).parts,
            [part(&["http"], &[]), part(&["https"], &["ns/a#r1"])]
        );
    }

    /// A ListenerSet's listener named like the Gateway's own is a listener of its own.
    #[test]
    fn a_listener_set_listener_is_apart_from_the_gateway_listener_of_its_name() {
        let all = [
            "c|ns/gw|ns/gw#http|ns/a|ns/a#r1".to_string(),
            "c|ns/gw|ns/gw>team/ext#http|ns/b|ns/b#r1".to_string(),
        ];
        let texts: Vec<&str> = all.iter().map(String::as_str).collect();
        let topology = crate::topology::Topology::of_path_ids(&texts);
        let universe = Universe::new((0..all.len()).map(|i| topology.path_id(i)));
        let set_path = [topology.path_id(1)];
        assert_eq!(
            universe.scope(&set_path).parts,
            [part(&["team/ext#http"], &[])]
        );
    }
}
