//! Slots (docs/families.md §3.2) and the winner of a path (§3.3–3.4).
//!
//! Every target is a slot; the policies attached to it arrive in §1 order (oldest, then
//! namespace/name — the common order the topology keeps per element), so the first one holds
//! the slot and the others are Conflicted there. Slot holders are read from full
//! lists: the family lets every attachment take part (`attaches_once` is false), so that a
//! policy targeting several elements of one path still holds each of its slots.

use super::merge::MergeType;
use crate::model::Model;
use crate::policy::{Level, Policy};
use crate::topology::{Target, Topology};

/// The slot holders of one path, most specific first (rule, route, listener, Gateway).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holders {
    /// `(slot, holder)` for every element of the path that has one.
    pub slots: Vec<(Target, u32)>,
}

/// The first policy on `target` (the slot holder), if any.
pub fn holder(topology: &Topology, target: Target, kind: usize) -> Option<u32> {
    topology.targets.on(target, kind).first().copied()
}

impl Holders {
    /// The holders of `elements` (least specific first), most specific first.
    pub fn of(topology: &Topology, elements: &[Target], kind: usize) -> Holders {
        Holders {
            slots: elements
                .iter()
                .rev()
                .filter_map(|&t| Some((t, holder(topology, t, kind)?)))
                .collect(),
        }
    }

    /// The holders of a path's view (full lists, least specific element first).
    pub fn of_levels(levels: &[crate::policy::PathLevel<'_>]) -> Holders {
        Holders {
            slots: levels
                .iter()
                .rev()
                .filter_map(|l| Some((l.target, *l.policies.first()?)))
                .collect(),
        }
    }

    /// Whether `policy` holds a slot on the path.
    pub fn holds(&self, policy: u32) -> bool {
        self.slots.iter().any(|&(_, p)| p == policy)
    }
}

/// How a path's effective policy comes about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The most specific slot holder.
    pub winner: u32,
    /// Its slot.
    pub slot: Target,
    /// With `mergeType` on a route or rule slot: the parent (listener slot, else Gateway slot)
    /// it merges into, with the parent's slot and the merge type.
    pub parent: Option<(u32, Target, MergeType)>,
}

impl Decision {
    /// The decision for a path's holders; `merge_type` says a policy's `mergeType`.
    pub fn of(
        holders: &Holders,
        merge_type: impl Fn(u32) -> Option<MergeType>,
    ) -> Option<Decision> {
        let &(slot, winner) = holders.slots.first()?;
        let route_level = matches!(slot.level(), Level::Route | Level::RouteRule);
        let parent = merge_type(winner)
            .filter(|_| route_level)
            .and_then(|merge| {
                holders
                    .slots
                    .iter()
                    .find(|(t, _)| matches!(t.level(), Level::Listener | Level::Gateway))
                    .map(|&(t, p)| (p, t, merge))
            });
        Some(Decision {
            winner,
            slot,
            parent,
        })
    }
}

/// Why `winner` holds a slot `loser` also targets (§1 order), in words.
pub fn why_first(w: &Policy, l: &Policy) -> String {
    match (w.creation_timestamp, l.creation_timestamp) {
        (Some(a), Some(b)) if a != b => "it is older (earlier creationTimestamp)".to_string(),
        (Some(_), None) => {
            "it is older (this one has no creationTimestamp, which counts as newest)".to_string()
        }
        _ => format!(
            "same age, and `{}` sorts before `{}`",
            w.namespaced_name(),
            l.namespaced_name()
        ),
    }
}

/// The status wording of a slot for conflicts (§3.2) and its `ns/...` names.
pub fn conflict_message(
    model: &Model,
    slot: Target,
    kind: &str,
    style: super::ListenerStyle,
) -> String {
    let what = match slot {
        Target::Gateway(g) => format!("Gateway {}", model.gateways[g as usize].name),
        Target::ListenerSet(s) => format!("ListenerSet {}", model.listener_sets[s as usize].name),
        Target::Listener(g, l)
            if model.gateways[g as usize].listeners[l as usize]
                .set
                .is_some() =>
        {
            set_listener_slot(model, g, l, style)
        }
        Target::Listener(g, l) => {
            let gw = &model.gateways[g as usize];
            match style {
                super::ListenerStyle::Listener => format!(
                    "Listener {}/{}/{}",
                    gw.namespace, gw.name, gw.listeners[l as usize].name
                ),
                super::ListenerStyle::GatewayListener => {
                    format!("Listener {}/{}", gw.name, gw.listeners[l as usize].name)
                }
                super::ListenerStyle::Section => format!("section of {}", gw.name),
            }
        }
        Target::Route(r) => {
            let route = &model.routes[r as usize];
            format!("{} {}", route.kind.as_str(), route.name)
        }
        Target::RouteRule(r, k) => {
            let route = &model.routes[r as usize];
            format!("RouteRule {}/{}", route.name, route.rules[k as usize].name)
        }
    };
    format!("Unable to target {what}, another {kind} has already attached to it")
}

/// The slot wording of listener `l` of a ListenerSet (field-2026 §2.2): `Listener <ls>/<L>`, or
/// CTP's `section of <ls>` (`<ls>` without its namespace).
fn set_listener_slot(model: &Model, g: u32, l: u32, style: super::ListenerStyle) -> String {
    let listener = &model.gateways[g as usize].listeners[l as usize];
    let set = listener.set.map(|s| &model.listener_sets[s as usize]);
    let set_name = set.map_or("", |s| s.name.as_str());
    match style {
        super::ListenerStyle::Section => format!("section of {set_name}"),
        _ => format!("Listener {set_name}/{}", listener.name),
    }
}
