//! Links a family contributes to the Gateway API hierarchy: a route rule that hands its traffic
//! to other routes (route delegation), so that a path runs through a chain of routes. The link's
//! rules and findings live in the family that contributes it.
//!
//! The Gateway API builder attaches routes to listeners; a [`RouteLink`] then expands the routes
//! a listener accepted into leaves (`(chain, route, rule)`). The topology asks the registry's
//! families for their link ([`super::family::FamilyHierarchy::route_link`]) and knows nothing of what
//! makes one route delegate to another: a model without a linking family has one leaf per rule of
//! every accepted route ([`Expansion::flat`]).

use super::NO_CHAIN;
use crate::diag::Diagnostic;
use crate::kinds::Policy;
use crate::model::Model;
use crate::model::gateway::Route;
use crate::model::matches::HttpMatch;
use crate::source::Span;

/// A link that chains routes below a route rule, as a family's controller builds them.
pub trait RouteLink: Send + Sync {
    /// Expands the routes a listener accepted (`route_listeners`, per route) through the link,
    /// with the link's own findings (children dropped, backends ignored) in `diagnostics`.
    fn expand(
        &self,
        model: &Model,
        route_listeners: &[Vec<(u32, u32)>],
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Expansion;

    /// The matches each rule of `leaf` has at the end of `chain` (the linking rules, root first),
    /// as the expansion computed them: what `request` matches a chained path with.
    fn matches_on_chain(
        &self,
        model: &Model,
        chain: &[(u32, u32)],
        leaf: u32,
    ) -> Vec<Vec<HttpMatch>>;

    /// The code of the finding that says why a linked child is dropped under a rule.
    fn dropped_code(&self) -> crate::diag::Code;

    /// What the data plane does with a request that matches a linking rule none of whose
    /// children is valid, in words (for `request`).
    fn dead_end(&self) -> &'static str;

    /// The finding for `policy`, of a family that does not follow the link, targeting `route`
    /// (at `span`), which only the link reaches; `followers` names the families that follow it.
    fn not_followed(
        &self,
        policy: &Policy,
        route: &Route,
        followers: &[&str],
        span: Span,
    ) -> Diagnostic;
}

/// A path's leaf: its chain (index into [`Expansion::chains`], or [`NO_CHAIN`]) and its route
/// and rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// Index into the chains, or [`NO_CHAIN`].
    pub chain: u32,
    /// Leaf route.
    pub route: u32,
    /// Leaf rule.
    pub rule: u32,
}

impl Leaf {
    /// The leaves of a route reached without a chain: one per rule.
    pub fn unchained(route: u32, rules: u32) -> impl Iterator<Item = Leaf> {
        (0..rules).map(move |rule| Leaf {
            chain: NO_CHAIN,
            route,
            rule,
        })
    }
}

/// A delegating rule and one child it delegates to, on at least one chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delegation {
    /// The delegating `(route, rule)`.
    pub parent: (u32, u32),
    /// The child route.
    pub child: u32,
    /// The child's rules kept on at least one chain through `parent`, in rule order.
    pub rules: Vec<u32>,
}

/// The result of expanding every attached route.
#[derive(Debug, Default)]
pub struct Expansion {
    /// Per route: the leaves of the paths it roots (empty for a route no listener accepted),
    /// in rule order, a delegating rule's leaves in its place.
    pub leaves: Vec<Vec<Leaf>>,
    /// Delegation chains: the delegating `(route, rule)` pairs of a path, root first.
    pub chains: Vec<Vec<(u32, u32)>>,
    /// Every (delegating rule, child) pair kept on some chain, sorted.
    pub delegations: Vec<Delegation>,
    /// Per route: whether a delegating rule of a reached route names it (kept or dropped).
    pub named_by_delegation: Vec<bool>,
}

impl Expansion {
    /// The expansion without a link: every rule of every accepted route is a leaf.
    pub fn flat(model: &Model, route_listeners: &[Vec<(u32, u32)>]) -> Expansion {
        let leaves = (route_listeners.iter().enumerate())
            .map(|(route, listeners)| match listeners.is_empty() {
                true => Vec::new(),
                false => {
                    let rules = model.routes[route].rules.len() as u32;
                    Leaf::unchained(route as u32, rules).collect()
                }
            })
            .collect();
        Expansion {
            leaves,
            named_by_delegation: vec![false; model.routes.len()],
            ..Expansion::default()
        }
    }
}

/// The link of a model's families, if one contributes one (the first that does).
pub fn of_model(model: &Model) -> Option<&'static dyn RouteLink> {
    model
        .registry
        .hierarchies()
        .find_map(|family| family.route_link())
}

/// The matches of each rule of `leaf` at the end of `chain`, as the model's link computes them
/// (a model without a link has no chain, and so none to compute).
pub fn matches_on_chain(model: &Model, chain: &[(u32, u32)], leaf: u32) -> Vec<Vec<HttpMatch>> {
    (of_model(model)).map_or_else(Vec::new, |link| link.matches_on_chain(model, chain, leaf))
}

/// `ns/route#rule`.
pub fn rule_name(model: &Model, route: u32, rule: u32) -> String {
    let r = &model.routes[route as usize];
    format!("{}/{}#{}", r.namespace, r.name, r.rules[rule as usize].name)
}
