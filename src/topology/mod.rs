//! The hierarchy GatewayClass → Gateway → Listener → Route → Route rule, and its paths.
//!
//! A route attaches to listeners through its `parentRefs`, subject to Gateway API acceptance
//! (`allowedRoutes` namespaces and kinds, hostname intersection); see [`attach`]. Each
//! accepted (listener, route rule) pair is a [`Path`], the unit the engine evaluates — except a
//! rule that delegates to other HTTPRoutes through a link a family contributes ([`links`]): it
//! has no path, and each rule it reaches has one, with the chain of delegating rules. Policy
//! targets are resolved here too ([`targets`]), so the engine works on indices only.
//!
//! This is the Gateway API builder's compact storage. What the reports read of it — levels,
//! columns, filters, per path its elements, id and segments — they read through the
//! [`hierarchy::Hierarchy`] interface ([`gateway_api::GatewayApi`]), as they read the
//! hierarchies families build themselves; [`element`] is the vocabulary and the graph.

pub mod attach;
pub mod diags;
pub mod element;
pub mod family;
pub mod gateway_api;
pub mod hierarchy;
pub mod hostname;
pub mod links;
pub mod listener_sets;
pub mod path_ids;
pub mod targets;

use crate::diag::{Code, Diagnostic};
use crate::model::Model;
use crate::model::gateway::Route;
use crate::source::Span;
pub use attach::{Rejection, RejectionReason};
use diags::{Unreached, UnreachedCause};
pub use links::Delegation;
pub use path_ids::{Field, IdPieces, PathId, PathIds};
use rayon::prelude::*;
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
    /// What path ids are made of (see [`Topology::path_id`]).
    pub path_pieces: IdPieces,
    /// Per route: whether its path ids and labels name its kind, a route of an earlier kind
    /// having its namespace and name ([`later_namesakes`]).
    pub namesakes: Vec<bool>,
    /// Delegation chains: the delegating `(route, rule)` pairs of a path, root first.
    pub chains: Vec<Vec<(u32, u32)>>,
    /// Every delegating rule with each child it delegates to on some chain, and the child's
    /// rules kept there (dropped children are left out).
    pub delegations: Vec<Delegation>,
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

/// The paths of the routes and what building them found (see [`Topology`]'s fields).
struct RoutePaths {
    paths: Vec<Path>,
    path_pieces: IdPieces,
    namesakes: Vec<bool>,
    chains: Vec<Vec<(u32, u32)>>,
    delegations: Vec<Delegation>,
    route_listeners: Vec<Vec<(u32, u32)>>,
    rejections: Vec<Rejection>,
    diagnostics: Vec<Diagnostic>,
}

impl RoutePaths {
    /// Attaches the routes, expands delegation, and lists every path in display order.
    fn build(model: &Model) -> RoutePaths {
        let mut diagnostics = Vec::new();
        let attachments = attach::attach_routes(model, &mut diagnostics);
        let route_listeners = attachments.route_listeners;
        let expansion = match links::of_model(model) {
            Some(link) => link.expand(model, &route_listeners, &mut diagnostics),
            None => links::Expansion::flat(model, &route_listeners),
        };
        // A route reached by delegation is not "attached to nothing": its paths go through its
        // parents, or `delegation-child-dropped` says why it has none.
        let withdrawn: Vec<usize> = attachments
            .not_attached
            .iter()
            .filter(|&&(route, _)| expansion.named_by_delegation[route as usize])
            .map(|&(_, index)| index)
            .collect();
        for index in withdrawn.into_iter().rev() {
            diagnostics.remove(index);
        }

        // Sized first: the path list of a cluster dump is hundreds of thousands of entries, and
        // growing it by doubling touched twice its memory.
        let count: usize = route_listeners
            .iter()
            .zip(&expansion.leaves)
            .map(|(listeners, leaves)| listeners.len() * leaves.len())
            .sum();
        let mut paths: Vec<Path> = Vec::with_capacity(count);
        for (route_index, listeners) in route_listeners.iter().enumerate() {
            let leaves = &expansion.leaves[route_index];
            for &(gateway, listener) in listeners {
                paths.extend(leaves.iter().map(|leaf| Path {
                    gateway,
                    listener,
                    route: leaf.route,
                    rule: leaf.rule,
                    chain: leaf.chain,
                }));
            }
        }
        let chains = expansion.chains;
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
        // A chained path sorts where its root route and delegating rule would: by each
        // (route, rule) of its chain, root first, then its leaf route and rule.
        let steps = |p: &Path| {
            let chain: &[(u32, u32)] = if p.chain == NO_CHAIN {
                &[]
            } else {
                &chains[p.chain as usize]
            };
            chain
                .iter()
                .copied()
                .chain([(p.route, p.rule)])
                .map(|(route, rule)| (route_order[route as usize], rule))
        };
        paths.par_sort_by(|a, b| {
            (gateway_order[a.gateway as usize], a.listener)
                .cmp(&(gateway_order[b.gateway as usize], b.listener))
                .then_with(|| steps(a).cmp(steps(b)))
        });
        let namesakes = later_namesakes(model);
        let path_pieces = id_pieces(model, &chains, &namesakes);

        RoutePaths {
            paths,
            path_pieces,
            namesakes,
            chains,
            delegations: expansion.delegations,
            route_listeners,
            rejections: attachments.rejections,
            diagnostics,
        }
    }
}

impl Topology {
    /// The routes that delegate to `route` on some path (its direct parents), as `ns/name`,
    /// sorted.
    fn delegating_parents(&self, model: &Model, route: u32) -> Vec<String> {
        let mut parents: Vec<String> = (self.paths.iter())
            .filter(|p| p.route == route && p.chain != NO_CHAIN)
            .filter_map(|p| self.chains.get(p.chain as usize)?.last())
            .map(|&(parent, _)| model.routes[parent as usize].display())
            .collect();
        parents.sort();
        parents.dedup();
        parents
    }

    /// Why a policy target is in the path to nothing, naming the root cause a user fixes, with
    /// that cause's span when a finding reports it: `Gateway infra/gw, which no route is attached
    /// to`, or, for a route that attached nowhere, `HTTPRoute app/shop, which is attached to no
    /// listener (see DPL2001 parent-not-found on the route)` — the follow-on finding points at
    /// the route's own finding instead of inventing a cause. What dopol does not model is never
    /// taken for nothing: routes of kinds `family` does not apply to are named.
    pub fn unreached(
        &self,
        model: &Model,
        target: Target,
        family: &dyn family::FamilyHierarchy,
    ) -> (Unreached, Option<Span>) {
        let unreached = |cause| Unreached {
            target: target.describe(model),
            cause,
        };
        let route = match target {
            Target::Gateway(g) | Target::Listener(g, _) => {
                let listener = match target {
                    Target::Listener(_, l) => Some(l),
                    _ => None,
                };
                return (unreached(self.beneath(model, g, listener, family)), None);
            }
            // A set that joined no Gateway (not admitted: its own finding says why) is on no
            // path; one that joined has no route on its listeners.
            Target::ListenerSet(s) => {
                let cause = match model.listener_sets[s as usize].gateway {
                    Some(_) => UnreachedCause::NoRoute,
                    None => UnreachedCause::NoPath,
                };
                return (unreached(cause), None);
            }
            Target::Route(r) | Target::RouteRule(r, _) => r,
        };
        if !self.route_listeners[route as usize].is_empty() {
            return (unreached(UnreachedCause::NoPath), None);
        }
        let mut codes: Vec<Code> = self
            .rejections
            .iter()
            .filter(|r| r.route == route)
            .map(|r| r.reason.code())
            .collect();
        codes.sort();
        codes.dedup();
        if codes.is_empty() && !family.follows_delegation() {
            let parents = self.delegating_parents(model, route);
            if !parents.is_empty() {
                let family = family.name();
                return (
                    unreached(UnreachedCause::Delegated { parents, family }),
                    None,
                );
            }
        }
        if codes.is_empty() {
            codes.push(Code::ROUTE_NOT_ATTACHED);
        }
        let route_object = targets::Target::Route(route).describe(model);
        let root = self
            .diagnostics
            .iter()
            .find(|d| codes.contains(&d.code) && d.object.as_deref() == Some(&route_object))
            .and_then(Diagnostic::primary_span);
        (unreached(UnreachedCause::NotAttached(codes)), root)
    }

    /// Why Gateway `gateway` (or its listener `listener`) is on no path of `family`: routes
    /// attached only of kinds the family does not apply to, or no route at all.
    fn beneath(
        &self,
        model: &Model,
        gateway: u32,
        listener: Option<u32>,
        family: &dyn family::FamilyHierarchy,
    ) -> UnreachedCause {
        let mut kinds: Vec<crate::model::gateway::RouteKind> = (self.route_listeners.iter())
            .zip(&model.routes)
            .filter(|(listeners, _)| {
                (listeners.iter()).any(|&(g, l)| g == gateway && listener.is_none_or(|x| x == l))
            })
            .map(|(_, route)| route.kind)
            .collect();
        kinds.sort();
        kinds.dedup();
        if !kinds.is_empty() && !kinds.iter().any(|k| family.route_kinds().contains(k)) {
            return UnreachedCause::OnlyOtherKinds {
                kinds: kinds.iter().map(|k| k.as_str()).collect(),
                family: family.name(),
            };
        }
        UnreachedCause::NoRoute
    }

    /// Builds the topology of a model.
    ///
    /// Policy targets depend on the model alone, so they resolve on one core while the routes'
    /// paths are built and sorted on the other; their findings follow the paths' findings, as
    /// when the two ran one after the other.
    pub fn build(model: &Model) -> Topology {
        let (routes, (targets, target_diagnostics)) = rayon::join(
            || RoutePaths::build(model),
            || {
                let mut diagnostics = Vec::new();
                let targets = PolicyTargets::resolve(model, &mut diagnostics);
                (targets, diagnostics)
            },
        );
        let mut diagnostics = routes.diagnostics;
        diagnostics.extend(target_diagnostics);
        let mut delegated_only = vec![false; model.routes.len()];
        for chain in &routes.chains {
            for &(route, _) in chain {
                delegated_only[route as usize] = routes.route_listeners[route as usize].is_empty();
            }
        }
        for path in routes.paths.iter().filter(|p| p.chain != NO_CHAIN) {
            delegated_only[path.route as usize] =
                routes.route_listeners[path.route as usize].is_empty();
        }
        diagnostics.extend(link_not_followed(model, &targets, &delegated_only));
        Topology {
            paths: routes.paths,
            path_pieces: routes.path_pieces,
            namesakes: routes.namesakes,
            chains: routes.chains,
            delegations: routes.delegations,
            route_listeners: routes.route_listeners,
            rejections: routes.rejections,
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

    /// `ns/route#rule` of a path's leaf, after its delegation chain when it has one
    /// (`infra/parent#rule-1>shop/child#rule-2`).
    pub fn rule_label(&self, model: &Model, path: &Path) -> String {
        let mut label = chain_prefix(model, &self.chains, path.chain);
        let route = &model.routes[path.route as usize];
        if self.namesakes.get(path.route as usize) == Some(&true) {
            let rule = &route.rules[path.rule as usize].name;
            let kind = route.kind.as_str();
            label.push_str(&format!(
                "{}/{}[{kind}]#{rule}",
                route.namespace, route.name
            ));
        } else {
            label.push_str(&links::rule_name(model, path.route, path.rule));
        }
        label
    }

    /// The routes a path goes through: its delegation chain's, root first, then its leaf route.
    pub fn routes_of(&self, path: &Path) -> impl Iterator<Item = u32> + '_ {
        let chain: &[(u32, u32)] = match self.chains.get(path.chain as usize) {
            Some(chain) => chain,
            None => &[],
        };
        chain.iter().map(|&(route, _)| route).chain([path.route])
    }

    /// The id of path number `index`.
    pub fn path_id(&self, index: usize) -> PathId<'_> {
        PathId::new(self, index)
    }

    /// Finds a path by id.
    pub fn find_path(&self, id: &str) -> Option<usize> {
        (0..self.paths.len()).position(|p| self.path_id(p) == *id)
    }

    /// A topology of one path per id in `ids`, and nothing else (for tests of what prints ids).
    #[cfg(test)]
    pub fn of_path_ids(ids: &[&str]) -> Topology {
        let paths = (0..ids.len() as u32).map(|listener| Path {
            gateway: 0,
            listener,
            route: 0,
            rule: 0,
            chain: NO_CHAIN,
        });
        let listeners = vec![ids.iter().map(|&id| id.into()).collect()];
        let route = (String::new(), vec![""]);
        Topology {
            paths: paths.collect(),
            path_pieces: IdPieces::new(listeners, Vec::new(), std::iter::once(route)),
            ..Topology::default()
        }
    }

    /// Every path id, written out, for the rare readers that need all their texts at once
    /// (suggesting the closest id to one that is not there). Written on each call and not kept:
    /// 32 MB on the 49 MB benchmark.
    pub fn written_path_ids(&self) -> PathIds {
        PathIds::build(self.paths.len(), |i| self.path_id(i).parts())
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

/// `<class>|<ns>/<gw>|<ns>/<gw>#<listener>|<ns>/<route>|<ns>/<route>#<rule>`; for a path
/// through delegation the route part is the chain, `<ns>/<root>#<rule>>...><ns>/<route>`.
pub fn path_id(model: &Model, chains: &[Vec<(u32, u32)>], path: &Path) -> String {
    let mut id = listener_prefix(model, path.gateway, path.listener);
    id.push_str(&chain_prefix(model, chains, path.chain));
    let namesake = later_namesakes(model)[path.route as usize];
    id.push_str(&route_prefix(&model.routes[path.route as usize], namesake));
    id.push_str(&model.routes[path.route as usize].rules[path.rule as usize].name);
    id
}

/// `<ns>/<route>#<rule>>` for each delegating rule of a chain, root first (empty without one).
fn chain_prefix(model: &Model, chains: &[Vec<(u32, u32)>], chain: u32) -> String {
    if chain == NO_CHAIN {
        return String::new();
    }
    let mut prefix = String::new();
    for &(route, rule) in &chains[chain as usize] {
        prefix.push_str(&links::rule_name(model, route, rule));
        prefix.push('>');
    }
    prefix
}

/// `<class>|<ns>/<gw>|<ns>/<gw>#<listener>|`; for a listener of ListenerSet `S`,
/// `<class>|<ns>/<gw>|<ns>/<gw>><S ns>/<S name>#<listener>|` (docs/semantics.md §2: `>` reads
/// root first, as in delegation chains, and no name holds it, so the two forms never collide).
pub fn listener_prefix(model: &Model, gateway: u32, listener: u32) -> String {
    let gateway = &model.gateways[gateway as usize];
    let gw = nn(&gateway.namespace, &gateway.name);
    let listener = &gateway.listeners[listener as usize];
    let key = gateway.listener_key(listener);
    format!("{}|{gw}|{key}|", gateway.class_name)
}

/// `<ns>/<route>|<ns>/<route>#`; `<ns>/<route>[<Kind>]` for a route that shares its namespace
/// and name with a route of an earlier kind ([`later_namesakes`]).
fn route_prefix(route: &Route, namesake: bool) -> String {
    let mut rt = nn(&route.namespace, &route.name);
    if namesake {
        rt = format!("{rt}[{}]", route.kind.as_str());
    }
    format!("{rt}|{rt}#")
}

/// Per route: whether a route of an earlier kind (in [`crate::model::gateway::RouteKind`]
/// order: HTTPRoute, GRPCRoute, ...) has its namespace and name. Its path ids then name its kind
/// (`shop/api[GRPCRoute]`): two routes of different kinds on one listener would otherwise have
/// the same ids (brackets are not allowed in a name, so no route's own name is taken).
fn later_namesakes(model: &Model) -> Vec<bool> {
    let mut first_kind = rustc_hash::FxHashMap::default();
    for route in &model.routes {
        first_kind
            .entry((route.namespace.as_str(), route.name.as_str()))
            .and_modify(|kind| *kind = route.kind.min(*kind))
            .or_insert(route.kind);
    }
    let first = |r: &Route| first_kind[&(r.namespace.as_str(), r.name.as_str())];
    model.routes.iter().map(|r| r.kind != first(r)).collect()
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

/// The pieces path ids are made of: per listener, per delegation chain, per route and rule.
fn id_pieces(model: &Model, chains: &[Vec<(u32, u32)>], namesakes: &[bool]) -> IdPieces {
    let listeners: Vec<Vec<Box<str>>> = (0..model.gateways.len() as u32)
        .map(|g| {
            (0..model.gateways[g as usize].listeners.len() as u32)
                .map(|l| listener_prefix(model, g, l).into())
                .collect()
        })
        .collect();
    let chains: Vec<Box<str>> = (0..chains.len() as u32)
        .map(|c| chain_prefix(model, chains, c).into())
        .collect();
    let routes = model
        .routes
        .iter()
        .zip(namesakes)
        .map(|(route, &namesake)| {
            let rules = route.rules.iter().map(|rule| rule.name.as_str());
            (route_prefix(route, namesake), rules)
        });
    IdPieces::new(listeners, chains, routes)
}

/// A policy of a family that does not follow the route link targets a route (or rule) that only
/// the link reaches, so it takes part in no path: the link's finding.
fn link_not_followed(
    model: &Model,
    targets: &PolicyTargets,
    delegated_only: &[bool],
) -> Vec<Diagnostic> {
    let Some(link) = links::of_model(model) else {
        return Vec::new();
    };
    // Named by the families that follow delegation, each name once (a product may register
    // several families under one name).
    let mut delegating: Vec<&str> = Vec::new();
    for family in model.registry.hierarchies() {
        if family.follows_delegation() && !delegating.contains(&family.name()) {
            delegating.push(family.name());
        }
    }
    let mut found = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        if model
            .registry
            .hierarchy_of(policy.kind)
            .follows_delegation()
        {
            continue;
        }
        let mut seen: Vec<u32> = Vec::new();
        for target in &targets.of_policy[index] {
            let route = match *target {
                Target::Route(r) | Target::RouteRule(r, _) => r,
                _ => continue,
            };
            if !delegated_only[route as usize] || seen.contains(&route) {
                continue;
            }
            seen.push(route);
            let r = &model.routes[route as usize];
            let span = policy
                .targets
                .iter()
                .find(|t| t.kind == r.kind.as_str() && t.name == r.name)
                .map_or(policy.name_span, |t| t.name_span);
            found.push(link.not_followed(policy, r, &delegating, span));
        }
    }
    found
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
