//! Slots (docs/families.md §3.2) and the winner of a path (§3.3–3.4).
//!
//! Every target is a slot; the policies attached to it arrive in §1 order (oldest, then
//! namespace/name — the common order the topology keeps per element), so the first one holds
//! the slot and the others are Conflicted there. Slot holders are read from full
//! lists: the family lets every attachment take part (`attaches_once` is false), so that a
//! policy targeting several elements of one path still holds each of its slots.
//!
//! A ListenerSet's listener carries two slots (field-2026 §2.2): its own (`S#L`) and its
//! set's (`S`), whose policies [`super::sets`] attaches to each of the set's listeners. The
//! element's list holds both; how each policy reached it (its `Via`) says which slot it claims.

use super::merge::MergeType;
use crate::model::Model;
use crate::policy::{Level, Policy};
use crate::topology::family::Via;
use crate::topology::{Target, Topology};

/// A slot one policy of a kind can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    /// An element's own slot: a route rule, a route, a listener (a ListenerSet's: `S#L`), a
    /// Gateway.
    At(Target),
    /// A whole ListenerSet (`S`; an index into `Model::listener_sets`).
    Set(u32),
    /// A Gateway `sectionName` that only a ListenerSet's listener has, which a
    /// ClientTrafficPolicy takes on the first such listener (`G#x`, field-2026 §2.2 [controller]):
    /// that listener's element.
    GatewaySection(Target),
}

impl Slot {
    /// Its level: a whole ListenerSet counts as a listener level (between `S#L` and `G`).
    pub fn level(self) -> Level {
        match self {
            Slot::At(target) => target.level(),
            Slot::Set(_) | Slot::GatewaySection(_) => Level::Listener,
        }
    }

    /// Whether it is a route's or a route rule's.
    pub fn is_route(self) -> bool {
        matches!(self.level(), Level::Route | Level::RouteRule)
    }

    /// A readable name: `Gateway infra/gw`, `ListenerSet team/ext`, ...
    pub fn describe(self, model: &Model) -> String {
        match self {
            Slot::At(target) => target.describe(model),
            Slot::Set(set) => model.listener_sets[set as usize].display(),
            Slot::GatewaySection(Target::Listener(g, l)) => {
                let gw = &model.gateways[g as usize];
                let name = &gw.listeners[l as usize].name;
                format!("Gateway {}/{} section {name}", gw.namespace, gw.name)
            }
            Slot::GatewaySection(target) => target.describe(model),
        }
    }
}

/// The slot holders of one path, most specific first (rule, route, listener, ListenerSet,
/// Gateway).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holders {
    /// `(slot, holder)` for every slot of the path that has one.
    pub slots: Vec<(Slot, u32)>,
}

/// The first policy on `target` (the slot holder), if any. On a ListenerSet's listener: the
/// holder of its own slot (`S#L`), not of its set's.
pub fn holder(model: &Model, topology: &Topology, target: Target, kind: usize) -> Option<u32> {
    first_claimer(model, topology, (target, kind), Claim::Own)
}

/// The first policy of `kind` on `target` that makes `claim` there: the holder of that slot.
pub fn first_claimer(
    model: &Model,
    topology: &Topology,
    (target, kind): (Target, usize),
    claim: Claim,
) -> Option<u32> {
    let on = topology.targets.on(target, kind);
    on.iter()
        .copied()
        .find(|&p| claims(model, topology, (target, kind), p, claim))
}

/// Which of a ListenerSet listener's two slots a policy claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The element's own slot (everywhere; `S#L` on a ListenerSet's listener).
    Own,
    /// Its set's slot (`S`), through a whole-ListenerSet target.
    Set,
    /// A Gateway `sectionName` only the set's listener has (CTP's `G#x` quirk).
    GatewaySection,
}

/// Whether `policy`, on `target`'s list of `kind`, claims that slot: through a target of the
/// element itself, or (on a ListenerSet's listener) of its whole set. A policy may claim both.
pub fn claims(
    model: &Model,
    topology: &Topology,
    (target, kind): (Target, usize),
    policy: u32,
    claim: Claim,
) -> bool {
    if set_of(model, target).is_none() {
        return claim == Claim::Own;
    }
    let vias = topology.targets.vias_on(target, kind);
    (topology.targets.on(target, kind).iter().zip(vias))
        .any(|(&p, &via)| p == policy && claim_on(model, target, p, via) == claim)
}

/// The slot `policy`, reaching `target` through `via`, claims: the element's own, but on a
/// ListenerSet's listener the one its target names ([`super::sets::claim_of`]).
pub fn claim_on(model: &Model, target: Target, policy: u32, via: Via) -> Claim {
    match set_of(model, target) {
        None => Claim::Own,
        Some(_) => super::sets::claim_of(model, policy, via),
    }
}

/// The ListenerSet whose listener `target` is.
pub fn set_of(model: &Model, target: Target) -> Option<u32> {
    match target {
        Target::Listener(g, l) => crate::topology::listener_sets::set_of(model, g, l),
        _ => None,
    }
}

impl Holders {
    /// The holders of a path's `levels` (each element with its policies in the order to take
    /// them, least specific element first), most specific first; a ListenerSet's listener gives
    /// its own slot, then its set's. CTP's `G#x` quirk (field-2026 §2.2) runs in the section
    /// pass with the `S#L` policy: of the two the later one's values stand (it comes first);
    /// without an `S#L` holder every whole-set or Gateway-wide holder overwrites it (it comes
    /// last).
    pub fn of(
        model: &Model,
        topology: &Topology,
        kind: usize,
        levels: &[(Target, &[u32])],
    ) -> Holders {
        let mut slots = Vec::with_capacity(levels.len() + 1);
        let mut last = None;
        for &(target, policies) in levels.iter().rev() {
            let first = |claim| {
                let position = (policies.iter())
                    .position(|&p| claims(model, topology, (target, kind), p, claim))?;
                Some((position, policies[position]))
            };
            let own = first(Claim::Own).map(|(i, p)| (i, (Slot::At(target), p)));
            let set = set_of(model, target);
            let quirk = (set.and_then(|_| first(Claim::GatewaySection)))
                .map(|(i, p)| (i, (Slot::GatewaySection(target), p)));
            match (own, quirk) {
                (Some(own), Some(quirk)) => {
                    let (later, earlier) = if quirk.0 > own.0 {
                        (quirk, own)
                    } else {
                        (own, quirk)
                    };
                    slots.extend([later.1, earlier.1]);
                }
                (own, quirk) => {
                    slots.extend(own.map(|o| o.1));
                    last = last.or(quirk.map(|q| q.1));
                }
            }
            if let Some(set) = set {
                slots.extend(first(Claim::Set).map(|(_, p)| (Slot::Set(set), p)));
            }
        }
        slots.extend(last);
        Holders { slots }
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
    pub slot: Slot,
    /// With `mergeType` on a route or rule slot: the parent (listener slot, else ListenerSet
    /// slot, else Gateway slot) it merges into, with the parent's slot and the merge type.
    pub parent: Option<(u32, Slot, MergeType)>,
}

impl Decision {
    /// The decision for a path's holders; `merge_type` says a policy's `mergeType`.
    pub fn of(
        holders: &Holders,
        merge_type: impl Fn(u32) -> Option<MergeType>,
    ) -> Option<Decision> {
        let &(slot, winner) = holders.slots.first()?;
        let parent = merge_type(winner)
            .filter(|_| slot.is_route())
            .and_then(|merge| {
                holders
                    .slots
                    .iter()
                    .find(|(t, _)| !t.is_route())
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
    slot: Slot,
    kind: &str,
    style: super::ListenerStyle,
) -> String {
    let slot = match slot {
        Slot::At(target) => target,
        Slot::Set(set) => {
            let name = &model.listener_sets[set as usize].name;
            return format!(
                "Unable to target ListenerSet {name}, another {kind} has already attached to it"
            );
        }
        Slot::GatewaySection(target) => {
            let g = match target {
                Target::Listener(g, _) | Target::Gateway(g) => g,
                _ => 0,
            };
            let name = &model.gateways[g as usize].name;
            return format!(
                "Unable to target section of {name}, another {kind} has already attached to it"
            );
        }
    };
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
