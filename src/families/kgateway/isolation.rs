//! DPL5016 `shared-port-hostname-isolation` (field-2026 §3.1): kgateway gives each listener
//! hostname of a port its own virtual host, so a route attached through a wildcard (or
//! hostname-less) listener that claims a precise hostname another listener of the port names is
//! not served for it there (golden `listener-sets/shared-port-policy-isolation`). dopol keeps
//! that path, which carries none of the specific listener's TrafficPolicies: where the specific
//! listener has some and a ListenerSet is involved, the family says so (an info; the Gateway-only
//! case is `shadowed-by-listener`'s, for every family).

use super::diags::SharedPortIsolation;
use super::evaluate::KgatewayEvaluator;
use crate::diag::Diagnostic;
use crate::model::gateway::{Gateway, Listener};
use crate::topology::Target;
use crate::topology::hostname::listener_accepts_hostnames;

/// Every finding of the check, in route order.
pub fn check(evaluator: &KgatewayEvaluator<'_>) -> Vec<Diagnostic> {
    let (model, topology) = (evaluator.model(), evaluator.topology());
    let mut out = Vec::new();
    if model.listener_sets.is_empty() {
        return out;
    }
    let kind = model.registry.kind_index(evaluator.kind());
    let policies_of = |g: u32, x: u32, listener: &Listener| -> Vec<String> {
        let set = listener.set.map(Target::ListenerSet);
        let on = |t: Target| topology.targets.on(t, kind).to_vec();
        (on(Target::Listener(g, x)).into_iter())
            .chain(set.map(on).unwrap_or_default())
            .map(|p| model.policies[p as usize].namespaced_name())
            .collect()
    };
    for (r, attached) in topology.route_listeners.iter().enumerate() {
        let route = &model.routes[r];
        for &(g, w) in attached {
            let gateway = &model.gateways[g as usize];
            for (hostname, x) in taken(gateway, w, &route.hostnames) {
                if attached.contains(&(g, x)) {
                    continue;
                }
                let listener = &gateway.listeners[x as usize];
                let policies = policies_of(g, x, listener);
                if policies.is_empty() {
                    continue;
                }
                let finding = SharedPortIsolation {
                    route: route.display(),
                    hostname,
                    through: described(gateway, w),
                    served_by: described(gateway, x),
                    port: listener.port,
                    policies,
                };
                let diagnostic = Diagnostic::from(finding).with_label(route.name_span, "route");
                out.push(diagnostic.with_object(route.display()));
            }
        }
    }
    out
}

/// The precise route hostnames that listener `w` accepts but another listener of its port
/// names exactly, with that listener, where one of the two is a ListenerSet's.
fn taken<'r>(gateway: &Gateway, w: u32, hostnames: &'r [String]) -> Vec<(&'r str, u32)> {
    let through = &gateway.listeners[w as usize];
    let mut found = Vec::new();
    for hostname in hostnames.iter().filter(|h| !h.starts_with('*')) {
        let accepts =
            listener_accepts_hostnames(through.hostname.as_deref(), std::slice::from_ref(hostname));
        if !accepts || through.hostname.as_deref() == Some(hostname) {
            continue;
        }
        let other = (gateway.listeners.iter().enumerate()).find(|(x, l)| {
            *x as u32 != w
                && !l.conflicted
                && l.port == through.port
                && l.protocol == through.protocol
                && (l.set.is_some() || through.set.is_some())
                && l.hostname.as_deref() == Some(hostname)
        });
        found.extend(other.map(|(x, _)| (hostname.as_str(), x as u32)));
    }
    found
}

/// `ns/gw>ns/set#L (*.example.com)`.
fn described(gateway: &Gateway, l: u32) -> String {
    let listener = &gateway.listeners[l as usize];
    let hostname = listener.hostname.as_deref().unwrap_or("no hostname");
    format!("{} ({hostname})", gateway.listener_key(listener))
}
