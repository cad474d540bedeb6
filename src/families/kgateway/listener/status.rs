//! ListenerPolicy status (docs/families.md §2.9, as TrafficPolicy's §2.7): every Envoy-level
//! merge a policy takes part in is judged on its own, and per ancestor Gateway the worst state
//! wins (Overridden > Merged > Attached).
//!
//! The merges: the whole-Gateway policies of each Gateway (its Envoy listeners), and each HTTPS
//! listener's `sectionName` policies then the whole-Gateway ones (its filter chain). The merged
//! result has a key per field of `default` and per field of each `perPort` entry (kgateway's merge
//! origins `default.<field>`, `perPortPolicy[<port>].<field>`); a policy in the origins of every
//! key is Attached, of some Merged, of none Overridden (golden `listener-policy/deep-merge.yaml`:
//! two policies filling each other's fields are both Merged). A policy attached only by
//! `sectionName` to a listener that is not HTTPS takes part in no merge: Attached.

use super::evaluate::LpEvaluator;
use crate::engine::observed::Observed;
use crate::families::kgateway::evaluate::ancestor;
use crate::families::kgateway::status::{State, accepted, attached, sort_key, unresolved};
use crate::policy::{AncestorStatus, PolicyConditions};
use crate::topology::Target;
use std::collections::{BTreeMap, BTreeSet};

/// The status of `policy`.
pub fn conditions(
    evaluator: &LpEvaluator<'_>,
    _observed: &Observed<'_, '_>,
    policy: u32,
) -> PolicyConditions {
    let model = evaluator.model;
    let p = &model.policies[policy as usize];
    let invalid = !p.errors.is_empty();
    let accepted = accepted(p);
    let targets = &evaluator.topology.targets;
    let gateways: BTreeSet<u32> = (targets.of_policy[policy as usize].iter())
        .filter_map(|t| match *t {
            Target::Gateway(g) | Target::Listener(g, _) => Some(g),
            _ => None,
        })
        .collect();
    if gateways.is_empty() {
        return unresolved(evaluator.topology, p, policy, accepted);
    }
    let mut ancestors: Vec<AncestorStatus> = (gateways.iter())
        .map(|&g| AncestorStatus {
            ancestor_ref: ancestor(model, g, None),
            conditions: vec![
                accepted.clone(),
                attached(state_on(evaluator, g, policy), invalid),
            ],
            conflicted_by: Vec::new(),
        })
        .collect();
    ancestors.sort_by_key(|a| sort_key(&a.ancestor_ref));
    let worst = (gateways.iter())
        .map(|&g| state_on(evaluator, g, policy))
        .max()
        .unwrap_or(State::Attached);
    PolicyConditions {
        conditions: vec![accepted, attached(worst, invalid)],
        ancestors: Some(ancestors),
    }
}

/// The worst state of `policy` over the merges of Gateway `g` it takes part in.
fn state_on(evaluator: &LpEvaluator<'_>, g: u32, policy: u32) -> State {
    let model = evaluator.model;
    let targets = &evaluator.topology.targets;
    let kind = model.registry.kind_index(evaluator.kind);
    let whole = targets.on(Target::Gateway(g), kind);
    let mut merges: Vec<Vec<u32>> = vec![whole.to_vec()];
    for (l, listener) in model.gateways[g as usize].listeners.iter().enumerate() {
        let section = targets.on(Target::Listener(g, l as u32), kind);
        if listener.protocol == "HTTPS" && !section.is_empty() {
            merges.push([section, whole].concat());
        }
    }
    (merges.iter())
        .filter(|list| list.contains(&policy))
        .map(|list| state(evaluator, list, policy))
        .max()
        .unwrap_or(State::Attached)
}

/// The state of `policy` in the merge of `list`: who provides each `default` and port field.
fn state(evaluator: &LpEvaluator<'_>, list: &[u32], policy: u32) -> State {
    let mut providers: BTreeMap<&str, u32> = BTreeMap::new();
    // An invalid policy takes part in no merge (docs/families.md §2.5).
    let valid = |p: &&u32| evaluator.model.policies[**p as usize].errors.is_empty();
    for &p in list.iter().filter(valid) {
        for rule in evaluator.model.policies[p as usize].blocks[0].rules.iter() {
            providers.entry(rule.key.as_str()).or_insert(p);
        }
    }
    let mine = providers.values().filter(|&&p| p == policy).count();
    match mine {
        _ if providers.is_empty() => State::Attached,
        0 => State::Overridden,
        n if n == providers.len() => State::Attached,
        _ => State::Merged,
    }
}
