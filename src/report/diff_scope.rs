//! Where a change happens, said by the topology: "Gateway infra/public, all routes" instead of
//! 5,000 path ids.
//!
//! A set of paths is described against the *universe*, every path id of either side of a diff:
//! when the set holds every path of a Gateway, or of some of its listeners, that is what is
//! said; otherwise the routes (or, for a route only partly covered, its rules) are listed.
//! Working on path ids alone keeps this independent of the two sides' models, and linear in the
//! number of ids.

use crate::topology::path_id_parts;
use rustc_hash::FxHashMap;

/// A path id's parts as a scope sees them: Gateway, listener name, route (with its delegation
/// chain, as in the id), rule name.
pub fn parts(id: &str) -> (&str, &str, &str, &str) {
    match path_id_parts(id) {
        Some([_, gateway, listener, route, rule]) => (
            gateway,
            listener.rsplit_once('#').map_or(listener, |(_, l)| l),
            route,
            rule.rsplit_once('#').map_or(rule, |(_, r)| r),
        ),
        None => (id, "", "", ""),
    }
}

/// A route under a listener of a Gateway.
type RouteKey<'a> = (&'a str, &'a str, &'a str);

/// How many paths of the universe each Gateway, listener and route (under a listener) has, and
/// their orders of first appearance.
#[derive(Debug, Default)]
pub struct Universe<'a> {
    gateways: FxHashMap<&'a str, usize>,
    listeners: FxHashMap<(&'a str, &'a str), usize>,
    routes: FxHashMap<RouteKey<'a>, usize>,
    /// Rank of each Gateway, listener and route by first appearance, for a stable order.
    rank: FxHashMap<&'a str, usize>,
}

impl<'a> Universe<'a> {
    /// Counts the paths of `ids` (each id once).
    pub fn new(ids: impl IntoIterator<Item = &'a str>) -> Universe<'a> {
        let mut universe = Universe::default();
        for id in ids {
            let (gateway, listener, route, _) = parts(id);
            *universe.gateways.entry(gateway).or_default() += 1;
            *universe.listeners.entry((gateway, listener)).or_default() += 1;
            *universe
                .routes
                .entry((gateway, listener, route))
                .or_default() += 1;
            for name in [gateway, listener, route] {
                let next = universe.rank.len();
                universe.rank.entry(name).or_insert(next);
            }
        }
        universe
    }

    fn rank(&self, name: &str) -> usize {
        self.rank.get(name).copied().unwrap_or(usize::MAX)
    }

    /// Describes a set of distinct path ids of the universe.
    pub fn scope(&self, ids: &[&'a str]) -> Scope {
        let mut rules: FxHashMap<RouteKey<'a>, Vec<&'a str>> = FxHashMap::default();
        for id in ids {
            let (gateway, listener, route, rule) = parts(id);
            rules
                .entry((gateway, listener, route))
                .or_default()
                .push(rule);
        }
        let mut routes: Vec<(RouteKey<'a>, Vec<&'a str>)> = rules.into_iter().collect();
        routes.sort_by_key(|&((g, l, r), _)| (self.rank(g), g, self.rank(l), l, self.rank(r), r));
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
    fn gateway_parts(&self, routes: &[(RouteKey<'a>, Vec<&'a str>)]) -> Vec<ScopePart> {
        let gateway = routes[0].0.0;
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
            let name = listener[0].0.1;
            let in_set: usize = listener.iter().map(|(_, rules)| rules.len()).sum();
            if in_set == self.listeners[&(gateway, name)] {
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
    fn entries(&self, routes: &[(RouteKey<'a>, Vec<&'a str>)]) -> Vec<String> {
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
        let universe = Universe::new(all.iter().map(String::as_str));
        let pick =
            |which: &[usize]| -> Vec<&str> { which.iter().map(|&i| all[i].as_str()).collect() };
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
}
