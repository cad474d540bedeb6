//! Which Gateway and listener receive the request (docs/semantics.md#92-the-listener): port and protocol, then
//! the most specific hostname — and exactly one listener serves it ("listener isolation").

use super::input::Request;
use crate::model::Model;
use crate::model::gateway::{Gateway, Listener};
use serde::Serialize;

/// Why this listener serves the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ListenerReason {
    /// Its hostname equals the host.
    ExactHostname,
    /// Its wildcard hostname covers the host.
    WildcardHostname,
    /// It has no hostname.
    CatchAll,
    /// A `--assume-gateways` stand-in.
    Assumed,
}

impl ListenerReason {
    /// The contract's code.
    pub fn as_str(self) -> &'static str {
        match self {
            ListenerReason::ExactHostname => "exact-hostname",
            ListenerReason::WildcardHostname => "wildcard-hostname",
            ListenerReason::CatchAll => "catch-all",
            ListenerReason::Assumed => "assumed",
        }
    }
}

pub(super) use crate::topology::hostname::Specificity;

/// The chosen listener.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// Index into `Model::gateways`.
    pub gateway: u32,
    /// Index into its listeners.
    pub listener: u32,
    /// Why.
    pub reason: ListenerReason,
    /// Says which less specific listeners also matched.
    pub message: String,
}

/// The answer of the listener step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListenerChoice {
    /// One listener serves the request.
    Chosen(Chosen),
    /// No listener of any Gateway can receive it (404, `no-listener`).
    NoListener(String),
    /// The best listeners are equal in port, protocol and hostname (404,
    /// `conflicted-listeners`): Gateway API forbids picking one.
    Conflicted(String),
}

/// How `listener` (of `gateway`, its own or a ListenerSet's it admitted) receives `request`, if
/// it does. A conflicted listener receives nothing.
pub(super) fn receives(
    gateway: &Gateway,
    listener: &Listener,
    request: &Request,
) -> Option<Specificity> {
    if listener.conflicted {
        return None;
    }
    if gateway.assumed {
        return Some(Specificity::Exact);
    }
    if listener.port != i64::from(request.port) || listener.protocol != request.scheme.protocol() {
        return None;
    }
    let hostname = listener.hostname.as_deref();
    hostname
        .is_none_or(|h| request.host_matches(h))
        .then(|| Specificity::of(hostname))
}

/// The receiving listeners of one Gateway, most specific first.
fn receiving(gateway: &Gateway, request: &Request) -> Vec<(u32, Specificity)> {
    let mut found: Vec<(u32, Specificity)> = gateway
        .listeners
        .iter()
        .enumerate()
        .filter_map(|(i, l)| receives(gateway, l, request).map(|s| (i as u32, s)))
        .collect();
    found.sort_by_key(|&(i, s)| (std::cmp::Reverse(s), i));
    found
}

fn gateway_name(g: &Gateway) -> String {
    format!("{}/{}", g.namespace, g.name)
}

/// Chooses the Gateway (`wanted`, or the only one that can receive the request) and its
/// listener. `Err` is a usage error (an unknown `--gateway`, or several candidate Gateways).
pub fn choose(
    model: &Model,
    request: &Request,
    wanted: Option<&str>,
) -> Result<ListenerChoice, String> {
    let gateways: Vec<u32> = match wanted {
        Some(name) => vec![find_gateway(model, name)?],
        None => {
            let able: Vec<u32> = (0..model.gateways.len() as u32)
                .filter(|&g| !receiving(&model.gateways[g as usize], request).is_empty())
                .collect();
            if able.len() > 1 {
                let names: Vec<String> = able
                    .iter()
                    .map(|&g| gateway_name(&model.gateways[g as usize]))
                    .collect();
                return Err(format!(
                    "several Gateways can receive {}://{}:{} ({}); pass --gateway: offline, dopol cannot know which address the host resolves to",
                    request.scheme.as_str(),
                    request.host,
                    request.port,
                    names.join(", ")
                ));
            }
            able
        }
    };
    let Some(&g) = gateways.first() else {
        return Ok(ListenerChoice::NoListener(format!(
            "no Gateway has a {} listener on port {} for host {}",
            request.scheme.protocol(),
            request.port,
            request.host
        )));
    };
    Ok(pick(model, g, request))
}

pub(super) fn find_gateway(model: &Model, name: &str) -> Result<u32, String> {
    let matches: Vec<u32> = (0..model.gateways.len() as u32)
        .filter(|&g| {
            let gw = &model.gateways[g as usize];
            name == gw.name || name == gateway_name(gw)
        })
        .collect();
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => {
            let names = model.gateways.iter().map(gateway_name);
            let hint = crate::suggest::did_you_mean(
                name,
                names.collect::<Vec<_>>().iter().map(String::as_str),
            );
            Err(format!("--gateway `{name}` is not in the input{hint}"))
        }
        _ => Err(format!(
            "--gateway `{name}` is ambiguous; write it as NAMESPACE/NAME"
        )),
    }
}

/// The listener of Gateway `g` that serves the request.
fn pick(model: &Model, g: u32, request: &Request) -> ListenerChoice {
    let gateway = &model.gateways[g as usize];
    let found = receiving(gateway, request);
    let Some(&(best, specificity)) = found.first() else {
        return ListenerChoice::NoListener(format!(
            "no listener of Gateway {} receives {} on port {} for host {}",
            gateway_name(gateway),
            request.scheme.protocol(),
            request.port,
            request.host
        ));
    };
    let name = |i: u32| {
        let listener = &gateway.listeners[i as usize];
        format!("`{}`", listener.qualified_name())
    };
    let hostname = |i: u32| {
        gateway.listeners[i as usize]
            .hostname
            .as_deref()
            .map(str::to_ascii_lowercase)
    };
    let tied: Vec<u32> = found
        .iter()
        .filter(|&&(i, s)| s == specificity && hostname(i) == hostname(best))
        .map(|&(i, _)| i)
        .collect();
    if tied.len() > 1 && !gateway.assumed {
        let names: Vec<String> = tied.iter().map(|&i| name(i)).collect();
        return ListenerChoice::Conflicted(format!(
            "listeners {} of Gateway {} are equal in port, protocol and hostname (Conflicted); Gateway API forbids picking one of them",
            names.join(", "),
            gateway_name(gateway)
        ));
    }
    let reason = if gateway.assumed {
        ListenerReason::Assumed
    } else {
        match specificity {
            Specificity::Exact => ListenerReason::ExactHostname,
            Specificity::Wildcard(_) => ListenerReason::WildcardHostname,
            Specificity::CatchAll => ListenerReason::CatchAll,
        }
    };
    let others: Vec<String> = found[1..].iter().map(|&(i, _)| name(i)).collect();
    let mut message = match reason {
        ListenerReason::ExactHostname => {
            format!("listener {} has hostname {}", name(best), request.host)
        }
        ListenerReason::WildcardHostname => format!(
            "listener {} has the most specific hostname covering {} ({})",
            name(best),
            request.host,
            hostname(best).unwrap_or_default()
        ),
        ListenerReason::CatchAll => format!(
            "listener {} has no hostname, so it receives every host",
            name(best)
        ),
        ListenerReason::Assumed => format!(
            "listener {} belongs to a --assume-gateways stand-in, which receives every request",
            name(best)
        ),
    };
    if !others.is_empty() {
        message.push_str(&format!(
            "; less specific listeners that also match: {}",
            others.join(", ")
        ));
    }
    ListenerChoice::Chosen(Chosen {
        gateway: g,
        listener: best,
        reason,
        message,
    })
}
