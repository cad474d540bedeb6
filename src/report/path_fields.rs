//! The parts of a path as separate fields (`gateway`, `listener`, `route`, `rule`) beside its
//! `pathId`, so that machine readers select by Gateway or route without parsing the id.

use crate::model::Model;
use crate::topology::Topology;
use serde::Serialize;

/// A path's parts: `ns/name` of its Gateway, its listener's name, `ns/name` of its (leaf)
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

impl<'m> PathFields<'m> {
    /// The parts of path number `path`.
    pub fn of(model: &'m Model, topology: &Topology, path: u32) -> PathFields<'m> {
        let p = &topology.paths[path as usize];
        let gateway = &model.gateways[p.gateway as usize];
        let route = &model.routes[p.route as usize];
        PathFields {
            gateway: format!("{}/{}", gateway.namespace, gateway.name),
            listener: &gateway.listeners[p.listener as usize].name,
            route: format!("{}/{}", route.namespace, route.name),
            rule: &route.rules[p.rule as usize].name,
        }
    }
}
