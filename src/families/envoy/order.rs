//! The order in which Envoy Gateway processes one policy's targets (field-2026 §2.5, §2.6), which
//! is the order its status ancestors are inserted in.
//!
//! The controller runs one pass per target kind — route rules, routes, (ListenerSet listeners,
//! ListenerSets,) Gateway listeners, Gateways (`eg/backendtrafficpolicy.go`
//! ProcessBackendTrafficPolicies and its three twins) — and inside a pass takes the policy's
//! targets as `composePolicyTargetRefs` lists them: the objects its selectors match, oldest
//! `creationTimestamp` first (one without a timestamp first of all: Go's zero time; ties by
//! namespace, then name), then its `targetRefs` in written order. It writes each ancestor when it
//! first sets a condition on it and never re-sorts (below 16 ancestors), so dopol walks the
//! targets in this order to list the ancestors as the controller does.

use super::evaluate::EnvoyEvaluator;
use super::slots::{Claim, claims};
use crate::load::Timestamp;
use crate::policy::Level;
use crate::topology::Target;
use crate::topology::family::Via;

/// One step of the walk: a resolved target, or a `targetRefs` entry whose object exists but
/// whose `sectionName` does not (its index in `Policy::targets`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A target the topology resolved.
    Resolved(Target),
    /// A `targetRefs` entry with a `sectionName` that names nothing.
    MissingSection(usize),
    /// A ListenerSet listener target of a set its Gateway did not admit (its `Via` number).
    NotJoined(usize),
    /// A whole ListenerSet (an index into `Model::listener_sets`), joined or not.
    Set(u32),
    /// CTP's `G#x` quirk: a Gateway `sectionName` taken on this ListenerSet listener.
    GatewaySection(Target),
}

/// Where a step sorts: pass, then selector matches before `targetRefs`, then the match's age and
/// name or the entry's index.
type SortKey = (u8, u8, Option<Timestamp>, String, String, usize);

/// The pass of ListenerSet listener targets.
pub const SET_LISTENER_PASS: u8 = 2;

/// The pass of whole-ListenerSet targets.
pub const SET_PASS: u8 = 3;

/// The pass of a resolved target: its level's, or [`SET_LISTENER_PASS`] for a set's listener.
fn pass_of(evaluator: &EnvoyEvaluator<'_>, target: Target) -> u8 {
    match target {
        Target::Listener(g, l)
            if crate::topology::listener_sets::set_of(evaluator.model, g, l).is_some() =>
        {
            SET_LISTENER_PASS
        }
        _ => pass(target.level()),
    }
}

/// The pass of a target level.
pub fn pass(level: Level) -> u8 {
    match level {
        Level::RouteRule => 0,
        Level::Route => 1,
        Level::Listener => 4,
        _ => 5,
    }
}

/// `policy`'s steps in the controller's order; `missing` are the indexes of its `targetRefs`
/// entries with a missing section, each with its pass; `unjoined` the numbers of its
/// ListenerSet listener targets on sets their Gateway did not admit.
pub fn steps(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    missing: &[(usize, u8)],
    unjoined: &[usize],
) -> Vec<Step> {
    let (model, topology) = (evaluator.model, evaluator.topology);
    let targets = &topology.targets.of_policy[policy as usize];
    let kind = evaluator.kind_index(policy);
    let mut keyed: Vec<(SortKey, Step)> = Vec::with_capacity(targets.len() + missing.len());
    for &target in targets {
        if keyed.iter().any(|(_, s)| *s == Step::Resolved(target))
            || !claims(model, topology, (target, kind), policy, Claim::Own)
        {
            continue;
        }
        keyed.push((
            resolved_key(evaluator, policy, target),
            Step::Resolved(target),
        ));
    }
    for &(index, pass) in missing {
        let key = (pass, 1, None, String::new(), String::new(), index);
        keyed.push((key, Step::MissingSection(index)));
    }
    for &index in unjoined {
        let key = (
            SET_LISTENER_PASS,
            1,
            None,
            String::new(),
            String::new(),
            index,
        );
        keyed.push((key, Step::NotJoined(index)));
    }
    keyed.extend(set_steps(evaluator, policy));
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, step)| step).collect()
}

/// The steps of `policy`'s whole ListenerSets (one per set) and of CTP's `G#x` quirk (in the
/// Gateway-listener pass, by `targetRefs` index), with their sort keys.
fn set_steps(evaluator: &EnvoyEvaluator<'_>, policy: u32) -> Vec<(SortKey, Step)> {
    let (model, topology) = (evaluator.model, evaluator.topology);
    let kind = evaluator.kind_index(policy);
    let p = &model.policies[policy as usize];
    let mut keyed = Vec::new();
    for (index, target) in super::sets::quirks(model, p) {
        let claim = Claim::GatewaySection;
        if claims(model, topology, (target, kind), policy, claim) {
            let key = (
                pass(Level::Listener),
                1,
                None,
                String::new(),
                String::new(),
                index,
            );
            keyed.push((key, Step::GatewaySection(target)));
        }
    }
    for (set, via) in super::sets::whole_targets(model, p) {
        if !keyed.iter().any(|(_, s)| *s == Step::Set(set)) {
            keyed.push((set_key(evaluator, set, via), Step::Set(set)));
        }
    }
    keyed
}

/// The sort key of a whole-ListenerSet target: a selector match by the set's age and name, a
/// `targetRefs` entry by its index.
fn set_key(evaluator: &EnvoyEvaluator<'_>, set: u32, via: Via) -> SortKey {
    let s = &evaluator.model.listener_sets[set as usize];
    match via {
        Via::Selector(_) => (
            SET_PASS,
            0,
            s.creation_timestamp,
            s.namespace.clone(),
            s.name.clone(),
            0,
        ),
        Via::TargetRef(i) => (SET_PASS, 1, None, String::new(), String::new(), i as usize),
        Via::Extension(_) => (SET_PASS, 2, None, String::new(), String::new(), 0),
    }
}

/// The sort key of a resolved target: a selector match by its object's age and name, a
/// `targetRefs` entry by its index.
fn resolved_key(evaluator: &EnvoyEvaluator<'_>, policy: u32, target: Target) -> SortKey {
    let topology = evaluator.topology;
    let kind = evaluator.kind_index(policy);
    let vias: Vec<Via> = topology
        .targets
        .on(target, kind)
        .iter()
        .zip(topology.targets.vias_on(target, kind))
        .filter(|(p, _)| **p == policy)
        .map(|(_, via)| *via)
        .filter(|&via| {
            super::slots::set_of(evaluator.model, target).is_none()
                || !super::sets::is_whole(evaluator.model, policy, via)
        })
        .collect();
    let pass = pass_of(evaluator, target);
    let selected = vias.iter().any(|v| matches!(v, Via::Selector(_)));
    if selected {
        let (timestamp, namespace, name) = object_of(evaluator, target);
        return (pass, 0, timestamp, namespace, name, 0);
    }
    let index = vias
        .iter()
        .find_map(|v| match v {
            Via::TargetRef(i) => Some(*i as usize),
            _ => None,
        })
        .unwrap_or(usize::MAX);
    (pass, 1, None, String::new(), String::new(), index)
}

/// The creation time, namespace and name of the object a target belongs to.
fn object_of(
    evaluator: &EnvoyEvaluator<'_>,
    target: Target,
) -> (Option<Timestamp>, String, String) {
    let model = evaluator.model;
    match target {
        Target::Gateway(g) | Target::Listener(g, _) => {
            let gw = &model.gateways[g as usize];
            let timestamp = (!gw.assumed)
                .then(|| model.objects.get(gw.object as usize))
                .flatten()
                .and_then(|o| o.creation_timestamp);
            (timestamp, gw.namespace.to_string(), gw.name.to_string())
        }
        Target::ListenerSet(s) => {
            let set = &model.listener_sets[s as usize];
            (
                set.creation_timestamp,
                set.namespace.clone(),
                set.name.clone(),
            )
        }
        Target::Route(r) | Target::RouteRule(r, _) => {
            let route = &model.routes[r as usize];
            (
                route.creation_timestamp,
                route.namespace.to_string(),
                route.name.to_string(),
            )
        }
    }
}
