//! kgateway route delegation (docs/families.md §1 "Route delegation in the topology", §2.6).
//!
//! An HTTPRoute rule whose `backendRefs` name HTTPRoutes — `{group: gateway.networking.k8s.io,
//! kind: HTTPRoute, name: N|"*", namespace?}` or `{group: delegation.kgateway.dev, kind: label,
//! name: V, namespace?}` — delegates: it has no path of its own, and every valid rule of every
//! child it reaches has one, carrying the chain of delegating rules (root first). Children may
//! delegate further. Expansion starts at the routes a listener accepted and walks down:
//!
//! - a child is dropped for one parent (no path through it, lint `delegation-child-dropped`)
//!   when its `parentRefs` are set and none names the parent HTTPRoute, when it would repeat a
//!   route of the chain (a cycle), or when it sets `spec.hostnames` — checked in that order, the
//!   first reason is reported;
//! - unless the child inherits the parent's matcher (annotation
//!   `delegation.kgateway.dev/inherit-parent-matcher`: `true`, `yes`, `enabled`, any case), a
//!   child rule is kept only when one of its matches is valid for one match of the delegating
//!   rule (parent `PathPrefix` a string prefix of the child's path; the parent's headers and
//!   query parameters repeated; the parent's method, when set, equal). The lint is reported once
//!   per child route and delegating rule, naming every dropped rule.
//!
//! The delegating rule's matches that count are the ones it has on that chain: its own matches
//! valid for its parent (kgateway discards the others), or, when it inherits, its matches merged
//! with the parent's (`path.Join` of the paths, the parent's headers and query parameters first,
//! the parent's method) — as kgateway's `filterDelegatedChildren` computes them per parent match.
//!
//! The expansion of one root route does not depend on the listener (a delegatee may not set
//! hostnames), so it is computed once per root route and repeated on each of its listeners.

use super::delegation_diags::{
    ChildDropped, DelegationChildDropped, DelegationMixedBackends, DelegationNotSupported,
};
use crate::diag::Diagnostic;
use crate::model::Model;
use crate::model::gateway::{GATEWAY_GROUP, Route, RouteKind};
use crate::model::matches::{HttpMatch, PathType, RuleMatches, ValueMatch};
use crate::source::Span;
use crate::topology::NO_CHAIN;
use crate::topology::links::{Delegation, Expansion, Leaf, RouteLink, rule_name};
use crate::yaml::Node;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Group of label delegation backendRefs.
pub const DELEGATION_GROUP: &str = "delegation.kgateway.dev";
/// The label that label delegation selects on.
pub const DELEGATION_LABEL: &str = "delegation.kgateway.dev/label";
/// The child annotation that makes it inherit the parent's matcher.
pub const INHERIT_MATCHER_ANNOTATION: &str = "delegation.kgateway.dev/inherit-parent-matcher";

/// Whether the annotation value turns matcher inheritance on (kgateway
/// `ShouldInheritParentMatcher`: `true`, `yes`, `enabled`, any letter case).
pub fn inherits_parent_matcher(value: Option<&str>) -> bool {
    value.is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        matches!(v.as_str(), "true" | "yes" | "enabled")
    })
}

/// What one delegating backendRef selects.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Selects {
    /// One HTTPRoute by name.
    Name(String),
    /// Every HTTPRoute of the namespace (`name: "*"`, or empty).
    Every,
    /// HTTPRoutes labelled `delegation.kgateway.dev/label: <value>`.
    Label(String),
}

/// One delegating backendRef.
#[derive(Clone, Debug)]
struct DelegateRef {
    /// The namespace looked in; `None` for every namespace (label delegation, namespace `all`).
    namespace: Option<String>,
    selects: Selects,
    /// Where the backendRef is written.
    span: Span,
}

/// DPL2012 for each backendRef of a delegating rule that is not a delegation (kgateway ignores
/// it, §2.6).
fn mixed_backends(route: &Route, rules: &[Node]) -> Vec<Diagnostic> {
    let is_delegation = |backend: &Node| {
        let text = |key: &str| backend.get(key).and_then(Node::as_str);
        matches!(
            (text("group"), text("kind")),
            (Some(GATEWAY_GROUP), Some("HTTPRoute")) | (Some(DELEGATION_GROUP), Some("label"))
        )
    };
    let mut found = Vec::new();
    for (k, rule) in rules.iter().enumerate() {
        let backends = rule
            .get("backendRefs")
            .and_then(Node::as_seq)
            .unwrap_or_default();
        if !backends.iter().any(is_delegation) {
            continue;
        }
        let rule = rule_name_at(route, k);
        for backend in backends.iter().filter(|b| !is_delegation(b)) {
            let finding = DelegationMixedBackends {
                route,
                rule: &rule,
                backend: backend.get("name").and_then(Node::as_str).unwrap_or(""),
            };
            found.push(
                Diagnostic::from(finding)
                    .with_label(backend.span, "ignored")
                    .with_object(route.display()),
            );
        }
    }
    found
}

/// The name of rule `k` of `route` (its `name`, or the positional `rule-<k+1>`).
fn rule_name_at(route: &Route, k: usize) -> String {
    route
        .rules
        .get(k)
        .map_or_else(|| format!("rule-{}", k + 1), |r| r.name.to_string())
}

/// The delegating backendRefs of a rule node; `None` when the rule does not delegate.
fn delegate_refs(rule: &Node, route_namespace: &str) -> Option<Vec<DelegateRef>> {
    let refs: Vec<DelegateRef> = rule
        .get("backendRefs")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|backend| {
            let text = |key: &str| backend.get(key).and_then(Node::as_str);
            let name = text("name").unwrap_or("");
            let written_namespace = text("namespace");
            let (namespace, selects) = match (text("group"), text("kind")) {
                (Some(GATEWAY_GROUP), Some("HTTPRoute")) => (
                    Some(written_namespace.unwrap_or(route_namespace).to_string()),
                    if name.is_empty() || name == "*" {
                        Selects::Every
                    } else {
                        Selects::Name(name.to_string())
                    },
                ),
                (Some(DELEGATION_GROUP), Some("label")) => (
                    match written_namespace {
                        Some("all") => None,
                        Some(ns) => Some(ns.to_string()),
                        None => Some(route_namespace.to_string()),
                    },
                    Selects::Label(name.to_string()),
                ),
                _ => return None,
            };
            Some(DelegateRef {
                namespace,
                selects,
                span: backend.span,
            })
        })
        .collect();
    (!refs.is_empty()).then_some(refs)
}

/// Route delegation as the link kgateway contributes to the hierarchy.
pub struct RouteDelegation;

/// The one link value the family hands the topology.
pub static ROUTE_DELEGATION: RouteDelegation = RouteDelegation;

impl RouteLink for RouteDelegation {
    fn expand(
        &self,
        model: &Model,
        route_listeners: &[Vec<(u32, u32)>],
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Expansion {
        expand(model, route_listeners, diagnostics)
    }

    fn matches_on_chain(
        &self,
        model: &Model,
        chain: &[(u32, u32)],
        leaf: u32,
    ) -> Vec<Vec<HttpMatch>> {
        matches_on_chain(model, chain, leaf)
    }

    fn dropped_code(&self) -> crate::diag::Code {
        crate::diag::Code::DELEGATION_CHILD_DROPPED
    }

    fn not_followed(
        &self,
        policy: &crate::policy::Policy,
        route: &Route,
        followers: &[&str],
        span: Span,
    ) -> Diagnostic {
        let finding = DelegationNotSupported {
            policy,
            route,
            delegating: followers,
        };
        Diagnostic::from(finding)
            .with_label(span, "reached only through delegation")
            .with_object(policy.display())
    }

    fn dead_end(&self) -> &'static str {
        "kgateway replaces it with a direct 500 response (\"invalid route configuration detected and replaced with a direct response\")"
    }
}

/// Expands the routes a listener accepted (`route_listeners`, per route) through delegation.
fn expand(
    model: &Model,
    route_listeners: &[Vec<(u32, u32)>],
    diagnostics: &mut Vec<Diagnostic>,
) -> Expansion {
    let mut walker = Walker::new(model);
    let mut leaves = Vec::with_capacity(model.routes.len());
    for (route, listeners) in route_listeners.iter().enumerate() {
        let mut out = Vec::new();
        if !listeners.is_empty() {
            let route = route as u32;
            let rules = model.routes[route as usize].rules.len() as u32;
            if walker.delegates_at_all(route) {
                let matches = walker.matches(route);
                let roots = (0..rules).map(|rule| (rule, matches[rule as usize].clone()));
                walker.walk(&mut Vec::new(), route, roots.collect(), &mut out);
            } else {
                // The common case: no rule delegates, no match is decoded.
                out.extend(Leaf::unchained(route, rules));
            }
        }
        leaves.push(out);
    }
    diagnostics.append(&mut walker.diagnostics);
    Expansion {
        leaves,
        chains: walker.chains,
        delegations: walker
            .delegations
            .into_iter()
            .map(|((parent, child), rules)| Delegation {
                parent,
                child,
                rules: rules.into_iter().collect(),
            })
            .collect(),
        named_by_delegation: walker.named,
    }
}

/// Rule matches on one chain.
type Matches = Vec<HttpMatch>;

struct Walker<'m> {
    model: &'m Model,
    /// Per HTTPRoute, per rule: its delegating backendRefs (`None`: the rule does not delegate;
    /// the outer `None`: no rule of the route delegates, or not an HTTPRoute).
    refs: Vec<Option<Vec<Option<Vec<DelegateRef>>>>>,
    /// HTTPRoutes per namespace, by name.
    by_namespace: HashMap<&'m str, Vec<u32>>,
    /// Per route, once decoded: each rule's matches and whether it writes `matches`.
    decoded: HashMap<u32, (Vec<Matches>, Vec<bool>)>,
    chain_ids: HashMap<Vec<(u32, u32)>, u32>,
    chains: Vec<Vec<(u32, u32)>>,
    delegations: BTreeMap<((u32, u32), u32), BTreeSet<u32>>,
    named: Vec<bool>,
    diagnostics: Vec<Diagnostic>,
    /// `(child, message)` of the drops already reported.
    reported: HashSet<(u32, String)>,
}

/// Why a child is dropped for one parent.
enum Drop {
    ParentRefs,
    Cycle,
    Hostnames,
}

impl<'m> Walker<'m> {
    fn new(model: &'m Model) -> Walker<'m> {
        // Each route's delegations and DPL2012 findings are its own; routes are read in parallel.
        let (refs, mixed): (Vec<_>, Vec<_>) = model
            .routes
            .par_iter()
            .map(|route| {
                // Only a backendRef to something other than a Service can delegate.
                if route.kind != RouteKind::Http || !route.other_backends {
                    return (None, Vec::new());
                }
                let object = &model.objects[route.object as usize];
                let rules = model
                    .tree(object)
                    .get_path(&["spec", "rules"])
                    .and_then(Node::as_seq)
                    .unwrap_or_default();
                let per_rule: Vec<Option<Vec<DelegateRef>>> = rules
                    .iter()
                    .filter(|rule| rule.as_map().is_some())
                    .map(|rule| delegate_refs(rule, &route.namespace))
                    .collect();
                let refs = per_rule.iter().any(Option::is_some).then_some(per_rule);
                (refs, mixed_backends(route, rules))
            })
            .unzip();
        let mixed: Vec<Diagnostic> = mixed.into_iter().flatten().collect();
        let mut by_namespace: HashMap<&str, Vec<u32>> = HashMap::new();
        for (i, route) in model.routes.iter().enumerate() {
            if route.kind == RouteKind::Http {
                by_namespace
                    .entry(route.namespace.as_str())
                    .or_default()
                    .push(i as u32);
            }
        }
        for routes in by_namespace.values_mut() {
            routes.sort_by_key(|&r| &model.routes[r as usize].name);
        }
        Walker {
            model,
            refs,
            by_namespace,
            decoded: HashMap::new(),
            chain_ids: HashMap::new(),
            chains: Vec::new(),
            delegations: BTreeMap::new(),
            named: vec![false; model.routes.len()],
            diagnostics: mixed,
            reported: HashSet::new(),
        }
    }

    fn delegates_at_all(&self, route: u32) -> bool {
        self.refs[route as usize].is_some()
    }

    fn rule_refs(&self, route: u32, rule: u32) -> Option<&[DelegateRef]> {
        self.refs[route as usize]
            .as_ref()?
            .get(rule as usize)?
            .as_deref()
    }

    /// Decodes a route's rule matches once.
    fn decode(&mut self, route: u32) -> &(Vec<Matches>, Vec<bool>) {
        let model = self.model;
        self.decoded
            .entry(route)
            .or_insert_with(|| decode_matches(model, route))
    }

    fn matches(&mut self, route: u32) -> Vec<Matches> {
        self.decode(route).0.clone()
    }

    fn chain_id(&mut self, chain: &[(u32, u32)]) -> u32 {
        if chain.is_empty() {
            return NO_CHAIN;
        }
        if let Some(&id) = self.chain_ids.get(chain) {
            return id;
        }
        let id = self.chains.len() as u32;
        self.chains.push(chain.to_vec());
        self.chain_ids.insert(chain.to_vec(), id);
        id
    }

    /// The HTTPRoutes a delegating rule names, each once with the first backendRef naming it.
    fn children(&self, refs: &[DelegateRef]) -> Vec<(u32, Span)> {
        let routes = &self.model.routes;
        let labelled = |r: u32, value: &str| {
            self.model.objects[routes[r as usize].object as usize]
                .labels()
                .any(|(k, v)| k == DELEGATION_LABEL && v == value)
        };
        let mut found: Vec<(u32, Span)> = Vec::new();
        for reference in refs {
            let candidates: Vec<u32> = match &reference.namespace {
                Some(ns) => self
                    .by_namespace
                    .get(ns.as_str())
                    .cloned()
                    .unwrap_or_default(),
                None => {
                    let mut all: Vec<u32> = self.by_namespace.values().flatten().copied().collect();
                    all.sort_by_key(|&r| (&routes[r as usize].namespace, &routes[r as usize].name));
                    all
                }
            };
            for r in candidates {
                let selected = match &reference.selects {
                    Selects::Name(name) => routes[r as usize].name == *name,
                    Selects::Every => true,
                    Selects::Label(value) => labelled(r, value),
                };
                if selected && !found.iter().any(|(f, _)| *f == r) {
                    found.push((r, reference.span));
                }
            }
        }
        found
    }

    /// Emits the leaves of `rules` of `route` (each with its matches on this chain) under
    /// `chain`, following delegating rules down.
    fn walk(
        &mut self,
        chain: &mut Vec<(u32, u32)>,
        route: u32,
        rules: Vec<(u32, Matches)>,
        out: &mut Vec<Leaf>,
    ) {
        for (rule, matches) in rules {
            let Some(refs) = self.rule_refs(route, rule) else {
                let chain = self.chain_id(chain);
                out.push(Leaf { chain, route, rule });
                continue;
            };
            let children = self.children(refs);
            chain.push((route, rule));
            for (child, span) in children {
                self.named[child as usize] = true;
                let Some(kept) = self.admit(chain, &matches, child, span) else {
                    continue;
                };
                self.delegations
                    .entry(((route, rule), child))
                    .or_default()
                    .extend(kept.iter().map(|(r, _)| *r));
                self.walk(chain, child, kept, out);
            }
            chain.pop();
        }
    }

    /// The rules of `child` kept under the last rule of `chain` (whose matches on this chain are
    /// `parent_matches`), each with its matches there; `None` (and a diagnostic) when the child
    /// is dropped or keeps no rule.
    fn admit(
        &mut self,
        chain: &[(u32, u32)],
        parent_matches: &[HttpMatch],
        child: u32,
        backend_ref: Span,
    ) -> Option<Vec<(u32, Matches)>> {
        let model = self.model;
        let (parent_route, parent_rule) = *chain.last().expect("a delegating rule");
        let parent = &model.routes[parent_route as usize];
        let route = &model.routes[child as usize];
        let names_parent = route.parent_refs.iter().any(|r| {
            r.group == GATEWAY_GROUP
                && r.kind == "HTTPRoute"
                && r.name == parent.name
                && r.namespace == parent.namespace
        });
        let drop = if !route.parent_refs.is_empty() && !names_parent {
            Some(Drop::ParentRefs)
        } else if chain.iter().any(|&(r, _)| r == child) {
            Some(Drop::Cycle)
        } else if !route.hostnames.is_empty() {
            Some(Drop::Hostnames)
        } else {
            None
        };
        if let Some(drop) = drop {
            self.report_drop(chain, child, drop, backend_ref);
            return None;
        }

        let inherit = inherits(model, child);
        let (own, written) = self.decode(child).clone();
        let mut kept = Vec::new();
        let mut dropped = Vec::new();
        for (rule, (own, written)) in own.iter().zip(written).enumerate() {
            let on_chain = matches_under(parent_matches, own, written, inherit);
            if on_chain.is_empty() {
                dropped.push(rule as u32);
            } else {
                kept.push((rule as u32, on_chain));
            }
        }
        if !dropped.is_empty() {
            self.report_rules_dropped(
                (parent_route, parent_rule),
                parent_matches,
                child,
                &dropped,
                kept.is_empty(),
            );
        }
        (!kept.is_empty()).then_some(kept)
    }

    fn push_once(&mut self, child: u32, diagnostic: Diagnostic) {
        if self.reported.insert((child, diagnostic.message.clone())) {
            self.diagnostics.push(diagnostic);
        }
    }

    fn report_drop(&mut self, chain: &[(u32, u32)], child: u32, drop: Drop, backend_ref: Span) {
        let model = self.model;
        let (parent_route, parent_rule) = *chain.last().expect("a delegating rule");
        let parent = &model.routes[parent_route as usize];
        let route = &model.routes[child as usize];
        let object = &model.objects[route.object as usize];
        let spec_span = |key: &str| {
            model
                .tree(object)
                .get_path(&["spec", key])
                .map_or(route.name_span, |n| n.span)
        };
        let under = rule_name(model, parent_route, parent_rule);
        let delegates_here = (backend_ref, "delegates to it here");
        let (why, labels) = match drop {
            Drop::ParentRefs => (
                ChildDropped::ParentRefs { parent },
                vec![
                    (
                        spec_span("parentRefs"),
                        "does not name the delegating route",
                    ),
                    delegates_here,
                ],
            ),
            Drop::Cycle => {
                let chain = chain.iter().map(|&(r, k)| rule_name(model, r, k));
                let why = ChildDropped::Cycle {
                    chain: chain.collect(),
                };
                (why, vec![(backend_ref, "closes a delegation cycle")])
            }
            Drop::Hostnames => (
                ChildDropped::Hostnames,
                vec![
                    (spec_span("hostnames"), "hostnames on a delegatee"),
                    delegates_here,
                ],
            ),
        };
        let finding = DelegationChildDropped {
            child: route,
            under: &under,
            why,
        };
        let mut diagnostic = Diagnostic::from(finding).with_object(route.display());
        for (span, text) in labels {
            diagnostic = diagnostic.with_label(span, text);
        }
        self.push_once(child, diagnostic);
    }

    fn report_rules_dropped(
        &mut self,
        (parent_route, parent_rule): (u32, u32),
        parent_matches: &[HttpMatch],
        child: u32,
        dropped: &[u32],
        whole_route: bool,
    ) {
        let model = self.model;
        let route = &model.routes[child as usize];
        let under = rule_name(model, parent_route, parent_rule);
        let finding = DelegationChildDropped {
            child: route,
            under: &under,
            why: ChildDropped::Rules {
                dropped: dropped
                    .iter()
                    .map(|&r| route.rules[r as usize].name.as_str())
                    .collect(),
                whole_route,
                parent_matches,
            },
        };
        let label = finding.rule_label();
        let mut diagnostic = Diagnostic::from(finding).with_object(route.display());
        for &r in dropped {
            diagnostic = diagnostic.with_label(route.rules[r as usize].span, label.clone());
        }
        self.push_once(child, diagnostic);
    }
}

/// A route's rule matches, and for each rule whether it writes `matches` (matcher inheritance
/// treats a rule without them as the parent's).
fn decode_matches(model: &Model, route: u32) -> (Vec<Matches>, Vec<bool>) {
    let r = &model.routes[route as usize];
    // Read (and kept) first, so that decoding the matches shares the tree.
    let tree = model.tree(&model.objects[r.object as usize]);
    let matches: Vec<Matches> = crate::model::matches::of_route(model, r)
        .into_iter()
        .map(|m| match m {
            RuleMatches::Http(list) => list,
            RuleMatches::Grpc(_) => Vec::new(),
        })
        .collect();
    let rules = tree
        .get_path(&["spec", "rules"])
        .and_then(Node::as_seq)
        .unwrap_or_default();
    let written: Vec<bool> = (0..matches.len())
        .map(|i| {
            rules
                .get(i)
                .and_then(|rule| rule.get("matches"))
                .and_then(Node::as_seq)
                .is_some_and(|list| !list.is_empty())
        })
        .collect();
    (matches, written)
}

/// The matches one child rule has under a delegating rule whose matches on the chain are
/// `parent`: with matcher inheritance, its own merged with each parent match (the parent's
/// when it writes none); without, its own matches valid under one parent match. Empty: the
/// rule is dropped there.
fn matches_under(parent: &[HttpMatch], own: &[HttpMatch], written: bool, inherit: bool) -> Matches {
    let mut on_chain: Matches = Vec::new();
    let mut add = |m: HttpMatch| {
        if !on_chain.contains(&m) {
            on_chain.push(m);
        }
    };
    if inherit && !written {
        parent.iter().cloned().for_each(&mut add);
    } else if inherit {
        for p in parent {
            own.iter().map(|m| merge_match(p, m)).for_each(&mut add);
        }
    } else {
        own.iter()
            .filter(|m| parent.iter().any(|p| valid_under(p, m)))
            .cloned()
            .for_each(&mut add);
    }
    on_chain
}

/// Whether a route inherits its parents' matchers (its annotation, §2.6).
fn inherits(model: &Model, route: u32) -> bool {
    let route = &model.routes[route as usize];
    inherits_parent_matcher(
        model.objects[route.object as usize].annotation(INHERIT_MATCHER_ANNOTATION),
    )
}

/// The matches each rule of `leaf` has at the end of `chain` (the delegating rules, root
/// first), as the expansion computed them: what `request` matches a delegated path with, so
/// that a child rule answers only requests its parents' matches let through.
fn matches_on_chain(model: &Model, chain: &[(u32, u32)], leaf: u32) -> Vec<Matches> {
    let Some(&(root, root_rule)) = chain.first() else {
        return decode_matches(model, leaf).0;
    };
    let mut parent: Matches = decode_matches(model, root)
        .0
        .swap_remove(root_rule as usize);
    for &(route, rule) in &chain[1..] {
        let (own, written) = decode_matches(model, route);
        let (own, written) = (&own[rule as usize], written[rule as usize]);
        parent = matches_under(&parent, own, written, inherits(model, route));
    }
    let (own, written) = decode_matches(model, leaf);
    let inherit = inherits(model, leaf);
    own.iter()
        .zip(written)
        .map(|(own, written)| matches_under(&parent, own, written, inherit))
        .collect()
}

/// Whether a child match is valid for a parent match without matcher inheritance (kgateway
/// `IsDelegatedRouteMatch`, docs/families.md §2.6): the parent path is a `PathPrefix` and a string
/// prefix of the child's path value; the child repeats the parent's headers and query
/// parameters; the methods are equal when the parent sets one.
pub fn valid_under(parent: &HttpMatch, child: &HttpMatch) -> bool {
    let includes =
        |parent: &[ValueMatch], child: &[ValueMatch]| parent.iter().all(|p| child.contains(p));
    parent.path_type == PathType::PathPrefix
        && child.path.starts_with(&parent.path)
        && includes(&parent.headers, &child.headers)
        && includes(&parent.query, &child.query)
        && parent
            .method
            .as_ref()
            .is_none_or(|m| child.method.as_ref() == Some(m))
}

/// A child match merged with the parent's under matcher inheritance (kgateway
/// `mergeParentChildRouteMatch`): paths joined (`path.Join`), headers and query parameters
/// combined with the parent's winning a name both set (sorted by name), the parent's method
/// when it sets one.
pub fn merge_match(parent: &HttpMatch, child: &HttpMatch) -> HttpMatch {
    let combine = |parent: &[ValueMatch], child: &[ValueMatch]| {
        let mut merged: Vec<ValueMatch> = parent.to_vec();
        for c in child {
            if !merged.iter().any(|m| m.name == c.name) {
                merged.push(c.clone());
            }
        }
        merged.sort_by(|a, b| a.name.cmp(&b.name));
        merged
    };
    HttpMatch {
        path_type: child.path_type,
        path: join_paths(&parent.path, &child.path),
        method: parent.method.clone().or_else(|| child.method.clone()),
        headers: combine(&parent.headers, &child.headers),
        query: combine(&parent.query, &child.query),
    }
}

/// Go's `path.Join` of two absolute paths: joined with `/`, then cleaned (empty and `.`
/// elements dropped, `..` going up, no trailing slash).
fn join_paths(parent: &str, child: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in parent.split('/').chain(child.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    format!("/{}", parts.join("/"))
}

/// `PathPrefix /api, header x-team: blue, query v=1, method GET`.
pub(super) fn describe(m: &HttpMatch) -> String {
    let mut text = format!("{} {}", m.path_type.as_str(), m.path);
    let values = |kind: &str, list: &[ValueMatch], text: &mut String| {
        for v in list {
            let regex = if v.kind == crate::model::matches::ValueType::RegularExpression {
                " ~"
            } else {
                ""
            };
            text.push_str(&format!(", {kind} {}:{regex} {}", v.name, v.value));
        }
    };
    values("header", &m.headers, &mut text);
    values("query", &m.query, &mut text);
    if let Some(method) = &m.method {
        text.push_str(&format!(", method {method}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::matches::ValueType;

    fn prefix(path: &str) -> HttpMatch {
        HttpMatch {
            path: path.into(),
            ..HttpMatch::everything()
        }
    }

    fn header(name: &str, value: &str) -> ValueMatch {
        ValueMatch {
            kind: ValueType::Exact,
            name: name.into(),
            value: value.into(),
        }
    }

    #[test]
    fn the_annotation_is_read_in_any_case() {
        for value in ["true", "True", "YES", "enabled", "Enabled"] {
            assert!(inherits_parent_matcher(Some(value)), "{value}");
        }
        for value in ["false", "1", "on", ""] {
            assert!(!inherits_parent_matcher(Some(value)), "{value}");
        }
        assert!(!inherits_parent_matcher(None));
    }

    #[test]
    fn child_matches_must_narrow_the_parent_match() {
        let parent = prefix("/api");
        assert!(valid_under(&parent, &prefix("/api/v1")));
        assert!(valid_under(&parent, &prefix("/api")));
        // a string prefix, not a path-segment prefix
        assert!(valid_under(&parent, &prefix("/apis")));
        assert!(!valid_under(&parent, &prefix("/v2")));
        assert!(!valid_under(&parent, &prefix("/")));
        let exact = HttpMatch {
            path_type: PathType::Exact,
            ..prefix("/api/health")
        };
        assert!(valid_under(&parent, &exact));
        // the parent must be a PathPrefix
        assert!(!valid_under(&exact, &exact));

        let with_header = HttpMatch {
            headers: vec![header("x-team", "blue")],
            ..prefix("/h")
        };
        let child = HttpMatch {
            headers: vec![header("x-extra", "1"), header("x-team", "blue")],
            ..prefix("/h/a")
        };
        assert!(valid_under(&with_header, &child));
        assert!(!valid_under(&with_header, &prefix("/h/b")));
        let other_value = HttpMatch {
            headers: vec![header("x-team", "red")],
            ..prefix("/h/a")
        };
        assert!(!valid_under(&with_header, &other_value));

        let get = HttpMatch {
            method: Some("GET".into()),
            ..prefix("/")
        };
        assert!(!valid_under(&get, &prefix("/x")));
        assert!(valid_under(
            &get,
            &HttpMatch {
                method: Some("GET".into()),
                ..prefix("/x")
            }
        ));
        assert!(valid_under(&prefix("/"), &get));
    }

    #[test]
    fn inherited_matches_join_paths_and_keep_the_parents_conditions() {
        assert_eq!(join_paths("/api", "/v1"), "/api/v1");
        assert_eq!(join_paths("/api/", "/"), "/api");
        assert_eq!(join_paths("/", "/"), "/");
        assert_eq!(join_paths("/a/b", "/../c"), "/a/c");
        let parent = HttpMatch {
            headers: vec![header("x-team", "blue")],
            method: Some("POST".into()),
            ..prefix("/team")
        };
        let child = HttpMatch {
            headers: vec![header("x-team", "red"), header("a", "1")],
            method: Some("GET".into()),
            ..prefix("/cart")
        };
        let merged = merge_match(&parent, &child);
        assert_eq!(merged.path, "/team/cart");
        assert_eq!(
            merged.headers,
            vec![header("a", "1"), header("x-team", "blue")]
        );
        assert_eq!(merged.method.as_deref(), Some("POST"));
    }
}
