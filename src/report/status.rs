//! `dopol status`: the conditions each policy's controller would write on it, computed offline
//! by its family (docs/semantics.md#5-outcomes-status-and-reach; docs/families.md §2.7, §3.5), and every rule's outcome on every path.

use crate::engine::observed::{Observation, Observed};
use crate::engine::outcomes::Outcome;
use crate::policy::NamedStrategy;
use crate::report::filter::Filters;
use crate::topology::PathId;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

pub use crate::policy::evaluator::{AncestorStatus, Condition, PolicyConditions};

/// One rule outcome on one path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathOutcome<'a> {
    /// The path id.
    #[serde(rename = "pathId")]
    pub path_id: PathId<'a>,
    /// `effective`, `superseded`, `overridden`, `deactivated`, `not-applied`.
    pub outcome: &'static str,
    /// Locators of the deciding policies.
    pub by: Vec<&'a str>,
    /// Why, for `not-applied`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
}

/// A rule and its outcomes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleStatus<'a> {
    /// Rule key.
    pub key: &'a str,
    /// Outcomes in path order.
    pub outcomes: Vec<PathOutcome<'a>>,
    /// Outcomes on listeners no route is attached to, for kinds whose policies configure
    /// listeners (docs/families.md, "Listener-level settings"); in listener order.
    #[serde(rename = "listenerOutcomes", skip_serializing_if = "Vec::is_empty")]
    pub listener_outcomes: Vec<ListenerOutcome<'a>>,
    /// Outcomes on the paths of owned hierarchies (a mesh's proxies), in path order.
    #[serde(rename = "ownedOutcomes", skip_serializing_if = "Vec::is_empty")]
    pub owned_outcomes: Vec<OwnedOutcome<'a>>,
}

/// What happened to a rule on a path of an owned hierarchy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnedOutcome<'a> {
    /// The path id.
    #[serde(rename = "pathId")]
    pub path_id: &'a str,
    /// `effective`, `merged` (one of several origins) or `superseded`.
    pub outcome: &'static str,
    /// Locators of the deciding policies.
    pub by: Vec<&'a str>,
}

/// The outcomes of policy `p`'s values on the owned paths `filters` shows, keyed by rule key, in
/// path order: `effective` where it is a value's source, `merged` where it is another of its
/// origins, `superseded` (by the winner) where a later contribution replaced it.
pub fn owned_outcomes<'a>(
    observed: &'a Observed<'_, '_>,
    filters: &Filters,
    p: u32,
) -> Vec<(&'a str, OwnedOutcome<'a>)> {
    let engine: &'a crate::engine::Engine<'_> = observed.engine;
    let locator = |q: u32| crate::report::owned::locator(engine.model, q);
    let mut outcomes = Vec::new();
    for paths in engine.owned() {
        let shown = (paths.items.iter())
            .filter(|i| i.policies.contains(&p) && filters.shows_owned(paths, i));
        for item in shown {
            for rule in item.rules.iter().filter(|r| r.origins.contains(&p)) {
                let (outcome, by) = match rule.source == p {
                    true => ("effective", Vec::new()),
                    false => ("merged", vec![locator(rule.source)]),
                };
                let path_id = item.path_id.as_str();
                outcomes.push((
                    rule.key.as_str(),
                    OwnedOutcome {
                        path_id,
                        outcome,
                        by,
                    },
                ));
            }
            for lost in item.lost.iter().filter(|l| l.policy == p) {
                let outcome = OwnedOutcome {
                    path_id: &item.path_id,
                    outcome: "superseded",
                    by: vec![locator(lost.winner)],
                };
                outcomes.push((lost.key.as_str(), outcome));
            }
        }
    }
    outcomes
}

/// What happened to a rule on a listener no route is attached to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListenerOutcome<'a> {
    /// The listener id (`<class>|<ns>/<gw>|<ns>/<gw>#<listener>`).
    #[serde(rename = "listenerId")]
    pub listener_id: String,
    /// As [`PathOutcome::outcome`].
    pub outcome: &'static str,
    /// Locators of the deciding policies.
    pub by: Vec<&'a str>,
}

/// A policy's status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PolicyStatus<'a> {
    /// Locator.
    pub policy: &'a str,
    /// Top-level conditions (e.g. `Accepted`, then `Enforced` for accepted policies).
    pub conditions: Vec<Condition>,
    /// Per-ancestor conditions, for families whose controllers write them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ancestors: Option<Vec<AncestorStatus>>,
    /// The strategies it merges by, in its family's words and GEP-713's.
    pub strategies: Vec<NamedStrategy>,
    /// dopol's own per-target outcome under each ancestor Gateway (GEP-5058's shape).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dopol: Option<super::status_targets::DopolStatus>,
    /// Every rule key of the policy, sorted.
    pub rules: Vec<RuleStatus<'a>>,
    /// Index into `Model::policies` (not serialized).
    #[serde(skip)]
    pub index: u32,
    /// The policy's kind (not serialized; for tables).
    #[serde(skip)]
    pub policy_kind: &'static str,
}

/// The strategies policy `p` merges by (`strategies` of its status).
pub fn strategies(observed: &Observed<'_, '_>, p: u32) -> Vec<NamedStrategy> {
    let model = observed.engine.model;
    let policy = &model.policies[p as usize];
    model.registry.family_of(policy.kind).strategies(policy)
}

/// Converts an outcome to its report form.
pub fn path_outcome<'a>(
    observed: &'a Observed<'_, '_>,
    observation: &Observation<'a>,
) -> PathOutcome<'a> {
    PathOutcome {
        path_id: observed.engine.topology.path_id(observation.path as usize),
        outcome: observation.outcome.as_str(),
        by: observed.locators(observation.outcome.by()),
        reason: observation.outcome.reason(),
    }
}

/// A policy's conditions, as its family's controller writes them.
pub fn conditions(observed: &Observed<'_, '_>, policy: u32) -> Vec<Condition> {
    policy_conditions(observed, policy).conditions
}

/// A policy's conditions and per-ancestor conditions.
pub fn policy_conditions(observed: &Observed<'_, '_>, policy: u32) -> PolicyConditions {
    observed.conditions(policy)
}

/// The policies passing the filters, in the report's order (by locator).
pub fn order(observed: &Observed<'_, '_>, filters: &Filters) -> Vec<u32> {
    let model = observed.engine.model;
    let mut order: Vec<u32> = (0..model.policies.len() as u32)
        .filter(|&p| filters.shows_policy(model, p))
        .collect();
    order.sort_by(|&a, &b| {
        let locator = |p: u32| &model.policies[p as usize].locator;
        locator(a).cmp(locator(b))
    });
    order
}

/// The status of one policy, with the outcomes on the paths passing the filters.
pub fn policy_status<'a>(
    observed: &'a Observed<'_, '_>,
    filters: &Filters,
    p: u32,
) -> PolicyStatus<'a> {
    let policy = &observed.engine.model.policies[p as usize];
    let mut rules: BTreeMap<&str, Vec<PathOutcome<'a>>> = rule_keys(observed, p)
        .into_iter()
        .map(|key| (key, Vec::new()))
        .collect();
    let entries = &observed.entries_of_policy[p as usize];
    for observation in shown_observations(observed, filters, p, entries) {
        rules
            .entry(observation.key)
            .or_default()
            .push(path_outcome(observed, &observation));
    }
    let mut on_listeners: BTreeMap<&str, Vec<ListenerOutcome<'a>>> = BTreeMap::new();
    for (key, outcome) in listener_outcomes(observed, filters, p) {
        on_listeners.entry(key).or_default().push(outcome);
    }
    let mut on_owned: BTreeMap<&str, Vec<OwnedOutcome<'a>>> = BTreeMap::new();
    for (key, outcome) in owned_outcomes(observed, filters, p) {
        rules.entry(key).or_default();
        on_owned.entry(key).or_default().push(outcome);
    }
    let status = policy_conditions(observed, p);
    PolicyStatus {
        policy: &policy.locator,
        conditions: status.conditions,
        ancestors: status.ancestors,
        strategies: strategies(observed, p),
        dopol: super::status_targets::dopol_status(observed, filters, p),
        rules: rules
            .into_iter()
            .map(|(key, outcomes)| RuleStatus {
                key,
                outcomes,
                listener_outcomes: on_listeners.remove(key).unwrap_or_default(),
                owned_outcomes: on_owned.remove(key).unwrap_or_default(),
            })
            .collect(),
        index: p,
        policy_kind: policy.kind.kind,
    }
}

/// The outcomes of policy `p`'s rules on the listeners no route is attached to that `filters`
/// shows (`Engine::listener_folds`), keyed by rule key, in listener order.
pub fn listener_outcomes<'a>(
    observed: &'a Observed<'_, '_>,
    filters: &Filters,
    p: u32,
) -> Vec<(&'a str, ListenerOutcome<'a>)> {
    let model = observed.engine.model;
    let policy = &model.policies[p as usize];
    let folds = observed.listener_folds();
    let shown = folds
        .iter()
        .filter(|f| f.policies.contains(&p) && filters.shows_listener(model, f.gateway));
    let mut outcomes = Vec::new();
    for fold in shown {
        let id = crate::report::effective::listener_id(model, fold.gateway, fold.listener);
        for (rule, outcome) in fold.outcomes.iter().filter(|(r, _)| r.policy == p) {
            let key = policy.blocks[rule.block()].rules[rule.rule()].key.as_str();
            outcomes.push((
                key,
                ListenerOutcome {
                    listener_id: id.clone(),
                    outcome: outcome.as_str(),
                    by: observed.locators(outcome.by()),
                },
            ));
        }
    }
    outcomes
}

/// The keys of policy `p`'s rules, sorted and each once: its status lists each with its outcomes
/// (every observation's key is among them).
pub fn rule_keys<'m>(observed: &Observed<'_, 'm>, p: u32) -> BTreeSet<&'m str> {
    let policy = &observed.engine.model.policies[p as usize];
    policy.rules().map(|(_, r)| r.key.as_str()).collect()
}

/// The outcomes of policy `p`'s rules on `entries` (a run of its `entries_of_policy`) whose
/// paths pass the filters, in path order (then rule order).
pub fn shown_observations<'a>(
    observed: &'a Observed<'_, '_>,
    filters: &Filters,
    p: u32,
    entries: &'a [u32],
) -> impl Iterator<Item = Observation<'a>> {
    let model = observed.engine.model;
    let topology = observed.engine.topology;
    observed
        .observations_on(p, entries)
        .filter(move |o| filters.shows_path(model, topology, o.path))
}

/// `PolicyStatusList` for the machine formats, each policy's status built as it is written
/// and dropped after it (a few policies' outcomes are held at a time, never every policy's).
pub fn stream<'a>(
    observed: &'a Observed<'_, '_>,
    filters: &'a Filters,
) -> crate::report::LazyList<impl Fn(u32) -> std::iter::Once<PolicyStatus<'a>> + 'a> {
    crate::report::LazyList {
        kind: "PolicyStatusList",
        order: order(observed, filters),
        items: |p| std::iter::once(policy_status(observed, filters, p)),
    }
}

/// The outcomes, in the order summaries count them.
pub const OUTCOMES: [&str; 7] = [
    "effective",
    "superseded",
    "overridden",
    "deactivated",
    "merged",
    "tie",
    "not-applied",
];

/// Counts of each outcome (`outcomes`: their names), in a fixed order, for summaries.
pub fn outcome_counts<'o>(
    outcomes: impl Iterator<Item = &'o str> + Clone,
) -> Vec<(&'static str, usize)> {
    OUTCOMES
        .into_iter()
        .map(|name| (name, outcomes.clone().filter(|o| *o == name).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// Whether an outcome means the rule lost.
pub fn lost(outcome: &Outcome) -> bool {
    !matches!(outcome, Outcome::Added | Outcome::Merged { .. })
}
