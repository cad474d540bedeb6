//! ListenerSets joining their Gateways (docs/semantics.md §2, GEP-1713): the handshake, the
//! merged listener list and its conflicts.
//!
//! Done once, when the model is built, so that everything above reads one listener list per
//! Gateway: an admitted ListenerSet's listeners are appended to its Gateway's `listeners`, each
//! carrying its set (`Listener::set`), after the Gateway's own and in the order of GEP-1713
//! (older `creationTimestamp`, then `ns/name`). A path through one keeps the dense four indices
//! of every other path; a Gateway without ListenerSets is left untouched, so inputs without them
//! keep their paths and outputs byte for byte. Conflicts are evaluated only on the ports that
//! carry a ListenerSet listener (a Gateway's own conflicts are not modelled elsewhere either).

use super::Model;
use super::diags::{
    LegacyXListenerSet, ListenerConflicted, ListenerSetNoListener, ListenerSetNotAllowed,
    ListenerSetParentNotFound,
};
use super::gateway::{AllowedListeners, Gateway, Listener, ListenerSet};
use crate::diag::Diagnostic;

/// Joins every admitted ListenerSet to its Gateway and marks the listeners that lose a conflict;
/// the findings go to the model's diagnostics.
pub fn join(model: &mut Model) {
    if model.listener_sets.is_empty() {
        return;
    }
    let mut found = Vec::new();
    let order = merge_order(&model.listener_sets);
    for set in order {
        if let Some(gateway) = admitting_gateway(model, set, &mut found) {
            let s = &model.listener_sets[set as usize];
            let joined = (s.listeners.iter()).map(|l| Listener {
                set: Some(set),
                qualified: Some(format!("{}/{}#{}", s.namespace, s.name, l.name).into()),
                ..l.clone()
            });
            let joined: Vec<Listener> = joined.collect();
            model.gateways[gateway as usize].listeners.extend(joined);
            model.listener_sets[set as usize].gateway = Some(gateway);
        }
    }
    for gateway in 0..model.gateways.len() {
        found.extend(resolve_conflicts(model, gateway));
    }
    for (index, set) in model.listener_sets.iter().enumerate() {
        let Some(g) = set.gateway else { continue };
        let listeners = &model.gateways[g as usize].listeners;
        let mine = listeners.iter().filter(|l| l.set == Some(index as u32));
        if mine.clone().next().is_some() && mine.clone().all(|l| l.conflicted) {
            let finding = ListenerSetNoListener { set };
            found.push(Diagnostic::from(finding).with_label(set.name_span, "no listener accepted"));
        }
    }
    model.diagnostics.extend(found);
}

/// The ListenerSets in merged order (older `creationTimestamp` first, a set without one after
/// those with one, then `ns/name`, the v1 kind before the legacy one).
fn merge_order(sets: &[ListenerSet]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..sets.len() as u32).collect();
    order.sort_by_key(|&i| {
        let s = &sets[i as usize];
        let time = s.creation_timestamp;
        (time.is_none(), time, &s.namespace, &s.name, s.legacy)
    });
    order
}

/// The Gateway that admits ListenerSet `set`, or `None` with the finding that says why not.
fn admitting_gateway(model: &Model, set: u32, found: &mut Vec<Diagnostic>) -> Option<u32> {
    let s = &model.listener_sets[set as usize];
    let gateway = s.parent.as_ref().and_then(|(ns, name)| {
        (model.gateways.iter()).position(|g| !g.assumed && g.namespace == *ns && g.name == *name)
    });
    let Some(gateway) = gateway else {
        let finding = ListenerSetParentNotFound { set: s };
        found.push(Diagnostic::from(finding).with_label(s.parent_span, "parentRef"));
        return None;
    };
    if s.legacy && has_v1_namesake(model, s) {
        let finding = LegacyXListenerSet {
            set: s,
            dropped: true,
        };
        let diagnostic = Diagnostic::from(finding).with_severity(crate::diag::Severity::Warning);
        found.push(diagnostic.with_label(s.name_span, "XListenerSet"));
        return None;
    }
    if s.legacy {
        let finding = LegacyXListenerSet {
            set: s,
            dropped: false,
        };
        found.push(Diagnostic::from(finding).with_label(s.name_span, "XListenerSet"));
    }
    let g = &model.gateways[gateway];
    let (labels_unknown, label) = match admits(model, g, &s.namespace) {
        Admission::Admitted => return Some(gateway as u32),
        Admission::Refused => (false, "not allowed"),
        Admission::LabelsUnknown => (true, "namespace not in input"),
    };
    let finding = ListenerSetNotAllowed {
        set: s,
        gateway: g,
        labels_unknown,
    };
    found.push(Diagnostic::from(finding).with_label(s.name_span, label));
    None
}

/// Whether a v1 ListenerSet with the legacy set's namespace and name has the same parent (their
/// path ids would be equal: the v1 one is kept).
fn has_v1_namesake(model: &Model, legacy: &ListenerSet) -> bool {
    (model.listener_sets.iter()).any(|s| {
        !s.legacy
            && s.namespace == legacy.namespace
            && s.name == legacy.name
            && s.parent == legacy.parent
    })
}

/// The outcome of a Gateway's `allowedListeners` for a ListenerSet's namespace.
enum Admission {
    Admitted,
    Refused,
    /// A selector over a Namespace that is not in the input (not admitted: the controllers read
    /// the Namespace's labels and refuse without them).
    LabelsUnknown,
}

/// Whether Gateway `g` admits a ListenerSet in `namespace`. A selector over a Namespace absent
/// from the input is decided when it reads only `kubernetes.io/metadata.name` (the label every
/// Namespace has), as for routes (derived).
fn admits(model: &Model, g: &Gateway, namespace: &str) -> Admission {
    let yes = |b: bool| {
        if b {
            Admission::Admitted
        } else {
            Admission::Refused
        }
    };
    match &g.allowed_listeners {
        AllowedListeners::None => Admission::Refused,
        AllowedListeners::Same => yes(namespace == g.namespace),
        AllowedListeners::All => Admission::Admitted,
        AllowedListeners::Selector(selector) => match model.namespace(namespace) {
            Some(ns) => yes(selector.matches(&ns.labels)),
            None if selector.keys().all(|k| k == "kubernetes.io/metadata.name") => {
                let name = "kubernetes.io/metadata.name".to_string();
                yes(selector.matches(&[(name, namespace.to_string())]))
            }
            None => Admission::LabelsUnknown,
        },
    }
}

/// The conflict class of a listener's protocol (EG getProtocolForListener): HTTP; HTTPS and TLS;
/// TCP; UDP; any other protocol is a class of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ProtocolClass<'a> {
    Http,
    Secure,
    Tcp,
    Udp,
    Other(&'a str),
}

fn class_of(listener: &Listener) -> ProtocolClass<'_> {
    match listener.protocol.as_str() {
        "HTTP" => ProtocolClass::Http,
        "HTTPS" | "TLS" => ProtocolClass::Secure,
        "TCP" => ProtocolClass::Tcp,
        "UDP" => ProtocolClass::Udp,
        other => ProtocolClass::Other(other),
    }
}

/// What a conflicted listener lost: the conflict and the listener that won it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// Another protocol class holds the port (`ProtocolConflict`).
    Protocol,
    /// Another listener of the port has the same hostname (`HostnameConflict`).
    Hostname,
}

/// Marks the listeners of Gateway `gateway` that lose a conflict and returns the findings.
fn resolve_conflicts(model: &mut Model, gateway: usize) -> Vec<Diagnostic> {
    let g = &model.gateways[gateway];
    let mut ports: Vec<i64> = (g.listeners.iter())
        .filter(|l| l.set.is_some())
        .map(|l| l.port)
        .collect();
    ports.sort_unstable();
    ports.dedup();
    let mut lost: Vec<(usize, Conflict, Vec<usize>)> = Vec::new();
    for port in ports {
        let on_port: Vec<usize> = (0..g.listeners.len())
            .filter(|&i| g.listeners[i].port == port)
            .collect();
        let mut out = protocol_conflicts(&g.listeners, &on_port);
        let left: Vec<usize> = (on_port.iter().copied())
            .filter(|i| !out.iter().any(|(o, ..)| o == i))
            .collect();
        out.extend(hostname_conflicts(&g.listeners, &left));
        lost.extend(out);
    }
    let g = &model.gateways[gateway];
    let found = (lost.iter())
        .map(|(i, conflict, others)| {
            let listener = &g.listeners[*i];
            let name = |j: &usize| (g.listeners[*j]).qualified_name().to_string();
            let finding = ListenerConflicted {
                gateway: g,
                listener: listener.qualified_name().to_string(),
                port: listener.port,
                conflict: *conflict,
                others: others.iter().map(name).collect(),
            };
            Diagnostic::from(finding).with_label(listener.name_span, "conflicted")
        })
        .collect();
    let g = &mut model.gateways[gateway];
    for (i, ..) in lost {
        g.listeners[i].conflicted = true;
    }
    found
}

/// Conflicts of protocol among the listeners `on_port` (GEP-1713; EG
/// validateConflictedProtocolsListeners, validateConflictedLayer4Listeners): each loser with the
/// listeners that beat it (the winner, or the others of a group none wins).
fn protocol_conflicts(
    listeners: &[Listener],
    on_port: &[usize],
) -> Vec<(usize, Conflict, Vec<usize>)> {
    let class = |i: usize| class_of(&listeners[i]);
    let not_udp: Vec<usize> = (on_port.iter().copied())
        .filter(|&i| class(i) != ProtocolClass::Udp)
        .collect();
    let own: Vec<usize> = (not_udp.iter().copied())
        .filter(|&i| listeners[i].set.is_none())
        .collect();
    let mut lost = Vec::new();
    let everyone_but = |i: usize, of: &[usize]| of.iter().copied().filter(|&j| j != i).collect();
    if own.iter().any(|&i| class(i) != class(own[0])) {
        for &i in &not_udp {
            lost.push((i, Conflict::Protocol, everyone_but(i, &own)));
        }
        return lost;
    }
    let mut winner = own.first().copied();
    for &i in not_udp.iter().filter(|&&i| listeners[i].set.is_some()) {
        let set = listeners[i].set;
        let siblings: Vec<usize> = (not_udp.iter().copied())
            .filter(|&j| listeners[j].set == set)
            .collect();
        if own.is_empty() && siblings.iter().any(|&j| class(j) != class(i)) {
            lost.push((i, Conflict::Protocol, everyone_but(i, &siblings)));
            continue;
        }
        match winner {
            None => winner = Some(i),
            Some(w) if class(w) != class(i) => lost.push((i, Conflict::Protocol, vec![w])),
            Some(_) => {}
        }
    }
    lost.extend(layer4_conflicts(listeners, on_port, &lost));
    lost
}

/// Layer 4: the first TCP and the first UDP listener of the port are kept, later ones lose.
fn layer4_conflicts(
    listeners: &[Listener],
    on_port: &[usize],
    lost: &[(usize, Conflict, Vec<usize>)],
) -> Vec<(usize, Conflict, Vec<usize>)> {
    let mut out = Vec::new();
    for wanted in [ProtocolClass::Tcp, ProtocolClass::Udp] {
        let mut kept = (on_port.iter().copied())
            .filter(|&i| class_of(&listeners[i]) == wanted)
            .filter(|i| !lost.iter().any(|(l, ..)| l == i));
        let Some(first) = kept.next() else { continue };
        out.extend(kept.map(|i| (i, Conflict::Protocol, vec![first])));
    }
    out
}

/// Conflicts of hostname among the HTTP, HTTPS and TLS listeners `left` by the protocol step
/// (GEP-1713; EG validateConflictedHostnameListeners).
fn hostname_conflicts(
    listeners: &[Listener],
    left: &[usize],
) -> Vec<(usize, Conflict, Vec<usize>)> {
    let hosted: Vec<usize> = (left.iter().copied())
        .filter(|&i| matches!(listeners[i].protocol.as_str(), "HTTP" | "HTTPS" | "TLS"))
        .collect();
    let mut lost = Vec::new();
    let mut seen: Vec<Option<&str>> = Vec::new();
    for &first in &hosted {
        let host = listeners[first].hostname.as_deref();
        if seen.contains(&host) {
            continue;
        }
        seen.push(host);
        let group: Vec<usize> = (hosted.iter().copied())
            .filter(|&i| listeners[i].hostname.as_deref() == host)
            .collect();
        if group.len() < 2 {
            continue;
        }
        let own = group
            .iter()
            .filter(|&&i| listeners[i].set.is_none())
            .count();
        let twice = |i: usize| {
            let set = listeners[i].set;
            group.iter().filter(|&&j| listeners[j].set == set).count() > 1
        };
        let winner = match own {
            0 => group.iter().copied().find(|&i| !twice(i)),
            1 => group.iter().copied().find(|&i| listeners[i].set.is_none()),
            _ => None,
        };
        for &i in group.iter().filter(|&&i| Some(i) != winner) {
            let others = match winner {
                Some(w) => vec![w],
                None => group.iter().copied().filter(|&j| j != i).collect(),
            };
            lost.push((i, Conflict::Hostname, others));
        }
    }
    lost
}

#[cfg(test)]
mod tests {
    use super::{Conflict, hostname_conflicts, protocol_conflicts};
    use crate::model::gateway::{FromNamespaces, Listener};
    use crate::source::Span;

    /// A listener on port 80 of `protocol` for `host`, of set `set` (`None`: the Gateway's).
    fn listener(protocol: &str, host: Option<&str>, set: Option<u32>) -> Listener {
        Listener {
            name: "l".into(),
            port: 80,
            protocol: protocol.into(),
            hostname: host.map(str::to_string),
            hostname_span: None,
            from: FromNamespaces::Same,
            kinds: None,
            name_span: Span::default(),
            allowed_routes_span: None,
            set,
            qualified: None,
            conflicted: false,
        }
    }

    fn losers(found: &[(usize, Conflict, Vec<usize>)]) -> Vec<usize> {
        found.iter().map(|(i, ..)| *i).collect()
    }

    /// §1.3 step 1: the Gateway's class wins; two classes among the Gateway's own conflict every
    /// non-UDP listener; without a Gateway listener a set with two classes loses both and the
    /// next set listener sets the class; a later TCP listener loses to the first.
    #[test]
    fn protocol_conflicts_keep_the_gateway_class_or_the_first_set_listener() {
        let gateway_http = [
            listener("HTTP", None, None),
            listener("TCP", None, Some(0)),
            listener("HTTPS", Some("a"), Some(0)),
            listener("UDP", None, Some(1)),
        ];
        let found = protocol_conflicts(&gateway_http, &[0, 1, 2, 3]);
        assert_eq!(losers(&found), [1, 2]);
        assert!(
            found
                .iter()
                .all(|(_, c, w)| *c == Conflict::Protocol && w == &[0])
        );

        let gateway_mixed = [
            listener("HTTP", None, None),
            listener("TCP", None, None),
            listener("HTTP", Some("a"), Some(0)),
        ];
        assert_eq!(
            losers(&protocol_conflicts(&gateway_mixed, &[0, 1, 2])),
            [0, 1, 2]
        );

        let sets_only = [
            listener("HTTP", Some("a"), Some(0)),
            listener("TCP", None, Some(0)),
            listener("TCP", None, Some(1)),
            listener("HTTP", Some("b"), Some(2)),
            listener("TCP", None, Some(3)),
        ];
        let found = protocol_conflicts(&sets_only, &[0, 1, 2, 3, 4]);
        // Set 0 loses both; set 1's TCP sets the class; set 2's HTTP loses; set 3's TCP is a
        // second TCP listener on the port.
        assert_eq!(losers(&found), [0, 1, 3, 4]);
    }

    /// §1.3 step 2: per hostname, the Gateway's own listener wins; two of the Gateway's conflict
    /// the whole group; else the first set listener wins, skipping a set with two in the group.
    #[test]
    fn hostname_conflicts_keep_the_gateway_listener_or_the_first_set_listener() {
        let own_wins = [
            listener("HTTP", Some("a"), None),
            listener("HTTP", Some("a"), Some(0)),
            listener("HTTP", Some("b"), Some(0)),
        ];
        let found = hostname_conflicts(&own_wins, &[0, 1, 2]);
        assert_eq!(found, [(1, Conflict::Hostname, vec![0])]);

        let own_twice = [
            listener("HTTP", Some("a"), None),
            listener("HTTPS", Some("a"), None),
            listener("HTTP", Some("a"), Some(0)),
        ];
        assert_eq!(
            losers(&hostname_conflicts(&own_twice, &[0, 1, 2])),
            [0, 1, 2]
        );

        let sets = [
            listener("HTTP", Some("a"), Some(0)),
            listener("HTTPS", Some("a"), Some(0)),
            listener("HTTP", Some("a"), Some(1)),
            listener("HTTP", Some("a"), Some(2)),
            listener("TCP", None, Some(3)),
        ];
        let found = hostname_conflicts(&sets, &[0, 1, 2, 3, 4]);
        assert_eq!(losers(&found), [0, 1, 3]);
        assert!(found.iter().all(|(_, _, w)| w == &[2]));
    }
}
