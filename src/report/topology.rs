//! `dopol topology` as data: the `Topology` document of `-o json`/`-o yaml` (Gateways →
//! listeners → routes → rules, with the policies attached at each node, refused attachments and
//! policies not accepted), and the part of the tree the filters (`-n`, `--gateway`, `--route`)
//! keep.

use crate::model::Model;
use crate::policy::owned::{OwnedNode, OwnedPaths};
use crate::report::filter::{Filters, matches_name};
use crate::topology::{Rejection, Topology};
use serde::Serialize;
use std::collections::{BTreeSet, HashSet};

/// What the filters keep of the tree. A path the filters show keeps every node on it; a Gateway
/// the filters name (without `--route`) is kept whole, even without routes.
#[derive(Debug, Default)]
pub struct Scope {
    /// No filter: everything is kept.
    everything: bool,
    /// Gateways kept with all their listeners.
    whole: BTreeSet<u32>,
    /// Gateways, listeners and `(gateway, listener, route)` on shown paths.
    gateways: BTreeSet<u32>,
    listeners: BTreeSet<(u32, u32)>,
    routes: BTreeSet<(u32, u32, u32)>,
    /// `(route, rule)` on shown paths (delegating rules included), under any listener.
    rules: BTreeSet<(u32, u32)>,
    filters: Filters,
}

impl Scope {
    /// Keeps everything.
    pub fn everything() -> Scope {
        Scope {
            everything: true,
            ..Scope::default()
        }
    }

    /// What `filters` keep.
    pub fn new(model: &Model, topology: &Topology, filters: &Filters) -> Scope {
        if filters.namespace.is_none() && !filters.filters_paths() {
            return Scope::everything();
        }
        let mut scope = Scope {
            filters: filters.clone(),
            ..Scope::default()
        };
        for index in filters.paths(model, topology) {
            let path = &topology.paths[index];
            let root = topology.routes_of(path).next().unwrap_or(path.route);
            scope.gateways.insert(path.gateway);
            scope.listeners.insert((path.gateway, path.listener));
            scope.routes.insert((path.gateway, path.listener, root));
            let chain = topology.chains.get(path.chain as usize);
            scope.rules.extend(chain.into_iter().flatten().copied());
            scope.rules.insert((path.route, path.rule));
        }
        // Kept whole as its listeners without routes are shown (`--route`, `--mesh`: none).
        for g in 0..model.gateways.len() as u32 {
            if filters.shows_listener(model, g) {
                scope.whole.insert(g);
            }
        }
        scope
    }

    /// Whether a Gateway is kept.
    pub fn gateway(&self, g: u32) -> bool {
        self.everything || self.whole.contains(&g) || self.gateways.contains(&g)
    }

    /// Whether a listener is kept.
    pub fn listener(&self, g: u32, l: u32) -> bool {
        self.everything || self.whole.contains(&g) || self.listeners.contains(&(g, l))
    }

    /// Whether a route is kept under a listener.
    pub fn route(&self, g: u32, l: u32, r: u32) -> bool {
        self.everything || self.routes.contains(&(g, l, r))
    }

    /// Whether a route rule is kept (it is on a shown path, or delegates on one).
    pub fn rule(&self, route: u32, rule: u32) -> bool {
        self.everything || self.rules.contains(&(route, rule))
    }

    /// Whether a refused attachment is kept: its route and Gateway pass the filters.
    pub fn refusal(&self, model: &Model, rejection: &Rejection) -> bool {
        if self.everything {
            return true;
        }
        let route = &model.routes[rejection.route as usize];
        let parent = &route.parent_refs[rejection.parent_ref as usize];
        let f = &self.filters;
        f.route
            .as_ref()
            .is_none_or(|r| crate::report::filter::matches_route(r, route))
            && f.gateway
                .as_ref()
                .is_none_or(|g| matches_name(g, &parent.namespace, &parent.name))
            && f.namespace
                .as_ref()
                .is_none_or(|ns| *ns == route.namespace || *ns == parent.namespace)
    }

    /// Whether a policy that was not accepted is listed: only without `--gateway` and
    /// `--route` (it is attached nowhere), and when it is in the namespace of `-n`.
    pub fn unattached_policy(&self, model: &Model, policy: usize) -> bool {
        let f = &self.filters;
        self.everything
            || (f.gateway.is_none()
                && f.route.is_none()
                && f.namespace
                    .as_ref()
                    .is_none_or(|ns| *ns == model.policies[policy].namespace))
    }
}

/// The `Topology` document.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopologyDocument {
    /// `dopol/v1`.
    pub api_version: &'static str,
    /// `Topology`.
    pub kind: &'static str,
    /// Gateways by class, namespace and name.
    pub gateways: Vec<GatewayNode>,
    /// Routes a Gateway refused, with the Gateway API reason.
    pub refused: Vec<RefusedNode>,
    /// Policies whose targets were not found.
    pub not_accepted: Vec<NotAcceptedNode>,
    /// The trees of the hierarchies families build themselves (a mesh's proxies).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub owned: Vec<OwnedTreeNode>,
}

/// One element of an owned hierarchy's tree, with the policies selecting it.
#[derive(Debug, Serialize)]
pub struct OwnedTreeNode {
    /// What it is (`Mesh`, `Dataplane`, `outbound`).
    pub kind: String,
    /// Its name.
    pub name: String,
    /// The locators of the policies attached to or selecting it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub policies: Vec<String>,
    /// Its children.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<OwnedTreeNode>,
}

impl OwnedTreeNode {
    /// The document form of `node` and everything below it.
    pub fn of(model: &Model, node: &OwnedNode) -> OwnedTreeNode {
        OwnedTreeNode {
            kind: node.kind.clone(),
            name: node.name.clone(),
            policies: (node.policies.iter())
                .map(|&p| model.policies[p as usize].locator.clone())
                .collect(),
            children: node.children.iter().map(|c| Self::of(model, c)).collect(),
        }
    }
}

/// The owned trees `filters` keep: every root whose subtree names a kept element (`-n`: a
/// `ns/name` in that namespace), pruned to the elements of the paths the path filters show
/// (with `--gateway` or `--route`, which the hierarchy does not declare, none).
pub fn owned_trees<'e>(
    owned: impl Iterator<Item = &'e OwnedPaths>,
    filters: &Filters,
) -> Vec<OwnedNode> {
    fn in_namespace(node: &OwnedNode, ns: &str) -> bool {
        node.name.split_once('/').is_some_and(|(n, _)| n == ns)
            || node.children.iter().any(|c| in_namespace(c, ns))
    }
    // The path filters alone: `-n` keeps whole trees below.
    let own_filters = Filters {
        gateway: filters.gateway.clone(),
        route: filters.route.clone(),
        owned: filters.owned.clone(),
        ..Filters::default()
    };
    let everything = !own_filters.filters_paths();
    owned
        .flat_map(|paths| {
            let shown: HashSet<&str> = (paths.items.iter())
                .filter(|item| own_filters.shows_owned(paths, item))
                .map(|item| item.path_id.as_str())
                .collect();
            (paths.tree.iter())
                .filter_map(move |node| pruned(node, &|id: &str| everything || shown.contains(id)))
        })
        .filter(|node| {
            filters
                .namespace
                .as_deref()
                .is_none_or(|ns| in_namespace(node, ns))
        })
        .collect()
}

/// `node` with only the elements of the paths `kept` keeps (none left: `None`).
fn pruned(node: &OwnedNode, kept: &dyn Fn(&str) -> bool) -> Option<OwnedNode> {
    let children: Vec<OwnedNode> = (node.children.iter())
        .filter_map(|child| pruned(child, kept))
        .collect();
    let ends_here = node.paths.iter().any(|id| kept(id));
    // Field by field: `..node.clone()` would copy the whole subtree only to drop it.
    (ends_here || !children.is_empty()).then(|| OwnedNode {
        kind: node.kind.clone(),
        name: node.name.clone(),
        policies: node.policies.clone(),
        children,
        paths: node.paths.clone(),
    })
}

/// A policy attached to a node.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyRef {
    /// Its kind, e.g. `AuthPolicy`.
    pub policy_kind: &'static str,
    /// Its kind's API group.
    pub policy_group: &'static str,
    /// `ns/name`.
    pub name: String,
    /// Its locator (`<kind>.<group>:ns/name`), as in `sources` of other documents.
    pub locator: String,
    /// Its blocks: `bare`, `spec`, or `defaults merge`, `overrides atomic`, ...
    pub blocks: Vec<String>,
    /// Attached through a route rule's ExtensionRef filter rather than a target.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub via_extension_ref: bool,
}

/// A Gateway.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayNode {
    /// `ns/name`.
    pub name: String,
    /// Its GatewayClass.
    pub class: String,
    /// A stand-in created by `--assume-gateways`.
    pub assumed: bool,
    /// Policies targeting the Gateway.
    pub policies: Vec<PolicyRef>,
    /// Its listeners, in the order written.
    pub listeners: Vec<ListenerNode>,
    /// The ListenerSets it admitted, in merged order, each with its listeners (left out when
    /// there is none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub listener_sets: Vec<ListenerSetNode>,
}

/// A ListenerSet joined to a Gateway: a level between the Gateway and the listeners it adds.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListenerSetNode {
    /// `ns/name`.
    pub name: String,
    /// `ListenerSet`, or the legacy `XListenerSet`.
    pub kind: &'static str,
    /// Its listeners that joined the Gateway (conflicted ones included), in the order written.
    pub listeners: Vec<ListenerNode>,
}

/// A listener.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListenerNode {
    /// Its name.
    pub name: String,
    /// Its protocol (`HTTP`, `HTTPS`, ...).
    pub protocol: String,
    /// Its port.
    pub port: i64,
    /// Its hostname, when it has one.
    pub hostname: Option<String>,
    /// Policies targeting the listener.
    pub policies: Vec<PolicyRef>,
    /// Routes attached to it, by namespace, name and kind.
    pub routes: Vec<RouteNode>,
}

/// A route (attached to a listener, or delegated to by a rule).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteNode {
    /// `HTTPRoute` or `GRPCRoute`.
    pub kind: &'static str,
    /// `ns/name`.
    pub name: String,
    /// Policies targeting the route.
    pub policies: Vec<PolicyRef>,
    /// Its rules (under delegation: the rules kept there).
    pub rules: Vec<RuleNode>,
    /// A delegation cycle: the route is already above; its rules are not repeated.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cycle: bool,
}

/// A route rule.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleNode {
    /// Its name (`rule-N` for an unnamed one).
    pub name: String,
    /// Policies targeting the rule (or named by its ExtensionRef filters).
    pub policies: Vec<PolicyRef>,
    /// Routes this rule delegates to (a family's route link).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub delegates_to: Vec<RouteNode>,
}

/// A route a Gateway refused.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefusedNode {
    /// `HTTPRoute` or `GRPCRoute`.
    pub route_kind: &'static str,
    /// `ns/name` of the route.
    pub route: String,
    /// `ns/name` of the Gateway its parentRef names.
    pub gateway: String,
    /// The parentRef's sectionName, when it has one.
    pub section_name: Option<String>,
    /// The Gateway API reason (`NotAllowedByListeners`, `NoMatchingParent`, ...).
    pub reason: &'static str,
    /// Why.
    pub message: String,
}

/// A policy whose targets were not found.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotAcceptedNode {
    /// Its kind.
    pub policy_kind: &'static str,
    /// `ns/name`.
    pub name: String,
    /// Its locator.
    pub locator: String,
    /// `TargetNotFound`.
    pub reason: &'static str,
    /// Why.
    pub message: String,
}
