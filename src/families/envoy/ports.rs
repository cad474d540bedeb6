//! ClientTrafficPolicy on a shared plain-HTTP port (field-2026 §2.2; Envoy Gateway
//! `clienttrafficpolicy.go` validatePortOverlapForClientTrafficPolicy). Envoy builds one filter
//! chain for every non-TLS HTTP listener of a port, so a policy scoped to one of them would
//! configure the others too: the controller refuses it. The listener-scoped holder stays
//! Accepted False/`Invalid` on that ancestor and configures nothing there — yet it has claimed the
//! section before the check (the claim comes first in the controller's section pass), so the
//! Gateway-wide policy does not reach that listener either: the listener gets no
//! ClientTrafficPolicy. A Gateway-wide policy is never refused (every listener of the port is its
//! Gateway's). The other listeners of the port include its ListenerSets' (named
//! `<gw ns>/<gw>/<set ns>/<set>/<L>`, the controller's IR name). A listener-scoped policy
//! (`G#L`, `S#L`, CTP's `G#x` quirk) is refused when any other plain-HTTP listener shares the
//! port; a whole-ListenerSet policy (`S`) on each of its listeners whose port has a plain-HTTP
//! listener outside the set — and there it neither applies nor claims the listener, so a
//! Gateway-wide policy reaches it ([`refused_set`]).

use super::evaluate::EnvoyEvaluator;
use super::slots::Slot;
use super::spec::ListenerStyle;
use crate::topology::Target;

/// The Accepted=False message of `policy` holding listener slot `slot`, when the controller
/// refuses it there: a kind with sections (ClientTrafficPolicy) on a non-TLS HTTP listener that
/// shares its port with other non-TLS HTTP listeners of its Gateway (named in the message as the
/// controller's IR names them, `<ns>/<gateway>/<listener>`, in listener order).
pub(super) fn refused(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Slot) -> Option<String> {
    let (Slot::At(Target::Listener(g, l)) | Slot::GatewaySection(Target::Listener(g, l))) = slot
    else {
        return None;
    };
    let others = sharing(evaluator, policy, (g, l), |_| true)?;
    Some(message(evaluator, policy, &others) + ".")
}

/// Why the controller refuses whole-ListenerSet policy `policy` on the set's listener
/// `listener` (`scopeEntireListenerSet`): a plain-HTTP listener outside the set shares its port.
/// The message has no final period (the status joins one per listener, then adds it).
pub(super) fn refused_set(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    listener: Target,
) -> Option<String> {
    let Target::Listener(g, l) = listener else {
        return None;
    };
    let set = evaluator.model.gateways[g as usize].listeners[l as usize].set?;
    let others = sharing(evaluator, policy, (g, l), |other| other.set != Some(set))?;
    Some(message(evaluator, policy, &others))
}

/// The status message of whole-ListenerSet policy `policy` refused on some of `listeners` (those
/// its set slot reaches, in merged order): one sentence per refused listener, joined by new
/// lines (Go's `errors.Join`), then a period.
pub(super) fn refused_set_message(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    listeners: &[Target],
) -> Option<String> {
    let refusals: Vec<String> = (listeners.iter())
        .filter_map(|&l| refused_set(evaluator, policy, l))
        .collect();
    (!refusals.is_empty()).then(|| refusals.join("\n") + ".")
}

/// The IR names of the other plain-HTTP listeners `counts` keeps on the port of listener
/// `(g, l)`, when `policy` is a kind with sections and that listener is plain HTTP; `None` when
/// there are none.
fn sharing(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    (g, l): (u32, u32),
    counts: impl Fn(&crate::model::gateway::Listener) -> bool,
) -> Option<Vec<String>> {
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
                && counts(other)
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
    (!others.is_empty()).then_some(others)
}

/// `<Kind> is being applied to multiple http (non https) listeners (<others>) on the same port,
/// which is not allowed` (no final period).
fn message(evaluator: &EnvoyEvaluator<'_>, policy: u32, others: &[String]) -> String {
    let kind = evaluator.model.policies[policy as usize].kind.kind;
    format!(
        "{kind} is being applied to multiple http (non https) listeners ({}) on the same port, which is not allowed",
        others.join(", ")
    )
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
