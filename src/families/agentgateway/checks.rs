//! agentgateway's own lint checks (docs/families.md §5.9), read from the folds' outcomes: ties at equal
//! specificity, conditional lists without fallback that hide a parent's value, `traffic.buffer`
//! set on several levels, Override on a route rule, and policies that say Attached but take
//! effect nowhere.

use super::diags::{
    AttachedButIneffective, BufferLeastSpecificWins, ConditionalShadowsParent, EqualSpecificityTie,
    OverrideOnRule,
};
use super::evaluate::AgwEvaluator;
use super::keys::{BUFFER, conditional_without_fallback};
use crate::diag::Diagnostic;
use crate::engine::fold::{RuleEvent, RuleRef};
use crate::engine::observed::Observed;
use crate::model::Model;
use std::collections::{BTreeMap, BTreeSet};

/// Every finding of the family.
pub fn check(evaluator: &AgwEvaluator<'_>, observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut found = Scan::default();
    let mut paths = vec![0usize; observed.shared.results.len()];
    for entry in &observed.shared.entries {
        paths[entry.fold as usize] += 1;
    }
    for (i, result) in observed.shared.results.iter().enumerate() {
        let ours = result.policies.first().is_some_and(|&p| evaluator.owns(p));
        if ours && paths[i] > 0 {
            found.fold(model, result, paths[i]);
        }
    }
    let mut out = found.ties(evaluator);
    out.extend(found.shadows(model));
    out.extend(found.buffers(model));
    out.extend(overrides_on_rules(evaluator));
    out.extend(ineffective(evaluator, observed));
    out.extend(super::leaks::checks(evaluator));
    out
}

/// What the folds' outcomes show, keyed for one finding each.
#[derive(Default)]
struct Scan {
    /// (key, winner) → losers.
    ties: BTreeMap<(String, u32), BTreeSet<RuleRef>>,
    /// (key, winner, hidden parent) → paths.
    shadows: BTreeMap<(String, u32, RuleRef), usize>,
    /// (winner, ignored) → paths.
    buffers: BTreeMap<(u32, RuleRef), usize>,
}

impl Scan {
    /// Notes the findings of one fold, shared by `paths` paths.
    fn fold(&mut self, model: &Model, result: &crate::engine::PathOutcomes<'_>, paths: usize) {
        let effective = &result.folded.effective;
        for (rule, event) in result.outcomes.iter() {
            let policy = &model.policies[rule.policy as usize];
            let key = policy.blocks[0].rules[rule.rule()].key.as_str();
            match event {
                RuleEvent::Tie { by } => {
                    let losers = self.ties.entry((key.to_string(), *by)).or_default();
                    losers.insert(*rule);
                }
                RuleEvent::Superseded { by } if key == BUFFER => {
                    if let Some(&winner) = by.first() {
                        *self.buffers.entry((winner, *rule)).or_default() += paths;
                    }
                }
                RuleEvent::Superseded { by } => {
                    let Some(winner) = effective.get(key) else {
                        continue;
                    };
                    let shadowing = by.first() == Some(&winner.policy)
                        && conditional_without_fallback(key, winner.value(model));
                    if shadowing {
                        let at = (key.to_string(), winner.policy, *rule);
                        *self.shadows.entry(at).or_default() += paths;
                    }
                }
                _ => {}
            }
        }
    }

    fn ties(&self, evaluator: &AgwEvaluator<'_>) -> Vec<Diagnostic> {
        let model = evaluator.model;
        let targets = &evaluator.topology.targets.of_policy;
        self.ties
            .iter()
            .map(|((key, winner), losers)| {
                let first = losers.iter().next().map_or(*winner, |r| r.policy);
                let level = targets[*winner as usize]
                    .iter()
                    .find(|t| targets[first as usize].contains(t))
                    .map_or_else(|| "one level".to_string(), |t| t.describe(model));
                let losing: BTreeSet<u32> = losers.iter().map(|r| r.policy).collect();
                let finding = EqualSpecificityTie {
                    key,
                    level: &level,
                    winner: &model.policies[*winner as usize],
                    losers: losing
                        .iter()
                        .map(|&p| &model.policies[p as usize])
                        .collect(),
                };
                let winner = &model.policies[*winner as usize];
                let mut diagnostic = Diagnostic::from(finding).with_object(winner.display());
                for rule in losers {
                    diagnostic = diagnostic.with_label(key_span(model, *rule), "tie");
                }
                diagnostic
            })
            .collect()
    }

    fn shadows(&self, model: &Model) -> Vec<Diagnostic> {
        self.shadows
            .iter()
            .map(|((key, winner, parent), paths)| {
                let winner_policy = &model.policies[*winner as usize];
                let finding = ConditionalShadowsParent {
                    key,
                    winner: winner_policy,
                    parent: &model.policies[parent.policy as usize],
                    paths: *paths,
                };
                let span = winner_policy.blocks[0]
                    .rules
                    .iter()
                    .find(|r| r.key.as_str() == key)
                    .map_or(winner_policy.name_span, |r| r.key_span);
                Diagnostic::from(finding)
                    .with_label(span, "no fallback entry")
                    .with_label(key_span(model, *parent), "hidden")
                    .with_object(winner_policy.display())
            })
            .collect()
    }

    fn buffers(&self, model: &Model) -> Vec<Diagnostic> {
        self.buffers
            .iter()
            .map(|((winner, ignored), paths)| {
                let ignored_policy = &model.policies[ignored.policy as usize];
                let finding = BufferLeastSpecificWins {
                    winner: &model.policies[*winner as usize],
                    ignored: ignored_policy,
                    paths: *paths,
                };
                Diagnostic::from(finding)
                    .with_label(key_span(model, *ignored), "ignored")
                    .with_object(ignored_policy.display())
            })
            .collect()
    }
}

/// Where a rule's key is written.
fn key_span(model: &Model, rule: RuleRef) -> crate::source::Span {
    model.policies[rule.policy as usize].blocks[0].rules[rule.rule()].key_span
}

/// `inheritance: Override` on a policy targeting a route rule.
fn overrides_on_rules(evaluator: &AgwEvaluator<'_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    (0..model.policies.len() as u32)
        .filter(|&p| evaluator.owns(p) && evaluator.over(p))
        .filter_map(|p| {
            let policy = &model.policies[p as usize];
            let on_rule = policy.targets.iter().find(|t| {
                matches!(t.kind.as_str(), "HTTPRoute" | "GRPCRoute") && t.section_name.is_some()
            })?;
            let span = on_rule.section_span.unwrap_or(on_rule.span);
            let finding = OverrideOnRule { policy };
            Some(
                Diagnostic::from(finding)
                    .with_label(span, "a route rule: nothing is more specific")
                    .with_object(policy.display()),
            )
        })
        .collect()
}

/// Policies on some path whose every rule lost everywhere.
fn ineffective(evaluator: &AgwEvaluator<'_>, observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = evaluator.model;
    let mut out = Vec::new();
    for p in 0..model.policies.len() as u32 {
        let policy = &model.policies[p as usize];
        if !evaluator.owns(p) || !policy.errors.is_empty() {
            continue;
        }
        let mut causes = BTreeSet::new();
        let mut any = false;
        let mut effective = false;
        for observation in observed.each_observation(p) {
            any = true;
            let outcome = observation.outcome;
            if matches!(outcome, RuleEvent::Added | RuleEvent::Merged { .. }) {
                effective = true;
                break;
            }
            let by: Vec<&str> = observed.locators(outcome.by());
            causes.insert(format!(
                "`{}` {} by {}",
                observation.key,
                outcome.as_str(),
                by.join(", ")
            ));
        }
        if any && !effective {
            let finding = AttachedButIneffective {
                policy,
                causes: causes.into_iter().collect(),
            };
            out.push(
                Diagnostic::from(finding)
                    .with_label(policy.name_span, "Attached, effective nowhere")
                    .with_object(policy.display()),
            );
        }
    }
    out
}
