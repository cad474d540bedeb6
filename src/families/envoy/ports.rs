//! ClientTrafficPolicy on a shared plain-HTTP port (field-2026 §2.2; Envoy Gateway
//! `clienttrafficpolicy.go` validatePortOverlapForClientTrafficPolicy). Envoy builds one filter
//! chain for every non-TLS HTTP listener of a port, so a policy scoped to one of them would
//! configure the others too: the controller refuses it. The listener-scoped holder stays
//! Accepted False/`Invalid` on that ancestor and configures nothing there — yet it has claimed the
//! section before the check (the claim comes first in the controller's section pass), so the
//! Gateway-wide policy does not reach that listener either: the listener gets no
//! ClientTrafficPolicy. A Gateway-wide policy is never refused (every listener of the port is its
//! Gateway's). The other listeners of the port include its ListenerSets' (named
//! `<gw ns>/<gw>/<set ns>/<set>/<L>`, the controller's IR name); the ListenerSet scopes of a
//! policy (`S#L`, `S`, the `G#x` quirk) are not modelled yet.

use super::evaluate::EnvoyEvaluator;
use super::spec::ListenerStyle;
use crate::topology::Target;

/// The Accepted=False message of `policy` holding listener slot `slot`, when the controller
/// refuses it there: a kind with sections (ClientTrafficPolicy) on a non-TLS HTTP listener that
/// shares its port with other non-TLS HTTP listeners of its Gateway (named in the message as the
/// controller's IR names them, `<ns>/<gateway>/<listener>`, in listener order).
pub(super) fn refused(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Target) -> Option<String> {
    let Target::Listener(g, l) = slot else {
        return None;
    };
    if evaluator.spec(policy).listener_style != ListenerStyle::Section {
        return None;
    }
    let model = evaluator.model;
    let gateway = &model.gateways[g as usize];
    let listener = &gateway.listeners[l as usize];
    if listener.protocol != "HTTP" || listener.conflicted {
        return None;
    }
    // Every other plain-HTTP listener of the port in the Gateway's merged list (its ListenerSets'
    // included; a conflicted listener is in no IR), by its IR name.
    let others: Vec<String> = (gateway.listeners.iter().enumerate())
        .filter(|&(i, other)| {
            i != l as usize
                && !other.conflicted
                && other.protocol == "HTTP"
                && other.port == listener.port
        })
        .map(|(_, other)| {
            let set = other.set.map(|s| &model.listener_sets[s as usize]);
            let scope = set.map_or(String::new(), |s| format!("{}/{}/", s.namespace, s.name));
            format!(
                "{}/{}/{scope}{}",
                gateway.namespace, gateway.name, other.name
            )
        })
        .collect();
    if others.is_empty() {
        return None;
    }
    let kind = evaluator.model.policies[policy as usize].kind.kind;
    Some(format!(
        "{kind} is being applied to multiple http (non https) listeners ({}) on the same port, which is not allowed.",
        others.join(", ")
    ))
}

/// The `explain` step of a path whose winner the controller refuses on its shared plain-HTTP
/// port: every field `before` holds is `not-applied`, and nothing takes its place.
pub(super) fn explain_step(
    evaluator: &EnvoyEvaluator<'_>,
    decision: &super::slots::Decision,
    before: &crate::engine::fold::Effective<'_>,
) -> Option<crate::policy::ExplainedMerge> {
    let message = refused(evaluator, decision.winner, decision.slot)?;
    let changes = before
        .iter()
        .map(|(key, rule)| crate::policy::MergeChange {
            key: key.to_string(),
            action: "not-applied",
            source: rule.policy,
            by: Vec::new(),
        })
        .collect();
    Some(crate::policy::ExplainedMerge {
        policy: Some(decision.winner),
        subject: "listener".to_string(),
        scope: "listener",
        strategy: "shared port",
        // The slot still decides, whole: here it leaves the listener nothing.
        gep: crate::policy::GepStrategy::AtomicDefaults,
        summary: format!(
            "Invalid ({message}); it still claims the listener, so the Gateway's policy does not apply there either: the listener gets nothing"
        ),
        skipped: None,
        changes,
    })
}
