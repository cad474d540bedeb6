//! dopol's own outcome of a policy per target, in the shape GEP-5058 proposes for
//! `PolicyAncestorStatus` (`ancestors[].targets[]`: a `targetRef` and its conditions under each
//! ancestor Gateway). Controllers write one set of conditions per ancestor, so a policy with two
//! targets under one Gateway cannot say which of them took effect; issue 49 asks for the
//! per-target answer beside the controller's status, marked as dopol's: it is written under the
//! status item's `dopol` key, with the `dopol.io/Effective` condition type (GEP-713 asks for an
//! implementation's own domain prefix on its own conditions).
//!
//! The answer is read from the outcomes of the paths the status lists (so `--gateway` and the
//! other filters narrow it as they narrow `rules`): a path counts for each of the policy's
//! targets among its elements. A target through which no listed path runs is not listed, and a
//! family with a hierarchy of its own (Kuma) has no Gateway ancestors: its item has no `dopol`.
//! A ListenerSet and its listeners are named as the set (`kind: ListenerSet`, `sectionName`).

use super::filter::Filters;
use super::status::shown_observations;
use crate::engine::observed::Observed;
use crate::engine::outcomes::Outcome;
use crate::policy::evaluator::{AncestorRef, Condition};
use crate::topology::Target;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// `status.dopol` of a policy: its per-target outcome under each ancestor Gateway.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DopolStatus {
    /// One entry per Gateway some listed path of the policy runs through, in input order.
    pub ancestors: Vec<AncestorTargets>,
}

/// An ancestor Gateway and the policy's targets under it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AncestorTargets {
    /// The Gateway.
    #[serde(rename = "ancestorRef")]
    pub ancestor_ref: AncestorRef,
    /// Each target of the policy with a listed path under the Gateway, in hierarchy order.
    pub targets: Vec<TargetStatus>,
}

/// One target and dopol's condition on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TargetStatus {
    /// The target (`sectionName` for a listener or a route rule).
    #[serde(rename = "targetRef")]
    pub target_ref: AncestorRef,
    /// `dopol.io/Effective`.
    pub conditions: Vec<Condition>,
}

/// What the paths through one target did with the policy's rules.
#[derive(Default)]
struct Tally<'m> {
    /// Distinct paths (a path's observations come together: the last one counted is enough).
    paths: usize,
    last_path: Option<u32>,
    /// Per rule key: effective on some path, and who beat it where it lost (a policy has a
    /// handful of keys and winners: vectors searched in place beat maps).
    keys: Vec<(&'m str, bool, Vec<u32>)>,
}

impl<'m> Tally<'m> {
    fn add(&mut self, path: u32, key: &'m str, outcome: &Outcome, p: u32) {
        if self.last_path != Some(path) {
            self.last_path = Some(path);
            self.paths += 1;
        }
        let at = match self.keys.iter().position(|(k, ..)| *k == key) {
            Some(at) => at,
            None => {
                self.keys.push((key, false, Vec::new()));
                self.keys.len() - 1
            }
        };
        let (_, effective, winners) = &mut self.keys[at];
        match outcome {
            Outcome::Added | Outcome::Merged { .. } => *effective = true,
            lost => {
                for &w in lost.by() {
                    if w != p && !winners.contains(&w) {
                        winners.push(w);
                    }
                }
            }
        }
    }
}

/// `status.dopol` of policy `p` over the paths `filters` shows; `None` when the policy reaches
/// no such path through a target dopol resolved.
pub fn dopol_status(observed: &Observed<'_, '_>, filters: &Filters, p: u32) -> Option<DopolStatus> {
    let engine = &observed.engine;
    let targets = &engine.topology.targets.of_policy[p as usize];
    if targets.is_empty() {
        return None;
    }
    // A tally per (Gateway, target), found once per path, not once per outcome.
    let mut index: FxHashMap<(u32, Target), usize> = FxHashMap::default();
    let mut tallies: Vec<((u32, Target), Tally<'_>)> = Vec::new();
    let entries = &observed.entries_of_policy[p as usize];
    let mut on_path: (u32, Vec<usize>) = (u32::MAX, Vec::new());
    for seen in shown_observations(observed, filters, p, entries) {
        if on_path.0 != seen.path {
            let gateway = engine.topology.paths[seen.path as usize].gateway;
            let at = (targets_on(observed, targets, seen.path).into_iter())
                .map(|target| {
                    *index.entry((gateway, target)).or_insert_with(|| {
                        tallies.push(((gateway, target), Tally::default()));
                        tallies.len() - 1
                    })
                })
                .collect();
            on_path = (seen.path, at);
        }
        for &at in &on_path.1 {
            tallies[at].1.add(seen.path, seen.key, seen.outcome, p);
        }
    }
    tallies.sort_unstable_by_key(|(at, _)| *at);
    // Sorted by Gateway: a new ancestor starts where the Gateway index changes.
    let mut ancestors: Vec<AncestorTargets> = Vec::new();
    let mut last_gateway = None;
    for ((gateway, target), mut tally) in tallies {
        tally.keys.sort_unstable_by_key(|(key, ..)| *key);
        if last_gateway != Some(gateway) {
            last_gateway = Some(gateway);
            ancestors.push(AncestorTargets {
                ancestor_ref: gateway_ref(observed, gateway),
                targets: Vec::new(),
            });
        }
        if let Some(last) = ancestors.last_mut() {
            last.targets.push(TargetStatus {
                target_ref: reference(observed, target),
                conditions: vec![effective(observed, &tally)],
            });
        }
    }
    Some(DopolStatus { ancestors }).filter(|d| !d.ancestors.is_empty())
}

/// The policy's targets among the elements of path `path`.
fn targets_on(observed: &Observed<'_, '_>, targets: &[Target], path: u32) -> Vec<Target> {
    if let [only] = targets {
        return vec![*only];
    }
    let topology = observed.engine.topology;
    let elements = topology.elements(&topology.paths[path as usize]);
    (targets.iter())
        .filter(|t| elements.contains(t))
        .copied()
        .collect()
}

/// `dopol.io/Effective` of one target from its tally.
fn effective(observed: &Observed<'_, '_>, tally: &Tally<'_>) -> Condition {
    let lost: Vec<String> = (tally.keys.iter())
        .filter(|(_, effective, _)| !effective)
        .map(
            |(key, _, winners)| match observed.locators(winners).as_slice() {
                [] => format!("`{key}`"),
                by => format!("`{key}` (loses to {})", by.join(", ")),
            },
        )
        .collect();
    let (on, none_on) = match tally.paths {
        1 => (
            "effective on the 1 path".to_string(),
            "not effective on the 1 path".to_string(),
        ),
        n => (
            format!("effective on the {n} paths"),
            format!("effective on none of the {n} paths"),
        ),
    };
    let rules = match tally.keys.len() {
        1 => "its 1 rule".to_string(),
        n => format!("its {n} rules"),
    };
    let lost_list = lost.join(", ");
    let (status, reason, message) = match lost.len() {
        0 => ("True", "Effective", format!("{rules}: {on} through it")),
        l if l < tally.keys.len() => (
            "True",
            "PartiallyEffective",
            format!("{l} of {rules} {none_on} through it: {lost_list}"),
        ),
        _ => (
            "False",
            "Ineffective",
            format!("{rules}: {none_on} through it: {lost_list}"),
        ),
    };
    Condition {
        kind: "dopol.io/Effective",
        status,
        reason,
        message,
    }
}

/// A Gateway as an `ancestorRef`.
fn gateway_ref(observed: &Observed<'_, '_>, gateway: u32) -> AncestorRef {
    let gw = &observed.engine.model.gateways[gateway as usize];
    AncestorRef {
        group: crate::model::gateway::GATEWAY_GROUP,
        kind: "Gateway",
        namespace: gw.namespace.clone(),
        name: gw.name.clone(),
        section_name: None,
    }
}

/// A target as a `targetRef` (with its namespace, which a policy's selector may cross).
fn reference(observed: &Observed<'_, '_>, target: Target) -> AncestorRef {
    let model = observed.engine.model;
    match target {
        Target::Gateway(g) => gateway_ref(observed, g),
        Target::Listener(g, l) => {
            // A ListenerSet's listener is named on its set (`S#L`).
            let owner = match crate::topology::listener_sets::set_of(model, g, l) {
                Some(set) => reference(observed, Target::ListenerSet(set)),
                None => gateway_ref(observed, g),
            };
            let listener = &model.gateways[g as usize].listeners[l as usize];
            AncestorRef {
                section_name: Some(listener.name.clone()),
                ..owner
            }
        }
        Target::ListenerSet(set) => {
            let set = &model.listener_sets[set as usize];
            let (group, kind) = match set.legacy {
                true => (crate::model::gateway::X_GATEWAY_GROUP, "XListenerSet"),
                false => (crate::model::gateway::GATEWAY_GROUP, "ListenerSet"),
            };
            AncestorRef {
                group,
                kind,
                namespace: set.namespace.clone(),
                name: set.name.clone(),
                section_name: None,
            }
        }
        Target::Route(r) | Target::RouteRule(r, _) => {
            let route = &model.routes[r as usize];
            let section_name = match target {
                Target::RouteRule(_, k) => Some(route.rules[k as usize].name.to_string()),
                _ => None,
            };
            AncestorRef {
                group: crate::model::gateway::GATEWAY_GROUP,
                kind: route.kind.as_str(),
                namespace: route.namespace.to_string(),
                name: route.name.to_string(),
                section_name,
            }
        }
    }
}
