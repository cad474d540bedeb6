//! An owned path's item from a fold: rules with `source` and `origins`, losses, `mergedFrom`,
//! `conf` and the explanation (§K7, §K10).

use super::merge::Fold;
use super::order::{COLUMNS, SortKey, compare_ranks};
use crate::model::Model;
use crate::policy::PolicyKind;
use crate::policy::owned::{OwnedExplanation, OwnedItem, OwnedLoss, OwnedRule, OwnedStep};
use serde_json::Value as Json;

/// One contribution to a path, in merge order.
#[derive(Clone, Debug)]
pub struct Contribution {
    /// The policy (index into `Model::policies`).
    pub policy: u32,
    /// `to[0]`, `rules[1]`, `from[0]`, `default`.
    pub entry: String,
    /// Its sort key.
    pub key: SortKey,
    /// Why it is relevant (`Mesh`, `whole service`, `exact`, `selected`).
    pub relevance: &'static str,
}

/// Where one item goes: its kind, path id and display segments.
pub struct Place {
    /// The kind.
    pub kind: &'static PolicyKind,
    /// The path id.
    pub path_id: String,
    /// The display segments.
    pub segments: Vec<String>,
}

/// The policies of `steps` (indices of contributions), highest priority first, each once.
pub fn highest_first(
    contributions: &[Contribution],
    steps: impl DoubleEndedIterator<Item = usize>,
) -> Vec<u32> {
    let mut policies = Vec::new();
    for s in steps.rev() {
        let p = contributions[s].policy;
        if !policies.contains(&p) {
            policies.push(p);
        }
    }
    policies
}

/// The rules of a fold.
pub fn fold_rules(contributions: &[Contribution], fold: &Fold) -> Vec<OwnedRule> {
    fold.leaves
        .iter()
        .map(|(key, leaf)| OwnedRule {
            key: key.clone(),
            value: leaf.value.clone(),
            source: contributions[leaf.source].policy,
            origins: highest_first(contributions, leaf.origins.iter().copied()),
        })
        .collect()
}

/// The losses of a fold.
pub fn fold_losses(contributions: &[Contribution], fold: &Fold) -> Vec<OwnedLoss> {
    fold.losses
        .iter()
        .map(|loss| OwnedLoss {
            key: loss.key.clone(),
            value: loss.value.clone(),
            policy: contributions[loss.step].policy,
            winner: contributions[loss.winner].policy,
        })
        .collect()
}

/// An item: `rules` (sorted here), `lost`, and the contributions (in merge order) for
/// `mergedFrom`, `policies` and the explanation; `conf` the merged conf.
pub fn item(
    model: &Model,
    place: Place,
    (mut rules, lost): (Vec<OwnedRule>, Vec<OwnedLoss>),
    contributions: &[Contribution],
    fold: Option<&Fold>,
    conf: Json,
) -> OwnedItem {
    rules.sort_by(|a, b| a.key.cmp(&b.key));
    let merged_from: Vec<Json> = (contributions.iter().rev())
        .map(|c| {
            Json::String(format!(
                "{}#{}",
                model.policies[c.policy as usize].locator, c.entry
            ))
        })
        .collect();
    let steps = contributions
        .iter()
        .enumerate()
        .map(|(s, c)| {
            // Without a fold (lists concatenated, matched rules kept apart), a contribution
            // adds the keys its policy is an origin of.
            let step = match fold {
                Some(fold) => fold.steps.get(s).cloned().unwrap_or_default(),
                None => super::merge::Step {
                    added: (rules.iter())
                        .filter(|r| r.origins.contains(&c.policy))
                        .map(|r| r.key.clone())
                        .collect(),
                    ..Default::default()
                },
            };
            OwnedStep {
                policy: c.policy,
                entry: c.entry.clone(),
                key: c.key.columns(),
                relevance: c.relevance.to_string(),
                added: step.added,
                replaced: step.replaced,
            }
        })
        .collect();
    OwnedItem {
        path_id: place.path_id,
        segments: place.segments,
        kind: place.kind,
        rules,
        lost,
        extra: vec![("mergedFrom", Json::Array(merged_from)), ("conf", conf)],
        policies: highest_first(contributions, 0..contributions.len()),
        explanation: OwnedExplanation {
            order: "lowest priority first (§K6: top-level kind, origin, role, to-kind, display name descending)".to_string(),
            key_columns: COLUMNS.to_vec(),
            steps,
            notes: tie_notes(model, contributions),
        },
    }
}

/// Why neighbouring contributions of two policies are in their order, when only names
/// decided it: the display name (§K6 6), or dopol's `<ns>/<name>` tie-break.
fn tie_notes(model: &Model, contributions: &[Contribution]) -> Vec<String> {
    let mut notes = Vec::new();
    for pair in contributions.windows(2) {
        let (lower, higher) = (&pair[0], &pair[1]);
        if lower.policy == higher.policy || !compare_ranks(&lower.key, &higher.key).is_eq() {
            continue;
        }
        let name = |c: &Contribution| model.policies[c.policy as usize].namespaced_name();
        let note = if lower.key.display == higher.key.display {
            format!(
                "{} and {} share the display name `{}`: Kuma's order is undefined; dopol applies {} last (smaller namespace/name)",
                name(lower),
                name(higher),
                higher.key.display,
                name(higher)
            )
        } else {
            format!(
                "{} is applied after {} by display name (`{}` < `{}`)",
                name(higher),
                name(lower),
                higher.key.display,
                lower.key.display
            )
        };
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    notes
}
