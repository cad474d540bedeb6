//! `dopol reach POLICY[#RULEKEY]`: where a policy (or one of its rules) is effective, grouped by
//! Gateway, listener and route, and where it lost, with the outcome and who decided it.

use super::filter::Filters;
use super::status::{self, PathOutcome, path_outcome};
use crate::engine::observed::Observed;
use serde::Serialize;
use std::collections::BTreeMap;

/// A route rule the policy reaches through one listener.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReachedRule {
    /// Rule name.
    pub rule: String,
    /// Path id.
    #[serde(rename = "pathId")]
    pub path_id: String,
    /// The policy's rule keys effective there.
    pub keys: Vec<String>,
}

/// A route under a listener.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReachedRoute {
    /// `ns/name`.
    pub route: String,
    /// `HTTPRoute` or `GRPCRoute`.
    pub kind: &'static str,
    /// Rules reached.
    pub rules: Vec<ReachedRule>,
}

/// A listener of a Gateway.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReachedListener {
    /// Listener name.
    pub listener: String,
    /// Routes reached.
    pub routes: Vec<ReachedRoute>,
    /// For a listener no route is attached to, which a policy acting on listeners configures
    /// (docs/families.md, "Listener-level settings"): its listener id.
    #[serde(rename = "listenerId", skip_serializing_if = "Option::is_none")]
    pub listener_id: Option<String>,
    /// The policy's rule keys effective on such a listener.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<String>,
}

/// A Gateway.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReachedGateway {
    /// `ns/name`.
    pub gateway: String,
    /// Listeners reached.
    pub listeners: Vec<ReachedListener>,
}

/// A rule of the policy that lost on a path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostOutcome<'a> {
    /// Rule key.
    pub key: &'a str,
    /// Outcome.
    #[serde(flatten)]
    pub outcome: PathOutcome<'a>,
}

/// `PolicyReach`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReachReport<'a> {
    /// `apiVersion`.
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    /// `PolicyReach`.
    pub kind: &'static str,
    /// Locator.
    pub policy: String,
    /// The policy's kind (for text output).
    #[serde(skip)]
    pub policy_kind: &'static str,
    /// The rule key asked about, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Paths where the policy (or rule) is effective.
    pub reached: usize,
    /// Paths the policy is on (its target is on them).
    pub paths: usize,
    /// Listeners no route is attached to where the policy (or rule) is effective.
    #[serde(rename = "listenersReached", skip_serializing_if = "is_zero")]
    pub listeners_reached: usize,
    /// Where it is effective.
    pub effective: Vec<ReachedGateway>,
    /// Where its rules lost, in path order.
    pub lost: Vec<LostOutcome<'a>>,
    /// The paths of owned hierarchies (a mesh's proxies) it takes part in, in path order.
    #[serde(rename = "ownedPaths", skip_serializing_if = "Vec::is_empty")]
    pub owned: Vec<OwnedReach>,
}

/// A path of an owned hierarchy a policy takes part in: where its rules are effective and
/// where they lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnedReach {
    /// The path id.
    #[serde(rename = "pathId")]
    pub path_id: String,
    /// The path's parts, one per column of its hierarchy.
    pub segments: Vec<String>,
    /// The policy kind.
    #[serde(rename = "policyKind")]
    pub kind: &'static str,
    /// The policy's rule keys effective there (it is among their origins).
    pub keys: Vec<String>,
    /// Its values that lost there: rule key and the winner's locator.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<(String, String)>,
}

/// The rule keys `policy` sets on the paths of owned hierarchies (effective or lost), sorted.
pub fn owned_keys<'e>(engine: &'e crate::engine::Engine<'_>, policy: u32) -> Vec<&'e str> {
    let mut keys: Vec<&str> = (engine.owned())
        .flat_map(|paths| &paths.items)
        .filter(|item| item.policies.contains(&policy))
        .flat_map(|item| {
            let effective = (item.rules.iter())
                .filter(|r| r.origins.contains(&policy))
                .map(|r| r.key.as_str());
            let lost = (item.lost.iter())
                .filter(|l| l.policy == policy)
                .map(|l| l.key.as_str());
            effective.chain(lost)
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The owned paths `policy` (or its rule `key`) takes part in, among those `filters` shows.
fn owned_reach(
    engine: &crate::engine::Engine<'_>,
    policy: u32,
    key: Option<&str>,
    filters: &Filters,
) -> Vec<OwnedReach> {
    let model = engine.model;
    let wanted = |k: &str| key.is_none_or(|want| want == k);
    let mut found = Vec::new();
    for paths in engine.owned() {
        for item in paths.items.iter().filter(|i| filters.shows_owned(paths, i)) {
            if !item.policies.contains(&policy) {
                continue;
            }
            let keys: Vec<String> = (item.rules.iter())
                .filter(|r| wanted(&r.key) && r.origins.contains(&policy))
                .map(|r| r.key.clone())
                .collect();
            let lost: Vec<(String, String)> = (item.lost.iter())
                .filter(|l| l.policy == policy && wanted(&l.key))
                .map(|l| {
                    (
                        l.key.clone(),
                        model.policies[l.winner as usize].locator.clone(),
                    )
                })
                .collect();
            if keys.is_empty() && lost.is_empty() && key.is_some() {
                continue;
            }
            found.push(OwnedReach {
                path_id: item.path_id.clone(),
                segments: item.segments.clone(),
                kind: item.kind.kind,
                keys,
                lost,
            });
        }
    }
    found
}

/// Builds the reach of `policy` (or of its rule `key`).
/// Only the paths `filters` shows count (`-n`: paths whose route or Gateway is in the namespace).
pub fn build<'a>(
    observed: &'a Observed<'_, '_>,
    policy: u32,
    key: Option<&str>,
    filters: &Filters,
) -> ReachReport<'a> {
    let engine = observed.engine;
    let model = engine.model;
    let topology = engine.topology;
    let shown = |path: u32| filters.shows_path(model, topology, path);
    let observations: Vec<_> = observed
        .each_observation(policy)
        .filter(|o| key.is_none_or(|k| o.key == k) && shown(o.path))
        .collect();
    let mut on_paths: Vec<u32> = observed.entries_of_policy[policy as usize]
        .iter()
        .map(|&i| observed.entry(i).0.path)
        .filter(|&path| shown(path))
        .collect();
    on_paths.sort_unstable();
    on_paths.dedup();

    // path index → effective keys, in path order (which is Gateway, listener, route, rule order)
    let mut effective: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut lost = Vec::new();
    for observation in &observations {
        if !status::lost(observation.outcome) {
            effective
                .entry(observation.path)
                .or_default()
                .push(observation.key.to_string());
        } else {
            lost.push(LostOutcome {
                key: observation.key,
                outcome: path_outcome(observed, observation),
            });
        }
    }

    let reached = effective.len();
    let mut gateways: Vec<ReachedGateway> = Vec::new();
    for (path_index, keys) in effective {
        let path = topology.paths[path_index as usize];
        let gateway = &model.gateways[path.gateway as usize];
        let listener = &gateway.listeners[path.listener as usize];
        let route = &model.routes[path.route as usize];
        let gateway_name = format!("{}/{}", gateway.namespace, gateway.name);
        if gateways.last().is_none_or(|g| g.gateway != gateway_name) {
            gateways.push(ReachedGateway {
                gateway: gateway_name,
                listeners: Vec::new(),
            });
        }
        let listeners = &mut gateways.last_mut().expect("just pushed").listeners;
        if listeners.last().is_none_or(|l| l.listener != listener.name) {
            listeners.push(ReachedListener {
                listener: listener.name.clone(),
                routes: Vec::new(),
                listener_id: None,
                keys: Vec::new(),
            });
        }
        let routes = &mut listeners.last_mut().expect("just pushed").routes;
        let route_name = format!("{}/{}", route.namespace, route.name);
        if routes
            .last()
            .is_none_or(|r| r.route != route_name || r.kind != route.kind.as_str())
        {
            routes.push(ReachedRoute {
                route: route_name,
                kind: route.kind.as_str(),
                rules: Vec::new(),
            });
        }
        routes
            .last_mut()
            .expect("just pushed")
            .rules
            .push(ReachedRule {
                rule: route.rules[path.rule as usize].name.to_string(),
                path_id: topology.path_id(path_index as usize).to_string(),
                keys,
            });
    }
    let listeners_reached = add_listeners(observed, policy, key, filters, &mut gateways);
    let owned = owned_reach(engine, policy, key, filters);
    let owned_reached = owned.iter().filter(|o| !o.keys.is_empty()).count();
    ReachReport {
        api_version: crate::report::API_VERSION,
        kind: "PolicyReach",
        policy: model.policies[policy as usize].locator.clone(),
        policy_kind: model.policies[policy as usize].kind.kind,
        rule: key.map(str::to_string),
        reached: reached + owned_reached,
        paths: on_paths.len() + owned.len(),
        listeners_reached,
        effective: gateways,
        lost,
        owned,
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Adds each listener no route is attached to where `policy` (or its rule `key`) is among the
/// origins of an effective rule (`Engine::listener_folds`) to `gateways`, in listener order;
/// returns how many.
/// The index of `gateway`'s entry in `gateways`, inserted in path order (by namespace, then
/// name) when it is not there yet.
fn gateway_entry(
    gateways: &mut Vec<ReachedGateway>,
    gateway: &crate::model::gateway::Gateway,
) -> usize {
    let name = format!("{}/{}", gateway.namespace, gateway.name);
    if let Some(at) = gateways.iter().position(|g| g.gateway == name) {
        return at;
    }
    let key = (gateway.namespace.as_str(), gateway.name.as_str());
    let at = (gateways.iter())
        .position(|g| g.gateway.split_once('/').is_some_and(|other| other > key))
        .unwrap_or(gateways.len());
    let entry = ReachedGateway {
        gateway: name,
        listeners: Vec::new(),
    };
    gateways.insert(at, entry);
    at
}

fn add_listeners(
    observed: &Observed<'_, '_>,
    policy: u32,
    key: Option<&str>,
    filters: &Filters,
    gateways: &mut Vec<ReachedGateway>,
) -> usize {
    let engine = observed.engine;
    let model = engine.model;
    let mut count = 0;
    for fold in observed.listener_folds() {
        if !filters.shows_listener(model, fold.gateway) {
            continue;
        }
        let keys: Vec<String> = fold
            .folded
            .effective
            .iter()
            .filter(|(k, rule)| {
                key.is_none_or(|want| want == **k) && rule.origins().contains(&policy)
            })
            .map(|(k, _)| k.to_string())
            .collect();
        if keys.is_empty() {
            continue;
        }
        count += 1;
        let gateway = &model.gateways[fold.gateway as usize];
        let at = gateway_entry(gateways, gateway);
        let index =
            |l: &ReachedListener| gateway.listeners.iter().position(|x| x.name == l.listener);
        let listener = ReachedListener {
            listener: (gateway.listeners[fold.listener as usize])
                .qualified_name()
                .to_string(),
            routes: Vec::new(),
            listener_id: Some(crate::report::effective::listener_id(
                model,
                fold.gateway,
                fold.listener,
            )),
            keys,
        };
        let listeners = &mut gateways[at].listeners;
        let place = listeners
            .iter()
            .position(|l| index(l) > Some(fold.listener as usize))
            .unwrap_or(listeners.len());
        listeners.insert(place, listener);
    }
    count
}
