//! Envoy Gateway status (families §3.5): per ancestor Gateway (and listener) the conditions the
//! controller writes — Accepted (or Conflicted / TargetNotFound), Merged, Overridden — with its
//! exact messages, and the top-level conditions taken from them.
//!
//! Several targets of one policy on one ancestor: Accepted is True when any of them is
//! accepted there, else the first failure; Merged and Overridden keep the first message.

use super::evaluate::EnvoyEvaluator;
use super::slots::{conflict_message, holder, why_first};
use super::spec::ListenerStyle;
use crate::engine::observed::Observed;
use crate::model::gateway::GATEWAY_GROUP;
use crate::policy::{AncestorRef, AncestorStatus, Condition, ConflictNote, PolicyConditions};
use crate::topology::Target;
use std::collections::{BTreeMap, BTreeSet};

/// An ancestor: Gateway namespace, name, listener (absent first).
type Key = (String, String, Option<String>);

#[derive(Default)]
struct Slot {
    accepted: Option<Condition>,
    merged: Option<Condition>,
    overridden: Option<Condition>,
    conflicts: Vec<ConflictNote>,
}

fn condition(
    kind: &'static str,
    status: &'static str,
    reason: &'static str,
    message: String,
) -> Condition {
    Condition {
        kind,
        status,
        reason,
        message,
    }
}

fn accepted() -> Condition {
    condition(
        "Accepted",
        "True",
        "Accepted",
        "Policy has been accepted.".into(),
    )
}

/// The status of `policy`.
pub fn conditions(
    evaluator: &EnvoyEvaluator<'_>,
    _observed: &Observed<'_, '_>,
    policy: u32,
) -> PolicyConditions {
    let model = evaluator.model;
    let p = &model.policies[policy as usize];
    let mut slots: BTreeMap<Key, Slot> = BTreeMap::new();
    let targets = &evaluator.topology.targets.of_policy[policy as usize];
    let unique: BTreeSet<Target> = targets.iter().copied().collect();
    for target in unique {
        target_status(evaluator, policy, target, &mut slots);
    }
    missing_sections(evaluator, policy, &mut slots);
    for record in evaluator.merges().iter().filter(|r| r.winner == policy) {
        let path = &evaluator.topology.paths[record.path as usize];
        let gateway = &model.gateways[path.gateway as usize];
        let listener = gateway.listeners[path.listener as usize].name.clone();
        let parent = &model.policies[record.parent as usize];
        let slot = slots
            .entry((
                gateway.namespace.clone(),
                gateway.name.clone(),
                Some(listener),
            ))
            .or_default();
        slot.merged.get_or_insert_with(|| {
            let message = format!("Merged with policy {}", parent.namespaced_name());
            condition("Merged", "True", "Merged", message)
        });
    }
    if slots.is_empty() && !targets.is_empty() {
        // Resolved, but on routes without a Gateway parentRef: the controller writes no
        // ancestor; the policy is not rejected.
        return PolicyConditions {
            conditions: vec![accepted()],
            ancestors: Some(Vec::new()),
        };
    }
    if slots.is_empty() {
        let message = evaluator.topology.targets.not_accepted[policy as usize]
            .clone()
            .unwrap_or_else(|| format!("{} has no targets", p.kind.kind));
        return PolicyConditions {
            conditions: vec![condition("Accepted", "False", "TargetNotFound", message)],
            ancestors: Some(Vec::new()),
        };
    }
    let top = top_level(&slots);
    let ancestors = slots
        .into_iter()
        .map(|((namespace, name, section_name), slot)| AncestorStatus {
            ancestor_ref: AncestorRef {
                group: GATEWAY_GROUP,
                kind: "Gateway",
                namespace,
                name,
                section_name,
            },
            conditions: [slot.accepted, slot.merged, slot.overridden]
                .into_iter()
                .flatten()
                .collect(),
            conflicted_by: slot.conflicts,
        })
        .collect();
    PolicyConditions {
        conditions: top,
        ancestors: Some(ancestors),
    }
}

/// Accepted True when any ancestor accepts, else the first ancestor's; Merged and Overridden
/// from the first ancestor that has them.
fn top_level(slots: &BTreeMap<Key, Slot>) -> Vec<Condition> {
    let any = slots
        .values()
        .filter_map(|s| s.accepted.as_ref())
        .find(|c| c.status == "True");
    let first = slots.values().find_map(|s| s.accepted.clone());
    let merged = slots.values().find_map(|s| s.merged.clone());
    let overridden = slots.values().find_map(|s| s.overridden.clone());
    [any.cloned().or(first), merged, overridden]
        .into_iter()
        .flatten()
        .collect()
}

/// The ancestors of a target: the Gateway (and listener), or each Gateway a route names.
fn ancestors_of(evaluator: &EnvoyEvaluator<'_>, target: Target) -> Vec<Key> {
    let model = evaluator.model;
    let gateway = |g: u32, section: Option<String>| {
        let gw = &model.gateways[g as usize];
        vec![(gw.namespace.clone(), gw.name.clone(), section)]
    };
    match target {
        Target::Gateway(g) => gateway(g, None),
        Target::Listener(g, l) => {
            let name = model.gateways[g as usize].listeners[l as usize]
                .name
                .clone();
            gateway(g, Some(name))
        }
        Target::Route(r) | Target::RouteRule(r, _) => model.routes[r as usize]
            .parent_refs
            .iter()
            .filter(|p| p.kind == "Gateway" && p.group == GATEWAY_GROUP)
            .map(|p| (p.namespace.clone(), p.name.clone(), p.section_name.clone()))
            .collect(),
    }
}

/// The conditions one resolved target gives its ancestors.
fn target_status(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    target: Target,
    slots: &mut BTreeMap<Key, Slot>,
) {
    let model = evaluator.model;
    let kind = evaluator.kind_index(policy);
    let spec = evaluator.spec(policy);
    let holder = holder(evaluator.topology, target, kind).unwrap_or(policy);
    let (state, note) = if holder == policy {
        (accepted(), None)
    } else {
        let message = conflict_message(
            model,
            target,
            model.policies[policy as usize].kind.kind,
            spec.listener_style,
        );
        let note = ConflictNote {
            target: target.describe(model),
            winner: model.policies[holder as usize].locator.clone(),
            why: why_first(model, holder, policy),
        };
        (
            condition("Accepted", "False", "Conflicted", message),
            Some(note),
        )
    };
    let accepted_here = holder == policy;
    let overridden = accepted_here
        .then(|| overridden(evaluator, policy, target))
        .flatten();
    let merged = accepted_here
        .then(|| merged_routes(evaluator, policy, target))
        .flatten();
    for key in ancestors_of(evaluator, target) {
        let slot = slots.entry(key).or_default();
        let replace = match &slot.accepted {
            None => true,
            Some(c) => c.status == "False" && state.status == "True",
        };
        if replace {
            slot.accepted = Some(state.clone());
        }
        slot.conflicts.extend(note.clone());
        if slot.overridden.is_none() {
            slot.overridden = overridden.clone();
        }
        if slot.merged.is_none() {
            slot.merged = merged.clone();
        }
    }
}

/// `ns/route` of the routes merged into `policy` at `slot`.
fn merged_into(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Target) -> BTreeSet<String> {
    let model = evaluator.model;
    evaluator
        .merges()
        .iter()
        .filter(|r| r.parent == policy && r.parent_slot == slot)
        .map(|r| {
            let route = &model.routes[evaluator.topology.paths[r.path as usize].route as usize];
            format!("{}/{}", route.namespace, route.name)
        })
        .collect()
}

fn merged_routes(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Target) -> Option<Condition> {
    let routes = merged_into(evaluator, policy, slot);
    (!routes.is_empty()).then(|| {
        let message = format!(
            "This policy is being merged by other {} for these routes: [{}]",
            evaluator.spec(policy).plural,
            routes.into_iter().collect::<Vec<_>>().join(" ")
        );
        condition("Merged", "True", "Merged", message)
    })
}

/// Whether route `r` holds a policy of `kind` (on itself or one of its rules).
fn route_holds(evaluator: &EnvoyEvaluator<'_>, r: u32, kind: usize) -> bool {
    let rules = evaluator.model.routes[r as usize].rules.len() as u32;
    holder(evaluator.topology, Target::Route(r), kind).is_some()
        || (0..rules).any(|k| holder(evaluator.topology, Target::RouteRule(r, k), kind).is_some())
}

/// The Overridden condition of the holder of `slot` (§3.5), when something overrides it.
fn overridden(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Target) -> Option<Condition> {
    let model = evaluator.model;
    let topology = evaluator.topology;
    let kind = evaluator.kind_index(policy);
    let spec = evaluator.spec(policy);
    let list = |items: BTreeSet<String>| items.into_iter().collect::<Vec<_>>().join(" ");
    let merged = merged_into(evaluator, policy, slot);
    let routes_where = |keep: &dyn Fn(u32) -> bool| -> BTreeSet<String> {
        (0..model.routes.len() as u32)
            .filter(|&r| keep(r) && route_holds(evaluator, r, kind))
            .map(|r| {
                let route = &model.routes[r as usize];
                format!("{}/{}", route.namespace, route.name)
            })
            .filter(|name| !merged.contains(name))
            .collect()
    };
    let mut parts = Vec::new();
    let mut plural = spec.plural.as_str();
    match slot {
        Target::Gateway(g) => {
            let gw = &model.gateways[g as usize];
            let listeners: BTreeSet<String> = (0..gw.listeners.len() as u32)
                .filter(|&l| holder(topology, Target::Listener(g, l), kind).is_some())
                .map(|l| gw.listeners[l as usize].name.clone())
                .collect();
            if spec.listener_style == ListenerStyle::Section {
                if listeners.is_empty() {
                    return None;
                }
                let message = format!(
                    "There are existing {} that are overriding these sections [{}]",
                    capitalized(&spec.plural),
                    list(listeners)
                );
                return Some(condition("Overridden", "True", "Overridden", message));
            }
            let listeners: BTreeSet<String> = listeners
                .into_iter()
                .map(|l| format!("{}/{}/{l}", gw.namespace, gw.name))
                .collect();
            if !listeners.is_empty() {
                parts.push(format!("these gateway listeners: [{}]", list(listeners)));
            }
            let routes = routes_where(&|r| {
                topology.route_listeners[r as usize]
                    .iter()
                    .any(|&(rg, _)| rg == g)
            });
            if !routes.is_empty() {
                parts.push(format!("these routes: [{}]", list(routes)));
            }
        }
        Target::Listener(g, l) => {
            let gw = &model.gateways[g as usize];
            let name = &gw.listeners[l as usize].name;
            let routes = routes_where(&|r| {
                model.routes[r as usize].parent_refs.iter().any(|p| {
                    p.kind == "Gateway"
                        && p.namespace == gw.namespace
                        && p.name == gw.name
                        && p.section_name.as_ref().is_none_or(|s| s == name)
                })
            });
            if !routes.is_empty() {
                parts.push(format!("these routes: [{}]", list(routes)));
            }
        }
        Target::Route(r) => {
            let route = &model.routes[r as usize];
            let rules: BTreeSet<String> = (0..route.rules.len() as u32)
                .filter(|&k| holder(topology, Target::RouteRule(r, k), kind).is_some())
                .map(|k| route.rules[k as usize].name.clone())
                .collect();
            if !rules.is_empty() {
                parts.push(format!("these route rules: [{}]", list(rules)));
            }
            plural = spec.rule_plural.as_str();
        }
        Target::RouteRule(..) => {}
    }
    (!parts.is_empty()).then(|| {
        let message = format!(
            "This policy is being overridden by other {plural} for {}",
            parts.join(" and ")
        );
        condition("Overridden", "True", "Overridden", message)
    })
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// TargetNotFound ancestors for `sectionName`s that name no listener or rule of an existing
/// Gateway or route in the policy's namespace (§3.2).
fn missing_sections(evaluator: &EnvoyEvaluator<'_>, policy: u32, slots: &mut BTreeMap<Key, Slot>) {
    let model = evaluator.model;
    let p = &model.policies[policy as usize];
    for target in &p.targets {
        let Some(section) = &target.section_name else {
            continue;
        };
        let (keys, message) = if target.kind == "Gateway" {
            let Some(g) = model
                .gateways
                .iter()
                .position(|g| g.namespace == p.namespace && g.name == target.name)
            else {
                continue;
            };
            let gw = &model.gateways[g];
            if gw.listeners.iter().any(|l| &l.name == section) {
                continue;
            }
            (
                vec![(gw.namespace.clone(), gw.name.clone(), Some(section.clone()))],
                format!(
                    "No section name {section} found for Gateway {}/{}",
                    gw.namespace, gw.name
                ),
            )
        } else {
            let Some(r) = model.routes.iter().position(|r| {
                r.namespace == p.namespace
                    && r.name == target.name
                    && r.kind.as_str() == target.kind
            }) else {
                continue;
            };
            let route = &model.routes[r];
            if route.rules.iter().any(|k| k.named && &k.name == section) {
                continue;
            }
            (
                ancestors_of(evaluator, Target::Route(r as u32)),
                format!(
                    "No section name {section} found for {} {}/{}",
                    route.kind.as_str(),
                    route.namespace,
                    route.name
                ),
            )
        };
        for key in keys {
            let slot = slots.entry(key).or_default();
            slot.accepted.get_or_insert_with(|| {
                condition("Accepted", "False", "TargetNotFound", message.clone())
            });
        }
    }
}
