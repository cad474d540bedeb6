//! ListenerSets as the topology's families see them (docs/semantics.md §2).
//!
//! The model joins each admitted ListenerSet's listeners to its Gateway
//! ([`crate::model::listener_sets`]), so a path through listener `L` of ListenerSet `S` on
//! Gateway `G` is an ordinary [`super::Path`] whose listener index points at a listener with
//! `Listener::set == Some(S)`. What a family needs beyond that is here: which set a path's
//! listener belongs to, and how a policy's target of kind `ListenerSet` (or the legacy
//! `XListenerSet`), with or without `sectionName`, resolves to `S` or `S#L`.

use crate::model::Model;

/// A resolved ListenerSet target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SetTarget {
    /// The whole ListenerSet `set` (an index into `Model::listener_sets`) on Gateway `gateway`.
    Set {
        /// Index into `Model::gateways`.
        gateway: u32,
        /// Index into `Model::listener_sets`.
        set: u32,
    },
    /// Listener `listener` of the set (`sectionName`): an index into the Gateway's merged
    /// listeners, as a [`super::Path`]'s `listener`.
    Listener {
        /// Index into `Model::gateways`.
        gateway: u32,
        /// Index into `Model::listener_sets`.
        set: u32,
        /// Index into the Gateway's (merged) listeners.
        listener: u32,
    },
}

/// Why a ListenerSet target does not resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetRefError {
    /// No ListenerSet of that kind, namespace and name is in the input.
    NotFound,
    /// The set is in the input but joined no Gateway (not admitted, or its Gateway missing).
    NotJoined(u32),
    /// The set has no listener named by `sectionName`.
    SectionNotFound(u32),
}

/// Whether a target kind names a ListenerSet: `ListenerSet`, or any kind ending in it (the
/// legacy `XListenerSet`; kgateway's CEL accepts every such kind).
pub fn is_set_kind(kind: &str) -> bool {
    kind.ends_with("ListenerSet")
}

/// Resolves a target `kind`/`name` in `namespace`, with `section` (`sectionName`) when given.
/// A conflicted listener still resolves (it is on no path).
pub fn resolve(
    model: &Model,
    namespace: &str,
    kind: &str,
    name: &str,
    section: Option<&str>,
) -> Result<SetTarget, SetRefError> {
    let legacy = kind != "ListenerSet";
    let set = (model.listener_sets.iter())
        .position(|s| s.legacy == legacy && s.namespace == namespace && s.name == name)
        .ok_or(SetRefError::NotFound)? as u32;
    let gateway = model.listener_sets[set as usize]
        .gateway
        .ok_or(SetRefError::NotJoined(set))?;
    let Some(section) = section else {
        return Ok(SetTarget::Set { gateway, set });
    };
    let listeners = &model.gateways[gateway as usize].listeners;
    let listener = (listeners.iter())
        .position(|l| l.set == Some(set) && l.name == section)
        .ok_or(SetRefError::SectionNotFound(set))? as u32;
    Ok(SetTarget::Listener {
        gateway,
        set,
        listener,
    })
}

/// The ListenerSet that added listener `listener` of Gateway `gateway`, `None` for the
/// Gateway's own.
pub fn set_of(model: &Model, gateway: u32, listener: u32) -> Option<u32> {
    model.gateways[gateway as usize].listeners[listener as usize].set
}

/// Whether a path's listener (`gateway`, `listener`) is reached by `target`: the set's every
/// listener for [`SetTarget::Set`], that listener alone for [`SetTarget::Listener`].
pub fn reaches(model: &Model, target: SetTarget, gateway: u32, listener: u32) -> bool {
    match target {
        SetTarget::Set { gateway: g, set } => {
            g == gateway && set_of(model, gateway, listener) == Some(set)
        }
        SetTarget::Listener {
            gateway: g,
            listener: l,
            ..
        } => (g, l) == (gateway, listener),
    }
}

/// The Gateway listeners named `name` that a ListenerSet of Gateway `gateway` also has
/// (`gateway-listener-policy-skips-listenerset`: a `G#name` policy does not reach them in
/// Envoy Gateway and kgateway), as merged-listener indices.
pub fn namesakes_in_sets(model: &Model, gateway: u32, name: &str) -> Vec<u32> {
    let listeners = &model.gateways[gateway as usize].listeners;
    (0..listeners.len() as u32)
        .filter(|&l| listeners[l as usize].set.is_some() && listeners[l as usize].name == name)
        .collect()
}

/// Whether `pattern` (`--listener`) names listener `l` of Gateway `gateway`: `L` names every
/// listener called `L`, the Gateway's own and the ListenerSets' (docs/semantics.md §2, derived);
/// `X#L` the Gateway's own `L` when `X` names the Gateway (`[ns/]name`), or ListenerSet `X`'s
/// `L`; `G>S#L` ListenerSet `S`'s `L` on Gateway `G`.
pub fn listener_matches(model: &Model, gateway: u32, l: u32, pattern: &str) -> bool {
    use super::hierarchy::matches_name;
    let g = &model.gateways[gateway as usize];
    let listener = &g.listeners[l as usize];
    let (owner, name) = match pattern.rsplit_once('#') {
        Some((owner, name)) => (Some(owner), name),
        None => (None, pattern),
    };
    if name != listener.name {
        return false;
    }
    let Some(owner) = owner else {
        return true;
    };
    let gateway_named = |p: &str| matches_name(p, &g.namespace, &g.name);
    let (on_gateway, set_pattern) = match owner.split_once('>') {
        Some((gw, set)) => (gateway_named(gw), Some(set)),
        None => (true, None),
    };
    match (listener.set, set_pattern) {
        (None, None) => gateway_named(owner),
        (None, Some(_)) => false,
        (Some(s), pattern) => {
            let set = &model.listener_sets[s as usize];
            on_gateway && matches_name(pattern.unwrap_or(owner), &set.namespace, &set.name)
        }
    }
}

/// A Gateway `targetRefs` entry with a `sectionName`, read against the Gateway's own listeners
/// and its ListenerSets' (Gateway API: a Gateway `sectionName` names the Gateway's own; Envoy
/// Gateway's ClientTrafficPolicy and agentgateway also look at the sets').
pub struct GatewaySection<'p> {
    /// Its index in `targetRefs`.
    pub index: usize,
    /// The entry.
    pub target: &'p crate::kinds::TargetRef,
    /// The Gateway (index into `Model::gateways`).
    pub gateway: u32,
    /// Whether one of the Gateway's own listeners has the name.
    pub own: bool,
    /// The ListenerSet listeners of the Gateway that have it, in merged order.
    pub in_sets: Vec<u32>,
}

/// `targetRefs` entry `index` of `policy` as a [`GatewaySection`], when it names a Gateway of
/// the input (not assumed) in the policy's namespace with a `sectionName`.
pub fn gateway_section<'p>(
    model: &Model,
    policy: &'p crate::kinds::Policy,
    index: usize,
) -> Option<GatewaySection<'p>> {
    let target = policy.targets.get(index)?;
    let section = target.section_name.as_deref()?;
    if target.kind.as_str() != "Gateway" {
        return None;
    }
    let g = (model.gateways.iter())
        .position(|g| !g.assumed && g.namespace == policy.namespace && g.name == target.name)?;
    let listeners = &model.gateways[g].listeners;
    let named = (0..listeners.len() as u32).filter(|&l| listeners[l as usize].name == section);
    let (own, in_sets): (Vec<u32>, Vec<u32>) =
        named.partition(|&l| listeners[l as usize].set.is_none());
    Some(GatewaySection {
        index,
        target,
        gateway: g as u32,
        own: !own.is_empty(),
        in_sets,
    })
}

/// Every [`gateway_section`] of `policy`.
pub fn gateway_sections<'p>(
    model: &Model,
    policy: &'p crate::kinds::Policy,
) -> Vec<GatewaySection<'p>> {
    (0..policy.targets.len())
        .filter_map(|i| gateway_section(model, policy, i))
        .collect()
}
