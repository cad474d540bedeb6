//! The wording of Merged and Overridden (docs/families.md §3.5) for the holder of one slot: which
//! routes merged into it, and which listeners, routes or route rules hold a policy of its kind
//! below it (routes merged into it excepted). CTP words a whole-Gateway Overridden its own way.

use super::evaluate::EnvoyEvaluator;
use super::slots::holder;
use super::spec::ListenerStyle;
use crate::policy::Condition;
use crate::topology::Target;
use std::collections::BTreeSet;

/// `[a b]`'s inside.
fn list(items: BTreeSet<String>) -> String {
    items.into_iter().collect::<Vec<_>>().join(" ")
}

fn route_name(evaluator: &EnvoyEvaluator<'_>, r: u32) -> String {
    let route = &evaluator.model.routes[r as usize];
    format!("{}/{}", route.namespace, route.name)
}

/// `ns/route` of the routes merged into `policy` at `slot`.
fn merged_into(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Target) -> BTreeSet<String> {
    evaluator
        .merges()
        .iter()
        .filter(|r| r.parent == policy && r.parent_slot == slot)
        .map(|r| route_name(evaluator, evaluator.topology.paths[r.path as usize].route))
        .collect()
}

/// The Merged condition of a parent that route policies merged into.
pub fn merged(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Target) -> Option<Condition> {
    let routes = merged_into(evaluator, policy, slot);
    (!routes.is_empty()).then(|| {
        let message = format!(
            "This policy is being merged by other {} for these routes: [{}]",
            evaluator.spec(policy).plural,
            list(routes)
        );
        Condition::new("Merged", "True", "Merged", message)
    })
}

/// Whether route `r` holds a policy of `kind` (on itself or one of its rules).
fn route_holds(evaluator: &EnvoyEvaluator<'_>, r: u32, kind: usize) -> bool {
    let rules = evaluator.model.routes[r as usize].rules.len() as u32;
    holder(evaluator.topology, Target::Route(r), kind).is_some()
        || (0..rules).any(|k| holder(evaluator.topology, Target::RouteRule(r, k), kind).is_some())
}

/// The routes `keep` selects that hold a policy of `policy`'s kind, without those merged into
/// `policy` at `slot`.
fn overriding_routes(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    slot: Target,
    keep: impl Fn(u32) -> bool,
) -> BTreeSet<String> {
    let kind = evaluator.kind_index(policy);
    let merged = merged_into(evaluator, policy, slot);
    (0..evaluator.model.routes.len() as u32)
        .filter(|&r| keep(r) && route_holds(evaluator, r, kind))
        .map(|r| route_name(evaluator, r))
        .filter(|name| !merged.contains(name))
        .collect()
}

/// The Overridden condition of the holder of `slot`, when something overrides it.
pub fn overridden(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Target) -> Option<Condition> {
    let spec = evaluator.spec(policy);
    let (parts, plural) = match slot {
        Target::Gateway(g) if spec.listener_style == ListenerStyle::Section => {
            return sections(evaluator, policy, g);
        }
        Target::Gateway(g) => (gateway_parts(evaluator, policy, g), &spec.plural),
        Target::Listener(g, l) => (listener_parts(evaluator, policy, g, l), &spec.plural),
        Target::Route(r) => (route_parts(evaluator, policy, r), &spec.rule_plural),
        Target::RouteRule(..) | Target::ListenerSet(_) => (Vec::new(), &spec.plural),
    };
    (!parts.is_empty()).then(|| {
        let message = format!(
            "This policy is being overridden by other {plural} for {}",
            parts.join(" and ")
        );
        Condition::new("Overridden", "True", "Overridden", message)
    })
}

/// The names of `g`'s listeners that hold a policy of `policy`'s kind.
fn held_listeners(evaluator: &EnvoyEvaluator<'_>, policy: u32, g: u32) -> BTreeSet<String> {
    let kind = evaluator.kind_index(policy);
    let gw = &evaluator.model.gateways[g as usize];
    (0..gw.listeners.len() as u32)
        .filter(|&l| holder(evaluator.topology, Target::Listener(g, l), kind).is_some())
        .map(|l| gw.listeners[l as usize].name.clone())
        .collect()
}

/// A whole-Gateway policy: its own listeners, the ListenerSets' listeners (`<ns>/<ls>/<L>`,
/// field-2026 §2.5), then the routes attached to the Gateway or its ListenerSets.
fn gateway_parts(evaluator: &EnvoyEvaluator<'_>, policy: u32, g: u32) -> Vec<String> {
    let model = evaluator.model;
    let gw = &model.gateways[g as usize];
    let kind = evaluator.kind_index(policy);
    let (mut listeners, mut set_listeners) = (BTreeSet::new(), BTreeSet::new());
    for (l, listener) in gw.listeners.iter().enumerate() {
        if holder(evaluator.topology, Target::Listener(g, l as u32), kind).is_none() {
            continue;
        }
        match listener.set.map(|s| &model.listener_sets[s as usize]) {
            None => listeners.insert(format!("{}/{}/{}", gw.namespace, gw.name, listener.name)),
            Some(set) => {
                set_listeners.insert(format!("{}/{}/{}", set.namespace, set.name, listener.name))
            }
        };
    }
    let routes = overriding_routes(evaluator, policy, Target::Gateway(g), |r| {
        evaluator.topology.route_listeners[r as usize]
            .iter()
            .any(|&(rg, _)| rg == g)
    });
    let mut parts = Vec::new();
    if !listeners.is_empty() {
        parts.push(format!("these gateway listeners: [{}]", list(listeners)));
    }
    if !set_listeners.is_empty() {
        parts.push(format!(
            "these listenerset listeners: [{}]",
            list(set_listeners)
        ));
    }
    if !routes.is_empty() {
        parts.push(format!("these routes: [{}]", list(routes)));
    }
    parts
}

/// A listener policy: the routes attached with that sectionName or none — to the Gateway, or
/// for a ListenerSet's listener to the ListenerSet (field-2026 §2.5).
fn listener_parts(evaluator: &EnvoyEvaluator<'_>, policy: u32, g: u32, l: u32) -> Vec<String> {
    let model = evaluator.model;
    let gw = &model.gateways[g as usize];
    let listener = &gw.listeners[l as usize];
    let name = &listener.name;
    let (kind, namespace, object) = match listener.set.map(|s| &model.listener_sets[s as usize]) {
        Some(set) => ("ListenerSet", &set.namespace, &set.name),
        None => ("Gateway", &gw.namespace, &gw.name),
    };
    let routes = overriding_routes(evaluator, policy, Target::Listener(g, l), |r| {
        model.routes[r as usize].parent_refs.iter().any(|p| {
            p.kind == kind
                && p.namespace == *namespace
                && p.name == *object
                && p.section_name.as_ref().is_none_or(|s| s == name)
        })
    });
    if routes.is_empty() {
        return Vec::new();
    }
    vec![format!("these routes: [{}]", list(routes))]
}

/// A route policy: its rules that hold a policy of its kind.
fn route_parts(evaluator: &EnvoyEvaluator<'_>, policy: u32, r: u32) -> Vec<String> {
    let kind = evaluator.kind_index(policy);
    let route = &evaluator.model.routes[r as usize];
    let rules: BTreeSet<String> = (0..route.rules.len() as u32)
        .filter(|&k| holder(evaluator.topology, Target::RouteRule(r, k), kind).is_some())
        .map(|k| route.rules[k as usize].name.to_string())
        .collect();
    if rules.is_empty() {
        return Vec::new();
    }
    vec![format!("these route rules: [{}]", list(rules))]
}

/// CTP's whole-Gateway Overridden: the sections (listeners) holding a policy of its kind.
fn sections(evaluator: &EnvoyEvaluator<'_>, policy: u32, g: u32) -> Option<Condition> {
    let listeners = held_listeners(evaluator, policy, g);
    (!listeners.is_empty()).then(|| {
        let message = format!(
            "There are existing {} that are overriding these sections [{}]",
            capitalized(&evaluator.spec(policy).plural),
            list(listeners)
        );
        Condition::new("Overridden", "True", "Overridden", message)
    })
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}
