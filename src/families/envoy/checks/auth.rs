//! `auth-replaced-without-merge` (envoyproxy/gateway#8781): a route SecurityPolicy without
//! `mergeType` replaces the Gateway's SecurityPolicy as a whole, so authentication the Gateway
//! policy sets (JWT, OIDC, ...) and the route policy does not repeat is switched off for that
//! route — usually by surprise, since the route policy was meant to add something.

use super::super::diags::AuthReplacedWithoutMerge;
use super::super::evaluate::EnvoyEvaluator;
use crate::diag::Diagnostic;
use crate::engine::observed::Observed;
use crate::policy::Level;
use std::collections::{BTreeMap, BTreeSet};

/// One finding per (route policy, Gateway policy) pair, with the fields it hides.
pub fn check(evaluator: &EnvoyEvaluator<'_>, observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut found: BTreeMap<(u32, u32), (BTreeSet<String>, BTreeSet<u32>)> = BTreeMap::new();
    for entry in &observed.shared.entries {
        if let Some((pair, hidden)) =
            hidden_auth(evaluator, entry.path, observed.shared.kind(entry))
        {
            let slot = found.entry(pair).or_default();
            slot.0.extend(hidden);
            slot.1.insert(entry.path);
        }
    }
    found
        .iter()
        .map(|((winner, gateway), (fields, paths))| {
            let policy = &model.policies[*winner as usize];
            Diagnostic::from(AuthReplacedWithoutMerge {
                policy,
                replaced: &model.policies[*gateway as usize],
                fields,
                paths: paths.len(),
            })
            .with_label(policy.name_span, "replaces the Gateway's authentication")
            .with_object(policy.display())
        })
        .collect()
}

/// On one path and kind: the route winner without `mergeType`, the listener or Gateway policy
/// it hides, and the auth fields only the hidden one sets.
fn hidden_auth(
    evaluator: &EnvoyEvaluator<'_>,
    path: u32,
    kind: usize,
) -> Option<((u32, u32), BTreeSet<String>)> {
    let model = evaluator.model;
    let topology = evaluator.topology;
    let policy_kind = model.registry.kind(kind);
    let spec = evaluator
        .kinds
        .iter()
        .position(|k| std::ptr::eq(k, policy_kind))?;
    let auth = &evaluator.specs[spec].auth_fields;
    if auth.is_empty() {
        return None;
    }
    let holders = evaluator.holders(&topology.elements(&topology.paths[path as usize]), kind);
    let decision = evaluator.decide(&holders)?;
    let winner = decision.winner;
    let route_level = matches!(decision.slot.level(), Level::Route | Level::RouteRule);
    if !route_level || evaluator.merge_type(winner).is_some() {
        return None;
    }
    let &(_, hidden) = holders
        .slots
        .iter()
        .find(|(t, _)| matches!(t.level(), Level::Listener | Level::Gateway))?;
    let has = |p: u32, key: &str| model.policies[p as usize].blocks[0].rule(key).is_some();
    let fields: BTreeSet<String> = auth
        .iter()
        .filter(|f| has(hidden, f) && !has(winner, f))
        .cloned()
        .collect();
    (!fields.is_empty()).then_some(((winner, hidden), fields))
}
