//! The paths of each Gateway and of each route (delegating routes included), built once per
//! run so that a selector reads only the paths of what it names: a suite of a thousand cases
//! over a hundred thousand paths costs a thousand short lists, not a hundred million checks.

use crate::engine::Engine;
use crate::report::filter::{self, Filters};

/// Paths by Gateway and by route, and the filter that decides each path exactly.
pub struct PathIndex {
    /// Per Gateway index: its paths, in order.
    by_gateway: Vec<Vec<u32>>,
    /// Per route index: the paths through it (as leaf or delegating route), in order.
    by_route: Vec<Vec<u32>>,
    /// `--gateway`/`--route` matching, delegation chains included.
    filters: Filters,
}

impl PathIndex {
    /// Indexes `engine`'s paths.
    pub fn new(engine: &Engine<'_>) -> PathIndex {
        let (model, topology) = (engine.model, engine.topology);
        let mut by_gateway = vec![Vec::new(); model.gateways.len()];
        let mut by_route = vec![Vec::new(); model.routes.len()];
        for (p, path) in topology.paths.iter().enumerate() {
            by_gateway[path.gateway as usize].push(p as u32);
            by_route[path.route as usize].push(p as u32);
            let chain = topology.chains.get(path.chain as usize);
            for &(route, _) in chain.into_iter().flatten() {
                by_route[route as usize].push(p as u32);
            }
        }
        for list in &mut by_route {
            list.dedup();
        }
        let filters = Filters::default();
        PathIndex {
            by_gateway,
            by_route,
            filters,
        }
    }

    /// The paths through the Gateway and route named (`[ns/]name` patterns, as `--gateway`
    /// and `--route`), in order.
    pub fn through(
        &mut self,
        engine: &Engine<'_>,
        gateway: Option<&str>,
        route: Option<&str>,
    ) -> Vec<u32> {
        let model = engine.model;
        let mut found: Vec<u32> = match (gateway, route) {
            (_, Some(route)) => (model.routes.iter().enumerate())
                .filter(|(_, r)| filter::matches_route(route, r))
                .flat_map(|(i, _)| self.by_route[i].iter().copied())
                .collect(),
            (Some(gateway), None) => (model.gateways.iter().enumerate())
                .filter(|(_, g)| filter::matches_name(gateway, &g.namespace, &g.name))
                .flat_map(|(i, _)| self.by_gateway[i].iter().copied())
                .collect(),
            (None, None) => (0..engine.topology.paths.len() as u32).collect(),
        };
        found.sort_unstable();
        found.dedup();
        self.filters.gateway = gateway.map(str::to_string);
        self.filters.route = route.map(str::to_string);
        found.retain(|&p| self.filters.shows_path(model, engine.topology, p));
        found
    }
}
