//! DPL4014: a route whose hostnames a more specific listener of the same Gateway takes.
//!
//! A Gateway routes a request to one listener: of those on its port and protocol whose hostname
//! matches the Host, the most specific — precise, then the wildcard with more labels, then none
//! (Gateway API listener isolation; conformance `gateway-http-listener-isolation`). A route
//! attached to a wildcard or hostname-less listener therefore never sees the requests for its
//! hostnames that a more specific listener of the same Gateway matches, unless it is attached
//! there too. Accepted, attached, and silently dead: the upstream test's own manifests mark such
//! hostnames "request matching is prevented by the isolation of … listener". Routes without
//! hostnames are left alone (a wildcard listener with more specific siblings is a common design,
//! and the route asked for nothing more), and so is a route hostname only partly covered (a
//! wildcard route hostname with a precise sibling listener under it): only hostnames whose every
//! request goes to another listener are reported.

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::model::Model;
use crate::model::gateway::{Gateway, Listener, Route};
use crate::topology::Topology;
use crate::topology::hostname::{Specificity, hostnames_intersect, matches_wildcard};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::SHADOWED_BY_LISTENER];

impl Code {
    /// DPL4014 `shadowed-by-listener`: A route's hostname is served by a more specific listener of the same Gateway, on which the route is not attached: its requests never reach the route.
    pub const SHADOWED_BY_LISTENER: Code = Code::new(&CodeDef {
        id: "DPL4014",
        name: "shadowed-by-listener",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A route's hostname is served by a more specific listener of the same Gateway, on which the route is not attached: its requests never reach the route.",
        explanation: "A Gateway hands each request to one listener: of those on its port and protocol whose hostname matches the Host, the most specific (a precise hostname, then the wildcard with more labels, then no hostname; Gateway API listener isolation). A route attached to a wildcard or hostname-less listener, with a hostname that a more specific listener of the same Gateway matches entirely, is accepted there but never receives those requests: they go to the other listener, whose routes answer them (or 404). Implementations without listener isolation may behave otherwise.",
        fix: "Attach the route to the more specific listener too (a parentRef with its sectionName), or remove the hostname from the route.",
        example: "listeners: [{name: wild, hostname: \"*.example.com\"}, {name: api, hostname: api.example.com}]\n# HTTPRoute on sectionName: wild with hostnames: [api.example.com]",
    });
}

/// Whether a listener hostname matches every host of a route hostname.
fn covers(listener: &str, route: &str) -> bool {
    let (listener, route) = (listener.to_ascii_lowercase(), route.to_ascii_lowercase());
    match (listener.strip_prefix("*."), route.strip_prefix("*.")) {
        (None, None) => listener == route,
        (None, Some(_)) => false,
        (Some(suffix), None) => matches_wildcard(&route, suffix),
        (Some(suffix), Some(inner)) => inner == suffix || matches_wildcard(inner, suffix),
    }
}

/// The listener of `gateway` that takes every request for `hostname` away from `listener`: the
/// most specific one on the same port and protocol that covers it and is more specific.
fn taker(gateway: &Gateway, listener: u32, hostname: &str) -> Option<u32> {
    let own = &gateway.listeners[listener as usize];
    let own_rank = Specificity::of(own.hostname.as_deref());
    (0..gateway.listeners.len() as u32)
        .filter(|&other| other != listener)
        .filter_map(|other| {
            let l = &gateway.listeners[other as usize];
            if l.conflicted {
                return None; // a conflicted listener receives nothing
            }
            let h = l.hostname.as_deref()?;
            let rank = Specificity::of(Some(h));
            (l.port == own.port
                && l.protocol == own.protocol
                && rank > own_rank
                && covers(h, hostname))
            .then_some((rank, other))
        })
        .max_by_key(|&(rank, other)| (rank, std::cmp::Reverse(other)))
        .map(|(_, other)| other)
}

/// Every route hostname taken by a more specific listener where the route is not attached.
pub fn check(model: &Model, topology: &Topology) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for (r, route) in model.routes.iter().enumerate() {
        if route.hostnames.is_empty() {
            continue;
        }
        let attached = &topology.route_listeners[r];
        for &(g, l) in attached {
            let gateway = &model.gateways[g as usize];
            if gateway.assumed {
                continue;
            }
            let listener = &gateway.listeners[l as usize];
            let on_listener: Vec<&str> = route
                .hostnames
                .iter()
                .map(String::as_str)
                .filter(|h| {
                    listener
                        .hostname
                        .as_deref()
                        .is_none_or(|lh| hostnames_intersect(lh, h))
                })
                .collect();
            let taken: Vec<(&str, &Listener)> = on_listener
                .iter()
                .filter_map(|h| {
                    let other = taker(gateway, l, h)?;
                    (!attached.contains(&(g, other)))
                        .then(|| (*h, &gateway.listeners[other as usize]))
                })
                .collect();
            let Some(&(_, first)) = taken.first() else {
                continue;
            };
            let finding = ShadowedByListener {
                route,
                gateway,
                listener,
                taken: &taken,
                of: on_listener.len(),
            };
            diagnostics.push(
                Diagnostic::from(finding)
                    .with_label(route.name_span, "never receives these hosts")
                    .with_label(first.name_span, "the more specific listener")
                    .with_object(route.display()),
            );
        }
    }
    diagnostics
}

/// A route's hostnames another listener takes (`shadowed-by-listener`).
pub struct ShadowedByListener<'a> {
    /// The route.
    pub route: &'a Route,
    /// The Gateway.
    pub gateway: &'a Gateway,
    /// The listener the route is attached to.
    pub listener: &'a Listener,
    /// Each hostname taken, with the listener that takes it.
    pub taken: &'a [(&'a str, &'a Listener)],
    /// How many of the route's hostnames intersect the listener.
    pub of: usize,
}

impl ShadowedByListener<'_> {
    /// `infra/gw#name (hostname)`.
    fn listener_text(&self, listener: &Listener) -> String {
        let hostname = listener.hostname.as_deref().unwrap_or("no hostname");
        format!(
            "{}/{}#{} ({hostname})",
            self.gateway.namespace, self.gateway.name, listener.name
        )
    }
}

impl Violation for ShadowedByListener<'_> {
    fn code(&self) -> Code {
        Code::SHADOWED_BY_LISTENER
    }
    fn message(&self) -> String {
        let share = if self.taken.len() == self.of {
            "all of its hostnames there".to_string()
        } else {
            format!("{} of its {} hostnames there", self.taken.len(), self.of)
        };
        let taken: Vec<String> = self
            .taken
            .iter()
            .map(|(h, l)| {
                let hostname = l.hostname.as_deref().unwrap_or("no hostname");
                format!("{h} goes to `{}` ({hostname})", l.name)
            })
            .collect();
        format!(
            "{} is attached to listener {}, but more specific listeners of the Gateway, where the route is not attached, take {share}: {}",
            self.route.display(),
            self.listener_text(self.listener),
            taken.join("; ")
        )
    }
    fn help(&self) -> Option<String> {
        // Each listener once, in the order they take the hostnames.
        let mut names: Vec<&str> = Vec::new();
        for (_, listener) in self.taken {
            if !names.contains(&listener.name.as_str()) {
                names.push(&listener.name);
            }
        }
        Some(format!(
            "attach the route to {} too (parentRefs with sectionName), or remove those hostnames from it",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listener_covers_a_hostname_when_it_matches_all_of_its_hosts() {
        assert!(covers("*.example.com", "a.example.com"));
        assert!(covers("*.example.com", "*.example.com"));
        assert!(covers("*.example.com", "*.foo.example.com"));
        assert!(!covers("*.foo.example.com", "*.example.com"));
        assert!(!covers("a.example.com", "*.example.com"));
        assert!(covers("A.example.com", "a.example.com"));
        assert!(!covers("*.example.com", "example.com"));
        assert!(Specificity::of(Some("a.b")) > Specificity::of(Some("*.x.a.b")));
        assert!(Specificity::of(Some("*.x.a.b")) > Specificity::of(Some("*.a.b")));
        assert!(Specificity::of(Some("*.a.b")) > Specificity::of(None));
    }
}
