//! Which Dataplanes and inbounds a policy selects (§K4, ✓ `matchers.go`
//! DppSelectedByPolicy): the zone and namespace gates, then the top-level kind.

use super::index::{Gateway, Index, Proxy, contains};
use super::meta::{Meta, NAMESPACE, ZONE, name_ref_parts};
use super::role::Role;
use super::spec::{Ref, View};
use std::collections::BTreeMap;

/// What a policy selects of one Dataplane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The selected inbounds (indices into `Proxy::inbounds`).
    pub inbounds: Vec<usize>,
}

/// A policy as selection reads it.
pub struct Selector<'a> {
    /// Its meta (labels after §K2).
    pub meta: &'a Meta,
    /// Its sections.
    pub view: &'a View,
    /// Its role (from its label).
    pub role: Option<Role>,
}

/// What `policy` selects of `proxy`, or `None` when it does not select it.
pub fn select(index: &Index, policy: &Selector<'_>, proxy: &Proxy) -> Option<Selection> {
    let dp = &index.metas[proxy.meta];
    if dp.mesh != policy.meta.mesh || !zone_gate(policy, dp) || !namespace_gate(policy, dp) {
        return None;
    }
    let top = &policy.view.top;
    if top.kind == "MeshHTTPRoute" {
        let route = route_top(index, policy.meta, top)?;
        return select_top(index, policy.meta, &route, proxy);
    }
    select_top(index, policy.meta, top, proxy)
}

/// Gate 1: a zone policy selects only the Dataplanes of its zone.
fn zone_gate(policy: &Selector<'_>, dp: &Meta) -> bool {
    if policy.role == Some(Role::Producer) {
        return true;
    }
    if matches!(dp.origin(), None | Some("global")) {
        return true;
    }
    match (policy.meta.origin(), policy.meta.label(ZONE)) {
        (Some("zone"), Some(zone)) => {
            dp.origin() == Some("zone") && dp.label(ZONE).is_none_or(|z| z == zone)
        }
        _ => true,
    }
}

/// Gate 2: consumer and workload-owner policies select in their namespace only.
fn namespace_gate(policy: &Selector<'_>, dp: &Meta) -> bool {
    match policy.role {
        Some(Role::Consumer | Role::WorkloadOwner) => {
            policy.meta.label(NAMESPACE) == dp.label(NAMESPACE)
        }
        _ => true,
    }
}

/// The top-level `targetRef` of the route a deprecated `MeshHTTPRoute` top level names.
fn route_top(index: &Index, policy: &Meta, top: &Ref) -> Option<Ref> {
    let name = top.name.as_deref()?;
    let route = index
        .of_kind("MeshHTTPRoute", &policy.mesh)
        .find(|&i| index.metas[i].display == name)?;
    let spec = index.specs[route].as_ref()?;
    Some(Ref::read(spec.get("targetRef"), spec.span))
}

fn select_top(index: &Index, policy: &Meta, top: &Ref, proxy: &Proxy) -> Option<Selection> {
    let all = || (0..proxy.inbounds.len()).collect::<Vec<_>>();
    let (inbounds, gateway) = match top.kind.as_str() {
        "Mesh" => {
            if !proxy_types_hold(top, proxy) {
                return None;
            }
            (all(), true)
        }
        "Dataplane" => {
            if proxy.gateway == Gateway::Builtin || !dataplane_chosen(index, policy, top, proxy) {
                return None;
            }
            let inbounds = (0..proxy.inbounds.len())
                .filter(|&i| {
                    top.section
                        .as_ref()
                        .is_none_or(|s| *s == proxy.inbounds[i].section)
                })
                .collect();
            (inbounds, true)
        }
        "MeshSubset" => {
            if !proxy_types_hold(top, proxy) {
                return None;
            }
            let inbounds = (0..proxy.inbounds.len())
                .filter(|&i| contains(&proxy.inbounds[i].tags, &top.tags))
                .collect();
            (inbounds, contains(&proxy.gateway_tags, &top.tags))
        }
        "MeshService" | "MeshServiceSubset" => {
            let mut wanted = top.tags.clone();
            wanted.insert("kuma.io/service".to_string(), top.name.clone()?);
            let inbounds = (0..proxy.inbounds.len())
                .filter(|&i| tags_match(&proxy.inbounds[i].tags, &wanted))
                .collect();
            (inbounds, tags_match(&proxy.gateway_tags, &wanted))
        }
        _ => return None,
    };
    let gateway = gateway && proxy.gateway == Gateway::Delegated;
    (!inbounds.is_empty() || gateway).then_some(Selection { inbounds })
}

/// `proxyTypes` empty or holding the proxy's type.
fn proxy_types_hold(top: &Ref, proxy: &Proxy) -> bool {
    top.proxy_types.is_empty() || top.proxy_types.iter().any(|t| t == proxy.proxy_type())
}

/// Whether a top-level `Dataplane` ref chooses `proxy`.
fn dataplane_chosen(index: &Index, policy: &Meta, top: &Ref, proxy: &Proxy) -> bool {
    let dp = &index.metas[proxy.meta];
    if let Some(name) = &top.name {
        let wanted = name_ref_parts(policy, "Dataplane", top.namespace.as_deref(), name);
        return dp.kri_parts() == wanted;
    }
    contains(&dp.labels, &top.labels)
}

/// Tags containing `wanted`, where a wanted value `*` matches any value of the tag.
fn tags_match(tags: &BTreeMap<String, String>, wanted: &BTreeMap<String, String>) -> bool {
    wanted
        .iter()
        .all(|(k, v)| tags.get(k).is_some_and(|t| v == "*" || t == v))
}
