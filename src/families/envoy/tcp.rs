//! Envoy Gateway on TCPRoutes (docs/families.md §3.7): a kind may apply only some of its
//! fields there ([`super::spec::EnvoyKindSpec::tcp_fields`]; SecurityPolicy: `authorization`).
//! A policy winning a route slot whose fields (merged with its parent under `mergeType`) include
//! another is Invalid — "Only authorization is supported for TCP (routes/listeners)." — and the
//! path gets nothing from it; a Gateway or listener policy's other fields are left out on the
//! route, as the controller applies "only what is supported".

use super::evaluate::EnvoyEvaluator;
use super::slots::{Decision, Holders};
use crate::engine::fold::Effective;
use crate::model::gateway::RouteKind;
use crate::policy::{ExplainedMerge, MergeChange};
use crate::topology::{NO_CHAIN, Target};

/// Envoy Gateway's status message for an Invalid policy on a TCPRoute.
pub(super) const INVALID_MESSAGE: &str =
    "Only authorization is supported for TCP (routes/listeners).";

/// Envoy Gateway's status message for a policy whose own spec is Invalid on a TCPRoute.
const INVALID_OWN_MESSAGE: &str = "Invalid SecurityPolicy for TCP route: only authorization is supported for TCP (routes/listeners).";

/// The fields `policy`'s kind applies on path `path`, when the path goes through a TCPRoute and
/// the kind restricts them.
fn tcp_fields<'e>(
    evaluator: &'e EnvoyEvaluator<'_>,
    path: u32,
    policy: u32,
) -> Option<&'e [String]> {
    // A listener fold has no path (`engine::listeners::NO_PATH`), and no route.
    let route = evaluator.topology.paths.get(path as usize)?.route;
    if evaluator.model.routes[route as usize].kind != RouteKind::Tcp {
        return None;
    }
    evaluator.spec(policy).tcp_fields.as_deref()
}

/// Whether `key` is among the fields a kind applies on a TCPRoute.
fn supported(fields: &[String], key: &str) -> bool {
    fields.iter().any(|f| f == key)
}

/// Whether `decision`'s winner, giving `effective` on path `path`, is Invalid there: it holds a
/// route slot on a TCPRoute and sets a field its kind does not apply on TCP.
fn invalid(
    evaluator: &EnvoyEvaluator<'_>,
    path: u32,
    decision: &Decision,
    effective: &Effective<'_>,
) -> bool {
    let route_slot = decision.slot.is_route();
    let Some(fields) = tcp_fields(evaluator, path, decision.winner).filter(|_| route_slot) else {
        return false;
    };
    effective.keys().any(|key| !supported(fields, key))
}

/// `effective`, decided by `decision` on path `path` with `holders`, as Envoy Gateway applies
/// it (`invalid`: [`invalid_decision`] of the decision): nothing from an Invalid winner, only
/// the supported fields of a Gateway or listener winner. A route winner that leaves the TCPRoute without them (Invalid, or setting none) lets
/// the most specific Gateway or listener holder's apply, as Envoy Gateway gives a Gateway
/// policy's `authorization` to every TCP route that has none (`securitypolicy.go`).
pub(super) fn applied<'m>(
    evaluator: &EnvoyEvaluator<'m>,
    path: u32,
    holders: &Holders,
    (decision, invalid): (Option<Decision>, bool),
    mut effective: Effective<'m>,
) -> Effective<'m> {
    let Some(decision) = decision else {
        return effective;
    };
    let Some(fields) = tcp_fields(evaluator, path, decision.winner) else {
        return effective;
    };
    if invalid {
        effective = Effective::new();
    }
    effective.retain(|key, _| supported(fields, key));
    if effective.is_empty() && decision.slot.is_route() {
        return fallback(evaluator, path, holders).unwrap_or(effective);
    }
    effective
}

/// The supported fields of the most specific Gateway or listener holder of a TCP path, alone.
fn fallback<'m>(
    evaluator: &EnvoyEvaluator<'m>,
    path: u32,
    holders: &Holders,
) -> Option<Effective<'m>> {
    let &(slot, winner) = holders.slots.iter().find(|(t, _)| !t.is_route())?;
    let fields = tcp_fields(evaluator, path, winner)?;
    let mut effective = evaluator.decided(Some(Decision {
        winner,
        slot,
        parent: None,
    }));
    effective.retain(|key, _| supported(fields, key));
    Some(effective)
}

/// The Accepted=False message of `policy`, Invalid on a TCPRoute: Envoy Gateway validates the
/// policy's own spec first (`invalid SecurityPolicy for TCP route: …`, capitalised), then the
/// spec merged with its parent (`Only authorization is supported …`).
pub(super) fn invalid_message(evaluator: &EnvoyEvaluator<'_>, policy: u32) -> String {
    let fields = evaluator
        .spec(policy)
        .tcp_fields
        .as_deref()
        .unwrap_or_default();
    let own = &evaluator.model.policies[policy as usize].blocks[0].rules;
    match own.iter().all(|r| supported(fields, &r.key)) {
        true => INVALID_MESSAGE.to_string(),
        false => INVALID_OWN_MESSAGE.to_string(),
    }
}

/// Why `policy`'s rule `key` is not applied on path `path` (decided by `decision`; `invalid`:
/// [`invalid_decision`] of it) although it would be on an HTTP route: the winner is Invalid
/// there, or the kind does not apply `key` on a TCPRoute. `None` elsewhere (the common outcomes
/// then say what happened to it).
pub(super) fn not_applied(
    evaluator: &EnvoyEvaluator<'_>,
    path: u32,
    (decision, invalid): (&Decision, bool),
    policy: u32,
    key: &str,
) -> Option<crate::name::Name> {
    let fields = tcp_fields(evaluator, path, decision.winner)?;
    if policy == decision.winner && invalid {
        return Some(crate::name::Name::new(&format!(
            "Invalid: {INVALID_MESSAGE}"
        )));
    }
    (!supported(fields, key)).then(|| {
        let supported = fields.join(", ");
        crate::name::Name::new(&format!(
            "Envoy Gateway applies only {supported} on a TCPRoute"
        ))
    })
}

/// Whether `decision`'s winner is Invalid on path `path` (it merges into nothing there).
pub(super) fn invalid_decision(
    evaluator: &EnvoyEvaluator<'_>,
    path: u32,
    decision: &Decision,
) -> bool {
    tcp_fields(evaluator, path, decision.winner).is_some()
        && invalid(
            evaluator,
            path,
            decision,
            // The decision's own rules: the indexed fields (BTP `routingType`) belong to kinds
            // without a TCP restriction.
            &evaluator.decided(Some(*decision)),
        )
}

/// Whether `policy`, on `target`, is Invalid on a path through the target's route.
pub(super) fn invalid_at(evaluator: &EnvoyEvaluator<'_>, policy: u32, target: Target) -> bool {
    let route = match target {
        Target::Route(r) | Target::RouteRule(r, _) => r,
        Target::Gateway(_) | Target::Listener(..) | Target::ListenerSet(_) => return false,
    };
    let tcp = evaluator.model.routes[route as usize].kind == RouteKind::Tcp;
    if !tcp || evaluator.spec(policy).tcp_fields.is_none() {
        return false; // the common case, without a walk over the paths
    }
    let topology = evaluator.topology;
    let kind = evaluator.kind_index(policy);
    (topology.paths.iter().enumerate())
        .filter(|(_, p)| p.route == route && p.chain == NO_CHAIN)
        .any(|(index, path)| {
            let holders = evaluator.holders(&topology.elements(path), kind);
            let decision = evaluator.decide(&holders);
            decision.is_some_and(|d| {
                d.winner == policy && invalid_decision(evaluator, index as u32, &d)
            })
        })
}

/// The `explain` step of a path through a TCPRoute whose kind restricts its fields: the fields
/// `before` holds that Envoy Gateway does not apply there (all of them when the winner is
/// Invalid), each `not-applied`. `None` when nothing is left out.
pub(super) fn explain_step(
    evaluator: &EnvoyEvaluator<'_>,
    path: u32,
    decision: &Decision,
    before: &Effective<'_>,
) -> Option<ExplainedMerge> {
    let fields = tcp_fields(evaluator, path, decision.winner)?;
    let invalid = invalid(evaluator, path, decision, before);
    let changes: Vec<MergeChange> = before
        .iter()
        .filter(|(key, _)| invalid || !supported(fields, key))
        .map(|(key, rule)| MergeChange {
            key: key.to_string(),
            action: "not-applied",
            source: rule.policy,
            by: Vec::new(),
        })
        .collect();
    if changes.is_empty() {
        return None;
    }
    let supported = fields.join(", ");
    let summary = if invalid {
        format!(
            "on a TCPRoute: Invalid ({INVALID_MESSAGE}); the path gets nothing from it, and a Gateway or listener policy's authorization applies instead, if one holds a slot"
        )
    } else {
        format!(
            "on a TCPRoute Envoy Gateway applies only {supported}; the other fields are left out"
        )
    };
    Some(ExplainedMerge {
        policy: Some(decision.winner),
        subject: "TCPRoute".to_string(),
        scope: "route",
        strategy: "TCP fields",
        // Still the most specific slot's spec whole, of the fields a TCPRoute takes.
        gep: crate::policy::GepStrategy::AtomicDefaults,
        summary,
        skipped: None,
        changes,
    })
}
