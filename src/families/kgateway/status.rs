//! TrafficPolicy status (docs/families.md §2.7): every scope instance a policy takes part in is merged
//! and reported on its own, per ancestor Gateway, and the worst state wins
//! (Overridden > Merged > Attached).
//!
//! Scope instances: the route scope of every path (ancestor: the Gateway, with the `sectionName`
//! of the root route's parentRef the path attaches through); the scope of every HTTP listener
//! with a path (the Gateway, no `sectionName`); the whole-Gateway level of every Gateway and the
//! combined listener + Gateway level of every HTTPS listener (the Gateway).

use super::evaluate::{KgatewayEvaluator, ancestor};
use crate::engine::observed::Observed;
use crate::policy::Condition;
use crate::policy::{AncestorRef, AncestorStatus, PathLevel, PolicyConditions};
use crate::topology::Target;
use crate::topology::listener_sets::set_of;
use std::collections::BTreeMap;

/// A policy's state in one scope instance, worst last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum State {
    Attached,
    Merged,
    Overridden,
}

/// The status of `policy`.
pub fn conditions(
    evaluator: &KgatewayEvaluator<'_>,
    observed: &Observed<'_, '_>,
    policy: u32,
) -> PolicyConditions {
    let model = evaluator.model();
    let p = &model.policies[policy as usize];
    let invalid = !p.errors.is_empty();
    let accepted = accepted(p);
    let states = instances(evaluator, observed, policy);
    if states.is_empty() {
        return unresolved(evaluator.topology(), p, policy, accepted);
    }
    let attached = |state: State| attached(state, invalid);
    let worst = states.values().copied().max().unwrap_or(State::Attached);
    let mut ancestors: Vec<AncestorStatus> = states
        .into_iter()
        .map(|(SortKey(reference), state)| AncestorStatus {
            ancestor_ref: reference,
            conditions: vec![accepted.clone(), attached(state)],
            conflicted_by: Vec::new(),
        })
        .collect();
    ancestors.sort_by_key(|a| kind_sort_key(&a.ancestor_ref));
    PolicyConditions {
        conditions: vec![accepted.clone(), attached(worst)],
        ancestors: Some(ancestors),
    }
}

/// Accepted as kgateway writes it: True/`Valid`, or False/`Invalid` with the policy's errors.
pub(super) fn accepted(p: &crate::policy::Policy) -> Condition {
    if p.errors.is_empty() {
        Condition::new("Accepted", "True", "Valid", "Policy accepted")
    } else {
        Condition::new("Accepted", "False", "Invalid", p.errors.join("; "))
    }
}

/// The status of a policy that reaches nothing (docs/families.md §1, unresolved policies): no
/// ancestors, Accepted False/`TargetNotFound` unless the policy is already invalid.
pub(super) fn unresolved(
    topology: &crate::topology::Topology,
    p: &crate::policy::Policy,
    policy: u32,
    accepted: Condition,
) -> PolicyConditions {
    let message = topology.targets.not_accepted[policy as usize]
        .clone()
        .unwrap_or_else(|| format!("{} has no targets", p.kind.kind));
    let accepted = if p.errors.is_empty() {
        Condition::new("Accepted", "False", "TargetNotFound", &message)
    } else {
        accepted
    };
    PolicyConditions {
        conditions: vec![accepted],
        ancestors: Some(Vec::new()),
    }
}

/// The Attached condition of a policy in `state` (§2.7; False/`Pending` for an invalid policy).
pub(super) fn attached(state: State, invalid: bool) -> Condition {
    if invalid {
        return Condition::new("Attached", "False", "Pending", "");
    }
    match state {
        State::Attached => {
            Condition::new("Attached", "True", "Attached", "Attached to all targets")
        }
        State::Merged => Condition::new(
            "Attached",
            "True",
            "Merged",
            "Merged with other policies in target(s) and attached",
        ),
        State::Overridden => Condition::new(
            "Attached",
            "False",
            "Overridden",
            "Overridden due to conflict with higher priority policy in target(s)",
        ),
    }
}

/// kgateway sorts ancestors by `<group>/<kind>/<name>/<sectionName>/<port>.<namespace>`.
pub(super) fn sort_key(reference: &AncestorRef) -> (String, Option<String>, String) {
    (
        reference.name.clone(),
        reference.section_name.clone(),
        reference.namespace.clone(),
    )
}

/// [`sort_key`] with the group and kind first: TrafficPolicy ancestors may be ListenerSets
/// (field-2026 §3.1, "the kind in the sort string").
fn kind_sort_key(
    reference: &AncestorRef,
) -> (&'static str, &'static str, (String, Option<String>, String)) {
    (reference.group, reference.kind, sort_key(reference))
}

/// An ancestor as a map key.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SortKey(AncestorRef);

impl PartialOrd for SortKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SortKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        kind_sort_key(&self.0).cmp(&kind_sort_key(&other.0))
    }
}

/// The worst state of `policy` per ancestor over every scope instance it takes part in.
fn instances(
    evaluator: &KgatewayEvaluator<'_>,
    observed: &Observed<'_, '_>,
    policy: u32,
) -> BTreeMap<SortKey, State> {
    let model = evaluator.model();
    let engine = observed.engine;
    let kind = model
        .registry
        .kind_index(model.policies[policy as usize].kind);
    let mut states: BTreeMap<SortKey, State> = BTreeMap::new();
    let mut record = |reference: AncestorRef, state: State| {
        let entry = states.entry(SortKey(reference)).or_insert(state);
        *entry = (*entry).max(state);
    };
    let mut listeners_seen = std::collections::BTreeSet::new();
    for &index in &observed.entries_of_policy[policy as usize] {
        let (entry, _) = observed.entry(index);
        let path = &engine.topology.paths[entry.path as usize];
        let levels = engine.levels(path, kind);
        let view = PathLevel::borrow_all(&levels);
        let split = evaluator.split(&view);
        if split.routes.iter().any(|(_, p)| p.contains(&policy)) {
            let route = evaluator.route_scope(&split.routes);
            let route_ancestor = match set_of(model, path.gateway, path.listener) {
                Some(set) => set_ancestor(model, set, set_section(evaluator, path, set)),
                None => ancestor(model, path.gateway, root_section(evaluator, path)),
            };
            record(route_ancestor, state(policy, &route.values));
        }
        if split.listener.contains(&policy) && listeners_seen.insert((path.gateway, path.listener))
        {
            let listener = evaluator.level(&split.listener);
            record(
                listener_ancestor(model, path),
                state(policy, &listener.values),
            );
        }
        if split.https && split.gateway.contains(&policy) {
            let gateway = evaluator.level(&split.gateway);
            record(
                listener_ancestor(model, path),
                state(policy, &gateway.values),
            );
        }
    }
    // The whole-Gateway level of every Gateway the policy targets, with or without paths; a
    // whole ListenerSet likewise (one its Gateway did not admit is on no path).
    let targets = &engine.topology.targets;
    for &target in &targets.of_policy[policy as usize] {
        let reference = match target {
            Target::Gateway(g) => ancestor(model, g, None),
            Target::ListenerSet(s) => set_ancestor(model, s, None),
            _ => continue,
        };
        let level = evaluator.level(targets.on(target, kind));
        record(reference, state(policy, &level.values));
    }
    states
}

/// The ancestor of a listener-scope report on a path: the Gateway, or for a ListenerSet's
/// listener `S#L` the ListenerSet, without `sectionName` (field-2026 §3.1).
fn listener_ancestor(model: &crate::model::Model, path: &crate::topology::Path) -> AncestorRef {
    match set_of(model, path.gateway, path.listener) {
        Some(set) => set_ancestor(model, set, None),
        None => ancestor(model, path.gateway, None),
    }
}

/// ListenerSet `set` as an ancestor, its kind as its GVK.
fn set_ancestor(model: &crate::model::Model, set: u32, section: Option<String>) -> AncestorRef {
    use crate::model::gateway::{GATEWAY_GROUP, X_GATEWAY_GROUP};
    let s = &model.listener_sets[set as usize];
    let (group, kind) = match s.legacy {
        true => (X_GATEWAY_GROUP, "XListenerSet"),
        false => (GATEWAY_GROUP, "ListenerSet"),
    };
    AncestorRef {
        group,
        kind,
        namespace: s.namespace.clone(),
        name: s.name.clone(),
        section_name: section,
    }
}

/// The `sectionName` of the root route's parentRef to ListenerSet `set` through which the path
/// attaches (kgateway `routeAncestorRef`: the parentRef's own `sectionName`).
fn set_section(
    evaluator: &KgatewayEvaluator<'_>,
    path: &crate::topology::Path,
    set: u32,
) -> Option<String> {
    let model = evaluator.model();
    let s = &model.listener_sets[set as usize];
    let listener = &model.gateways[path.gateway as usize].listeners[path.listener as usize].name;
    model.routes[root_route(evaluator, path) as usize]
        .parent_refs
        .iter()
        .filter(|r| crate::topology::listener_sets::is_set_kind(&r.kind))
        .filter(|r| r.name == s.name && r.namespace == s.namespace)
        .find_map(|r| r.section_name.as_ref().filter(|x| *x == listener))
        .map(String::from)
}

/// The root route of a path: the first of its delegation chain, else its own.
fn root_route(evaluator: &KgatewayEvaluator<'_>, path: &crate::topology::Path) -> u32 {
    if path.chain == crate::topology::NO_CHAIN {
        path.route
    } else {
        evaluator.topology().chains[path.chain as usize][0].0
    }
}

/// The policy's state in one merged scope instance.
fn state(policy: u32, values: &BTreeMap<String, super::Contribution>) -> State {
    if values.is_empty() {
        return State::Attached;
    }
    let contributed = values
        .values()
        .filter(|c| c.origins.contains(&policy))
        .count();
    match contributed {
        0 => State::Overridden,
        n if n == values.len() => State::Attached,
        _ => State::Merged,
    }
}

/// The `sectionName` of the root route's parentRef through which the path attaches.
fn root_section(evaluator: &KgatewayEvaluator<'_>, path: &crate::topology::Path) -> Option<String> {
    let model = evaluator.model();
    let root = root_route(evaluator, path);
    let gateway = &model.gateways[path.gateway as usize];
    let listener = &gateway.listeners[path.listener as usize].name;
    model.routes[root as usize]
        .parent_refs
        .iter()
        .filter(|r| {
            r.kind == "Gateway" && r.name == gateway.name && r.namespace == gateway.namespace
        })
        .find_map(|r| r.section_name.as_ref().filter(|s| *s == listener))
        .map(String::from)
}
