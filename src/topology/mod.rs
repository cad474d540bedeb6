//! The hierarchy GatewayClass → Gateway → Listener → Route → Route rule, and its paths.
//!
//! A route attaches to listeners through its `parentRefs`, subject to Gateway API acceptance
//! (`allowedRoutes` namespaces and kinds, hostname intersection); see [`attach`]. Each
//! accepted (listener, route rule) pair is a [`Path`], the unit the engine evaluates. Policy
//! targets are resolved here too ([`targets`]), so the engine works on indices only.

pub mod attach;
pub mod hostname;
pub mod targets;

use crate::diag::Diagnostic;
use crate::model::Model;
use crate::model::gateway::Route;
pub use attach::{Rejection, RejectionReason};
pub use targets::{PolicyTargets, Target};

/// One evaluation path: a route rule reached through one listener of one Gateway.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Path {
    /// Index into `Model::gateways`.
    pub gateway: u32,
    /// Index into the Gateway's listeners.
    pub listener: u32,
    /// Index into `Model::routes`.
    pub route: u32,
    /// Index into the route's rules.
    pub rule: u32,
    /// Index into `Topology::chains` when the path goes through route delegation (the
    /// delegating rules, root first), else [`NO_CHAIN`].
    pub chain: u32,
}

/// Marks a path reached without delegation.
pub const NO_CHAIN: u32 = u32::MAX;

/// The attachment graph and every path.
#[derive(Debug, Default)]
pub struct Topology {
    /// Paths in display order (Gateway, listener order, route, rule order).
    pub paths: Vec<Path>,
    /// Path ids, parallel to `paths`.
    pub path_ids: Vec<String>,
    /// Delegation chains: the delegating `(route, rule)` pairs of a path, root first.
    pub chains: Vec<Vec<(u32, u32)>>,
    /// For each route, the `(gateway, listener)` pairs that accepted it.
    pub route_listeners: Vec<Vec<(u32, u32)>>,
    /// Attachments that were refused, with the Gateway API reason.
    pub rejections: Vec<Rejection>,
    /// Where policies attach.
    pub targets: PolicyTargets,
    /// Diagnostics about attachments and targets.
    pub diagnostics: Vec<Diagnostic>,
}

/// `ns/name`.
fn nn(namespace: &str, name: &str) -> String {
    format!("{namespace}/{name}")
}

impl Topology {
    /// Builds the topology of a model.
    pub fn build(model: &Model) -> Topology {
        let mut diagnostics = Vec::new();
        let attachments = attach::attach_routes(model, &mut diagnostics);
        let route_listeners = attachments.route_listeners;

        let mut paths: Vec<Path> = Vec::new();
        for (route_index, listeners) in route_listeners.iter().enumerate() {
            let rules = model.routes[route_index].rules.len() as u32;
            for &(gateway, listener) in listeners {
                paths.extend((0..rules).map(|rule| Path {
                    gateway,
                    listener,
                    route: route_index as u32,
                    rule,
                    chain: NO_CHAIN,
                }));
            }
        }
        let gateway_order = order_by(
            model
                .gateways
                .iter()
                .map(|g| (g.namespace.as_str(), g.name.as_str(), 0u8)),
        );
        let route_order = order_by(
            model
                .routes
                .iter()
                .map(|r| (r.namespace.as_str(), r.name.as_str(), r.kind as u8)),
        );
        paths.sort_by_key(|p| {
            (
                gateway_order[p.gateway as usize],
                p.listener,
                route_order[p.route as usize],
                p.rule,
            )
        });
        let path_ids = path_ids(model, &paths);

        let targets = PolicyTargets::resolve(model, &mut diagnostics);
        Topology {
            paths,
            path_ids,
            chains: Vec::new(),
            route_listeners,
            rejections: attachments.rejections,
            targets,
            diagnostics,
        }
    }

    /// The elements of a path, least specific first: its Gateway and listener, then each
    /// delegating route and rule of its chain (root first), then its own route and rule.
    pub fn elements(&self, path: &Path) -> Vec<Target> {
        let mut elements = vec![
            Target::Gateway(path.gateway),
            Target::Listener(path.gateway, path.listener),
        ];
        if path.chain != NO_CHAIN {
            for &(route, rule) in &self.chains[path.chain as usize] {
                elements.extend([Target::Route(route), Target::RouteRule(route, rule)]);
            }
        }
        elements.extend([
            Target::Route(path.route),
            Target::RouteRule(path.route, path.rule),
        ]);
        elements
    }

    /// The Gateway, listener, route and rule of a path (its leaf route and rule).
    pub fn leaf_elements(&self, path: &Path) -> [Target; 4] {
        [
            Target::Gateway(path.gateway),
            Target::Listener(path.gateway, path.listener),
            Target::Route(path.route),
            Target::RouteRule(path.route, path.rule),
        ]
    }

    /// The id of path number `index`.
    pub fn path_id(&self, index: usize) -> &str {
        &self.path_ids[index]
    }

    /// Finds a path by id.
    pub fn find_path(&self, id: &str) -> Option<usize> {
        self.path_ids.iter().position(|p| p == id)
    }
}

/// Rank of each item when sorted by `(namespace, name, tie)`.
fn order_by<'a>(items: impl Iterator<Item = (&'a str, &'a str, u8)>) -> Vec<u32> {
    let items: Vec<_> = items.collect();
    let mut indices: Vec<usize> = (0..items.len()).collect();
    indices.sort_by_key(|&i| items[i]);
    let mut rank = vec![0u32; items.len()];
    for (position, &i) in indices.iter().enumerate() {
        rank[i] = position as u32;
    }
    rank
}

/// `<class>|<ns>/<gw>|<ns>/<gw>#<listener>|<ns>/<route>|<ns>/<route>#<rule>`.
pub fn path_id(model: &Model, path: &Path) -> String {
    let mut id = listener_prefix(model, path.gateway, path.listener);
    id.push_str(&route_prefix(&model.routes[path.route as usize]));
    id.push_str(&model.routes[path.route as usize].rules[path.rule as usize].name);
    id
}

/// `<class>|<ns>/<gw>|<ns>/<gw>#<listener>|`.
fn listener_prefix(model: &Model, gateway: u32, listener: u32) -> String {
    let gateway = &model.gateways[gateway as usize];
    let gw = nn(&gateway.namespace, &gateway.name);
    format!(
        "{}|{gw}|{gw}#{}|",
        gateway.class_name, gateway.listeners[listener as usize].name
    )
}

/// `<ns>/<route>|<ns>/<route>#`.
fn route_prefix(route: &Route) -> String {
    let rt = nn(&route.namespace, &route.name);
    format!("{rt}|{rt}#")
}

/// The five parts of a path id, as written in it: class, `ns/gw`, `ns/gw#listener`, `ns/route`,
/// `ns/route#rule`; `None` if `id` is not a path id.
pub fn path_id_parts(id: &str) -> Option<[&str; 5]> {
    let mut parts = id.split('|');
    let split = [(); 5].map(|()| parts.next());
    match (split, parts.next()) {
        ([Some(a), Some(b), Some(c), Some(d), Some(e)], None) => Some([a, b, c, d, e]),
        _ => None,
    }
}

/// The ids of many paths, sharing the per-listener and per-route parts.
fn path_ids(model: &Model, paths: &[Path]) -> Vec<String> {
    let listener_prefixes: Vec<Vec<String>> = (0..model.gateways.len() as u32)
        .map(|g| {
            (0..model.gateways[g as usize].listeners.len() as u32)
                .map(|l| listener_prefix(model, g, l))
                .collect()
        })
        .collect();
    let route_prefixes: Vec<String> = model.routes.iter().map(route_prefix).collect();
    paths
        .iter()
        .map(|p| {
            let listener = &listener_prefixes[p.gateway as usize][p.listener as usize];
            let route = &route_prefixes[p.route as usize];
            let rule = &model.routes[p.route as usize].rules[p.rule as usize].name;
            let mut id = String::with_capacity(listener.len() + route.len() + rule.len());
            id.push_str(listener);
            id.push_str(route);
            id.push_str(rule);
            id
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::path_id_parts;

    #[test]
    fn path_ids_split_into_their_five_parts() {
        assert_eq!(
            path_id_parts("istio|infra/gw|infra/gw#http|app/r|app/r#rule-1"),
            Some([
                "istio",
                "infra/gw",
                "infra/gw#http",
                "app/r",
                "app/r#rule-1"
            ])
        );
        assert_eq!(path_id_parts("a|b|c|d"), None);
        assert_eq!(path_id_parts("a|b|c|d|e|f"), None);
    }
}
