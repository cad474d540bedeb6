//! AgentgatewayPolicy status as the controller writes it (docs/families.md §5.7): one ancestor per
//! Gateway some target reaches (never a `sectionName`), sorted by `namespace/name`, each with
//! Accepted and Attached; a target that fails (a missing object or section, a route attached to
//! no Gateway) adds the pseudo-ancestor `agentgateway.dev/StatusSummary` with Attached False.
//! There is no Overridden or Merged condition: a policy whose every value lost still says
//! Attached \[controller\] (lint `agw-attached-but-ineffective` says so).

use super::evaluate::AgwEvaluator;
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::{AncestorRef, AncestorStatus, Condition, PolicyConditions, TargetRef};
use crate::topology::listener_sets::{is_set_kind, set_of};
use crate::topology::{Target, Topology};
use std::collections::BTreeSet;

/// The status of `policy`.
pub fn conditions(
    evaluator: &AgwEvaluator<'_>,
    _observed: &Observed<'_, '_>,
    policy: u32,
) -> PolicyConditions {
    let model = evaluator.model;
    let p = &model.policies[policy as usize];
    let accepted = if p.errors.is_empty() {
        Condition::new("Accepted", "True", "Valid", "Policy accepted")
    } else {
        Condition::new("Accepted", "False", "Invalid", p.errors.join("\n"))
    };
    let attached = if p.errors.is_empty() {
        Condition::new("Attached", "True", "Attached", "Attached to all targets")
    } else {
        let why = "Policy is not attached due to invalid status";
        Condition::new("Attached", "False", "Pending", why)
    };
    let gateways = gateways(model, evaluator.topology, policy);
    let mut ancestors: Vec<AncestorStatus> = gateways
        .into_iter()
        .map(|(namespace, name)| AncestorStatus {
            ancestor_ref: AncestorRef {
                group: "gateway.networking.k8s.io",
                kind: "Gateway",
                namespace,
                name,
                section_name: None,
            },
            conditions: vec![accepted.clone(), attached.clone()],
            conflicted_by: Vec::new(),
        })
        .collect();
    let failures: Vec<String> = p
        .targets
        .iter()
        .filter_map(|t| failure(model, evaluator.topology, &p.namespace, t))
        .collect();
    if !failures.is_empty() {
        ancestors.push(summary(&accepted, &failures));
    }
    PolicyConditions {
        conditions: top_level(&ancestors, accepted),
        ancestors: Some(ancestors),
    }
}

/// The pseudo-ancestor `agentgateway.dev/StatusSummary` for the targets that fail.
fn summary(accepted: &Condition, failures: &[String]) -> AncestorStatus {
    let message = format!("Policy is not attached: {}", failures.join("\n"));
    AncestorStatus {
        ancestor_ref: AncestorRef {
            group: super::family::GROUP,
            kind: "",
            namespace: String::new(),
            name: "StatusSummary".into(),
            section_name: None,
        },
        conditions: vec![
            accepted.clone(),
            Condition::new("Attached", "False", "Pending", &message),
        ],
        conflicted_by: Vec::new(),
    }
}

/// dopol's top-level conditions: the first ancestor's Accepted and the worst Attached (False
/// before True); only Accepted when nothing is reached.
fn top_level(ancestors: &[AncestorStatus], accepted: Condition) -> Vec<Condition> {
    let Some(first) = ancestors.first() else {
        return vec![accepted];
    };
    let worst = ancestors
        .iter()
        .map(|a| &a.conditions[1])
        .min_by_key(|c| c.status != "False")
        .cloned();
    std::iter::once(first.conditions[0].clone())
        .chain(worst)
        .collect()
}

/// The Gateways (`namespace`, `name`) the policy's attachments reach, sorted.
fn gateways(model: &Model, topology: &Topology, policy: u32) -> BTreeSet<(String, String)> {
    let mut indices = BTreeSet::new();
    // A set listener reached only through a Gateway `sectionName` the Gateway lacks gives no
    // ancestor: the controller reports that target not found (`super::leaks`).
    let p = &model.policies[policy as usize];
    let set_targets = (p.targets.iter()).any(|t| is_set_kind(&t.kind));
    for target in &topology.targets.of_policy[policy as usize] {
        match *target {
            Target::Listener(g, l) if !set_targets && set_of(model, g, l).is_some() => {}
            Target::Gateway(g) | Target::Listener(g, _) => {
                indices.insert(g);
            }
            Target::ListenerSet(s) => {
                indices.extend(model.listener_sets[s as usize].gateway);
            }
            Target::Route(r) | Target::RouteRule(r, _) => {
                indices.extend(topology.route_listeners[r as usize].iter().map(|(g, _)| *g));
                let on_path = |path: &&crate::topology::Path| {
                    path.route == r
                        || (path.chain != crate::topology::NO_CHAIN
                            && topology.chains[path.chain as usize]
                                .iter()
                                .any(|(cr, _)| *cr == r))
                };
                indices.extend(topology.paths.iter().filter(on_path).map(|p| p.gateway));
            }
        }
    }
    indices
        .into_iter()
        .map(|g| {
            let gw = &model.gateways[g as usize];
            (gw.namespace.clone(), gw.name.clone())
        })
        .collect()
}

/// Why a ListenerSet `targetRefs` entry attaches nowhere: the set or its listener is not in
/// the input (`sectionName "x" not found in ListenerSet ns/ls`, golden
/// `listenerset-section-missing-not-attached`), or the set joined no Gateway (derived).
fn set_failure(model: &Model, namespace: &str, target: &TargetRef) -> Option<String> {
    let (kind, name) = (target.kind.as_str(), target.name.as_str());
    let legacy = kind != "ListenerSet";
    let Some(set) = (model.listener_sets.iter())
        .find(|s| s.legacy == legacy && s.namespace == namespace && s.name == name)
    else {
        return Some(format!("{kind} {namespace}/{name} not found"));
    };
    if let Some(s) = target.section_name.as_deref()
        && !set.listeners.iter().any(|l| l.name == s)
    {
        return Some(format!(
            "sectionName \"{s}\" not found in {kind} {namespace}/{name}"
        ));
    }
    set.gateway
        .is_none()
        .then(|| format!("{kind} {namespace}/{name} is not attached to any Gateway"))
}

/// Why a `targetRefs` entry attaches nowhere, in the controller's words where known
/// (`sectionName "x" not found in Gateway ns/gw`; the others derived).
fn failure(
    model: &Model,
    topology: &Topology,
    namespace: &str,
    target: &TargetRef,
) -> Option<String> {
    let kind = target.kind.as_str();
    let name = target.name.as_str();
    let section = target.section_name.as_deref();
    let not_found = || format!("{kind} {namespace}/{name} not found");
    let section_missing =
        |s: &str| format!("sectionName \"{s}\" not found in {kind} {namespace}/{name}");
    if kind == "Gateway" {
        let Some(gw) = model
            .gateways
            .iter()
            .find(|g| g.namespace == namespace && g.name == name)
        else {
            return Some(not_found());
        };
        // The Gateway's own listeners: a name only a ListenerSet has is not found (yet the
        // policy still reaches that set listener, `super::leaks`).
        return section
            .filter(|s| !gw.listeners.iter().any(|l| l.set.is_none() && l.name == *s))
            .map(section_missing);
    }
    if crate::topology::listener_sets::is_set_kind(kind) {
        return set_failure(model, namespace, target);
    }
    let Some(r) = model
        .routes
        .iter()
        .position(|r| r.kind.as_str() == kind && *r.namespace == *namespace && r.name == name)
    else {
        return Some(not_found());
    };
    let route = &model.routes[r];
    if let Some(s) = section.filter(|s| !route.rules.iter().any(|k| k.named && *k.name == **s)) {
        return Some(section_missing(s));
    }
    let attached = !topology.route_listeners[r].is_empty()
        || topology.paths.iter().any(|p| p.route == r as u32);
    (!attached).then(|| format!("{kind} {namespace}/{name} is not attached to any Gateway"))
}
