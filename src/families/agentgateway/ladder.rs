//! A path's precedence ladder (docs/families.md §5.3): its elements as rungs, least specific first —
//! the Gateway, the Gateway's port (frontend policies targeting a Gateway `port`), the
//! listener, then each route of the chain with its rule, root first — each holding the
//! policies attached there, in the common order (docs/families.md §1).
//!
//! On a path through listener `L` of ListenerSet `S` (field-2026 §4.3) the listener part is
//! `S` < `S#L` < `G#L`: the proxy looks the set's listener up also as the Gateway's listener of
//! that name \[controller\], so the Gateway's own `L` (an element the engine adds after `S#L`
//! for this family) and a `G#L` target whose `L` only a set has (attached to `S#L` through its
//! Gateway `targetRef`, [`super::leaks`]) form a rung above `S#L`. `S` and `S#L` are read by
//! `traffic` and `preRouting` only; `G#L` by every section.

use crate::model::Model;
use crate::policy::PathLevel;
use crate::topology::Target;
use crate::topology::listener_sets::set_of;

/// What a rung of the ladder is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rung {
    /// The whole Gateway.
    Gateway,
    /// The Gateway's port (frontend only).
    Port(i64),
    /// A whole ListenerSet `S` (a path through one of its listeners; `traffic` and
    /// `preRouting` only, §5.3).
    ListenerSet,
    /// A ListenerSet's listener `S#L` (`traffic` and `preRouting` only).
    SetListener,
    /// The listener (on a path through `S#L`: the Gateway's listener named `L`).
    Listener,
    /// A route of the chain.
    Route,
    /// A route rule.
    Rule,
}

impl Rung {
    /// The rung's name in `explain`.
    pub fn name(self) -> &'static str {
        match self {
            Rung::Gateway => "Gateway",
            Rung::Port(_) => "port",
            Rung::ListenerSet => "ListenerSet",
            Rung::SetListener => "ListenerSet listener",
            Rung::Listener => "listener",
            Rung::Route => "route",
            Rung::Rule => "rule",
        }
    }

    /// Whether keys of `section` are read at this rung (§5.3's table).
    pub fn reads(self, section: super::keys::Section) -> bool {
        use super::keys::Section;
        match self {
            Rung::Gateway | Rung::Listener => true,
            Rung::Port(_) => section == Section::Frontend,
            Rung::ListenerSet | Rung::SetListener => {
                matches!(section, Section::Traffic | Section::PreRouting)
            }
            Rung::Route | Rung::Rule => matches!(section, Section::Traffic | Section::Backend),
        }
    }
}

/// One rung with its element and policies.
#[derive(Clone, Debug)]
pub struct Step {
    /// What it is.
    pub rung: Rung,
    /// The element.
    pub target: Target,
    /// Its policies, in order.
    pub policies: Vec<u32>,
}

/// The ladder of a path whose elements are `levels` (least specific first). `ports(policy)`
/// gives the ports of a policy that targets its Gateway only through `port` (`None`: the whole
/// Gateway); `through_gateway(policy, element)` whether a policy on a set listener reached it
/// through a Gateway `targetRef` (a `G#x` only the set has: the Gateway-listener rung).
pub fn ladder<'p>(
    model: &Model,
    levels: &[PathLevel<'_>],
    ports: &dyn Fn(u32) -> Option<&'p [i64]>,
    through_gateway: &dyn Fn(u32, Target) -> bool,
) -> Vec<Step> {
    let port = levels.iter().find_map(|l| match l.target {
        Target::Listener(g, l) => model.gateways[g as usize]
            .listeners
            .get(l as usize)
            .map(|listener| listener.port),
        _ => None,
    });
    let mut steps = Vec::with_capacity(levels.len() + 1);
    for level in levels {
        let step = |rung, policies| Step {
            rung,
            target: level.target,
            policies,
        };
        match level.target {
            Target::Gateway(_) => {
                let (whole, by_port): (Vec<u32>, Vec<u32>) =
                    level.policies.iter().partition(|&&p| ports(p).is_none());
                steps.push(step(Rung::Gateway, whole));
                if let Some(port) = port {
                    let on_port = by_port
                        .into_iter()
                        .filter(|&p| ports(p).is_some_and(|ps| ps.contains(&port)))
                        .collect();
                    steps.push(step(Rung::Port(port), on_port));
                }
            }
            Target::ListenerSet(_) => steps.push(step(Rung::ListenerSet, level.policies.to_vec())),
            Target::Listener(g, l) => match set_of(model, g, l) {
                None => steps.push(step(Rung::Listener, level.policies.to_vec())),
                Some(_) => {
                    let (gateway, own): (Vec<u32>, Vec<u32>) =
                        (level.policies.iter()).partition(|&&p| through_gateway(p, level.target));
                    steps.push(step(Rung::SetListener, own));
                    if !gateway.is_empty() {
                        steps.push(step(Rung::Listener, gateway));
                    }
                }
            },
            Target::Route(_) => steps.push(step(Rung::Route, level.policies.to_vec())),
            Target::RouteRule(..) => steps.push(step(Rung::Rule, level.policies.to_vec())),
        }
    }
    for step in &mut steps {
        // One attachment per policy and element (the controller dedups identical targets).
        let mut seen = std::collections::HashSet::new();
        step.policies.retain(|p| seen.insert(*p));
    }
    steps
}
