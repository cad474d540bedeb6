//! ListenerSets, read but not modelled yet (docs/semantics.md §2): `request` does not answer for a
//! request one of their listeners may receive instead of the Gateway listener it would choose.
//!
//! A ListenerSet's listeners join its parent Gateway's; the most specific hostname receives a
//! request, and a ListenerSet listener equal to a Gateway listener in port, protocol and
//! hostname is Conflicted (the Gateway's keeps it). So a ListenerSet listener on the request's
//! port and protocol whose hostname covers the host more specifically than the chosen listener
//! (or covers it at all, when no Gateway listener does) may serve the request, and dopol, which
//! does not evaluate its routes, cannot say what happens.

use super::input::Request;
use super::listener::{Chosen, receives};
use crate::model::Model;
use serde::Serialize;

/// `unanswered` of the trace: why dopol does not answer.
#[derive(Clone, Debug, Serialize)]
pub struct Unanswered {
    /// Why.
    pub reason: UnansweredReason,
    /// The ListenerSet listeners that may receive the request, as `ns/set#listener`.
    pub listeners: Vec<String>,
    /// In words.
    pub message: String,
}

/// Why dopol does not answer a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnansweredReason {
    /// A listener of a ListenerSet (not modelled yet) may receive it.
    ListenerSet,
}

impl std::fmt::Display for UnansweredReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UnansweredReason::ListenerSet => "listener-set",
        })
    }
}

/// Why dopol cannot answer: ListenerSet listeners of Gateway `gateway` (every Gateway of the
/// input when `None`) may receive `request` before `chosen`, the Gateway listener that would.
pub fn unanswered(
    model: &Model,
    request: &Request,
    gateway: Option<u32>,
    chosen: Option<&Chosen>,
) -> Option<Unanswered> {
    let beaten = chosen.and_then(|c| {
        let g = &model.gateways[c.gateway as usize];
        receives(g, &g.listeners[c.listener as usize], request)
    });
    let mut listeners = Vec::new();
    for set in &model.listener_sets {
        let Some((namespace, name)) = &set.parent else {
            continue;
        };
        let parent = (0..model.gateways.len() as u32).find(|&g| {
            let gw = &model.gateways[g as usize];
            !gw.assumed && gw.namespace == *namespace && gw.name == *name
        });
        let Some(parent) = parent.filter(|&p| gateway.is_none_or(|g| g == p)) else {
            continue;
        };
        let gw = &model.gateways[parent as usize];
        if !gw
            .allowed_listeners
            .may_admit(&set.namespace, &gw.namespace)
        {
            continue; // the Gateway admits no such ListenerSet (`allowedListeners`)
        }
        for listener in &set.listeners {
            let Some(specificity) = receives(gw, listener, request) else {
                continue;
            };
            if beaten.is_none_or(|b| specificity > b) {
                listeners.push(format!("{}/{}#{}", set.namespace, set.name, listener.name));
            }
        }
    }
    if listeners.is_empty() {
        return None;
    }
    let instead = match chosen {
        Some(c) => {
            let g = &model.gateways[c.gateway as usize];
            let l = &g.listeners[c.listener as usize];
            format!(
                "before listener {}/{}#{} of the Gateway",
                g.namespace, g.name, l.name
            )
        }
        None => "and no Gateway listener does".to_string(),
    };
    Some(Unanswered {
        reason: UnansweredReason::ListenerSet,
        message: format!(
            "ListenerSet listener {} may receive {} on port {} for host {} {instead}; dopol does not model ListenerSets yet (DPL2013), so it cannot say which route serves the request",
            listeners.join(", "),
            request.scheme.protocol(),
            request.port,
            request.host
        ),
        listeners,
    })
}
