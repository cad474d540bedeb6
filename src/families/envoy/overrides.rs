//! The wording of Merged and Overridden (docs/families.md §3.5, field-2026 §2.5: Envoy Gateway's
//! scope graph) for the holder of one slot: which routes merged into it, and which listeners,
//! ListenerSets, ListenerSet listeners, routes or route rules hold a policy of its kind below it
//! (routes merged into it excepted). CTP words a whole-Gateway or whole-ListenerSet Overridden
//! its own way.

use super::evaluate::EnvoyEvaluator;
use super::slots::{Slot, holder};
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
fn merged_into(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Slot) -> BTreeSet<String> {
    evaluator
        .merges()
        .iter()
        .filter(|r| r.parent == policy && r.parent_slot == slot)
        .map(|r| route_name(evaluator, evaluator.topology.paths[r.path as usize].route))
        .collect()
}

/// The Merged condition of a parent that route policies merged into.
pub fn merged(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Slot) -> Option<Condition> {
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
    held(evaluator, Target::Route(r), kind)
        || (0..rules).any(|k| held(evaluator, Target::RouteRule(r, k), kind))
}

/// Whether `target`'s own slot is held by a policy of `kind`.
fn held(evaluator: &EnvoyEvaluator<'_>, target: Target, kind: usize) -> bool {
    holder(evaluator.model, evaluator.topology, target, kind).is_some()
}

/// The routes `keep` selects that hold a policy of `policy`'s kind, without those merged into
/// `policy` at `slot`.
fn overriding_routes(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    slot: Slot,
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
pub fn overridden(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Slot) -> Option<Condition> {
    let spec = evaluator.spec(policy);
    let section_style = spec.listener_style == ListenerStyle::Section;
    let (parts, plural) = match slot {
        Slot::At(Target::Gateway(g)) if section_style => {
            return sections(evaluator, policy, gateway_sections(evaluator, policy, g));
        }
        Slot::Set(set) if section_style => {
            return sections(evaluator, policy, set_sections(evaluator, policy, set));
        }
        Slot::At(Target::Gateway(g)) => (gateway_parts(evaluator, policy, g), &spec.plural),
        Slot::Set(set) => (set_parts(evaluator, policy, set), &spec.plural),
        Slot::At(Target::Listener(g, l)) => (listener_parts(evaluator, policy, g, l), &spec.plural),
        Slot::At(Target::Route(r)) => (route_parts(evaluator, policy, r), &spec.rule_plural),
        Slot::At(Target::RouteRule(..) | Target::ListenerSet(_)) | Slot::GatewaySection(_) => {
            (Vec::new(), &spec.plural)
        }
    };
    (!parts.is_empty()).then(|| {
        let message = format!(
            "This policy is being overridden by other {plural} for {}",
            parts.join(" and ")
        );
        Condition::new("Overridden", "True", "Overridden", message)
    })
}

/// CTP's sections claimed on Gateway `g` before its whole-Gateway pass, by bare listener name,
/// sorted, duplicates kept [controller]: every listener slot held (the Gateway's and its
/// ListenerSets'; a refused holder has claimed it too), and each listener a whole-ListenerSet
/// holder applied on.
fn gateway_sections(evaluator: &EnvoyEvaluator<'_>, policy: u32, g: u32) -> Vec<String> {
    let model = evaluator.model;
    let kind = evaluator.kind_index(policy);
    let gw = &model.gateways[g as usize];
    let quirk = |l: u32| {
        let claim = super::slots::Claim::GatewaySection;
        let at = (Target::Listener(g, l), kind);
        super::slots::first_claimer(model, evaluator.topology, at, claim).is_some()
    };
    let mut names: Vec<String> = (0..gw.listeners.len() as u32)
        .flat_map(|l| [held(evaluator, Target::Listener(g, l), kind), quirk(l)].map(|c| (l, c)))
        .filter(|&(_, claimed)| claimed)
        .map(|(l, _)| gw.listeners[l as usize].name.clone())
        .collect();
    for set in super::sets::sets_of_gateway(model, g) {
        let Some(&holder) =
            super::sets::set_claims(model, set, model.policies[policy as usize].kind).first()
        else {
            continue;
        };
        for target in super::sets::listeners_of(model, set) {
            let own = held(evaluator, target, kind);
            if !own && super::ports::refused_set(evaluator, holder, target).is_none() {
                let Target::Listener(_, l) = target else {
                    continue;
                };
                names.push(gw.listeners[l as usize].name.clone());
            }
        }
    }
    names.sort();
    names
}

/// CTP's sections of ListenerSet `set` claimed before its whole-set pass: its listener slots
/// held, by name, sorted.
fn set_sections(evaluator: &EnvoyEvaluator<'_>, policy: u32, set: u32) -> Vec<String> {
    let model = evaluator.model;
    let kind = evaluator.kind_index(policy);
    let mut names: Vec<String> = (super::sets::listeners_of(model, set).into_iter())
        .filter(|&t| held(evaluator, t, kind))
        .filter_map(|t| match t {
            Target::Listener(g, l) => Some(
                model.gateways[g as usize].listeners[l as usize]
                    .name
                    .clone(),
            ),
            _ => None,
        })
        .collect();
    names.sort();
    names
}

/// A whole-ListenerSet policy: its set's listener slots held (`<ns>/<ls>/<L>`), then the routes
/// attached to the set (with any `sectionName`) holding a policy of its kind (field-2026 §2.5).
fn set_parts(evaluator: &EnvoyEvaluator<'_>, policy: u32, set: u32) -> Vec<String> {
    let model = evaluator.model;
    let kind = evaluator.kind_index(policy);
    let s = &model.listener_sets[set as usize];
    let listeners: BTreeSet<String> = (super::sets::listeners_of(model, set).into_iter())
        .filter(|&t| held(evaluator, t, kind))
        .filter_map(|t| match t {
            Target::Listener(g, l) => Some(&model.gateways[g as usize].listeners[l as usize].name),
            _ => None,
        })
        .map(|name| format!("{}/{}/{name}", s.namespace, s.name))
        .collect();
    let routes = overriding_routes(evaluator, policy, Slot::Set(set), |r| {
        (model.routes[r as usize].parent_refs.iter())
            .any(|p| p.kind == "ListenerSet" && p.namespace == s.namespace && p.name == s.name)
    });
    let mut parts = Vec::new();
    if !listeners.is_empty() {
        parts.push(format!(
            "these listenerset listeners: [{}]",
            list(listeners)
        ));
    }
    if !routes.is_empty() {
        parts.push(format!("these routes: [{}]", list(routes)));
    }
    parts
}

/// A whole-Gateway policy: its own listeners, the ListenerSets' listeners (`<ns>/<ls>/<L>`,
/// field-2026 §2.5), then the routes attached to the Gateway or its ListenerSets.
fn gateway_parts(evaluator: &EnvoyEvaluator<'_>, policy: u32, g: u32) -> Vec<String> {
    let model = evaluator.model;
    let gw = &model.gateways[g as usize];
    let kind = evaluator.kind_index(policy);
    let (mut listeners, mut set_listeners) = (BTreeSet::new(), BTreeSet::new());
    for (l, listener) in gw.listeners.iter().enumerate() {
        if !held(evaluator, Target::Listener(g, l as u32), kind) {
            continue;
        }
        match listener.set.map(|s| &model.listener_sets[s as usize]) {
            None => listeners.insert(format!("{}/{}/{}", gw.namespace, gw.name, listener.name)),
            Some(set) => {
                set_listeners.insert(format!("{}/{}/{}", set.namespace, set.name, listener.name))
            }
        };
    }
    let sets: BTreeSet<String> = (super::sets::sets_of_gateway(model, g).into_iter())
        .filter(|&set| {
            !super::sets::set_claims(model, set, model.policies[policy as usize].kind).is_empty()
        })
        .map(|set| {
            let s = &model.listener_sets[set as usize];
            format!("{}/{}", s.namespace, s.name)
        })
        .collect();
    let routes = overriding_routes(evaluator, policy, Slot::At(Target::Gateway(g)), |r| {
        evaluator.topology.route_listeners[r as usize]
            .iter()
            .any(|&(rg, _)| rg == g)
    });
    let mut parts = Vec::new();
    if !listeners.is_empty() {
        parts.push(format!("these gateway listeners: [{}]", list(listeners)));
    }
    if !sets.is_empty() {
        parts.push(format!("these listenersets: [{}]", list(sets)));
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
    let routes = overriding_routes(evaluator, policy, Slot::At(Target::Listener(g, l)), |r| {
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
        .filter(|&k| held(evaluator, Target::RouteRule(r, k), kind))
        .map(|k| route.rules[k as usize].name.to_string())
        .collect();
    if rules.is_empty() {
        return Vec::new();
    }
    vec![format!("these route rules: [{}]", list(rules))]
}

/// CTP's whole-Gateway or whole-ListenerSet Overridden: the sections claimed before it.
fn sections(evaluator: &EnvoyEvaluator<'_>, policy: u32, names: Vec<String>) -> Option<Condition> {
    (!names.is_empty()).then(|| {
        let message = format!(
            "There are existing {} that are overriding these sections [{}]",
            capitalized(&evaluator.spec(policy).plural),
            names.join(" ")
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
