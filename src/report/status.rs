//! `dopol status`: the conditions the Kuadrant operator would write on each policy, computed
//! offline (SPEC §5), and every rule's outcome on every path.
//!
//! `Enforced` is computed the operator's way: for each path whose policy list contains P and
//! each rule key k of P — if k is absent from the path's effective policy, every source of that
//! effective policy counts as overriding P; if present with another source, that source counts;
//! if present with P as source, P is affecting the path. One choice the spec leaves open: P
//! never counts as overriding itself (it can be a source of a path that lacks one of its keys,
//! when an `unset` dropped that key).

use super::observed::{Observation, Observed};
use crate::engine::outcomes::Outcome;
use crate::report::filter::Filters;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A status condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Condition {
    /// `Accepted` or `Enforced`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `True` or `False`.
    pub status: &'static str,
    /// CamelCase reason.
    pub reason: &'static str,
    /// Human message.
    pub message: String,
}

/// One rule outcome on one path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathOutcome {
    /// The path id.
    #[serde(rename = "pathId")]
    pub path_id: String,
    /// `effective`, `superseded`, `overridden`, `deactivated`, `not-applied`.
    pub outcome: &'static str,
    /// Locators of the deciding policies.
    pub by: Vec<String>,
    /// Why, for `not-applied`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A rule and its outcomes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleStatus {
    /// Rule key.
    pub key: String,
    /// Outcomes in path order.
    pub outcomes: Vec<PathOutcome>,
}

/// A policy's status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PolicyStatus {
    /// Locator.
    pub policy: String,
    /// `Accepted`, then `Enforced` (accepted policies only).
    pub conditions: Vec<Condition>,
    /// Every rule key of the policy, sorted.
    pub rules: Vec<RuleStatus>,
    /// Index into `Model::policies` (not serialized).
    #[serde(skip)]
    pub index: u32,
}

/// `PolicyStatusList`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusReport {
    /// Policies sorted by locator.
    pub items: Vec<PolicyStatus>,
}

impl Serialize for StatusReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::report::list_document(serializer, "PolicyStatusList", &self.items)
    }
}

/// Converts an outcome to its report form.
pub fn path_outcome(observed: &Observed<'_, '_>, observation: &Observation<'_>) -> PathOutcome {
    PathOutcome {
        path_id: observed
            .engine
            .topology
            .path_id(observation.path as usize)
            .to_string(),
        outcome: observation.outcome.as_str(),
        by: observed
            .locators(&observation.outcome.by())
            .into_iter()
            .map(str::to_string)
            .collect(),
        reason: observation.outcome.reason().map(str::to_string),
    }
}

/// The `Enforced` condition of an accepted policy.
pub fn enforced(observed: &Observed<'_, '_>, policy: u32) -> Condition {
    let model = observed.engine.model;
    let p = &model.policies[policy as usize];
    let keys: BTreeSet<&str> = p.rules().map(|(_, r)| r.key.as_str()).collect();
    let mut affecting = false;
    let mut overriding: BTreeSet<u32> = BTreeSet::new();
    for &index in &observed.entries_of_policy[policy as usize] {
        let (_, fold) = observed.entry(index);
        let effective = &fold.folded.effective;
        for key in &keys {
            match effective.get(key) {
                Some(rule) if rule.policy == policy => affecting = true,
                Some(rule) => {
                    overriding.insert(rule.policy);
                }
                None => overriding.extend(
                    effective
                        .values()
                        .map(|r| r.policy)
                        .filter(|&q| q != policy),
                ),
            }
        }
    }
    let kind = p.kind.kind;
    let overriders = || {
        let mut names: Vec<String> = overriding
            .iter()
            .map(|&q| model.policies[q as usize].namespaced_name())
            .collect();
        names.sort();
        names.dedup();
        names.join(" ")
    };
    match (affecting, overriding.is_empty()) {
        (false, true) => Condition {
            kind: "Enforced",
            status: "False",
            reason: "Unknown",
            message: format!("{kind} is not in the path to any existing routes"),
        },
        (false, false) => Condition {
            kind: "Enforced",
            status: "False",
            reason: "Overridden",
            message: format!("{kind} is overridden by [{}]", overriders()),
        },
        (true, false) => Condition {
            kind: "Enforced",
            status: "True",
            reason: "Enforced",
            message: format!("{kind} has been partially enforced"),
        },
        (true, true) => Condition {
            kind: "Enforced",
            status: "True",
            reason: "Enforced",
            message: format!("{kind} has been successfully enforced"),
        },
    }
}

/// A policy's conditions: `Accepted`, then `Enforced` if it was accepted.
pub fn conditions(observed: &Observed<'_, '_>, policy: u32) -> Vec<Condition> {
    let engine = observed.engine;
    match &engine.topology.targets.not_accepted[policy as usize] {
        Some(message) => vec![Condition {
            kind: "Accepted",
            status: "False",
            reason: "TargetNotFound",
            message: message.clone(),
        }],
        None => vec![
            Condition {
                kind: "Accepted",
                status: "True",
                reason: "Accepted",
                message: format!(
                    "{} has been accepted",
                    engine.model.policies[policy as usize].kind.kind
                ),
            },
            enforced(observed, policy),
        ],
    }
}

/// Builds the status of every policy passing the filters.
pub fn build(observed: &Observed<'_, '_>, filters: &Filters) -> StatusReport {
    let model = observed.engine.model;
    let mut items: Vec<PolicyStatus> = (0..model.policies.len() as u32)
        .filter(|&p| filters.shows_policy(model, p))
        .map(|p| {
            let policy = &model.policies[p as usize];
            let mut rules: BTreeMap<&str, Vec<PathOutcome>> = policy
                .rules()
                .map(|(_, r)| (r.key.as_str(), Vec::new()))
                .collect();
            let paths = &observed.engine.topology.paths;
            for observation in observed
                .observations(p)
                .into_iter()
                .filter(|o| filters.shows_path(model, &paths[o.path as usize]))
            {
                rules
                    .entry(observation.key)
                    .or_default()
                    .push(path_outcome(observed, &observation));
            }
            PolicyStatus {
                policy: policy.locator.clone(),
                conditions: conditions(observed, p),
                rules: rules
                    .into_iter()
                    .map(|(key, outcomes)| RuleStatus {
                        key: key.to_string(),
                        outcomes,
                    })
                    .collect(),
                index: p,
            }
        })
        .collect();
    items.sort_by(|a, b| a.policy.cmp(&b.policy));
    StatusReport { items }
}

/// Counts of each outcome, in a fixed order, for summaries.
pub fn outcome_counts(outcomes: &[PathOutcome]) -> Vec<(&'static str, usize)> {
    [
        "effective",
        "superseded",
        "overridden",
        "deactivated",
        "not-applied",
    ]
    .into_iter()
    .map(|name| (name, outcomes.iter().filter(|o| o.outcome == name).count()))
    .filter(|(_, n)| *n > 0)
    .collect()
}

/// Whether an outcome means the rule lost.
pub fn lost(outcome: &Outcome) -> bool {
    *outcome != Outcome::Added
}
