//! The parts of a path as separate fields (`gateway`, `listener`, `route`, `rule`) beside its
//! `pathId`, so that machine readers select by Gateway or route without parsing the id.

use crate::model::Model;
use crate::model::gateway::{Gateway, Route};
use crate::topology::Topology;
use serde::Serialize;

/// A path's parts: `ns/name` of its Gateway, its listener's name (`ns/set#name` for a ListenerSet's), `ns/name` of its (leaf)
/// route and the name of its route rule (`rule-N` for an unnamed one; a route written
/// without rules has the implicit `rule-1`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathFields<'m> {
    /// `ns/name` of the Gateway.
    pub gateway: String,
    /// The listener's name.
    pub listener: &'m str,
    /// `ns/name` of the route the rule belongs to (the leaf route under delegation).
    pub route: String,
    /// The route rule's name.
    pub rule: &'m str,
}

/// The same parts, borrowed from the model (for writers that print `ns/name` without
/// building it).
#[derive(Clone, Copy, Debug)]
pub struct PathParts<'m> {
    /// The Gateway.
    pub gateway: &'m Gateway,
    /// The listener's name.
    pub listener: &'m str,
    /// The (leaf) route.
    pub route: &'m Route,
    /// The route rule's name.
    pub rule: &'m str,
}

impl<'m> PathParts<'m> {
    /// The parts of path number `path`.
    pub fn of(model: &'m Model, topology: &Topology, path: u32) -> PathParts<'m> {
        let p = &topology.paths[path as usize];
        let gateway = &model.gateways[p.gateway as usize];
        let route = &model.routes[p.route as usize];
        PathParts {
            gateway,
            listener: (gateway.listeners[p.listener as usize]).qualified_name(),
            route,
            rule: &route.rules[p.rule as usize].name,
        }
    }
}

impl<'m> PathFields<'m> {
    /// The parts of path number `path`.
    pub fn of(model: &'m Model, topology: &Topology, path: u32) -> PathFields<'m> {
        let parts = PathParts::of(model, topology, path);
        PathFields {
            gateway: format!("{}/{}", parts.gateway.namespace, parts.gateway.name),
            listener: parts.listener,
            route: format!("{}/{}", parts.route.namespace, parts.route.name),
            rule: parts.rule,
        }
    }
}
