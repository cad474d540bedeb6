//! The Gateway API builder's hierarchy: GatewayClass → Gateway → listener → route → route rule,
//! with a route rule → route step for each link on a path's delegation chain.
//!
//! The builder's storage is the dense [`Topology`] (a path is four indices and a chain, the
//! compact form 360,000 paths need); [`GatewayApi`] answers the [`Hierarchy`] questions from it
//! on demand, with the ids, columns and filters the reports have always printed and taken.

use super::element::{ElementId, ElementKind};
use super::hierarchy::{
    Hierarchy, HierarchyFilter, Level, Matching, Occurs, matches_name, matches_route,
    segment_filter_matches,
};
use super::{Path, Topology, links};
use crate::model::Model;

/// The columns of Gateway API path tables.
pub const COLUMNS: [&str; 3] = ["GATEWAY", "LISTENER", "ROUTE RULE"];

/// Its levels: a path has a GatewayClass, a Gateway, a ListenerSet when its listener is one a
/// ListenerSet added, and a listener, then a route and a rule for each step of its delegation
/// chain and for its leaf.
pub const LEVELS: &[Level] = &[
    Level {
        name: "GatewayClass",
        occurs: Occurs::Once,
    },
    Level {
        name: "Gateway",
        occurs: Occurs::Once,
    },
    Level {
        name: "ListenerSet",
        occurs: Occurs::Optional,
    },
    Level {
        name: "listener",
        occurs: Occurs::Once,
    },
    Level {
        name: "route",
        occurs: Occurs::Repeated,
    },
    Level {
        name: "route rule",
        occurs: Occurs::Repeated,
    },
];

/// `--gateway` (`[ns/]name` of the path's Gateway) and `--route` (any route on the path).
pub const FILTERS: &[HierarchyFilter] = &[
    HierarchyFilter::by_name("gateway", 0),
    HierarchyFilter {
        flag: "route",
        segment: 2,
        matching: Matching::RouteOnPath,
    },
];

/// The segments of a listener's path before any route (Gateway, listener): what a listener no
/// route is attached to shows, and the filters that can name it.
pub const LISTENER_SEGMENTS: usize = 2;

/// The Gateway API hierarchy of one model, over its topology.
#[derive(Clone, Copy)]
pub struct GatewayApi<'a> {
    /// The model the indices point into.
    pub model: &'a Model,
    /// The paths.
    pub topology: &'a Topology,
}

impl<'a> GatewayApi<'a> {
    /// The hierarchy of `topology`, built from `model`.
    pub fn new(model: &'a Model, topology: &'a Topology) -> GatewayApi<'a> {
        GatewayApi { model, topology }
    }

    /// The element of route `route`.
    fn route(&self, route: u32) -> ElementId {
        let r = &self.model.routes[route as usize];
        ElementId::new(
            ElementKind::Route(r.kind),
            format!("{}/{}", r.namespace, r.name),
        )
    }

    /// The route and rule elements of route `route`'s rule `rule`.
    fn route_and_rule(&self, route: u32, rule: u32) -> [ElementId; 2] {
        let kind = self.model.routes[route as usize].kind;
        [
            self.route(route),
            ElementId::new(
                ElementKind::RouteRule(kind),
                links::rule_name(self.model, route, rule),
            ),
        ]
    }

    /// The path at `path`.
    fn path(&self, path: usize) -> &'a Path {
        &self.topology.paths[path]
    }
}

impl Hierarchy for GatewayApi<'_> {
    fn name(&self) -> &'static str {
        "Gateway API"
    }

    fn levels(&self) -> &'static [Level] {
        LEVELS
    }

    fn columns(&self) -> &'static [&'static str] {
        &COLUMNS
    }

    fn filters(&self) -> &[HierarchyFilter] {
        FILTERS
    }

    fn path_count(&self) -> usize {
        self.topology.paths.len()
    }

    fn elements(&self, path: usize) -> Vec<ElementId> {
        let p = self.path(path);
        let gateway = &self.model.gateways[p.gateway as usize];
        let gw = format!("{}/{}", gateway.namespace, gateway.name);
        let listener = &gateway.listeners[p.listener as usize];
        let mut elements = vec![
            ElementId::new(ElementKind::GatewayClass, gateway.class_name.as_str()),
            ElementId::new(ElementKind::Gateway, gw.as_str()),
        ];
        if let Some(s) = listener.set {
            let set = &self.model.listener_sets[s as usize];
            let key = format!("{gw}>{}/{}", set.namespace, set.name);
            elements.push(ElementId::new(ElementKind::ListenerSet, key));
        }
        let key = gateway.listener_key(listener);
        elements.push(ElementId::new(ElementKind::Listener, key));
        let chain = self.topology.chains.get(p.chain as usize);
        for &(route, rule) in chain.into_iter().flatten().chain([&(p.route, p.rule)]) {
            elements.extend(self.route_and_rule(route, rule));
        }
        elements
    }

    fn path_id(&self, path: usize) -> String {
        self.topology.path_id(path).to_string()
    }

    fn segments(&self, path: usize) -> Vec<String> {
        let p = self.path(path);
        let gateway = &self.model.gateways[p.gateway as usize];
        vec![
            format!("{}/{}", gateway.namespace, gateway.name),
            gateway.listeners[p.listener as usize]
                .qualified_name()
                .to_string(),
            self.topology.rule_label(self.model, p),
        ]
    }

    fn links(&self) -> Vec<(ElementId, ElementId)> {
        (self.topology.delegations.iter())
            .map(|d| {
                let [_, rule] = self.route_and_rule(d.parent.0, d.parent.1);
                (rule, self.route(d.child))
            })
            .collect()
    }

    /// The namespace of the path's Gateway or of its leaf route.
    fn in_namespace(&self, path: usize, namespace: &str) -> bool {
        let p = self.path(path);
        let gateway = &self.model.gateways[p.gateway as usize];
        let route = &self.model.routes[p.route as usize];
        route.namespace == namespace || gateway.namespace == namespace
    }

    /// Read from the model without writing the segments: the filters run over every path.
    fn filter_matches(&self, path: usize, filter: &HierarchyFilter, pattern: &str) -> bool {
        let p = self.path(path);
        match filter.matching {
            Matching::RouteOnPath => (self.topology.routes_of(p))
                .any(|route| matches_route(pattern, &self.model.routes[route as usize])),
            Matching::Name if filter.segment == 0 => {
                let gateway = &self.model.gateways[p.gateway as usize];
                matches_name(pattern, &gateway.namespace, &gateway.name)
            }
            Matching::Name => segment_filter_matches(&self.segments(path), filter, pattern),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GatewayApi;
    use crate::model::gateway::RouteKind::Http;
    use crate::pipeline::{Evaluated, InputOptions, evaluate_files};
    use crate::topology::element::{EdgeKind, ElementId, ElementKind};
    use crate::topology::hierarchy::Hierarchy;

    fn delegation() -> Evaluated {
        evaluate_files(&InputOptions {
            files: vec!["testdata/delegation".into()],
            ..InputOptions::default()
        })
    }

    /// A path through two delegating rules.
    const DELEGATED: &str =
        "kgateway|infra/gw|infra/gw#http|infra/root#rule-2>mid/mid-a#rule-1>a/a1|a/a1#rule-1";

    fn path_of(hierarchy: &GatewayApi<'_>, id: &str) -> usize {
        (0..hierarchy.path_count())
            .find(|&p| hierarchy.path_id(p) == id)
            .unwrap_or_else(|| panic!("no path {id}"))
    }

    fn element(kind: ElementKind, key: &str) -> ElementId {
        ElementId::new(kind, key)
    }

    #[test]
    fn a_delegated_path_is_its_elements_and_keeps_its_id() {
        let evaluated = delegation();
        let hierarchy = GatewayApi::new(&evaluated.model, &evaluated.topology);
        let path = path_of(&hierarchy, DELEGATED);
        assert_eq!(
            hierarchy.elements(path),
            [
                element(ElementKind::GatewayClass, "kgateway"),
                element(ElementKind::Gateway, "infra/gw"),
                element(ElementKind::Listener, "infra/gw#http"),
                element(ElementKind::Route(Http), "infra/root"),
                element(ElementKind::RouteRule(Http), "infra/root#rule-2"),
                element(ElementKind::Route(Http), "mid/mid-a"),
                element(ElementKind::RouteRule(Http), "mid/mid-a#rule-1"),
                element(ElementKind::Route(Http), "a/a1"),
                element(ElementKind::RouteRule(Http), "a/a1#rule-1"),
            ]
        );
        assert_eq!(
            hierarchy.segments(path),
            [
                "infra/gw",
                "http",
                "infra/root#rule-2>mid/mid-a#rule-1>a/a1#rule-1"
            ]
        );
        assert_eq!(hierarchy.columns(), ["GATEWAY", "LISTENER", "ROUTE RULE"]);
        // A path without delegation has five elements: the count varies by path.
        let plain = path_of(
            &hierarchy,
            "kgateway|infra/gw|infra/gw#http|infra/root|infra/root#rule-1",
        );
        assert_eq!(hierarchy.elements(plain).len(), 5);
        for p in 0..hierarchy.path_count() {
            assert_eq!(
                hierarchy.path_id(p),
                evaluated.topology.path_id(p).to_string()
            );
        }
    }

    #[test]
    fn the_filters_match_the_gateway_and_every_route_on_the_path() {
        let evaluated = delegation();
        let hierarchy = GatewayApi::new(&evaluated.model, &evaluated.topology);
        let path = path_of(&hierarchy, DELEGATED);
        let [gateway, route] = [0, 1].map(|i| hierarchy.filters()[i]);
        assert_eq!((gateway.flag, route.flag), ("gateway", "route"));
        let matches = |filter, pattern| hierarchy.filter_matches(path, filter, pattern);
        assert!(matches(&gateway, "gw") && matches(&gateway, "infra/gw"));
        assert!(!matches(&gateway, "other/gw"));
        for pattern in ["infra/root", "mid-a", "a/a1", "a1[HTTPRoute]"] {
            assert!(matches(&route, pattern), "{pattern}");
        }
        assert!(!matches(&route, "a1[GRPCRoute]") && !matches(&route, "t1"));
        // `-n`: the Gateway's namespace or the leaf route's, not a delegating route's.
        assert!(hierarchy.in_namespace(path, "infra") && hierarchy.in_namespace(path, "a"));
        assert!(!hierarchy.in_namespace(path, "mid"));
    }

    #[test]
    fn delegation_is_a_link_edge_of_the_element_graph() {
        let evaluated = delegation();
        let hierarchy = GatewayApi::new(&evaluated.model, &evaluated.topology);
        let graph = hierarchy.graph();
        let rule = element(ElementKind::RouteRule(Http), "infra/root#rule-2");
        assert_eq!(
            graph.children(&rule),
            [(
                &element(ElementKind::Route(Http), "mid/mid-a"),
                EdgeKind::Link
            )]
        );
        let child = element(ElementKind::Route(Http), "team/t1");
        let parents: Vec<_> = graph
            .parents(&child)
            .into_iter()
            .map(|(e, k)| (e.key.as_str(), k))
            .collect();
        assert_eq!(
            parents,
            [
                ("infra/root#every", EdgeKind::Link),
                ("infra/root#also-t1", EdgeKind::Link),
            ]
        );
        let listener = element(ElementKind::Listener, "infra/gw#http");
        assert_eq!(
            graph.children(&listener),
            [(
                &element(ElementKind::Route(Http), "infra/root"),
                EdgeKind::Contains
            )]
        );
        assert_eq!(
            graph.roots(),
            [&element(ElementKind::GatewayClass, "kgateway")]
        );
    }
}
